"""Parts the print files do not contain: the catalog lists them, render writes
parts.csv and a README.txt that says what to buy or borrow, and a service's
manifest.csv lists them too."""

import csv
import json
from pathlib import Path

import pytest

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.generators.parts import not_printed_sentence, parts_of, parts_sentence
from protopress.generators.presets import render_preset
from protopress.generators.render import RenderOptions, render_catalog

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"
PAWNS = {"id": "pawns", "name": "Pawns", "count": 4, "note": "one per player",
         "substitute": "coins"}  # fmt: skip


@pytest.fixture
def mini_with_parts(tmp_path):
    document = json.loads((MINI_GAME / "catalog.json").read_text())
    document["parts"] = [PAWNS, {"id": "d6", "name": "Six-sided dice", "count": 2}]
    path = tmp_path / "src" / "catalog.json"
    path.parent.mkdir()
    path.write_text(json.dumps(document))
    return load_catalog(path)


def test_every_built_in_catalog_lists_its_parts():
    for game in BUILTIN_GAMES:
        assert parts_of(load_catalog(builtin_catalog_path(game))), game


def test_dragonstone_needs_200_gems_in_five_colours_and_gem_rush_7_standees():
    dragonstone = parts_of(load_catalog(builtin_catalog_path("dragonstone-mine")))
    gems = [part for part in dragonstone if part.id.endswith("-gems")]
    assert sum(part.count for part in gems) == 200 and len(gems) == 5
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    by_colour = {c.id: c.count for c in catalog.of_kind("gem-colour")}  # the bag, per colour
    assert {part.id.removesuffix("-gems"): part.count for part in gems} == by_colour
    gem_rush = {p.id: p.count for p in parts_of(load_catalog(builtin_catalog_path("gem-rush")))}
    assert gem_rush["dwarf-standees"] == 7


def test_render_writes_parts_csv_and_a_readme(tmp_path, mini_with_parts):
    out = tmp_path / "out"
    result = render_catalog(mini_with_parts, RenderOptions(output_dir=out, layout="both"))
    assert {out / "parts.csv", out / "README.txt"} <= set(result.files)
    rows = list(csv.DictReader((out / "parts.csv").open(encoding="utf-8")))
    assert rows == [
        {
            "id": "pawns",
            "name": "Pawns",
            "count": "4",
            "note": "one per player",
            "substitute": "coins",
        },
        {"id": "d6", "name": "Six-sided dice", "count": "2", "note": "", "substitute": ""},
    ]
    readme = (out / "README.txt").read_text(encoding="utf-8")
    assert "<kind>-sheets.pdf" in readme and "for a print shop" in readme
    assert "    4  Pawns: one per player (or: coins)" in readme
    assert "    2  Six-sided dice" in readme
    for path in result.files:
        if path.suffix == ".pdf":
            assert f"  {path.name}" in readme


def test_a_catalog_without_parts_gets_a_readme_and_no_parts_csv(tmp_path):
    catalog = load_catalog(MINI_GAME / "catalog.json")
    render_catalog(catalog, RenderOptions(output_dir=tmp_path, layout="sheets"))
    assert not (tmp_path / "parts.csv").exists()
    assert "the catalog lists no parts" in (tmp_path / "README.txt").read_text()


def test_a_service_manifest_lists_the_parts(tmp_path, mini_with_parts):
    layouts = tmp_path / "layouts"
    layouts.mkdir()
    layout = json.loads((MINI_GAME / "layouts" / "card.json").read_text())
    del layout["$schema"]
    layout["size"] = {"width": "2.5in", "height": "3.5in"}
    (layouts / "card.json").write_text(json.dumps(layout))
    options = RenderOptions(output_dir=tmp_path / "out", layouts_dir=layouts)
    result = render_preset(mini_with_parts, options, "tgc")
    rows = list(csv.DictReader((tmp_path / "out" / "tgc" / "manifest.csv").open()))
    assert [(r["kind"], r["id"], r["count"], r["front"]) for r in rows if r["kind"] == "part"] == [
        ("part", "pawns", "4", "not printed"),
        ("part", "d6", "2", "not printed"),
    ]
    assert tmp_path / "out" / "tgc" / "parts.csv" in result.files


def test_duplicate_part_ids_and_bad_counts_are_refused(problems):
    found = problems(
        """
        {"game": "g", "title": "G", "version": "1",
         "parts": [{"id": "pawn", "name": "Pawn", "count": 2},
                   {"id": "pawn", "name": "Pawn", "count": 0}]}
        """
    )
    assert any("duplicate part id 'pawn'" in line for line in found), found
    assert any("/parts/1/count" in line for line in found), found


def test_the_end_of_render_sentences_are_plain():
    assert not_printed_sentence("gem-rush", ["gem"]) == (
        "gem-rush: gem is not printed on its own: it is a definition that other components "
        "show (as icons, colours or rules)."
    )
    assert "are definitions" in not_printed_sentence("g", ["gem-colour", "scoring-table"])
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    assert parts_sentence("gem-rush", parts_of(catalog)) == (
        "gem-rush: not in the print files, to buy or borrow: 7 dwarf standees (see parts.csv)"
    )
