"""What the print files do not contain: the catalog's physical parts (gems,
pawns, dice, standees...) as parts.csv, and a README.txt for the output folder
that says which files are which and what to buy or borrow."""

from __future__ import annotations

import csv
import io
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from protopress.atomic import write_atomic

SHEETS_NAME = "{kind}-sheets.pdf"  # print-and-play sheets
PER_CARD_NAME = "{kind}-print-shop.pdf"  # one component per page, for print shops
BOX_NAME = "{id}-tuck-box.pdf"  # a tuck box's die-line

PARTS_FILE = "parts.csv"
README_FILE = "README.txt"
PARTS_COLUMNS = ("id", "name", "count", "note", "substitute")


@dataclass(frozen=True)
class Part:
    id: str
    name: str
    count: int
    note: str = ""
    substitute: str = ""


def parts_of(catalog) -> tuple[Part, ...]:
    """The catalog's parts, in catalog order (none when it lists none)."""
    return tuple(
        Part(
            id=item["id"],
            name=item["name"],
            count=item["count"],
            note=item.get("note", ""),
            substitute=item.get("substitute", ""),
        )
        for item in catalog.document.get("parts", ())
    )


def parts_csv(parts: Iterable[Part]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(PARTS_COLUMNS)
    for part in parts:
        writer.writerow((part.id, part.name, part.count, part.note, part.substitute))
    return buffer.getvalue().encode("utf-8")


def manifest_rows(parts: Iterable[Part]) -> list[tuple[str, ...]]:
    """Rows for a service's manifest.csv (kind, id, title, count, front, back):
    parts have no faces, so front and back say they are not printed."""
    return [("part", p.id, p.name, str(p.count), "not printed", "") for p in parts]


def shopping_lines(parts: Sequence[Part]) -> list[str]:
    """One line per part: count, name, what it is for and what can stand in."""
    lines = []
    for part in parts:
        line = f"{part.count:>5}  {part.name}"
        if part.note:
            line += f": {part.note}"
        if part.substitute:
            line += f" (or: {part.substitute})"
        lines.append(line)
    return lines


def not_printed_sentence(game: str, kinds: Sequence[str]) -> str:
    """Why some kinds have no print file of their own, in plain words."""
    names = ", ".join(kinds)
    if len(kinds) == 1:
        return (
            f"{game}: {names} is not printed on its own: it is a definition that other "
            "components show (as icons, colours or rules)."
        )
    return (
        f"{game}: {names} are not printed on their own: they are definitions that other "
        "components show (as icons, colours or rules)."
    )


def parts_sentence(game: str, parts: Sequence[Part]) -> str:
    """The parts to buy or borrow, in one line for the end of a render."""
    listed = ", ".join(f"{part.count} {part.name.lower()}" for part in parts)
    return f"{game}: not in the print files, to buy or borrow: {listed} (see {PARTS_FILE})"


def readme_text(
    catalog, files: Sequence[Path], skipped: Sequence[str], settings: str = "", tiled=()
) -> str:
    """The output folder's README.txt: the two kinds of print file (and the kinds
    tiled across pages), the files here (made with settings, a line), and the
    parts to buy or borrow."""
    parts = parts_of(catalog)
    sheets = SHEETS_NAME.format(kind="<kind>")
    shop = PER_CARD_NAME.format(kind="<kind>")
    width = max(len(sheets), len(shop)) + 2
    lines = [
        f"{catalog.title} {catalog.version}: print files made by protopress",
        "",
        "Two kinds of PDF, one of each per component kind:",
        "",
        f"  {sheets:<{width}}print and play at home: several components per A4 or",
        f'  {"":<{width}}letter page. Print at 100% scale ("actual size"), both',
        f"  {'':<{width}}sides, flipping on the long edge: each front page is",
        f"  {'':<{width}}followed by its backs. Check the 50 mm ruler with a",
        f"  {'':<{width}}real ruler, then cut on the crop marks.",
        f"  {shop:<{width}}for a print shop: one component per page at its trim",
        f"  {'':<{width}}size plus bleed, fronts and backs alternating, with",
        f"  {'':<{width}}TrimBox and BleedBox set.",
        "",
    ]
    pdfs = sorted(path.name for path in files if path.suffix == ".pdf")
    box = BOX_NAME.format(id="<id>")
    if any(name.endswith(box.removeprefix("<id>")) for name in pdfs):
        lines += [
            f"  {box:<{width}}a tuck box for a deck, on one page: cut the solid",
            f"  {'':<{width}}lines, fold the dashed ones, glue the flap marked GLUE.",
            "",
        ]
    for kind in tiled:
        lines += [
            f"{SHEETS_NAME.format(kind=kind)}: larger than the paper, tiled across pages:",
            "a page map first (how to put the pages together), then one page per tile",
            "(A1, B1, ...), neighbours overlapping, with crosses to line them up.",
            "",
        ]
    if pdfs:
        made = f" ({settings})" if settings else ""
        lines += [f"Files here{made}:", "", *(f"  {name}" for name in pdfs), ""]
    if parts:
        lines += [
            "Not in these files: buy or borrow (also in parts.csv):",
            "",
            *(
                wrapped
                for line in shopping_lines(parts)
                for wrapped in textwrap.wrap(
                    line, 78, initial_indent="  ", subsequent_indent=" " * 9
                )  # fmt: skip
            ),
            "",
        ]
    else:
        lines += ["Everything the game needs is in these files (the catalog lists no parts).", ""]
    if skipped:
        lines += [
            "Not printed on their own: " + ", ".join(skipped) + " (definitions that the",
            "components above show as icons, colours or rules).",
            "",
        ]
    return "\n".join(lines)


def write_parts_and_readme(
    catalog,
    output_dir: Path,
    files: Sequence[Path],
    skipped: Sequence[str],
    settings: str = "",
    tiled: Sequence[str] = (),
) -> list[Path]:
    """parts.csv (when the catalog lists parts) and README.txt, beside the files."""
    written = []
    parts = parts_of(catalog)
    if parts:
        path = output_dir / PARTS_FILE
        write_atomic(path, parts_csv(parts))
        written.append(path)
    path = output_dir / README_FILE
    text = readme_text(catalog, files, skipped, settings, tiled)
    write_atomic(path, text.encode("utf-8"))
    written.append(path)
    return written
