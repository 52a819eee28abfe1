"""One renderer, measured: PNG export, memory, PDF start-up and rich text.

Each figure is a ratio against a baseline measured in the same run, each run
in a fresh process (so start-up and peak memory are the process's own):

- PNG export of N poker cards at 300 dpi (PNGs rasterised from each face's
  PDF) against a bare Pillow script that draws the same cards and writes them
  with Pillow's defaults (target at most 1.5x), and against the same script
  saving at zlib level 1, as protopress does;
- peak resident memory of that export at N and 5N cards (target: flat, at most
  150 MiB at 1,000 cards);
- the whole process writing N cards as A4 sheets against a bare reportlab
  script embedding the same TrueType font (target at most 1.3x);
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
from pathlib import Path

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

BARE_PILLOW = """
from pathlib import Path
from PIL import Image, ImageDraw, ImageFont
import reportlab
from reportlab.lib.utils import simpleSplit
from render_sheets import BODY, RULE, SHAPES
from protopress.generators.shapes import outline, scaled
vera = Path(reportlab.__file__).parent / "fonts"
folder = Path({folder!r})
(folder / "png").mkdir()
dpi, mm = 300, 300 / 25.4
width, height = round(69 * mm), round(94 * mm)
px = lambda pt: round(pt * dpi / 72)
bold = ImageFont.truetype(str(vera / "VeraBd.ttf"), px(12))
fonts = {{9: ImageFont.truetype(str(vera / "Vera.ttf"), px(9)),
         8: ImageFont.truetype(str(vera / "Vera.ttf"), px(8))}}
icons = [scaled(outline(s), 0, 0, 10 * mm) for s in SHAPES]
for n in range({cards}):
    image = Image.new("RGB", (width, height), (243, 236, 220))
    draw = ImageDraw.Draw(image)
    draw.text((8 * mm, 8 * mm), f"Card {{n}}", font=bold, fill="black")
    for text, size, top in ((BODY, 9, 37), (RULE, 8, 63)):
        for index, line in enumerate(simpleSplit(text, "Helvetica", size, 53 * 72 / 25.4)):
            draw.text((8 * mm, top * mm + index * px(size * 1.2)), line, font=fonts[size], fill="black")
    for number, contours in enumerate(icons):
        for contour in contours:
            draw.polygon([((11 + number * 13) * mm + x, 21 * mm + y) for x, y in contour],
                         fill=(136, 68, 34))
    image.save(folder / "png" / f"c{{n}}-front.png", dpi=(dpi, dpi){save_options})
"""

BARE_REPORTLAB = """
from pathlib import Path
from render_sheets import bare_run
bare_run(Path({folder!r}), {cards})
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


def _process_start() -> float:
    """Interpreter start-up, which the timed body does not see."""
    import time

    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def best(body: str, cards: int, repeats: int, **values) -> tuple[float, float]:
    runs = [run(body, cards, **values) for _ in range(repeats)]
    return min(t for t, _ in runs), max(m for _, m in runs)


def protopress(cards: int, repeats: int, png: bool, rich: bool = False) -> tuple[float, float]:
    return best(PROTOPRESS, cards, repeats, png=png, rich=rich, rich_body=RICH_BODY)


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
    args = parser.parse_args()
    cards, repeats = args.cards, args.repeats

    # the baseline and each revision take turns, so a change in the machine's
    # load during the run falls on all of them alike; the best of each is kept
    sources = {"now": SOURCE[0]}
    with contextlib.ExitStack() as stack:
        if args.before:
            sources[args.before] = stack.enter_context(exported(args.before))
        names = ["pillow", "pillow level 1", *sources]
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        for _ in range(repeats):
            runs["pillow"].append(run(BARE_PILLOW, cards, save_options=""))
            runs["pillow level 1"].append(
                run(BARE_PILLOW, cards, save_options=", compress_level=1")
            )
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
            print(f"{label}PNG export of {cards} cards at 300 dpi: {png_time:.2f} s, bare Pillow "
                  f"{pillow:.2f} s ({png_time / pillow:.2f}x); peak {memory:.0f} MiB at {cards} "
                  f"cards, {memory_more:.0f} MiB at {5 * cards} (Pillow {pillow_memory:.0f} MiB); "
                  f"{png_time / level_1:.2f}x the bare script saving at zlib level 1 as we do "
                  f"({level_1:.2f} s)")  # fmt: skip
    if args.png_only:
        return
    sheets, _ = protopress(cards, repeats, png=False)

    bare, _ = best(BARE_REPORTLAB, cards, repeats)
    print(f"PDF sheets of {cards} cards, whole process: {sheets:.2f} s, bare reportlab "
          f"{bare:.2f} s ({sheets / bare:.2f}x)")  # fmt: skip

    rich, _ = protopress(cards, repeats, png=False, rich=True)
    print(f"rich text sheets: {rich:.2f} s, plain {sheets:.2f} s ({rich / sheets:.2f}x)")


if __name__ == "__main__":
    main()
