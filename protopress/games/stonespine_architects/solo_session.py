"""Stonespine Architects solo mode at the table: the program runs the rival.

The player plays with the physical game; the program keeps the rival's deck,
its two score piles and its reputation, and asks only what the rival must
know. Command: `protopress solo stonespine-architects`; the player's guide is
docs/solo.md, the rulings are docs/rules/stonespine-architects.md ("Solo
mode"). The rival itself is `stonespine_rival.Rival`, driven in the same order
as the virtual solo game in `stonespine.py`:

    setup        the face-up goal card
    each year    the rival reveals its card (the deck is shuffled from the seed)
      4 turns    the chamber cards left to the rival that show its symbol
      gold       the player's gold for the year (0-30)
      market     while the gold beats the rival card: buy (cost and tokens) or pass
                 otherwise the rival collects: the tokens drawn for it, then the
                 face-up challenges (years 1-3) to name the one to discard
      pass       the tokens left on the market (the rival takes them)
    the end      final gold, goal elements, the other score pad rows; the result

Every accepted answer is recorded as typed. The session (the answers, the
seed, the difficulty, the catalog version) is saved atomically after every
answer; resuming replays the answers through the same code, so the rival ends
up exactly where it was. A session killed at any moment (even mid-save) keeps
every answer whose next question was shown; a temporary left by a kill mid-save
is removed by the next session saving to the same file. `help`, `status` and `quit` work at every prompt.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from protopress.atomic import remove_stale_temporaries, write_atomic
from protopress.components.loader import parse_json_file
from protopress.components.problems import InvalidInput
from protopress.components.suggest import nearest
from protopress.games.stonespine_architects.dungeon import MAX_ELEMENTS, SIZE
from protopress.games.stonespine_architects.rival import (
    COLLECT,
    DIFFICULTIES,
    VISIT,
    Rival,
    RivalCard,
    gold_after_pass,
    lowest_challenge,
    rival_cards,
    solo_outcome,
)
from protopress.games.stonespine_architects.scoring import (
    ChamberCard,
    Scoring,
    Token,
    rank_points,
    solo_goal_place,
    solo_gold_place,
)

__all__ = ["GAME", "SAVE_FORMAT", "data_dir", "default_save_path", "run_session"]

GAME = "stonespine-architects"
SAVE_FORMAT = "protopress-solo-session"
SAVE_VERSION = 1
YEARS = 4
TURNS = SIZE  # construction turns a year: one per position of the row
HAND = 5  # chamber cards dealt at the start of each year
LEFT = (3, 2, 1, 1)  # cards left to the rival on each turn (hands of 5, 4, 3, 2)
CHALLENGE_YEARS = 3  # challenge cards are face up in years 1-3
SOLO_TABLE = 2  # solo lays out the market and challenges of a two-player game
MARKET_CARDS = 3  # market cards laid out in a solo game
CHALLENGES_SHOWN = SOLO_TABLE + 1  # challenge cards flipped in a solo game
CELLS = SIZE * SIZE
NONE_WORDS = ("", "none", "nothing", "no", "-", "0")
EMPTY = "empty"  # stands for a token a run-out supply pile could not give


# --- errors and control flow ------------------------------------------------------


class SessionError(Exception):
    """A save file that cannot be resumed, or a file that must not be overwritten."""


class Reject(ValueError):
    """An impossible answer: the message says why, and the question is asked again."""


class _Quit(Exception):
    pass


class _EndOfInput(Exception):
    pass


# --- where sessions are saved -------------------------------------------------------


def data_dir() -> Path:
    """The user's data directory for protopress (not created)."""
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        # the XDG spec ignores relative paths
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "protopress"


def default_save_path(game: str = GAME) -> Path:
    """The save file of a solo session in the user's data directory (created):
    $XDG_DATA_HOME/protopress or ~/.local/share/protopress on Linux,
    %APPDATA%\\protopress on Windows, ~/Library/Application Support/protopress on macOS."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"solo-{game}.json"


# --- names as the player types them ---------------------------------------------------


def _key(text: str) -> str:
    """A name as typed, an id or a title, reduced to id form: "Hermit's Cell" -> hermits-cell."""
    text = text.lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


class Names:
    """Ids and titles of one kind of thing, found by either, with a suggestion for typos."""

    def __init__(self, what: str, entries: Iterable[tuple[str, str, Any]]):
        self.what = what
        self.keys: dict[str, Any] = {}
        self.shown: dict[str, str] = {}  # key -> id, for suggestions
        for ident, title, value in entries:
            for key in (_key(ident), _key(title)):
                if key and key not in self.keys:
                    self.keys[key] = value
                    self.shown[key] = ident

    def find(self, phrase: str):
        return self.keys.get(_key(phrase))

    def unknown(self, phrase: str) -> Reject:
        match = nearest(_key(phrase), self.keys)
        hint = f" (did you mean {self.shown[match]}?)" if match else ""
        return Reject(f"I do not know the {self.what} {phrase!r}{hint}.")


_COUNT_BEFORE = re.compile(r"(\d+)[x\u00d7*]?")
_COUNT_AFTER = re.compile(r"[x\u00d7*](\d+)")


def parse_list(text: str, names: Names, specials: Iterable[str] = ()) -> list:
    """Names separated by commas or spaces, each optionally counted: "2 goblin, ogre",
    "goblin x2", "Hermit's Cell". Multi-word titles are matched longest first."""
    if text.strip().lower() in NONE_WORDS:
        return []
    specials = set(specials)
    found: list = []
    for piece in re.split(r"[,;+]", text):
        words = piece.split()
        count, last, i = None, None, 0
        while i < len(words):
            word = words[i].lower()
            before, after = _COUNT_BEFORE.fullmatch(word), _COUNT_AFTER.fullmatch(word)
            match = before or after
            if match:
                number = int(match.group(1))
                if number < 1:
                    raise Reject(f"{words[i]!r}: a count is 1 or more.")
                if before:
                    count = number
                elif last is None:
                    raise Reject(f"{words[i]!r}: put the count next to a name, like goblin x2.")
                else:
                    found.extend([last] * (number - 1))
                i += 1
                continue
            if word in specials:
                value, j = word, i + 1
            else:
                for j in range(len(words), i, -1):
                    value = names.find(" ".join(words[i:j]))
                    if value is not None:
                        break
                else:
                    raise names.unknown(" ".join(words[i:]))
            found.extend([value] * (count or 1))
            count, last, i = None, value, j
        if count is not None:
            raise Reject(f"a count needs a name after it: {piece.strip()!r}.")
    return found


def parse_int(text: str, low: int, high: int, what: str) -> int:
    match = re.fullmatch(r"\s*(-?\d+)\s*(?:gold)?\s*", text.lower())
    if not match:
        raise Reject(f"Type {what} as a whole number from {low} to {high}.")
    value = int(match.group(1))
    if not low <= value <= high:
        raise Reject(f"{what.capitalize()} runs from {low} to {high}; {value} is not possible.")
    return value


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


def _and(items: list[str]) -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _tally(labels: Iterable[str]) -> str:
    """ "2 goblin, ogre": repeated names counted, in first-seen order."""
    counts = Counter(labels)
    return ", ".join(f"{n} {label}" if n > 1 else label for label, n in counts.items())


# --- the catalog as the session reads it -------------------------------------------------


@dataclass(frozen=True)
class Market:
    """A market token or element the player names: an element may stand for its
    only token kind; a token's stars count for the rival."""

    kind: str  # "token" or "element"
    id: str


