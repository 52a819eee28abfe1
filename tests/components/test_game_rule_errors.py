"""Semantic and kind-specific errors of Stonespine Architects, Gemstone Caverns and
DragonStone Mine catalogs, each located exactly."""


def catalog(body: str) -> str:
    return '{\n  "game": "my-game", "title": "My Game", "version": "1.0",\n' + body + "\n}\n"


ELEMENTS = (
    '  "elements": [\n'
    '    {"id": "monster", "name": "Monster", "shape": "star", "colour": "#aa0000", "placement": "slot"},\n'
    '    {"id": "trap", "name": "Trap", "shape": "triangle", "colour": "#555555", "placement": "slot"}\n'
    "  ],\n"
    '  "symbols": [{"id": "skull", "name": "Skull", "shape": "circle"}],\n'
)


def test_a_chamber_holds_at_most_its_slots(problems, at):
    text = catalog(
        ELEMENTS + '  "chamber_cards": [\n'
        '    {"id": "c1", "title": "Crypt", "doors": "NS", "elements": ["monster", "trap", "trap"], '
        '"slots": 2, "stars": 1, "gold": 1, "symbol": "skull"},\n'
        '    {"id": "c2", "title": "Den", "doors": "SN", "elements": ["monstre"], "slots": 5, '
        '"stars": -1, "gold": 0, "symbol": "skul"}\n'
        "  ]"
    )
    assert problems(text) == [
        at(text, '["monster", "trap"') + " /chamber_cards/0/elements: 3 printed elements but the "
        "chamber holds 2 (printed ones count)",
        at(text, '"SN"') + " /chamber_cards/1/doors: 'SN' is not valid: Edges that show a printed "
        'door, in the order N, E, S, W (e.g. "NS", "" for none).',
        at(text, '"monstre"') + " /chamber_cards/1/elements/0: 'monstre' is not an element of this "
        "catalog (did you mean 'monster'?)",
        at(text, "5, ") + " /chamber_cards/1/slots: expected at most 4, found 5",
        at(text, '"skul"') + " /chamber_cards/1/symbol: 'skul' is not a symbol of this catalog "
        "(did you mean 'skull'?)",
    ]


def test_blueprint_positions_lie_on_the_grid_and_differ(problems, at):
    positions = ", ".join(
        f'{{"row": {r}, "col": {c}, "element": "monster"}}'
        for r, c in [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (4, 2), (0, 1)]
    )
    text = catalog(
        ELEMENTS
        + '  "blueprint_cards": [\n    {"id": "b1", "entrance": {"side": "N", "index": 1}, '
        '"exit": {"side": "N", "index": 1}, "positions": [' + positions + "]}\n  ]"
    )
    assert problems(text) == [
        at(text, '{"side": "N"', 2) + " /blueprint_cards/0/exit: the exit is on the same doorway "
        "as the entrance",
        at(text, "4, ") + " /blueprint_cards/0/positions/6/row: expected at most 3, found 4",
        at(text, '{"row": 0, "col": 1', 2) + " /blueprint_cards/0/positions/7: row 0, col 1 is "
        "already used by position 1",
    ]


def test_rival_deck_must_swap_diamond_for_legendary(problems, at):
    def rival(n, difficulty):
        return (
            f'{{"id": "r{n}", "title": "Rival {n}", "symbol": "skull", "gold": 5, "tokens": ["trap"], '
            f'"difficulty": "{difficulty}", "reputation": {{"base": 10, '
            '"condition": {"counts": "chambers", "points": 1}}}'
        )

    text = catalog(
        ELEMENTS
        + '  "rival_cards": [\n    '
        + ",\n    ".join(
            [rival(1, "plain"), rival(2, "diamond"), rival(3, "diamond"), rival(4, "legendary")]
        )
        + "\n  ]"
    )
    assert problems(text) == [
        at(text, '[\n    {"id": "r1"')
        + " /rival_cards: hard solo games swap the diamond cards for "
        "the legendary ones: 2 diamond but 1 legendary"
    ]


SYMBOLS = (
    '  "symbols": [\n'
    '    {"id": "ruby", "name": "Ruby", "letter": "R", "shape": "drop"},\n'
    '    {"id": "rock", "name": "Rock", "letter": "R", "shape": "square"}\n'
    "  ],\n"
)


def test_dice_have_six_faces_from_the_symbol_set(problems, at):
    text = catalog(
        SYMBOLS + '  "dice": [\n'
        '    {"id": "d1", "faces": ["ruby", "rock", "ruby", "rock", "ruby"]},\n'
        '    {"id": "d2", "faces": ["ruby", "rock", "ruby", "rock", "ruby", "gold"]}\n'
        "  ]"
    )
    assert problems(text) == [
        at(text, '"R"', 2) + " /symbols/1/letter: letter 'R' already stands for 'ruby'",
        at(text, '["ruby", "rock", "ruby", "rock", "ruby"]') + " /dice/0/faces: expected at least "
        "6 items, found 5",
        at(text, '"gold"') + " /dice/1/faces/5: 'gold' is not a symbol of this catalog",
    ]


COLOURS = '  "gem_colours": [{"id": "red", "count": 30, "name": "Red", "colour": "#ff0000", "shape": "drop", "rule": {"text": "Mine again.", "steps": [{"op": "mine"}]}}],\n'


def test_tower_holds_thirty_gems_and_level_two_cards_cost_gems(problems, at):
    text = catalog(
        COLOURS + '  "towers": [{"id": "tower", "spires": [5, 5, 5, 5, 5]}],\n'
        '  "action_cards": [\n'
        '    {"id": "a1", "title": "Dig", "level": 2, "text": "Mine 2.", "effect": [{"op": "mine", "count": 2}]},\n'
        '    {"id": "a2", "title": "Gift", "level": 1, "cost": ["red"], "text": "Mine.", "effect": [{"op": "mine"}]},\n'
        '    {"id": "a3", "title": "Swap", "level": 2, "cost": ["blue"], "text": "Swap.", "effect": [{"op": "swap", "colour": "red"}]}\n'
        "  ]"
    )
    assert problems(text) == [
        at(text, "[5, 5") + " /towers/0/spires: the tower holds 25 gems; a complete tower holds "
        "at least 30",
        at(text, '{"id": "a1"') + " /action_cards/0: missing required property 'cost'",
        at(text, '"cost": ["red"]') + " /action_cards/1/cost: 'cost' is not allowed here",
        at(text, '"blue"') + " /action_cards/2/cost/0: 'blue' is not a gem-colour of this catalog",
        at(text, '"swap"')
        + " /action_cards/2/effect/0/op: 'swap' is not one of 'mine', 'move_own', "
        "'swap_tops', 'steal', 'return', 'draw', 'discard', 'extra_turn' (did you mean 'swap_tops'?)",
    ]
