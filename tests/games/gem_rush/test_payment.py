"""Gem Rush payments: the rulebook's worked examples and harder cases."""

import json
import random
from collections import Counter
from itertools import combinations, product

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush import skills
from protopress.games.gem_rush.payment import can_pay, gem_set, minimal_payments, recommend


def pay(*args):
    result = CliRunner().invoke(cli, ["pay", "--json", *args])
    return result.exit_code, (
        json.loads(result.stdout) if result.exit_code in (0, 1) else result.output
    )


def hand(*cards):
    return [tuple(card.split("+")) for card in cards]


def test_rulebook_obsidian_permafrost_electrum():
    # one card Obsidian & Electrum, one Permafrost & Soulstone: the Soulstone is wasted
    code, answer = pay("--cost", "obsidian,permafrost,electrum",
                       "--hand", "obsidian+electrum", "--hand", "permafrost+soulstone")  # fmt: skip
    assert code == 0
    assert answer == {"payable": True, "cards": [0, 1], "bonus": 0,
                      "alternatives": [{"cards": [0, 1], "bonus": 0}]}  # fmt: skip


@pytest.mark.parametrize(
    ("cards", "payable"),
    [
        (["fire-ruby", "echoglass"], True),  # Echoglass copies the Fire Ruby spent with it
        (["diamond-dust", "diamond-dust"], True),
        (["diamond-dust", "fire-ruby"], True),
        (
            ["diamond-dust", "echoglass"],
            False,
        ),  # Echoglass never copies what Diamond Dust simulates
    ],
)
def test_rulebook_two_fire_rubies(cards, payable):
    assert can_pay(["fire-ruby", "fire-ruby"], hand(*cards)) is payable


def test_rulebook_orichalcum_only_with_its_own_cards_partner():
    # Soulstone & Orichalcum on one card: the Soulstone pays, the Orichalcum earns 1
    code, answer = pay("--cost", "soulstone", "--hand", "soulstone+orichalcum")
    assert (code, answer["cards"], answer["bonus"]) == (0, [0], 1)
    # a Soulstone from one card and an Orichalcum from another: no extra point,
    # and the Orichalcum card is not part of any minimal payment
    code, answer = pay("--cost", "soulstone", "--hand", "soulstone+fire-ruby",
                       "--hand", "orichalcum+obsidian")  # fmt: skip
    assert (code, answer["bonus"], answer["alternatives"]) == (0, 0, [{"cards": [0], "bonus": 0}])


def test_echoglass_needs_a_real_gem_of_that_kind():
    # Obsidian + Fire Ruby with Diamond Dust and Echoglass: Diamond Dust pays one,
    # but no real gem of either kind is spent, so Echoglass has nothing to copy
    assert not can_pay(
        ["obsidian", "fire-ruby"], hand("diamond-dust+soulstone", "echoglass+raw-hope")
    )
    # with a real Obsidian the Echoglass copies it and the Diamond Dust pays the Fire Ruby
    assert can_pay(
        ["obsidian", "obsidian", "fire-ruby"], hand("diamond-dust+obsidian", "echoglass")
    )


def test_several_echoglass_copy_the_same_gem():
    assert can_pay(["fire-ruby"] * 3, hand("fire-ruby", "echoglass", "echoglass"))
    assert not can_pay(["fire-ruby"] * 3, hand("fire-ruby", "echoglass", "warpstone+orichalcum"))


def test_recommendation_order_bonus_then_cards_then_flexibility():
    # the Orichalcum card earns a point: preferred although both pay alone
    cards = hand("soulstone+fire-ruby", "soulstone+orichalcum")
    assert recommend(minimal_payments(["soulstone"], cards), cards).cards == (1,)
    # one card instead of two
    cards = hand("obsidian+soulstone", "electrum+raw-hope", "obsidian+electrum")
    assert recommend(minimal_payments(["obsidian", "electrum"], cards), cards).cards == (2,)
    # keep the Diamond Dust in hand
    cards = hand("fire-ruby+diamond-dust", "fire-ruby+obsidian")
    assert recommend(minimal_payments(["fire-ruby"], cards), cards).cards == (1,)


def test_minimal_payments_drop_nothing_and_list_every_option():
    cards = hand("obsidian", "obsidian", "diamond-dust")
    assert [p.cards for p in minimal_payments(["obsidian"], cards)] == [(0,), (1,), (2,)]
    assert [p.cards for p in minimal_payments(["obsidian", "obsidian"], cards)] == [
        (0, 1), (0, 2), (1, 2),
    ]  # fmt: skip


def test_free_door_and_unpayable_door():
    assert pay("--cost", "") == (0, {"payable": True, "cards": [], "bonus": 0,
                                     "alternatives": [{"cards": [], "bonus": 0}]})  # fmt: skip
    code, answer = pay("--cost", "raw-hope", "--hand", "obsidian+warpstone")
    assert (code, answer["payable"], answer["alternatives"]) == (1, False, [])


