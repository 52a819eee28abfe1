"""The Stonespine solo session at the table: whole scripted sessions (normal and
hard), re-prompts for impossible answers, help and status, saving after every
answer, resuming after an end of input, a quit or a kill, and damaged saves."""

import io
import json

import pytest

from protopress import files
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.solo_session import (
    Names,
    Reject,
    default_save_path,
    parse_list,
    run_session,
)

# the market laid out, each card with the tokens on its rows (purchases name a row of it)
MARKET = (
    "Goblin Fence: goblin / ogre, spike-pit / 2 goblin, treasure-chest; "
    "Trapsmith's Bench: spike-pit / 2 spike-pit / flame-jet, goblin, secret-passage; "
    "Beast Pens: goblin / goblin, ogre / 2 goblin, spike-pit"
)
CELLAR = (
    "Alchemist's Cellar: spike-pit / treasure-chest, spike-pit / 2 spike-pit, treasure-chest; "
    "Goblin Fence: goblin / ogre, spike-pit / 2 goblin, treasure-chest; "
    "Beast Pens: goblin / goblin, ogre / 2 goblin, spike-pit"
)
STRONGBOXES = (
    "Dwarven Strongboxes: treasure-chest / treasure-chest, spike-pit / 2 treasure-chest, goblin; "
    "Hidden Ways: secret-passage / secret-passage, spike-pit / 2 secret-passage, goblin; "
    "Beast Pens: goblin / 2 goblin / 2 goblin, spike-pit"
)

# seed 3, normal: Goblin Foreman (moon, 1), Orc Quartermaster (rune, 3),
# Dark Elf Engineer (shield, 3), Dwarf Treasurer (torch, 5; base 1, 2 per chamber card)
NORMAL = [
    "Monster Menagerie",  # the goal card
    MARKET,
    # year 1: Goblin Foreman
    "Sinkhole Shaft, crypt-niche",
    "",  # Enter: none
    "long-stair",
    "none",
    "5",  # gold
    "buy",
    "4 monster trap",  # 1 gold left: not more than 1, the rival collects
    "ogre spike-pit",
    "Monster Pen, Trap Line, Strongroom",  # discard Monster Pen (leftmost of 2s)
    "2 goblin, flame-jet, treasure-chest",  # left on the market
    MARKET,
    # year 2: Orc Quartermaster
    "fungus grotto",
    "dragon's lair, mine shaft",
    "",
    "Lich's Crypt",
    "8",
    "pass",
    "3 goblin, dragon, 2 spike-pit, secret-passage",
    MARKET,
    # year 3: Dark Elf Engineer
    "none",
    "spider-nest",
    "none",
    "none",
    "3",  # not more than 3: the rival collects at once
    "spike-pit flame-jet secret-passage",
    "false walls, grand approach, twin altars",
    "goblin ogre",
    STRONGBOXES,
    # year 4: Dwarf Treasurer
    "torchlit hall",
    "none",
    "hermits cell",
    "none",
    "11",
    "b",
    "6 treasure-chest treasure-chest monster",  # 5 left: the rival collects
    "treasure-chest treasure-chest dragon",  # year 4: no challenge to discard
    "ogre, 2 spike-pit",
    # final scoring
    "",  # final gold: Enter keeps the 5 of year 4
    "7",  # monsters in the player's dungeon
    "8 31 7 18",  # challenges, reputation, blueprint, paths
]

NORMAL_RESULT = """\
== Result ==
                                                You  Rival
Final gold: 5 against 5                           6
Goal, monsters: 7 against 14                      9
Challenge cards                                   8
Chamber reputation                               31
Blueprint                                         7
Dungeon paths                                    18
Base reputation, Dwarf Treasurer                         1
Condition: 2 per chamber card                           20
Stars on its 10 chamber cards                           19
Stars on its 24 tokens                                  28
Total                                            79     68
Ties go to the rival: final gold, goal and total.
You win by 11: you take the title of Master Architect!"""

