"""The command line: random argument lists for every command, built from its
click parameters with valid and invalid values. Whatever the arguments,
protopress exits 0, 1 (invalid input) or 2 (usage error) with a message, never
with a traceback or an internal error, in bounded time.

Values that are valid but ask for a lot of work (100,000 games, 1200 dpi,
rendering every built-in game) are left out: they are slow, not wrong. Invalid
values of any size are in. `--scheduler` is left out (it would reach for a
network address); `watch` stops after its first look.
"""

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from deep import make_special
from fuzzing import (
    ODD_STRINGS,
    Hang,
    fuzz_settings,
    hard_timeout,
    printable,
    smoke_settings,
)
from hypothesis import Phase, event, given
from hypothesis import strategies as st

import protopress.generators.watch as watch_module
import protopress.web.server as web_server
from protopress.cli import cli
from protopress.components import BUILTIN_GAMES, builtin_catalog_path
from protopress.components.schemas import kinds, schema_names

MINI = Path(__file__).parents[1] / "data" / "mini-game"
COMMANDS = sorted(cli.commands)
LEFT_OUT = {"scheduler"}
REAL_WATCH = watch_module.watch
REAL_SERVE = web_server.serve

ODD = st.sampled_from(ODD_STRINGS)
NUMBERS = ["0", "-1", "1", "2", "3", "1.5", "1e3", "nan", "inf", "", "abc", "0x10", " 2 ",
           str(10**12), str(-(10**12)), str(10**100), "9" * 5000]  # fmt: skip