class Book:
    """Lookups into the catalog: cards, tokens, elements and the checks' bounds."""

    def __init__(self, catalog):
        self.catalog = catalog
        self.scoring = Scoring.of(catalog)
        self.rival_cards = rival_cards(catalog)
        if not self.rival_cards:
            raise SessionError(f"{catalog.path}: the catalog has no rival cards for a solo game")
        chambers = catalog.of_kind("chamber-card")
        if not chambers:
            raise SessionError(f"{catalog.path}: the catalog has no chamber cards")
        self.chambers = {c.id: ChamberCard.of(c) for c in chambers}
        self.chamber_title = {c.id: c.get("title", c.id) for c in chambers}
        self.chamber_copies = {c.id: c.count for c in chambers}
        self.chamber_names = Names(
            "chamber card", ((c.id, c.get("title", c.id), c.id) for c in chambers)
        )
        self.symbol_name = {s.id: s.get("name", s.id) for s in catalog.of_kind("symbol")}
        self.element_name = {e.id: e.get("name", e.id) for e in catalog.of_kind("element")}
        tokens = catalog.of_kind("market-token")
        self.tokens = {t.id: Token.of(t) for t in tokens}
        self.token_copies = {t.id: t.count for t in tokens}
        self.kinds_of: dict[str, list[str]] = {}  # element -> its token ids
        for token in self.tokens.values():
            self.kinds_of.setdefault(token.element, []).append(token.id)
        self.market_names = Names(
            "market token or element",
            [(t.id, t.get("name", t.id), Market("token", t.id)) for t in tokens]
            + [(e, self.element_name.get(e, e), Market("element", e)) for e in self.kinds_of],
        )
        self.goals = {g.id: g for g in catalog.of_kind("goal-card")}
        if not self.goals:
            raise SessionError(f"{catalog.path}: the catalog has no goal cards")
        self.goal_names = Names(
            "goal card", ((g.id, g.get("title", g.id), g.id) for g in self.goals.values())
        )
        challenges = catalog.of_kind("challenge-card")
        self.challenge_points = {c.id: c["points"] for c in challenges}
        self.challenge_title = {c.id: c.get("title", c.id) for c in challenges}
        self.challenge_copies = {c.id: c.count for c in challenges}
        self.challenge_names = Names(
            "challenge card", ((c.id, c.get("title", c.id), c.id) for c in challenges)
        )
        markets = [
            m for m in catalog.of_kind("market-card") if m.get("min_players", 1) <= SOLO_TABLE
        ]
        self.rows = [(row["cost"], Counter(row["tokens"])) for m in markets for row in m["rows"]]
        per_card = sorted((sum(len(r["tokens"]) for r in m["rows"]) for m in markets), reverse=True)
        self.max_market_tokens = sum(per_card[:MARKET_CARDS])
        self.start_bonus = self.scoring.starting_gold[0] if self.scoring.starting_gold else 0
        # bounds of the player's score pad rows (impossible answers are refused)
        points = sorted(
            (
                p
                for cid, p in self.challenge_points.items()
                for _ in range(self.challenge_copies[cid])
            ),
            reverse=True,
        )
        self.max_challenges = sum(points[:CHALLENGE_YEARS])
        card_stars = [c.stars for c in self.chambers.values()] or [0]
        token_stars = [t.stars for t in self.tokens.values()] or [0]
        self.min_reputation = CELLS * min(0, min(card_stars))
        self.max_reputation = CELLS * (
            max(0, max(card_stars)) + MAX_ELEMENTS * max(0, max(token_stars))
        )
        self.blueprint_values = sorted({0, *self.scoring.blueprint_scale.values()})
        self.max_paths = 2 * CELLS * self.scoring.path_per_chamber
        self.max_goal_count = CELLS * MAX_ELEMENTS

    # display

    def symbol(self, symbol: str) -> str:
        return self.symbol_name.get(symbol, symbol)

    def element(self, element: str) -> str:
        return self.element_name.get(element, element).lower()

    def elements(self, elements: Iterable[str]) -> str:
        return _and([self.element(e) for e in elements])

    def token(self, token_id: str) -> str:
        stars = self.tokens[token_id].stars
        return f"{token_id} ({stars} {_plural('star', stars)})" if stars else token_id

    def token_choices(self, element: str) -> str:
        return ", ".join(self.token(t) for t in self.kinds_of.get(element, ()))

    def goal_title(self, goal_id: str) -> str:
        return self.goals[goal_id].get("title", goal_id)

    def goal_elements(self, goal_id: str) -> tuple[str, ...]:
        return tuple(self.goals[goal_id]["elements"])

    def goal_things(self, goal_id: str) -> str:
        return _and([self.element(e) + "s" for e in self.goal_elements(goal_id)])

    # parsing tokens

    def rival_tokens(self, text: str, specials=()) -> list[str]:
        """Token ids (or `specials`); an element with a single token kind stands for it."""
        result = []
        for item in parse_list(text, self.market_names, specials):
            if isinstance(item, str):
                result.append(item)
            elif item.kind == "token":
                result.append(item.id)
            elif len(self.kinds_of[item.id]) == 1:
                result.append(self.kinds_of[item.id][0])
            else:
                raise Reject(
                    f"{self.element(item.id).capitalize()} tokens differ in stars, and the "
                    f"rival counts them: name the token: {self.token_choices(item.id)}."
                )
        return result

    def bought_elements(self, text: str) -> list[str]:
        """Elements of the tokens bought, named by token or by element."""
        items = parse_list(text, self.market_names)
        return [self.tokens[i.id].element if i.kind == "token" else i.id for i in items]