# seed 3, hard: Goblin Foreman, Orc Quartermaster, Lich Architect (rune, 4),
# Ancient Red Dragon (moon, 6; base 2, 1 per treasure chest token)
HARD = [
    "the-gauntlet",
    MARKET,
    # year 1
    "pillared hall",
    "ogre-kitchen, armoury",
    "",
    "Quarry Junction",
    "1",  # the rival collects at once
    "goblin flame-jet",
    "Killing Floor, Monster Barracks, Twin Altars",
    "goblin, 2 ogre, spike-pit, secret-passage, treasure-chest",
    MARKET,
    # year 2
    "none",
    "troll bridge",
    "none",
    "none",
    "9",
    "buy",
    "6 secret-passage monster trap",
    "dragon secret-passage",
    "endless halls, escape route, renowned halls",
    "3 goblin",
    CELLAR,
    # year 3
    "cobweb hall, stalactite hall",
    "none",
    "sunken shrine",
    "none",
    "11",
    "buy",
    "2 trap",  # 9 left: buy again
    "buy",
    "5 trap trap treasure-chest",  # 4 left: a tie goes to the rival, which collects
    "goblin, spike-pit, flame-jet, treasure-chest",
    "Monster Pen, Trap Line, Strongroom",
    "none",
    MARKET,
    # year 4
    "aqueduct",
    "none",
    "none",
    "echoing gallery",
    "11",
    "pass",
    "dragon, 2 treasure-chest, flame-jet",
    # final scoring
    "6",  # as much as the card: 6 points
    "0",  # no monster or trap: no goal points
    "31",  # the sum of the other four rows
]

HARD_RESULT = """\
== Result ==
                                                You  Rival
Final gold: 6 against 6                           6
Goal, monsters and traps: none in your dungeon    0
Score pad: challenges to paths                   31
Base reputation, Ancient Red Dragon                      2
Condition: 1 per treasure chest token                    4
Stars on its 10 chamber cards                            7
Stars on its 21 tokens                                  24
Total                                            37     37
Ties go to the rival: final gold, goal and total.
A tie at 37: ties go to the rival, so the rival wins."""


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(builtin_catalog_path("stonespine-architects"))


class Killed(BaseException):
    """The process dies: nothing in the session gets to handle it."""


class Dying(io.StringIO):
    """Input that kills the session when it asks for line `after` + 1."""

    def __init__(self, text: str, after: int):
        super().__init__(text)
        self.left = after

    def readline(self, *args):
        if self.left == 0:
            raise Killed
        self.left -= 1
        return super().readline(*args)


def play(catalog, lines, save, *, difficulty="normal", seed=3, resume=None, stdin=None):
    out = io.StringIO()
    stdin = stdin or io.StringIO("".join(line + "\n" for line in lines))
    code = run_session(
        catalog,
        stdin,
        out,
        difficulty=difficulty,
        seed=seed,
        save_path=save,
        resume_path=resume,
    )
    return code, out.getvalue()


def result(output: str) -> str:
    """The final comparison, from its heading to the verdict."""
    start = output.index("== Result ==")
    end = output.index("\nThe session is saved in", start)
    return output[start:end]


