"""What a game's solo companion offers the shared front ends, written once.

A solo companion runs an automated rival for a player at a real table
(`protopress solo GAME`, in the terminal or, with --web, on a page). The game
provides it through its spec (`GameSpec.solo_companion`, "module:NAME" of an
object following `SoloCompanion`); the command line and the page read only the
protocols below, never a game's own modules. Stonespine Architects' companion
(games/stonespine_architects/solo/companion.py) is the example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    from protopress.components.catalog import Catalog


class SessionError(Exception):
    """A save file that cannot be resumed, or a file that must not be overwritten."""


class Reject(ValueError):
    """An impossible answer: the message says why, and the question is asked again."""


@dataclass(frozen=True)
class Fact:
    """One thing a page keeps in sight in its header ("Year", "2 of 4")."""

    label: str
    value: str


@dataclass(frozen=True)
class Said:
    """A line the companion said: a move (what the rival did, what it decided) or,
    when not, what the player does at the table."""

    text: str
    move: bool


@dataclass(frozen=True)
class LoggedStep:
    """One answered step of a game in words, and what the companion said after it;
    the opening (what it said before the first question) has no step."""

    step: str
    answer: str
    said: tuple[str, ...]


@dataclass(frozen=True)
class ScoreLine:
    """A line of the final score: the player's points, the rival's, or both."""

    label: str
    you: int | None
    rival: int | None


@dataclass(frozen=True)
class FinalScore:
    """The end of a game: the headline ("You 59 - Rival 83: the rival wins by 24"),
    the score lines under it and the closing remarks."""

    headline: str
    lines: tuple[ScoreLine, ...]
    notes: tuple[str, ...]


class FaceImages(Protocol):
    """Where a page finds a component's face (web.faces.Faces)."""

    def image(self, kind: str, ident: str, side: str = "front") -> dict: ...


class SoloQuestion(Protocol):
    """What a solo game asks now."""

    @property
    def where(self) -> str: ...  # the step, for status, resume and error messages
    @property
    def prompt(self) -> str: ...
    @property
    def help(self) -> str: ...
    @property
    def default(self) -> str | None: ...  # an empty answer takes it
    @property
    def kind(self) -> str: ...  # what the answer is, for a front end that offers taps
    @property
    def options(self) -> Mapping[str, Any]: ...  # JSON: what can be tapped


class SoloGame(Protocol):
    """One solo game in progress: the answers so far and what the companion says."""

    difficulty: str
    seed: int
    answers: list[str]
    said: list[str]  # said since the last answer
    last_step: str | None  # the step last answered
    result_text: list[str]

    @property
    def question(self) -> SoloQuestion | None: ...  # None once the game is over
    @property
    def complete(self) -> bool: ...
    def answer(self, text: str) -> None: ...  # Reject (nothing changes) if impossible
    def status(self) -> str: ...


@dataclass(frozen=True)
class SavedGame:
    """A saved session as read back: enough to replay it."""

    difficulty: str
    seed: int
    answers: tuple[str, ...]


class SoloTable(Protocol):
    """A companion's games on one catalog, and what a page shows of them."""

    def replayed(
        self, difficulty: str, seed: int, answers: Sequence[str], intro: Sequence[str]
    ) -> SoloGame:
        """A game with the recorded answers given again; SessionError if one does not fit."""
        ...

    def undone(self, game: SoloGame, count: int) -> SoloGame:
        """The same game with its last count answers taken back."""
        ...

    def page_options(self, question: SoloQuestion, faces: FaceImages) -> dict[str, Any]:
        """The question's options as the page offers them (titles and faces to tap)."""
        ...

    def page_rival(self, game: SoloGame, faces: FaceImages) -> dict[str, Any]:
        """The rival as the page shows it beside the question."""
        ...

    def page_status(self, game: SoloGame) -> list[Fact]:
        """Where the game is and the figures to keep in sight (the page's header)."""
        ...

    def page_said(self, game: SoloGame) -> list[Said]:
        """What was said since the last answer, each line marked a move or not."""
        ...

    def page_log(self, game: SoloGame) -> list[LoggedStep]:
        """Every step so far in words, the opening first."""
        ...

    def page_result(self, game: SoloGame) -> FinalScore | None:
        """The final score once the game is over, else None."""
        ...


class SoloCompanion(Protocol):
    """A game's solo companion: its difficulties, the terminal session, saves and history."""

    @property
    def difficulties(self) -> Sequence[str]: ...

    @property
    def strength(self) -> str:
        """How often players beat the rival at each difficulty, as measured (for
        `solo --help`)."""
        ...

    @property
    def page(self) -> Path:
        """The folder of the --web page: solo.html and the scripts it loads from
        /static/ (beside the kit's shared style.css and page.js)."""
        ...

    def default_save_path(self) -> Path:
        """The save in the user's data folder (the folder created)."""
        ...

    def run_session(
        self,
        catalog: Catalog,
        stdin: TextIO,
        stdout: TextIO,
        *,
        difficulty: str,
        seed: int | None,
        save_path: Path | None,
        resume_path: Path | None,
    ) -> int:
        """The session in the terminal; the exit code."""
        ...

    def table(self, catalog: Catalog) -> SoloTable: ...

    def read_save(self, path: Path, catalog: Catalog) -> SavedGame:
        """The saved session in path; SessionError saying why it cannot be resumed."""
        ...

    def guard(self, path: Path) -> None:
        """SessionError if saving to path would overwrite an unfinished game or another file."""
        ...

    def write_save(self, path: Path, game: SoloGame) -> None: ...

    def history_path(self, save_path: Path) -> Path: ...

    def read_history(self, path: Path) -> list[dict]:
        """The finished games kept in path; SessionError if it cannot be read."""
        ...

    def record(self, path: Path, game: SoloGame) -> bool:
        """Keep a finished game in the history (once); whether it was added."""
        ...

    def history_csv(self, games: list[dict]) -> str: ...
