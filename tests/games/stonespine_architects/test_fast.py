"""The engine's fast paths agree with the rules' own on thousands of seeded
random dungeons and positions: the bit-mask path score with the path graph
(networkx), the rules' one source of truth (random doors and secret passages,
doorways on every side, the entrance and exit sometimes on one chamber); a
geometry changed in one cell with one made afresh; a board's facts with one
chamber changed with the scoring functions; the heuristic with its former
term-by-term self; the greedy look-ahead's values with copy + apply + heuristic."""

import random

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects import lookahead
from protopress.games.stonespine_architects.dungeon import (
    CELLS,
    EDGES,
    SIZE,
    Chamber,
    Doorway,
    Dungeon,
    Geometry,
    flood_path_score,
    geometry_path_score,
    path_reach,
    path_score,
)
from protopress.games.stonespine_architects.scoring import Scoring


def random_dungeon(rng: random.Random, elements=()) -> Dungeon:
    density = rng.random()
    chambers = {
        cell: Chamber(
            doors=frozenset(e for e in EDGES if rng.random() < density),
            passages=frozenset(e for e in EDGES if rng.random() < 0.08),
            elements=tuple(rng.choice(elements) for _ in range(rng.randrange(4)))
            if elements
            else (),
        )
        for cell in CELLS
    }
    rows = tuple(tuple(chambers[row, col] for col in range(SIZE)) for row in range(SIZE))
    entrance = Doorway(rng.choice(EDGES), rng.randrange(SIZE))
    exit = entrance if rng.random() < 0.05 else Doorway(rng.choice(EDGES), rng.randrange(SIZE))
    return Dungeon(rows, entrance, exit)


def test_flood_fill_matches_the_path_graph():
    rng = random.Random(17)
    through = 0
    for _ in range(5000):
        dungeon = random_dungeon(rng)
        fast = flood_path_score(dungeon)
        assert fast == path_score(dungeon)
        through += fast.through_route
    assert 500 < through < 4500  # both kinds of dungeon were tried


def test_a_geometry_with_one_chamber_changed_equals_the_changed_dungeons():
    rng = random.Random(29)
    for _ in range(3000):
        chambers = [c for row in random_dungeon(rng).chambers for c in row]
        other = [c for row in random_dungeon(rng).chambers for c in row]
        cell = rng.randrange(len(chambers))
        changed = chambers[:cell] + [other[cell]] + chambers[cell + 1 :]
        assert Geometry.of(chambers).with_chamber(cell, other[cell]) == Geometry.of(changed)


def test_a_chamber_changed_outside_the_path_reach_leaves_the_path_score():
    """path_reach: a chamber changed in a cell outside the mask (any doors, any
    passages) leaves the path score as it was; cells inside may change it."""
    rng = random.Random(41)
    outside = changed_inside = 0
    for _ in range(4000):
        dungeon = random_dungeon(rng)
        chambers = [c for row in dungeon.chambers for c in row]
        geometry, doorways = Geometry.of(chambers), (dungeon.entrance, dungeon.exit)
        before, reach = geometry_path_score(geometry, *doorways), path_reach(geometry, *doorways)
        other = [c for row in random_dungeon(rng).chambers for c in row]
        for cell in range(len(chambers)):
            after = geometry_path_score(geometry.with_chamber(cell, other[cell]), *doorways)
            if reach >> cell & 1:
                changed_inside += after != before
            else:
                assert after == before
                outside += 1
    assert outside > 10_000 and changed_inside > 1000  # both kinds of cell were met


# --- the greedy look-ahead without copies ------------------------------------------


def _positions(games: int, seed: int):
    """Positions of seeded games, solo and multiplayer, random and greedy play."""
    from protopress.rules.bot_names import make_bot
    from protopress.rules.registry import game_for

    game = game_for("stonespine-architects")
    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    rng = random.Random(seed)
    for number in range(games):
        players = rng.choice((1, 1, 2, 3, 5))
        options = {"difficulty": rng.choice(("normal", "hard"))} if players == 1 else {}
        state = game.setup(catalog, players, random.Random(rng.getrandbits(32)), options)
        bots = [make_bot(rng.choice(("random", "greedy")), number * 10 + s) for s in range(players)]
        while not game.is_over(state):
            yield game, state
            game.apply(state, bots[game.to_move(state)].choose(game, state))
        yield game, state


