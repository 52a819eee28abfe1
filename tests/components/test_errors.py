"""Every kind of catalog error, located exactly: file, line, column, pointer, message.

Expected positions are found by searching the catalog text for a marker, so
each test states which token a problem must point at.
"""

import pytest
from located import position_of as at

GEMS = """\
  "gems": [
    {"id": "fire-ruby", "name": "Fire Ruby", "special": false, "colour": "#c0392b", "shape": "drop"},
    {"id": "obsidian", "name": "Obsidian", "special": false, "colour": "#222222", "shape": "hexagon"}
  ],"""

TILE = (
    '{"id": "%s", "title": "Hall", "type": "action", "doors": %s, '
    '"ability": [{"op": "draw", "count": 2}], "text": "Draw 2."}'
)
OPEN_DOOR = '{"N": {"cost": [], "points": 0}}'


def catalog(body: str, totals: str = "{}") -> str:
    return (
        '{\n  "game": "my-game", "title": "My Game", "version": "1.0",\n'
        f'  "totals": {totals},\n{GEMS}\n{body}\n}}\n'
    )


def room_tiles(*tiles: str) -> str:
    return catalog('  "room_tiles": [\n    ' + ",\n    ".join(tiles) + "\n  ]")


def test_the_issue_example_typo_in_a_door_cost(problems):
    text = room_tiles(TILE % ("hall", '{"N": {"cost": ["obsidian", "fire-rubby"], "points": 2}}'))
    assert problems(text) == [
        at(text, '"fire-rubby"') + " /room_tiles/0/doors/N/cost/1: "
        "'fire-rubby' is not a gem of this catalog (did you mean 'fire-ruby'?)"
    ]


def test_all_problems_are_reported_at_once(problems):
    text = catalog(
        '  "room_tiles": [\n    '
        + ",\n    ".join(
            [
                TILE % ("hall", '{"N": {"cost": ["rubby"], "points": 1}}'),
                TILE % ("hall", "{}"),
                TILE % ("Bad Id", '{"S": {"cost": [], "points": "2"}}'),
            ]
        )
        + "\n  ]",
        totals='{"room_tiles": 4}',
    )
    assert problems(text) == [
        at(text, "4}") + " /totals/room_tiles: declares 4 room_tiles but the components add up "
        "to 3 copies",
        at(text, '"rubby"') + " /room_tiles/0/doors/N/cost/0: 'rubby' is not a gem of this catalog",
        at(text, '"hall"', 2) + " /room_tiles/1/id: duplicate room-tile id 'hall' "
        "(first used at /room_tiles/0)",
        at(text, "{}, ") + " /room_tiles/1/doors: expected at least 1 property, found 0",
        at(text, '"Bad Id"') + " /room_tiles/2/id: 'Bad Id' is not valid: Identifier: lowercase "
        "letters, digits and hyphens, starting with a letter or digit.",
        at(text, '"2"') + " /room_tiles/2/doors/S/points: expected an integer from 0 to 20, "
        "found '2'",
    ]


def test_unknown_property_points_at_the_key_and_suggests(problems):
    text = room_tiles(TILE.replace('"title"', '"titel"') % ("hall", OPEN_DOOR))
    assert problems(text) == [
        at(text, '{"id": "hall"') + " /room_tiles/0: missing required property 'title' (a string)",
        at(text, '"titel"')
        + " /room_tiles/0/titel: unknown property 'titel' (did you mean 'title'?)",
    ]


def test_enum_typo_suggests_the_nearest_value(problems):
    text = room_tiles(TILE.replace('"action"', '"actoin"') % ("hall", OPEN_DOOR))
    assert problems(text) == [
        at(text, '"actoin"') + " /room_tiles/0/type: 'actoin' is not one of 'action', "
        "'movement', 'free', 'tunnel' (did you mean 'action'?)"
    ]


def test_unknown_collection_is_an_unknown_property(problems):
    text = catalog('  "room_tile": []')
    assert problems(text) == [
        at(text, '"room_tile"') + " /room_tile: unknown property 'room_tile' "
        "(did you mean 'room_tiles'?)"
    ]


def test_totals_name_a_collection(problems):
    text = catalog('  "gem_cards": []', totals='{"gem_card": 75}')
    assert problems(text) == [
        at(text, '{"gem_card"') + " /totals: 'gem_card' is not a collection "
        "(did you mean 'gem_cards'?)",
        at(text, "75") + " /totals/gem_card: declares 75 gem_card but the components add up "
        "to 0 copies",
    ]


def test_gem_ids_are_fixed_and_references_follow_the_declared_ids(problems):
    text = catalog('  "gem_cards": [{"id": "c1", "gems": ["obsidian"]}]').replace(
        '"id": "obsidian", "name"', '"id": "obsidean", "name"'
    )
    first, second = problems(text)
    assert first.startswith(at(text, '"obsidean"') + " /gems/1/id: 'obsidean' is not one of ")
    assert first.endswith("'warpstone' (did you mean 'obsidian'?)")
    assert second == (
        at(text, '"obsidian"') + " /gem_cards/0/gems/0: 'obsidian' is not a gem of this catalog "
        "(did you mean 'obsidean'?)"
    )


