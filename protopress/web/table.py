"""The playtest table: `protopress play GAME --web`, people against the bots.

Any game of the engine contract plays here, Python or data rules: the page draws
the table from the seat's view (rules/observe.py), lists the legal actions of a
person's decision in the words of the game's action codec, and asks the server
to move the bots one at a time. This module knows no game.

- Only the seat on screen is ever sent: the view of that seat, the log, and the
  legal actions when it is that seat's decision. With several people at one
  screen (hot seat), a move that hands the decision to another person's seat
  sends nothing of the table but "pass the device", until that person says ready.
- A bot's move is seeded from the game's seed, its seat and the number of the
  decision: the same log always gives the same bot moves, so an undo (back to
  before the person's last move) replays from the start and the bots move as
  they did, and a saved game resumes exactly.
- The save (atomic JSON, in the folder `solo --web` saves in, unless --save) is
  written before a reply leaves; a finished game also writes a normal action log
  beside it, which `protopress replay` accepts.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from protopress.atomic import write_atomic
from protopress.components.catalog import Catalog
from protopress.components.loader import parse_json_file
from protopress.components.problems import InvalidInput
from protopress.files import data_dir
from protopress.rules.actions import MOVER, positions_of
from protopress.rules.bot_names import make_bot
from protopress.rules.core import Action, AnyGame, checked_apply, codec_of, derive_seed
from protopress.rules.observe import key_text, observation
from protopress.rules.simulate import MAX_DECISIONS, PERSON, GameRecord, log_of
from protopress.web.faces import Faces
from protopress.web.server import page, static_files
from protopress.web.solo import face_response

SAVE_FORMAT = "protopress-play/1"
PAGE = Path(__file__).parent / "static"


class TableError(ValueError):
    """A request the table refuses: said to the page, nothing changed."""


class Stale(TableError):
    """A request made for another point of the game than where it is (a second tap,
    a reply lost and the request sent again, another window)."""


@dataclass(frozen=True)
class TableSetup:
    """What a game at the table is: the rules, the catalog, who sits where, the seed."""

    game: str
    catalog: str  # a built-in game id or a catalog file, as a log names it
    catalog_version: str
    seats: tuple[str, ...]  # PERSON or a bot's name, in seat order
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    rules: str | None = None  # the --rules reference, for the log

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(seat for seat, who in enumerate(self.seats) if who == PERSON)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "catalog": self.catalog,
            "catalog_version": self.catalog_version,
            "seats": list(self.seats),
            "seed": self.seed,
            "options": dict(self.options),
            **({"rules": self.rules} if self.rules else {}),
        }


def default_save_path(game: str) -> Path:
    """play-GAME.json in the user's data folder, beside the solo companion's saves."""
    return data_dir() / f"play-{game}.json"


def read_save(path: Path) -> tuple[TableSetup, list[Any]]:
    """(setup, the logged actions) of a saved game; TableError naming what is wrong."""
    try:
        data = parse_json_file(path, str(path))
    except InvalidInput as invalid:
        raise TableError(str(invalid.problems[0])) from None
    try:
        if data.get("format") != SAVE_FORMAT:
            raise TypeError(f"format is not {SAVE_FORMAT!r}")
        setup = TableSetup(
            game=str(data["game"]),
            catalog=str(data["catalog"]),
            catalog_version=str(data.get("catalog_version", "")),
            seats=tuple(str(seat) for seat in data["seats"]),
            seed=int(data["seed"]),
            options=dict(data.get("options") or {}),
            rules=data.get("rules"),
        )
        actions = list(data["actions"])
        if PERSON not in setup.seats:
            raise ValueError(f"no seat is a {PERSON!r}")
        for who in setup.seats:
            if who != PERSON:
                make_bot(who, 0)  # ValueError naming the bots there are
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise TableError(f"{path}: not a saved playtest game ({detail})") from None
    return setup, actions


@dataclass(frozen=True)
class Move:
    """One decision taken: by whom, and the action in the codec's words and JSON form."""

    seat: int
    by: str  # PERSON or the bot's name
    words: str
    encoded: list[Any]


