"""DragonStone Mine's bot support: the greedy look-ahead's fast path and the
search's playout policy and settings, declared as SUPPORT (rules/bot_support.py).
The rules are rules.py's; tests/games/dragonstone_mine/test_fast.py holds every
value here to copy + apply + heuristic."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from protopress.games.dragonstone_mine import effects as fx
from protopress.games.dragonstone_mine.actions import (
    Choose,
    DiscardCard,
    DragonstoneAction,
    DrawCard,
    TakeFaceUp,
    TowerAction,
)
from protopress.games.dragonstone_mine.effects import Decision, State
from protopress.games.dragonstone_mine.rules import DragonstoneMine
from protopress.games.dragonstone_mine.scoring import TowerChange
from protopress.games.dragonstone_mine.towers import TOWER_DECISIONS, Tower, tower_after
from protopress.games.dragonstone_mine.watch import TowerWatch
from protopress.rules.bot_support import BotSupport, SearchSettings
from protopress.rules.bots import best_of, greedy_action, reference_values


def action_values(
    game: DragonstoneMine, state: State, seat: int, actions: Sequence[DragonstoneAction]
) -> list[float]:
    """heuristic(trial, seat) after each action applied to its own copy, as the
    greedy bot judges them (bots.reference_values), with fewer copies (_LookAhead;
    tests/games/dragonstone_mine/test_fast.py: the same floats)."""
    opened = state.decision
    if opened is None or opened.seat != seat:
        return reference_values(game, state, seat, actions)
    look = _LookAhead(game, state, opened)
    return [look.value(action) for action in actions]


def playout_policy(game: DragonstoneMine, state: State, rng: random.Random) -> DragonstoneAction:
    """The search bot's playout move: the greedy bot's. The search plays it to the
    end of the turn, so that every leaf is judged between turns (docs/balance.md)."""
    return greedy_action(game, state, rng)


def playout_step(
    game: DragonstoneMine, state: State, rng: random.Random, legal: Sequence[DragonstoneAction]
) -> State:
    """playout_policy's move (legal: the position's actions, two or more), played:
    the state after it, which is the look-ahead's own trial of the move when it
    kept one (a playout's world is its own: nothing else holds it)."""
    assert state.decision is not None  # legal holds two actions or more
    look = _LookAhead(game, state, state.decision, keep=True)
    values = [look.value(action) for action in legal]
    action = best_of(legal, values, rng)  # greedy's
    after = look.played(action)
    if after is None:
        game.apply(state, action)
        return state
    return after


class _LookAhead:
    """The heuristic after each action of one decision, judged once per group of
    actions that reach the same position but for what the heuristic sees alike:

    - stacking the held gem, moving or swapping top gems change only the
      chooser's tower. The first is played on a copy whose towers are watched
      (effects.apply_watching); when the frames run after it only asked that
      tower questions, each other action whose tower gives the same answers
      reaches the same position but for the tower, which is scored alone.
    - taking a card or drawing, and discarding a card (_card_group), change
      only which cards lie where; when neither the frames after the first nor
      the heuristic looked at them (effects.apply_watching_cards), the others
      of its group get its value.
    - choosing whom to steal from or make return a gem, and which spire to
      steal from (CHOICES_ALIKE): every such choice is valued alike, so the
      first is judged and the others get its value.
    """

    def __init__(
        self, game: DragonstoneMine, state: State, opened: Decision, keep: bool = False
    ) -> None:
        self.game, self.state, self.opened, self.seat = game, state, opened, opened.seat
        # keep: the trials played, by action, for `played` (a playout's next world)
        self.kept: dict[DragonstoneAction, State] | None = {} if keep else None
        self.first: DragonstoneAction | None = None  # the tower action the watched trial played
        # (kept) the others judged from its answers: their towers, and the towers' values
        self.alike: dict[DragonstoneAction, tuple[Tower, tuple[int, int]]] = {}
        self.same_loose = False  # the frames after the watched trial left the loose gems
        self.cards = opened.kind in CARD_DECISIONS
        self.choices = opened.kind in CHOICES_ALIKE
        self.judged: dict[str, float] = {}  # by group: of cards, when none was looked at; "choose"
        self.towers = opened.kind in TOWER_DECISIONS  # until the frames after one read it
        self.watch: TowerWatch | None = None  # what the frames after a tower action asked
        self.rest: tuple[float, int] = (0.0, 0)  # and the prospects and rival they left
        self.change: TowerChange | None = None

    def value(self, action: DragonstoneAction) -> float:
        if self.towers:
            tower = tower_after(self.state, action)
            if tower is not None:
                # tower_after gives a tower for a TowerAction alone
                return self._tower_value(cast(TowerAction, action), tower)
        elif self.cards:
            group = _card_group(self.opened, action)
            if group is not None:
                return self._card_value(action, group)
        elif self.choices and type(action) is Choose:
            known = self.judged.get("choose")
            if known is None:
                known = self.judged["choose"] = self._by_the_book(action)
            return known
        return self._by_the_book(action)

    def _by_the_book(self, action: DragonstoneAction) -> float:
        trial = self.state.copy()
        fx.apply(trial, action)
        if self.kept is not None:
            self.kept[action] = trial
        return self.game.heuristic(trial, self.seat)

    def played(self, action: DragonstoneAction) -> State | None:
        """The position action reaches, from the trial that played it or (a tower
        action judged from the watched trial's answers) that trial with the chooser's
        tower put in its place; None when no trial was kept for it."""
        assert self.kept is not None, "played needs a look-ahead that keeps its trials"
        trial = self.kept.get(action)
        if trial is not None:
            return trial
        found = self.alike.get(action)
        if found is None or self.first is None:
            return None
        trial = self.kept[self.first]
        seat, (tower, values) = self.seat, found
        trial.spires[seat] = tower  # tower_after's: it shares spires with the state's
        trial.owned &= ~(1 << seat)  # so it is copied before any change
        trial.tower_points[seat] = [values if self.same_loose else None]
        trial.legal = None  # listed for the watched tower
        return trial

    def _tower_value(self, action: TowerAction, tower: Tower) -> float:
        state, seat, watch = self.state, self.seat, self.watch
        if watch is None:
            trial = state.copy()
            watch = self.watch = fx.apply_watching(trial, action)
            cell = trial.tower_points[seat]
            self.same_loose = trial.loose[seat] == state.loose[seat]
            if cell[0] is None and self.same_loose and trial.spires[seat] == tower:
                cell[0] = self._change().after(tower, action.spires)  # the frames left it so
            value, self.rest = self.game._judge(trial, seat)
            self.towers = not watch.read
            if self.kept is not None:
                self.kept[action], self.first = trial, action
            return value
        if watch.answers and not watch.same_answers(tower, state.rules.capacities):
            return self._by_the_book(action)
        change = self.change or self._change()
        values = change.after(tower, action.spires)  # the spires it changes
        if self.kept is not None:
            self.alike[action] = tower, values
        return values[0] + values[1] + self.rest[0] - self.rest[1]

    def _change(self) -> TowerChange:
        """Scores the chooser's towers after the actions, from the tower before them."""
        change = self.change
        if change is None:
            state, seat = self.state, self.seat
            before = self.game._tower_values(state, seat)  # kept by the state
            change = self.change = TowerChange(state.rules, state.spires[seat], before)
        return change

    def _card_value(self, action: DragonstoneAction, group: str) -> float:
        known = self.judged.get(group)
        if known is not None:
            return known
        seat, game = self.seat, self.game
        trial = self.state.copy()
        value, seen = fx.apply_watching_cards(trial, action, lambda t: game.heuristic(t, seat))
        if self.kept is not None:
            self.kept[action] = trial
        if not seen:
            self.judged[group] = value
        return value


CARD_DECISIONS = ("action", "draw", "discard")  # decisions whose actions may move cards
# Decisions whose "choose" actions the heuristic values alike. Choosing a player
# (target) opens that player's steal or return decision at once (only players it
# can open for are offered), and the heuristic reads no decision's player but the
# chooser's. A gem is stolen from an uncapped spire (stealable, towers.py), where a gem
# scores per_gem and nothing more (scoring.spire_share): the victim loses the same
# points whichever is taken, and the thief holds a gem to stack either way.
# tests/games/dragonstone_mine/test_fast.py holds them to the book's values.
CHOICES_ALIKE = ("target", "steal")


def _card_group(opened: Decision, action: DragonstoneAction) -> str | None:
    """The group of actions that reach positions differing only in which cards lie
    where: taking a face-up card or the deck's top (the hand gains one, the deck
    gives one), and discarding one card or another. None for any other action."""
    kind = opened.kind
    if kind in ("action", "draw") and (type(action) is TakeFaceUp or type(action) is DrawCard):
        return "take"
    if kind in ("action", "discard") and type(action) is DiscardCard:
        return "discard"
    return None


SUPPORT = BotSupport(
    action_values=action_values,
    playout_policy=playout_policy,
    playout_step=playout_step,
    # The search splits its tree by the gem each draw shows (the bag draw is public) and
    # widens by prior at the root only; it explores less and weighs the playout's
    # result (who leads at the turn's end) more. Together: 80% of 280 games against
    # greedy where the settings before (two widened levels, no chance nodes) won 69%
    # (docs/balance.md, "DragonStone: a branch per gem drawn").
    search=SearchSettings(exploration=0.35, result_share=0.75, widen_levels=1),
)