def test_tunnels_need_four_free_doors_in_two_pairs(problems):
    tunnel = (
        '{"id": "t", "title": "Tunnel", "type": "tunnel", '
        '"doors": {"N": {"cost": ["obsidian"], "points": 1}, "S": {"cost": [], "points": 0}, '
        '"E": {"cost": [], "points": 0}}, "tunnel": [["N", "S"], ["E", "N"]]}'
    )
    text = room_tiles(tunnel)
    assert problems(text) == [
        at(text, '{"N": {"cost"') + " /room_tiles/0/doors: a tunnel has four doors; missing W",
        at(text, '{"cost": ["obsidian"]') + " /room_tiles/0/doors/N: the doors on a tunnel "
        "have no cost or points",
        at(text, "[[") + " /room_tiles/0/tunnel: a tunnel's doors connect in two pairs using each "
        "edge once; found N-S-E-N",
    ]


def test_tunnels_have_no_ability_and_rooms_need_one(problems):
    free = '{"cost": [], "points": 0}'
    tunnel = (
        f'{{"id": "t", "title": "Tunnel", "type": "tunnel", "doors": {{"N": {free}, "E": {free}, '
        f'"S": {free}, "W": {free}}}, "tunnel": [["N", "S"], ["E", "W"]], '
        '"ability": [{"op": "draw", "count": 1}]}'
    )
    room = (
        '{"id": "r", "title": "Room", "type": "free", "doors": {"N": {"cost": [], "points": 0}}, '
        '"tunnel": [["N", "S"], ["E", "W"]]}'
    )
    text = room_tiles(tunnel, room)
    assert problems(text) == [
        at(text, '[{"op"') + " /room_tiles/0/ability: expected at most 0 items, found 1",
        at(text, '{"id": "r"') + " /room_tiles/1: missing required property 'ability'",
        at(text, '{"id": "r"') + " /room_tiles/1: missing required property 'text'",
        at(text, '"tunnel": [[', 2) + " /room_tiles/1/tunnel: 'tunnel' is not allowed here",
    ]


def test_effect_steps_check_their_own_fields(problems):
    ability = (
        '[{"op": "draw", "count": "Y"}, {"op": "dig", "count": 2}, '
        '{"op": "score", "points": 1, "count": 1}]'
    )
    tile = TILE.replace('[{"op": "draw", "count": 2}]', ability) % ("hall", OPEN_DOOR)
    text = room_tiles(tile)
    assert problems(text) == [
        at(text, '"Y"') + " /room_tiles/0/ability/0/count: expected an integer from 1 to 20 or "
        "one of 'X', 'hand', found 'Y'",
        at(text, '{"op": "dig"') + " /room_tiles/0/ability/1: missing required property 'where'",
        at(text, '"count": 1}') + " /room_tiles/0/ability/2/count: 'count' is not allowed here",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '{\n  "game": "x",\n  "title": "X" "version": "1"\n}',
            "my-game.json:3:16 /: invalid JSON: Expecting ',' delimiter",
        ),
        (
            '{"game": "x",\n "game": "y", "title": "X", "version": "1"}',
            "my-game.json:2:2 /game: duplicate key (first at line 1, column 2)",
        ),
        ("[1, 2]", "my-game.json:1:1 /: expected an object, found [1, 2]"),
        (
            '{"title": "X", "version": "1"}',
            "my-game.json:1:1 /: missing required property 'game' (a string)",
        ),
    ],
    ids=["syntax", "duplicate-key", "not-an-object", "missing-game"],
)
def test_document_level_problems(problems, text, expected):
    assert problems(text) == [expected]


def test_a_file_that_is_not_utf8(tmp_path):
    from protopress.components import InvalidInput, load_catalog

    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"game": "x",\n "title": "Caf\xe9"}')
    with pytest.raises(InvalidInput) as raised:
        load_catalog(path, display="latin1.json")
    assert [str(p) for p in raised.value.problems] == ["latin1.json:2:15 /: file is not UTF-8 text"]


def test_door_costs_are_paid_in_standard_gems(problems):
    text = catalog(
        '  "room_tiles": [\n    '
        + TILE % ("hall", '{"E": {"cost": ["obsidian", "diamond-dust"], "points": 2}}')
        + "\n  ]"
    ).replace(
        '"gems": [',
        '"gems": [\n    {"id": "diamond-dust", "name": "Diamond Dust", "special": true, '
        '"colour": "#eeeeee", "shape": "star"},',
    )
    assert problems(text) == [
        at(text, '"diamond-dust"]')
        + " /room_tiles/0/doors/E/cost/1: 'diamond-dust' is a special gem; door costs are paid "
        "in standard gems"
    ]
