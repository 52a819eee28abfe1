"""Stonespine Architects solo mode at the table, in the terminal: the program runs the rival.

The player plays with the physical game; the program keeps the rival's deck,
its two score piles and its reputation, and asks only what the rival must
know. Command: `protopress solo stonespine-architects`; the player's guide is
docs/solo.md, the rulings are docs/rules/stonespine-architects.md ("Solo
mode"). The steps, the checks and the save format are the engine's
(`solo.engine`, `solo.saves`); this module reads the answers line by line and
prints what the engine says.

Every accepted answer is recorded as typed. The session is saved atomically
after every answer; resuming replays the answers through the engine, so the
rival ends up exactly where it was. A session killed at any moment (even
mid-save) keeps every answer whose next question was shown; a temporary left by
a kill mid-save is removed by the next session saving to the same file. `help`,
`status`, `undo` and `quit` work at every prompt.
"""

from __future__ import annotations

import random
import re
import shutil
import textwrap
from pathlib import Path
from typing import TextIO

from protopress.atomic import remove_stale_temporaries
from protopress.components.catalog import Catalog
from protopress.games.stonespine_architects.rival import DIFFICULTIES
from protopress.games.stonespine_architects.solo.book import Book
from protopress.games.stonespine_architects.solo.engine import Engine, replayed, undone
from protopress.games.stonespine_architects.solo.errors import Reject, SessionError
from protopress.games.stonespine_architects.solo.names import Names, parse_list, plural
from protopress.games.stonespine_architects.solo.saves import (
    GAME,
    SAVE_FORMAT,
    data_dir,
    default_save_path,
    guard,
    read_save,
    resume_hint,
    write_save,
)

__all__ = [
    "GAME",
    "SAVE_FORMAT",
    "Names",
    "Reject",
    "SessionError",
    "data_dir",
    "default_save_path",
    "parse_list",
    "run_session",
]

HELP_COMMANDS = (
    "At any prompt: help (this), status (the rival's piles and reputation), "
    "quit (save and stop; resume later with --resume), undo (take back the last answer; "
    "undo 3 takes back three)."
)


class _Quit(Exception):
    pass


class _EndOfInput(Exception):
    pass


class _Unreadable(Exception):
    """Standard input is closed (`0<&-`) or cannot be read: no answer will come."""


def intro(save_path: Path) -> tuple[str, ...]:
    return (
        "You play with the physical game; I run the rival. Type help at any prompt "
        "for the rule of that step, status for the rival's piles, undo to take back an "
        "answer, quit to save and stop.",
        f"Every answer is saved in {save_path}.",
    )


