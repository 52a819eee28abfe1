"""The conformance suite: every built-in game and the example game pass it, and each
check can fail: a small game broken in one way at a time is caught by the check
named for that way, located by seed and decision."""

import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.games import builtin_specs
from protopress.rules.bot_support import BotSupport
from protopress.rules.bots import reference_values
from protopress.rules.conform import (
    CHECKS,
    DEFAULT_DECISIONS,
    DEFAULT_GAMES,
    NamedCheck,
    Settings,
    Subject,
    assert_conforms,
    run_suite,
)
from protopress.rules.core import IllegalAction, top_seats
from protopress.rules.plugins import load_rules

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cottage-market"
RULES = str(EXAMPLE / "rules.py")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# --- the games that ship pass -----------------------------------------------------------


@pytest.mark.parametrize("spec", builtin_specs(), ids=lambda spec: spec.id)
def test_every_built_in_game_conforms(spec):
    """One game at each player count the game allows, random and greedy in turn."""
    report = assert_conforms(spec, games=1)
    assert [result.check for result in report.results] == ["play"] + [c.name for c in CHECKS]
    counts = spec.max_players - spec.min_players + 1
    assert all(result.games == counts for result in report.results)


def test_the_example_game_conforms():
    report = assert_conforms(load_rules(RULES), games=2)
    assert report.results[0].games == 2 * 3  # two games at 2, 3 and 4 players


def test_assert_conforms_takes_an_engine_with_a_spec_and_its_options():
    engine = load_rules(RULES).new_game()  # an engine the kit made knows its spec
    report = assert_conforms(engine, games=1, players=[3], options={"rounds": 2})
    assert report.results[0].games == 1
    with pytest.raises(TypeError, match="expected a GameSpec"):
        assert_conforms(Pile)


# --- a small game to break ------------------------------------------------------------------


@dataclass
class PileState:
    rng: random.Random
    pile: list[int]  # the face-down tokens, taken from the front
    taken: list[list[int]]  # each seat's tokens
    cache: dict = field(default_factory=dict)  # scores by the tokens taken: shared by copies
    seat: int = 0
    turns: int = 0

    def copy(self):
        twin = random.Random()
        twin.setstate(self.rng.getstate())
        taken = [list(tokens) for tokens in self.taken]
        return PileState(twin, list(self.pile), taken, self.cache, self.seat, self.turns)


class Pile:
    """Seats take one or two tokens from a shuffled pile in turn; the most points wins."""

    id, min_players, max_players = "pile", 2, 3

    def setup(self, catalog, players, rng, options):
        pile = list(range(1, 10))
        rng.shuffle(pile)
        return PileState(rng, pile, [[] for _ in range(players)])

    def to_move(self, state):
        return None if self.is_over(state) else state.seat

    def legal_actions(self, state):
        if self.is_over(state):
            return []
        return [("take", n) for n in (1, 2) if n <= len(state.pile)]

    def apply(self, state, action):
        count = action[1]
        state.taken[state.seat] += state.pile[:count]
        del state.pile[:count]
        state.seat = (state.seat + 1) % len(state.taken)
        state.turns += 1

    def is_over(self, state):
        return not state.pile

    def scores(self, state):
        key = tuple(map(tuple, state.taken))
        if key not in state.cache:  # filled by whichever copy asks first: no harm
            state.cache[key] = [sum(tokens) for tokens in state.taken]
        return list(state.cache[key])

    def winners(self, state):
        return top_seats(self.scores(state))

    def heuristic(self, state, seat):
        scores = self.scores(state)
        return scores[seat] - max(s for other, s in enumerate(scores) if other != seat)

    def record(self, state):
        return {}


def check(game_class, games=3, **settings):
    subject = Subject("pile", game_class, None, {}, None)
    return run_suite(subject, Settings(games=games, **settings))


def failing(report):
    return {result.check for result in report.results if not result.ok}


def test_the_small_game_conforms_with_a_cache_its_copies_share():
    """The cache changes when a copy scores first, but play never does: no finding."""
    report = check(Pile)
    assert report.ok, report.findings
    assert report.results[0].games == 6


class ShallowState(PileState):
    def copy(self):  # the seats' tokens are shared with the copy
        return ShallowState(self.rng, list(self.pile), self.taken, self.cache, self.seat)


class SharedCopy(Pile):
    def setup(self, catalog, players, rng, options):
        state = super().setup(catalog, players, rng, options)
        return ShallowState(state.rng, state.pile, state.taken)


