"""Gemstone Caverns set checks: dice symbols, tray shapes, score sheet."""

import json

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gemstone_caverns.checks import (
    CHECKS,
    canonical,
    dice_symbols,
    parse_picture,
    polyominoes,
    rotations,
    score_sheet,
    shape_name,
    tray_shapes,
)

SYMBOLS = [
    {"id": symbol, "name": symbol.title(), "shape": shape}
    for symbol, shape in [("ruby", "heart"), ("rock", "square"), ("moss", "star"), ("ash", "ring")]
]


@pytest.fixture
def gemstone(write_catalog):
    """A catalog of the four SYMBOLS, the given dice and score sheets."""

    def build(dice, sheets=()):
        document = {"game": "my-game", "title": "My Game", "version": "1.0", "symbols": SYMBOLS}
        document["dice"] = [
            {"id": f"d{n}", "faces": faces.split()} | ({"count": count} if count != 1 else {})
            for n, (faces, count) in enumerate(dice, 1)
        ]
        if sheets:
            document["score_sheets"] = [
                {
                    "id": f"sheet-{rows}x{columns}",
                    "title": "Sheet",
                    "rows": rows,
                    "columns": columns,
                    "scoring": {"min_group": 5, "per_group": 1, "per_box": 1},
                }
                for rows, columns in sheets
            ]
        return load_catalog(write_catalog(json.dumps(document)))

    return build


def messages(findings):
    return [str(finding) for finding in findings]


def test_the_four_dice_make_seven_one_sided_and_five_free_tetrominoes():
    one_sided = polyominoes(4)
    free = polyominoes(4, mirror=True)
    assert len(one_sided) == 7
    assert len(free) == 5
    assert sorted(shape_name(shape) for shape in one_sided) == sorted("IOTSZLJ")
    assert sorted(shape_name(shape, mirror=True) for shape in free) == sorted("IOTSL")
    # Counts of one-sided and free polyominoes (OEIS A000988, A000105).
    assert [len(polyominoes(n)) for n in range(1, 7)] == [1, 1, 2, 7, 18, 60]
    assert [len(polyominoes(n, mirror=True)) for n in range(1, 7)] == [1, 1, 2, 5, 12, 35]


def test_rotation_never_turns_a_shape_into_its_mirror_image():
    s, z = parse_picture(".##/##."), parse_picture("##./.##")
    assert canonical(s) != canonical(z)
    assert canonical(s, mirror=True) == canonical(z, mirror=True)
    turns = {"####": 2, "##/##": 1, "###/.#.": 4, ".##/##.": 2}
    assert {drawn: len(rotations(parse_picture(drawn))) for drawn in turns} == turns
    assert shape_name(parse_picture("##/#./#.")) == "J"  # J turned upside down


def test_tray_shapes_for_four_dice_and_for_three(gemstone):
    four = gemstone([("ruby rock moss ash ruby rock", 1)] * 4)
    assert messages(tray_shapes(four)) == [
        "info dice: 4 dice make 7 shapes when drawn, rotated but never mirrored: "
        "I, O, T, S, Z, L, J (5 counting mirror images as one: I, O, T, S, L)"
    ]
    three = gemstone([("ruby rock moss ash ruby rock", 3)])
    assert messages(tray_shapes(three)) == [
        "info dice: 3 dice make 2 shapes when drawn, rotated but never mirrored: "
        "###, ##/#. (2 counting mirror images as one: ###, ##/#.)"
    ]


def test_face_counts_weigh_each_die_by_its_copies(gemstone):
    # ruby 2*3 + 1 = 7, rock 2*2 + 2 = 6, moss 2*1 + 3 = 5, ash 0; 7 <= 1.5 * 5.
    catalog = gemstone([("ruby ruby ruby rock rock moss", 2), ("rock rock moss moss moss ruby", 1)])
    findings = list(dice_symbols(catalog))
    assert messages(findings) == [
        "info dice: symbol faces over 3 dice (18 faces): ruby 7, rock 6, moss 5, ash 0",
        "warning ash: 'ash' is on no die",
    ]
    assert findings[0].data == {"ruby": 7, "rock": 6, "moss": 5, "ash": 0}


def test_a_symbol_on_more_than_one_and_a_half_times_the_faces_of_another_warns(gemstone):
    lopsided = gemstone([("ruby ruby ruby ruby rock rock", 1), ("ruby ruby moss moss ash ash", 1)])
    assert messages(dice_symbols(lopsided)) == [
        "info dice: symbol faces over 2 dice (12 faces): ruby 6, rock 2, moss 2, ash 2",
        "warning dice: 'ruby' is on 6 faces, more than 1.5 times 'rock' on 2",
    ]
    # ruby 6, rock 4, moss 4, ash 4: exactly 1.5 times, no warning; one moss fewer warns.
    even = [
        "ruby ruby ruby rock rock moss",
        "ruby ruby ruby ash ash moss",
        "rock rock moss moss ash ash",
    ]
    assert messages(dice_symbols(gemstone([(faces, 1) for faces in even])))[1:] == []
    uneven = even[:2] + ["rock rock moss ash ash ash"]
    assert messages(dice_symbols(gemstone([(faces, 1) for faces in uneven])))[1:] == [
        "warning dice: 'ruby' is on 6 faces, more than 1.5 times 'moss' on 3"
    ]


def test_score_sheet_boxes_and_turns(gemstone):
    catalog = gemstone([("ruby rock moss ash ruby rock", 1)] * 4, sheets=[(8, 8), (7, 9)])
    findings = list(score_sheet(catalog))
    assert messages(findings) == [
        "info sheet-8x8: 8x8 grid: 64 boxes, about 16 turns at 4 boxes a turn",
        "info sheet-7x9: 7x9 grid: 63 boxes, about 15 turns at 4 boxes a turn",
    ]
    assert findings[0].data == {"boxes": 64, "turns": 16}


def test_the_built_in_set_is_balanced():
    catalog = load_catalog(builtin_catalog_path("gemstone-caverns"))
    assert messages(f for check in CHECKS for f in check.run(catalog, 0)) == [
        "info dice: symbol faces over 4 dice (24 faces): moonstone 4, topaz 4, emerald 4, "
        "diamond 4, sapphire 4, ruby 4",
        "info dice: 4 dice make 7 shapes when drawn, rotated but never mirrored: "
        "I, O, T, S, Z, L, J (5 counting mirror images as one: I, O, T, S, L)",
        "info score-sheet: 8x8 grid: 64 boxes, about 16 turns at 4 boxes a turn",
    ]
