"""DragonStone Mine: mine gems from a bag, stack them on the spires of your
tower, score gems and the patterns of capped spires. All three rule levels;
colour rules and card effects are catalog steps run by dragonstone_effects.
Rulings: docs/rules/dragonstone-mine.md. The bots' fast look-ahead, playout
policy and search settings are lookahead.py's.
"""

from __future__ import annotations

import functools
import operator
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from protopress.components import Catalog
from protopress.components.explain import LocatedError
from protopress.components.suggest import did_you_mean
from protopress.games.dragonstone_mine import effects as fx
from protopress.games.dragonstone_mine.actions import (
    ACTIONS,
    DRAW,
    MINE,
    DiscardCard,
    DragonstoneAction,
    MoveGem,
    PayFrom,
    PlayCard,
    TakeFaceUp,
    discard_action,
    pay_action,
    play_action,
    take_action,
)
from protopress.games.dragonstone_mine.effects import (
    Card,
    Payment,
    Rules,
    SeatDecision,
    SeatWork,
    Spent,
    State,
    Step,
    StepWork,
)
from protopress.games.dragonstone_mine.spec import LEVELS, SPEC
from protopress.games.dragonstone_mine.towers import Tower, move_gem, moves
from protopress.games.dragonstone_mine.watch import ask
from protopress.rules.core import Game, top_seats
from protopress.rules.information import FaceDown, Private, SeatView

FACE_UP = 4  # level 2: cards face up on the table
TURN_GEM = Step("mine", 1, follow=True)  # the first gem of a turn follows its colour rule
TWO_GEMS = Step("mine", 2)  # setup, and "discard a card then mine and stack 2 gems"
STARTING_HAND = Step("draw", 2)  # level 1 setup
ONE_CARD = Step("draw", 1)  # level 1: the card drawn every turn
CARD_VALUE = 0.5  # heuristic: a card in hand, in gems


# --- scoring --------------------------------------------------------------------


class Tally(NamedTuple):
    gems: int
    single_colour_stacks: int
    rainbow_stacks: int
    rainbow_from_above: int  # 0 or 1


CATEGORIES = {  # tally field: points key in the scoring table, label
    "gems": ("per_gem", "Gems"),
    "single_colour_stacks": ("single_colour_stack", "Single-colour stacks"),
    "rainbow_stacks": ("rainbow_stack", "Rainbow stacks"),
    "rainbow_from_above": ("rainbow_from_above", "Rainbow From Above"),
}


def tally(
    spires: Sequence[Sequence[str]], loose: int, capacities: Iterable[int], size: int, colours: int
) -> Tally:
    """Counts per category: a capped spire of `size` gems is a stack; Rainbow From
    Above needs `colours` different colours on top of the capped spires."""
    gems, singles, rainbows, tops = loose, 0, 0, set[str]()
    for spire, capacity in zip(spires, capacities, strict=True):
        gems += len(spire)
        if not spire or len(spire) < capacity:
            continue
        tops.add(spire[-1])
        if len(spire) == size:
            kinds = len(set(spire))
            singles += kinds == 1
            rainbows += kinds == size > 1
    return Tally(gems, singles, rainbows, int(len(tops) >= colours))


def points(counts: Tally, table: Mapping[str, int]) -> int:
    return sum(n * table[CATEGORIES[field][0]] for field, n in counts._asdict().items())


def score_tower(
    spires: Sequence[Sequence[str]],
    loose: Sequence[str],
    capacities: Sequence[int],
    table: Mapping[str, int],
    colours: int | None = None,
) -> dict[str, Any]:
    """One tower's score under a scoring table's points (per_gem, ..., stack_size).

    A rainbow is one gem of each colour; `colours` (the palette size) defaults to
    the stack size, as in the built-in game (five colours, stacks of five).
    """
    size = table["stack_size"]
    counts = tally(spires, len(loose), capacities, size, colours or size)
    by_category = {f: n * table[CATEGORIES[f][0]] for f, n in counts._asdict().items()}
    return {
        "total": sum(by_category.values()),
        "gems": counts.gems,
        "single_colour_stacks": by_category["single_colour_stacks"],
        "rainbow_stacks": by_category["rainbow_stacks"],
        "rainbow_from_above": by_category["rainbow_from_above"],
        "counts": counts._asdict(),
        "points": by_category,
    }