# --- what is asked ---------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    where: str  # the step, for status, resume and error messages
    prompt: str
    help: str
    parse: Callable[[str], Any]  # raises Reject
    default: str | None = None  # shown in brackets; an empty answer takes it


HELP_COMMANDS = (
    "At any prompt: help (this), status (the rival's piles and reputation), "
    "quit (save and stop; resume later with --resume)."
)

HELP = {
    "goal": (
        "Setup, step 4: shuffle the goal cards and place one face up. At the end your "
        "dungeon is compared with the rival's collected chamber cards and market tokens "
        "on that goal: first place scores 15, second 9, and ties go to the rival. I need "
        "to know the goal to count the rival's side. Type its title or id."
    ),
    "chambers": (
        "Construction: place a chamber card from your hand in this year's row and keep "
        "one card in hand for the next turn. Any cards matching the rival's symbol go "
        "into its score pile; the others are discarded. Then draw one card for each "
        "remaining spot in your row. On the fourth turn you place one of your last two "
        "cards and the other is left to the rival. Type the cards you left that show "
        "the rival's symbol, by title or id, separated by commas (2 Long Stair counts "
        "two), or press Enter for none."
    ),
    "gold": (
        "Improvement, step 1: count your gold. Add up the gold on the bottom of the "
        "chamber cards in this year's row, plus 1 gold for each treasure chest anywhere "
        "in your dungeon (this year's row included). In year 1 add your starting bonus "
        "of {bonus}. The track ends at {cap}. Gold is set, not added: gold left from last "
        "year is lost. Then compare it with the rival card: with more gold you visit the "
        "market; otherwise the rival collects."
    ),
    "market": (
        "Improvement, step 2: you have more gold than the rival card, so you may visit "
        "the market (buy) or stop (pass). To buy, choose a row on a market card, pay its "
        "gold cost, take every token in that row and place them in your dungeon at once. "
        "If you still have more gold than the rival card after buying, you may buy "
        "again; if not, the rival collects. Type buy or pass (b or p)."
    ),
    "bought": (
        "Type the cost of the row you bought and its tokens, e.g. 4 monster trap or "
        "7 goblin ogre treasure-chest. Placement: a slot must be empty, a card holds "
        "no more than four elements counting the printed ones, and secret passages go "
        "on an edge of a card, even one leading outside your dungeon."
    ),
    "collect": (
        "You do not have more gold than the rival card (ties go to the rival), so the "
        "rival collects the tokens shown on its card into its scoring pile: draw one "
        "token of each of those elements from the face-down supply piles. Their stars "
        "count for the rival, so tell me which tokens they are: {choices}. If a supply "
        "pile has run out, type empty for the missing token."
    ),
    "challenges": (
        "When the rival collects, you discard the lowest-value face-up challenge card; "
        "of equal values, the leftmost. Type the face-up challenge cards from left to "
        "right, by title or id, separated by commas, and I tell you which to discard."
    ),
    "leftovers": (
        "When you pass in years 1-3, set your gold tracker to zero, claim one of the "
        "face-up challenge cards, and the rival takes all the tokens left on the market. "
        "In year 4 you leave your gold tracker where it is and flip it to show you have "
        "passed; the rival again takes the tokens left. Type those tokens by name, with "
        "counts, e.g. 2 goblin, ogre, spike-pit, treasure-chest; or press Enter for none. "
        "Tokens: {choices}."
    ),
    "final_gold": (
        "Final scoring: final gold replaces priority. Compare your final gold with the "
        "number on the rival's face-up card: more scores {first}, otherwise {second} "
        "(ties go to the rival). Your gold stays where it was when you passed in year 4."
    ),
    "goal_count": (
        "Goal card: count the goal's elements in your dungeon, printed on the cards and "
        "placed as tokens (a secret passage counts once per edge). With more than the "
        "rival's piles hold you score {first}, otherwise {second} (ties go to the rival); "
        "with none of them you score no goal points."
    ),
    "rows": (
        "Score the rest of your pad as usual. Challenge cards: the points of each claimed "
        "challenge whose condition holds. Chamber reputation: add and subtract every star "
        "on your chamber cards and the tokens on them. Blueprint: matching positions score "
        "{scale}. Dungeon paths: 1 point per chamber connected to the entrance plus 1 per "
        "chamber connected to the exit. Type the four numbers in that order, e.g. "
        "8 31 7 18, or just their sum."
    ),
}


# --- the session -----------------------------------------------------------------------