def test_a_copy_that_shares_a_list_is_caught():
    report = check(SharedCopy)
    assert "copy-independent" in failing(report)  # (the greedy bot's copies spoil replay too)
    finding = next(f for f in report.findings if f.check == "copy-independent")
    assert finding.decision == 0  # the first decision's copy already leaks
    assert "applying ('take', " in finding.message
    assert "to a copy changed the original's state.taken[0] (length 0 -> 1)" in finding.message
    assert "it differs from an untouched twin in its scores" in finding.message


@dataclass
class ViewState(PileState):
    original: bool = True

    def copy(self):  # the copy's pile is the original's list, which only the original changes
        taken = [list(tokens) for tokens in self.taken]
        return ViewState(self.rng, self.pile, taken, self.cache, self.seat, self.turns, False)


class OriginalChangesCopies(Pile):
    def setup(self, catalog, players, rng, options):
        state = super().setup(catalog, players, rng, options)
        return ViewState(state.rng, state.pile, state.taken)

    def apply(self, state, action):
        count = action[1]
        state.taken[state.seat] += state.pile[:count]
        if state.original:
            del state.pile[:count]
        else:
            state.pile = state.pile[count:]
        state.seat = (state.seat + 1) % len(state.taken)
        state.turns += 1


def test_a_copy_that_the_original_changes_is_caught():
    report = check(OriginalChangesCopies)
    finding = next(f for f in report.findings if f.check == "copy-independent")
    assert finding.decision == 1
    assert finding.message.startswith(
        "playing on in the original from decision 0 changed a copy's state.pile (length 9 -> "
    )
    assert finding.message.endswith("): played on, it differs in its scores")


class OffersAfterTheEnd(Pile):
    def legal_actions(self, state):
        return [("take", n) for n in (1, 2) if n <= max(1, len(state.pile))]


def test_actions_offered_after_the_end_are_caught():
    report = check(OffersAfterTheEnd)
    found = [f for f in report.findings if f.check == "legal-actions"]
    assert len(found) == 6  # every game
    assert found[0].message == "the game is over but offers ('take', 1)"
    assert found[0].decision is not None and found[0].decision > 0


class StuckBeforeTheEnd(Pile):
    def legal_actions(self, state):
        return [] if len(state.pile) == 1 else super().legal_actions(state)


def test_a_running_game_without_a_legal_action_is_caught():
    report = check(StuckBeforeTheEnd)
    found = [f for f in report.findings if f.check == "legal-actions"]
    assert found, report.findings
    assert found[0].message.endswith("is to move with no legal action")
    assert found[0].decision is not None and found[0].decision > 0


class _Yes(list):
    def __contains__(self, action):
        return True


class AcceptsIllegal(Pile):
    def legal_actions(self, state):
        return _Yes(super().legal_actions(state))


def test_an_illegal_action_that_is_applied_is_caught():
    report = check(AcceptsIllegal)
    assert "illegal-refused" in failing(report)
    finding = next(f for f in report.findings if f.check == "illegal-refused")
    assert finding.message.endswith("is not legal but was applied")


class ChangesWhenRefusing(Pile):
    """Refuses an unknown action, but only after moving the seat on."""

    def legal_actions(self, state):
        return _Yes(super().legal_actions(state))

    def apply(self, state, action):
        state.turns += 1
        if action not in super().legal_actions(state):
            raise IllegalAction(f"{action} is not legal")
        state.turns -= 1
        super().apply(state, action)


def test_a_refusal_that_changes_the_state_is_caught():
    report = check(ChangesWhenRefusing)
    finding = next(f for f in report.findings if f.check == "illegal-refused")
    assert finding.message.startswith("refusing ")
    assert finding.message.endswith("changed state.turns")


class UnseededSetup(Pile):
    def setup(self, catalog, players, rng, options):
        state = super().setup(catalog, players, rng, options)
        state.pile = [random.SystemRandom().randrange(10**9) for _ in state.pile]
        return state


def test_a_setup_that_ignores_the_seed_is_caught():
    report = check(UnseededSetup)
    assert "deterministic" in failing(report)
    finding = next(f for f in report.findings if f.check == "deterministic")
    assert finding.message.startswith("scores [")
    copies = [f for f in report.findings if f.check == "copy-independent"]
    assert copies and all(
        f.message == "a twin set up from the same seed differs in state.pile[0] (see deterministic)"
        for f in copies
    )


def _wrong_values(game, state, seat, actions):
    values = reference_values(game, state, seat, actions)
    return [values[0] + 0.5, *values[1:]]


