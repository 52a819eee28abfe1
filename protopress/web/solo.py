"""The solo companion in the browser: `protopress solo GAME --web`.

The same engine as the terminal (the game's `SoloCompanion`, named by its
spec): the page taps an answer together in the terminal's own words ("2
goblin, ogre"), the engine checks it, and the save is written before the page
hears back, so an answer the page shows as taken is on disk. The save is the
terminal's, so a game goes on in either front end. What the page shows of a
game's own pieces (the cards to tap, the rival) comes from the companion's
`SoloTable`; this module knows no game.

The answers undone, to redo, are the page's: kept beside the save in
NAME.redo.json with the answers they follow, so that they survive a restart, and
used again only while the save holds those same answers (a game gone on in the
terminal has other answers to redo: none).
"""

from __future__ import annotations

import functools
import json
import os
import threading
from dataclasses import asdict
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from protopress.atomic import write_atomic
from protopress.companion import (
    Reject,
    SessionError,
    SoloCompanion,
    SoloGame,
    SoloQuestion,
    SoloTable,
)
from protopress.components.catalog import Catalog
from protopress.web.faces import Faces
from protopress.web.server import page, static_files


class Moved(Reject):
    """A request made for another point of the game than where it is."""


REDO_FORMAT = "protopress-solo-redo/1"

INTRO = (
    "You play with the physical game; I run the rival. Tap Help for the rule of a "
    "step and Undo to take an answer back; every answer is saved at once.",
)