def score_state(catalog: Catalog, state_json: Mapping[str, Any]) -> dict[str, Any]:
    """The score of one tower written as {"level", "spires", "capacities"?, "loose"?}."""
    try:
        level = _level(state_json.get("level"))
    except ValueError as error:
        raise LocatedError("/level", str(error)) from None
    colours = colour_ids(catalog)
    capacities = list(state_json.get("capacities") or tower_capacities(catalog))
    spires = state_json.get("spires") or []
    if len(spires) != len(capacities):
        raise LocatedError(
            "/spires",
            f"{len(spires)} spires given but the tower has {len(capacities)} "
            f"(capacities {capacities})",
        )
    for index, (spire, capacity) in enumerate(zip(spires, capacities, strict=True)):
        _known_colours(spire, colours, f"/spires/{index}", f"spire {index + 1}")
        if len(spire) > capacity:
            raise LocatedError(
                f"/spires/{index}",
                f"spire {index + 1} holds {capacity} gems but {len(spire)} are listed",
            )
    loose = state_json.get("loose") or []
    _known_colours(loose, colours, "/loose", "loose gems")
    result = score_tower(spires, loose, capacities, scoring_points(catalog, level), len(colours))
    return {"level": level, **result}


def _known_colours(
    gems: Iterable[object], colours: Sequence[str], pointer: str, where: str
) -> None:
    for index, gem in enumerate(gems):
        if gem not in colours:
            raise LocatedError(
                f"{pointer}/{index}",
                f"{where}: unknown colour {gem!r}{did_you_mean(str(gem), colours)}; "
                f"colours: {', '.join(colours)}",
            )


def format_score(result: Mapping[str, Any]) -> str:
    level = "Smiley level" if result["level"] == "smiley" else f"Level {result['level']}"
    lines = [f"DragonStone Mine, {level}", f"{'':<22}{'count':>6}{'points':>8}"]
    for field, (_, label) in CATEGORIES.items():
        lines.append(f"{label:<22}{result['counts'][field]:>6}{result['points'][field]:>8}")
    lines.append(f"{'Total':<28}{result['total']:>8}")
    return "\n".join(lines)


# --- the catalog ----------------------------------------------------------------


def _level(value: object) -> str:
    level = str(value if value is not None else "smiley")
    if level not in LEVELS:
        raise ValueError(f"unknown level {value!r}; levels: {', '.join(LEVELS)}")
    return level


def colour_ids(catalog: Catalog) -> tuple[str, ...]:
    return tuple(colour.id for colour in catalog.of_kind("gem-colour"))


def tower_capacities(catalog: Catalog) -> tuple[int, ...]:
    towers = [tower for tower in catalog.of_kind("tower") if tower.count > 0]
    if not towers:
        raise ValueError(f"{catalog.path}: the catalog has no tower")
    return tuple(towers[0]["spires"])


POINT_KEYS = (*(key for key, _ in CATEGORIES.values()), "stack_size")


def scoring_points(catalog: Catalog, level: str) -> dict[str, int]:
    """The points of the level's scoring table; ValueError naming what is missing."""
    for table in catalog.of_kind("scoring-table"):
        if table.get("level") is not None and str(table["level"]) == level:
            points = dict(table.get("points") or {})
            missing = [key for key in POINT_KEYS if not isinstance(points.get(key), int)]
            if missing:
                raise ValueError(
                    f"{catalog.path}: scoring table {table.id!r} has no points for "
                    f"{', '.join(missing)}"
                )
            if points["stack_size"] < 1:
                raise ValueError(f"{catalog.path}: scoring table {table.id!r}: stack_size below 1")
            return points
    raise ValueError(f"{catalog.path}: no scoring table for level {level}")