class PlayTable:
    """One game at the table: the engine, the log, whose view is on screen, the save."""

    def __init__(
        self,
        game: AnyGame,
        catalog: Catalog,
        setup: TableSetup,
        save_path: Path,
        logged: Sequence[Any] = (),
    ):
        self.game = game
        self.catalog = catalog
        self.setup = setup
        self.save_path = save_path
        self.codec = codec_of(game)
        self.lock = threading.Lock()
        self.components = _component_index(catalog)
        self.state, self.moves = self._replayed(logged)
        self.viewer = self._first_viewer()
        self.passing: int | None = None  # the person to hand the device to
        self.notice = ""
        self.log_path: Path | None = None
        self._start_fields: dict[tuple[int, int], dict[str, Any]] = {}
        self._write()

    # --- the game -------------------------------------------------------------

    def _replayed(self, logged: Sequence[Any]) -> tuple[Any, list[Move]]:
        """The state after the logged actions, each checked for legality."""
        setup = self.setup
        try:
            state = self.game.setup(
                self.catalog, len(setup.seats), random.Random(setup.seed), dict(setup.options)
            )
        except ValueError as error:  # players or options the game does not take
            raise TableError(f"the game cannot be set up: {error}") from None
        moves: list[Move] = []
        for number, raw in enumerate(logged):
            seat = self.game.to_move(state)
            if seat is None:
                raise TableError(f"action {number}: the game is already over")
            try:
                act = self.codec.decode(raw)
                checked_apply(self.game, state, act)
            except ValueError as error:
                raise TableError(f"action {number}: {error}") from None
            moves.append(Move(seat, setup.seats[seat], self.codec.words(act), list(raw)))
        return state, moves

    def _first_viewer(self) -> int:
        """The person whose view is on screen at the start: the one to move, else the first."""
        mover = self.game.to_move(self.state)
        people = self.setup.people
        return mover if mover in people else people[0]

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state) or len(self.moves) >= MAX_DECISIONS

    def mover(self) -> int | None:
        return None if self.over else self.game.to_move(self.state)

    def legal(self) -> list[Action]:
        return [] if self.over else list(self.game.legal_actions(self.state))

    def bot_name(self, seat: int) -> str | None:
        who = self.setup.seats[seat]
        return None if who == PERSON else who

    def play(self, encoded: Any, after: int) -> None:
        """The person on screen takes an action of their decision (the codec's JSON form)."""
        with self.lock:
            self._expect(after)
            mover = self.mover()
            if mover is None or self.bot_name(mover) is not None or mover != self.viewer:
                raise Stale("It is not your decision now: here is where the game is.")
            try:
                act = self.codec.decode(encoded)
                checked_apply(self.game, self.state, act)
            except ValueError as error:
                raise TableError(str(error)) from None
            self._taken(mover, act)

    def bot_move(self, after: int) -> None:
        """The bot to move takes its one move."""
        with self.lock:
            self._expect(after)
            mover = self.mover()
            if mover is None or self.passing is not None:
                raise Stale("No bot is to move now: here is where the game is.")
            name = self.bot_name(mover)
            if name is None:
                raise Stale("A person is to move, not a bot: here is where the game is.")
            bot = make_bot(name, derive_seed(self.setup.seed, "bot", mover, len(self.moves)))
            act = bot.choose(self.game, self.state, self.legal())
            self.game.apply(self.state, act)
            self._taken(mover, act)

    def _taken(self, seat: int, act: Action) -> None:
        self.moves.append(
            Move(seat, self.setup.seats[seat], self.codec.words(act), self.codec.encode(act))
        )
        self.notice = ""
        self._hand_over()
        self._write()

    def _hand_over(self) -> None:
        """When another person's decision comes, the device is to be passed to them."""
        mover = self.mover()
        if mover is not None and self.bot_name(mover) is None and mover != self.viewer:
            self.passing = mover

    def ready(self, seat: int) -> None:
        """The person the device was passed to has it: their view is shown."""
        with self.lock:
            if self.passing != seat:
                raise Stale("The device is not being passed to that seat: here is the game.")
            self.viewer, self.passing = seat, None

    def undo(self, after: int) -> None:
        """Take back the last move of the person on screen and every move after it; the
        game replays from the start to there, the bots moving as they did."""
        with self.lock:
            self._expect(after)
            if self.passing is not None:
                raise Stale("Pass the device first: the undo is the next person's to ask.")
            mine = [n for n, move in enumerate(self.moves) if move.seat == self.viewer]
            mine = [n for n in mine if self.moves[n].by == PERSON]
            if not mine:
                raise TableError("Nothing to undo: you have made no move yet.")
            back = mine[-1]
            undone = self.moves[back]
            self.state, self.moves = self._replayed([m.encoded for m in self.moves[:back]])
            self.log_path = None
            count = after - back
            others = f" and {count - 1} move{'s' * (count > 2)} after it" if count > 1 else ""
            self.notice = f"Undone: {undone.words}{others}."
            self._write()

    def new_game(self, seed: int) -> None:
        """A new game with the same seats, from seed (the finished or left one stays in
        its log, if finished)."""
        with self.lock:
            self.setup = dataclasses.replace(self.setup, seed=seed)
            self.state, self.moves = self._replayed([])
            self.viewer, self.passing, self.log_path = self._first_viewer(), None, None
            self.notice = f"A new game, seed {seed}."
            self._write()

    def _expect(self, after: int) -> None:
        now = len(self.moves)
        if after != now:
            raise Stale(
                f"The game is at move {now}, not the {after} this page saw (a tap sent "
                "twice, or another window): here is where it is now."
            )

    # --- files ------------------------------------------------------------------

    def _write(self) -> None:
        """The save, and once the game is over the action log for `protopress replay`."""
        save = {
            "format": SAVE_FORMAT,
            **self.setup.to_json(),
            "actions": [move.encoded for move in self.moves],
        }
        write_atomic(self.save_path, (json.dumps(save, indent=1) + "\n").encode())
        if self.over and self.log_path is None:
            self.log_path = self._write_log()

    def replay_log(self) -> dict[str, Any]:
        """The finished game as a normal action log (`protopress replay`)."""
        game, state, setup = self.game, self.state, self.setup
        record = GameRecord(
            index=0,
            seed=setup.seed,
            bots=list(setup.seats),
            scores=list(game.scores(state)),
            winners=list(game.winners(state)),
            turns=state.turns,
            decisions=len(self.moves),
            limit=not game.is_over(state),
        )
        actions = [self.codec.decode(move.encoded) for move in self.moves]
        return log_of(game, setup.catalog, setup.catalog_version, setup.seats, setup.seed,
                      setup.options, actions, record, setup.rules)  # fmt: skip

    def _write_log(self) -> Path:
        folder = self.save_path.parent / "play-logs"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.setup.game}-{self.setup.seed}-{len(self.moves)}.json"
        if not path.exists():  # a resumed finished game: its log is written already
            write_atomic(path, (json.dumps(self.replay_log()) + "\n").encode())
        return path

    # --- what the page shows ------------------------------------------------------

    @functools.cached_property
    def faces(self) -> Faces:
        return Faces(self.catalog)

    def names(self) -> list[str]:
        """Each seat as the page names it: You (one person), Player N (hot seat), the bot."""
        people = self.setup.people
        shown = []
        for seat, who in enumerate(self.setup.seats):
            if who != PERSON:
                shown.append(f"{who.partition(':')[0].capitalize()} (seat {seat})")
            elif len(people) == 1:
                shown.append("You")
            else:
                shown.append(f"Player {seat + 1}")
        return shown

    def view(self) -> dict[str, Any]:
        """Everything the page gets: only what the seat on screen may see."""
        with self.lock:
            common = {
                "game": self.setup.game,
                "seed": self.setup.seed,
                "moves": len(self.moves),
                "names": self.names(),
                "people": list(self.setup.people),
                "notice": self.notice,
                "save": self.save_path.name,
            }
            if self.passing is not None:
                return common | {"pass_to": self.passing}
            mover = self.mover()
            legal = self.legal()  # first: a game may cache them in the state it then shows
            seen = observation(
                self.game, self.state, self.viewer, len(self.setup.seats), self._kind_of
            )
            yours = mover == self.viewer and self.bot_name(self.viewer) is None
            return common | {
                "pass_to": None,
                "viewer": self.viewer,
                "mover": mover,
                "bot_to_move": mover is not None and self.bot_name(mover) is not None,
                "over": self.over,
                "table": seen,
                "unchanged": self._unchanged(seen),
                "components": self._components_in(seen),
                "actions": [self._action(act, seen) for act in legal] if yours else [],
                "log": [{"seat": m.seat, "by": m.by, "words": m.words} for m in self.moves],
                "replay_log": None if self.log_path is None else self.log_path.name,
            }

    def _unchanged(self, seen: Mapping[str, Any]) -> list[str]:
        """The view's immutable fields (observe's "fixed") still as at the start of the
        game: the game's tables and settings, which the page tucks away."""
        fields, fixed = seen.get("fields"), seen.get("fixed")
        if not isinstance(fields, dict) or not isinstance(fixed, list):
            return []
        key = (self.setup.seed, self.viewer)
        start = self._start_fields.get(key)
        if start is None:
            first, _ = self._replayed([])
            start = observation(
                self.game, first, self.viewer, len(self.setup.seats), self._kind_of
            ).get("fields", {})
            self._start_fields = {key: start}
        return [name for name in fixed if fields.get(name) and start.get(name) == fields[name]]

    def _action(self, act: Action, seen: Mapping[str, Any]) -> dict[str, Any]:
        """The action for the page: its words, its JSON form, the components it names
        by id ("names") and the places in the view it names by position ("at": paths
        into the view's fields, where the page draws what lies there)."""
        encoded = self.codec.encode(act)
        named = [value for value in encoded[1:] if isinstance(value, str)]
        return {
            "words": self.codec.words(act),
            "encoded": encoded,
            "names": [value for value in named if value in self.components],
            "at": _places(act, seen.get("fields"), self.viewer),
        }

    def _kind_of(self, card: Any) -> str | None:
        ident = card if isinstance(card, str) else getattr(card, "id", None)
        found = self.components.get(ident) if isinstance(ident, str) else None
        return None if found is None else found.kind

    def _components_in(self, seen: Any) -> dict[str, dict[str, Any]]:
        """The catalog components the view names (by id), with their faces."""
        found: dict[str, dict[str, Any]] = {}
        for text in _strings(seen):
            entry = self.components.get(text)
            if entry is None or text in found:
                continue
            kind, name, colour = entry
            faces = self.faces
            image = faces.image(kind, text) if faces.sides(kind) else None
            found[text] = {"kind": kind, "name": name, "image": image, "colour": colour}
        for hidden in _hidden_kinds(seen):
            if not self.faces.sides(hidden):
                continue
            first = self.catalog.of_kind(hidden)[0].id
            back = "back" if "back" in self.faces.sides(hidden) else None
            found[f"back:{hidden}"] = {
                "kind": hidden,
                "name": hidden,
                "image": None if back is None else self.faces.image(hidden, first, back),
            }
        return found


