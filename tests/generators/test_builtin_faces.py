"""Every built-in component is drawn: PDF and PNG, preflight-clean, no text
overflow or safe-zone warnings, fronts and backs in pairs, and icons that
differ by shape within each game."""

from collections import Counter

import pytest
from pypdf import PdfReader

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog
from protopress.generators.layout import layouts_for
from protopress.generators.preflight import preflight
from protopress.generators.render import RenderOptions, render_catalog

ICON_KINDS = ("gem", "gem-colour", "symbol", "element")
NOT_DRAWN = {"gem", "gem-colour", "symbol", "element", "scoring-table"}  # definitions, not pieces


@pytest.fixture(scope="module", params=BUILTIN_GAMES)
def rendered(request, tmp_path_factory):
    game = request.param
    catalog = load_catalog(builtin_catalog_path(game))
    folder = tmp_path_factory.mktemp(game)
    options = RenderOptions(output_dir=folder, layout="both", png=True, dpi=72)
    result = render_catalog(catalog, options)
    return game, catalog, folder, result


def test_every_piece_has_a_layout_and_renders_without_warnings(rendered):
    game, catalog, folder, result = rendered
    assert result.warnings == []
    assert set(result.skipped) <= NOT_DRAWN, f"{game}: no layout for {result.skipped}"
    for kind in set(catalog.components) - NOT_DRAWN:
        assert (folder / f"{kind}-sheets.pdf").is_file(), kind
        for component in catalog.of_kind(kind):
            assert (folder / "png" / kind / f"{component.id}-front.png").is_file()


def test_every_file_passes_preflight(rendered):
    _, _, folder, _ = rendered
    for path in sorted(folder.glob("*.pdf")):
        report = preflight(path)
        assert report.ok, f"{path.name}:\n{report}"


def test_fronts_and_backs_pair_up(rendered):
    _, catalog, folder, _ = rendered
    layouts = layouts_for(catalog.components)
    for kind, layout in layouts.items():
        pages = len(PdfReader(folder / f"{kind}-sheets.pdf").pages)
        if layout.back is not None:
            assert pages % 2 == 0, kind  # each front page is followed by its back page
            for component in catalog.of_kind(kind):
                assert (folder / "png" / kind / f"{component.id}-back.png").is_file()


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_icons_differ_by_shape_within_each_game(game):
    catalog = load_catalog(builtin_catalog_path(game))
    for kind in ICON_KINDS:
        shapes = Counter(component["shape"] for component in catalog.of_kind(kind))
        assert [shape for shape, n in shapes.items() if n > 1] == [], f"{game} {kind}"
