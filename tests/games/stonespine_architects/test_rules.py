"""Stonespine Architects rules engine: setup, the draft, gold, the market and its
placement rules, cleanup, final scoring, every solo-mode branch, and whole
games played by bots."""

import random
from dataclasses import replace

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.actions import (
    Buy,
    Keep,
    Pass,
    PassClaiming,
    Place,
    PutInSlot,
    PutOnEdge,
)
from protopress.games.stonespine_architects.dungeon import Chamber
from protopress.games.stonespine_architects.rules import (
    CONSTRUCT,
    IMPROVE,
    income,
    lay_chamber,
)
from protopress.games.stonespine_architects.spec import SPEC
from protopress.rules.bots import GreedyBot, RandomBot
from protopress.rules.core import IllegalAction, checked_apply
from protopress.rules.simulate import log_of, play, replay

GAME = SPEC.new_game()  # with its bot support, as the kit plays it


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("stonespine-architects"))


def new_game(catalog, players=2, seed=0, **options):
    return GAME.setup(catalog, players, random.Random(seed), options)


def first_legal_until(state, done):
    while not done(state):
        checked_apply(GAME, state, GAME.legal_actions(state)[0])


def to_improvement(state):
    first_legal_until(state, lambda s: s.phase == IMPROVE)


def token_index(state, token_id):
    return next(i for i, t in enumerate(state.table.tokens) if t.id == token_id)


def card_id(state, index):
    return state.table.cards[index].id


def challenge_ids(state):
    return [state.table.challenges[i].id for i in state.display]


# --- options and setup ---------------------------------------------------------------


def test_options(catalog):
    assert new_game(catalog, 1).table.solo
    assert new_game(catalog, 1, solo="true", difficulty="hard").table.difficulty == "hard"
    assert not new_game(catalog, 3).table.solo
    with pytest.raises(ValueError, match="solo is played by one player"):
        new_game(catalog, 2, solo=True)
    with pytest.raises(ValueError, match="a one-player game is the solo game"):
        new_game(catalog, 1, solo="false")
    with pytest.raises(ValueError, match="difficulty applies to the solo game only"):
        new_game(catalog, 3, difficulty="hard")
    with pytest.raises(ValueError, match="option difficulty: expected one of normal, hard"):
        new_game(catalog, 1, difficulty="nightmare")
    with pytest.raises(ValueError, match="unknown option 'level'"):
        new_game(catalog, 2, level="2")
    with pytest.raises(ValueError, match="1 to 5 players"):
        new_game(catalog, 6)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_by_player_count(catalog, players):
    state = new_game(catalog, players, seed=players)
    assert sorted(state.priority) == list(range(players))
    assert all(len(board.hand) == 5 for board in state.boards)
    assert len({board.blueprint.id for board in state.boards}) == players
    assert len(state.display) == players + 1
    # One market card more than the players, at least three; each row's tokens
    # match the elements printed on the card.
    cards = {offer.card for offer in state.market}
    assert len(cards) == max(3, players + 1)
    for offer in state.market:
        printed = state.table.markets[offer.card].rows[offer.row].elements
        assert [state.table.tokens[t].element for t in offer.tokens] == list(printed)
    assert all(state.table.markets[c].min_players <= players for c in cards)
    assert state.phase == CONSTRUCT and state.year == 1 and state.rival is None


def test_priority_order_is_random_but_seeded(catalog):
    orders = {tuple(new_game(catalog, 4, seed=s).priority) for s in range(12)}
    assert len(orders) > 1
    assert new_game(catalog, 4, seed=5).priority == new_game(catalog, 4, seed=5).priority


def test_solo_setup(catalog):
    state = new_game(catalog, 1, seed=2)
    assert len(state.display) == 3  # as in a two-player game
    assert len({offer.card for offer in state.market}) == 3
    assert all(state.table.markets[offer.card].min_players == 1 for offer in state.market)
    assert state.rival.year == 1 and len(state.rival.deck) == 5


# --- construction -------------------------------------------------------------------


