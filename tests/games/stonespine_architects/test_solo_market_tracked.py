"""The market on the table, tracked: asked once per refill, a purchase takes one of
its rows, and at passing the rest is the default, one Enter (or one tap). A save of
format 1 (before the market was asked) is refused with a clear message."""

import io
import json
from collections import Counter

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.solo.book import Book
from protopress.games.stonespine_architects.solo.engine import Engine
from protopress.games.stonespine_architects.solo.errors import Reject
from protopress.games.stonespine_architects.solo_session import run_session

from .test_solo_session import MARKET, NORMAL

CATALOG = load_catalog(builtin_catalog_path("stonespine-architects"))
BOOK = Book(CATALOG)
PASSING = (11, 19, 28, 38)  # the leftover answers of the normal script
# year 4's market, with few goblins: the rival already holds 24 of the 26
LAST_MARKET = (
    "Dwarven Strongboxes: treasure-chest / treasure-chest, spike-pit / 2 treasure-chest, ogre; "
    "Hidden Ways: secret-passage / secret-passage, spike-pit / 2 secret-passage, ogre; "
    "Alchemist's Cellar: spike-pit / treasure-chest, flame-jet / 2 spike-pit, treasure-chest"
)


def test_a_whole_game_passing_on_the_tracked_market():
    """The normal script (seed 3), every pass confirmed with Enter. By hand, from the
    markets laid out (goblin, spike pit 1 star; ogre, flame jet 2; chest, passage 0):
    year 1  the 18 tokens less the 4-gold row bought (ogre, spike pit): 8 goblin, ogre,
            4 spike pit, flame jet, chest, passage = 16 stars; collected before: 3
    year 2  nothing bought: all 18 tokens, 8 goblin, 2 ogre, 5 spike pit, flame jet,
            chest, passage = 19 stars
    year 3  collected spike pit, flame jet, passage (3), then all 18 again (19)
    year 4  the 6-gold row (2 chests, ogre) bought; collected 2 chests and a dragon (3);
            left, 15 tokens: 5 spike pit, ogre, flame jet, 4 chests, 4 passages = 9 stars"""
    script = list(NORMAL)
    for index in PASSING:
        assert script[index] not in ("", "none")  # the script typed the leftovers
        script[index] = ""  # Enter: the tracked remainder
    script[29] = LAST_MARKET
    engine = Engine(BOOK, "normal", 3)
    stars_after_passing, taken = [], []
    for index, text in enumerate(script):
        if index in PASSING:
            before = Counter(t.id for t in engine.rival.tokens)
            engine.answer(text)
            after = Counter(t.id for t in engine.rival.tokens)
            taken.append(after - before)
            stars_after_passing.append(engine.rival.reputation().token_stars)
        else:
            engine.answer(text)
    assert engine.complete
    assert taken[0] == Counter(
        {"goblin": 8, "ogre": 1, "spike-pit": 4, "flame-jet": 1}
        | {"treasure-chest": 1, "secret-passage": 1}
    )
    assert (
        taken[1]
        == taken[2]
        == Counter(
            {"goblin": 8, "ogre": 2, "spike-pit": 5, "flame-jet": 1}
            | {"treasure-chest": 1, "secret-passage": 1}
        )
    )
    assert taken[3] == Counter(
        {"spike-pit": 5, "ogre": 1, "flame-jet": 1, "treasure-chest": 4, "secret-passage": 4}
    )
    assert stars_after_passing == [3 + 16, 19 + 19, 38 + 3 + 19, 60 + 3 + 9]
    assert len(engine.rival.tokens) == 2 + 16 + 18 + 3 + 18 + 3 + 15


def test_the_passing_question_offers_the_tracked_remainder():
    engine = Engine(BOOK, "normal", 3)
    for text in NORMAL[:11]:
        engine.answer(text)
    question = engine.question
    assert question is not None and question.where == "year 1, passing"
    # what is left of the market laid out, less the 4-gold row of Goblin Fence bought
    assert (
        question.default == "8 goblin, treasure-chest, 4 spike-pit, flame-jet, secret-passage, ogre"
    )
    assert question.options["tracked"] == (
        "8 Goblin, Treasure Chest, 4 Spike Pit, Flame Jet, Secret Passage, Ogre"
    )
    # the table differs: the leftovers typed win over the tracked ones
    engine.answer("2 goblin")
    assert Counter(t.id for t in engine.rival.tokens) == Counter(
        {"ogre": 1, "spike-pit": 1, "goblin": 2}
    )


def test_a_row_bought_leaves_the_market_and_cannot_be_bought_twice():
    engine = Engine(BOOK, "hard", 3)
    script = ["the-gauntlet", MARKET, "pillared hall", "ogre-kitchen, armoury", "", "none"]
    for text in script:
        engine.answer(text)
    assert engine.question is not None and engine.question.where == "year 1, counting gold"
    engine.answer("9")  # more than the rival's 1: the market
    engine.answer("buy")
    rows = engine.question.options["rows"]  # every row of 9 gold or less, by name
    assert {"cost": 3, "tokens": ["goblin"], "label": "Goblin Fence, 3 gold: Goblin"} in rows
    engine.answer("3 goblin")  # two rows hold a goblin for 3 gold: either one, the same
    assert engine.gold == 6
    engine.answer("buy")
    engine.answer("3 goblin")  # the other one
    assert engine.gold == 3 and engine.question.where == "year 1, the market"  # 3 beats 1
    engine.answer("buy")
    with pytest.raises(Reject, match="No row on the market costs 3 gold for goblin"):
        engine.answer("3 goblin")


def old_save(path, answers):
    path.write_text(
        json.dumps(
            {
                "format": "protopress-solo-session",
                "version": 1,
                "game": "stonespine-architects",
                "catalog": CATALOG.game,
                "catalog_version": CATALOG.version,
                "difficulty": "normal",
                "seed": 3,
                "last_step": "year 1, construction turn 1",
                "complete": False,
                "answers": answers,
            }
        )
    )


def test_a_format_1_save_is_refused_with_a_clear_message(tmp_path):
    save = tmp_path / "old.json"
    old_save(save, ["Monster Menagerie", "Sinkhole Shaft, crypt-niche"])  # format 1's flow
    before = save.read_bytes()
    out = io.StringIO()
    assert run_session(CATALOG, io.StringIO(), out, resume_path=save) == 1
    message = out.getvalue()
    assert message.count("\n") == 1 and "Traceback" not in message
    assert (
        f"{save}: saved by an older protopress (save format 1; this one reads 2, which asks "
        "for the market on the table), so its answers do not replay; start a new game "
        "(delete the file or choose another with --save)" in message
    )
    # a new game is not written over it either, and says why the same way
    out = io.StringIO()
    assert run_session(CATALOG, io.StringIO("Monster Menagerie\n"), out, save_path=save) == 1
    assert "saved by an older protopress (save format 1" in out.getvalue()
    assert save.read_bytes() == before
