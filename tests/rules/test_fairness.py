"""Fair look-ahead for the piles a game shuffles itself in `determinize`.

Two states that differ only in the order of piles the seat cannot see (Gem
Rush: the gem deck, the room stack and the Chaos skill deck; Stonespine: the
token piles, the market, challenge and rival decks) look the same from the
seat, so a bot with the same seed must imagine the same piles and decide the
same. The positions are those of seeded random games; among them are ones
where greedy and mcts chose differently while the piles were shuffled from
their real order (the hidden order decided), so these tests depend on it.
"""

from __future__ import annotations

import random

import pytest

from protopress.components.builtin import builtin_catalog_path
from protopress.components.loader import load_catalog
from protopress.rules.bots import GreedyBot, RandomBot
from protopress.rules.information import seat_copy
from protopress.rules.mcts import Budget, MctsBot
from protopress.rules.registry import game_for

CASES = {  # game, players, options, seed of the random game
    "gem-rush-crisis": ("gem-rush", 4, {"mode": "crisis"}, 2),
    "stonespine-solo": ("stonespine-architects", 1, {"solo": True}, 4),
    "stonespine": ("stonespine-architects", 2, {}, 1),
}
# Decisions of those games where, with the piles shuffled from their real order,
# greedy (Gem Rush 97, 111) or mcts:10 (the others) chose differently in the twin.
DECISIVE = {"gem-rush-crisis": (23, 29, 97, 111), "stonespine-solo": (7, 21, 24, 48)}


def setup(case: str):
    game_id, players, options, seed = CASES[case]
    game = game_for(game_id)
    catalog = load_catalog(builtin_catalog_path(game_id))
    return game, game.setup(catalog, players, random.Random(seed), game.spec.parse_options(options))


def piles(case: str, state) -> dict[str, list]:
    """The piles of case that the game shuffles itself, by name (the real lists)."""
    if case.startswith("gem-rush"):
        return {"deck": state.deck, "stack": state.stack, "skill_deck": state.skill_deck}
    found = {f"piles[{element}]": pile for element, pile in sorted(state.piles.items())}
    found |= {"market_deck": state.market_deck, "challenge_deck": state.challenge_deck}
    if state.rival is not None:
        found["rival.deck"] = state.rival.deck
    return found


def other_hidden_order(case: str, state, seed: int):
    """A copy that looks the same from the seat: every pile of `piles` reversed and
    shuffled (what the seat sees, and which cards each pile holds, are untouched)."""
    twin = state.copy()
    rng = random.Random(seed)
    for pile in piles(case, twin).values():
        reordered = pile[::-1]
        rng.shuffle(reordered)
        pile[:] = reordered  # in place: twin's lists are its own (copy() copies them)
    if hasattr(twin, "touch"):
        twin.touch()
    return twin


def positions(case: str, steps=None):
    """(game, state, step) at the given steps of a seeded random game (step n: after
    n actions), or at every seventh one with a real choice; never where Gem Rush
    shows cards on top of the deck (those the seat knows)."""
    game, state = setup(case)
    walker = RandomBot(4)
    for step in range(max(steps) + 1 if steps else 3000):
        if game.is_over(state):
            break
        real_choice = len(game.legal_actions(state)) > 1 and not getattr(state, "peeked", ())
        if (step in steps if steps else step % 7 == 3) and real_choice:
            yield game, state, step
        game.apply(state, walker.choose(game, state))


@pytest.mark.parametrize("case", sorted(CASES))
def test_seat_copies_of_two_hidden_orders_imagine_the_same_piles(case):
    checked = 0
    for game, state, step in positions(case):
        checked += 1
        seat = game.to_move(state)
        twin = other_hidden_order(case, state, step)
        assert piles(case, state) != piles(case, twin)  # the hidden orders differ
        imagined = seat_copy(game, state, seat, random.Random(step))
        imagined_twin = seat_copy(game, twin, seat, random.Random(step))
        assert piles(case, imagined) == piles(case, imagined_twin)
    assert checked > 5