def test_hands_pass_clockwise_in_year_1_and_reverse_in_year_2(catalog):
    state = new_game(catalog, 3, seed=1)
    for year, step in ((1, 1), (2, -1)):
        assert state.year == year
        left = []
        for seat in range(3):
            assert GAME.to_move(state) == seat
            action = GAME.legal_actions(state)[0]
            hand = list(state.boards[seat].hand)
            hand.remove(state.table.card_index[action.card_id])
            left.append(sorted(hand))
            checked_apply(GAME, state, action)
        for seat in range(3):
            assert sorted(state.boards[(seat + step) % 3].hand) == left[seat]
        first_legal_until(state, lambda s: s.phase == IMPROVE)
        # four cards placed in the year's row; the fifth card is discarded
        row = state.row * 4
        assert all(all(i >= 0 for i in b.cards[row : row + 4]) for b in state.boards)
        assert all(b.hand == [] for b in state.boards)
        first_legal_until(state, lambda s: s.phase == CONSTRUCT)


def test_a_placed_card_cannot_be_moved_or_covered(catalog):
    state = new_game(catalog, 2)
    hand = state.boards[0].hand
    checked_apply(GAME, state, Place(card_id(state, hand[0]), 2))
    checked_apply(GAME, state, GAME.legal_actions(state)[0])  # seat 1
    assert all(action.column != 2 for action in GAME.legal_actions(state))
    with pytest.raises(IllegalAction, match="not legal"):
        checked_apply(GAME, state, Place(card_id(state, state.boards[0].hand[0]), 2))
    with pytest.raises(IllegalAction, match="^place card_id=.* column=2: row 0, column 2 already"):
        GAME.apply(state, Place(card_id(state, state.boards[0].hand[0]), 2))
    with pytest.raises(IllegalAction, match="not in seat 0's hand"):
        GAME.apply(state, Place("no-such-card", 0))


def test_an_action_is_one_of_the_games_typed_actions(catalog):
    """A bare tuple, even in the log's form, is refused by name, the state left as it was."""
    state = new_game(catalog, 2)
    hand = list(state.boards[0].hand)
    kinds = "Place, Keep, Buy, PutInSlot, PutOnEdge, PassClaiming, Pass"
    for bare in (("place", card_id(state, hand[0]), 2), (), "place"):
        with pytest.raises(
            IllegalAction, match=f"not an action of stonespine-architects: one of {kinds}$"
        ):
            GAME.apply(state, bare)
    assert state.boards[0].hand == hand and state.boards[0].cards == [-1] * 16


def test_listed_actions_are_built_once_per_table_and_equal_fresh_ones(market):
    state, seat = market
    lay_chamber(state, seat, 0, 3, "pillared-hall")  # 4 empty slots
    state.pending = [token_index(state, "goblin"), token_index(state, "secret-passage")]
    listed = GAME.legal_actions(state)
    assert PutInSlot(0, 0, 3) in listed and PutOnEdge(1, 0, 3, "W") in listed
    assert all(a is b for a, b in zip(listed, GAME.legal_actions(state), strict=True))
    interned = state.table.actions
    assert interned.slot_puts[1][2 * 4 + 3] == PutInSlot(1, 2, 3)
    assert interned.edge_puts[0][5]["S"] == PutOnEdge(0, 1, 1, "S")
    assert interned.places[2][1] == Place(state.table.cards[2].id, 1)
    assert interned.keeps[2] == Keep(state.table.cards[2].id)


def test_an_action_of_another_phase_is_refused_by_its_verb(catalog):
    state = new_game(catalog, 2)
    with pytest.raises(IllegalAction, match="construction takes place actions, not 'pass'"):
        GAME.apply(state, Pass())
    with pytest.raises(IllegalAction, match="column runs from 0 to 3"):
        GAME.apply(state, Place(card_id(state, state.boards[0].hand[0]), 4))


