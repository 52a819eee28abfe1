"""Assets stay inside their folders even through symbolic links: an image or font
link (or a linked folder) inside the catalog's folder that leads outside it (and,
for a font, outside its layout's folder) is refused unless --allow-outside-assets.
Links that stay inside are followed."""

import json
import os
from pathlib import Path

import pytest
import reportlab
from click.testing import CliRunner
from PIL import Image

from protopress.cli import cli

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
DECK = {
    "game": "link-deck",
    "title": "Link Deck",
    "version": "1",
    "cards": [{"id": "c1", "title": "One", "text": "x", "count": 1}],
}
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 10, "text": "{title}"}],
}


def _can_symlink(folder: Path) -> bool:
    try:
        (folder / "probe").symlink_to(folder)
    except (OSError, NotImplementedError):
        return False
    (folder / "probe").unlink()
    return True


@pytest.fixture
def place(tmp_path_factory):
    """A catalog folder (with layouts/) and a folder outside it holding art and a font."""
    root = tmp_path_factory.mktemp("game")
    outside = tmp_path_factory.mktemp("outside")
    if not _can_symlink(root):
        pytest.skip("symbolic links are not available here")
    (root / "deck.json").write_text(json.dumps(DECK))
    (root / "layouts").mkdir()
    Image.new("RGB", (40, 40), "red").save(outside / "art.png")
    Image.new("RGB", (40, 40), "blue").save(root / "inside.png")
    (outside / "Evil.ttf").write_bytes(VERA.read_bytes())
    (root / "layouts" / "Good.ttf").write_bytes(VERA.read_bytes())
    return root, outside


def render(root: Path, layout: dict, *options):
    (root / "layouts" / "card.json").write_text(json.dumps(layout))
    args = ["render", root / "deck.json", "--layouts", root / "layouts", "-o", root / "out"]
    return CliRunner().invoke(cli, [str(a) for a in [*args, *options]])


def with_image(path: str) -> dict:
    layout = json.loads(json.dumps(LAYOUT))
    layout["front"].append({"type": "image", "x": 0, "y": 0, "w": 10, "h": 10, "path": path})
    return layout


def with_font(file: str) -> dict:
    layout = json.loads(json.dumps(LAYOUT))
    layout["fonts"] = {"display": file}
    layout["front"][0]["font"] = "display"
    return layout


def test_an_image_link_leading_outside_the_catalog_folder_is_refused(place):
    root, outside = place
    (root / "art").mkdir()
    (root / "art" / "link.png").symlink_to(outside / "art.png")
    refused = render(root, with_image("art/link.png"))
    assert refused.exit_code == 1, refused.output
    assert "'art/link.png' lies outside the catalog folder" in refused.output
    assert "Traceback" not in refused.output
    assert not (root / "out").exists()  # nothing written, no empty folder left
    allowed = render(root, with_image("art/link.png"), "--allow-outside-assets")
    assert allowed.exit_code == 0, allowed.output


def test_a_linked_folder_leading_outside_the_catalog_folder_is_refused(place):
    root, outside = place
    (root / "art").symlink_to(outside, target_is_directory=True)
    refused = render(root, with_image("art/art.png"), "--png", "--dpi", "72")
    assert refused.exit_code == 1, refused.output
    assert "'art/art.png' lies outside the catalog folder" in refused.output


def test_a_link_chain_that_ends_outside_is_refused(place):
    root, outside = place
    (root / "hop").symlink_to(outside / "art.png")  # inside -> outside
    (root / "first.png").symlink_to(root / "hop")  # inside -> inside -> outside
    refused = render(root, with_image("first.png"))
    assert refused.exit_code == 1
    assert "lies outside the catalog folder" in refused.output


def test_an_image_link_that_stays_inside_is_followed(place):
    root, _ = place
    (root / "alias.png").symlink_to(root / "inside.png")
    result = render(root, with_image("alias.png"), "--png", "--dpi", "72")
    assert result.exit_code == 0, result.output
    with Image.open(root / "out" / "png" / "card" / "c1-front.png") as image:
        assert image.convert("RGB").getpixel((10, 10)) == (0, 0, 255)  # the blue image


def test_a_font_link_leading_outside_the_catalog_folder_is_refused(place):
    root, outside = place
    (root / "layouts" / "Evil.ttf").symlink_to(outside / "Evil.ttf")
    refused = render(root, with_font("Evil.ttf"))
    assert refused.exit_code == 1, refused.output
    assert "/fonts/display: font file " in refused.output
    assert "Evil.ttf' lies outside the catalog folder" in refused.output
    assert "Traceback" not in refused.output
    assert not (root / "out").exists()
    # like an image, it is used when outside assets are allowed
    allowed = render(root, with_font("Evil.ttf"), "--allow-outside-assets")
    assert allowed.exit_code == 0, allowed.output


def test_a_linked_font_folder_leading_outside_is_refused(place):
    root, outside = place
    (root / "layouts" / "fonts").symlink_to(outside, target_is_directory=True)
    refused = render(root, with_font("fonts/Evil.ttf"))
    assert refused.exit_code == 1
    assert "lies outside the catalog folder" in refused.output


@pytest.mark.parametrize("escape", ["RELATIVE", "ABSOLUTE"])
def test_font_paths_that_climb_out_are_refused(place, escape):
    root, outside = place
    file = str(outside / "Evil.ttf")
    if escape == "RELATIVE":
        file = os.path.relpath(file, root / "layouts")
    refused = render(root, with_font(file))
    assert refused.exit_code == 1
    assert "lies outside the catalog folder" in refused.output


def test_a_font_link_that_stays_inside_is_followed(place):
    root, _ = place
    (root / "layouts" / "Alias.ttf").symlink_to(root / "layouts" / "Good.ttf")
    result = render(root, with_font("Alias.ttf"))
    assert result.exit_code == 0, result.output
    assert (root / "out" / "card-sheets.pdf").is_file()


@pytest.mark.skipif(os.name != "posix", reason="POSIX symbolic links")
def test_an_output_file_that_is_a_link_is_replaced_not_written_through(place):
    """A render replaces a link at a target name with a new file: the file the
    link pointed to (outside the output folder) is never overwritten."""
    root, outside = place
    out = root / "out"
    out.mkdir()
    victim = outside / "victim.pdf"
    victim.write_bytes(b"not yours")
    (out / "card-sheets.pdf").symlink_to(victim)
    result = render(root, LAYOUT)
    assert result.exit_code == 0, result.output
    assert victim.read_bytes() == b"not yours"
    assert not (out / "card-sheets.pdf").is_symlink()
    assert (out / "card-sheets.pdf").read_bytes().startswith(b"%PDF-")