def saved(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# --- whole sessions ----------------------------------------------------------------


def test_a_normal_session_from_start_to_finish(catalog, tmp_path):
    save = tmp_path / "normal.json"
    code, out = play(catalog, NORMAL, save)
    assert code == 0
    assert "Stonespine Architects, solo against the rival (normal, seed 3)." in out
    assert (
        "The rival reveals Goblin Foreman (plain card): symbol Moon, gold 1, "
        "collects monster and trap." in out
    )
    assert (
        "The rival reveals Dwarf Treasurer (diamond card): symbol Torch, gold 5, "
        "collects treasure chest, treasure chest and monster." in out
    )
    assert "The rival takes Sinkhole Shaft, Crypt Niche (4 stars); discard the other card." in out
    assert "5 gold is more than the rival's 1: visit the market or pass." in out
    assert "Place Ogre, Spike Pit in your dungeon now. You have 1 gold left." in out
    assert "1 gold is not more than the rival's 1: the rival collects." in out
    assert "The rival takes Ogre, Spike Pit (3 stars)." in out
    assert "Discard Monster Pen (2 points), the lowest." in out  # leftmost of two 2s
    assert "Discard False Walls (3 points), the lowest." in out
    assert "3 gold is not more than the rival's 3: the rival collects." in out
    assert "You pass: set your gold tracker to 0 and claim one of the face-up challenge" in out
    assert "You pass: leave your gold tracker at 5 and flip it." in out
    assert "Rival: 10 chamber cards, 24 tokens, reputation 68 so far." in out
    assert "Your final gold (0-30)? [5] > \n" in out  # piped answers are echoed
    assert result(out) == NORMAL_RESULT
    data = saved(save)
    assert data["answers"] == NORMAL
    assert data["complete"] is True
    assert (data["difficulty"], data["seed"], data["catalog_version"]) == ("normal", 3, "1.0.0")


def test_year_4_collects_without_a_challenge_to_discard(catalog, tmp_path):
    _, out = play(catalog, NORMAL, tmp_path / "s.json")
    year4 = out[out.index("== Year 4 of 4 ==") :]
    assert "The rival takes 2 Treasure Chest, Dragon (3 stars)." in year4
    assert "challenge cards are face up" not in year4
    assert "You must pass now." in year4


def test_a_hard_session_tied_goes_to_the_rival(catalog, tmp_path):
    save = tmp_path / "hard.json"
    code, out = play(catalog, HARD, save, difficulty="hard")
    assert code == 0
    assert "(hard, seed 3)" in out
    assert "The rival reveals Lich Architect (legendary card): symbol Rune, gold 4" in out
    assert "The rival reveals Ancient Red Dragon (legendary card): symbol Moon, gold 6" in out
    assert "9 gold is more than the rival's 4: visit the market or pass." in out
    assert "4 gold is not more than the rival's 4: the rival collects." in out
    assert "Discard Monster Barracks (4 points), the lowest." in out
    assert "Discard Escape Route (3 points), the lowest." in out
    assert "The market is empty: nothing for the rival." in out
    assert "11 gold is more than the rival's 6" in out
    assert result(out) == HARD_RESULT
    assert saved(save)["difficulty"] == "hard"


def test_the_same_seed_gives_the_same_session(catalog, tmp_path):
    _, first = play(catalog, NORMAL, tmp_path / "a.json")
    _, again = play(catalog, NORMAL, tmp_path / "a.json")
    assert first == again


def test_the_rival_deck_comes_from_the_seed(catalog, tmp_path):
    _, out = play(catalog, ["Monster Menagerie", MARKET], tmp_path / "s.json", seed=7)
    assert "The rival reveals Minotaur Warden (diamond card)" in out


# --- impossible answers ------------------------------------------------------------------


def with_mistakes() -> list[str]:
    """The normal script with wrong answers before the right ones."""
    lines = list(NORMAL)
    insert = {
        0: ["", "Monstr Menagerie"],
        1: [
            "Goblin Fence: goblin / ogre, spike-pit; Beast Pens: goblin / goblin, ogre / 2 goblin, "
            "spike-pit; Hidden Ways: secret-passage / secret-passage, trap / 2 secret-passage, goblin",
            "Goblin Fence: goblin / ogre, spike-pit / 2 goblin, treasure-chest",
            "Goblin Fence: goblin / ogre, goblin / 2 goblin, treasure-chest; Beast Pens: goblin / "
            "goblin, ogre / 2 goblin, spike-pit; Hidden Ways: secret-passage / secret-passage, "
            "spike-pit / 2 secret-passage, goblin",
            "Goblin Fence: goblin / ogre, spike-pit / 2 goblin, treasure-chest; Beast Pens: "
            "goblin / goblin, ogre / 2 goblin, spike-pit; Orc Warband: goblin / 2 goblin / 4 goblin",
        ],
        2: [
            "Sinkhole Shaft, Torchlit Hall",  # a torch card: not the rival's symbol
            "Sinkhole Shaft, Crypt Nich",  # unknown card
            "sinkhole shaft, crypt niche, long stair, aqueduct",  # 4 of 3 left
        ],
        3: ["2 sinkhole shaft"],  # the game has 2, the rival holds 1
        4: ["2 long-stair"],  # 2 cards when 1 is left
        6: ["31", "0", "six"],  # past the track, below the year 1 bonus, not a number
        7: ["maybe"],
        8: [
            "4 monster gem",
            "9 monster trap",
            "4 monster monster",
            "3 goblin spike-pit",  # no such row on the market
            "4 goblin spike-pit",  # the 4-gold row holds an ogre
            "monster trap",
        ],
        9: ["ogre", "monster spike-pit", "ogre treasure-chest", "ogre dragon spike-pit"],
        10: ["Monster Pen, Trap Line, Strongroom, Twin Altars", "Monster Pen, Monster Pen"],
        11: ["30 goblin", "11 dragon"],
        39: ["31"],
        40: ["65"],
        41: ["8 31 8 18", "8 31 7", "400"],
    }
    for index in sorted(insert, reverse=True):
        lines[index:index] = insert[index]
    return lines


def test_impossible_answers_are_refused_and_asked_again(catalog, tmp_path):
    save = tmp_path / "s.json"
    code, out = play(catalog, with_mistakes(), save)
    assert code == 0
    expected = [
        "Type the goal card's title or id.",
        "Goblin Fence has 3 rows: name the tokens on each, top row first, split by / (e.g. "
        "Goblin Fence: monster / monster and trap / monster, monster and treasure chest).",
        "Name the 3 market cards, each with the tokens on its rows (card: row / row / row; "
        "next card ...); you named 1.",
        "Row 2 of Goblin Fence (4 gold) holds monster and trap; you named Ogre, Goblin.",
        "I do not know the market card 'Orc Warband'",  # a card of 3 or more players
        "I do not know the goal card 'Monstr Menagerie' (did you mean monster-menagerie?).",
        "Torchlit Hall shows the Torch, not the Moon: it is discarded, not given to the "
        "rival. Name only the cards showing the Moon.",
        "I do not know the chamber card 'Crypt Nich' (did you mean crypt-niche?).",
        "You leave 3 cards this turn, so at most 3 can go to the rival; you named 4.",
        "The game has 2 Sinkhole Shaft cards and the rival already holds 1.",
        "You leave 1 card this turn, so at most 1 can go to the rival; you named 2.",
        "Gold runs from 0 to 30; 31 is not possible.",
        "Gold in year 1 runs from 1 to 30 (your starting bonus of 1 included); 0 is not possible.",
        "Type gold as a whole number from 1 to 30.",
        "Type buy or pass.",
        "I do not know the market token or element 'gem'.",
        "That row costs 9 gold and you have 5.",
        "No row on the market costs 4 gold for monster and monster: the market holds "
        "Goblin Fence, 3 gold: Goblin; Goblin Fence, 4 gold: Ogre, Spike Pit;",
        "No row on the market costs 3 gold for goblin and spike pit",
        "No row on the market costs 4 gold for goblin and spike pit",
        "Start with the row's cost, then its tokens: e.g. 4 ogre spike-pit.",
        "The rival collects 2 tokens (monster and trap); name each one",
        "Monster tokens differ in stars, and the rival counts them: name the token: "
        "goblin (1 star), ogre (2 stars), dragon (3 stars).",
        "The rival collects monster and trap; treasure chest is not on its card.",
        "The rival collects 1 monster token (monster and trap); you named 2.",
        "A solo game shows 3 challenge cards; you named 4.",
        "The game has 1 Monster Pen card.",
        "The market holds at most 20 tokens; you named 30.",
        "The game has 10 dragon tokens and the rival already holds 0.",
        "The number of monsters runs from 0 to 64; 65 is not possible.",
        "The blueprint scores 0, 5, 7, 10, 14, 20; 8 is not on the scale.",
        "Type four whole numbers (challenge cards, chamber reputation, blueprint, dungeon "
        "paths), or one number, their sum.",
        "Those four rows add up to between -32 and 313.",
    ]
    for message in expected:
        assert message in out, message
    assert out.count("(Type help for this step's rule.)") == 34
    # refused answers are not recorded: the same answers as a clean run, the same result
    assert saved(save)["answers"] == NORMAL
    assert result(out) == NORMAL_RESULT


def test_the_final_gold_must_be_on_the_track(catalog, tmp_path):
    lines = NORMAL[:39] + ["31", "abc", "9"] + NORMAL[40:]
    code, out = play(catalog, lines, tmp_path / "s.json")
    assert code == 0
    assert "Gold runs from 0 to 30; 31 is not possible." in out
    assert "Final gold: 9 against 5                           9" in out


def test_a_pile_run_out_is_typed_as_empty(catalog, tmp_path):
    lines = NORMAL[:9] + ["ogre empty"] + NORMAL[10:]
    code, out = play(catalog, lines, tmp_path / "s.json")
    assert code == 0
    assert "The rival takes Ogre (2 stars)." in out


# --- help, status, quit ------------------------------------------------------------------


def test_help_and_status_at_a_prompt(catalog, tmp_path):
    save = tmp_path / "s.json"
    lines = NORMAL[:3] + ["help", "status"] + NORMAL[3:7] + ["status", "help"] + NORMAL[7:]
    code, out = play(catalog, lines, save)
    assert code == 0
    # help explains the step's rule in plain words
    assert "Any cards matching the rival's symbol go into its score pile" in out
    assert "If you still have more gold than the rival card after buying, you may buy" in out
    assert "help (this), status (the rival's piles and reputation), quit" in out
    # status shows the running piles and the reputation
    assert "Now: year 1, construction turn 2. Rival (normal), year 1: Goblin Foreman" in out
    assert "  Chamber pile (2): Sinkhole Shaft, Crypt Niche; 4 stars" in out
    assert "  Token pile (0): empty; 0 stars" in out
    assert (
        "  Reputation if the game ended now: base 4 + condition 2 + chamber stars 4 + "
        "token stars 0 = 10" in out
    )
    assert "  Goal Monster Menagerie: 0 monsters in its piles" in out
    assert "Now: year 1, the market." in out
    assert "Chamber pile (3): Sinkhole Shaft, Crypt Niche, Long Stair; 5 stars" in out
    assert saved(save)["answers"] == NORMAL  # help and status are not answers
    assert result(out) == NORMAL_RESULT


def test_status_before_the_first_card(catalog, tmp_path):
    _, out = play(catalog, ["status"], tmp_path / "s.json")
    assert "Rival (normal): no card revealed yet; 6 cards face down, shuffled from seed 3." in out


def test_quit_saves_and_says_how_to_resume(catalog, tmp_path):
    save = tmp_path / "s.json"
    code, out = play(catalog, NORMAL[:12] + ["quit"], save)
    assert code == 0
    assert f"Saved in {save}. To go on later: protopress solo stonespine-architects " in out
    assert f"--resume {save}" in out
    data = saved(save)
    assert data["answers"] == NORMAL[:12]
    assert data["complete"] is False
    code, out = play(catalog, NORMAL[12:], None, resume=save)
    assert code == 0
    assert result(out) == NORMAL_RESULT


# --- saving and resuming -----------------------------------------------------------------


class _InterruptedAfter(io.StringIO):
    """Input that gives some answers, then Ctrl-C."""

    def __init__(self, lines):
        super().__init__("".join(line + "\n" for line in lines))
        self.left = len(lines)

    def readline(self, *args):
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().readline(*args)


def test_ctrl_c_saves_the_answers_and_exits_130(catalog, tmp_path):
    save = tmp_path / "s.json"
    code, out = play(catalog, [], save, stdin=_InterruptedAfter(NORMAL[:7]))
    assert code == 130
    assert f"Stopped. To go on: protopress solo stonespine-architects --resume {save}" in out
    assert saved(save)["answers"] == NORMAL[:7]


def test_end_of_input_saves_and_resume_finishes_the_same(catalog, tmp_path):
    save = tmp_path / "s.json"
    code, out = play(catalog, NORMAL[:23], save)
    assert code == 1
    assert "The input ended before the session was over (year 3, construction turn 3)." in out
    assert f"To go on: protopress solo stonespine-architects --resume {save}" in out
    assert saved(save)["answers"] == NORMAL[:23]
    code, out = play(catalog, NORMAL[23:], None, resume=save)
    assert code == 0
    assert out.startswith(f"Resumed {save}: 23 answers restored (normal, seed 3).\n")
    assert "Now: year 3, construction turn 3. Rival (normal), year 3: Dark Elf Engineer" in out
    # the context of the step is shown again, then the question
    assert "The rival takes Spider Nest (2 stars); discard the other card. Draw 2 cards." in out
    assert "The rival reveals Goblin Foreman" not in out  # earlier steps stay quiet
    assert result(out) == NORMAL_RESULT
    assert saved(save)["answers"] == NORMAL


@pytest.mark.parametrize(
    "script, difficulty, expected",
    [(NORMAL, "normal", NORMAL_RESULT), (HARD, "hard", HARD_RESULT)],
    ids=["normal", "hard"],
)
def test_a_kill_after_any_answer_resumes_to_the_same_end(
    catalog, tmp_path, script, difficulty, expected
):
    _, whole = play(catalog, script, tmp_path / "whole.json", difficulty=difficulty)
    for k in range(len(script)):  # killed while waiting for answer k + 1
        save = tmp_path / f"killed-{k}.json"
        text = "".join(line + "\n" for line in script)
        with pytest.raises(Killed):
            play(catalog, None, save, difficulty=difficulty, stdin=Dying(text, k))
        assert saved(save)["answers"] == script[:k], k  # saved after every answer
        code, out = play(catalog, script[k:], save, difficulty="normal", seed=99, resume=save)
        assert code == 0, (k, out)
        assert result(out) == result(whole) == expected, k
        assert saved(save)["answers"] == script


@pytest.mark.parametrize("k", [1, 9, 18, 30, 37])
def test_resuming_twice_in_a_row(catalog, tmp_path, k):
    save = tmp_path / "s.json"
    play(catalog, NORMAL[:k], save)
    play(catalog, NORMAL[k : k + 3], None, resume=save)  # ends again
    code, out = play(catalog, NORMAL[k + 3 :], None, resume=save)
    assert code == 0
    assert result(out) == NORMAL_RESULT


def test_resuming_a_finished_session_shows_the_result(catalog, tmp_path):
    save = tmp_path / "s.json"
    play(catalog, NORMAL, save)
    code, out = play(catalog, [], None, resume=save)
    assert code == 0
    assert f"Resumed {save}: {len(NORMAL)} answers restored" in out
    assert result(out) == NORMAL_RESULT


def test_resuming_into_another_save_file(catalog, tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    play(catalog, NORMAL[:10], first)
    code, out = play(catalog, NORMAL[10:], second, resume=first)
    assert code == 0
    assert saved(first)["answers"] == NORMAL[:10]
    assert saved(second)["answers"] == NORMAL


def test_an_unfinished_session_is_not_overwritten(catalog, tmp_path):
    save = tmp_path / "s.json"
    play(catalog, NORMAL[:6], save)
    before = save.read_bytes()
    code, out = play(catalog, NORMAL, save)
    assert code == 1
    assert (
        "holds an unfinished solo session (6 answers, the last for year 1, construction turn 4)"
        in out
    )
    assert f"Resume it with --resume {save}" in out
    assert save.read_bytes() == before


def test_a_file_that_is_not_a_save_is_not_overwritten(catalog, tmp_path):
    save = tmp_path / "notes.txt"
    save.write_text("my notes\n")
    code, out = play(catalog, NORMAL, save)
    assert code == 1
    assert "exists and is not a solo session save; not overwriting it" in out
    assert save.read_text() == "my notes\n"


def test_a_finished_session_may_be_overwritten(catalog, tmp_path):
    save = tmp_path / "s.json"
    play(catalog, HARD, save, difficulty="hard")
    code, _ = play(catalog, NORMAL, save)
    assert code == 0
    assert saved(save)["difficulty"] == "normal"


# --- damaged or foreign saves --------------------------------------------------------------


def good_save(tmp_path, catalog):
    save = tmp_path / "good.json"
    play(catalog, NORMAL[:10], save)
    return saved(save)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: "{ not json", "not a solo session save (invalid JSON: "),
        (lambda d: [1, 2], "not a protopress solo session save"),
        (lambda d: {"hello": "world"}, "not a protopress solo session save"),
        (lambda d: d | {"version": 3}, "saved by a newer protopress (save format 3"),
        (lambda d: d | {"version": "1"}, "the save has no valid format version"),
        (lambda d: d | {"game": "gem-rush"}, "a save of 'gem-rush', not of stonespine-architects"),
        (lambda d: d | {"catalog_version": "0.9.0"}, "saved with catalog version 0.9.0"),
        (lambda d: d | {"difficulty": "easy"}, "damaged: difficulty 'easy'"),
        (lambda d: d | {"seed": "three"}, "damaged: the seed 'three' is not a whole number"),
        (lambda d: d | {"answers": "all"}, "damaged: the answers are not a list of texts"),
        (lambda d: d | {"answers": ["Monster Menagerie", 5]}, "not a list of texts"),
        (
            lambda d: d | {"answers": d["answers"][:6] + ["99"]},
            "answer 7 ('99') does not fit year 1, counting gold: Gold in year 1 runs from 1 to 30",
        ),
        (
            lambda d: d | {"answers": NORMAL + ["extra"]},
            "1 recorded answers are left after the end of the game",
        ),
    ],
)
def test_a_damaged_save_is_a_clear_error(catalog, tmp_path, change, message):
    changed = change(good_save(tmp_path, catalog))
    save = tmp_path / "bad.json"
    save.write_text(changed if isinstance(changed, str) else json.dumps(changed))
    before = save.read_bytes()
    code, out = play(catalog, NORMAL[10:], None, resume=save)
    assert code == 1
    assert out.startswith("protopress solo: cannot go on: ")
    assert message in out
    assert "Traceback" not in out
    assert save.read_bytes() == before  # a failed resume writes nothing


