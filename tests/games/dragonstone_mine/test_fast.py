"""Copy-on-write towers, cached tower scores and the greedy look-ahead's fast path
agree with the rules by the book: on thousands of seeded random positions of
every level, a copy's changes never reach the original (nor the original's its
copies), the cached scores equal scoring each tower afresh, and action_values
equals copy + apply + heuristic per action."""

import copy
import random

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.dragonstone_mine import effects as fx
from protopress.games.dragonstone_mine import lookahead
from protopress.games.dragonstone_mine import rules as rules_module
from protopress.games.dragonstone_mine.actions import PlayCard
from protopress.games.dragonstone_mine.effects import SeatDecision
from protopress.games.dragonstone_mine.lookahead import CHOICES_ALIKE, _card_group
from protopress.games.dragonstone_mine.rules import (
    DragonstoneMine,
    _progress,
    _tower_values,
    complete,
    points,
    tower_complete,
)
from protopress.games.dragonstone_mine.towers import can_swap, swaps_in, tower_after
from protopress.games.dragonstone_mine.watch import PileWatch, TowerWatch
from protopress.rules.bots import greedy_action, reference_values
from protopress.rules.information import seat_copy

GAME = DragonstoneMine()


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("dragonstone-mine"))


def fresh_scores(state):
    return [points(GAME.tally(state, seat), state.rules.points) for seat in range(state.players)]


def snapshot(state):
    return copy.deepcopy((state.spires, state.loose, state.bag, state.hands, state.deck))


@pytest.mark.parametrize("level", ["smiley", "1", "2"])
def test_copies_and_cached_scores_match_the_book(catalog, level):
    rng = random.Random(level)
    positions = 0
    for _ in range(3 if level == "smiley" else 6):  # smiley games are long
        players = rng.randint(2, 4)
        state = GAME.setup(catalog, players, random.Random(rng.getrandbits(32)), {"level": level})
        while not GAME.is_over(state):
            before = snapshot(state)
            scores_before = GAME.scores(state)
            trials = [state.copy() for _ in range(2)]
            for trial in trials:  # each copy plays on a little, at random
                for _ in range(rng.randint(1, 4)):
                    if GAME.is_over(trial):
                        break
                    GAME.apply(trial, rng.choice(GAME.legal_actions(trial)))
                assert GAME.scores(trial) == fresh_scores(trial)
                for seat in range(players):  # the one-pass values, and the cache
                    book = (fresh_scores(trial)[seat], _progress(trial, seat))
                    assert _tower_values(trial, seat) == book
                    assert trial.tower_points[seat][0] in (
                        None,
                        (fresh_scores(trial)[seat], _progress(trial, seat)),
                    )
            assert snapshot(state) == before and GAME.scores(state) == scores_before
            GAME.apply(state, rng.choice(GAME.legal_actions(state)))
            assert GAME.scores(state) == fresh_scores(state)
            for trial in trials:  # the original's move reaches no copy
                assert GAME.scores(trial) == fresh_scores(trial)
            positions += 1
    assert positions > 1000


@pytest.mark.parametrize("level", ["smiley", "1", "2"])
def test_action_values_equal_copy_apply_heuristic(catalog, level):
    """The greedy look-ahead's fast path gives the very floats of the book's, on
    thousands of positions, and does take its shortcut on many of them."""
    rng = random.Random(f"values {level}")
    positions = shortcuts = cards = choices = 0
    while positions < 2000:
        players = rng.randint(2, 4)
        state = GAME.setup(catalog, players, random.Random(rng.getrandbits(32)), {"level": level})
        while not GAME.is_over(state) and positions < 2000:
            actions = GAME.legal_actions(state)
            seat = GAME.to_move(state)
            if len(actions) > 1:
                base = seat_copy(GAME, state, seat, random.Random(rng.getrandbits(32)))
                before, draws = snapshot(base), (base.chance.tape, base.chance.at)
                fast = lookahead.action_values(GAME, base, seat, actions)
                assert snapshot(base) == before  # the position judged is left as it was
                assert (base.chance.tape, base.chance.at) == draws  # and so are its dice to come
                assert fast == reference_values(GAME, base, seat, actions)
                towers = [tower_after(base, action) for action in actions]
                groups = [_card_group(base.decision, action) for action in actions]
                shortcuts += sum(tower is not None for tower in towers) > 1
                cards += sum(group is not None for group in groups) > 1
                choices += base.decision.kind in CHOICES_ALIKE
                positions += 1
            GAME.apply(state, rng.choice(actions))
    assert shortcuts > 150
    assert cards > 150 or level == "smiley"  # smiley games have no cards
    assert choices > 100 or level == "smiley"  # nor steals


