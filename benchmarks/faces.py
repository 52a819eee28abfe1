"""One renderer, measured: PNG export, memory, PDF start-up and rich text.

Each figure is a ratio against a baseline measured in the same run, each run
in a fresh process (so start-up and peak memory are the process's own); the
bare baselines import nothing of protopress (their data, the texts and icon
outlines, comes as a JSON file):

- PNG export of N poker cards at 300 dpi (PNGs rasterised from each face's
  PDF) against a bare Pillow script that draws the same cards and writes them
  with Pillow's defaults (target at most 1.5x), and against the same script
  saving at zlib level 1, as protopress does (benchmarks/bare/pillow_cards.py);
- peak resident memory of that export at N and 5N cards (target: flat, at most
  150 MiB at 1,000 cards);
- the whole process writing N cards as A4 sheets against a bare reportlab
  script embedding the same TrueType font (benchmarks/bare/reportlab_sheets.py;
  target at most 1.3x);
- sheets of the same cards with rich text (icons, bold) against plain text
  (target at most 1.3x).

Run: .venv/bin/python benchmarks/faces.py [--cards 200] [--png-only] [--before REF]

--before REF also measures the PNG export of the code at git revision REF
(exported with git archive) in the same run, against the same baseline.
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

from figures import Figure, add_json_option, run_bare, write_json
from render_sheets import bare_spec

HERE = Path(__file__).parent
SOURCE = [str(HERE.parent)]  # where protopress is imported from
RICH_BODY = (
    "Discard a card. Reveal :circle: five cards and <b>keep</b> those that share no :star: with it."
)

SETUP = textwrap.dedent(
    """
    import sys, time, resource
    sys.path.insert(0, {here!r})
    sys.path.insert(0, {source!r})
    start = time.perf_counter()
    """
)
REPORT = textwrap.dedent(
    """
    elapsed = time.perf_counter() - start
    print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    """
)

PROTOPRESS = """
from pathlib import Path
from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, render_catalog
from render_sheets import catalog_file
folder = Path({folder!r})
catalog = load_catalog(catalog_file(folder, {cards}))
if {rich}:
    import json
    document = json.loads((folder / "bench.json").read_text())
    for card in document["cards"]:
        card["body"] = {rich_body!r}
    (folder / "bench.json").write_text(json.dumps(document))
    catalog = load_catalog(folder / "bench.json")
options = RenderOptions(output_dir=folder / "out", layouts_dir=folder / "layouts", png={png},
                        layout="sheets")
render_catalog(catalog, options)
"""


def run(body: str, cards: int, **values) -> tuple[float, float]:
    """Seconds and peak MiB of one fresh process running body."""
    with tempfile.TemporaryDirectory() as folder:
        code = SETUP.format(here=str(HERE), source=SOURCE[0])
        code += body.format(folder=folder, cards=cards, **values)
        code += REPORT
        before = _process_start()
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout.split()  # fmt: skip
        return float(out[0]) + before, float(out[1])


def bare(script: str, cards: int, *options: str) -> tuple[float, float]:
    """Seconds and peak MiB of one fresh process running a baseline script of
    benchmarks/bare/ (which imports nothing of protopress)."""
    with tempfile.TemporaryDirectory() as folder:
        spec = bare_spec(Path(folder) / "spec.json")
        before = _process_start()
        found = run_bare(script, folder, str(spec), "--cards", str(cards), *options)
        return found["seconds"] + before, found["max_rss_mib"]


def _process_start() -> float:
    """Interpreter start-up, which the timed body does not see."""
    import time

    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def best(measure: Callable[[], tuple[float, float]], repeats: int) -> tuple[float, float]:
    runs = [measure() for _ in range(repeats)]
    return min(t for t, _ in runs), max(m for _, m in runs)


def protopress(cards: int, repeats: int, png: bool, rich: bool = False) -> tuple[float, float]:
    return best(lambda: run(PROTOPRESS, cards, png=png, rich=rich, rich_body=RICH_BODY), repeats)


@contextlib.contextmanager
def exported(revision: str):
    """A folder holding protopress as it was at a git revision."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", revision, "protopress"],
                                 check=True, capture_output=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        yield folder