def rules_of(catalog: Catalog, level: str, turn_limit: int) -> Rules:
    colours = catalog.of_kind("gem-colour")
    cards = {
        card.id: Card(card.id, tuple(card.get("cost", ())), fx.steps_of(card["effect"], card=True))
        for card in catalog.of_kind("action-card")
        if str(card["level"]) == level
    }
    return Rules(
        level=level,
        colours=tuple(colour.id for colour in colours),
        colour_rules={colour.id: fx.steps_of(colour["rule"]["steps"]) for colour in colours},
        capacities=tower_capacities(catalog),
        cards=cards,
        points=scoring_points(catalog, level),
        turn_limit=turn_limit,
    )


# --- card costs -----------------------------------------------------------------


def payable(tower: Sequence[Sequence[str]], cost: Sequence[str]) -> bool:
    """Whether cost can be removed from spire tops one gem at a time, in some order
    (a gem becomes payable once the gems above it have been paid)."""
    need: dict[str, int] = {}
    for gem in cost:
        need[gem] = need.get(gem, 0) + 1
    # a spire whose top is not wanted gives nothing: search only the others
    return _cover([spire for spire in tower if spire and spire[-1] in need], 0, need, len(cost))


# payable for a tower as a tuple of tuples, remembered: an action decision lists the
# cards its hand can pay, and the search lists the same hands for the same towers
# in thousands of its playouts' worlds.
_payable_known = functools.lru_cache(maxsize=1 << 14)(payable)


def _cover(tower: Sequence[Sequence[str]], index: int, need: dict[str, int], left: int) -> bool:
    if not left:
        return True
    if index == len(tower):
        return False
    spire, taken = tower[index], []
    found = _cover(tower, index + 1, need, left)
    depth = len(spire)
    while not found and depth and need.get(spire[depth - 1]):
        depth -= 1
        need[spire[depth]] -= 1
        taken.append(spire[depth])
        found = _cover(tower, index + 1, need, left - len(taken))
    for gem in taken:
        need[gem] += 1
    return found


def _without(cost: tuple[str, ...], gem: str) -> tuple[str, ...]:
    index = cost.index(gem)
    return cost[:index] + cost[index + 1 :]


def _pay_options(state: State, seat: int, cost: tuple[str, ...]) -> list[DragonstoneAction]:
    tower, options = state.spires[seat], list[DragonstoneAction]()
    for i, spire in enumerate(tower):
        if spire and spire[-1] in cost:
            gem = spire.pop()
            if payable(tower, _without(cost, gem)):
                options.append(pay_action(i))
            spire.append(gem)
    return options


# --- the turn -------------------------------------------------------------------


def tower_complete(state: State, seat: int) -> bool:
    return ask(state, seat, complete)


def complete(tower: Tower, caps: tuple[int, ...]) -> bool:
    """Every spire capped (a tower has one spire per capacity by construction; asked at
    every turn's end and of every look-ahead tower, so in C loops)."""
    return all(map(operator.ge, map(len, tower), caps))


@fx.frame("start")
def _start(state: State, work: SeatWork) -> None:
    state.seat = work.seat
    state.pending.append(fx.seat_work("end", work.seat))
    state.decision = SeatDecision("turn", work.seat)


def _turn_legal(state: State, d: SeatDecision) -> list[DragonstoneAction]:
    return [MINE, *moves(state, d.seat)] if state.rules.level == "smiley" else [MINE]


