"""A search bot: information-set Monte Carlo tree search over seat copies.

Each playout starts from a fresh seat copy of the position (chance re-seeded,
hidden information resampled as the seat may imagine it: rules/information.py),
walks one tree of action sequences shared by all those copies (single-observer
ISMCTS: a child's exploration counts the playouts in which it was available),
adds one node and scores the result for every seat. A node's moves are
ranked by the mover's one-step heuristic and searched best first,
1 + WIDENING * sqrt(visits) of them (progressive widening): in the top
WIDEN_LEVELS levels, or in every level when the game's BotSupport offers a
fast `action_values` (priors are then cheap: rules/bot_support.py). At each
node the seat to move picks by its own reward (max^n), so the same code plays
versus, team and solo games.
Below each move the tree keeps a branch per answer to what chance showed
every seat since the last decision (a chance node): the public named draws of
the state's Chance (rules/chance.observe: a die rolled, a gem drawn from the
bag; a shuffle or a card dealt face down shows nothing), so that the moves
after a draw are learned for what was drawn, not averaged over every draw.

After the new node comes the playout. A game whose BotSupport has a
`playout_policy` has it played to the end of the turn in progress
(ROLLOUT_TURNS turns, or as many as its `playout_turns` names for the position;
None: to the end of the game), so that the heuristic judges positions
between turns, where it is comparable, and never halfway through a turn
(docs/balance.md, "How strong are the bots"). Its `playout_step`, when it has
one, is the same move played, and the state after it, which may be another
object holding that position (the look-ahead's own trial of the move, kept
rather than applying the move again). Without a playout policy the heuristic
judges the new node itself (ROLLOUT_DEPTH random decisions, none by default);
a greedy share (`greedy`) takes rollout decisions by the one-step heuristic
first.

The reward of a seat lies in [0, 1]: half from the result (a finished game:
the seat's share of the win, or the team's or solo player's win; a cut-off
game: whether the seat's heuristic leads), half from the seat's heuristic
scaled between the lowest and highest seen in this search. A game may set
that share, the exploration constant and the levels that widen for its own
search (its BotSupport's `search`, a SearchSettings). Budgets in playouts are
reproducible (same seed, same move); budgets in milliseconds depend on the
machine and are not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from protopress.rules.bot_support import BotSupport, bot_support
from protopress.rules.bots import action_values, greedy_action
from protopress.rules.chance import observe
from protopress.rules.core import Action, outcome_of
from protopress.rules.information import seat_copy
from protopress.rules.spec import OutcomeKind

DEFAULT_PLAYOUTS = 200
ROLLOUT_DEPTH = 0  # random decisions after the new node before the heuristic judges
# With the game's own playout_policy: playouts run it for this many turns (None: to the
# end of the game), without a cap on decisions; a game may name its own for a position,
# its BotSupport's playout_turns (Gem Rush's Rush mode plays 3; docs/balance.md).
ROLLOUT_TURNS: int | None = 1
ROOT_WIDTH = 10  # with more legal moves, search the best ROOT_WIDTH by one-step heuristic
ROLLOUT_GREEDY = 0.0  # share of rollout decisions taken greedily (one-step heuristic)
WIDENING = 1.0  # a node visited n times searches its best 1 + WIDENING * sqrt(n) moves by prior
WIDEN_LEVELS = 2  # the tree levels (root = 1) that widen by prior; deeper ones try all moves
# ... unless the game offers a fast action_values: then priors are cheap and every level
# widens (else a deep node's first reply is a random one of hundreds, as in Caverns),
# or the levels the game's search settings name (bot_support.SearchSettings).


class Declared(Enum):
    """A setting the game may declare for its own search, else the module's default."""

    BY_GAME = "by-game"


@dataclass(frozen=True)
class Budget:
    playouts: int | None = DEFAULT_PLAYOUTS
    millis: float | None = None

    def __str__(self) -> str:
        return f"{self.millis:g} ms" if self.millis else f"{self.playouts} playouts"


def budget_of(name: str, text: str) -> Budget:
    """mcts:1000 (playouts) or mcts:250ms (milliseconds a move); ValueError naming the bot."""
    if not text:
        return Budget()
    if text.endswith("ms") and text[:-2].isdigit() and 1 <= int(text[:-2]) <= 600_000:
        return Budget(playouts=None, millis=float(text[:-2]))
    if text.isdigit() and 1 <= int(text) <= 1_000_000:
        return Budget(playouts=int(text))
    raise ValueError(
        f"bot {name!r}: expected mcts:PLAYOUTS (1 to 1000000) or mcts:MSms (1 to 600000)"
    )