@contextlib.contextmanager
def imported_from(folder: str):
    """Runs import protopress from folder meanwhile."""
    SOURCE[0], before = folder, SOURCE[0]
    try:
        yield
    finally:
        SOURCE[0] = before


def png_export(cards: int, repeats: int) -> tuple[float, float]:
    """Seconds of the PNG export alone (with PNGs less without) and peak MiB."""
    sheets, _ = protopress(cards, repeats, png=False)
    with_png, memory = protopress(cards, repeats, png=True)
    return with_png - sheets, memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--png-only", action="store_true", help="only the PNG export figures")
    parser.add_argument("--before", metavar="REF", help="also measure the PNG export at REF")
    add_json_option(parser)
    args = parser.parse_args()
    cards, repeats = args.cards, args.repeats
    figures: list[Figure] = []

    # the baseline and each revision take turns, so a change in the machine's
    # load during the run falls on all of them alike; the best of each is kept
    sources = {"now": SOURCE[0]}
    with contextlib.ExitStack() as stack:
        if args.before:
            sources[args.before] = stack.enter_context(exported(args.before))
        names = ["pillow", "pillow level 1", *sources]
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        for _ in range(repeats):
            runs["pillow"].append(bare("pillow_cards.py", cards))
            runs["pillow level 1"].append(bare("pillow_cards.py", cards, "--compress-level", "1"))
            for name, source in sources.items():
                with imported_from(source):
                    runs[name].append(png_export(cards, 1))
        pillow, pillow_memory = min(t for t, _ in runs["pillow"]), max(m for _, m in runs["pillow"])
        level_1 = min(t for t, _ in runs["pillow level 1"])
        for name, source in reversed(sources.items()):
            png_time, memory = min(t for t, _ in runs[name]), max(m for _, m in runs[name])
            with imported_from(source):
                _, memory_more = protopress(5 * cards, 1, png=True)
            label = "" if name == "now" else f"before ({name}): "
            figures += [
                Figure(f"{label}PNG export of {cards} cards at 300 dpi", png_time, "s", pillow,
                       "bare Pillow"),
                Figure(f"{label}PNG export of {cards} cards, against zlib level 1", png_time, "s",
                       level_1, "bare Pillow saving at zlib level 1"),
                Figure(f"{label}PNG export peak memory, {cards} cards", memory, "MiB",
                       pillow_memory, "bare Pillow"),
                Figure(f"{label}PNG export peak memory, {5 * cards} cards", memory_more, "MiB",
                       pillow_memory, f"bare Pillow, {cards} cards"),
            ]  # fmt: skip
            print(f"{label}PNG export of {cards} cards at 300 dpi: {png_time:.2f} s, bare Pillow "
                  f"{pillow:.2f} s ({png_time / pillow:.2f}x); peak {memory:.0f} MiB at {cards} "
                  f"cards, {memory_more:.0f} MiB at {5 * cards} (Pillow {pillow_memory:.0f} MiB); "
                  f"{png_time / level_1:.2f}x the bare script saving at zlib level 1 as we do "
                  f"({level_1:.2f} s)")  # fmt: skip
    if args.png_only:
        write_json(args.json, figures)
        return
    sheets, _ = protopress(cards, repeats, png=False)

    reportlab, _ = best(lambda: bare("reportlab_sheets.py", cards), repeats)
    print(f"PDF sheets of {cards} cards, whole process: {sheets:.2f} s, bare reportlab "
          f"{reportlab:.2f} s ({sheets / reportlab:.2f}x)")  # fmt: skip

    rich, _ = protopress(cards, repeats, png=False, rich=True)
    print(f"rich text sheets: {rich:.2f} s, plain {sheets:.2f} s ({rich / sheets:.2f}x)")
    figures += [
        Figure(f"PDF sheets of {cards} cards, whole process", sheets, "s", reportlab,
               "bare reportlab, whole process"),
        Figure(f"rich text sheets of {cards} cards", rich, "s", sheets, "plain text sheets"),
    ]  # fmt: skip
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