def test_solo_construction_keeps_one_card_and_feeds_the_rival(catalog):
    state = new_game(catalog, 1, seed=4)
    symbol = state.rival.card.symbol
    hand_sizes = []
    for turn in range(4):
        board = state.boards[0]
        hand_sizes.append(len(board.hand))
        place = GAME.legal_actions(state)[0]
        checked_apply(GAME, state, place)
        if turn < 3:
            assert state.keeping
            assert all(type(a) is Keep for a in GAME.legal_actions(state))
            rest = list(board.hand)
            keep = GAME.legal_actions(state)[-1]
            pile = len(state.rival.chambers)
            checked_apply(GAME, state, keep)
            rest.remove(state.table.card_index[keep.card_id])
            matching = [i for i in rest if state.table.cards[i].symbol == symbol]
            assert len(state.rival.chambers) - pile == len(matching)
            assert state.boards[0].hand[0] == state.table.card_index[keep.card_id]
    # 5 in hand, then 1 kept + one drawn per open spot: 4, 3, 2
    assert hand_sizes == [5, 4, 3, 2]
    assert state.phase == IMPROVE
    assert state.boards[0].hand == []
    assert all(state.boards[0].cards[c] >= 0 for c in range(4))


# --- gold ------------------------------------------------------------------------------


def test_income_counts_the_row_chests_and_the_starting_bonus(catalog):
    state = new_game(catalog, 2, seed=3)
    # Year 1 row: Gold Vein Junction (3 gold), Gold Seam Pocket (2 gold, a
    # printed chest), Mine Shaft (2), Hermit's Cell (0): 7 gold, + 1 chest.
    for col, card in enumerate(
        ["gold-vein-junction", "gold-seam-pocket", "mine-shaft", "hermits-cell"]
    ):
        lay_chamber(state, 0, 0, col, card)
    bonus = state.table.scoring.starting_gold[state.priority.index(0)]
    assert income(state, 0) == 7 + 1 + bonus
    # A placed chest anywhere pays too (not in year 2's row sum, though).
    board = state.boards[0]
    board.chambers[3] = Chamber(elements=("treasure-chest",))
    assert income(state, 0) == 7 + 2 + bonus
    state.year = 2
    assert income(state, 0) == 2  # an empty year 2 row; two chests; no bonus


def test_gold_is_capped_at_30(catalog):
    state = new_game(catalog, 2)
    board = state.boards[0]
    for cell in range(16):
        board.chambers[cell] = Chamber(elements=("treasure-chest", "treasure-chest"))
    for col, card in enumerate(["gold-vein-junction"] * 4):
        lay_chamber(state, 0, 0, col, card)
    # 4 x 3 row gold + 8 chests on the re-laid row + 24 elsewhere = 44 + bonus: capped.
    assert income(state, 0) == 30


def test_the_market_opens_with_the_most_gold_ties_to_priority(catalog):
    state = new_game(catalog, 3, seed=6)
    to_improvement(state)
    golds = [b.gold for b in state.boards]
    expected = sorted(range(3), key=lambda s: (-golds[s], state.priority.index(s)))
    assert state.order == expected
    assert GAME.to_move(state) == expected[0]


# --- the market ---------------------------------------------------------------------------


@pytest.fixture
def market(catalog):
    """A two-player game at its first market visit, the visitor with plenty of gold."""
    state = new_game(catalog, 2, seed=8)
    to_improvement(state)
    seat = GAME.to_move(state)
    state.boards[seat].gold = 30
    return state, seat


def test_buying_pays_and_takes_every_token_of_the_row(market):
    state, seat = market
    offer = max(state.market, key=lambda o: len(o.tokens))
    action = Buy(state.table.markets[offer.card].id, offer.row)
    checked_apply(GAME, state, action)
    assert state.boards[seat].gold == 30 - offer.cost
    assert sorted(state.pending) == sorted(offer.tokens)
    assert offer not in state.market
    assert all(type(a) in (PutInSlot, PutOnEdge) for a in GAME.legal_actions(state))
    while state.pending:
        checked_apply(GAME, state, GAME.legal_actions(state)[0])
    placed = sorted(t for cell in state.boards[seat].placed for t in cell)
    assert placed == sorted(offer.tokens)


def test_a_slot_already_filled_is_refused(market):
    # Wyrm's Den has 2 slots, both printed (a monster and a chest).
    state, seat = market
    lay_chamber(state, seat, 0, 0, "wyrms-den")
    state.pending = [token_index(state, "goblin")]
    assert not any((a.row, a.col) == (0, 0) for a in GAME.legal_actions(state))
    with pytest.raises(IllegalAction, match="no empty slot"):
        GAME.apply(state, PutInSlot(0, 0, 0))