class _Node:
    __slots__ = ("children", "visits", "available", "totals", "prior", "outcomes")

    def __init__(self, players: int):
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.prior: dict[Action, float] = {}  # the mover's one-step heuristic per action
        self.outcomes: dict[Hashable, _Node] | None = None  # by what chance showed after

    def outcome(self, seen: Hashable) -> _Node:
        """The branch of this action's node for what chance showed after it
        (chance.observe): the node whose moves are searched from there."""
        if self.outcomes is None:
            self.outcomes = {}
        branch = self.outcomes.get(seen)
        if branch is None:
            branch = self.outcomes[seen] = _Node(len(self.totals))
        return branch


class _Scale:
    """The lowest and highest heuristic value seen per seat, to map values into [0, 1]."""

    def __init__(self, players: int):
        self.low = [math.inf] * players
        self.high = [-math.inf] * players

    def __call__(self, seat: int, value: float) -> float:
        self.low[seat] = min(self.low[seat], value)
        self.high[seat] = max(self.high[seat], value)
        spread = self.high[seat] - self.low[seat]
        return 0.5 if spread <= 0 else (value - self.low[seat]) / spread


class MctsBot:
    name = "mcts"

    def __init__(
        self,
        seed: int,
        budget: Budget | None = None,
        depth: int | None = None,
        exploration: float | None = None,
        greedy: float | None = None,
        widening: float | None = None,
        turns: int | None | Declared = Declared.BY_GAME,
        widen_levels: int | None = None,
    ):
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.depth = ROLLOUT_DEPTH if depth is None else depth
        self.exploration = exploration  # None: the game's search settings say
        self.greedy = ROLLOUT_GREEDY if greedy is None else greedy
        self.widening = WIDENING if widening is None else widening
        self.turns = turns  # BY_GAME: the game's playout_turns for the playout's world
        self.widen_levels = widen_levels  # None: WIDEN_LEVELS, or every level (fast priors)

    def choose(self, game: Any, state: Any, legal: Sequence[Action] | None = None) -> Action:
        seat = game.to_move(state)
        actions = game.legal_actions(state) if legal is None else legal
        if len(actions) == 1:
            return actions[0]
        players = len(game.scores(state))
        candidates = self._candidates(game, state, seat, actions)
        if len(candidates) == 1:
            return candidates[0]
        root = _Node(players)
        scale = _Scale(players)
        deadline = (
            time.perf_counter() + self.budget.millis / 1000 if self.budget.millis else math.inf
        )
        playouts = 0
        while (self.budget.playouts is None or playouts < self.budget.playouts) and (
            playouts == 0 or time.perf_counter() < deadline
        ):
            self._playout(game, seat_copy(game, state, seat, self.rng), root, scale, candidates)
            playouts += 1
        legal = [a for a in candidates if a in root.children]
        most = max(root.children[a].visits for a in legal)
        return self.rng.choice([a for a in legal if root.children[a].visits == most])

    def _candidates(
        self, game: Any, state: Any, seat: int, actions: Sequence[Action]
    ) -> Sequence[Action]:
        """The root moves worth searching: all of them, or the best ROOT_WIDTH by a
        one-step look-ahead on a seat copy (as the greedy bot judges them)."""
        if len(actions) <= ROOT_WIDTH:
            return actions
        base = seat_copy(game, state, seat, self.rng)
        values = []
        for action in actions:
            trial = base.copy()
            game.apply(trial, action)
            values.append(game.heuristic(trial, seat))
        ranked = sorted(range(len(actions)), key=lambda i: (-values[i], i))
        return [actions[i] for i in ranked[:ROOT_WIDTH]]

    def _playout(
        self, game: Any, world: Any, root: _Node, scale: _Scale, candidates: Sequence[Action]
    ) -> None:
        node, path = root, [root]
        support = bot_support(game)
        settings = support.search
        explore = settings.exploration if self.exploration is None else self.exploration
        levels: float = WIDEN_LEVELS
        if self.widen_levels is not None:
            levels = self.widen_levels
        elif settings.widen_levels is not None:
            levels = settings.widen_levels
        elif support.action_values is not None:
            levels = math.inf
        level = 1  # of the tree's decisions (a chance node's branch is no level of its own)
        while not game.is_over(world):
            legal = candidates if node is root else game.legal_actions(world)
            if not legal:
                break
            mover = game.to_move(world)
            widen = self.widening and level <= levels
            if widen:
                legal = self._widened(game, world, node, legal, mover)
            untried = [a for a in legal if a not in node.children]
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[0] if widen else self.rng.choice(untried)
                child = node.children[action] = _Node(len(root.totals))
                child.available = 1
                game.apply(world, action)
                path.append(child)
                break
            action = self._select(node, legal, mover, explore)
            game.apply(world, action)
            node = node.children[action]
            path.append(node)
            shown = observe(world)
            if shown:  # a chance node: its branch for what was drawn
                node = node.outcome(shown)
                path.append(node)
            level += 1
        rewards = self._rollout(game, world, scale)
        for visited in path:
            visited.visits += 1
            for seat, reward in enumerate(rewards):
                visited.totals[seat] += reward

    def _widened(
        self, game: Any, world: Any, node: _Node, legal: Sequence[Action], mover: int
    ) -> list[Action]:
        """Progressive widening by the heuristic: the legal moves ranked by the mover's
        one-step heuristic (computed on the first world that offers each, kept in
        the node), of which the best 1 + WIDENING * sqrt(visits) are searched."""
        missing = [a for a in legal if a not in node.prior]
        if missing and len(legal) > 1:
            values = action_values(game, world, mover, missing)
            node.prior.update(zip(missing, values, strict=True))
        elif missing:
            node.prior[missing[0]] = 0.0
        width = 1 + int(self.widening * math.sqrt(node.visits))
        if width >= len(legal):
            return sorted(legal, key=lambda a: -node.prior[a])
        ranked = sorted(range(len(legal)), key=lambda i: (-node.prior[legal[i]], i))
        return [legal[i] for i in ranked[:width]]

    def _select(self, node: _Node, legal: Sequence[Action], mover: int, explore: float) -> Action:
        best, best_value = [], -math.inf
        for action in legal:
            child = node.children[action]
            value = child.totals[mover] / child.visits + explore * math.sqrt(
                math.log(child.available) / child.visits
            )
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _rollout(self, game: Any, world: Any, scale: _Scale) -> list[float]:
        support = bot_support(game)
        policy = self.greedy > 0 or support.playout_policy is not None
        depth = self.depth if self.depth or not policy else math.inf
        turns = self._turns(game, support, world)
        stop = world.turns + turns if policy and turns is not None else math.inf
        decisions = 0
        step = support.playout_step if not self.greedy else None
        while decisions < depth and world.turns < stop and not game.is_over(world):
            legal = game.legal_actions(world)
            if not legal:
                break
            if step is not None and len(legal) > 1:
                world = step(
                    game, world, self.rng, legal
                )  # may be another state: the same position
            else:
                game.apply(world, self._rollout_action(game, support, world, legal))
            decisions += 1
        players = len(scale.low)
        values = [game.heuristic(world, seat) for seat in range(players)]
        results = _results(game, world, values)
        share = support.search.result_share
        rest = 1 - share  # 0.5 and 0.5 by default: the same floats as halves
        return [share * results[s] + rest * scale(s, values[s]) for s in range(players)]

    def _turns(self, game: Any, support: BotSupport, world: Any) -> int | None:
        """How many turns a playout from world runs: the bot's own setting, else the
        game's playout_turns, else ROLLOUT_TURNS."""
        if not isinstance(self.turns, Declared):
            return self.turns
        declared = support.playout_turns
        return ROLLOUT_TURNS if declared is None else declared(game, world)

    def _rollout_action(
        self, game: Any, support: BotSupport, world: Any, legal: list[Action]
    ) -> Action:
        """Greedy by the one-step heuristic for a share `greedy` of the decisions; the
        others by the game's own rollout policy if it has one, else at random."""
        if len(legal) == 1:
            return legal[0]
        if self.greedy and (self.greedy >= 1 or self.rng.random() < self.greedy):
            return greedy_action(game, world, self.rng)
        policy = support.playout_policy
        if policy is not None:
            return policy(game, world, self.rng)
        return self.rng.choice(legal)


def _results(game: Any, world: Any, values: list[float]) -> list[float]:
    """Each seat's result in [0, 1]: from the outcome when the game is over, else who leads."""
    players = len(values)
    if game.is_over(world):
        outcome = outcome_of(game, world)
        if outcome.kind is OutcomeKind.TEAM:
            return [float(bool(outcome.team_won))] * players
        if outcome.kind is OutcomeKind.SOLO and outcome.solo_won is not None:
            return [float(outcome.solo_won)] * players
        winners = outcome.winners
        return [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    if players == 1:
        return [0.5]
    best = max(values)
    leaders = [s for s in range(players) if values[s] == best]
    return [1 / len(leaders) if s in leaders else 0.0 for s in range(players)]