@fx.decision("turn", _turn_legal)
def _turn(state: State, d: SeatDecision, action: DragonstoneAction) -> None:
    seat = d.seat
    if type(action) is MoveGem:  # smiley level: move a top gem instead of mining
        move_gem(state.tower(seat), action.source, action.target)
        return
    if state.rules.level != "smiley":
        state.pending += [fx.seat_work("action_phase", seat), fx.seat_work("draw_phase", seat)]
    fx.push_steps(state, seat, (TURN_GEM,))


@fx.frame("draw_phase")
def _draw_phase(state: State, work: SeatWork) -> None:
    if state.rules.level == "1":
        fx.push_steps(state, work.seat, (ONE_CARD,))
    elif state.face_up or state.deck or state.discards:
        state.decision = SeatDecision("draw", work.seat)


def _draw_options(state: State) -> list[DragonstoneAction]:
    """Level 2 draws a face-up card or the deck's top card; level 1 only the deck's."""
    takes: list[DragonstoneAction] = (
        [take_action(i) for i in range(len(state.face_up))] if state.rules.level == "2" else []
    )
    return takes + ([DRAW] if state.deck or state.discards or not takes else [])


def _take_or_draw(state: State, seat: int, action: DragonstoneAction) -> None:
    card: str | None
    if type(action) is TakeFaceUp:
        card = state.face_up.pop(action.slot)
        refill = state.draw_card()
        if refill is not None:
            state.face_up.insert(action.slot, refill)
    else:  # DRAW
        card = state.draw_card()
    if card is not None:
        state.hands[seat].append(card)


@fx.decision("draw", lambda state, d: _draw_options(state))
def _draw(state: State, d: SeatDecision, action: DragonstoneAction) -> None:
    _take_or_draw(state, d.seat, action)


@fx.frame("action_phase")
def _action_phase(state: State, work: SeatWork) -> None:
    state.decision = SeatDecision("action", work.seat)


def _action_legal(state: State, d: SeatDecision) -> list[DragonstoneAction]:
    seat, cards = d.seat, state.rules.cards
    hand = list(dict.fromkeys(state.hands[seat]))
    tower = tuple(map(tuple, state.spires[seat]))
    plays: list[DragonstoneAction] = [
        play_action(card) for card in hand if _payable_known(tower, cards[card].cost)
    ]
    return [*plays, *map(discard_action, hand), *_draw_options(state)]


@fx.decision("action", _action_legal)
def _action(state: State, d: SeatDecision, action: DragonstoneAction) -> None:
    seat = d.seat
    if type(action) is PlayCard:
        card = state.rules.cards[action.card]
        state.hands[seat].remove(card.id)
        state.used = (*state.used[:seat], (*state.used[seat], card.id), *state.used[seat + 1 :])
        state.pending.append(Spent(seat, card.id))
        fx.push_steps(state, seat, card.effect)
        if card.cost:
            state.pending.append(Payment(seat, card.cost))
    elif type(action) is DiscardCard:
        state.hands[seat].remove(action.card)
        state.discards.append(action.card)
        fx.push_steps(state, seat, (TWO_GEMS,))
    else:
        _take_or_draw(state, seat, action)


@fx.frame("pay")
def _pay_frame(state: State, work: Payment) -> None:
    state.decision = work  # the cost still to pay, and who pays it


def _pay_legal(state: State, d: Payment) -> list[DragonstoneAction]:
    return _pay_options(state, d.seat, d.cost)


@fx.decision("pay", _pay_legal)
def _pay(state: State, d: Payment, action: DragonstoneAction) -> None:
    assert type(action) is PayFrom
    gem = state.tower(d.seat)[action.spire].pop()  # onto the card: out of the game
    state.paid += 1
    rest = _without(d.cost, gem)
    if rest:
        state.pending.append(Payment(d.seat, rest))


@fx.frame("spent")
def _spent(state: State, work: Spent) -> None:
    state.discards.append(work.card)