def test_a_missing_save(catalog, tmp_path):
    code, out = play(catalog, [], None, resume=tmp_path / "nowhere.json")
    assert code == 1
    assert "nowhere.json: no such file" in out


def test_an_unknown_difficulty(catalog, tmp_path):
    code, out = play(catalog, [], tmp_path / "s.json", difficulty="nightmare")
    assert code == 2
    assert "unknown difficulty 'nightmare'; choose normal or hard" in out


def test_no_seed_draws_one_and_shows_it(catalog, tmp_path):
    save = tmp_path / "s.json"
    code, out = play(catalog, [], save, seed=None)
    assert code == 1
    seed = saved(save)["seed"]
    assert isinstance(seed, int)
    assert f"(normal, seed {seed})" in out


# --- where saves go -------------------------------------------------------------------------


def test_default_save_path_on_linux(tmp_path, monkeypatch):
    monkeypatch.setattr(files.sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    path = default_save_path()
    assert path == tmp_path / "xdg" / "protopress" / "solo-stonespine-architects.json"
    assert path.parent.is_dir()
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_save_path().parent == tmp_path / "home" / ".local" / "share" / "protopress"


def test_default_save_path_on_windows_and_macos(tmp_path, monkeypatch):
    monkeypatch.setattr(files.sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    assert default_save_path().parent == tmp_path / "appdata" / "protopress"
    monkeypatch.setattr(files.sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path / "mac"))
    folder = tmp_path / "mac" / "Library" / "Application Support" / "protopress"
    assert default_save_path().parent == folder
    assert folder.is_dir()


def test_without_a_save_path_the_session_saves_in_the_data_directory(
    catalog, tmp_path, monkeypatch
):
    monkeypatch.setattr(files.sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    code, out = play(catalog, NORMAL[:3], None)
    assert code == 1
    save = tmp_path / "xdg" / "protopress" / "solo-stonespine-architects.json"
    assert saved(save)["answers"] == NORMAL[:3]
    assert f"--resume {save}" in out


# --- the answer parser ----------------------------------------------------------------------


def test_parse_list_takes_titles_ids_and_counts():
    names = Names(
        "thing", [("hermits-cell", "Hermit's Cell", "h"), ("long-stair", "Long Stair", "l")]
    )
    assert parse_list("Hermit's Cell, long-stair", names) == ["h", "l"]
    assert parse_list("hermits cell long stair", names) == ["h", "l"]
    assert parse_list("2 long stair, hermits-cell x2", names) == ["l", "l", "h", "h"]
    assert parse_list("3x Long Stair", names) == ["l", "l", "l"]
    assert parse_list("none", names) == []
    assert parse_list("", names) == []
    for bad in ("long stare", "2", "x2 long-stair", "0 long-stair"):
        with pytest.raises(Reject):
            parse_list(bad, names)


def test_a_typed_session_is_not_echoed(catalog, tmp_path):
    class Typed(io.StringIO):
        def isatty(self):
            return True

    stdin = Typed("Monster Menagerie\n")
    _, out = play(catalog, None, tmp_path / "s.json", stdin=stdin)
    assert "Which goal card is face up? > Goal: Monster Menagerie" in out
