"""The solo companion in the browser: `protopress solo stonespine-architects --web`.

The same engine as the terminal (`games.stonespine_architects.solo`): the page
taps an answer together in the terminal's own words ("2 goblin, ogre"), the
engine checks it, and the save is written before the page hears back, so an
answer the page shows as taken is on disk. The save is the terminal's, so a
game goes on in either front end.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route

from protopress.games.stonespine_architects.rival import DIFFICULTIES
from protopress.games.stonespine_architects.solo.book import EMPTY, Book
from protopress.games.stonespine_architects.solo.engine import Engine, replayed, undone
from protopress.games.stonespine_architects.solo.errors import Reject, SessionError
from protopress.games.stonespine_architects.solo.history import (
    history_csv,
    history_path,
    read_history,
    record,
)
from protopress.games.stonespine_architects.solo.saves import (
    default_save_path,
    guard,
    read_save,
    write_save,
)
from protopress.web.faces import Faces
from protopress.web.server import STATIC, TokenGate, static_files


class Moved(Reject):
    """A request made for another point of the game than where it is."""


INTRO = (
    "You play with the physical game; I run the rival. Tap Help for the rule of a "
    "step and Undo to take an answer back; every answer is saved at once.",
)


class Companion:
    """One game on the page: the engine, its save and the finished games' history."""

    def __init__(self, book: Book, save_path: Path, engine: Engine, note: str = ""):
        self.book = book
        self.save_path = save_path
        self.history = history_path(save_path)
        self.engine = engine
        self.note = note  # said once, on the first state (how the game was opened)
        self.warning = ""
        self.lock = threading.Lock()
        write_save(save_path, engine)
        self._record()

    @classmethod
    def open(
        cls,
        catalog,
        *,
        difficulty: str,
        seed: int,
        save_path: Path | None = None,
        resume_path: Path | None = None,
    ) -> Companion:
        """Resume resume_path, else the unfinished game in the save, else a new game."""
        book = Book(catalog)
        answers: list[str] = []
        note = ""
        if resume_path is not None:
            saved = read_save(resume_path, catalog)
            save_path = save_path or resume_path
            if save_path.resolve() != resume_path.resolve():
                guard(save_path)
            difficulty, seed, answers = saved["difficulty"], saved["seed"], saved["answers"]
            note = f"Resumed {resume_path}: {len(answers)} answers restored."
        else:
            save_path = save_path or default_save_path()
            unfinished = cls._unfinished(save_path, catalog)
            if unfinished is not None:
                difficulty, seed = unfinished["difficulty"], unfinished["seed"]
                answers = unfinished["answers"]
                note = f"Resumed the unfinished game in {save_path}."
        save_path.parent.mkdir(parents=True, exist_ok=True)
        engine = replayed(book, difficulty, seed, answers, INTRO)
        return cls(book, save_path, engine, note)

    @staticmethod
    def _unfinished(path: Path, catalog) -> dict | None:
        """The save in path if it holds an unfinished game; None if there is none."""
        try:
            guard(path)
        except SessionError:
            return read_save(path, catalog)  # unfinished; not a save: refused here
        return None

    # changes, each saved before the page hears of it

    def answer(self, text: str, after: int | None = None) -> None:
        with self.lock:
            self._expect(after)
            self.engine.answer(text)
            write_save(self.save_path, self.engine)
            self._record()

    def undo(self, count: int, after: int | None = None) -> None:
        with self.lock:
            self._expect(after)
            if not self.engine.answers:
                raise Reject("Nothing to undo: no answer yet.")
            self.engine = undone(self.engine, count)
            write_save(self.save_path, self.engine)

    def new_game(self, difficulty: str, seed: int) -> None:
        if difficulty not in DIFFICULTIES:
            raise Reject(f"Choose the difficulty: {' or '.join(DIFFICULTIES)}.")
        with self.lock:
            self.engine = Engine(self.book, difficulty, seed, INTRO)
            write_save(self.save_path, self.engine)

    def _expect(self, after: int | None) -> None:
        """A page says how many answers it saw: a request sent again after a lost
        reply, or from a second window, must not be applied a second time."""
        now = len(self.engine.answers)
        if after is not None and after != now:
            raise Moved(
                f"The game is at {now} answer{'' if now == 1 else 's'}, not the {after} this "
                "page saw (an answer sent twice, or another window): here is where it is now."
            )

    def _record(self) -> None:
        if not self.engine.complete:
            return
        try:
            record(self.history, self.engine)
        except (SessionError, OSError) as error:
            self.warning = f"The game is saved, but not in the history: {error}"

    # what the page shows

    def games(self) -> list[dict]:
        try:
            return read_history(self.history)
        except SessionError as error:
            self.warning = str(error)
            return []

    @functools.cached_property
    def faces(self) -> Faces:
        return Faces(self.book.catalog)

    def state(self) -> dict:
        with self.lock:
            engine = self.engine
            question = engine.question
            note, self.note = self.note, ""
            return {
                "difficulty": engine.difficulty,
                "seed": engine.seed,
                "answers": len(engine.answers),
                "last": engine.answers[-1] if engine.answers else None,
                "last_step": engine.last_step,
                "complete": engine.complete,
                "note": note,
                "warning": self.warning,
                "said": engine.said,
                "question": None if question is None else self._question(question),
                "rival": self._rival(),
                "status": engine.status(),
                "result": engine.result_text,
                "save": str(self.save_path),
            }

    def _question(self, question) -> dict:
        options = dict(question.options)
        if question.kind == "cards":
            kind = options["kind"]
            titles = {c.id: c.get("title", c.id) for c in self.book.catalog.of_kind(kind)}
            options["cards"] = [
                {"id": c, "title": titles.get(c, c), "img": self.faces.image(kind, c)}
                for c in options["cards"]
            ]
        elif question.kind == "tokens":
            options["tokens"] = [
                {"id": t, "label": "an empty pile", "img": None}
                if t == EMPTY
                else {
                    "id": t,
                    "label": self.book.token(t),
                    "img": self.faces.image("market-token", t),
                }
                for t in options["tokens"]
            ]
        return {
            "where": question.where,
            "prompt": question.prompt,
            "help": question.help,
            "default": question.default,
            "kind": question.kind,
            "options": options,
        }

    def _rival(self) -> dict:
        engine, book = self.engine, self.book
        rival = engine.rival
        card = rival.card
        chambers = Counter(c.id for c in rival.chambers)
        tokens = Counter(t.id for t in rival.tokens)
        rep = rival.reputation() if card else None
        return {
            "deck": len(rival.deck),
            "card": None
            if card is None
            else {
                "title": card.title,
                "line": engine.card_line(card),
                "condition": engine.condition_text(card),
                "img": self.faces.image("rival-card", card.id),
            },
            "chambers": [
                {
                    "title": book.chamber_title[c],
                    "count": n,
                    "img": self.faces.image("chamber-card", c),
                }
                for c, n in chambers.items()
            ],
            "tokens": [{"label": book.token(t), "count": n} for t, n in tokens.items()],
            "chamber_stars": rep.chamber_stars if rep else 0,
            "token_stars": rep.token_stars if rep else 0,
            "reputation": None if rep is None else engine.reputation_sum(),
            "total": rep.total if rep else 0,
            "goal": None
            if engine.goal is None
            else f"{book.goal_title(engine.goal)}: {engine.goal_line()}",
            "gold": engine.gold,
        }


