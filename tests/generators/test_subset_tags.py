"""Font subsets carry tags that tell them apart (not AAAAAA+ for every font),
derived from the font and the subset so the same inputs give the same bytes."""

import io
import re

from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from protopress.components import builtin_catalog_path, load_catalog
from protopress.generators.fonts import font
from protopress.generators.render import RenderOptions, render_catalog
from protopress.generators.subset_tags import subset_tag


def base_fonts(source) -> list[str]:
    """Every font's BaseFont in a PDF, forms included (with repeats)."""
    names: list[str] = []

    def walk(resources) -> None:
        if not resources:
            return
        for ref in (resources.get("/Font") or {}).values():
            names.append(str(ref.get_object()["/BaseFont"]).lstrip("/"))
        for ref in (resources.get("/XObject") or {}).values():
            walk(ref.get_object().get("/Resources"))

    for page in PdfReader(source).pages:
        walk(page.get("/Resources"))
    return names


def many_glyphs_pdf() -> bytes:
    """One font with over 256 distinct characters (two subsets), and a second font."""
    buffer = io.BytesIO()
    sans, bold = font("sans"), font("sans-bold")
    canvas = Canvas(buffer, invariant=1, initialFontName=sans.name)
    mapped = pdfmetrics.getFont(sans.name).face.charToGlyph
    characters = [chr(c) for c in sorted(mapped) if 0x20 <= c < 0xFFFF]
    assert len(characters) > 256
    canvas.setFont(sans.name, 6)
    for row in range(0, len(characters), 60):
        canvas.drawString(20, 800 - row / 6, "".join(characters[row : row + 60]))
    canvas.setFont(bold.name, 10)
    canvas.drawString(20, 100, "Bold")
    canvas.save()
    return buffer.getvalue()


def test_subsets_in_one_file_have_distinct_tags():
    data = many_glyphs_pdf()
    names = set(base_fonts(io.BytesIO(data)))
    tags = [name.split("+")[0] for name in names]
    assert len(names) == 3  # two subsets of Vera, one of Vera Bold
    assert all(re.fullmatch(r"[A-Z]{6}", tag) for tag in tags)
    assert len(set(tags)) == len(tags)
    assert "AAAAAA" not in tags and "AAAAAB" not in tags
    assert many_glyphs_pdf() == data  # deterministic: same inputs, same bytes


def test_every_built_in_sheet_names_each_font_subset_once(tmp_path):
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    result = render_catalog(catalog, RenderOptions(output_dir=tmp_path, layout="both"))
    for path in (path for path in result.files if path.suffix == ".pdf"):
        names = set(base_fonts(path))
        tags = [name.split("+")[0] for name in names]
        assert names and len(set(tags)) == len(tags), (path.name, names)
        assert "AAAAAA" not in tags, path.name
        fonts_of = {name.split("+")[1] for name in names}
        assert len(fonts_of) == len(names), (path.name, names)  # one subset per font here


def test_the_tag_depends_on_font_file_and_characters():
    base = subset_tag("Vera", "digest", 0, [65, 66])
    assert base == subset_tag("Vera", "digest", 0, [65, 66])
    others = {
        subset_tag("VeraBd", "digest", 0, [65, 66]),
        subset_tag("Vera", "other", 0, [65, 66]),
        subset_tag("Vera", "digest", 1, [65, 66]),
        subset_tag("Vera", "digest", 0, [65, 67]),
    }
    assert base not in others and len(others) == 4
