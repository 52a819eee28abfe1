"""The solo page (web/solo.py) drives any game's companion through the protocols
of protopress.companion: here a companion for counting to three, no real game."""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from protopress.companion import (
    Fact,
    FinalScore,
    LoggedStep,
    Reject,
    Said,
    SavedGame,
    ScoreLine,
    SessionError,
    SoloCompanion,
    SoloGame,
    SoloQuestion,
)
from protopress.components import load_catalog
from protopress.web.solo import Companion, Moved

MINI = load_catalog(Path(__file__).parents[1] / "data" / "mini-game" / "catalog.json")
STEPS = 3


@dataclass
class Ask:
    where: str
    prompt: str = "Say the next number."
    help: str = "Count up from 1."
    default: str | None = None
    kind: str = "text"
    options: dict = field(default_factory=dict)


class Counting:
    """Counting to three: each answer is the next number."""

    def __init__(self, difficulty: str, seed: int):
        self.difficulty, self.seed = difficulty, seed
        self.answers: list[str] = []
        self.said: list[str] = []
        self.last_step: str | None = None
        self.result_text: list[str] = []
        self.log = [LoggedStep("", "", ("Count to three.",))]

    @property
    def question(self) -> Ask | None:
        return None if len(self.answers) >= STEPS else Ask(f"number {len(self.answers) + 1}")

    @property
    def complete(self) -> bool:
        return self.question is None

    def answer(self, text: str) -> None:
        question = self.question
        if question is None:
            raise Reject("The game is over.")
        if text != str(len(self.answers) + 1):
            raise Reject(f"The next number is {len(self.answers) + 1}.")
        self.answers.append(text)
        self.last_step, self.said = question.where, [f"You said {text}."]
        self.log.append(LoggedStep(question.where, text, tuple(self.said)))
        self.result_text = ["Counted to three."] if self.complete else []

    def status(self) -> str:
        return f"{len(self.answers)} of {STEPS}"


class Table:
    def replayed(self, difficulty, seed, answers, intro) -> Counting:
        game = Counting(difficulty, seed)
        for text in answers:
            try:
                game.answer(text)
            except Reject as reject:
                raise SessionError(str(reject)) from None
        return game

    def undone(self, game: SoloGame, count: int) -> Counting:
        return self.replayed(game.difficulty, game.seed, game.answers[:-count], ())

    def page_options(self, question: SoloQuestion, faces) -> dict:
        return {"hint": question.help}

    def page_rival(self, game: SoloGame, faces) -> dict:
        return {"counted": len(game.answers)}

    def page_status(self, game: SoloGame) -> list[Fact]:
        return [Fact("Counted", str(len(game.answers)))]

    def page_said(self, game: SoloGame) -> list[Said]:
        return [Said(line, True) for line in game.said]

    def page_log(self, game: SoloGame) -> list[LoggedStep]:
        assert isinstance(game, Counting)
        return game.log

    def page_result(self, game: SoloGame) -> FinalScore | None:
        if not game.complete:
            return None
        return FinalScore("Three: counted", (ScoreLine("Numbers", 3, None),), ())


class CountingCompanion:
    difficulties = ("slow", "fast")
    strength = "never measured"

    def __init__(self, folder: Path):
        self.folder = folder
        self.page = folder

    def default_save_path(self) -> Path:
        return self.folder / "counting.json"

    def run_session(self, catalog, stdin, stdout, **settings) -> int:
        return 0

    def table(self, catalog) -> Table:
        return Table()

    def read_save(self, path: Path, catalog) -> SavedGame:
        data = json.loads(path.read_text())
        return SavedGame(data["difficulty"], data["seed"], tuple(data["answers"]))

    def guard(self, path: Path) -> None:
        if path.exists() and not json.loads(path.read_text())["complete"]:
            raise SessionError(f"{path} holds an unfinished game")

    def write_save(self, path: Path, game: SoloGame) -> None:
        saved = {"difficulty": game.difficulty, "seed": game.seed, "answers": game.answers}
        path.write_text(json.dumps(saved | {"complete": game.complete}))

    def history_path(self, save_path: Path) -> Path:
        return save_path.with_suffix(".history.json")

    def read_history(self, path: Path) -> list[dict]:
        return json.loads(path.read_text()) if path.exists() else []

    def record(self, path: Path, game: SoloGame) -> bool:
        path.write_text(json.dumps([*self.read_history(path), {"seed": game.seed}]))
        return True

    def history_csv(self, games: list[dict]) -> str:
        return "seed\n" + "".join(f"{g['seed']}\n" for g in games)


@pytest.fixture
def counting(tmp_path) -> SoloCompanion:
    return CountingCompanion(tmp_path)