def _places(act: Action, fields: Any, mover: int) -> list[list[str | int]]:
    """The paths in the view's fields of what act names by position (its fields declared
    with @positions), where the view has that place (an empty box of a grid is one): a
    place out of the view, hidden or unseen is no place to tap, and an action naming
    such a place among others is no tap at all (a tap on its other place would be
    taken for it). A position that is no index is a mapping's key, as the view writes it."""
    found: list[list[str | int]] = []
    for zone, where in positions_of(act):
        path = [_step(part, mover) for part in (*zone, where)]
        value: Any = fields
        for part in path:
            value = _part(value, part)
        if value is _ABSENT or (
            isinstance(value, dict) and ("hidden" in value or "unseen" in value)
        ):
            return []
        found.append(path)
    return found


def _step(part: object, mover: int) -> str | int:
    """A part of a declared zone's path as the view's path: MOVER as the mover's seat, a
    mapping's key (a cell) as the view writes it."""
    if part is MOVER:
        return mover
    return part if isinstance(part, str | int) else key_text(part)


_ABSENT = object()  # no such part in the view


def _part(value: Any, key: str | int) -> Any:
    """value[key] of a view's object or list; _ABSENT where there is no such part."""
    if isinstance(key, str) and isinstance(value, dict):
        return value.get(key, _ABSENT)
    if isinstance(key, int) and isinstance(value, list) and 0 <= key < len(value):
        return value[key]
    return _ABSENT