def test_a_full_chamber_is_refused(market):
    # Spider Nest: 4 slots, a printed monster; three tokens fill it, then nothing
    # more goes in, not even a secret passage (four elements at most).
    state, seat = market
    lay_chamber(state, seat, 0, 1, "spider-nest")
    for name in ("goblin", "spike-pit", "treasure-chest"):
        state.pending = [token_index(state, name), token_index(state, "ogre")]
        checked_apply(GAME, state, PutInSlot(0, 0, 1))
    state.pending = [token_index(state, "ogre"), token_index(state, "secret-passage")]
    legal = GAME.legal_actions(state)
    assert not any((a.row, a.col) == (0, 1) for a in legal)
    with pytest.raises(IllegalAction, match="no empty slot"):
        GAME.apply(state, PutInSlot(0, 0, 1))
    with pytest.raises(IllegalAction, match="already holds 4 elements"):
        GAME.apply(state, PutOnEdge(1, 0, 1, "E"))


def test_a_secret_passage_counts_toward_the_four(market):
    # Pillared Hall: 4 empty slots. Three tokens and a passage make four elements.
    state, seat = market
    lay_chamber(state, seat, 0, 2, "pillared-hall")
    for name in ("goblin", "goblin", "goblin"):
        state.pending = [token_index(state, name), token_index(state, "ogre")]
        checked_apply(GAME, state, PutInSlot(0, 0, 2))
    state.pending = [token_index(state, "secret-passage"), token_index(state, "ogre")]
    checked_apply(GAME, state, PutOnEdge(0, 0, 2, "W"))
    assert not any((a.row, a.col) == (0, 2) for a in GAME.legal_actions(state))


def test_a_secret_passage_must_be_on_an_edge(market):
    state, seat = market
    lay_chamber(state, seat, 0, 3, "mine-shaft")
    state.pending = [token_index(state, "secret-passage"), token_index(state, "goblin")]
    with pytest.raises(IllegalAction, match="goes on an edge"):
        GAME.apply(state, PutInSlot(0, 0, 3))
    with pytest.raises(IllegalAction, match="goes in a slot, not on an edge"):
        GAME.apply(state, PutOnEdge(1, 0, 3, "N"))
    # Any edge, even one leading outside the dungeon (column 3's east edge).
    assert PutOnEdge(0, 0, 3, "E") in GAME.legal_actions(state)
    checked_apply(GAME, state, PutOnEdge(0, 0, 3, "E"))
    assert state.boards[seat].chambers[3].passages == {"E"}
    state.pending = [token_index(state, "secret-passage"), token_index(state, "goblin")]
    with pytest.raises(IllegalAction, match="already holds a secret-passage"):
        GAME.apply(state, PutOnEdge(0, 0, 3, "E"))


def test_tokens_need_a_chamber_card(market):
    state, seat = market
    state.pending = [token_index(state, "goblin"), token_index(state, "ogre")]
    assert all(a.row == 0 for a in GAME.legal_actions(state))  # only row 0 is built in year 1
    with pytest.raises(IllegalAction, match="no chamber card at row 2"):
        GAME.apply(state, PutInSlot(0, 2, 2))


def test_a_token_that_fits_nowhere_is_discarded(market):
    state, seat = market
    for col in range(4):
        lay_chamber(state, seat, 0, col, "wyrms-den")  # both slots printed
    offer = next(
        o
        for o in state.market
        if all(state.table.tokens[t].element != "secret-passage" for t in o.tokens)
    )
    discarded = state.discarded
    checked_apply(GAME, state, Buy(state.table.markets[offer.card].id, offer.row))
    assert state.pending == []
    assert state.discarded == discarded + len(offer.tokens)
    assert GAME.to_move(state) != seat  # the visit is over: the other player's turn


def test_passing_claims_a_challenge_and_the_leftmost_priority_slot(catalog):
    state = new_game(catalog, 3, seed=9)
    to_improvement(state)
    passes = []
    while state.phase == IMPROVE:
        seat = GAME.to_move(state)
        claim = next(a for a in GAME.legal_actions(state) if type(a) is PassClaiming)
        checked_apply(GAME, state, claim)
        passes.append(seat)
        assert state.boards[seat].challenges[-1].id == claim.challenge_id
    assert state.priority == passes  # the order of passing is the new priority track
    # Cleanup: a new market, new challenges, new hands, year 2.
    assert state.year == 2 and state.phase == CONSTRUCT
    assert len(state.display) == 4
    assert all(len(b.hand) == 5 for b in state.boards)
    assert len({o.card for o in state.market}) == 4