def test_tower_after_is_the_tower_the_action_leaves(catalog):
    rng = random.Random(5)
    checked = 0
    for _ in range(20):
        state = GAME.setup(catalog, 3, random.Random(rng.getrandbits(32)), {"level": "2"})
        while not GAME.is_over(state):
            seat = GAME.to_move(state)
            for action in GAME.legal_actions(state):
                tower = tower_after(state, action)
                if tower is not None:
                    trial = state.copy()
                    GAME.apply(trial, action)
                    assert tower == trial.spires[seat]
                    checked += 1
            GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    assert checked > 1000


def test_a_watch_notes_reads_of_its_seat_only():
    towers = [[["red"]], [["blue"]], [[]]]
    watch = TowerWatch(towers, 1)
    assert watch[0] == [["red"]] and watch[2] == [[]] and len(watch) == 3
    assert not watch.read
    assert watch[-2] == [["blue"]] and watch.read
    for reads in (lambda w: w[1], lambda w: list(w), lambda w: w[0:2]):
        watch = TowerWatch(towers, 1)
        reads(watch)
        assert watch.read


def test_questions_asked_through_a_watch_are_answers_not_reads(catalog):
    state = GAME.setup(catalog, 2, random.Random(1), {"level": "2"})
    full = [["red"] * 5 for _ in state.rules.capacities]
    state.spires = TowerWatch([full, [[] for _ in full]], 0)
    assert tower_complete(state, 0) and not tower_complete(state, 1)
    watch = state.spires
    assert not watch.read and watch.answers == [(complete, True)]
    caps = state.rules.capacities
    assert watch.same_answers(full, caps)
    assert not watch.same_answers([["red"] * 4, *full[1:]], caps)  # one spire short: not capped


def test_a_pile_watch_notes_looks_at_its_cards_not_its_size():
    seen = [False]
    pile = PileWatch(["a", "b"], seen)
    pile.append("c")
    pile.insert(0, "d")
    assert len(pile) == 4 and pile and not seen[0]
    for look in (
        lambda p: p[0],
        lambda p: p.pop(),
        lambda p: list(p),
        lambda p: "a" in p,
        lambda p: p + [],
        lambda p: p == ["a"],
        lambda p: p.index("a"),
        lambda p: p.remove("a"),
        lambda p: sorted(p),
    ):
        seen = [False]
        look(PileWatch(["a", "b"], seen))
        assert seen[0]


def test_legal_actions_listed_once_per_decision_equal_a_fresh_list(catalog):
    rng = random.Random(8)
    for level in ("smiley", "1", "2"):
        state = GAME.setup(catalog, 3, random.Random(rng.getrandbits(32)), {"level": level})
        while not GAME.is_over(state):
            actions = GAME.legal_actions(state)
            fresh = fx.DECISIONS[state.decision.kind][0](state, state.decision)
            assert actions == fresh
            actions.append(("not", "legal"))  # the caller's list is its own
            assert GAME.legal_actions(state) == fresh
            assert state.copy().legal is None
            GAME.apply(state, rng.choice(fresh))