def _book_heuristic(state, seat: int) -> float:
    """The heuristic as the engine wrote it before heuristic.py: every term counted
    afresh on the board's dungeon with the scoring functions."""
    from protopress.games.stonespine_architects import heuristic as w
    from protopress.games.stonespine_architects.scoring import rank_points, reputation

    table, board = state.table, state.boards[seat]
    scoring = table.scoring
    dungeon = board.dungeon()
    paths = path_score(dungeon)
    value = scoring.path_points(paths) + reputation(dungeon)
    matches = scoring.blueprint_matches(dungeon, board.blueprint.positions)
    value += scoring.blueprint_points(matches) + w.NEAR_BLUEPRINT * matches
    for challenge in board.challenges:
        met = scoring.condition_holds(challenge.condition, dungeon, paths)
        value += challenge.points * (1.0 if met else w.OPEN_CHALLENGE)
    value += w.GOAL_ELEMENT * sum(scoring.element_count(dungeon, e) for e in state.goal.elements)
    if state.pending and state.mover == seat:
        value += sum(w.PENDING_TOKEN + table.tokens[t].stars for t in state.pending)
    value += w.GOLD * board.gold
    if state.phase == "construction":
        base = state.row * SIZE
        value += w.ROW_GOLD * sum(
            table.cards[i].gold for i in board.cards[base : base + SIZE] if i >= 0
        )
    if state.year == 4 and seat in state.new_priority:
        value += rank_points(scoring.priority, state.new_priority.index(seat) + 1)
    if state.rival is not None:
        value -= state.rival.reputation().total
    return value


def test_the_heuristic_equals_the_book_on_every_seat_of_random_positions():
    checked = 0
    for game, state in _positions(40, 5):
        for seat in range(len(state.boards)):
            assert game.heuristic(state, seat) == _book_heuristic(state, seat)
            checked += 1
    assert checked > 3000


def test_action_values_equal_copy_apply_heuristic():
    from protopress.rules.bots import reference_values

    kinds: dict[str, int] = {}
    for game, state in _positions(60, 11):
        seat = game.to_move(state)
        if seat is None:
            continue
        actions = game.legal_actions(state)
        fast = lookahead.action_values(game, state, seat, actions)
        assert fast == reference_values(game, state, seat, actions), actions[0]
        kind = actions[0].verb
        if kind == "place" and state.draft == SIZE - 1:
            kind += " (the row's last)"
        kind += " (solo)" if state.table.solo else ""
        kinds[kind] = kinds.get(kind, 0) + 1
    assert sum(kinds.values()) > 2000
    for kind in ("place", "keep", "put", "buy", "pass", "place (the row's last)"):
        assert kinds.get(kind + " (solo)", 0) > 50, kind
        assert kind == "keep" or kinds.get(kind, 0) > 50, kind


def test_a_looked_ahead_state_is_left_as_it_was():
    from protopress.rules.bots import reference_values

    for game, state in _positions(6, 3):
        seat = game.to_move(state)
        if seat is None:
            continue
        before = state.copy()
        lookahead.action_values(game, state, seat, game.legal_actions(state))
        actions = game.legal_actions(state)
        assert reference_values(game, state, seat, actions) == reference_values(
            game, before, seat, actions
        )
        assert [b.chambers for b in state.boards] == [b.chambers for b in before.boards]
        assert state.pending == before.pending and state.boards[0].hand == before.boards[0].hand