class FastButWrong(Pile):
    bot_support = BotSupport(action_values=_wrong_values)


def test_fast_action_values_that_disagree_are_caught():
    report = check(FastButWrong)
    assert failing(report) == {"fast-paths"}
    finding = next(f for f in report.findings if f.check == "fast-paths")
    assert finding.decision == 0
    assert finding.message.startswith("action_values: ('take', 1) is valued ")
    assert "by the book" in finding.message


class BestButWrong(Pile):
    bot_support = BotSupport(best_actions=lambda game, state, seat, actions: list(actions))


def test_fast_best_actions_that_disagree_are_caught():
    report = check(BestButWrong)
    assert failing(report) == {"fast-paths"}
    finding = next(f for f in report.findings if f.check == "fast-paths")
    assert finding.message.startswith("best_actions gives [")


def _right_values(game, state, seat, actions):
    mover, pile = state.seat, state.pile
    values = []
    for action in actions:  # the heuristic after taking, worked out without a copy
        scores = game.scores(state)
        scores[mover] += sum(pile[: action[1]])
        values.append(scores[seat] - max(s for o, s in enumerate(scores) if o != seat))
    return values


class FastAndRight(Pile):
    bot_support = BotSupport(action_values=_right_values)


def test_fast_action_values_that_agree_pass():
    assert check(FastAndRight).ok


def _policy(game, state, rng):
    return rng.choice(game.legal_actions(state))


def _step(game, state, rng, legal):
    game.apply(state, _policy(game, state, rng))
    return state


def _step_elsewhere(game, state, rng, legal):
    chosen = _policy(game, state, rng)
    game.apply(state, next(a for a in legal if a != chosen))  # the other move
    return state


def _step_with_other_draws(game, state, rng, legal):
    rng.random()
    return _step(game, state, rng, legal)


class Steps(Pile):
    """A playout policy and its played form, as the search bot uses them."""

    bot_support = BotSupport(playout_policy=_policy, playout_step=_step)


class StepsElsewhere(Pile):
    bot_support = BotSupport(playout_policy=_policy, playout_step=_step_elsewhere)


class StepsWithOtherDraws(Pile):
    bot_support = BotSupport(playout_policy=_policy, playout_step=_step_with_other_draws)


def test_a_playout_step_that_plays_the_playout_move_passes():
    assert check(Steps).ok


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (StepsElsewhere, "playout_step's position differs from playout_policy's"),
        (StepsWithOtherDraws, "playout_step draws otherwise than playout_policy choosing"),
    ],
)
def test_a_playout_step_that_differs_from_the_playout_move_is_caught(engine, message):
    report = check(engine)
    assert failing(report) == {"fast-paths"}
    finding = next(f for f in report.findings if f.check == "fast-paths")
    assert finding.message.startswith(message) and finding.decision == 0


class WrongWinner(Pile):
    def winners(self, state):
        scores = self.scores(state)
        return [scores.index(min(scores))]


def test_winners_below_the_top_score_are_caught():
    report = check(WrongWinner)
    assert failing(report) == {"outcome"}
    finding = next(f for f in report.findings if f.check == "outcome")
    assert "below the top score" in finding.message and finding.decision is None


class UnloggableAction(Pile):
    def legal_actions(self, state):
        return [(*action, {1, 2}) for action in super().legal_actions(state)]


def test_actions_that_do_not_go_through_json_are_caught():
    report = check(UnloggableAction)
    finding = next(f for f in report.findings if f.check == "replay")
    assert finding.message.startswith("the action log is not JSON")


class BrokenHeuristic(Pile):
    def heuristic(self, state, seat):
        if len(state.pile) < 3:
            raise KeyError("no such seat")
        return super().heuristic(state, seat)


def test_an_error_in_the_game_is_a_located_finding_not_a_crash():
    report = check(BrokenHeuristic, games=1)
    finding = next(f for f in report.findings if f.check == "copy-independent")
    assert finding.message == "raised KeyError: 'no such seat'"
    assert finding.decision is not None and finding.decision > 0
    assert str(finding).startswith(f"copy-independent: seed {finding.seed}, ")


class FailsToSetUp(Pile):
    def setup(self, catalog, players, rng, options):
        return None.pile  # a bug, not a refusal


class RefusesEveryCount(Pile):
    def setup(self, catalog, players, rng, options):
        raise ValueError(f"pile takes no {players} players")