class Known(NamedTuple):
    """A catalog component as the page names it: its kind, name and colour (a symbol's)."""

    kind: str
    name: str
    colour: str | None


def _component_index(catalog: Catalog) -> dict[str, Known]:
    """id -> what the page shows of every component; the first kind wins an id used twice."""
    index: dict[str, Known] = {}
    for kind, components in catalog.components.items():
        for component in components:
            name = component.get("name") or component.get("title") or component.id
            colour = component.get("colour")
            shown = colour if isinstance(colour, str) and colour.startswith("#") else None
            index.setdefault(component.id, Known(kind, str(name), shown))
    return index


def _strings(value: Any) -> list[str]:
    """Every text in a JSON value (values and keys)."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found += [key for key in item if isinstance(key, str)]
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return found


def _hidden_kinds(value: Any) -> set[str]:
    kinds: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "hidden" in item and isinstance(item.get("kind"), str):
                kinds.add(item["kind"])
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return kinds


def table_app(table: PlayTable) -> Starlette:
    """The page's routes; the command puts them behind the gate."""

    def reply(status: int = 200, error: str = "") -> JSONResponse:
        body = table.view() | ({"error": error} if error else {})
        return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})

    def refused(error: TableError) -> JSONResponse:
        return reply(409 if isinstance(error, Stale) else 422, str(error))

    async def index(request: Request) -> Response:
        return page(PAGE / "table.html")

    async def get_state(request: Request) -> Response:
        return reply()

    async def post_play(request: Request) -> Response:
        body = await _json(request)
        after = _count(body.get("after"))
        if after is None:
            return reply(400, "after is the number of moves the page saw.")
        try:
            table.play(body.get("action"), after)
        except TableError as error:
            return refused(error)
        return reply()

    async def post_bot(request: Request) -> Response:
        after = _count((await _json(request)).get("after"))
        if after is None:
            return reply(400, "after is the number of moves the page saw.")
        try:
            table.bot_move(after)
        except TableError as error:
            return refused(error)
        return reply()

    async def post_undo(request: Request) -> Response:
        after = _count((await _json(request)).get("after"))
        if after is None:
            return reply(400, "after is the number of moves the page saw.")
        try:
            table.undo(after)
        except TableError as error:
            return refused(error)
        return reply()

    async def post_ready(request: Request) -> Response:
        seat = _count((await _json(request)).get("seat"))
        if seat is None:
            return reply(400, "seat is the seat the device was passed to.")
        try:
            table.ready(seat)
        except TableError as error:
            return refused(error)
        return reply()

    async def post_new(request: Request) -> Response:
        seed = _count((await _json(request)).get("seed"))
        if seed is None:
            return reply(400, "The seed is a whole number, 0 or more.")
        table.new_game(seed)
        return reply()

    def face(request: Request) -> Response:
        p = request.path_params
        return face_response(table.faces, p["kind"], p["ident"], p["side"])

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/state", get_state),
            Route("/api/play", post_play, methods=["POST"]),
            Route("/api/bot", post_bot, methods=["POST"]),
            Route("/api/undo", post_undo, methods=["POST"]),
            Route("/api/ready", post_ready, methods=["POST"]),
            Route("/api/new", post_new, methods=["POST"]),
            Route("/face/{kind}/{ident}/{side}.png", face),
            Mount("/static", static_files()),
        ]
    )


def _count(value: object) -> int | None:
    """A whole number 0 or more as a page sends it, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