def test_facts_of_a_dungeon_with_one_chamber_changed_equal_the_scoring_functions():
    from protopress.games.stonespine_architects.heuristic import Facts, Tally
    from protopress.games.stonespine_architects.scoring import Blueprint, Position, reputation

    scoring = Scoring.of(load_catalog(builtin_catalog_path("stonespine-architects")))
    kinds = sorted(scoring.elements)
    rng = random.Random(31)
    rows_held = 0
    for _ in range(3000):
        before, after = random_dungeon(rng, kinds), random_dungeon(rng, kinds)
        flat = [c for row in before.chambers for c in row]
        cell = rng.randrange(len(flat))
        new = after.chambers[cell // SIZE][cell % SIZE]
        if rng.random() < 0.3:  # a row of one element, to hold full_row sometimes
            element, row = rng.choice(kinds), rng.randrange(SIZE)
            for col in range(SIZE):
                c = flat[row * SIZE + col]
                flat[row * SIZE + col] = Chamber(c.doors, c.passages, (*c.elements, element))
        positions = tuple(
            Position(rng.randrange(SIZE), rng.randrange(SIZE), rng.choice(kinds)) for _ in range(8)
        )
        blueprint = Blueprint("b", before.entrance, before.exit, positions)
        changed = flat[:cell] + [new] + flat[cell + 1 :]
        dungeon = Dungeon(
            tuple(tuple(changed[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
            before.entrance,
            before.exit,
        )
        targets = [p.element for p in positions if p.row * SIZE + p.col == cell]
        tally = Tally.of(scoring, flat, blueprint)
        facts = Facts(scoring, flat, tally, path_score(dungeon), cell, new, targets)
        assert facts.reputation == reputation(dungeon)
        assert facts.matches == scoring.blueprint_matches(dungeon, positions)
        assert Tally.of(scoring, changed, blueprint).matches == facts.matches
        for element in kinds:
            assert facts.count(element) == scoring.element_count(dungeon, element)
            held = scoring.full_row(dungeon.chambers, element)
            assert facts.full_row(element) == held
            rows_held += held
    assert rows_held > 100


def test_what_a_board_keeps_equals_a_fresh_count_after_every_action():
    """Placing a card or a token changes the board's kept tally in that one cell
    (Tally.with_chamber): it must equal Tally.of the board's chambers, a kept path
    score the path graph's, and where a token of each element was found to fit
    (Board.room) where every token of that kind (slot or edge) fits now, by the rules' `fits`,
    after every action of seeded games."""
    from protopress.games.stonespine_architects.heuristic import Tally
    from protopress.games.stonespine_architects.placement import fits, fits_in, is_edge

    kept = rooms = 0
    for _, state in _positions(30, 23):
        table = state.table
        for board in state.boards:
            tally, paths = board.tallies[0], board.paths[0]
            if tally is not None:
                assert tally == Tally.of(table.scoring, board.chambers, board.blueprint)
                kept += 1
            if paths is not None:
                assert paths == path_score(board.dungeon())
            for edge, room in board.rooms.items():
                for token in (t for t in range(len(table.tokens)) if is_edge(table, t) == edge):
                    cells = [
                        c
                        for c in range(16)
                        if fits_in(table, board.cards[c], board.chambers[c], token)
                    ]
                    assert room == (len(cells), cells[0] if cells else -1)
                    assert bool(room.cells) == fits(table, board.cards, board.chambers, token)
                rooms += 1
    assert kept > 1500 and rooms > 200


def test_the_rival_deck_shuffled_by_id_is_shuffled_as_canonical_order_gives_it():
    """A seat copy shuffles the rival's deck with information.shuffled sorted by id
    at once (key=attrgetter("id")): the same order as canonical order finds."""
    from operator import attrgetter

    from protopress.games.stonespine_architects.rival import rival_cards
    from protopress.rules.information import shuffled

    cards = rival_cards(load_catalog(builtin_catalog_path("stonespine-architects")))
    rng = random.Random(37)
    for _ in range(3000):
        deck = rng.sample(cards, rng.randrange(len(cards) + 1))
        seed = rng.getrandbits(64)
        by_id = shuffled(deck, random.Random(seed), key=attrgetter("id"))
        assert by_id == shuffled(deck, random.Random(seed))


def test_final_sheets_score_the_path_graphs_paths():
    """Final scoring takes each board's kept path score: at every game's end each
    sheet's paths must be the path graph's of that board's dungeon."""
    finished = 0
    for _, state in _positions(40, 31):
        if state.final is None:
            continue
        for sheet, board in zip(state.final, state.boards, strict=True):
            assert sheet.paths == path_score(board.dungeon())
        finished += 1
    assert finished == 40