def test_year_4_has_no_challenge_cards(catalog):
    state = new_game(catalog, 2, seed=10)
    first_legal_until(state, lambda s: s.year == 4 and s.phase == IMPROVE)
    assert state.display == []
    passes = [a for a in GAME.legal_actions(state) if type(a) in (PassClaiming, Pass)]
    assert passes == [Pass()]
    assert all(len(b.challenges) == 3 for b in state.boards)


# --- final scoring in the game ----------------------------------------------------------


def test_final_priority_scores_9_6_3_and_nothing_after(catalog):
    state, _, _ = play(GAME, catalog, ["random"] * 5, seed=11)
    sheets = state.sheets()
    by_position = [sheets[seat].priority_points for seat in state.priority]
    assert by_position == [9, 6, 3, 0, 0]


def test_goal_points_follow_the_goal_places(catalog):
    state, _, _ = play(GAME, catalog, ["greedy"] * 4, seed=12)
    scoring = state.table.scoring
    counts = [
        sum(scoring.element_count(b.dungeon(), e) for e in state.goal.elements)
        for b in state.boards
    ]
    ranked = sorted(
        (s for s in range(4) if counts[s]), key=lambda s: (-counts[s], state.priority.index(s))
    )
    points = {seat: p for seat, p in zip(ranked, (15, 9, 5), strict=False)}
    assert [sheet.goal_points for sheet in state.sheets()] == [points.get(s, 0) for s in range(4)]


def test_a_tie_for_the_win_goes_to_the_higher_priority(catalog):
    state, _, _ = play(GAME, catalog, ["random"] * 3, seed=13)
    state.final = [state.final[0]] * 3
    assert GAME.winners(state) == [state.priority[0]]


def test_final_sheets_score_the_dungeon_through_the_scoring_module(catalog):
    state, record, _ = play(GAME, catalog, ["greedy", "random"], seed=14)
    for seat, sheet in enumerate(state.sheets()):
        board = state.boards[seat]
        assert sheet.paths == board.path(state.table)
        assert sheet.challenge_points == sum(
            c.points
            for c in board.challenges
            if state.table.scoring.condition_holds(c.condition, board.dungeon())
        )
        assert record.scores[seat] == sheet.total
    assert record.extra["mode"] == "multiplayer"


# --- solo ---------------------------------------------------------------------------------


def solo_at_market(catalog, gold, seed=20, year=1):
    """A solo game at the improvement of `year`, the rival card showing `gold`."""
    state = new_game(catalog, 1, seed=seed)
    first_legal_until(state, lambda s: s.year == year and s.phase == CONSTRUCT)
    state.rival.revealed[-1] = replace(state.rival.card, gold=gold)
    to_improvement(state)
    return state


def test_solo_more_gold_visits_the_market(catalog):
    state = solo_at_market(catalog, gold=0)
    assert state.boards[0].gold > 0
    kinds = {a.verb for a in GAME.legal_actions(state)}
    assert kinds == {"buy", "pass"}
    tokens, display = len(state.rival.tokens), list(state.display)
    # Buy a cheap row, still ahead: the player may visit again.
    offer = min(state.market, key=lambda o: o.cost)
    state.boards[0].gold = offer.cost + 1
    checked_apply(GAME, state, Buy(state.table.markets[offer.card].id, offer.row))
    first_legal_until(state, lambda s: not s.pending)
    assert state.boards[0].gold == 1
    assert "buy" in {a.verb for a in GAME.legal_actions(state)} or not any(
        o.cost <= 1 for o in state.market
    )
    assert len(state.rival.tokens) == tokens and state.display == display