@fx.frame("end")
def _end(state: State, work: SeatWork) -> None:
    seat = work.seat
    state.turns += 1
    if state.final is None:
        if any(tower_complete(state, p) for p in range(state.players)):
            state.final, state.ended_by = tuple(state.others(seat)), "tower"
        elif not state.bag_total:
            state.final, state.ended_by = tuple(state.others(seat)), "bag"
    if state.final is not None:
        state.extra = False  # no extra turns once the last round has begun
        if not state.final:
            state.over = True
            return
        after, state.final = state.final[0], state.final[1:]
    else:
        after = seat if state.extra else (seat + 1) % state.players
        state.extra = False
    if state.turns >= state.rules.turn_limit:
        state.over, state.ended_by = True, "turn-limit"
        return
    state.pending.append(fx.seat_work("start", after))


# --- the game -------------------------------------------------------------------


def _hands(state: State) -> list[list[str]]:
    return state.hands


def _deck(state: State) -> list[str]:
    return state.deck


class DragonstoneMine:
    """The Game protocol for DragonStone Mine; options: level, turn_limit."""

    spec = SPEC
    id: str = SPEC.id
    min_players: int = SPEC.min_players
    max_players: int = SPEC.max_players
    actions = ACTIONS
    # What a seat cannot see: the others' hands and the deck's order, pooled (the
    # face-up cards, the discards and every spire are open).
    seat_view: SeatView[State] = SeatView((Private("hands", _hands, pool=FaceDown("deck", _deck)),))

    def setup(
        self, catalog: Catalog, players: int, rng: random.Random, options: Mapping[str, Any] | None
    ) -> State:
        options = SPEC.parse_options(options or {})
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id} takes {self.min_players} to {self.max_players} players")
        level = options["level"]
        rules = rules_of(catalog, level, options["turn_limit"])
        state = State(rules, players, rng, {c.id: c.count for c in catalog.of_kind("gem-colour")})
        state.pending.append(fx.seat_work("start", 0))  # the youngest player, seat 0, goes first
        if level != "smiley":
            state.deck = [c.id for c in catalog.of_kind("action-card") if c.id in rules.cards
                          for _ in range(c.count)]  # fmt: skip
            state.chance.shuffle("deck", state.deck)
            setup_steps = (STARTING_HAND, TWO_GEMS) if level == "1" else (TWO_GEMS,)
            for seat in reversed(range(players)):
                fx.push_steps(state, seat, setup_steps)
            if level == "2":
                state.face_up = [
                    card for card in (state.draw_card() for _ in range(FACE_UP)) if card
                ]
        fx.run(state)
        return state

    def to_move(self, state: State) -> int | None:
        return None if state.decision is None else state.decision.seat

    def legal_actions(self, state: State) -> list[DragonstoneAction]:
        return fx.legal(state)

    def apply(self, state: State, action: DragonstoneAction) -> None:
        fx.apply(state, action)

    def is_over(self, state: State) -> bool:
        return state.over

    def tally(self, state: State, seat: int) -> Tally:
        rules = state.rules
        size = rules.points["stack_size"]
        tower = state.spires[seat]
        return tally(tower, state.loose[seat], rules.capacities, size, len(rules.colours))

    def scores(self, state: State) -> list[int]:
        return [self.score(state, seat) for seat in range(state.players)]

    def score(self, state: State, seat: int) -> int:
        return self._tower_values(state, seat)[0]

    def _tower_values(self, state: State, seat: int) -> tuple[int, int]:
        """(points, _progress) of seat's tower, kept until it or the loose gems change
        (State.tower)."""
        cached = state.tower_points[seat]
        values = cached[0]
        if values is None:
            values = cached[0] = _tower_values(state, seat)
        return values

    def winners(self, state: State) -> list[int]:
        return top_seats(self.scores(state))

    def heuristic(self, state: State, seat: int) -> float:
        """Score, plus progress toward stacks and gems on the way, minus the best rival's score."""
        return self._judge(state, seat)[0]

    def _rival(self, state: State, seat: int) -> int:
        """The best score among the other seats."""
        best = None
        for other, cell in enumerate(state.tower_points):
            if other != seat:
                values = cell[0]
                if values is None:
                    values = cell[0] = _tower_values(state, other)
                if best is None or values[0] > best:
                    best = values[0]
        assert best is not None  # two players at least
        return best

    def _judge(self, trial: State, seat: int) -> tuple[float, tuple[float, int]]:
        """heuristic(trial, seat), and the prospects and best rival it added."""
        own, progress = self._tower_values(trial, seat)
        rest = (_prospects(trial, seat), self._rival(trial, seat))
        return own + progress + rest[0] - rest[1], rest

    def offered(self, catalog: Catalog, options: Mapping[str, Any] | None) -> list[str]:
        """The action-card designs a game with these options deals: the ids its record's
        `used` names (the balance lab counts those no seat played)."""
        parsed = SPEC.parse_options(options or {})
        return sorted(rules_of(catalog, parsed["level"], parsed["turn_limit"]).cards)

    def record(self, state: State) -> dict[str, Any]:
        return {
            "level": state.rules.level,
            "turns": state.turns,
            "ended_by": state.ended_by,
            "hit_turn_limit": state.ended_by == "turn-limit",
            "cards_played": dict(
                sorted(Counter(card for cards in state.used for card in cards).items())
            ),
            "gems_paid": state.paid,
            "gems_in_bag": state.bag_total,
            "used": [list(cards) for cards in state.used],  # cards played, per seat
        }