class Companion:
    """One game on the page: the engine, its save and the finished games' history."""

    def __init__(
        self,
        solo: SoloCompanion,
        catalog: Catalog,
        table: SoloTable,
        save_path: Path,
        engine: SoloGame,
        note: str = "",
    ):
        self.solo = solo
        self.catalog = catalog
        self.table = table
        self.save_path = save_path
        self.history = solo.history_path(save_path)
        self.engine = engine
        self.note = note  # said once, on the first state (how the game was opened)
        self.warning = ""
        self.notice = ""  # what the last undo or redo did, in words
        self.redo_path = save_path.with_name(f"{save_path.stem}.redo.json")
        # the answers undone, the next to redo first
        self.redo_answers: list[str] = self._kept_redo()
        self.lock = threading.Lock()
        solo.write_save(save_path, engine)
        self._record()

    @classmethod
    def open(
        cls,
        solo: SoloCompanion,
        catalog: Catalog,
        *,
        difficulty: str,
        seed: int,
        save_path: Path | None = None,
        resume_path: Path | None = None,
    ) -> Companion:
        """Resume resume_path, else the unfinished game in the save, else a new game."""
        table = solo.table(catalog)
        answers: tuple[str, ...] = ()
        note = ""
        if resume_path is not None:
            saved = solo.read_save(resume_path, catalog)
            save_path = save_path or resume_path
            if save_path.resolve() != resume_path.resolve():
                solo.guard(save_path)
            difficulty, seed, answers = saved.difficulty, saved.seed, saved.answers
            note = f"Resumed {resume_path.name}: {len(answers)} answers restored."
        else:
            save_path = save_path or solo.default_save_path()
            try:
                solo.guard(save_path)
            except SessionError:  # unfinished; not a save: refused here
                unfinished = solo.read_save(save_path, catalog)
                difficulty, seed, answers = (
                    unfinished.difficulty,
                    unfinished.seed,
                    unfinished.answers,
                )
                note = f"Resumed the unfinished game in {save_path.name}."
        save_path.parent.mkdir(parents=True, exist_ok=True)
        engine = table.replayed(difficulty, seed, answers, INTRO)
        return cls(solo, catalog, table, save_path, engine, note)

    # changes, each saved before the page hears of it

    def answer(self, text: str, after: int | None = None, step: str | None = None) -> None:
        with self.lock:
            self._expect(after, step)
            self.engine.answer(text)
            self.notice = ""
            if self.redo_answers[:1] == [text]:
                self.redo_answers.pop(0)
            else:
                self.redo_answers.clear()  # another answer: the undone ones no longer follow
            self.solo.write_save(self.save_path, self.engine)
            self._keep_redo()
            self._record()

    def undo(self, count: int, after: int | None = None) -> None:
        with self.lock:
            self._expect(after)
            answers = self.engine.answers
            if not answers:
                raise Reject("Nothing to undo: no answer yet.")
            count = min(count, len(answers))
            last = self.table.page_log(self.engine)[-1]
            taken = answers[len(answers) - count :]
            self.engine = self.table.undone(self.engine, count)
            self.solo.write_save(self.save_path, self.engine)
            self.redo_answers[:0] = taken
            self._keep_redo()
            question = self.engine.question
            back = "" if question is None else f", back to {question.where}"
            self.notice = (
                f"Undone: {last.answer} ({last.step})."
                if count == 1
                else f"Undone: {count} answers{back}."
            )

    def redo(self, after: int | None = None) -> None:
        """Give again the answer undone last (as it was given)."""
        with self.lock:
            self._expect(after)
            if not self.redo_answers:
                raise Reject("Nothing to redo: no answer was undone since the last one.")
            self.engine.answer(self.redo_answers[0])
            self.redo_answers.pop(0)
            done = self.table.page_log(self.engine)[-1]
            self.notice = f"Redone: {done.answer} ({done.step})."
            self.solo.write_save(self.save_path, self.engine)
            self._keep_redo()
            self._record()

    def new_game(self, difficulty: str, seed: int, leave: bool = False) -> None:
        """A new game; an unfinished one with answers is left only when leave says so
        (the page asks first), and is kept beside the save, to resume."""
        difficulties = self.solo.difficulties
        if difficulty not in difficulties:
            raise Reject(f"Choose the difficulty: {' or '.join(difficulties)}.")
        with self.lock:
            unfinished = not self.engine.complete and bool(self.engine.answers)
            if unfinished and not leave:
                raise Moved(
                    "This game is not finished: leave it (it is kept, to resume later) "
                    "or finish it first."
                )
            kept = self._keep_unfinished() if unfinished else None
            self.engine = self.table.replayed(difficulty, seed, (), INTRO)
            self.notice = "" if kept is None else f"The unfinished game is kept in {kept.name}."
            self.redo_answers.clear()
            self.solo.write_save(self.save_path, self.engine)
            self._keep_redo()

    def _keep_redo(self) -> None:
        """The answers to redo written beside the save with the answers they follow
        (atomically), or the file removed when there are none."""
        try:
            if not self.redo_answers:
                self.redo_path.unlink(missing_ok=True)
                return
            kept = {
                "format": REDO_FORMAT,
                "answers": list(self.engine.answers),
                "redo": self.redo_answers,
            }
            write_atomic(self.redo_path, (json.dumps(kept, indent=1) + "\n").encode())
        except OSError as error:  # the game is saved: only redo after a restart is lost
            self.warning = f"The answers to redo are not kept: {error.strerror or error}"

    def _kept_redo(self) -> list[str]:
        """The answers to redo kept beside the save, when they follow the answers the
        game holds now; none otherwise (or when the file is not one of them)."""
        try:
            kept = json.loads(self.redo_path.read_text("utf-8"))
        except (OSError, ValueError):
            return []
        if not isinstance(kept, dict) or kept.get("format") != REDO_FORMAT:
            return []
        answers, redo = kept.get("answers"), kept.get("redo")
        if answers != list(self.engine.answers) or not isinstance(redo, list):
            return []
        return [answer for answer in redo if isinstance(answer, str)]

    def _keep_unfinished(self) -> Path:
        """The unfinished game's save, written again under a name of its own beside the
        save (the first free of NAME.unfinished-1.json, -2, ...), for --resume."""
        number = 1
        while True:
            kept = self.save_path.with_name(
                f"{self.save_path.stem}.unfinished-{number}{self.save_path.suffix}"
            )
            if not kept.exists():
                self.solo.write_save(kept, self.engine)
                return kept
            number += 1

    def _expect(self, after: int | None, step: str | None = None) -> None:
        """A page says how many answers it saw and which step it answers: a request
        sent again after a lost reply, a second tap meant for the step before, or one
        from a second window must not be applied a second time."""
        now = len(self.engine.answers)
        if after is not None and after != now:
            raise Moved(
                f"The game is at {now} answer{'' if now == 1 else 's'}, not the {after} this "
                "page saw (an answer sent twice, or another window): here is where it is now."
            )
        question = self.engine.question
        asked = None if question is None else question.where
        if step is not None and step != asked:
            raise Moved(
                f"That answer was for {step}, but the game is at {asked or 'its end'} "
                "(a second tap, or another window): here is where it is now."
            )

    def _record(self) -> None:
        if not self.engine.complete:
            return
        try:
            self.solo.record(self.history, self.engine)
        except (SessionError, OSError) as error:
            self.warning = f"The game is saved, but not in the history: {error}"

    # what the page shows

    def games(self) -> list[dict]:
        try:
            return self.solo.read_history(self.history)
        except SessionError as error:
            self.warning = str(error)
            return []

    @functools.cached_property
    def faces(self) -> Faces:
        return Faces(self.catalog)

    def state(self) -> dict:
        with self.lock:
            engine = self.engine
            question = engine.question
            final = self.table.page_result(engine)
            note, self.note = self.note, ""
            return {
                "difficulty": engine.difficulty,
                "seed": engine.seed,
                "answers": len(engine.answers),
                "last": engine.answers[-1] if engine.answers else None,
                "last_step": engine.last_step,
                "complete": engine.complete,
                "note": self._shown(note),
                "warning": self._shown(self.warning),
                "said": [asdict(line) for line in self.table.page_said(engine)],
                "question": None if question is None else self._question(question),
                "rival": self.table.page_rival(engine, self.faces),
                "status": engine.status(),
                "result": engine.result_text,
                "final": None if final is None else asdict(final),
                "facts": [asdict(fact) for fact in self.table.page_status(engine)],
                "log": [asdict(step) for step in self.table.page_log(engine)],
                "notice": self.notice,
                "redo": len(self.redo_answers),
                "save": self.save_path.name,
            }

    def _shown(self, text: str) -> str:
        """A text for the page without this machine's folders (a user name is in
        them): the save's folder goes, the home folder is `~`."""
        folder = self.save_path.absolute().parent
        for prefix, shown in ((folder, ""), (Path.home(), "~" + os.sep)):
            if prefix.parent != prefix:  # never the root alone
                text = text.replace(str(prefix) + os.sep, shown)
        return text

    def _question(self, question: SoloQuestion) -> dict:
        return {
            "where": question.where,
            "prompt": question.prompt,
            "help": question.help,
            "default": question.default,
            "kind": question.kind,
            "options": self.table.page_options(question, self.faces),
        }


