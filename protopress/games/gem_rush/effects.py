"""Gem Rush room effects: the catalog's ability steps, interpreted left to right.

Also the table mechanics that room effects and the game share: drawing with
reshuffles, the discard pile, and `MineView`, the mine's movement links
cached per mine state.

An ability runs as a `Run` kept in `state.effect`. Steps that need no choice
execute at once; a step that needs one (which card to discard or keep, which
gem to name, X, which room to return, whom to swap with, where the Mystic
Elevator goes, where Scavenger draws from) waits for a decision, and
`resolve` continues the run with it. Revealed cards that are not kept go to
the discard pile when the ability ends. Rulings: docs/rules/gem-rush.md.

Card piles are lists whose last item is the top: `state.deck[-1]` is drawn
next and `state.pile[-1]` is the latest discard.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from protopress.games.gem_rush import skills
from protopress.games.gem_rush.actions import (
    DISCARDS,
    DRAW_FROM_DECK,
    DRAW_FROM_PILE,
    ChooseX,
    Discard,
    DrawFrom,
    Elevate,
    GemRushAction,
    Keep,
    NameGem,
    ReturnRoom,
    SwapDwarf,
)
from protopress.games.gem_rush.hand import distinct_cards
from protopress.games.gem_rush.mine import Cell, Mine, Site
from protopress.games.gem_rush.payment import Card
from protopress.rules.core import IllegalAction

if TYPE_CHECKING:  # the state holds a Run and a MineView: only annotations name it here
    from protopress.games.gem_rush.state import GemRushState

MAX_X = 10  # the largest X offered when no discard step bounds it
FAR = 1 << 30

Doors = tuple[tuple[int, tuple[str, ...]], ...]  # (points, cost) of doors, in order


# --- cards --------------------------------------------------------------------


def reshuffle(state: GemRushState) -> None:
    """The deck is empty: shuffle the discard pile to form a new deck."""
    state.deck = state.pile
    state.pile = []
    state.chance.shuffle("deck", state.deck)
    state.reshuffles += 1


def draw_cards(state: GemRushState, count: int) -> list[Card]:
    """Up to count cards from the top of the deck, top first.

    When the deck runs out the discard pile is shuffled in and drawing goes on;
    if there are still not enough cards, as many as possible are drawn.
    """
    drawn: list[Card] = []
    while count > 0:
        if not state.deck:
            if not state.pile:
                break
            reshuffle(state)
        deck = state.deck
        take = min(count, len(deck))
        drawn.extend(reversed(deck[len(deck) - take :]))
        del deck[len(deck) - take :]
        count -= take
    return drawn


# --- the mine, as the dwarves move on it ------------------------------------


class MineView:
    """Movement links of one mine state, computed room by room on first use.

    A room's links are what Mine.graph() gives it: each door is followed with
    Mine.follow (doors, walls, one-way passages, tunnel chains) to a room
    (1 step) or to an empty space (a construction site, Site as Mine.sites()
    gives it); once two or more mine carts are placed, each links to the others
    for 0 steps. Asking only the rooms a dwarf can reach keeps a turn from
    building the whole networkx graph; tests check the distances equal
    Mine.reachable and Mine.reachable_sites. The view never changes: a new
    mine state gets a new view, so copies of a game state share it.
    """

    __slots__ = (
        "mine", "_links", "_carts", "_sites", "_rooms", "_reverse", "_rat", "_elevator", "_near",
        "_distances", "_doors", "_best", "_parent", "_changed", "_cart", "_carried",
    )  # fmt: skip

    def __init__(self, mine: Mine) -> None:
        self.mine = mine
        self._links: dict[Cell, tuple[tuple, tuple]] = {}
        self._carts: list[Cell] | None = None
        self._sites: list[Site] | None = None
        self._rooms: list[Cell] | None = None
        self._reverse: dict | None = None
        self._rat: dict[Cell, list[Cell]] = {}
        self._elevator: dict[Cell, list[Cell]] = {}
        self._near: dict[tuple[Cell, int], int] = {}
        self._distances: dict[tuple, dict[Cell, int]] = {}
        self._doors: dict[tuple, Doors] = {}  # doors_in_reach, by the distances' key
        self._best: dict[tuple, int] = {}  # best_door, by its arguments
        # placed: the view before the last tile, what the tile changed, and which of
        # the earlier view's searches hold here (see carried)
        self._parent: MineView | None = None
        self._changed: set[Cell] = set()
        self._cart = False
        self._carried: dict[tuple, int] = {}

    def placed(self, mine: Mine, cell: Cell, changed: set[Cell]) -> MineView:
        """The view of mine, this view's mine with one tile placed at cell (changed:
        what Mine.place returned). The links of the rooms whose doors lead where
        they did are kept; with a mine cart placed, every cart's change too. This
        view's searches, and what was found from them, are taken over when first
        asked, where they still hold (carried); the rest is found afresh
        (tests/games/gem_rush/test_fast.py checks what is kept equals a new view's)."""
        new = MineView(mine)
        links = dict(self._links)
        new._cart = mine.cells[cell].tile.mine_cart
        if new._cart:
            changed = changed | set(self.carts())
        for room in changed:
            links.pop(room, None)
        new._links = links
        new._parent, new._changed = self, changed
        return new

    def carried(self, key: tuple) -> int:
        """Whether the search of key (distances' arguments) that the view before the
        last tile made holds here: 2 when it met no changed room (it went the same
        way and met the same open doors: the new room is reached only through a
        changed room), 1 when it met some only at its limit and no cart was placed
        (the new room lies beyond the limit, and so do the changed doors; the doors
        in reach, one step short of it, are the same, not the open doors near), 0
        when not, when it was not made, or with movement skills (they read every
        link)."""
        found = self._carried.get(key)
        if found is None:
            found = 0
            dist = None if self._parent is None else self._parent._distances.get(key)
            if dist is not None and not (key[2] or key[3]):
                met = [dist[room] for room in self._changed if room in dist]
                if not met:
                    found = 2
                elif not self._cart and min(met) == key[1]:
                    found = 1
            self._carried[key] = found
        return found

    def carts(self) -> list[Cell]:
        if self._carts is None:
            cells = self.mine.cells
            self._carts = [cell for cell in self.rooms() if cells[cell].tile.mine_cart]
        return self._carts

    def rooms(self) -> list[Cell]:
        if self._rooms is None:
            self._rooms = self.mine.rooms()
        return self._rooms

    def links(self, cell: Cell) -> tuple[tuple[tuple[Cell, int], ...], tuple[Site, ...]]:
        """((room, steps), ...) and the construction sites reached from cell."""
        found = self._links.get(cell)
        if found is None:
            mine = self.mine
            placement = mine.cells[cell]
            rooms, sites = [], []
            for edge in placement.door_edges():
                arrival = mine.follow(cell, edge)
                if arrival.cell is None:
                    continue
                if arrival.empty:
                    door = placement.door(edge)
                    if door is None:  # edge is one of the tile's door edges
                        raise ValueError(f"no door on the {edge} edge of {cell}")
                    sites.append(Site(cell, edge, arrival.cell, arrival.entry, door))
                else:
                    rooms.append((arrival.cell, 1))
            if placement.tile.mine_cart and len(self.carts()) >= 2:
                rooms.extend((cart, 0) for cart in self.carts() if cart != cell)
            found = self._links[cell] = (tuple(rooms), tuple(sites))
        return found

    def site(self, origin: Cell, edge: str) -> Site | None:
        if origin not in self.mine.cells or self.mine.cells[origin].tile.is_tunnel:
            return None
        for site in self.links(origin)[1]:
            if site.edge == edge:
                return site
        return None

    def sites(self) -> list[Site]:
        """Every open construction site (Mine.sites)."""
        if self._sites is None:
            self._sites = self.mine.sites()
        return self._sites

    def reverse(self) -> dict[Cell, list[Cell]]:
        """Spelunker's links against one-way passages."""
        if self._reverse is None:
            self._reverse = skills.reverse_links({c: self.links(c)[0] for c in self.rooms()})
        return self._reverse

    def rat(self, cell: Cell) -> list[Cell]:
        """Tunnel Rat's extra exits from cell."""
        found = self._rat.get(cell)
        if found is None:
            found = self._rat[cell] = skills.tunnel_exits(self.mine, cell)
        return found

    def distances(
        self, start: Cell, limit: int, spelunker: bool = False, tunnel_rat: bool = False
    ) -> dict[Cell, int]:
        """{room: fewest steps from start}, for rooms within limit steps (0-1 BFS),
        kept for the view's life: the look-ahead asks the same ones again and again.
        Shared: callers read it and never change it."""
        key = (start, limit, spelunker, tunnel_rat)
        found = self._distances.get(key)
        if found is None:
            if self.carried(key):
                found = self._parent._distances[key]  # type: ignore[union-attr]
            else:
                found = self._search(start, limit, spelunker, tunnel_rat)
            self._distances[key] = found
        return found

    def _search(
        self, start: Cell, limit: int, spelunker: bool, tunnel_rat: bool
    ) -> dict[Cell, int]:
        dist = {start: 0}
        queue = deque([start])
        reverse = self.reverse() if spelunker else None
        skilled = spelunker or tunnel_rat
        # bound once: the look-ahead runs thousands of these
        pop, push, push_front, known, seen = (
            queue.popleft, queue.append, queue.appendleft, self._links, dist.get,
        )  # fmt: skip
        while queue:
            cell = pop()
            here = dist[cell]
            moves = (known.get(cell) or self.links(cell))[0]
            if skilled:
                extended = list(moves)
                if reverse:
                    extended.extend((other, 1) for other in reverse.get(cell, ()))
                if tunnel_rat:
                    extended.extend((other, 1) for other in self.rat(cell))
                moves = tuple(extended)
            for other, weight in moves:
                there = here + weight
                if there <= limit and there < seen(other, FAR):
                    dist[other] = there
                    if weight:
                        push(other)
                    else:
                        push_front(other)
        return dist

    def sites_in_reach(self, dist: dict[Cell, int], steps: int) -> Iterator[Site]:
        """The construction sites a dwarf can build through with steps left, given the
        rooms it can walk to (dist: room -> steps spent): building takes one step more."""
        for cell, spent in dist.items():
            if spent < steps:
                yield from self.links(cell)[1]

    def doors_in_reach(self, start: Cell, steps: int, flags: tuple[bool, bool]) -> Doors:
        """(points, cost) of the doors a dwarf at start can build through with steps
        (flags: its movement skills), in the order of sites_in_reach, each kind of
        door at its first place only (a door like one before it never changes
        best_door's answer); kept for the view's life, like the distances."""
        key = (start, steps, *flags)
        found = self._doors.get(key)
        if found is None and self.carried(key):
            found = self._parent._doors.get(key)  # type: ignore[union-attr]
            if found is not None:
                self._doors[key] = found
        if found is None:
            dist = self.distances(start, steps, *flags)
            kinds = (
                (site.door.points, site.door.cost) for site in self.sites_in_reach(dist, steps)
            )
            found = self._doors[key] = tuple(dict.fromkeys(kinds))
        return found

    def best_door(
        self, start: Cell, steps: int, flags: tuple[bool, bool], cards: tuple, subs: tuple
    ) -> int:
        """The most points (with a payment's bonus) of a door that cards can pay and a
        dwarf at start can build through with steps (flags: its movement skills,
        subs: its substitutions), looking at a door only when its points and the
        most the hand's Orichalcum can earn beat the best so far; kept for the
        view's life, like the distances."""
        key = (start, steps, flags, cards, subs)
        best = self._best.get(key)
        if best is None and self.carried((start, steps, *flags)):
            best = self._parent._best.get(key)  # type: ignore[union-attr]
            if best is not None:
                self._best[key] = best
        if best is None:
            best = 0
            bonuses = skills.bonuses(cards, subs)
            most = bonuses.most
            for points, cost in self.doors_in_reach(start, steps, flags):
                if points + most > best:
                    bonus = bonuses[cost]
                    if bonus is not None:
                        best = max(best, points + bonus)
            self._best[key] = best
        return best

    def sites_near(self, start: Cell, limit: int) -> int:
        """How many open doors lead out of the rooms within limit steps of start."""
        found = self._near.get((start, limit))
        if found is None and self.carried((start, limit, False, False)) == 2:
            found = self._parent._near.get((start, limit))  # type: ignore[union-attr]
            if found is not None:
                self._near[start, limit] = found
        if found is None:
            reach, known = self.distances(start, limit), self._links
            found = self._near[start, limit] = sum(
                len((known.get(cell) or self.links(cell))[1]) for cell in reach
            )
        return found

    def elevator_targets(self, cell: Cell) -> list[Cell]:
        """Where the room at cell may move (Mystic Elevator ruling): an empty space
        that another room's open door leads into, the moved room keeping its
        orientation and showing a door back toward that door."""
        found = self._elevator.get(cell)
        if found is None:
            placement = self.mine.cells[cell]
            trial = self.mine.copy()
            trial.remove(cell)
            found = []
            for site in trial.sites():
                if (
                    site.cell != cell
                    and site.cell not in found
                    and placement.door(site.entry) is not None
                ):
                    found.append(site.cell)
            self._elevator[cell] = found
        return found


def own_mine(state: GemRushState) -> Mine:
    """The state's mine, ready to change (copied first if a copy shares it)."""
    if state.mine_shared:
        state.mine = state.mine.copy()
        state.mine_shared = False
    return state.mine


def mine_changed(state: GemRushState) -> None:
    state.view = MineView(state.mine)


# --- ability steps ------------------------------------------------------------


class Where(NamedTuple):
    """A step's condition on a card: it shows any, all, none or only of gems."""

    mode: str  # any, all, none, only
    gems: frozenset[str] | str  # the gems, or "named" or "discarded" (by this ability)


class Step(NamedTuple):
    op: str
    # int, "X", "hand", "all" (keep, discard) or None; the field named count
    # shadows tuple.count, and is the catalog's name for it
    count: object  # type: ignore[assignment]
    where: Where | None
    points: int


def compile_ability(steps: Iterable[Mapping[str, Any]]) -> tuple[Step, ...]:
    compiled = []
    for step in steps:
        where = None
        if step.get("where"):
            ((mode, gems),) = step["where"].items()
            where = Where(mode, gems if isinstance(gems, str) else frozenset(gems))
        compiled.append(Step(step["op"], step.get("count"), where, step.get("points", 0)))
    return tuple(compiled)


def matches(
    card: Card,
    where: Where | None,
    named: Collection[str] = (),
    discarded: Iterable[Card] = (),
) -> bool:
    """Whether a card meets a step's condition (any, all, none, only)."""
    if where is None:
        return True
    mode, wanted = where
    gems: Collection[str] = wanted
    if wanted == "named":
        gems = named
    elif wanted == "discarded":
        gems = {gem for other in discarded for gem in other}
    if mode == "any":
        return any(gem in gems for gem in card)
    if mode == "all":
        return all(gem in card for gem in gems)
    if mode == "none":
        return not any(gem in gems for gem in card)
    return all(gem in gems for gem in card)  # only


class Run:
    """An ability in progress."""

    __slots__ = (
        "seat", "cell", "steps", "index", "x", "left", "revealed", "named", "discarded",
        "own", "mark", "after",
    )  # fmt: skip

    def __init__(self, seat: int, cell: Cell, steps: tuple[Step, ...], after: str):
        self.seat = seat
        self.cell = cell  # where the room whose ability runs stood when it began
        self.steps = steps
        self.index = 0
        self.x = None if any(step.count == "X" for step in steps) else 0
        self.left: int | None = None  # decisions the current step still needs
        self.revealed: list[Card] = []
        self.named: list[str] = []
        self.discarded: list[Card] = []  # cards this ability discarded from hand
        self.own = 0  # cards this ability put on top of the discard pile
        self.mark = 0  # state.reshuffles when own was counted
        self.after = after  # "move" or "action": the phase the ability was used in

    def copy(self) -> Run:
        new = object.__new__(Run)
        for name in Run.__slots__:
            setattr(new, name, getattr(self, name))
        new.revealed = self.revealed[:]
        new.named = self.named[:]
        new.discarded = self.discarded[:]
        return new

    def kind(self) -> str:
        """What the pending decision is about: "x" or the current step's op."""
        return "x" if self.x is None else self.steps[self.index].op


def x_values(state: GemRushState, seat: int, steps: tuple[Step, ...]) -> range:
    """The values of X with which the ability can be fully executed."""
    bound = None
    hand = state.hands[seat]
    for step in steps:
        if step.op == "discard" and step.count == "X":
            fixed = step.where if step.where and not isinstance(step.where.gems, str) else None
            have = sum(1 for card in hand if matches(card, fixed))
            bound = have if bound is None else min(bound, have)
    if bound is None:
        bound = min(MAX_X, len(state.deck) + len(state.pile))
    return range(1, bound + 1)


def swap_targets(state: GemRushState, seat: int) -> list[int]:
    here = state.pos[seat]
    return [other for other, cell in enumerate(state.pos) if other != seat and cell != here]


def empty_tiles(state: GemRushState) -> list[Cell]:
    occupied = set(state.pos)
    return [cell for cell in state.mine.cells if cell not in occupied]


def usable(state: GemRushState, seat: int, tile_id: str) -> bool:
    """Whether the room's ability can be used: its first step can be done."""
    steps = state.table.abilities.get(tile_id)
    if not steps:
        return False
    if any(step.count == "X" for step in steps) and not x_values(state, seat, steps):
        return False
    first = steps[0]
    op = first.op
    if op == "discard":
        need = first.count if isinstance(first.count, int) else 1
        return sum(1 for card in state.hands[seat] if matches(card, first.where)) >= need
    if op == "take_discard":
        return bool(state.pile)
    if op == "keep":
        return False  # nothing is revealed yet
    if op == "return_room":
        return bool(empty_tiles(state))
    if op == "swap_dwarf":
        return bool(swap_targets(state, seat))
    if op == "move_room":
        return bool(state.view.elevator_targets(state.pos[seat]))
    return True


def begin(state: GemRushState, seat: int, tile_id: str, after: str) -> bool:
    """Start the room's ability; True when it finished without needing a decision."""
    state.note_room(seat, tile_id)
    state.effect = Run(seat, state.pos[seat], state.table.abilities[tile_id], after)
    if state.effect.x is None:
        return False
    return _advance(state)


def legal(state: GemRushState) -> list[GemRushAction]:
    """The decisions the pending ability offers: ChooseX, Discard, Keep, NameGem,
    ReturnRoom, SwapDwarf, Elevate or DrawFrom, by its step."""
    run = _running(state)
    kind = run.kind()
    seat = run.seat
    if kind == "x":
        return [ChooseX(n) for n in x_values(state, seat, run.steps)]
    step = run.steps[run.index]
    if kind == "discard":
        return [DISCARDS[i] for i in _distinct(state.hands[seat], step.where, run)]
    if kind == "keep":
        return [Keep(i) for i in _distinct(run.revealed, step.where, run)]
    if kind == "name_gem":
        return [NameGem(gem) for gem in state.table.gems if gem not in run.named]
    if kind == "return_room":
        return [ReturnRoom(cell) for cell in empty_tiles(state)]
    if kind == "swap_dwarf":
        return [SwapDwarf(other) for other in swap_targets(state, seat)]
    if kind == "move_room":
        return [Elevate(cell) for cell in state.view.elevator_targets(run.cell)]
    if kind == "draw":
        return [DRAW_FROM_DECK, DRAW_FROM_PILE]
    raise AssertionError(f"no decision in step {step.op}")


def _running(state: GemRushState) -> Run:
    """The ability in progress, whose decision is asked."""
    if state.effect is None:
        raise IllegalAction("no room ability is in progress")
    return state.effect


def resolve(state: GemRushState, action: GemRushAction) -> bool:
    """Continue the pending ability with a decision; True when it has finished."""
    run = _running(state)
    if action not in legal(state):
        raise IllegalAction(f"{action!r} is not a choice of the {run.kind()} step now")
    seat = run.seat
    if isinstance(action, ChooseX):
        run.x = action.x
        return _advance(state)
    step = run.steps[run.index]
    hand = state.hands[seat]
    left = run.left or 0  # the decisions the step still needs (one at least: it asks)
    if isinstance(action, Discard):
        card = hand.pop(action.card)
        _push_own(state, run, card)
        run.discarded.append(card)
        left -= 1
        if left and not _distinct(hand, step.where, run):
            left = 0
    elif isinstance(action, Keep):
        hand.append(run.revealed.pop(action.card))
        left -= 1
        if left and not _distinct(run.revealed, step.where, run):
            left = 0
    elif isinstance(action, NameGem):
        run.named.append(action.gem)
        left -= 1
    elif isinstance(action, ReturnRoom):
        placement = own_mine(state).remove(action.cell)
        mine_changed(state)
        state.stack.insert(0, placement.tile)  # the bottom of the room stack
        left = 0
    elif isinstance(action, SwapDwarf):
        other = action.seat
        state.pos[seat], state.pos[other] = state.pos[other], state.pos[seat]
        left = 0
    elif isinstance(action, Elevate):
        mine = own_mine(state)
        placement = mine.remove(run.cell)
        mine.place(action.cell, placement.tile, placement.rotation)
        mine_changed(state)
        state.pos = [action.cell if cell == run.cell else cell for cell in state.pos]
        left = 0
    elif isinstance(action, DrawFrom):
        count = _count(state, run, step)
        if action.source == "discard":
            skills.use_op(state, seat, "discard_draw")
            hand.append(state.pile.pop())
            count -= 1
        hand.extend(draw_cards(state, count))
        left = 0
    run.left = left
    if not left:
        run.index += 1
        run.left = None
    return _advance(state)


def _distinct(cards: list[Card], where: Where | None, run: Run) -> list[int]:
    """Indices of the cards meeting where, the first of each kind of card (identical
    cards meet it alike)."""
    return [i for i in distinct_cards(cards) if matches(cards[i], where, run.named, run.discarded)]


def _count(state: GemRushState, run: Run, step: Step) -> int:
    if step.count == "X":
        if run.x is None:
            raise ValueError("X is used before it is chosen")
        return run.x
    if step.count == "hand":
        return len(state.hands[run.seat])
    return cast(int, step.count)  # the other counts are numbers (the room-tile schema)


def _push_own(state: GemRushState, run: Run, card: Card) -> None:
    """Discard a card as part of this ability (remembered for Echo Chamber)."""
    if run.mark != state.reshuffles:
        run.own, run.mark = 0, state.reshuffles
    state.pile.append(card)
    run.own += 1


def _advance(state: GemRushState) -> bool:
    run = _running(state)
    while run.index < len(run.steps):
        if run.left is None:
            run.left = _start(state, run, run.steps[run.index])
        if run.left:
            return False
        run.index += 1
        run.left = None
    state.pile.extend(run.revealed)  # revealed cards not kept
    state.effect = None
    return True


def _start(state: GemRushState, run: Run, step: Step) -> int:
    """Execute a step, or return how many decisions it needs first."""
    op, seat = step.op, run.seat
    hand = state.hands[seat]
    if op == "draw":
        count = _count(state, run, step)
        if count > 0 and state.pile and skills.holds(state, seat, "discard_draw"):
            return 1
        hand.extend(draw_cards(state, count))
    elif op == "reveal":
        run.revealed.extend(draw_cards(state, _count(state, run, step)))
    elif op == "peek":
        count = _count(state, run, step)
        state.peeked = tuple(reversed(state.deck[max(0, len(state.deck) - count) :]))
    elif op == "dig":
        _dig(state, run, step)
    elif op == "keep":
        return _keep(state, run, step)
    elif op == "discard":
        wanted = _count(state, run, step)
        return min(
            wanted, len([c for c in hand if matches(c, step.where, run.named, run.discarded)])
        )
    elif op == "name_gem":
        return min(_count(state, run, step), len(state.table.gems))
    elif op == "score":
        state.points[seat] = max(0, state.points[seat] + step.points)
    elif op == "take_discard":
        _take_discard(state, run, _count(state, run, step))
    elif op == "return_room":
        return 1 if empty_tiles(state) else 0
    elif op == "swap_dwarf":
        return 1 if swap_targets(state, seat) else 0
    elif op == "move_room":
        return 1 if state.view.elevator_targets(run.cell) else 0
    else:
        raise ValueError(f"unknown ability step {op!r}")
    return 0


def _dig(state: GemRushState, run: Run, step: Step) -> None:
    """Reveal one card at a time until count cards meet the condition; the others
    are set aside and discarded when the dig ends (so a dig never meets them twice)."""
    wanted = _count(state, run, step)
    aside = []
    while wanted > 0:
        drawn = draw_cards(state, 1)
        if not drawn:
            break
        card = drawn[0]
        if matches(card, step.where, run.named, run.discarded):
            run.revealed.append(card)
            wanted -= 1
        else:
            aside.append(card)
    for card in aside:
        _push_own(state, run, card)


def _keep(state: GemRushState, run: Run, step: Step) -> int:
    where = step.where
    hand = state.hands[run.seat]
    fits = [matches(card, where, run.named, run.discarded) for card in run.revealed]
    candidates = sum(fits)
    if step.count != "all":
        wanted = _count(state, run, step)
        if candidates > wanted:
            for k, effect in skills.offered(state, run.seat, "keep_extra"):
                wanted += effect.amount
                skills.use(state, run.seat, k)
        if candidates > wanted:
            return wanted
    hand.extend(card for card, fit in zip(run.revealed, fits, strict=True) if fit)
    run.revealed = [card for card, fit in zip(run.revealed, fits, strict=True) if not fit]
    return 0


def _take_discard(state: GemRushState, run: Run, count: int) -> None:
    """The top count cards of the discard pile, not counting the ones this ability
    discarded (Echo Chamber takes the cards beneath the one it just discarded)."""
    pile = state.pile
    own = min(run.own if run.mark == state.reshuffles else 0, len(pile))
    below = len(pile) - own
    start = max(0, below - count)
    taken = pile[start:below]
    del pile[start:below]
    state.hands[run.seat].extend(reversed(taken))
