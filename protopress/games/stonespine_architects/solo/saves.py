"""Saved solo sessions: the format (the answers as typed, the seed, the difficulty,
the catalog version), where saves live, reading them back and not overwriting
an unfinished one. Every front end saves and reads through here."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from protopress.atomic import write_atomic
from protopress.components.catalog import Catalog
from protopress.components.loader import parse_json_file
from protopress.components.problems import InvalidInput
from protopress.files import data_dir
from protopress.games.stonespine_architects.rival import DIFFICULTIES
from protopress.games.stonespine_architects.solo.engine import Engine
from protopress.games.stonespine_architects.solo.errors import SessionError
from protopress.games.stonespine_architects.solo.names import plural

GAME = "stonespine-architects"
SAVE_FORMAT = "protopress-solo-session"
# 2: the market laid out is asked after setup and each cleanup, and a purchase names
# a row of it. A version-1 save's answers do not fit these questions, so it is refused
# (see `read_save`) rather than replayed by a second, older flow kept for it.
SAVE_VERSION = 2


def default_save_path(game: str = GAME) -> Path:
    """The save file of a solo session in the user's data directory (created):
    $XDG_DATA_HOME/protopress or ~/.local/share/protopress on Linux,
    %APPDATA%\\protopress on Windows, ~/Library/Application Support/protopress on macOS."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"solo-{game}.json"


def document(engine: Engine) -> dict:
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "game": GAME,
        "catalog": engine.book.catalog.game,
        "catalog_version": engine.book.catalog.version,
        "difficulty": engine.difficulty,
        "seed": engine.seed,
        "last_step": engine.last_step,
        "complete": engine.complete,
        "answers": engine.answers,
    }


def write_save(path: Path, engine: Engine) -> None:
    """Save the session atomically: a kill never leaves a half-written file."""
    text = json.dumps(document(engine), indent=2, ensure_ascii=False) + "\n"
    write_atomic(path, text.encode("utf-8"))


def resume_hint(path: Path) -> str:
    return f"protopress solo {GAME} --resume {shlex.quote(str(path))}"


def read_save(path: Path, catalog: Catalog) -> dict:
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
    if version < SAVE_VERSION:
        raise SessionError(older_save(path, version))
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


def older_save(path: Path, version: int) -> str:
    """Why a save of an older format is not resumed, and what to do instead."""
    return (
        f"{path}: saved by an older protopress (save format {version}; this one reads "
        f"{SAVE_VERSION}, which asks for the market on the table), so its answers do not "
        f"replay; start a new game (delete the file or choose another with --save)"
    )


def guard(path: Path) -> None:
    """Refuse to overwrite an unfinished session or a file that is not a save."""
    if not path.exists():
        return
    if path.is_dir():
        raise SessionError(f"{path} is a directory; choose a save file with --save")
    try:  # bounded like every JSON read: a huge file is not read whole to refuse it
        data = parse_json_file(path, str(path))
    except (OSError, InvalidInput):
        data = None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SessionError(
            f"{path} exists and is not a solo session save; not overwriting it. "
            f"Choose another file with --save."
        )
    version = data.get("version")
    if isinstance(version, int) and version < SAVE_VERSION and not data.get("complete"):
        raise SessionError(older_save(path, version))
    if not data.get("complete"):
        answers = data.get("answers")
        count = len(answers) if isinstance(answers, list) else 0
        last = data.get("last_step")
        last = f", the last for {last}" if isinstance(last, str) else ""
        raise SessionError(
            f"{path} holds an unfinished solo session ({count} "
            f"{plural('answer', count)}{last}). Resume it with "
            f"--resume {shlex.quote(str(path))}, choose another file with --save, or delete "
            f"it to start over."
        )