def face_response(faces: Faces, kind: str, ident: str, side: str, scale: int = 1) -> Response:
    try:
        data = faces.png(kind, ident, side, scale)
    except ValueError as error:  # an image the face needs is missing or refused
        return Response(str(error), status_code=404, media_type="text/plain")
    if data is None:
        return Response("no such face", status_code=404, media_type="text/plain")
    return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})


def solo_app(companion: Companion) -> Starlette:
    """The page's routes; `serve_page` puts them behind the gate."""
    faces = companion.faces

    def state(status: int = 200, error: str = "") -> JSONResponse:
        body = companion.state() | ({"error": error} if error else {})
        return JSONResponse(body, status_code=status)

    async def index(request: Request) -> Response:
        return page(companion.solo.page / "solo.html")

    async def get_state(request: Request) -> Response:
        return state()

    async def post_answer(request: Request) -> Response:
        body = await _json(request)
        text, after, step = body.get("text"), body.get("after"), body.get("step")
        if not isinstance(text, str) or len(text) > 2000:
            return state(400, "An answer is a text.")
        if not _count_or_none(after):
            return state(400, "after is the number of answers the page saw.")
        if step is not None and (not isinstance(step, str) or len(step) > 200):
            return state(400, "step is the step the answer is for, as the page saw it.")
        try:
            companion.answer(text.strip(), after, step)
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

    async def post_redo(request: Request) -> Response:
        after = (await _json(request)).get("after")
        if not _count_or_none(after):
            return state(400, "after is the number of answers the page saw.")
        try:
            companion.redo(after)
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
            companion.new_game(
                str(body.get("difficulty", "normal")), seed, body.get("leave") is True
            )
        except Moved as moved:
            return state(409, str(moved))
        except Reject as reject:
            return state(422, str(reject))
        return state()

    async def history(request: Request) -> Response:
        return JSONResponse({"games": companion.games()})

    async def history_file(request: Request) -> Response:
        return Response(
            companion.solo.history_csv(companion.games()),
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
            Route("/api/redo", post_redo, methods=["POST"]),
            Route("/api/new", post_new, methods=["POST"]),
            Route("/api/history", history),
            Route("/history.csv", history_file),
            Route("/face/{kind}/{ident}/{side}.png", face),
            Mount("/static", static_files(companion.solo.page)),
        ]
    )
    return app


def _count_or_none(value) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)


async def _json(request: Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
