"""The Stonespine solo rival as pure logic: decks per difficulty, the year's
verdicts, its piles and its reputation worked by hand."""

import random
from dataclasses import replace

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.dungeon import Dungeon
from protopress.games.stonespine_architects.rival import (
    COLLECT,
    PASS,
    VISIT,
    Rival,
    build_deck,
    deck_cards,
    gold_after_pass,
    lowest_challenge,
    rival_cards,
    score_solo,
    solo_outcome,
)
from protopress.games.stonespine_architects.scoring import ChamberCard, Scoring, Token

PLAIN = {"goblin-foreman", "kobold-trapper", "orc-quartermaster"}
DIAMOND = {"dark-elf-engineer", "minotaur-warden", "dwarf-treasurer"}
LEGENDARY = {"lich-architect", "beholder-overseer", "ancient-red-dragon"}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("stonespine-architects"))


@pytest.fixture(scope="module")
def cards(catalog):
    return {card.id: card for card in rival_cards(catalog)}


def chamber(catalog, card_id) -> ChamberCard:
    return ChamberCard.of(catalog.get("chamber-card", card_id))


def token(catalog, token_id) -> Token:
    return Token.of(catalog.get("market-token", token_id))


def test_normal_removes_the_legendary_cards(cards):
    deck = deck_cards(cards.values(), "normal")
    assert {card.id for card in deck} == PLAIN | DIAMOND
    assert len(deck) == 6


def test_hard_swaps_the_diamond_cards_for_the_legendary_ones(cards):
    deck = deck_cards(cards.values(), "hard")
    assert {card.id for card in deck} == PLAIN | LEGENDARY
    assert len(deck) == 6


def test_the_deck_is_shuffled_by_the_seed(cards):
    one = [c.id for c in build_deck(cards.values(), "normal", random.Random(3))]
    assert one == [c.id for c in build_deck(cards.values(), "normal", random.Random(3))]
    orders = {
        tuple(c.id for c in build_deck(cards.values(), "normal", random.Random(s)))
        for s in range(20)
    }
    assert len(orders) > 1
    with pytest.raises(ValueError, match="unknown difficulty 'easy'"):
        deck_cards(cards.values(), "easy")


def test_begin_year_reveals_the_top_card_or_the_card_turned_at_the_table(cards):
    deck = [cards["goblin-foreman"], cards["minotaur-warden"], cards["dwarf-treasurer"]]
    rival = Rival(deck)
    assert rival.card is None and rival.year == 0
    assert rival.begin_year().id == "goblin-foreman"
    assert rival.card.id == "goblin-foreman" and rival.year == 1
    # At the table the person reports the card they turned over.
    assert rival.begin_year(cards["dwarf-treasurer"]).id == "dwarf-treasurer"
    assert [c.id for c in rival.deck] == ["minotaur-warden"]
    assert [c.id for c in rival.revealed] == ["goblin-foreman", "dwarf-treasurer"]


def test_the_rival_takes_the_left_chambers_showing_its_symbol(catalog, cards):
    rival = Rival([cards["goblin-foreman"]])  # moon
    rival.begin_year()
    left = [
        chamber(catalog, "long-stair"),
        chamber(catalog, "fungus-grotto"),
        chamber(catalog, "aqueduct"),
    ]
    taken = rival.offer_chambers(left)  # moon, rune, moon
    assert [c.id for c in taken] == ["long-stair", "aqueduct"]
    assert [c.id for c in rival.chambers] == ["long-stair", "aqueduct"]


def test_the_market_verdict(catalog, cards):
    rival = Rival([cards["kobold-trapper"], cards["goblin-foreman"]])  # gold 2, then 1
    rival.begin_year()
    assert rival.market_verdict(3) == VISIT  # more gold than the card: the market
    assert rival.market_verdict(2) == COLLECT  # equal is not more
    assert rival.card_tokens() == ("trap", "treasure-chest")
    rival.collect([token(catalog, "spike-pit"), token(catalog, "treasure-chest")])
    # Once collected, the player must pass for the rest of the year, whatever the gold.
    assert rival.market_verdict(20) == PASS
    rival.begin_year()
    assert rival.market_verdict(2) == VISIT


def test_lowest_challenge_and_gold_after_pass():
    assert lowest_challenge([4, 2, 6, 2]) == 1  # lowest value, leftmost on a tie
    assert lowest_challenge([]) is None
    assert [gold_after_pass(year, 7) for year in (1, 2, 3, 4)] == [0, 0, 0, 7]


def test_reputation_worked_by_hand(catalog, cards):
    # Last revealed: Dark Elf Engineer, base 0, +1 per secret passage token.
    # Chambers: Long Stair (1 star) and Quarry Junction (-1): 0 stars.
    # Tokens: goblin (1), ogre (2), spike pit (1), two secret passages (0): 4 stars,
    # 2 secret passages. 0 + 2 + 0 + 4 = 6.
    rival = Rival([cards["goblin-foreman"], cards["dark-elf-engineer"]])
    rival.begin_year()
    rival.offer_chambers([chamber(catalog, "long-stair"), chamber(catalog, "quarry-junction")])
    rival.begin_year()
    rival.take_market(
        [token(catalog, t) for t in ("goblin", "ogre", "spike-pit", "secret-passage")]
    )
    rival.collect([token(catalog, "secret-passage")])
    reputation = rival.reputation()
    assert reputation == (0, 2, 0, 4)
    assert reputation.total == 6


