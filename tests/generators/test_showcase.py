"""A hand of cards and a showcase row as PNGs: the fan's angles and positions and
the picture's size worked by hand, the turn's direction read from pixels, the same
bytes each time, and the command's refusals."""

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from protopress.cli import cli
from protopress.generators.png_surface import png_bytes
from protopress.generators.showcase import Arrangement, compose, fan, row, turned_size

MINI = Path(__file__).parents[1] / "data" / "mini-game"
RED, GREEN, BLUE = (200, 0, 0), (0, 160, 0), (0, 0, 200)


def solid(colour, width=100, height=140):
    return Image.new("RGB", (width, height), colour)


def test_the_fan_by_hand():
    # 3 cards 140 px high, 10 degrees apart: the pivot 2.5 x 140 = 350 px below the
    # middle card's centre; the outer centres at 350 sin 10 = 60.777 to each side and
    # 350 (1 - cos 10) = 5.317 lower, turned -10 and +10 degrees
    left, middle, right = fan(3, 140, 10)
    assert (middle.x, middle.y, middle.angle) == (0, 0, 0)
    assert (left.angle, right.angle) == (-10, 10)
    assert right.x == pytest.approx(60.777, abs=1e-3) and left.x == pytest.approx(-60.777, abs=1e-3)
    assert right.y == left.y == pytest.approx(5.3173, abs=1e-3)
    # an even count has no middle card: the two inner ones at -5 and +5 degrees
    assert [p.angle for p in fan(4, 140, 10)] == [-15, -5, 5, 15]
    # a 100 x 140 card turned 10 degrees needs 122.79 x 155.24 px
    assert turned_size(100, 140, 10) == pytest.approx((122.7915, 155.2379), abs=1e-3)


def test_the_hand_picture_by_hand():
    picture = compose([solid(RED), solid(GREEN), solid(BLUE)], Arrangement.HAND, 10)
    # the cards span x from -122.17 to 122.17 and y from -72.30 to 82.94 (the outer
    # ones' turned boxes); the margin is 8 (a gap of 0.08 x 100) + 3 (the shadow's
    # offset down) + 2 x 2 (its blur): 15 px; so x -138..138, y -88..98
    assert picture.size == (276, 186)
    assert picture.mode == "RGBA"
    origin = (138, 88)  # where the middle card's centre is

    def at(x, y):
        return picture.getpixel((round(origin[0] + x), round(origin[1] + y)))

    assert at(0, 0) == (*GREEN, 255)  # the right card, on top, does not reach it
    assert at(-60.777, 5.317) == (*RED, 255)
    assert at(60.777, 5.317) == (*BLUE, 255)
    # clockwise as seen: the right card's point (45, -65) from its centre is turned to
    # (45 cos 10 + 65 sin 10, 45 sin 10 - 65 cos 10) = (55.61, -56.20)
    assert at(60.777 + 55.61, 5.317 - 56.20) == (*BLUE, 255)
    # turned the other way, its point (-45, -65) would come to (-55.61, -56.20) from its
    # centre; turned clockwise, that point is off it (and on the middle card)
    assert at(60.777 - 55.61, 5.317 - 56.20) == (*GREEN, 255)
    assert picture.getpixel((0, 0)) == (0, 0, 0, 0)  # transparent around


def test_the_row_by_hand():
    picture = compose([solid(RED), solid(BLUE, 60, 80)], Arrangement.ROW, 0, (255, 255, 255, 255))
    # side by side on their bottom edges, 8 px apart: x 0..168, y -140..0; margin 15
    assert picture.size == (198, 170)
    assert picture.getpixel((15 + 50, 15 + 70)) == (*RED, 255)
    assert picture.getpixel((15 + 138, 15 + 140 - 40)) == (*BLUE, 255)
    assert picture.getpixel((15 + 138, 15 + 30)) == (255, 255, 255, 255)  # above the small one
    assert [p.x for p in row([(100, 140), (60, 80)], 8)] == [50, 138]


def test_the_same_faces_give_the_same_bytes():
    faces = [solid(RED), solid(GREEN), solid(BLUE)]
    first = png_bytes(compose(faces, Arrangement.HAND), 150)
    assert png_bytes(compose(faces, Arrangement.HAND), 150) == first


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_command(tmp_path):
    catalog = MINI / "catalog.json"
    out = tmp_path / "hand.png"
    args = ["showcase", catalog, "dawn", "dusk", "eclipse", "--layouts", MINI / "layouts"]
    result = invoke(*args, "-o", out, "--dpi", "72")
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.png"
    assert invoke(*args, "-o", again, "--dpi", "72").exit_code == 0
    assert out.read_bytes() == again.read_bytes()
    with Image.open(io.BytesIO(out.read_bytes())) as picture:
        assert picture.mode == "RGBA" and picture.width > 3 * 63 / 25.4 * 72 * 0.5

    unknown = invoke("showcase", catalog, "dawn", "dsuk", "--layouts", MINI / "layouts")
    assert unknown.exit_code == 2
    assert "no drawn component 'dsuk' (did you mean 'dusk'?)" in unknown.output
    symbol = invoke("showcase", catalog, "sun", "--layouts", MINI / "layouts")
    assert symbol.exit_code == 2 and "no drawn component 'sun'" in symbol.output


def test_an_id_two_kinds_share_is_named_with_its_kind(tmp_path):
    cottage = Path(__file__).parents[2] / "examples" / "cottage-market" / "catalog.json"
    shared = invoke("showcase", cottage, "market", "-o", tmp_path / "x.png")
    assert shared.exit_code == 2
    assert "'market' names 2 components: write card/market or board/market" in shared.output
    named = invoke(
        "showcase", cottage, "card/market", "--row", "-o", tmp_path / "x.png", "--dpi", "72"
    )
    assert named.exit_code == 0, named.output


def test_a_picture_too_large_is_refused_before_it_is_drawn(tmp_path):
    # 60 poker cards at 600 dpi: 60 x 1488 x 2079 = 186 million pixels of faces
    ids = ["dawn", "dusk", "eclipse"] * 20
    args = ["showcase", MINI / "catalog.json", *ids, "--layouts", MINI / "layouts"]
    result = invoke(*args, "--dpi", "600", "-o", tmp_path / "x.png")
    assert result.exit_code == 2
    assert "60 faces of 186 million pixels at 600 dpi" in result.output
    assert not (tmp_path / "x.png").exists()
    with pytest.raises(ValueError, match="a picture of"):  # the fan itself: 30 degrees apart
        compose([solid(RED, 3000, 4000)] * 4, Arrangement.HAND, 30)