def page(name: str, token: str) -> HTMLResponse:
    """A page of the package with its token in the links it makes."""
    html = (STATIC / name).read_text(encoding="utf-8").replace("{{TOKEN}}", token)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


def face_response(faces: Faces, kind: str, ident: str, side: str) -> Response:
    try:
        data = faces.png(kind, ident, side)
    except ValueError as error:  # an image the face needs is missing or refused
        return Response(str(error), status_code=404, media_type="text/plain")
    if data is None:
        return Response("no such face", status_code=404, media_type="text/plain")
    return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})


def solo_app(companion: Companion, token: str) -> TokenGate:
    faces = companion.faces

    def state(status: int = 200, error: str = "") -> JSONResponse:
        body = companion.state() | ({"error": error} if error else {})
        return JSONResponse(body, status_code=status)

    async def index(request: Request) -> Response:
        return page("solo.html", token)

    async def get_state(request: Request) -> Response:
        return state()

    async def post_answer(request: Request) -> Response:
        body = await _json(request)
        text, after = body.get("text"), body.get("after")
        if not isinstance(text, str) or len(text) > 2000:
            return state(400, "An answer is a text.")
        if not _count_or_none(after):
            return state(400, "after is the number of answers the page saw.")
        try:
            companion.answer(text.strip(), after)
        except Moved as moved:
            return state(409, str(moved))
        except Reject as reject:
            return state(422, str(reject))
        return state()

    async def post_undo(request: Request) -> Response:
        body = await _json(request)
        count, after = body.get("count", 1), body.get("after")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            return state(400, "Undo takes back 1 answer or more.")
        if not _count_or_none(after):
            return state(400, "after is the number of answers the page saw.")
        try:
            companion.undo(count, after)
        except Moved as moved:
            return state(409, str(moved))
        except Reject as reject:
            return state(422, str(reject))
        return state()

    async def post_new(request: Request) -> Response:
        body = await _json(request)
        seed = body.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            return state(400, "The seed is a whole number.")
        try:
            companion.new_game(str(body.get("difficulty", "normal")), seed)
        except Reject as reject:
            return state(422, str(reject))
        return state()

    async def history(request: Request) -> Response:
        return JSONResponse({"games": companion.games()})

    async def history_file(request: Request) -> Response:
        return Response(
            history_csv(companion.games()),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="solo-history.csv"'},
        )

    def face(request: Request) -> Response:
        p = request.path_params
        return face_response(faces, p["kind"], p["ident"], p["side"])

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/state", get_state),
            Route("/api/answer", post_answer, methods=["POST"]),
            Route("/api/undo", post_undo, methods=["POST"]),
            Route("/api/new", post_new, methods=["POST"]),
            Route("/api/history", history),
            Route("/history.csv", history_file),
            Route("/face/{kind}/{ident}/{side}.png", face),
            Mount("/static", static_files()),
        ]
    )
    return TokenGate(app, token)


def _count_or_none(value) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)


async def _json(request: Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