def test_a_chamber_condition_counts_the_chamber_pile(catalog, cards):
    # Lich Architect: base 12, +3 per chamber. Three chambers with 1, 2 and 0 stars:
    # 12 + 9 + 3 + 0 = 24.
    rival = Rival([replace(cards["lich-architect"], symbol="moon")])
    rival.begin_year()
    rival.offer_chambers(
        [chamber(catalog, c) for c in ("long-stair", "ogre-kitchen", "gilded-turn")]
    )
    assert rival.reputation() == (12, 9, 3, 0)
    assert rival.reputation().total == 24


def test_goal_count_counts_printed_elements_and_tokens(catalog, cards):
    rival = Rival([cards["goblin-foreman"]])
    rival.begin_year()
    rival.offer_chambers(
        [chamber(catalog, "ogre-kitchen"), chamber(catalog, "chapel-turn")]
    )  # monster; altar
    rival.collect([token(catalog, "dragon"), token(catalog, "flame-jet")])
    assert rival.goal_count(["monster"]) == 2
    assert rival.goal_count(["monster", "trap"]) == 3
    assert rival.goal_count(["altar", "fountain"]) == 1


def test_ties_go_to_the_rival():
    assert solo_outcome(50, 50) == (50, 50, 0, False)
    assert solo_outcome(51, 50).won
    assert solo_outcome(40, 50).margin == -10


def test_copies_are_independent(catalog, cards):
    rival = Rival([cards["goblin-foreman"], cards["kobold-trapper"]])
    rival.begin_year()
    before = rival.reputation()
    other = rival.copy()
    other.take_market([token(catalog, "dragon")])
    other.begin_year()
    assert rival.reputation() == before and rival.year == 1 and len(rival.deck) == 1
    assert other.reputation().total != before.total


def test_the_kept_pile_sums_equal_a_fresh_count_as_the_piles_grow(catalog, cards):
    """The reputation reads the piles' sums kept since they last grew; after every
    growth, in copies too, it equals a rival made afresh with the same piles."""
    rng = random.Random(3)
    chambers = [ChamberCard.of(c) for c in catalog.of_kind("chamber-card")]
    tokens = [Token.of(t) for t in catalog.of_kind("market-token")]
    rivals = [Rival(list(cards.values()))]
    rivals[0].begin_year()
    for _ in range(400):
        rival = rng.choice(rivals)
        step = rng.randrange(4)
        if step == 0:
            rival.offer_chambers(rng.sample(chambers, 3))
        elif step == 1:
            rival.take_market(rng.sample(tokens, rng.randrange(4)))
        elif step == 2 and rival.deck:
            rival.begin_year()
        else:
            rivals.append(rival.copy())
        extra_chambers, extra_tokens = rng.sample(chambers, 2), rng.sample(tokens, 2)
        card = rng.choice(list(cards.values()))
        fresh = Rival([card])
        fresh.begin_year()
        fresh.chambers, fresh.tokens = rival.chambers + extra_chambers, rival.tokens + extra_tokens
        assert rival.reputation_with(extra_chambers, extra_tokens, card) == fresh.reputation()
        fresh = Rival([rival.face_up])
        fresh.begin_year()
        fresh.chambers, fresh.tokens = rival.chambers[:], rival.tokens[:]
        assert rival.reputation() == fresh.reputation()
    assert len(rivals) > 50


def test_shuffled_from_the_catalog_and_to_json(catalog):
    rival = Rival.shuffled(catalog, "hard", random.Random(1))
    assert len(rival.deck) == 6
    card = rival.begin_year()
    shown = rival.to_json()
    assert shown["difficulty"] == "hard"
    assert shown["card"] == card.id
    assert shown["deck"] == 5
    assert shown["reputation"]["total"] == card.base


def test_score_solo_worked_by_hand(catalog, cards):
    # Column 1 is four NS chambers with 1 star each, N1 to S1: paths 4 + 4 = 8,
    # reputation 4. Two monsters (goal Monster Menagerie). Final gold 6.
    column = {"doors": "NS", "stars": 1}
    rows = [[{"doors": ""}, dict(column), {"doors": ""}, {"doors": ""}] for _ in range(4)]
    rows[0][1]["elements"] = ["monster"]
    rows[3][1]["elements"] = ["monster"]
    dungeon = Dungeon.from_json(
        {"chambers": rows, "entrance": {"side": "N", "index": 1}, "exit": {"side": "S", "index": 1}}
    )
    # Rival: Goblin Foreman face up (gold 1, base 4, +1 per chamber), one monster token.
    rival = Rival([cards["goblin-foreman"]])
    rival.begin_year()
    rival.take_market([token(catalog, "goblin")])
    scoring = Scoring.of(catalog)
    result = score_solo(scoring, dungeon, rival, gold=6, goal_elements=["monster"], challenges=[3])
    # Player: gold 6 > 1: 9; goal 2 > 1: 15; paths 8; stars 4; challenges 3 = 39.
    assert result.sheet.priority_points == 9 and result.sheet.goal_points == 15
    assert result.sheet.total == 39
    # Rival: 4 + 0 chambers + 0 chamber stars + 1 token star = 5.
    assert result.rival.total == 5
    assert result.outcome == (39, 5, 34, True)
    # Final gold equal to the card's: 6 points, the tie goes to the rival.
    assert (
        score_solo(scoring, dungeon, rival, gold=1, goal_elements=["monster"]).sheet.priority_points
        == 6
    )
