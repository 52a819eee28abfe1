"""Cottage Market: the rules of a small game, written against protopress's engine contract.

The rules, in words (the catalog holds the cards; nothing here names one):

- The resources are the catalog's symbols (gold, wood, stone). Each player
  starts with `start_gold` of the first symbol (option, default 2) and none of the others.
- The top three cards of the shuffled deck lie face up: the market.
- On your turn, first gain one of each resource your built cards produce
  (a card's `produces` field), then do one thing: take 1 of any resource
  from the supply; or build a market card by paying its `cost` (one
  resource per symbol). A built card is yours; the market slot is refilled
  from the deck.
- The game ends after `rounds` rounds (option, default 12), or as soon as the
  market is empty. You score each built card's `points` plus 1 per card built.
  Most points wins; ties share the win.

protopress simulate cottage-market --rules examples/cottage-market/rules.py \\
    --catalog examples/cottage-market/catalog.json
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from protopress.rules.actions import ActionCodec, action, positions
from protopress.rules.chance import Chance, SharedChance
from protopress.rules.core import IllegalAction, top_seats
from protopress.rules.information import FaceDown, SeatView
from protopress.rules.options import Option, OptionType
from protopress.rules.spec import GameSpec, OutcomeKind

MARKET = 3  # face-up cards


# The actions, one small class per verb: they read as words in logs and messages
# (Take(resource='wood')), and the codec writes them to a log as ["take", "wood"].
@action
class Take(NamedTuple):
    """Take 1 of a resource from the supply."""

    resource: str
    verb: Literal["take"] = "take"


@positions(slot="market")  # the card at state.market[slot]: a tap on it at the table
@action
class Build(NamedTuple):
    """Build the market card in a slot, paying its cost."""

    slot: int
    verb: Literal["build"] = "build"


MarketAction = Take | Build
ACTIONS = ActionCodec([Take, Build])


class Card(NamedTuple):
    id: str
    cost: tuple[str, ...]
    points: int
    produces: str | None


@dataclass(slots=True)
class Player:
    resources: Counter = field(default_factory=Counter)
    built: list[Card] = field(default_factory=list)

    def copy(self) -> Player:
        return Player(Counter(self.resources), list(self.built))

    def can_pay(self, cost: tuple[str, ...]) -> bool:
        return not Counter(cost) - self.resources

    def score(self) -> int:
        return sum(card.points + 1 for card in self.built)


@dataclass(slots=True)
class MarketState:
    chance: Chance  # every random draw goes through it, by name (docs/own-rules.md)
    resources: tuple[str, ...]  # the catalog's symbols
    rounds: int
    players: list[Player]
    deck: list[Card]
    market: list[Card]
    seat: int = 0
    turns: int = 0  # completed turns, all seats

    def copy(self) -> MarketState:
        return MarketState(
            self.chance.share(),  # draws what a clone of the generator would
            self.resources,
            self.rounds,
            [p.copy() for p in self.players],
            list(self.deck),
            list(self.market),
            self.seat,
            self.turns,
        )


def _deck(state: MarketState) -> list[Card]:
    return state.deck


class CottageMarket:
    """The engine: setup, whose turn, legal actions, apply, end, scores."""

    actions = ACTIONS
    # What a seat cannot see: the deck's order (the market and everyone's cards are open).
    seat_view = SeatView((FaceDown("deck", _deck),))

    def setup(self, catalog, players: int, rng: random.Random, options) -> MarketState:
        options = SPEC.parse_options(options or {})
        deck = [
            Card(c.id, tuple(c.get("cost") or ()), int(c.get("points") or 0), c.get("produces"))
            for c in catalog.of_kind("card")
            for _ in range(c.count)
        ]
        chance = SharedChance(rng)
        chance.shuffle("deck", deck)  # face down: the order is no seat's to see
        resources = tuple(symbol.id for symbol in catalog.of_kind("symbol"))
        if not resources or not deck:
            raise ValueError(f"{catalog.path}: the game needs symbols (resources) and cards")
        start = Counter({resources[0]: options["start_gold"]})
        table = [Player(Counter(start)) for _ in range(players)]
        market = [deck.pop() for _ in range(MARKET)]  # from the top, as every draw
        state = MarketState(chance, resources, options["rounds"], table, deck, market)
        _produce(state)
        return state

    def to_move(self, state: MarketState) -> int | None:
        return None if self.is_over(state) else state.seat

    def legal_actions(self, state: MarketState) -> list[MarketAction]:
        if self.is_over(state):
            return []  # nothing is offered after the end
        player = state.players[state.seat]
        actions: list[MarketAction] = [Take(resource) for resource in state.resources]
        seen = set()
        for slot, card in enumerate(state.market):
            if card.id not in seen and player.can_pay(card.cost):
                seen.add(card.id)
                actions.append(Build(slot))
        return actions

    def apply(self, state: MarketState, action: MarketAction) -> None:
        player = state.players[state.seat]
        if isinstance(action, Take) and action.resource in state.resources:
            player.resources[action.resource] += 1
        elif isinstance(action, Build):
            slot = action.slot
            if not (isinstance(slot, int) and 0 <= slot < len(state.market)):
                raise IllegalAction(f"no market card {slot}")
            card = state.market[slot]
            if not player.can_pay(card.cost):
                raise IllegalAction(f"cannot pay for {card.id}")
            player.resources -= Counter(card.cost)
            player.built.append(card)
            if state.deck:
                state.market[slot] = state.deck.pop()
            else:
                del state.market[slot]
        else:
            raise IllegalAction(f"unknown action {action!r}")
        state.turns += 1
        state.seat = (state.seat + 1) % len(state.players)
        if not self.is_over(state):
            _produce(state)

    def is_over(self, state: MarketState) -> bool:
        return state.turns >= state.rounds * len(state.players) or not state.market

    def scores(self, state: MarketState) -> list[int]:
        return [player.score() for player in state.players]

    def winners(self, state: MarketState) -> list[int]:
        return top_seats(self.scores(state))

    def heuristic(self, state: MarketState, seat: int) -> float:
        player = state.players[seat]
        producers = sum(card.produces is not None for card in player.built)
        return player.score() + 0.4 * sum(player.resources.values()) + 0.8 * producers

    def record(self, state: MarketState) -> dict:
        built = [[card.id for card in p.built] for p in state.players]
        # "used": the cards each seat built, once each, for the balance lab (docs/own-rules.md)
        return {"built": built, "used": [sorted(set(ids)) for ids in built]}


def _produce(state: MarketState) -> None:
    """The player about to move gains what their built cards produce."""
    player = state.players[state.seat]
    for card in player.built:
        if card.produces in state.resources:
            player.resources[card.produces] += 1


SPEC = GameSpec(
    id="cottage-market",
    title="Cottage Market",
    min_players=2,
    max_players=4,
    engine=CottageMarket,
    outcomes=(OutcomeKind.VERSUS,),
    options=(
        Option(
            "rounds",
            OptionType.WHOLE,
            "rounds before the game ends",
            default=12,
            minimum=1,
            maximum=100,
        ),
        Option(
            "start_gold",
            OptionType.WHOLE,
            "gold each player starts with",
            default=2,
            minimum=0,
            maximum=20,
        ),
    ),
    first_mover=0,
    folder=Path(__file__).parent,  # catalog.json and layouts/ beside this file
)
