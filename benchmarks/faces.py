"""One renderer, measured as a user runs it: PDF sheets, PNG export, memory, rich text.

Every figure is a whole process: `protopress render` as a command, against a
bare script of benchmarks/bare/ that imports nothing of protopress (its data,
the texts and icon outlines, comes as a JSON file), each timed by the clock
from outside, start-up included. The two sides take turns (alternating runs,
so a change in the machine's load falls on both alike) and the median of each
is kept. Both run with their bytecode compiled, as an installed package has
it: one untimed run of each compiles it (into a temporary pycache prefix,
whatever PYTHONDONTWRITEBYTECODE says).

- the PDF sheets of N poker cards (`protopress render --layout sheets`)
  against a bare reportlab script embedding the same TrueType fonts
  (benchmarks/bare/reportlab_sheets.py; target at most 1.3x), by the clock
  and in CPU time (user and system: the steadier reading on a shared
  machine, where a process also waits for a core);
- the PNG export of the same cards at 300 dpi (the render with `--png` less
  the render without) against a bare Pillow script that draws the same cards
  and writes them with Pillow's defaults (target at most 1.5x), and against
  the same script saving at zlib level 1, as protopress does
  (benchmarks/bare/pillow_cards.py);
- peak resident memory of the PNG export at N and 5N cards (target: flat, at
  most 150 MiB at 1,000 cards);
- sheets of the same cards with rich text (icons, bold) against plain text
  (target at most 1.3x).

Run: .venv/bin/python benchmarks/faces.py [--cards 200] [--repeats 9] [--png-only]
     [--before REF | --baseline DIR]

--before REF also measures the PNG export and the PDF sheets of the code at
git revision REF (exported with git archive) in the same run, against the same
baselines; --baseline DIR those of the protopress in DIR (a checkout, as
benchmarks/run.py --baseline passes it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from figures import BARE, Figure, add_json_option, write_json
from render_sheets import bare_spec, catalog_file

HERE = Path(__file__).parent
CHECKOUT = str(HERE.parent)  # where protopress is imported from
RICH_BODY = (
    "Discard a card. Reveal :circle: five cards and <b>keep</b> those that share no :star: with it."
)


@dataclass(frozen=True)
class Run:
    """One process: its seconds by the clock, start-up included, the CPU seconds it used
    (user and system), and its peak resident MiB."""

    seconds: float
    cpu_seconds: float
    max_rss_mib: float


def run_process(command: list[str], env: dict[str, str]) -> Run:
    """Run command to its end, in a folder of no code (`python -m` puts the current
    folder first on the path, before PYTHONPATH); fail loudly if it fails."""
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryDirectory() as elsewhere:
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=elsewhere, stdout=subprocess.DEVNULL,
                                   stderr=errors)  # fmt: skip
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace")[-2000:]
            raise SystemExit(f"{' '.join(command)} failed:\n{message}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


@contextlib.contextmanager
def environments(
    sources: dict[str, str],
) -> Iterator[tuple[dict[str, str], dict[str, dict[str, str]]]]:
    """The bare scripts' environment and each source's, sharing a temporary pycache prefix
    so that bytecode is compiled once and then read, as an installed package's is."""
    with tempfile.TemporaryDirectory() as cache:
        base = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPYCACHEPREFIX"] = cache
        ours = {name: {**base, "PYTHONPATH": source} for name, source in sources.items()}
        yield base, ours


class Deck:
    """A folder with the benchmark's catalog of N cards, its layout and the bare scripts' spec."""

    def __init__(self, folder: Path, cards: int, rich: bool = False) -> None:
        self.folder, self.cards = folder, cards
        self.catalog = catalog_file(folder, cards)
        if rich:
            document = json.loads(self.catalog.read_text())
            for card in document["cards"]:
                card["body"] = RICH_BODY
            self.catalog.write_text(json.dumps(document))
        self.spec = bare_spec(folder / "spec.json")

    def render(self, *options: str) -> list[str]:
        """protopress render of the catalog as sheets, as a user types it."""
        return [sys.executable, "-m", "protopress", "render", str(self.catalog), "--layouts",
                str(self.folder / "layouts"), "--layout", "sheets", "-o",
                str(self.folder / "out"), *options]  # fmt: skip

    def bare(self, script: str, *options: str) -> list[str]:
        return [sys.executable, str(BARE / script), str(self.folder), str(self.spec), "--cards",
                str(self.cards), *options]  # fmt: skip


def alternating(
    commands: dict[str, tuple[list[str], dict[str, str]]], repeats: int
) -> dict[str, list[Run]]:
    """Each command run repeats times, in turns, after one untimed run each."""
    for command, env in commands.values():
        run_process(command, env)
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, (command, env) in commands.items():
            runs[name].append(run_process(command, env))
    return runs


def median(runs: list[Run]) -> float:
    return statistics.median(run.seconds for run in runs)


def median_cpu(runs: list[Run]) -> float:
    return statistics.median(run.cpu_seconds for run in runs)


def peak(runs: list[Run]) -> float:
    return max(run.max_rss_mib for run in runs)