@pytest.mark.parametrize("case", sorted(DECISIVE))
def test_bots_decide_the_same_whatever_the_order_of_the_piles(case):
    checked = []
    for game, state, step in positions(case, DECISIVE[case]):
        checked.append(step)
        twin = other_hidden_order(case, state, step)
        for make in (GreedyBot, lambda seed: MctsBot(seed, Budget(playouts=10))):
            assert make(step).choose(game, state) == make(step).choose(game, twin), step
    assert tuple(checked) == DECISIVE[case]


def hidden(case: str, state) -> dict[str, list]:
    """Stonespine's piles of `piles` and its chamber deck (solo: no hands to deal it with)."""
    return piles(case, state) | {"deck": state.deck}


@pytest.mark.parametrize("case", ["stonespine-solo", "stonespine"])
def test_stonespine_lays_out_a_hidden_pile_alike_whenever_and_wherever_it_is_read(case):
    """Stonespine's seat copy shuffles a hidden pile only when it is first read: the
    pile must then be the same whatever the real order, whichever pile was read
    first, and in every copy of the seat copy, read before or after copying."""
    checked = 0
    for game, state, step in positions(case):
        seat = game.to_move(state)
        twin = other_hidden_order(case, state, step)
        twin.deck = twin.deck[::-1]  # the chamber deck in another order too
        imagined = seat_copy(game, state, seat, random.Random(step))
        assert imagined.unshuffled  # nothing laid out yet
        early = imagined.copy()
        names = list(hidden(case, imagined))  # reads (lays out) every pile, in one order
        laid = hidden(case, imagined)
        imagined_twin = seat_copy(game, twin, seat, random.Random(step))
        backwards = {}
        for name in reversed(names):  # the twin's piles read in the other order, one by one
            if name.startswith("piles["):
                backwards[name] = imagined_twin.pile(name[len("piles[") : -1])
            elif name == "rival.deck":
                backwards[name] = imagined_twin.rival.deck
            else:
                backwards[name] = getattr(imagined_twin, name)
            assert name not in imagined_twin.unshuffled
        assert not imagined_twin.unshuffled
        assert backwards == laid
        assert hidden(case, early) == laid  # a copy made before any read
        assert hidden(case, imagined.copy()) == laid
        assert not imagined.unshuffled
        assert hidden(case, state) != laid  # the real piles are untouched (and hidden)
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("case", ["stonespine-solo", "stonespine"])
def test_a_decision_judged_in_sight_reads_nothing_hidden(case):
    """Stonespine's greedy bot judges a decision on the real state, without a seat
    copy, where `judged_in_sight` says its values read only what the seat sees:
    there they are the same on the state, on a state with every hidden pile (the
    chamber deck too) in another order and on a seat copy. Solo, the decisions it
    leaves to the copy read hidden piles (the tokens the rival would collect, its
    next card): some of their values differ between the two orders."""
    game, state = setup(case)
    walker = RandomBot(8)
    in_sight, hidden_read = 0, 0
    step = 0
    while not game.is_over(state):
        seat, actions = game.to_move(state), game.legal_actions(state)
        if len(actions) > 1:
            twin = other_hidden_order(case, state, step)
            twin.deck = twin.deck[::-1]
            values = game.bot_support.action_values(game, state, seat, actions)
            twins = game.bot_support.action_values(game, twin, seat, actions)
            if game.judged_in_sight(state, seat):
                imagined = seat_copy(game, state, seat, random.Random(step))
                assert (
                    values == twins == game.bot_support.action_values(game, imagined, seat, actions)
                ), step
                in_sight += 1
            elif values != twins:
                hidden_read += 1
        game.apply(state, walker.choose(game, state))
        step += 1
    assert in_sight > 20
    assert hidden_read > 0 or not state.table.solo