def test_a_game_that_cannot_be_played_fails_and_one_never_set_up_does_not_pass():
    report = check(FailsToSetUp, games=1)
    assert not report.ok and failing(report) == {"play"}
    assert report.findings[0].message.startswith("raised AttributeError: ")
    assert all(result.games == 0 for result in report.results[1:])
    refused = check(RefusesEveryCount, games=1)
    assert not refused.ok and not refused.findings
    assert [skip.players for skip in refused.skipped] == [2, 3]
    with pytest.raises(AssertionError, match="no game could be set up: pile takes no 2 players"):
        assert_conforms(Subject("pile", RefusesEveryCount, None, {}, None))


def test_assert_conforms_lists_the_findings():
    subject = Subject("pile", FastButWrong, None, {}, None)
    with pytest.raises(AssertionError, match=r"pile does not conform:\nfast-paths: seed \d+"):
        assert_conforms(subject, games=1)


def test_the_decision_bound_spreads_over_the_game():
    """At most `decisions` decisions of a game are examined, evenly apart from the
    first, and the end position besides."""
    seen = []

    def spy(subject, played, walk):
        seen.append(([index for index, _, _ in walk.positions()], len(played.actions)))
        return []

    subject = Subject("pile", Pile, None, {}, None)
    report = run_suite(subject, Settings(games=1, decisions=2), [NamedCheck("spy", spy)])
    assert report.ok and len(seen) == 2
    for indices, total in seen:
        stride = -(-total // 2)
        assert indices == [0, stride, total] if stride < total else [0, total]


# --- the command -------------------------------------------------------------------------


def test_the_command_prints_a_line_per_check():
    result = invoke("conform", "stonespine-architects", "--players", "2", "--games", "1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == ["play"] + [c.name for c in CHECKS]
    assert lines[1].split()[1:4] == ["ok", "1", "games"] and lines[1].endswith(" s")
    assert lines[-1] == "stonespine-architects conforms"


def test_the_command_plays_as_much_as_the_suite_by_default():
    defaults = {param.name: param.default for param in cli.commands["conform"].params}
    assert (defaults["games"], defaults["decisions"]) == (DEFAULT_GAMES, DEFAULT_DECISIONS)


def test_the_command_checks_the_example_rules_as_json():
    result = invoke("conform", "cottage-market", "--rules", RULES, "--games", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[: result.output.rindex("}") + 1])
    assert report["game"] == "cottage-market" and report["ok"] is True
    assert [check["check"] for check in report["checks"]][1:] == [c.name for c in CHECKS]


def test_a_failing_game_exits_1_naming_the_check(tmp_path):
    """The example game as it was before it stopped offering actions after its end."""
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    text = (EXAMPLE / "rules.py").read_text()
    fixed = "        if self.is_over(state):\n            return []  # nothing is offered after the end\n"
    assert fixed in text
    (tmp_path / "rules.py").write_text(text.replace(fixed, ""))
    result = invoke("conform", "cottage-market", "--rules", tmp_path / "rules.py", "--games", "1")
    assert result.exit_code == 1, result.output
    assert "legal-actions      FAIL (3)" in result.output
    assert "decision" in result.output and "the game is over but offers Take(resource='gold')" in (
        result.output
    )
    assert "cottage-market does not conform" in result.output


def test_a_new_project_with_rules_conforms(tmp_path):
    folder = tmp_path / "my-game"
    assert invoke("new", folder, "--with-rules").exit_code == 0
    result = invoke("conform", "my-game", "--rules", folder / "rules.py", "--games", "1")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "my-game conforms"


@pytest.mark.parametrize(
    "args",
    [
        ("no-such-game",),
        ("gem-rush", "--players", "9"),
        ("gem-rush", "--option", "mode=nope"),
        ("gem-rush", "--games", "0"),
    ],
)
def test_usage_errors_exit_2(args):
    result = invoke("conform", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_options_the_game_refuses_at_some_counts_skip_them():
    result = invoke(
        "conform", "stonespine-architects", "--option", "difficulty=hard", "--players", "1",
        "--players", "2", "--games", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        "skipped 2 players: stonespine-architects: difficulty applies to the solo game only\n"
    )
    result = invoke("conform", "stonespine-architects", "--option", "difficulty=hard",
                    "--players", "2")  # fmt: skip
    assert result.exit_code == 1
    assert result.output.endswith(
        "stonespine-architects does not conform: no game could be set up with these options\n"
    )


def test_an_entry_point_game_is_checked(cottage_market_installed):
    result = invoke("conform", "cottage-market", "--games", "1", "--players", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "cottage-market conforms"