class Session:
    """One solo session: the rival, the player's reported gold and the answers so far."""

    def __init__(
        self,
        book: Book,
        stdin: TextIO,
        stdout: TextIO,
        *,
        difficulty: str,
        seed: int,
        save_path: Path,
        replay: Iterable[str] = (),
        resumed_from: Path | None = None,
    ):
        self.book = book
        self.stdin, self.stdout = stdin, stdout
        self.difficulty, self.seed = difficulty, seed
        self.save_path = save_path
        self.rival = Rival.shuffled(book.catalog, difficulty, random.Random(seed))
        self.answers: list[str] = []
        self.queue = list(replay)  # recorded answers still to replay, first last-popped
        self.queue.reverse()
        self.replaying = resumed_from is not None
        self.resumed_from = resumed_from
        self.context: list[str] = []  # said since the last answer (shown on resume)
        self.where = "setup"  # the step asked now
        self.last_step: str | None = None  # the step last answered
        self.goal: str | None = None
        self.gold = 0  # the player's gold as reported
        self.complete = False
        self.interactive = _isatty(stdin)

    # output

    def say(self, text: str = "") -> None:
        if self.replaying:
            self.context.append(text)
        else:
            self.stdout.write(text + "\n")

    def _end_replay(self) -> None:
        """The recorded answers are used up: show where the player is, then carry on."""
        self.replaying = False
        count = len(self.answers)
        self.say(
            f"Resumed {self.resumed_from}: {count} {_plural('answer', count)} restored "
            f"({self.difficulty}, seed {self.seed})."
        )
        self.say(self.status())
        self.say()
        for line in self.context:
            self.say(line)
        self.context = []

    # asking

    def ask(self, question: Question):
        self.where = question.where
        if self.queue:
            text = self.queue.pop()
            try:
                value = question.parse(self._or_default(text, question))
            except Reject as reject:
                raise SessionError(
                    f"answer {len(self.answers) + 1} ({text!r}) does not fit "
                    f"{question.where}: {reject}"
                ) from None
            self.answers.append(text)
            self.last_step = question.where
            self.context = []
            return value
        if self.replaying:
            self._end_replay()
        while True:
            default = f" [{question.default}]" if question.default is not None else ""
            self.stdout.write(f"{question.prompt}{default} > ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.stdout.write("\n")
                raise _EndOfInput
            text = line.strip()
            if not self.interactive:
                self.stdout.write(text + "\n")  # a piped answer reads like a transcript
            command = text.lower()
            if command in ("help", "?"):
                self.say(question.help)
                self.say(HELP_COMMANDS)
                continue
            if command == "status":
                self.say(self.status())
                continue
            if command in ("quit", "exit"):
                raise _Quit
            try:
                value = question.parse(self._or_default(text, question))
            except Reject as reject:
                self.say(f"  {reject} (Type help for this step's rule.)")
                continue
            self.answers.append(text)
            self.last_step = question.where
            self.save()
            return value

    @staticmethod
    def _or_default(text: str, question: Question) -> str:
        return question.default if text == "" and question.default is not None else text

    # saving

    def document(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": GAME,
            "catalog": self.book.catalog.game,
            "catalog_version": self.book.catalog.version,
            "difficulty": self.difficulty,
            "seed": self.seed,
            "last_step": self.last_step,
            "complete": self.complete,
            "answers": self.answers,
        }

    def save(self) -> None:
        text = json.dumps(self.document(), indent=2, ensure_ascii=False) + "\n"
        write_atomic(self.save_path, text.encode("utf-8"))

    def resume_hint(self) -> str:
        return f"protopress solo {GAME} --resume {shlex.quote(str(self.save_path))}"

    # status

    def status(self) -> str:
        book, rival = self.book, self.rival
        card = rival.card
        if card is None:
            return (
                f"Rival ({self.difficulty}): no card revealed yet; {len(rival.deck)} "
                f"cards face down, shuffled from seed {self.seed}. Now: {self.where}."
            )
        rep = rival.reputation()
        chambers = rival.chambers
        tokens = rival.tokens
        lines = [
            f"Now: {self.where}. Rival ({self.difficulty}), year {rival.year}: "
            f"{self.card_line(card)}",
            f"  Chamber pile ({len(chambers)}): "
            + (_tally(book.chamber_title[c.id] for c in chambers) or "empty")
            + f"; {rep.chamber_stars} {_plural('star', rep.chamber_stars)}",
            f"  Token pile ({len(tokens)}): "
            + (_tally(t.id for t in tokens) or "empty")
            + f"; {rep.token_stars} {_plural('star', rep.token_stars)}",
            f"  Reputation if the game ended now: {self.reputation_sum()}",
        ]
        if self.goal is not None:
            count = rival.goal_count(book.goal_elements(self.goal))
            lines.append(
                f"  Goal {book.goal_title(self.goal)}: {count} "
                f"{book.goal_things(self.goal)} in its piles"
            )
        lines.append(f"  Your gold: {self.gold}")
        return "\n".join(lines)

    def card_line(self, card: RivalCard) -> str:
        return (
            f"{card.title} ({card.difficulty} card): symbol {self.book.symbol(card.symbol)}, "
            f"gold {card.gold}, collects {self.book.elements(card.tokens)}"
        )

    def condition_text(self, card: RivalCard) -> str:
        if card.counts == "chambers":
            return f"{card.points} per chamber card"
        if card.element is None:
            raise ValueError(f"rival card {card.id!r} counts tokens but names no element")
        return f"{card.points} per {self.book.element(card.element)} token"

    def reputation_sum(self) -> str:
        rep = self.rival.reputation()
        return (
            f"base {rep.base} + condition {rep.condition} + chamber stars "
            f"{rep.chamber_stars} + token stars {rep.token_stars} = {rep.total}"
        )

    # the game

    def run(self) -> int:
        try:
            if not self.replaying:
                self.save()
            self.play()
            if self.queue:
                raise SessionError(
                    f"{len(self.queue)} recorded answers are left after the end of the game"
                )
            if self.replaying:
                self._end_replay()
            self.complete = True
            self.save()
            self.say(f"The session is saved in {self.save_path}.")
            return 0
        except _Quit:
            self.save()
            self.say(f"Saved in {self.save_path}. To go on later: {self.resume_hint()}")
            return 0
        except _EndOfInput:
            self.save()
            self.say(
                f"The input ended before the session was over ({self.where}). Your "
                f"answers are saved in {self.save_path}. To go on: {self.resume_hint()}"
            )
            return 1
        except KeyboardInterrupt:
            if not self.replaying:
                self.save()
                self.stdout.write(f"\nStopped. To go on: {self.resume_hint()}\n")
            return 130

    def play(self) -> None:
        book = self.book
        self.say(
            f"Stonespine Architects, solo against the rival ({self.difficulty}, seed {self.seed})."
        )
        self.say(
            "You play with the physical game; I run the rival. Type help at any prompt "
            "for the rule of that step, status for the rival's piles, quit to save and stop."
        )
        self.say(f"Every answer is saved in {self.save_path}.")
        self.say()
        self.say(
            "Setup: use the 1-player side of the tracking board; there is no priority track. "
            "Leave the rival cards aside: I have shuffled the rival's deck, and each year "
            "I tell you which one to turn face up. Flip 3 challenge cards, lay out 3 market "
            "cards with their tokens, take a blueprint and deal yourself 5 chamber cards. "
            f"Your starting bonus is {book.start_bonus} gold."
        )
        self.goal = self.ask(
            Question(
                "setup: the goal card", "Which goal card is face up?", HELP["goal"], self.parse_goal
            )
        )
        self.say(
            f"Goal: {book.goal_title(self.goal)} ({book.goal_things(self.goal)}). "
            f"The rival's piles count {self.rival.goal_count(book.goal_elements(self.goal))} so far."
        )
        for year in range(1, YEARS + 1):
            self.play_year(year)
        self.final_scoring()

    def play_year(self, year: int) -> None:
        book = self.book
        card = self.rival.begin_year()
        symbol = book.symbol(card.symbol)
        self.say()
        self.say(f"== Year {year} of {YEARS} ==")
        self.say(f"The rival reveals {self.card_line(card)}.")
        self.say(
            f"Turn {card.title} face up. Its reputation, if it is the last card: base "
            f"{card.base} + {self.condition_text(card)} in its pile."
        )
        if year > 1:
            self.say(f"Deal yourself {HAND} chamber cards.")
        self.say(
            f"Construction: each turn place one card in your row and keep one in hand; of "
            f"the cards you leave, those showing the {symbol} go to the rival, the others "
            f"are discarded."
        )
        for turn in range(1, TURNS + 1):
            left = LEFT[turn - 1]
            if turn == TURNS:
                prompt = "place one of your last two cards. Does the other show the"
            elif left == 1:
                prompt = "does the card you leave show the"
            else:
                prompt = f"which of the {left} cards you leave show the"
            question = Question(
                f"year {year}, construction turn {turn}",
                f"Turn {turn} of {TURNS}: {prompt} {symbol}?",
                HELP["chambers"],
                partial(self.parse_chambers, left=left),
                default="none",
            )
            taken = self.ask(question)
            self.rival.offer_chambers(book.chambers[c] for c in taken)
            if taken:
                stars = sum(book.chambers[c].stars for c in taken)
                got = f"The rival takes {_tally(book.chamber_title[c] for c in taken)} ({stars} {_plural('star', stars)})"
            else:
                got = "Nothing for the rival"
            rest = left - len(taken)
            after = f"; discard the other {rest}" if rest > 1 else "; discard the other card"
            after = after if rest else ""
            draw = TURNS - turn
            if draw:
                self.say(f"{got}{after}. Draw {draw} {_plural('card', draw)}.")
            else:
                self.say(f"{got}{after}. Your row is full.")
        self.improvement(year, card)

    def improvement(self, year: int, card: RivalCard) -> None:
        book = self.book
        cap = book.scoring.gold_cap
        bonus = f", plus your starting bonus of {book.start_bonus}" if year == 1 else ""
        self.say()
        self.say(
            f"Improvement: count your gold (the gold on this year's row, plus 1 per treasure "
            f"chest in your dungeon{bonus}; {cap} at most) and set your gold tracker."
        )
        low = min(book.start_bonus, cap) if year == 1 else 0
        self.gold = self.ask(
            Question(
                f"year {year}, counting gold",
                f"Your gold for year {year} ({low}-{cap})?",
                HELP["gold"].format(bonus=book.start_bonus, cap=cap),
                lambda text: self.parse_gold(text, year),
            )
        )
        while True:
            verdict = self.rival.market_verdict(self.gold)
            if verdict == VISIT:
                self.say(
                    f"{self.gold} gold is more than the rival's {card.gold}: visit the market or pass."
                )
                choice = self.ask(
                    Question(
                        f"year {year}, the market",
                        "Buy a row or pass? (buy/pass)",
                        HELP["market"],
                        self.parse_choice,
                    )
                )
                if choice == "pass":
                    break
                cost, elements = self.ask(
                    Question(
                        f"year {year}, a purchase",
                        "What did you buy? The row's cost and its tokens (e.g. 4 monster trap)",
                        HELP["bought"],
                        self.parse_purchase,
                    )
                )
                self.gold -= cost
                self.say(
                    f"Place {book.elements(elements)} in your dungeon now. "
                    f"You have {self.gold} gold left."
                )
                continue
            if verdict == COLLECT:
                self.say(
                    f"{self.gold} gold is not more than the rival's {card.gold}: the rival "
                    f"collects. Draw {book.elements(card.tokens)} from the supply piles "
                    f"into its pile."
                )
                choices = "; ".join(
                    f"{book.element(e)}: {book.token_choices(e)}"
                    for e in dict.fromkeys(card.tokens)
                )
                drawn = self.ask(
                    Question(
                        f"year {year}, the rival collects",
                        "Which tokens did you draw for the rival?",
                        HELP["collect"].format(choices=choices),
                        lambda text: self.parse_collected(text, card),
                    )
                )
                self.rival.collect(book.tokens[t] for t in drawn)
                self.say(self.took("The rival takes", drawn))
                if year <= CHALLENGE_YEARS:
                    shown = self.ask(
                        Question(
                            f"year {year}, discarding a challenge",
                            "Which challenge cards are face up, left to right?",
                            HELP["challenges"],
                            self.parse_challenges,
                        )
                    )
                    k = lowest_challenge([book.challenge_points[c] for c in shown])
                    discard = shown[k]
                    self.say(
                        f"Discard {book.challenge_title[discard]} "
                        f"({book.challenge_points[discard]} points), the lowest."
                    )
                self.say("You must pass now.")
            break
        self.market_pass(year)

    def market_pass(self, year: int) -> None:
        book = self.book
        kept = gold_after_pass(year, self.gold)
        if year <= CHALLENGE_YEARS:
            self.say(
                "You pass: set your gold tracker to 0 and claim one of the face-up challenge "
                "cards. The rival takes every token left on the market."
            )
        else:
            self.say(
                f"You pass: leave your gold tracker at {kept} and flip it. The rival takes "
                f"every token left on the market."
            )
        choices = ", ".join(book.token(t) for t in book.tokens)
        leftovers = self.ask(
            Question(
                f"year {year}, passing",
                "Which tokens are left on the market? (e.g. 2 goblin, spike-pit)",
                HELP["leftovers"].format(choices=choices),
                self.parse_leftovers,
                default="none",
            )
        )
        self.rival.take_market(book.tokens[t] for t in leftovers)
        self.gold = kept
        self.say(
            self.took("The rival takes", leftovers)
            if leftovers
            else "The market is empty: nothing for the rival."
        )
        rival = self.rival
        self.say(
            f"Rival: {len(rival.chambers)} chamber {_plural('card', len(rival.chambers))}, "
            f"{len(rival.tokens)} {_plural('token', len(rival.tokens))}, reputation "
            f"{rival.reputation().total} so far."
        )
        if year < YEARS:
            challenges = (
                f" Discard the unclaimed challenges and flip {CHALLENGES_SHOWN} new ones."
                if year < CHALLENGE_YEARS
                else " Discard the unclaimed challenges: year 4 has none."
            )
            self.say(
                f"Cleanup: discard the market cards and leftover tokens, lay out "
                f"{MARKET_CARDS} new market cards with tokens.{challenges}"
            )

    def took(self, who: str, tokens: list[str]) -> str:
        stars = sum(self.book.tokens[t].stars for t in tokens)
        if not tokens:
            return f"{who} nothing: the piles are empty."
        return f"{who} {_tally(tokens)} ({stars} {_plural('star', stars)})."

    def final_scoring(self) -> None:
        book, rival = self.book, self.rival
        card = rival.card
        scoring = book.scoring
        cap = scoring.gold_cap
        goal = self.goal
        if goal is None:
            raise RuntimeError("final scoring before the goal card was named")
        elements = book.goal_elements(goal)
        things = book.goal_things(goal)
        self.say()
        self.say("== Final scoring ==")
        self.say(
            "Place your exit doorway, score your dungeon on the pad, and I score the rival. "
            "Final gold and the goal are judged against the rival."
        )
        final_gold = self.ask(
            Question(
                "final scoring: your gold",
                f"Your final gold (0-{cap})?",
                HELP["final_gold"].format(first=scoring.solo_gold[0], second=scoring.solo_gold[-1]),
                lambda text: parse_int(text, 0, cap, "gold"),
                default=str(self.gold),
            )
        )
        mine = self.ask(
            Question(
                "final scoring: the goal",
                f"Goal {book.goal_title(goal)}: how many {things} are in your dungeon?",
                HELP["goal_count"].format(first=scoring.goal[0], second=scoring.goal[1]),
                lambda text: parse_int(text, 0, book.max_goal_count, f"the number of {things}"),
            )
        )
        rows = self.ask(
            Question(
                "final scoring: your score pad",
                "Your challenge cards, chamber reputation, blueprint and dungeon paths "
                "(four numbers, or their sum)?",
                HELP["rows"].format(
                    scale=", ".join(
                        f"{m} matches {p}" for m, p in sorted(scoring.blueprint_scale.items())
                    )
                ),
                self.parse_rows,
            )
        )
        self.gold = final_gold
        self.say()
        self.say("\n".join(self.result_lines(final_gold, mine, rows, card, elements, things)))

    def result_lines(self, final_gold, mine, rows, card, elements, things) -> list[str]:
        rival, scoring = self.rival, self.book.scoring
        gold_points = rank_points(scoring.solo_gold, solo_gold_place(final_gold, card.gold))
        theirs = rival.goal_count(elements)
        goal_place = solo_goal_place(mine, theirs)
        goal_points = rank_points(scoring.goal, goal_place)
        rep = rival.reputation()
        width = 46

        def line(label: str, you="", them="") -> str:
            return f"{label:<{width}}{you!s:>5}{them!s:>7}".rstrip()

        goal = f"{mine} against {theirs}" if mine else "none in your dungeon"
        lines = [
            "== Result ==",
            line("", "You", "Rival"),
            line(f"Final gold: {final_gold} against {card.gold}", gold_points),
            line(f"Goal, {things}: {goal}", goal_points),
        ]
        if len(rows) == 4:
            labels = ("Challenge cards", "Chamber reputation", "Blueprint", "Dungeon paths")
            lines += [line(label, value) for label, value in zip(labels, rows, strict=True)]
        else:
            lines.append(line("Score pad: challenges to paths", rows[0]))
        tokens, chambers = len(rival.tokens), len(rival.chambers)
        lines += [
            line(f"Base reputation, {card.title}", "", rep.base),
            line(f"Condition: {self.condition_text(card)}", "", rep.condition),
            line(
                f"Stars on its {chambers} chamber {_plural('card', chambers)}",
                "",
                rep.chamber_stars,
            ),
            line(f"Stars on its {tokens} {_plural('token', tokens)}", "", rep.token_stars),
        ]
        total = gold_points + goal_points + sum(rows)
        outcome = solo_outcome(total, rep.total)
        lines.append(line("Total", total, rep.total))
        lines.append("Ties go to the rival: final gold, goal and total.")
        if outcome.won:
            lines.append(f"You win by {outcome.margin}: you take the title of Master Architect!")
        elif outcome.margin == 0:
            lines.append(f"A tie at {total}: ties go to the rival, so the rival wins.")
        else:
            lines.append(f"The rival wins by {-outcome.margin}. Try again!")
        return lines

    # parsing the answers

    def parse_goal(self, text: str) -> str:
        if not text.strip():
            raise Reject("Type the goal card's title or id.")
        found = self.book.goal_names.find(text)
        if found is None:
            raise self.book.goal_names.unknown(text.strip())
        return found

    def parse_chambers(self, text: str, left: int) -> list[str]:
        book, card = self.book, self.rival.card
        if card is None:
            raise RuntimeError("chambers offered before the rival's first card is revealed")
        symbol = book.symbol(card.symbol)
        taken = parse_list(text, book.chamber_names)
        for chamber in taken:
            shows = book.chambers[chamber].symbol
            if shows != card.symbol:
                raise Reject(
                    f"{book.chamber_title[chamber]} shows the {book.symbol(shows)}, not the "
                    f"{symbol}: it is discarded, not given to the rival. Name only the cards "
                    f"showing the {symbol}."
                )
        if len(taken) > left:
            raise Reject(
                f"You leave {left} {_plural('card', left)} this turn, so at most {left} can go "
                f"to the rival; you named {len(taken)}."
            )
        held = Counter(c.id for c in self.rival.chambers)
        for chamber, n in Counter(taken).items():
            copies = book.chamber_copies[chamber]
            if held[chamber] + n > copies:
                raise Reject(
                    f"The game has {copies} {book.chamber_title[chamber]} "
                    f"{_plural('card', copies)} and the rival already holds {held[chamber]}."
                )
        return taken

    def parse_gold(self, text: str, year: int) -> int:
        cap = self.book.scoring.gold_cap
        gold = parse_int(text, 0, cap, "gold")
        bonus = min(self.book.start_bonus, cap)
        if year == 1 and gold < bonus:
            raise Reject(
                f"Year 1 gold includes your starting bonus of {bonus}, so it is at least {bonus}."
            )
        return gold

    @staticmethod
    def parse_choice(text: str) -> str:
        word = text.strip().lower()
        if word in ("b", "buy", "visit", "v"):
            return "buy"
        if word in ("p", "pass"):
            return "pass"
        raise Reject("Type buy or pass.")

    def parse_purchase(self, text: str) -> tuple[int, list[str]]:
        match = re.fullmatch(r"\s*(\d+)\s*(?:gold\b)?\s*[:,]?\s*(.*)", text, re.S | re.I)
        if not match:
            raise Reject("Start with the row's cost, then its tokens: e.g. 4 monster trap.")
        cost = int(match.group(1))
        if cost < 1:
            raise Reject("A market row costs at least 1 gold.")
        if cost > self.gold:
            raise Reject(f"That row costs {cost} gold and you have {self.gold}.")
        elements = self.book.bought_elements(match.group(2))
        if not elements:
            raise Reject("Name the tokens of the row after its cost: e.g. 4 monster trap.")
        bought = Counter(elements)
        if self.book.rows and not any(
            cost == row_cost and not bought - row for row_cost, row in self.book.rows
        ):
            raise Reject(
                f"No market row costs {cost} gold for {self.book.elements(elements)}: "
                f"check the cost and the tokens."
            )
        return cost, elements

    def parse_collected(self, text: str, card: RivalCard) -> list[str]:
        book = self.book
        drawn = book.rival_tokens(text, specials=(EMPTY,))
        tokens = [t for t in drawn if t != EMPTY]
        wanted = Counter(card.tokens)
        got = Counter(book.tokens[t].element for t in tokens)
        extra = got - wanted
        if extra:
            raise Reject(
                f"The rival collects {book.elements(card.tokens)}; "
                f"{book.elements(extra.elements())} is not on its card."
            )
        if len(drawn) != len(card.tokens):
            raise Reject(
                f"The rival collects {len(card.tokens)} tokens ({book.elements(card.tokens)}); "
                f"name each one (empty for a pile that has run out)."
            )
        self.check_copies(tokens)
        return tokens

    def parse_challenges(self, text: str) -> list[str]:
        book = self.book
        shown = parse_list(text, book.challenge_names)
        if not shown:
            raise Reject("Name the face-up challenge cards, left to right.")
        if len(shown) > CHALLENGES_SHOWN:
            raise Reject(
                f"A solo game shows {CHALLENGES_SHOWN} challenge cards; you named {len(shown)}."
            )
        for challenge, n in Counter(shown).items():
            if n > book.challenge_copies[challenge]:
                copies = book.challenge_copies[challenge]
                raise Reject(
                    f"The game has {copies} {book.challenge_title[challenge]} "
                    f"{_plural('card', copies)}."
                )
        return shown

    def parse_leftovers(self, text: str) -> list[str]:
        tokens = self.book.rival_tokens(text)
        most = self.book.max_market_tokens
        if len(tokens) > most:
            raise Reject(f"The market holds at most {most} tokens; you named {len(tokens)}.")
        self.check_copies(tokens)
        return tokens

    def check_copies(self, tokens: list[str]) -> None:
        held = Counter(t.id for t in self.rival.tokens)
        for token, n in Counter(tokens).items():
            copies = self.book.token_copies[token]
            if held[token] + n > copies:
                raise Reject(
                    f"The game has {copies} {token} tokens and the rival already holds {held[token]}."
                )

    def parse_rows(self, text: str) -> tuple[int, ...]:
        book = self.book
        numbers = re.split(r"[\s,;]+", text.strip())
        if not all(re.fullmatch(r"-?\d+", n) for n in numbers) or len(numbers) not in (1, 4):
            raise Reject(
                "Type four whole numbers (challenge cards, chamber reputation, blueprint, "
                "dungeon paths), or one number, their sum."
            )
        values = tuple(int(n) for n in numbers)
        bounds = (
            ("challenge cards", 0, book.max_challenges),
            ("chamber reputation", book.min_reputation, book.max_reputation),
            ("blueprint", 0, max(book.blueprint_values)),
            ("dungeon paths", 0, book.max_paths),
        )
        if len(values) == 1:
            low = sum(b[1] for b in bounds)
            high = sum(b[2] for b in bounds)
            if not low <= values[0] <= high:
                raise Reject(f"Those four rows add up to between {low} and {high}.")
            return values
        for value, (what, low, high) in zip(values, bounds, strict=True):
            if not low <= value <= high:
                raise Reject(
                    f"{what.capitalize()} runs from {low} to {high}; {value} is not possible."
                )
        if values[2] not in book.blueprint_values:
            shown = ", ".join(map(str, book.blueprint_values))
            raise Reject(f"The blueprint scores {shown}; {values[2]} is not on the scale.")
        return values


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


# --- saves -----------------------------------------------------------------------------


def read_save(path: Path, catalog) -> dict:
    """A save file's settings and answers, checked; SessionError says what is wrong."""
    if not Path(path).exists():
        raise SessionError(f"{path}: no such file")
    try:  # the loader's reader: size and nesting limits, located problems
        data = parse_json_file(Path(path), str(path))
    except InvalidInput as invalid:
        first = invalid.problems[0]
        raise SessionError(
            f"{path}: not a solo session save ({first.message} at line {first.line}, "
            f"column {first.column}); it may be damaged"
        ) from None
    except OSError as error:
        raise SessionError(f"{path}: cannot read it ({error.strerror or error})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SessionError(f"{path}: not a protopress solo session save")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SessionError(f"{path}: the save has no valid format version")
    if version > SAVE_VERSION:
        raise SessionError(
            f"{path}: saved by a newer protopress (save format {version}; this one reads "
            f"{SAVE_VERSION}); update protopress to resume it"
        )
    if data.get("game") != GAME:
        raise SessionError(f"{path}: a save of {data.get('game')!r}, not of {GAME}")
    if data.get("catalog") != catalog.game:
        raise SessionError(
            f"{path}: saved with the {data.get('catalog')!r} catalog, not {catalog.game!r}"
        )
    if data.get("catalog_version") != catalog.version:
        raise SessionError(
            f"{path}: saved with catalog version {data.get('catalog_version')}, and this "
            f"catalog is version {catalog.version}; the answers would not replay the same"
        )
    if data.get("difficulty") not in DIFFICULTIES:
        raise SessionError(f"{path}: damaged: difficulty {data.get('difficulty')!r}")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SessionError(f"{path}: damaged: the seed {seed!r} is not a whole number")
    answers = data.get("answers")
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise SessionError(f"{path}: damaged: the answers are not a list of texts")
    return data


def _guard(path: Path) -> None:
    """Refuse to overwrite an unfinished session or a file that is not a save."""
    if not path.exists():
        return
    if path.is_dir():
        raise SessionError(f"{path} is a directory; choose a save file with --save")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SessionError(
            f"{path} exists and is not a solo session save; not overwriting it. "
            f"Choose another file with --save."
        )
    if not data.get("complete"):
        answers = data.get("answers")
        count = len(answers) if isinstance(answers, list) else 0
        last = data.get("last_step")
        last = f", the last for {last}" if isinstance(last, str) else ""
        raise SessionError(
            f"{path} holds an unfinished solo session ({count} "
            f"{_plural('answer', count)}{last}). Resume it with "
            f"--resume {shlex.quote(str(path))}, choose another file with --save, or delete "
            f"it to start over."
        )


# --- the entry point -------------------------------------------------------------------


def run_session(
    catalog,
    stdin: TextIO,
    stdout: TextIO,
    *,
    difficulty: str = "normal",
    seed: int | None = None,
    save_path: Path | str | None = None,
    resume_path: Path | str | None = None,
) -> int:
    """Run an at-the-table solo session of Stonespine Architects; return the exit code.

    0: finished, or `quit` (saved). 1: the input ended mid-session (saved), a save
    that cannot be resumed or written. 2: an unknown difficulty. 130: interrupted.
    A new session takes `difficulty` and `seed` (None: a random seed, shown);
    a resumed one takes both from `resume_path`. Saves go to `save_path`, else to
    `resume_path` when resuming, else to `default_save_path()`.
    """
    try:
        if resume_path is not None:
            resume_path = Path(resume_path)
            saved = read_save(resume_path, catalog)
            difficulty, seed, answers = saved["difficulty"], saved["seed"], saved["answers"]
        else:
            answers = []
            difficulty = str(difficulty).strip().lower()
            if difficulty not in DIFFICULTIES:
                stdout.write(
                    f"protopress solo: unknown difficulty {difficulty!r}; choose "
                    f"{' or '.join(DIFFICULTIES)}\n"
                )
                return 2
            if seed is None:
                seed = random.SystemRandom().randrange(1, 1_000_000)
            elif isinstance(seed, bool) or not isinstance(seed, int):
                stdout.write(f"protopress solo: the seed must be a whole number, not {seed!r}\n")
                return 2
        book = Book(catalog)
        if save_path is not None:
            save_path = Path(save_path)
        elif resume_path is not None:
            save_path = resume_path
        else:
            save_path = default_save_path()
        if resume_path is None or save_path.resolve() != resume_path.resolve():
            _guard(save_path)
        save_path.parent.mkdir(parents=True, exist_ok=True)
        # a session killed while saving leaves a hidden temporary beside its save
        remove_stale_temporaries(save_path.parent, save_path.name.__eq__)
        session = Session(
            book,
            stdin,
            stdout,
            difficulty=difficulty,
            seed=seed,
            save_path=save_path,
            replay=answers,
            resumed_from=resume_path,
        )
        return session.run()
    except SessionError as error:
        stdout.write(f"protopress solo: cannot go on: {error}\n")
        return 1
    except OSError as error:
        where = error.filename or save_path
        stdout.write(
            f"protopress solo: cannot save the session to {where}: {error.strerror or error}\n"
        )
        return 1