def test_a_look_ahead_that_reads_the_tower_falls_back_to_the_book(catalog, monkeypatch):
    """A red gem that makes its own player give a gem back (a return step aimed at
    the player, which reads their tower directly): the frames after stacking it
    read the tower, and every other stacking is then judged by the book."""
    reads = []
    watching = fx.apply_watching

    def noted(state, action):
        watch = watching(state, action)
        reads.append(watch.read)
        return watch

    monkeypatch.setattr(fx, "apply_watching", noted)
    rng = random.Random(21)
    positions = 0
    for _ in range(12):
        state = GAME.setup(catalog, 3, random.Random(rng.getrandbits(32)), {"level": "2"})
        rules = state.rules
        state.rules = rules._replace(
            colour_rules={**rules.colour_rules, "red": fx.steps_of([{"op": "return"}])}
        )
        while not GAME.is_over(state):
            actions = GAME.legal_actions(state)
            seat = GAME.to_move(state)
            if len(actions) > 1:
                base = seat_copy(GAME, state, seat, random.Random(rng.getrandbits(32)))
                assert lookahead.action_values(GAME, base, seat, actions) == reference_values(
                    GAME, base, seat, actions
                )
                positions += 1
            GAME.apply(state, rng.choice(actions))
    assert positions > 500 and any(reads) and not all(reads)


def test_a_heuristic_that_looks_at_the_cards_gets_no_shared_value(catalog, monkeypatch):
    """Were the heuristic to value one card above another, taking or discarding
    different cards would differ: the watched piles see the look, and each
    action of the group is judged on its own (the same floats as the book)."""
    prospects = rules_module._prospects

    def choosy(state, seat):
        return prospects(state, seat) + 2 * ("mother-lode" in state.hands[seat])

    monkeypatch.setattr(rules_module, "_prospects", choosy)
    rng = random.Random(22)
    differing = 0
    for _ in range(6):
        state = GAME.setup(catalog, 3, random.Random(rng.getrandbits(32)), {"level": "2"})
        while not GAME.is_over(state):
            actions = GAME.legal_actions(state)
            seat = GAME.to_move(state)
            if len(actions) > 1 and state.decision.kind in ("action", "draw"):
                base = seat_copy(GAME, state, seat, random.Random(rng.getrandbits(32)))
                fast = lookahead.action_values(GAME, base, seat, actions)
                assert fast == reference_values(GAME, base, seat, actions)
                differing += len(set(fast)) > 1
            GAME.apply(state, rng.choice(actions))
    assert differing > 20


def whole(state):
    """Everything a position holds that play can reach, and its dice to come."""
    chance = state.chance
    return (
        snapshot(state),
        state.discards, state.face_up, state.pending, state.decision, state.held,
        state.paid, state.final, state.extra, state.over, state.ended_by,
        state.turns, state.used, GAME.scores(state), GAME.legal_actions(state),
        chance.at, chance.tape.words[chance.at : chance.at + 8] if chance.at < len(chance.tape.words) else [],
    )  # fmt: skip


@pytest.mark.parametrize("level", ["1", "2"])
def test_a_rollout_step_reaches_what_applying_the_greedy_move_does(catalog, level):
    """The search's playout step (the look-ahead's trial kept) gives the position
    that applying greedy_action's move gives, with the same draws of the bot and of
    the dice, on thousands of seat copies; and both play on alike."""
    rng = random.Random(f"step {level}")
    positions = kept = 0
    while positions < 2000:
        players = rng.randint(2, 4)
        state = GAME.setup(catalog, players, random.Random(rng.getrandbits(32)), {"level": level})
        while not GAME.is_over(state) and positions < 2000:
            actions = GAME.legal_actions(state)
            if len(actions) > 1:
                seat, seed, real = GAME.to_move(state), rng.getrandbits(32), snapshot(state)
                world = seat_copy(GAME, state, seat, random.Random(seed))
                twin = seat_copy(GAME, state, seat, random.Random(seed))
                bot, bot_twin = random.Random(seed), random.Random(seed)
                after = lookahead.playout_step(GAME, world, bot, GAME.legal_actions(world))
                GAME.apply(twin, greedy_action(GAME, twin, bot_twin))
                kept += after is not world
                assert whole(after) == whole(twin)
                assert bot.getstate() == bot_twin.getstate()
                for _ in range(6):  # and they go on alike: the same dice, the same towers
                    if GAME.is_over(twin):
                        break
                    move = rng.choice(GAME.legal_actions(twin))
                    GAME.apply(after, move)
                    GAME.apply(twin, move)
                    assert whole(after) == whole(twin)
                assert snapshot(state) == real  # towers shared with the copies are untouched
                positions += 1
            GAME.apply(state, rng.choice(actions))
    assert kept > 1000