def test_solo_not_more_gold_the_rival_collects_and_the_lowest_challenge_goes(catalog):
    state = new_game(catalog, 1, seed=21)
    state.rival.revealed[-1] = replace(state.rival.card, gold=30)
    display = [state.table.challenges[i] for i in state.display]
    lowest = min(range(3), key=lambda k: (display[k].points, k))
    card_tokens = state.rival.card.tokens
    to_improvement(state)
    assert [t.element for t in state.rival.tokens] == list(card_tokens)
    assert challenge_ids(state) == [c.id for k, c in enumerate(display) if k != lowest]
    assert {a.verb for a in GAME.legal_actions(state)} == {"pass"}  # no market visit
    with pytest.raises(IllegalAction, match="pass"):
        GAME.apply(state, Buy(state.table.markets[state.market[0].card].id, state.market[0].row))


def test_solo_falling_behind_after_buying_lets_the_rival_collect(catalog):
    state = solo_at_market(catalog, gold=0, seed=22)
    state.rival.revealed[-1] = replace(state.rival.card, gold=2)
    state.boards[0].gold = 5
    offer = next(o for o in state.market if 3 <= o.cost <= 5)
    checked_apply(GAME, state, Buy(state.table.markets[offer.card].id, offer.row))
    # 5 - cost <= 2: no longer more gold than the card: the rival collects now.
    assert len(state.rival.tokens) == len(state.rival.card.tokens)
    assert len(state.display) == 2
    first_legal_until(state, lambda s: not s.pending)
    assert {a.verb for a in GAME.legal_actions(state)} == {"pass"}


def test_solo_pass_in_years_1_to_3_zeroes_gold_and_the_rival_takes_the_market(catalog):
    state = solo_at_market(catalog, gold=0, seed=23)
    assert state.boards[0].gold > 0
    remaining = [t for o in state.market for t in o.tokens]
    claim = next(a for a in GAME.legal_actions(state) if type(a) is PassClaiming)
    checked_apply(GAME, state, claim)
    assert state.boards[0].gold == 0
    assert state.boards[0].challenges[-1].id == claim.challenge_id
    assert sorted(t.id for t in state.rival.tokens) == sorted(
        state.table.tokens[t].id for t in remaining
    )
    # cleanup: year 2 begins with a new rival card, market and challenges
    assert state.year == 2 and state.rival.year == 2 and len(state.display) == 3


def test_solo_pass_in_year_4_keeps_the_gold(catalog):
    state = solo_at_market(catalog, gold=0, seed=24, year=4)
    gold = state.boards[0].gold
    assert gold > 0
    remaining = sum(len(o.tokens) for o in state.market)
    tokens = len(state.rival.tokens)
    assert GAME.legal_actions(state)[-1] == Pass()
    checked_apply(GAME, state, Pass())
    assert GAME.is_over(state)
    assert state.boards[0].gold == gold
    assert len(state.rival.tokens) == tokens + remaining
    # final gold against the card's number (0 here): most gold scores 9
    assert state.sheets()[0].priority_points == 9


def test_solo_final_gold_and_goal_ties_go_to_the_rival(catalog):
    state, _, _ = play(GAME, catalog, ["random"], seed=25)
    rival, board = state.rival, state.boards[0]
    state.final = None  # score the changed state again
    board.gold = rival.card.gold
    assert state.sheets()[0].priority_points == 6
    board.gold = rival.card.gold + 1
    assert state.sheets()[0].priority_points == 9
    # Goal Monster Menagerie: the player's monsters against the rival's piles.
    state.goal = next(g for g in state.table.goals if g.id == "monster-menagerie")
    board.chambers[0] = board.chambers[0]._replace(elements=("monster",))
    board.chambers[1] = board.chambers[1]._replace(elements=("monster", "monster"))
    for cell in range(2, 16):
        board.chambers[cell] = board.chambers[cell]._replace(elements=())
    goblin = next(t for t in state.table.tokens if t.id == "goblin")
    rival.chambers = []
    rival.tokens = [goblin] * 3
    assert state.sheets()[0].goal_points == 9  # 3 against 3: the tie goes to the rival
    rival.tokens = [goblin] * 2
    assert state.sheets()[0].goal_points == 15
    rival.tokens = [goblin] * 4
    assert state.sheets()[0].goal_points == 9
    for cell in range(2):
        board.chambers[cell] = board.chambers[cell]._replace(elements=())
    rival.tokens = []
    assert state.sheets()[0].goal_points == 0  # no monster at all: no goal score