def test_the_page_plays_a_companion_it_knows_only_by_the_protocols(counting, tmp_path):
    page = Companion.open(counting, MINI, difficulty="slow", seed=7)
    state = page.state()
    assert state["question"]["where"] == "number 1"
    assert state["question"]["options"] == {"hint": "Count up from 1."}
    assert (state["rival"], state["status"]) == ({"counted": 0}, "0 of 3")
    with pytest.raises(Reject, match="The next number is 1"):
        page.answer("2")
    page.answer("1", after=0)
    with pytest.raises(Moved):
        page.answer("2", after=0)  # sent twice: the page saw no answer the first time
    page.answer("2", after=1)
    assert json.loads((tmp_path / "counting.json").read_text())["answers"] == ["1", "2"]
    with pytest.raises(Moved, match="for number 2, but the game is at number 3"):
        page.answer("3", step="number 2")  # a second tap, meant for the step before
    page.undo(1)
    state = page.state()
    assert (state["answers"], state["notice"], state["redo"]) == (1, "Undone: 2 (number 2).", 1)
    assert [step["step"] for step in state["log"]] == ["", "number 1"]
    assert state["facts"] == [{"label": "Counted", "value": "1"}]
    page.redo(after=1)
    state = page.state()
    assert (state["answers"], state["notice"], state["redo"]) == (2, "Redone: 2 (number 2).", 0)
    with pytest.raises(Reject, match="Nothing to redo"):
        page.redo()
    page.undo(2)
    assert page.state()["notice"] == "Undone: 2 answers, back to number 1."
    page.answer("1", step="number 1")  # the answer undone first: the next one stays to redo
    assert page.state()["redo"] == 1
    page.answer("2")
    assert page.state()["final"] is None
    page.answer("3")
    finished = page.state()
    assert finished["complete"] and finished["result"] == ["Counted to three."]
    assert finished["final"] == {
        "headline": "Three: counted",
        "lines": ({"label": "Numbers", "you": 3, "rival": None},),
        "notes": (),
    }
    assert page.games() == [{"seed": 7}]


def test_an_unfinished_save_is_resumed_and_a_difficulty_checked(counting, tmp_path):
    first = Companion.open(counting, MINI, difficulty="fast", seed=3)
    first.answer("1")
    again = Companion.open(counting, MINI, difficulty="slow", seed=99)
    assert (again.engine.difficulty, again.engine.seed, again.engine.answers) == ("fast", 3, ["1"])
    assert again.state()["note"] == "Resumed the unfinished game in counting.json."
    with pytest.raises(Reject, match="Choose the difficulty: slow or fast."):
        again.new_game("hard", 1)


def test_the_answers_to_redo_survive_a_restart_while_the_save_is_where_they_left_it(
    counting, tmp_path
):
    first = Companion.open(counting, MINI, difficulty="slow", seed=7)
    first.answer("1")
    first.answer("2")
    first.undo(2)
    # protopress started again: the same save, the same two answers to redo
    again = Companion.open(counting, MINI, difficulty="slow", seed=7)
    assert again.state()["redo"] == 2
    again.redo()
    assert again.engine.answers == ["1"]
    assert Companion.open(counting, MINI, difficulty="slow", seed=7).state()["redo"] == 1
    # the game went on elsewhere (the terminal): the answers to redo no longer follow
    counting.write_save(tmp_path / "counting.json", counting.table(MINI).replayed(
        "slow", 7, ["1", "2"], ()))  # fmt: skip
    assert Companion.open(counting, MINI, difficulty="slow", seed=7).state()["redo"] == 0
    # an answer of the page's own clears them, and the file with them
    third = Companion.open(counting, MINI, difficulty="slow", seed=7)
    third.undo(1)
    assert (tmp_path / "counting.redo.json").exists()
    third.answer("2")  # the undone answer again: the rest (none) stays to redo
    assert not (tmp_path / "counting.redo.json").exists()
    assert Companion.open(counting, MINI, difficulty="slow", seed=7).state()["redo"] == 0


def test_the_page_is_sent_no_folder_of_this_machine(counting, tmp_path):
    """A folder's path holds the user's name: the state names the save by its file
    name, and a message naming a file in the save's folder or under the home folder
    loses the folder (the page may be open on another machine)."""

    class NoHistory(CountingCompanion):
        def record(self, path: Path, game: SoloGame) -> bool:
            raise SessionError(f"{path}: damaged history (see {Path.home() / 'notes.txt'})")

    page = Companion.open(NoHistory(tmp_path), MINI, difficulty="slow", seed=7)
    for number in "123":
        page.answer(number)
    state = page.state()
    assert state["save"] == "counting.json"
    assert state["warning"] == (
        "The game is saved, but not in the history: counting.history.json: damaged history "
        f"(see ~{os.sep}notes.txt)"
    )
    assert str(tmp_path) not in json.dumps(state) and str(Path.home()) not in json.dumps(state)
