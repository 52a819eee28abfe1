"""A balance run's game records kept in a file beside its report, so that a run
can grow and an interrupted one can resume.

The store is JSON lines: a header naming what the games were played with (the
game, digests of its catalog and rules, players, bots, rotation, seed,
options), then one game record a line, in the order they finished. Game i's
record depends on those settings and i alone (run.py), so the records kept
and the ones played later make the same run as one long run.

A store may also hold games people played at the playtest table (balance/human.py),
added from their action logs when the game, catalog, rules, players and options
are the store's: lines marked "human", after the bots' games once settled, never
among the records a run reads.

The header is written atomically; records are appended a chunk at a time in
one write, with Ctrl-C, SIGTERM and SIGHUP held until the write is on disk. A
line cut short by a crash or a full disk is the last one; loading drops it
(the game is played again) and cuts it from the file before the next append.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType

from protopress import __version__
from protopress.atomic import write_atomic
from protopress.balance.human import HumanGame, is_human_line
from protopress.balance.run import catalog_file, resolve_catalog
from protopress.rules.simulate import GameRecord
from protopress.rules.spec import GameSpec
from protopress.signals import STOPPING_SIGNALS, held

STORE_FORMAT = "protopress-balance-store/1"
STORE_SUFFIX = ".games.jsonl"


class StoreError(ValueError):
    """A store that cannot be used: not a store, damaged, or of other settings."""


@dataclass(frozen=True)
class StoreSettings:
    """What a store's games were played with: a store serves only a run of the same."""

    game: str
    catalog_digest: str  # sha256 of the catalog file's bytes
    rules_digest: str  # sha256 of the engine's source files and the kit's version
    players: int
    bots: tuple[str, ...]  # per seat, before rotation
    rotate: bool
    seed: int
    options: Mapping[str, object]

    def to_json(self) -> dict:
        data = asdict(self)
        data["bots"] = list(self.bots)
        data["options"] = dict(sorted(self.options.items()))
        return {"format": STORE_FORMAT, **data}

    @classmethod
    def from_json(cls, data: dict) -> StoreSettings:
        return cls(
            game=data["game"],
            catalog_digest=data["catalog_digest"],
            rules_digest=data["rules_digest"],
            players=data["players"],
            bots=tuple(data["bots"]),
            rotate=data["rotate"],
            seed=data["seed"],
            options=dict(data["options"]),
        )

    def differences(self, other: StoreSettings, what: Sequence[str] | None = None) -> list[str]:
        """What differs from other, in words ("seed 1, not 2"), this one's value first;
        what: the settings compared (default all)."""
        words = {
            "game": "game",
            "catalog_digest": "catalog",
            "rules_digest": "rules",
            "players": "players",
            "bots": "bots",
            "rotate": "rotation",
            "seed": "seed",
            "options": "options",
        }
        mine, theirs = self.to_json(), other.to_json()
        found = []
        for key, word in words.items():
            if mine[key] == theirs[key] or (what is not None and key not in what):
                continue
            if key.endswith("_digest"):
                found.append(f"another {word} file" if key == "catalog_digest" else "other rules")
            else:
                found.append(f"{word} {_shown(theirs[key])}, not {_shown(mine[key])}")
        return found


# what makes a game the same game: a human game joins a store with these alike (its
# seats, seed and bots are its own)
SAME_GAME = ("game", "catalog_digest", "rules_digest", "players", "options")


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def catalog_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def rules_digest(spec: GameSpec) -> str:
    """A digest of the engine's source: its module's file, or every Python file of
    its package when the engine lives in one (a built-in game's folder), and the
    kit's version (the bots and the search are the kit's)."""
    module = spec.engine_module()
    digest = hashlib.sha256(__version__.encode())
    for path in _sources(module):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _sources(module: ModuleType) -> list[Path]:
    file = getattr(module, "__file__", None)
    if file is None:
        return []
    source = Path(file)
    folder = source.parent
    if module.__package__ and (folder / "__init__.py").is_file():
        return sorted(folder.rglob("*.py"))
    return [source]


def settings_for(
    spec: GameSpec,
    catalog: str,
    players: int,
    bots: Sequence[str],
    rotate: bool,
    seed: int,
    options: Mapping[str, object],
) -> StoreSettings:
    """The settings of a run of spec's game with this catalog (a built-in id or a
    path); ValueError when there is no such catalog."""
    reference, _ = resolve_catalog(catalog)
    return StoreSettings(
        game=spec.id,
        catalog_digest=catalog_digest(catalog_file(reference)),
        rules_digest=rules_digest(spec),
        players=players,
        bots=tuple(bots),
        rotate=rotate,
        seed=seed,
        options=json.loads(json.dumps(dict(options))),  # as the store's header reads back
    )


def store_beside(output: Path) -> Path:
    """The store a run writing `output` keeps its games in: balance.json -> balance.games.jsonl."""
    return output.with_name(output.stem + STORE_SUFFIX)