def test_solo_record_and_winner(catalog):
    for difficulty in ("normal", "hard"):
        state, record, _ = play(
            GAME, catalog, ["greedy"], seed=26, options={"difficulty": difficulty}
        )
        extra = record.extra
        assert extra["mode"] == "solo" and extra["difficulty"] == difficulty
        assert extra["player_total"] == record.scores[0]
        assert extra["rival_total"] == state.rival.reputation().total
        assert extra["margin"] == extra["player_total"] - extra["rival_total"]
        assert extra["won"] == (extra["margin"] > 0)
        assert record.winners == ([0] if extra["won"] else [])
        assert len(extra["rival_cards"]) == 4
        deck = {c.difficulty for c in state.rival.revealed + state.rival.deck}
        assert deck == ({"plain", "diamond"} if difficulty == "normal" else {"plain", "legendary"})


# --- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_multiplayer_games_finish(catalog, players, bot):
    state, record, actions = play(GAME, catalog, [bot] * players, seed=100 + players)
    assert GAME.is_over(state) and not record.limit
    assert state.year == 4
    assert all(all(c >= 0 for c in b.cards) for b in state.boards)
    assert all(len(b.challenges) == 3 for b in state.boards)
    assert len(record.winners) == 1
    assert sorted(state.priority) == list(range(players))


@pytest.mark.parametrize("difficulty", ["normal", "hard"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_solo_games_finish(catalog, difficulty, bot):
    state, record, _ = play(
        GAME, catalog, [bot], seed=7, options={"solo": "true", "difficulty": difficulty}
    )
    assert GAME.is_over(state) and not record.limit
    assert all(c >= 0 for c in state.boards[0].cards)
    assert len(state.boards[0].challenges) == 3
    assert state.rival.year == 4 and len(state.rival.deck) == 2


def test_legal_actions_are_never_empty_before_the_end(catalog):
    for seed in range(6):
        state = new_game(catalog, 1 + seed % 5, seed=seed)
        bot = RandomBot(seed)
        while not GAME.is_over(state):
            actions = GAME.legal_actions(state)
            assert actions
            GAME.apply(state, bot.rng.choice(actions))
        assert GAME.legal_actions(state) == [] and GAME.to_move(state) is None


def test_the_same_seed_plays_the_same_game(catalog):
    for bots in (["greedy"], ["greedy", "random", "greedy"]):
        _, one, actions_one = play(GAME, catalog, bots, seed=31)
        _, two, actions_two = play(GAME, catalog, bots, seed=31)
        assert actions_one == actions_two and one.to_json() == two.to_json()
    _, other, _ = play(GAME, catalog, ["greedy"], seed=32)
    assert other.to_json() != one.to_json()


def test_a_logged_game_replays(catalog):
    options = {"solo": "true", "difficulty": "hard"}
    state, record, actions = play(GAME, catalog, ["greedy"], seed=40, options=options)
    log = log_of(
        GAME, "stonespine-architects", catalog.version, ["greedy"], 40, options, actions, record
    )
    assert GAME.scores(replay(GAME, catalog, log)) == record.scores


def test_copies_are_independent(catalog):
    state = new_game(catalog, 2, seed=41)
    to_improvement(state)
    seat = GAME.to_move(state)
    snapshot = (
        list(state.market),
        [b.gold for b in state.boards],
        list(state.boards[seat].chambers),
    )
    trial = state.copy()
    bot = GreedyBot(0)
    while not GAME.is_over(trial):
        GAME.apply(trial, bot.choose(GAME, trial))
    assert (
        list(state.market),
        [b.gold for b in state.boards],
        list(state.boards[seat].chambers),
    ) == snapshot
    assert state.phase == IMPROVE and state.year == 1


def test_the_heuristic_is_the_provisional_score_and_more(catalog):
    state = new_game(catalog, 2, seed=42)
    assert GAME.heuristic(state, 0) == 0
    lay_chamber(state, 0, 0, 1, "mossy-stair")  # NS, 2 stars, 0 gold
    value = GAME.heuristic(state, 0)
    assert value >= 2