def test_a_tower_changed_in_a_spire_or_two_scores_as_the_book_says(catalog):
    """TowerChange.after against tally + points + progress, on 20,000 random towers of
    every fullness with one or two spires changed (Rainbow From Above won and lost)."""
    from protopress.games.dragonstone_mine.scoring import TowerChange

    rng = random.Random(31)
    rules = GAME.setup(catalog, 2, random.Random(1), {"level": "2"}).rules
    caps, colours = rules.capacities, rules.colours
    rainbows = 0

    def spire(cap, full):
        height = cap if rng.random() < full else rng.randrange(cap)
        palette = rng.choice([rng.sample(colours, 1), rng.sample(colours, 2), colours])
        return [rng.choice(palette) for _ in range(height)]

    def book(tower):
        counts = rules_module.tally(tower, 0, caps, rules.points["stack_size"], len(colours))
        trial = GAME.setup(catalog, 2, random.Random(1), {"level": "2"})
        trial.spires[0] = tower
        return points(counts, rules.points), _progress(trial, 0), counts.rainbow_from_above

    for _ in range(20_000):
        full = rng.random()
        before = [spire(cap, full) for cap in caps]
        changed = rng.sample(range(len(caps)), rng.choice([1, 2]))
        tower = list(before)
        for i in changed:
            tower[i] = spire(caps[i], full)
        score, progress, _ = book(before)
        expected = book(tower)
        assert TowerChange(rules, before, (score, progress)).after(tower, changed) == expected[:2]
        rainbows += expected[2]
    assert rainbows > 300


def test_the_quick_questions_agree_with_the_lists_they_stand_for(catalog):
    """can_swap against the swaps listed, and the cards an action decision offers to
    play (their payability remembered by tower) against payable asked afresh, on
    5,000 random towers; a tower changed in place is not answered from memory."""
    rng = random.Random(47)
    state = GAME.setup(catalog, 2, random.Random(1), {"level": "2"})
    caps, colours = state.rules.capacities, state.rules.colours
    cards = state.rules.cards
    swaps = payable_hands = 0
    for _ in range(5_000):
        palette = rng.sample(colours, rng.choice([1, 2, len(colours)]))
        tower = [[rng.choice(palette) for _ in range(rng.randrange(cap + 1))] for cap in caps]
        assert can_swap(tower, caps) == bool(swaps_in(tower))
        swaps += can_swap(tower, caps)
        state.spires[0] = tower
        state.hands[0] = rng.sample(sorted(cards), 6)
        offered = {
            action.card
            for action in rules_module._action_legal(state, SeatDecision("action", 0))
            if type(action) is PlayCard
        }
        assert offered == {c for c in state.hands[0] if rules_module.payable(tower, cards[c].cost)}
        if offered:
            payable_hands += 1
            tower[:] = [[] for _ in caps]  # nothing left to pay with
            listed = rules_module._action_legal(state, SeatDecision("action", 0))
            plays = [a for a in listed if type(a) is PlayCard]
            assert plays == [PlayCard(c) for c in state.hands[0] if not cards[c].cost]
    assert 1_000 < swaps < 4_900
    assert payable_hands > 1_000