def test_unknown_gems_are_usage_errors_with_a_suggestion():
    code, output = pay("--cost", "fire-rubby", "--hand", "obsidian")
    assert code == 2
    assert "'fire-rubby' is not a gem (did you mean 'fire-ruby'?)" in output
    code, output = pay("--cost", "diamond-dust", "--hand", "obsidian")
    assert code == 2
    assert "'diamond-dust' is not a standard gem" in output


def test_minimal_payments_are_every_set_that_pays_and_drops_no_card():
    """minimal_payments looks only at sets no larger than the cost; by the book a
    minimal payment is any set of cards that pays and pays no more once any card is
    dropped. The two agree on thousands of random hands and costs of the catalog's
    gems, and skills.best_bonus is the largest bonus among them."""
    rng = random.Random(5)
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    standard, special = gem_set(catalog)
    gems = standard + special
    for _ in range(3000):
        cost = tuple(rng.choice(standard) for _ in range(rng.randint(1, 4)))
        cards = [
            tuple(rng.choice(gems) for _ in range(rng.randint(1, 2)))
            for _ in range(rng.randint(0, 7))
        ]
        by_the_book = [
            chosen
            for size in range(1, len(cards) + 1)
            for chosen in combinations(range(len(cards)), size)
            if can_pay(cost, [cards[i] for i in chosen])
            and not any(
                can_pay(cost, [cards[i] for i in chosen if i != dropped]) for dropped in chosen
            )
        ]
        found = minimal_payments(cost, cards)
        assert [p.cards for p in found] == by_the_book
        gem = rng.choice(standard)  # and with a skill's substitution, now and then
        subs = (
            ((gem, tuple(sorted(set(rng.sample(standard, 2)) - {gem}))),)
            if rng.random() < 0.5
            else ()
        )
        assert skills.best_bonus(cost, tuple(cards), subs) == max(
            (p.bonus for p in skills.payments(cost, tuple(cards), subs)), default=None
        )


def test_payments_with_a_substitution_are_every_reading_by_the_book():
    """With a skill's substitution a set of cards pays when some reading of it pays:
    skills.payments (which first rules out doors beyond the hand's means, and tries
    no set larger than the cost) gives, for thousands of random hands, exactly the
    distinct minimal sets found by trying every set and every reading."""
    rng = random.Random(6)
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    standard, special = gem_set(catalog)
    gems = standard + special
    for _ in range(2000):
        cost = tuple(rng.choice(standard) for _ in range(rng.randint(1, 4)))
        cards = tuple(
            tuple(rng.choice(gems) for _ in range(rng.randint(1, 2)))
            for _ in range(rng.randint(0, 6))
        )
        gem = rng.choice(standard)
        subs = ((gem, tuple(sorted(set(rng.sample(standard, 2)) - {gem}))),)
        table = dict(subs)

        def pays(chosen, table=table, cards=cards, cost=cost):
            readings = [product(*[(g, *table.get(g, ())) for g in cards[i]]) for i in chosen]
            return any(can_pay(cost, list(reading)) for reading in product(*readings))

        minimal, seen = [], set()
        for size in range(1, len(cards) + 1):
            for chosen in combinations(range(len(cards)), size):
                if pays(chosen) and not any(
                    pays(tuple(i for i in chosen if i != dropped)) for dropped in chosen
                ):
                    kinds = tuple(sorted(cards[i] for i in chosen))
                    if kinds not in seen:
                        seen.add(kinds)
                        minimal.append(chosen)
        found = skills.payments(cost, cards, subs)
        assert sorted(p.cards for p in found) == sorted(minimal)


def test_a_hands_bonuses_are_its_best_bonus_door_by_door():
    """skills.bonuses answers each cost as best_bonus does (None beyond the hand's
    means), the first time and when asked again: on 5,000 random hands, with and
    without substitutions, with and without Orichalcum that earns a point (a hand
    without either is answered from its means alone, Bonuses.plain)."""
    rng = random.Random(7)
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    standard, special = gem_set(catalog)
    gems = standard + special
    plain: Counter = Counter()
    for _ in range(5000):
        cards = tuple(
            sorted(
                tuple(rng.choice(gems) for _ in range(rng.randint(1, 2)))
                for _ in range(rng.randint(0, 7))
            )
        )
        gem = rng.choice(standard)
        subs = (
            ((gem, (rng.choice([g for g in standard if g != gem]),)),) if rng.random() < 0.5 else ()
        )
        known = skills.bonuses(cards, subs)
        for _ in range(6):
            cost = tuple(rng.choice(standard) for _ in range(rng.randint(1, 4)))
            assert known[cost] == skills.best_bonus(cost, cards, subs)
            assert known[cost] == skills.best_bonus(cost, cards, subs)
            plain[known.plain, known[cost] is not None] += 1
            found = skills.payments(cost, cards, subs)
            assert skills.hand_payments(cards, subs)[cost] == found
    assert min(plain.values()) > 500  # each way answered, paying and not