def _tower_values(state: State, seat: int) -> tuple[int, int]:
    """(points(tally(...)), _progress) of seat's tower in one pass over its spires
    (tests/games/dragonstone_mine/test_fast.py checks both against the reference)."""
    return tower_values(state.rules, state.spires[seat], state.loose[seat])


def tower_values(rules: Rules, tower: Sequence[Sequence[str]], loose: int) -> tuple[int, int]:
    """_tower_values of a tower with loose gems beside it (the look-ahead's hottest
    loop: a tower has one spire per capacity by construction, so zip is not strict)."""
    table = rules.points
    size = table["stack_size"]
    gems, singles, rainbows, progress = loose, 0, 0, 0
    tops = set()
    for spire, capacity in zip(tower, rules.capacities, strict=False):
        height = len(spire)
        if not height:
            continue
        gems += height
        if height < capacity:
            if height == 1:
                progress += 1
            else:
                kinds = len(set(spire))
                if kinds == 1 or kinds == height:
                    progress += height
            continue
        tops.add(spire[-1])
        if height == size:
            kinds = len(set(spire))
            if kinds == 1:
                singles += 1
            elif kinds == size:
                rainbows += 1
    score = gems * table["per_gem"]
    if singles:
        score += singles * table["single_colour_stack"]
    if rainbows:
        score += rainbows * table["rainbow_stack"]
    if len(tops) >= len(rules.colours):
        score += table["rainbow_from_above"]
    return score, progress


def _progress(state: State, seat: int) -> int:
    """One per gem in an uncapped spire that is still one colour or still all different."""
    caps = state.rules.capacities
    return sum(
        len(spire)
        for spire, cap in zip(state.spires[seat], caps, strict=True)
        if len(spire) < cap and len(set(spire)) in (1, len(spire))
    )


def _prospects(state: State, seat: int) -> float:
    """Gems the seat holds or is about to mine, cards in hand, less a cost still to pay."""
    value = CARD_VALUE * len(state.hands[seat])
    mining = 0
    for work in state.pending:
        if work.kind == "mine" and work.seat == seat:
            assert type(work) is StepWork
            mining += work.left
    value += mining
    opened = state.decision
    if opened is not None and opened.seat == seat:
        if opened.kind == "stack":
            value += 1
        elif type(opened) is Payment:
            value -= len(opened.cost)
    return value


_: type[Game[State, DragonstoneAction]] = DragonstoneMine  # mypy checks the engine's contract