class Session:
    """The terminal front end of one engine: prompts, reading stdin, saving."""

    def __init__(
        self,
        engine: Engine,
        stdin: TextIO | None,
        stdout: TextIO,
        save_path: Path,
        resumed_from: Path | None = None,
    ):
        self.engine = engine
        self.stdin, self.stdout = stdin, stdout
        self.save_path = save_path
        self.resumed_from = resumed_from
        self.interactive = _isatty(stdin)
        # a terminal gets lines cut between words to its width; a pipe or a file,
        # the lines as they are (a transcript)
        self.width = shutil.get_terminal_size().columns if _isatty(stdout) else None

    def say(self, text: str = "") -> None:
        self.stdout.write((text if self.width is None else wrapped(text, self.width)) + "\n")

    def save(self) -> None:
        write_save(self.save_path, self.engine)

    def run(self) -> int:
        engine = self.engine
        try:
            if self.resumed_from is None:
                self.save()
            else:
                count = len(engine.answers)
                self.say(
                    f"Resumed {self.resumed_from}: {count} {plural('answer', count)} restored "
                    f"({engine.difficulty}, seed {engine.seed})."
                )
                self.say(engine.status())
                self.say()
            self.listen()
            while self.engine.question is not None:
                self.ask()
            self.save()
            self.say(f"The session is saved in {self.save_path}.")
            return 0
        except _Quit:
            self.save()
            self.say(f"Saved in {self.save_path}. To go on later: {resume_hint(self.save_path)}")
            return 0
        except _EndOfInput:
            self.save()
            self.say(
                f"The input ended before the session was over ({self.engine.where}). Your "
                f"answers are saved in {self.save_path}. To go on: {resume_hint(self.save_path)}"
            )
            return 1
        except _Unreadable as unreadable:
            self.save()
            self.say(
                f"{unreadable}, so no answer can come ({self.engine.where}). Your answers "
                f"are saved in {self.save_path}. To go on: {resume_hint(self.save_path)}"
            )
            return 1
        except KeyboardInterrupt:
            self.save()
            self.stdout.write(f"\nStopped. To go on: {resume_hint(self.save_path)}\n")
            return 130

    def listen(self) -> None:
        """Show what the engine said for the current step, then everything it says."""
        for line in self.engine.said:
            self.say(line)
        self.engine.listener = self.say

    def ask(self) -> None:
        while True:
            engine, question = self.engine, self.engine.question
            if question is None:
                raise SessionError("the session has no question to ask")
            default = f" [{question.default}]" if question.default is not None else ""
            prompt = f"{question.prompt}{default} >"
            # a terminal's prompt is cut between words too; the answer follows its last line
            self.stdout.write((prompt if self.width is None else wrapped(prompt, self.width)) + " ")
            self.stdout.flush()
            line = self.read_line()
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
                self.say(engine.status())
                continue
            if command in ("quit", "exit"):
                raise _Quit
            if command.split(" ", 1)[0] == "undo":
                self.undo(command[4:].strip())
                continue
            try:
                engine.answer(text)
            except Reject as reject:
                self.say(f"  {reject} (Type help for this step's rule.)")
                continue
            self.save()
            return

    def read_line(self) -> str:
        """The next line of standard input ('' at its end); _Unreadable when it is closed
        or reading fails (a folder given as input, bytes that are not UTF-8)."""
        try:
            if self.stdin is None:  # started with standard input closed: Python gives None
                raise _Unreadable("Standard input is closed")
            try:
                return self.stdin.readline()
            except (OSError, ValueError) as error:
                reason = getattr(error, "strerror", None) or error
                raise _Unreadable(f"Standard input cannot be read ({reason})") from None
        except _Unreadable:
            self.stdout.write("\n")  # ends the prompt's line
            raise

    def undo(self, count_text: str) -> None:
        """Take back answers by replaying the others; save; show the step again."""
        engine = self.engine
        if not re.fullmatch(r"\d*", count_text) or count_text == "0":
            self.say("  Type undo, or undo and a number of answers (undo 3).")
            return
        if not engine.answers:
            self.say("  Nothing to undo: no answer yet.")
            return
        count = min(int(count_text or 1), len(engine.answers))
        last = engine.answers[-1]
        engine.listener = None
        self.engine = undone(engine, count)
        self.save()
        if count == 1:
            self.say(f"Undone: {last or '(Enter)'} ({self.engine.where}).")
        else:
            self.say(f"Undone: {count} answers, back to {self.engine.where}.")
        self.listen()


def wrapped(text: str, width: int) -> str:
    """Each line of text cut between words to fit width, its indent kept; a word
    longer than the line (a path) stays whole. Lines that fit (the result table)
    are left as they are."""
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        lines += textwrap.wrap(
            line,
            width,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
    return "\n".join(lines)


def _isatty(stream: TextIO | None) -> bool:
    """Whether stream is a terminal (False for None, a closed stream or a fake one)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def run_session(
    catalog: Catalog,
    stdin: TextIO | None,
    stdout: TextIO,
    *,
    difficulty: str = "normal",
    seed: int | None = None,
    save_path: Path | str | None = None,
    resume_path: Path | str | None = None,
) -> int:
    """Run an at-the-table solo session of Stonespine Architects; return the exit code.

    0: finished, or `quit` (saved). 1: the input ended mid-session, or standard input
    is closed or cannot be read (saved: no answer can come, and the session is not
    over), a save that cannot be resumed or written. 2: an unknown difficulty. 130: interrupted.
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
            guard(save_path)
        save_path.parent.mkdir(parents=True, exist_ok=True)
        # a session killed while saving leaves a hidden temporary beside its save
        remove_stale_temporaries(save_path.parent, save_path.name.__eq__)
        engine = replayed(book, difficulty, seed, answers, intro(save_path))
        return Session(engine, stdin, stdout, save_path, resume_path).run()
    except SessionError as error:
        stdout.write(f"protopress solo: cannot go on: {error}\n")
        return 1
    except OSError as error:
        where = error.filename or save_path
        stdout.write(
            f"protopress solo: cannot save the session to {where}: {error.strerror or error}\n"
        )
        return 1