@contextlib.contextmanager
def exported(revision: str) -> Iterator[str]:
    """A folder holding protopress as it was at a git revision."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "-C", CHECKOUT, "archive", revision, "protopress"],
                                 check=True, capture_output=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        yield folder


def png_figures(deck: Deck, larger: Deck, bare_env: dict[str, str],
                ours: dict[str, dict[str, str]], repeats: int) -> list[Figure]:  # fmt: skip
    commands = {
        "pillow": (deck.bare("pillow_cards.py"), bare_env),
        "pillow level 1": (deck.bare("pillow_cards.py", "--compress-level", "1"), bare_env),
    }
    for name, env in ours.items():
        commands[f"{name} sheets"] = (deck.render(), env)
        commands[f"{name} png"] = (deck.render("--png"), env)
    runs = alternating(commands, repeats)
    pillow, level_1 = median(runs["pillow"]), median(runs["pillow level 1"])
    pillow_memory = peak(runs["pillow"])
    figures = []
    for name, env in ours.items():
        export = median(runs[f"{name} png"]) - median(runs[f"{name} sheets"])
        memory = peak(runs[f"{name} png"])
        memory_more = run_process(larger.render("--png"), env).max_rss_mib
        label = "" if name == "now" else f"before ({name}): "
        cards = deck.cards
        figures += [
            Figure(f"{label}PNG export of {cards} cards at 300 dpi", export, "s", pillow,
                   "bare Pillow, whole process"),
            Figure(f"{label}PNG export of {cards} cards, against zlib level 1", export, "s",
                   level_1, "bare Pillow saving at zlib level 1, whole process"),
            Figure(f"{label}PNG export peak memory, {cards} cards", memory, "MiB", pillow_memory,
                   "bare Pillow"),
            Figure(f"{label}PNG export peak memory, {larger.cards} cards", memory_more, "MiB",
                   pillow_memory, f"bare Pillow, {cards} cards"),
        ]  # fmt: skip
        print(f"{label}PNG export of {cards} cards at 300 dpi: {export:.2f} s, bare Pillow "
              f"{pillow:.2f} s ({export / pillow:.2f}x; {export / level_1:.2f}x the bare "
              f"script saving at zlib level 1 as we do, {level_1:.2f} s); peak {memory:.0f} MiB "
              f"at {cards} cards, {memory_more:.0f} MiB at {larger.cards} (Pillow "
              f"{pillow_memory:.0f} MiB)")  # fmt: skip
    return figures


def sheets_figures(deck: Deck, rich: Deck, bare_env: dict[str, str],
                   ours: dict[str, dict[str, str]], repeats: int) -> list[Figure]:  # fmt: skip
    commands = {"reportlab": (deck.bare("reportlab_sheets.py"), bare_env)}
    for name, env in ours.items():
        commands[f"{name} sheets"] = (deck.render(), env)
    commands["rich"] = (rich.render(), ours["now"])
    runs = alternating(commands, repeats)
    reportlab, rich_text = median(runs["reportlab"]), median(runs["rich"])
    reportlab_cpu = median_cpu(runs["reportlab"])
    figures = []
    for name in ours:
        sheets, cpu = median(runs[f"{name} sheets"]), median_cpu(runs[f"{name} sheets"])
        label = "" if name == "now" else f"before ({name}): "
        print(f"{label}PDF sheets of {deck.cards} cards, whole process: {sheets:.2f} s, bare "
              f"reportlab {reportlab:.2f} s ({sheets / reportlab:.2f}x); CPU {cpu:.2f} s, bare "
              f"{reportlab_cpu:.2f} s ({cpu / reportlab_cpu:.2f}x); medians of {repeats}")  # fmt: skip
        figures += [
            Figure(f"{label}PDF sheets of {deck.cards} cards, whole process", sheets, "s",
                   reportlab, "bare reportlab, whole process"),
            Figure(f"{label}PDF sheets of {deck.cards} cards, CPU time", cpu, "s",
                   reportlab_cpu, "bare reportlab, CPU time"),
        ]  # fmt: skip
    sheets = median(runs["now sheets"])
    print(f"rich text sheets: {rich_text:.2f} s, plain {sheets:.2f} s ({rich_text / sheets:.2f}x)")
    figures.append(Figure(f"rich text sheets of {deck.cards} cards", rich_text, "s", sheets,
                          "plain text sheets"))  # fmt: skip
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=9, help="timed runs of each side")
    parser.add_argument("--png-only", action="store_true", help="only the PNG export figures")
    parser.add_argument("--before", metavar="REF", help="also measure the code at git revision REF")
    parser.add_argument("--baseline", metavar="DIR", type=Path,
                        help="also measure the protopress of the checkout DIR")  # fmt: skip
    add_json_option(parser)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        sources = {"now": CHECKOUT}
        if args.before:
            sources[args.before] = stack.enter_context(exported(args.before))
        if args.baseline:
            sources[str(args.baseline)] = str(args.baseline.resolve())
        bare_env, ours = stack.enter_context(environments(sources))
        decks = {}
        for name, cards, rich in (("plain", args.cards, False), ("larger", 5 * args.cards, False),
                                  ("rich", args.cards, True)):  # fmt: skip
            (folder / name).mkdir()
            decks[name] = Deck(folder / name, cards, rich)
        figures = png_figures(decks["plain"], decks["larger"], bare_env, ours, args.repeats)
        if not args.png_only:
            figures += sheets_figures(decks["plain"], decks["rich"], bare_env, ours,
                                      args.repeats)  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
