"""`render --only ID...`: only those components are drawn, of whatever kind; an
unknown id is a usage error with did-you-mean, before anything is written."""

from pathlib import Path

from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from protopress.cli import cli
from protopress.generators.render import CONTACT_WIDTH

MINI = Path(__file__).parents[1] / "data" / "mini-game"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_only_one_card(tmp_path):
    result = invoke(
        "render", MINI / "catalog.json", "--layouts", MINI / "layouts", "-o", tmp_path,
        "--only", "dusk", "--png", "--dpi", "72",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    # dusk has 2 copies with a back: one sheet of fronts and one of backs (nine to a
    # sheet), and 2 x 2 per-card pages; of the PNGs, dusk's two faces alone
    assert len(PdfReader(tmp_path / "card-sheets.pdf").pages) == 2
    assert len(PdfReader(tmp_path / "card-print-shop.pdf").pages) == 4
    assert sorted(p.name for p in (tmp_path / "png" / "card").iterdir()) == [
        "dusk-back.png",
        "dusk-front.png",
    ]
    with Image.open(tmp_path / "png" / "card-contact.png") as contact:
        assert contact.width == CONTACT_WIDTH + 2 * 8  # one face, a gap of 8 px each side
    assert not (tmp_path / "README.txt").exists()


def test_only_ids_of_two_kinds_draw_those_kinds_alone(tmp_path):
    result = invoke(
        "render", "gem-rush", "-o", tmp_path, "--layout", "per-card",
        "--only", "point-gem-3,first-player",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "first-player-marker-print-shop.pdf",
        "point-gem-print-shop.pdf",
    ]
    # point-gem-3: 19 copies, the marker 1; neither layout has a back: a page a copy
    assert len(PdfReader(tmp_path / "point-gem-print-shop.pdf").pages) == 19
    assert len(PdfReader(tmp_path / "first-player-marker-print-shop.pdf").pages) == 1


def test_an_unknown_id_is_a_usage_error_with_did_you_mean(tmp_path):
    result = invoke(
        "render", MINI / "catalog.json", "--layouts", MINI / "layouts", "-o", tmp_path,
        "--only", "dsuk", "--only", "eclipse,zzz",
    )  # fmt: skip
    assert result.exit_code == 2
    assert (
        "--only: mini-game has no component 'dsuk' (did you mean 'dusk'?) "
        "and no component 'zzz'" in result.output
    )
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_only_within_a_kind_and_its_refusals(tmp_path):
    outside = invoke(
        "render", "gem-rush", "-o", tmp_path, "--kind", "gem", "--only", "obsidian,first-player"
    )
    assert outside.exit_code == 2
    assert "has no component 'first-player' among its gem" in outside.output
    for extra in (["--tts"], ["--preset", "tgc"]):
        refused = invoke("render", "gem-rush", "-o", tmp_path, "--only", "obsidian", *extra)
        assert refused.exit_code == 2
        assert "--only draws sheets, per-card pages and PNGs" in refused.output
    empty = invoke("render", "gem-rush", "-o", tmp_path, "--only", "obsidian,")
    assert empty.exit_code == 2 and "an empty id" in empty.output