def _safe(text: str) -> str:
    """A random text usable as a relative name (never an absolute path or a way up)."""
    text = text.replace("\x00", "").lstrip("/~").replace("..", "__")
    return text or "x"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Input files of every sort, valid and not, by what they are meant to be."""
    root = tmp_path_factory.mktemp("cli-files")
    runner = CliRunner()
    # Copies: a fuzzed command may write where it is told (--json FILE, -o CATALOG).
    mini = root / "mini-game"
    shutil.copytree(MINI, mini)

    def write(name, data):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return str(path)

    deep = "[" * 100_000 + "]" * 100_000
    junk = {
        "empty": write("empty.json", b""),
        "deep": write("deep.json", deep),
        "binary": write("binary.json", bytes(range(256))),
        "array": write("array.json", "[1, 2, 3]"),
        "nan": write("nan.json", '{"game": NaN}'),
    }
    catalogs = [
        str(mini / "catalog.json"),
        write("broken.json", '{"game": "x", "title": '),
        write("other-game.json", builtin_catalog_path("gemstone-caverns").read_text()),
        *junk.values(),
    ]
    result = runner.invoke(
        cli,
        [
            "render",
            str(mini / "catalog.json"),
            "--layouts",
            str(mini / "layouts"),
            "-o",
            str(root / "pdf"),
        ],  # fmt: skip
    )
    assert result.exit_code == 0, result.output
    pdfs = sorted(str(p) for p in (root / "pdf").glob("*.pdf"))
    good = Path(pdfs[0]).read_bytes()
    pdfs += [
        write("truncated.pdf", good[: len(good) // 2]),
        write("junk.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 4),
        write("empty.pdf", b""),
        write("text.pdf", "not a pdf"),
    ]
    logs = root / "logs"
    for game in ("gemstone-caverns", "dragonstone-mine"):
        runner.invoke(cli, ["simulate", game, "--games", "1", "--log-dir", str(logs / game)])
    log_files = sorted(str(p) for p in logs.rglob("*.json"))
    bad_log = json.loads(Path(log_files[0]).read_text())
    bad_log["players"] = "two"
    log_files += [write("bad-log.json", json.dumps(bad_log)), *junk.values()]
    states = [
        write("grid.json", '{"grid": ["AAB", "A.B"]}'),
        write("tower.json", '{"level": "1", "spires": [["red"], [], [], [], [], []]}'),
        write("dungeon.json", '{"chambers": [], "entrance": {}, "exit": {}}'),
        *junk.values(),
    ]
    tables = [
        write("cards.csv", "id,title,text\nace,Ace,Win.\n"),
        write("bad.csv", "id,titel\nace,1\n"),
        write("latin.csv", "id,title\n\xe9,\xe9\n".encode("latin-1")),
        write("cards.xlsx", b"PK\x03\x04 not really a workbook"),
        write("cards.txt", "id\nace\n"),
    ]
    solo_save = write("solo.json", '{"format": "protopress-solo", "answers": [1]}')
    layouts_dir = str(mini / "layouts")
    bad_layouts = root / "bad-layouts"
    bad_layouts.mkdir()
    (bad_layouts / "card.json").write_text('{"kind": "card", "size": {"width": "0mm"}}')
    return {
        "catalog": catalogs + SPECIAL_INPUTS,
        "pdf": pdfs + SPECIAL_INPUTS,
        "log": log_files + SPECIAL_INPUTS,
        "state": states + SPECIAL_INPUTS,
        "table": tables + SPECIAL_INPUTS,
        "save": [solo_save, *junk.values(), *SPECIAL_INPUTS],
        "layouts": [layouts_dir, str(bad_layouts), str(root), catalogs[0], *SPECIAL_INPUTS],
        "dir": [str(root)],
    }


# Special files, made afresh in each invocation's folder (deep.make_special): a
# FIFO, a link to /dev/zero, a folder, a dangling link and a link loop as any
# input; as an output all but the FIFO (writing to one waits for a reader, as a
# shell redirection does) plus a link to /dev/null.
SPECIAL_INPUTS = [f"special-{kind}" for kind in ("fifo", "zero", "folder", "dangling", "loop")]
SPECIAL_OUTPUTS = [f"special-{kind}" for kind in ("null", "folder", "dangling", "loop")]
# watch and preview wait on a FIFO or a device by design: they get the folder instead
WAITING = {"watch", "preview"}


def _without_waits(args: list[str]) -> list[str]:
    waits = {"special-fifo", "special-zero", "special-null"}
    return ["special-folder" if arg in waits else arg for arg in args]


def _targets(files, heavy_ok: bool):
    games = list(BUILTIN_GAMES) if heavy_ok else []
    return st.one_of(
        st.sampled_from(games + ["gem-rsh", "dragonstone", "", "-", "nope"]),
        st.sampled_from(files["catalog"] + files["dir"]),
        ODD.map(_safe),
    )


def _int_values(low, high, work=False):
    """Valid small values (work: the least work), edges, and invalid ones."""
    valid = []
    if low is not None:
        valid = [low, low + 1, low + 2] if work or high is None else [low, (low + high) // 2, high]
        if high is not None:
            valid = [v for v in valid if v <= high]
    return st.one_of(st.sampled_from([str(v) for v in valid] or ["1"]), st.sampled_from(NUMBERS))


LENGTHS = ["3mm", "0.125in", "9pt", "1cm", "0", "2", "0mm", "-1mm", "-3mm", "25mm", "26mm",
           "1e3mm", "1000mm", "99999999999999999999mm", "nan", "inf mm", "3 mm", "3px", "",
           "mm", "1" * 400 + "mm"]  # fmt: skip
OFFSETS = ["0,0", "0.5,-1", "-50,50", "51,0", "1,2,3", "1", "inf,0", "nan,nan", "1e308,1e308",
           "abc", "", ",", "1e400,0", "-0,-0"]  # fmt: skip
OPTIONS = ["level=2", "level=1", "level=smiley", "level=3", "mode=rush", "mode=crisis",
           "mode=x", "target=5", "target=-1", "target=99999999999", "target=abc",
           "skills=chaos", "skills=none", "solo=true", "solo=maybe", "difficulty=hard",
           "turn_limit=3", "turn_limit=-5", "x", "=", "a=", "=b", "level=2=3"]  # fmt: skip
KIND_NAMES = sorted(kinds()) + [k.collection for k in kinds().values()]


def _value(param: click.Parameter, command: str, files):
    """A strategy for one value of an option or argument."""
    name, kind = param.name, param.type
    if isinstance(kind, click.Choice):
        return st.one_of(st.sampled_from(list(kind.choices)), ODD)
    if name == "games":
        return _int_values(kind.min, kind.max, work=True)
    if name == "dpi":
        return st.sampled_from(["72", "100", "71", "1201", "0", "-300", "abc", str(10**12)])
    if name == "workers":
        return st.sampled_from(["1", "-1", "257", "abc", str(10**12)])
    if isinstance(kind, click.IntRange | click.FloatRange):
        return _int_values(kind.min, kind.max)
    if isinstance(kind, click.types.IntParamType):
        return st.one_of(st.sampled_from(NUMBERS), st.integers().map(str))
    if kind.name == "length":
        return st.sampled_from(LENGTHS)
    if kind.name == "x,y":
        return st.sampled_from(OFFSETS)
    if kind.name == "key=value":
        return st.one_of(st.sampled_from(OPTIONS), ODD)
    if name in ("kind", "only_kinds"):
        return st.one_of(st.sampled_from(KIND_NAMES + ["cards", "card", "room-tyle"]), ODD)
    if name == "name":
        return st.one_of(st.sampled_from(schema_names() + ["roomtile"]), ODD)
    if name in ("cost", "hand"):
        gems = ["fire-ruby", "obsidian", "electrum", "diamond-dust", "echoglass", "warpstone",
                "orichalcum", "fire-rubby", "", " ", "+", ","]  # fmt: skip
        joined = st.lists(st.sampled_from(gems), max_size=4).map(
            lambda g: ("," if name == "cost" else "+").join(g)
        )
        return st.one_of(joined, ODD)
    if name == "sheet":
        return st.one_of(st.sampled_from(["Sheet1", "cards"]), ODD)
    if name in ("targets", "target", "old", "new", "game_id"):
        return _targets(files, heavy_ok=command not in ("render",))
    if name in ("catalog_path",):
        return st.sampled_from(files["catalog"] + files["dir"] + ["missing.json"])
    if name == "table":
        return st.sampled_from(files["table"] + files["dir"] + ["missing.csv"])
    if name == "files":
        return st.sampled_from(files["pdf"] + files["dir"] + ["missing.pdf"])
    if name == "log_file":
        return st.sampled_from(files["log"] + ["missing.json"])
    if name == "state_file":
        return st.sampled_from(files["state"] + ["missing.json"])
    if name == "layouts_dir":
        return st.sampled_from(files["layouts"] + ["missing-folder"])
    if name == "resume_path":
        return st.sampled_from(files["save"] + ["missing.json"])
    if name == "compare_with":
        return st.sampled_from(files["catalog"] + list(BUILTIN_GAMES) + ["missing.json"])
    if isinstance(kind, click.Path) or name in ("output", "save_path", "log_dir"):
        suffix = {"report_path": ".pdf", "json_path": ".json", "output": ""}.get(name, "")
        return st.one_of(
            st.sampled_from(["out", "out/deeper", "out.csv", "out.xlsx", "out.json", "out.txt"]),
            ODD.map(lambda t: _safe(t) + suffix),
            st.sampled_from(files["dir"] + files["catalog"][:2] + SPECIAL_OUTPUTS),
        )
    return st.one_of(ODD, st.text(max_size=20))  # any other text option


GOOD_LENGTHS = ["3mm", "0.125in", "9pt", "1cm", "0", "2", "0mm", "25mm"]
GOOD_OPTIONS = {
    "dragonstone-mine": ["level=2", "level=1", "level=smiley"],
    "gem-rush": ["mode=rush", "mode=crisis", "target=5", "skills=chaos", "skills=none"],
    "stonespine-architects": ["solo=true", "difficulty=hard"],
    "gemstone-caverns": [],
}


def _valid(param: click.Parameter, command: str, files, game: str):
    """A strategy for a value that the option accepts, or None to use _value."""
    name, kind = param.name, param.type
    if isinstance(kind, click.Choice):
        return st.sampled_from(list(kind.choices))
    if name in ("games", "dpi", "workers"):
        return st.sampled_from({"games": ["1", "2"], "dpi": ["72"], "workers": ["1"]}[name])
    if isinstance(kind, click.IntRange | click.FloatRange):
        low, high = kind.min, kind.max
        return st.sampled_from([str(v) for v in (low, high, (low + high) / 2) if v is not None])
    if isinstance(kind, click.types.IntParamType):
        return st.integers(-(10**20), 10**20).map(str)
    if kind.name == "length":
        return st.sampled_from(GOOD_LENGTHS)
    if kind.name == "x,y":
        return st.sampled_from(["0,0", "0.5,-1", "-2,2"])
    if kind.name == "key=value":
        return st.sampled_from(GOOD_OPTIONS.get(game) or ["level=2"])
    if name in ("kind", "only_kinds"):
        return st.sampled_from(
            ["card", "symbol", "cards"] if command != "export-table" else KIND_NAMES
        )
    if name in ("targets", "target", "old", "new"):
        heavy = command not in ("render",)
        return st.sampled_from(files["catalog"][:1] + (list(BUILTIN_GAMES) if heavy else []))
    if name == "game_id":
        return st.just(game)
    if name == "table":
        return st.sampled_from(files["table"][:2])
    if name == "files":
        return st.sampled_from(files["pdf"][:2])
    if name == "log_file":
        return st.sampled_from(files["log"][:2])
    if name == "state_file":
        return st.sampled_from(files["state"][:2])
    if name == "layouts_dir":
        return st.just(files["layouts"][0])
    if name == "catalog_path":
        if command == "watch":  # watch --png draws a whole game at 300 dpi: slow, not wrong
            return st.just(files["catalog"][0])
        return st.just(
            str(builtin_catalog_path(game)) if game in BUILTIN_GAMES else files["catalog"][0]
        )
    return None


@st.composite
def invocations(draw, files, command=None):
    command = command or draw(st.sampled_from(COMMANDS))
    params = [p for p in cli.commands[command].params if p.name not in LEFT_OUT]
    args: list[str] = [command]
    positional: list[str] = []
    game = draw(st.sampled_from(BUILTIN_GAMES))
    chaos = draw(st.integers(0, 3)) == 0  # else nearly every value is a valid one

    def value(param):
        good = _valid(param, command, files, game)
        if good is not None and not chaos and draw(st.integers(0, 9)) != 0:
            return draw(good)
        return draw(_value(param, command, files))

    for param in params:
        if isinstance(param, click.Argument):
            if not param.required and draw(st.integers(0, 3)) == 0:
                continue
            if param.required and draw(st.integers(0, 19)) == 0:
                continue  # a missing argument
            count = draw(st.integers(0, 3)) if param.nargs == -1 else param.nargs
            positional += [value(param) for _ in range(count)]
            continue
        if param.required:
            if draw(st.integers(0, 19)) == 0:
                continue  # a missing required option
        elif draw(st.integers(0, 2)) != 0:
            continue
        flag = draw(st.sampled_from(param.opts + param.secondary_opts))
        if param.is_flag:
            if command == "render" and param.name == "all_games":
                continue  # every built-in game: slow, not wrong
            args.append(flag)
            continue
        for _ in range(draw(st.integers(1, 3)) if param.multiple else 1):
            args.append(flag)
            args += [value(param) for _ in range(param.nargs)]
    if command == "balance" and "--workers" not in args:
        args += ["--workers", "1"]  # one per CPU is right, but slow to start per example
    if command in ("balance", "simulate") and "--games" not in args:
        args += ["--games", "2"]  # the defaults (10,000 and 100 games) are slow, not wrong
    if command == "tune":  # a search over catalogs: slow at its defaults, not wrong
        args += ["--games", "10", "--batch", "10", "--budget", "20"]
    if command == "conform" and "--games" not in args:
        args += ["--games", "1"]  # two at every player count: slow, not wrong
    if draw(st.integers(0, 14)) == 0:
        args.append(draw(st.sampled_from(["--bogus", "-z", "--json=1", "extra", "--"])))
    if draw(st.integers(0, 9)) == 0:
        draw(st.randoms()).shuffle(positional)
    args = args + positional
    if command in WAITING:
        args = _without_waits(args)
    return [_as_argv(arg) for arg in args]


def _as_argv(text: str) -> str:
    """What Python makes of an argument: bytes (no NUL) decoded with surrogateescape."""
    data = text.replace("\x00", "").encode("utf-8", "surrogatepass")
    return data.decode("utf-8", "surrogateescape")


def _watch_once(catalog_path, options, report, should_stop, interval=0.5, sleep=None):
    looks = iter([False])
    REAL_WATCH(catalog_path, options, report, lambda: next(looks, True), interval, lambda _: None)


def check_invocation(args: list[str], workdir: Path, monkeypatch_watch) -> None:
    runner = CliRunner()
    env = {"XDG_DATA_HOME": str(workdir / "data"), "HOME": str(workdir), "COLUMNS": "80"}
    here = Path(tempfile.mkdtemp(dir=workdir))
    for kind in ("fifo", "zero", "null", "folder", "dangling", "loop"):
        make_special(kind, here / f"special-{kind}")
    with contextlib.chdir(here):  # relative outputs land here
        try:
            with hard_timeout(120):
                result = runner.invoke(
                    cli, args, prog_name="protopress", catch_exceptions=False, input="", env=env
                )
        except OSError as error:  # main() prints `protopress: ...` and exits 1
            printable(str(error))
            event(f"{args[0]}: exit 1 (OSError)")
            return
        except Hang:
            raise AssertionError(f"no answer after 120 s: protopress {args}") from None
    output = result.output
    temporaries = [name for _, _, names in os.walk(here) for name in names if name.endswith(".tmp")]
    assert not temporaries, f"left half-written: {temporaries}"
    assert "Traceback" not in output, output
    assert "internal error" not in output, output
    assert result.exit_code in (0, 1, 2), (result.exit_code, output)
    if result.exit_code != 0:
        assert output.strip(), f"exit {result.exit_code} without a word"
    printable(output)
    event(f"{args[0]}: exit {result.exit_code}")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli-runs")


@pytest.fixture(scope="module", autouse=True)
def repository_untouched():
    """The commands write only into temporary folders, never into the checkout's files."""
    data = Path(__file__).parents[1] / "data"
    before = {path: path.read_bytes() for path in data.rglob("*") if path.is_file()}
    yield
    after = {path: path.read_bytes() for path in data.rglob("*") if path.is_file()}
    assert after == before


