"""The terminal session's fixes: undo (replaying the kept answers), counts given
twice, the reason for too many tokens of an element, all three face-up
challenges, the cleanup and setup lines, and the year 1 gold range."""

import json

import pytest

from protopress.components import builtin_catalog_path, load_catalog

from .test_solo_session import NORMAL, NORMAL_RESULT, play, result


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("stonespine-architects"))


def saved(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def refusals(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if "(Type help for" in line]


# --- undo -------------------------------------------------------------------------


def test_undo_takes_back_the_last_answer(catalog, tmp_path):
    save = tmp_path / "s.json"
    # gold 15 instead of 5 is a typo; undo, then the right answer
    lines = NORMAL[:6] + ["15", "undo", "5"] + NORMAL[7:]
    code, out = play(catalog, lines, save)
    assert code == 0
    assert "Undone: 15 (year 1, counting gold)." in out
    assert saved(save)["answers"] == NORMAL
    assert result(out) == NORMAL_RESULT


def test_undo_is_repeatable_and_the_rival_is_exact(catalog, tmp_path):
    save = tmp_path / "s.json"
    # the rival took chamber cards and tokens in the answers undone
    lines = NORMAL[:12] + ["undo", "undo", "undo 2"] + NORMAL[8:]
    code, out = play(catalog, lines, save)
    assert code == 0
    assert "Undone: 2 goblin, flame-jet, treasure-chest (year 1, passing)." in out
    assert "Undone: 2 answers, back to year 1, a purchase." in out
    assert saved(save)["answers"] == NORMAL
    assert result(out) == NORMAL_RESULT


def test_undo_saves_at_once(catalog, tmp_path):
    save = tmp_path / "s.json"
    code, _ = play(catalog, NORMAL[:6] + ["undo"], save)
    assert code == 1  # the input ended
    assert saved(save)["answers"] == NORMAL[:5]


def test_undo_with_nothing_to_undo(catalog, tmp_path):
    _, out = play(catalog, ["undo", "undo many"], tmp_path / "s.json")
    assert "Nothing to undo: no answer yet." in out
    assert "Type undo, or undo and a number of answers (undo 3)." in out


# --- the fixes ----------------------------------------------------------------------


def test_a_count_before_and_after_a_name_is_refused(catalog, tmp_path):
    lines = NORMAL[:11] + ["2 goblin x3"] + NORMAL[11:]
    code, out = play(catalog, lines, tmp_path / "s.json")
    assert code == 0
    assert "'x3': goblin is already counted; give one count, like 2 goblin or goblin x3." in out
    assert result(out) == NORMAL_RESULT


def test_two_monsters_for_one_are_refused_for_that_reason(catalog, tmp_path):
    lines = NORMAL[:9] + ["ogre ogre"] + NORMAL[9:]
    _, out = play(catalog, lines, tmp_path / "s.json")
    assert refusals(out) == [
        "The rival collects 1 monster token (monster and trap); you named 2. "
        "(Type help for this step's rule.)"
    ]


def test_all_three_face_up_challenges_are_named(catalog, tmp_path):
    lines = NORMAL[:10] + ["Monster Pen, Trap Line"] + NORMAL[10:]
    code, out = play(catalog, lines, tmp_path / "s.json")
    assert code == 0
    assert (
        "A solo game shows 3 challenge cards face up: name all 3, left to right; you named 2."
        in out
    )
    assert result(out) == NORMAL_RESULT


def test_cleanup_keeps_the_rivals_piles_aside(catalog, tmp_path):
    _, out = play(catalog, NORMAL, tmp_path / "s.json")
    assert "leftover tokens" not in out
    assert (
        "Cleanup: keep the rival's chamber cards and tokens aside, apart from the supply; "
        "discard the market cards and lay out 3 new market cards with tokens." in out
    )


def test_setup_places_the_entrance_doorway(catalog, tmp_path):
    _, out = play(catalog, ["Monster Menagerie"], tmp_path / "s.json")
    setup = out[out.index("Setup:") : out.index("Which goal card")]
    assert "place your entrance doorway" in setup


def test_year_1_gold_prompt_and_refusals_give_the_same_range(catalog, tmp_path):
    lines = NORMAL[:6] + ["31", "0", "six"] + NORMAL[6:]
    _, out = play(catalog, lines, tmp_path / "s.json")
    assert "Your gold for year 1 (1-30)?" in out
    assert refusals(out) == [
        "Gold in year 1 runs from 1 to 30; 31 is not possible. (Type help for this step's rule.)",
        "Gold in year 1 runs from 1 to 30 (your starting bonus of 1 included); 0 is not "
        "possible. (Type help for this step's rule.)",
        "Type gold as a whole number from 1 to 30. (Type help for this step's rule.)",
    ]