class GameStore:
    """The records of one store file, by game index; `add` appends new ones."""

    def __init__(
        self,
        path: Path,
        settings: StoreSettings,
        records: dict[int, GameRecord],
        written: bool,
        human: list[HumanGame] | None = None,
    ):
        self.path = path
        self.settings = settings
        self.records = records
        self.written = written  # whether the file holds this store (else the first add writes it)
        self.human = human or []  # games people played, in the order added (never in records)

    @classmethod
    def open(cls, path: Path, settings: StoreSettings, fresh: bool = False) -> GameStore:
        """The store at path for these settings; StoreError when it is not a store or
        holds other settings. A new store (or, fresh, one started again) is written
        with its first games: nothing is written before."""
        path = Path(path)
        if fresh or not path.exists():
            return cls(path, settings, {}, written=False)
        kept, records, human = _read(path)
        differences = settings.differences(kept)
        if differences:
            raise StoreError(
                f"{path} holds games played with {'; '.join(differences)}: "
                "add --fresh to start it afresh (its games are lost), or --store to keep "
                "this run's games elsewhere"
            )
        return cls(path, settings, records, written=True, human=human)

    @classmethod
    def existing(cls, path: Path) -> GameStore:
        """The store at path, whatever its settings; StoreError when there is none."""
        path = Path(path)
        if not path.is_file():
            raise StoreError(
                f"{path}: no store there yet: a human game joins the store of a balance run "
                "(protopress balance GAME --store FILE plays one)"
            )
        settings, records, human = _read(path)
        return cls(path, settings, records, written=True, human=human)

    def below(self, games: int) -> list[GameRecord]:
        """The kept records of games 0 to games - 1, by index."""
        return [self.records[i] for i in sorted(self.records) if i < games]

    def add(self, records: Iterable[GameRecord]) -> None:
        """Append the records of games not kept yet, in one write flushed to disk; the
        first one of a new store writes its header too, atomically."""
        new = [r for r in records if r.index not in self.records]
        if not new and self.written:
            return
        self._append(b"".join(_line(record.to_json()) for record in new))
        self.records.update((record.index, record) for record in new)

    def add_human(self, game: HumanGame) -> None:
        """Append a game people played; StoreError when the store holds it already."""
        for number, kept in enumerate(self.human, start=1):
            if kept.digest == game.digest:
                raise StoreError(f"{self.path} holds this game already (human game {number})")
        self._append(_line(game.to_json()))
        self.human.append(game)

    def _append(self, data: bytes) -> None:
        """data appended in one write flushed to disk (a new store: with its header,
        atomically)."""
        try:
            with held(signal.SIGINT, *STOPPING_SIGNALS):
                if not self.written:
                    write_atomic(self.path, _line(self.settings.to_json()) + data)
                    self.written = True
                else:
                    with open(self.path, "ab") as stream:
                        stream.write(data)
                        stream.flush()
                        os.fsync(stream.fileno())
        except OSError as error:
            raise StoreError(
                f"{self.path}: cannot write the store: {error.strerror or error}"
            ) from None

    def settle(self) -> None:
        """Write the store again with its games in index order, atomically: chunks
        arrive in the order workers finish them, and a finished run's store is the
        same bytes however many workers played it."""
        if not self.written:
            return
        data = (
            _line(self.settings.to_json())
            + b"".join(_line(self.records[index].to_json()) for index in sorted(self.records))
            + b"".join(_line(game.to_json()) for game in self.human)
        )
        try:
            with held(signal.SIGINT, *STOPPING_SIGNALS):
                write_atomic(self.path, data)
        except OSError as error:
            raise StoreError(
                f"{self.path}: cannot write the store: {error.strerror or error}"
            ) from None


def _line(data: dict) -> bytes:
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


def _read(path: Path) -> tuple[StoreSettings, dict[int, GameRecord], list[HumanGame]]:
    """The header, records and human games of a store; a last line cut short is cut
    from the file."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise StoreError(f"{path}: cannot read the store: {error.strerror}") from None
    lines = data.split(b"\n")
    complete = lines[:-1]  # the text after the last newline is a line cut short (or empty)
    if not complete:
        raise StoreError(f"{path}:1: not a balance store (no header line)")
    try:
        header = json.loads(complete[0])
        if header.get("format") != STORE_FORMAT:
            raise KeyError("format")
        settings = StoreSettings.from_json(header)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise StoreError(
            f"{path}:1: not a balance store (expected a {STORE_FORMAT} header)"
        ) from None
    records: dict[int, GameRecord] = {}
    human: list[HumanGame] = []
    for number, line in enumerate(complete[1:], start=2):
        try:
            parsed = json.loads(line)
            if is_human_line(parsed):
                human.append(HumanGame.from_json(parsed))
                continue
            record = GameRecord.from_json(parsed)
        except (ValueError, KeyError, TypeError, AttributeError):
            if number == len(complete):  # cut short by a crash: drop it, play it again
                _truncate(path, len(data) - len(lines[-1]) - len(line) - 1)
                break
            raise StoreError(
                f"{path}:{number}: not a game record; the store is damaged (--fresh starts it afresh)"
            ) from None
        records[record.index] = record
    else:
        if lines[-1]:
            _truncate(path, len(data) - len(lines[-1]))
    return settings, records, human


def _truncate(path: Path, size: int) -> None:
    with open(path, "r+b") as stream:
        stream.truncate(size)