@pytest.fixture(scope="module", autouse=True)
def watch_once():
    watch_module.watch = _watch_once
    yield
    watch_module.watch = REAL_WATCH


def _serve_once(app, sock, announce):
    """A page server that says where it is and stops at once (solo --web, preview)."""
    announce()


@pytest.fixture(scope="module", autouse=True)
def serve_once():
    web_server.serve = _serve_once
    yield
    web_server.serve = REAL_SERVE


@pytest.fixture(scope="module")
def cases(files):
    return invocations(files)


@pytest.mark.fuzz
@fuzz_settings(deadline_seconds=60, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(data=st.data())
def test_fuzz_cli(data, files, workdir):
    args = data.draw(invocations(files), label="args")
    check_invocation(args, workdir, None)


@smoke_settings(examples=len(COMMANDS))
@given(data=st.data())
def test_smoke_cli(data, files, workdir):
    args = data.draw(invocations(files), label="args")
    check_invocation(args, workdir, None)


def test_every_command_is_fuzzed():
    assert set(COMMANDS) == {
        "games", "validate", "check", "diff", "render", "preflight", "watch", "pay", "new",
        "import", "export-table", "solo", "simulate", "balance", "replay", "score", "schema",
        "preview", "conform", "play", "tune", "showcase",
    }  # fmt: skip
    assert os.environ.get("PROTOPRESS_FUZZ_EXAMPLES", "1").isdigit()
