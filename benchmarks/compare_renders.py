"""Pixel-for-pixel comparison of two renders of every built-in game.

Used when a layout is rewritten (say with extends, fragments or repeat) to
show that the output did not change: render before and after, rasterise every
PDF page, then compare every page and every PNG.

    protopress render --all -o /tmp/before --layout both --png --dpi 150
    python benchmarks/compare_renders.py rasterise /tmp/before
    ... change the layouts, render again to /tmp/after, rasterise it ...
    python benchmarks/compare_renders.py compare /tmp/before /tmp/after

Rasterising writes <name>.pdf.pages/page-N.png next to each PDF (pdftoppm,
72 dpi by default). Comparing reports the images compared and those that
differ (missing on either side counts as a difference); exit status 1 when any
differ.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops


def rasterise(root: Path, dpi: int) -> int:
    """Every PDF page under root as a PNG; the number of PDFs rasterised."""
    pdfs = sorted(root.rglob("*.pdf"))
    for pdf in pdfs:
        pages = pdf.with_name(pdf.name + ".pages")
        pages.mkdir(exist_ok=True)
        subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(pages / "page")], check=True
        )
    return len(pdfs)


def images(root: Path) -> set[Path]:
    return {path.relative_to(root) for path in root.rglob("*.png")}


def same(first: Path, second: Path) -> bool:
    """Equal size, mode and every pixel."""
    with Image.open(first) as a, Image.open(second) as b:
        if a.size != b.size or a.mode != b.mode:
            return False
        return ImageChops.difference(a.convert("RGBA"), b.convert("RGBA")).getbbox() is None


def compare(before: Path, after: Path) -> tuple[int, list[str]]:
    """How many images were compared, and what differs."""
    old, new = images(before), images(after)
    differences = [f"only before: {path}" for path in sorted(old - new)]
    differences += [f"only after: {path}" for path in sorted(new - old)]
    shared = sorted(old & new)
    differences += [f"differs: {path}" for path in shared if not same(before / path, after / path)]
    return len(shared), differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    raster = commands.add_parser("rasterise", help="PNG pages of every PDF under a folder")
    raster.add_argument("root", type=Path)
    raster.add_argument("--dpi", type=int, default=72)
    both = commands.add_parser("compare", help="compare every PNG under two folders")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    arguments = parser.parse_args()
    if arguments.command == "rasterise":
        print(f"rasterised {rasterise(arguments.root, arguments.dpi)} PDFs")
        return 0
    compared, differences = compare(arguments.before, arguments.after)
    pages = sum(1 for path in images(arguments.before) if ".pdf.pages" in str(path))
    for line in differences:
        print(line)
    print(f"compared {compared} images ({pages} PDF pages), differences: {len(differences)}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
