"""Compile a rules file against a catalog (`compile_model`), after what the file
alone decides (its zones, options and typed actions: layout.py's `Layout`).

Every mistake is a `Finding` at its JSON pointer (and, inside an expression, at
its character); all of them are gathered and raised together as RulesProblems.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from protopress.components.jsonpos import pointer_of
from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data.bags import putter, taker
from protopress.rules.data.call import Functions, call_step
from protopress.rules.data.choices import (
    chooses_as_option,
    compile_choice,
    compile_option,
    each_in_turn,
    every_player_in_turn,
    has_choice,
    in_turn,
)
from protopress.rules.data.dice import check_faces, roll_step
from protopress.rules.data.expr import (
    ExprError,
    Scope,
    compile_expression,
    iteration,
)
from protopress.rules.data.grid import (
    SIDES,
    TurnsOf,
    turned_kinds,
    with_turns,
)
from protopress.rules.data.layout import Layout, reserved_name
from protopress.rules.data.load import NAME, Finding, RulesProblems, RulesSource
from protopress.rules.data.model import (
    HOLE,
    ActionRule,
    CardTable,
    ChoiceSource,
    Compiled,
    DataState,
    GridChoice,
    Kind,
    Model,
    ScoreLine,
    Step,
    Turns,
    Ty,
    Zone,
)
from protopress.rules.data.offers import offer_of
from protopress.rules.data.payment import payment_of
from protopress.rules.data.tracks import advance_step, track_ends, tracks_of, with_starts
from protopress.rules.data.turns import (
    DONE,
    turn_plan,
)

VERBS = ("gain", "pay", "move", "draw", "deal", "refill", "discard", "if", "for", "each_player",
         "place", "roll", "advance", "call", "choose")  # fmt: skip
MODIFIERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # verb -> (required, optional)
    "gain": ((), ("n",)),
    "pay": ((), ()),
    "move": (("to",), ()),
    "draw": (("to",), ("n",)),
    "deal": (("to",), ("n",)),
    "refill": ((), ()),
    "discard": ((), ()),
    "if": (("then",), ("else",)),
    "for": (("in", "do"), ("if",)),
    "each_player": ((), ()),
    "place": ((), ()),
    "roll": ((), ("n",)),
    "advance": ((), ("n",)),
    "call": ((), ()),
    "choose": ((), ("optional", "by")),
}
MAX_STEP_DEPTH = 8  # steps inside if, for and each_player


def _nothing(state: DataState, seat: int, env: list[Any]) -> None:
    return None


# --- with the catalog ------------------------------------------------------------


class _Compiler:
    """Compiles the rest of a rules file against a catalog, gathering findings."""

    def __init__(self, source: RulesSource, layout: Layout, catalog: Any, functions: Functions | None):  # fmt: skip
        self.source, self.layout, self.catalog = source, layout, catalog
        self.functions = functions  # of --rules-code: None without it
        self.findings: list[Finding] = []
        self.turnings: dict[tuple[str, str], TurnsOf] = {}  # tiles turned onto grids (grid.py)
        self.kinds = layout.kinds
        # steps wait for a choice made inside an action (choices.py): only when there is one
        self.choosing = has_choice(source.document["turn"])

    def reserved(self, name: str, at: str) -> bool:
        """Whether name is a word of the language (a finding if so)."""
        return reserved_name(name, at, self.findings)

    def where(self, pointer: str) -> str:
        problem = self.source.locate(Finding(pointer, ""))
        return f"{problem.file}:{problem.line}:{problem.column}"

    def expression(
        self, value: object, scope: Scope, pointer: str, *expected: Kind, resource: bool = False
    ) -> tuple[Compiled, Ty]:
        """A compiled expression; a finding (and a stand-in) when it is wrong."""
        try:
            compiled, ty = compile_expression(value, scope)
        except ExprError as error:
            message = str(error)
            if resource and isinstance(value, str) and NAME.match(value.strip()):
                hint = did_you_mean(value.strip(), scope.resources)
                message = f"{value.strip()!r} is not a resource of this catalog{hint}"
            self.findings.append(Finding(pointer, message, error.offset))
            return _nothing, Ty(Kind.ANY)
        if expected and ty.kind not in (*expected, Kind.ANY):
            wanted = " or ".join(kind.value for kind in expected)
            self.findings.append(Finding(pointer, f"expected {wanted}, found {ty}"))
        return compiled, ty

    def compile(self) -> Model:
        doc, layout = self.source.document, self.layout
        resources = self._resources(doc.get("resources"))
        cards, self.turnings = with_turns(self._cards(), turned_kinds(
            doc["turn"]["choose"], {zone.name: zone for zone in layout.zones}))  # fmt: skip
        check_faces(layout.zones, cards, self.findings)
        zones = {zone.name: zone for zone in layout.zones}
        for name in zones:
            if name in resources:
                message = f"{name!r} is a resource too: choose another name"
                self.findings.append(Finding(pointer_of(["zones", name]), message, at_key=True))
        scope = Scope(zones, {name: i for i, name in enumerate(resources)},
                      {o.name: o for o in layout.options}, cards,
                      phases=len(doc["turn"].get("phases", {})) or 1)  # fmt: skip
        taken = {**dict.fromkeys(zones, "zone"), **dict.fromkeys(resources, "resource")}
        tracks = tracks_of(doc.get("tracks", {}), taken, self.findings)
        for track in tracks:
            reserved_name(track.name, pointer_of(["tracks", track.name]), self.findings)
        scope.tracks = {track.name: track for track in tracks}
        scope.payment = payment_of(doc.get("payment"), scope.resources, self.findings)
        setup = with_starts(tracks, self.steps(doc.get("setup", []), "/setup", scope, None, 0))
        start = self.steps(doc["turn"].get("start", []), "/turn/start", scope, None, 0)
        actions = tuple(self._actions(doc["turn"]["choose"], scope))
        if DONE in layout.kinds and DONE not in doc["turn"]["choose"]:
            actions += (ActionRule(DONE, None, None, False, None, _nothing, 0, 0,
                                   layout.kinds[DONE], False, ends_turn=True),)  # fmt: skip
        end = tuple(
            self.expression(text, scope, f"/end/{i}", Kind.FLAG)[0]
            for i, text in enumerate(doc["end"])
            if not isinstance(text, dict)
        ) + track_ends(tracks)
        plan = turn_plan(
            doc["turn"],
            [(i, item) for i, item in enumerate(doc["end"]) if isinstance(item, dict)],
            zones,
            lambda value, at, kind: self.expression(value, scope, at, kind)[0],
            lambda items, at: self.steps(items, at, scope, None, 0),
        )
        score_doc = doc["score"]
        lines = score_doc if isinstance(score_doc, dict) else {"score": score_doc}
        score = tuple(
            ScoreLine(name, self.expression(text, scope, pointer_of(["score", name])
                                            if isinstance(score_doc, dict) else "/score",
                                            Kind.NUMBER)[0])
            for name, text in lines.items()
        )  # fmt: skip
        value = None
        if "value" in doc.get("bots", {}):
            scope.score = _score_of(score)
            value = self.expression(doc["bots"]["value"], scope, "/bots/value", Kind.NUMBER)[0]
            scope.score = None
        if self.findings:
            raise RulesProblems(self.findings)
        return Model(
            self.source.path, self.source.name, layout.game, layout.title, layout.min_players,
            layout.max_players, layout.options, resources, layout.zones, layout.piles, cards,
            setup, start, actions, end, score, value, scope.slots[0], tracks, plan,
        )  # fmt: skip

    def _resources(self, declared: object) -> tuple[str, ...]:
        if declared is None:
            return ()
        if isinstance(declared, list):
            return tuple(declared)
        assert isinstance(declared, dict)
        kind = declared["kind"]
        found = self.catalog.of_kind(kind)
        if not found:
            hint = did_you_mean(kind, self.catalog.components)
            self.findings.append(Finding("/resources/kind", f"the catalog has no {kind!r} components{hint}"))  # fmt: skip
        return tuple(component.id for component in found)

    def _cards(self) -> CardTable:
        ids: list[str] = []
        kinds: list[str] = []
        rows: list[Mapping[str, Any]] = []
        first: dict[str, int] = {}
        counts: dict[int, int] = {}
        kind_fields: dict[str, frozenset[str]] = {}
        for zone in self.layout.zones:
            if zone.kind in first:
                continue
            found = self.catalog.of_kind(zone.kind)
            if not found:
                hint = did_you_mean(zone.kind, self.catalog.components)
                self.findings.append(Finding(pointer_of(["zones", zone.name, "holds"]),
                                             f"the catalog has no {zone.kind!r} components{hint}"))  # fmt: skip
            first[zone.kind] = len(ids)
            names: set[str] = {"id"}
            for component in found:
                counts[len(ids)] = component.count
                ids.append(component.id)
                kinds.append(zone.kind)
                rows.append({"id": component.id, **component.fields})
                names.update(component.fields)
            names.discard("count")
            kind_fields[zone.kind] = frozenset(names)
        every = sorted(set().union(*kind_fields.values())) if kind_fields else []
        fields: dict[str, tuple[Any, ...]] = {}
        field_kinds: dict[str, Kind] = {}
        for name in every:
            present = [row[name] for row in rows if name in row]
            kind = _kind_of(present)
            empty = {Kind.NUMBER: 0, Kind.LIST: (), Kind.FLAG: False}.get(kind)
            fields[name] = tuple(_frozen(row.get(name, empty)) for row in rows)
            field_kinds[name] = kind
        return CardTable(tuple(ids), tuple(kinds), fields, field_kinds, kind_fields, first, counts)

    # --- steps ---

    def steps(
        self, items: list[Any], pointer: str, scope: Scope, chosen: _Chosen | None, depth: int
    ) -> Step:
        if depth > MAX_STEP_DEPTH:
            self.findings.append(Finding(pointer, f"steps nested too deeply: at most {MAX_STEP_DEPTH} levels"))  # fmt: skip
            return _nothing
        compiled = [
            self.step(item, f"{pointer}/{i}", scope, chosen, depth) for i, item in enumerate(items)
        ]
        if not compiled:
            return _nothing
        if self.choosing:
            return in_turn(compiled)
        if len(compiled) == 1:
            return compiled[0]
        if len(compiled) == 2:
            one, two = compiled

            def both(state: DataState, seat: int, env: list[Any]) -> None:
                one(state, seat, env)
                two(state, seat, env)

            return both

        def run(state: DataState, seat: int, env: list[Any]) -> None:
            for step in compiled:
                step(state, seat, env)

        return run

    def step(
        self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int
    ) -> Step:
        verbs = [key for key in item if key in VERBS and not (key == "if" and "for" in item)]
        if len(verbs) != 1:
            message = "a step does one thing: " + ("two verbs" if verbs else "no verb") + \
                f" ({', '.join(verbs) or 'expected one of ' + ', '.join(VERBS)})"  # fmt: skip
            self.findings.append(Finding(at, message))
            return _nothing
        verb = verbs[0]
        required, optional = MODIFIERS[verb]
        for key in item:
            if key != verb and key not in (*required, *optional):
                self.findings.append(Finding(f"{at}/{key}", f"{key!r} does not go with {verb}", at_key=True))  # fmt: skip
        for key in required:
            if key not in item:
                self.findings.append(Finding(at, f"{verb} needs {key!r}"))
                return _nothing
        build: Callable[..., Step] = getattr(self, f"_{verb}")
        return build(item, at, scope, chosen, depth)

    def _count(self, item: dict[str, Any], at: str, scope: Scope) -> Compiled | None:
        if "n" not in item:
            return None
        return self.expression(item["n"], scope, f"{at}/n", Kind.NUMBER)[0]

    def _resource_step(self, item: dict[str, Any], at: str, scope: Scope, verb: str) -> tuple[Compiled, Compiled | None, str]:  # fmt: skip
        what, _ = self.expression(item[verb], scope, f"{at}/{verb}", Kind.TEXT, Kind.LIST, resource=True)  # fmt: skip
        return what, self._count(item, at, scope), self.where(f"{at}/{verb}")

    def _gain(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        what, count, where = self._resource_step(item, at, scope, "gain")
        places = scope.resources

        def gain(state: DataState, seat: int, env: list[Any]) -> None:
            value = what(state, seat, env)
            n = 1 if count is None else count(state, seat, env)
            pool = state.pools[seat]
            for name in (value,) if isinstance(value, str) else value or ():
                place = places.get(name)
                if place is None:
                    raise RulesFault(f"{where}: gain: {name!r} is not a resource of these rules")
                pool[place] += n

        return gain

    def _pay(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        what, _, where = self._resource_step(item, at, scope, "pay")
        need, payment = scope.need, scope.payment
        cache: dict[Any, list[tuple[int, int]]] = {}

        def pay(state: DataState, seat: int, env: list[Any]) -> None:
            cost = what(state, seat, env)
            counts = cache.get(cost)
            if counts is None:
                try:
                    counts = cache[cost] = need(() if cost is None else cost)
                except RulesFault as fault:
                    raise RulesFault(f"{where}: pay: {fault}") from None
            pool = state.pools[seat]
            if payment is not None and payment.pay(pool, counts):
                return
            for place, n in counts:
                if pool[place] < n:
                    raise RulesFault(f"{where}: pay: seat {seat} cannot pay {cost!r}; "
                                     "check can_pay in the action's if")  # fmt: skip
                pool[place] -= n

        return pay

    def _zone(
        self, text: object, scope: Scope, pointer: str, drawn_from: bool = False
    ) -> tuple[Compiled, Zone] | None:
        """The pile a `to`, `draw`, `deal` or `refill` names, and its zone (or None, and a
        finding); drawn_from: cards are drawn from its top, so it is no row of slots."""
        compiled, ty = self.expression(text, scope, pointer, Kind.ZONE)
        zone = ty.zone
        if zone is None:
            return None
        if zone.grid is not None:
            message = f"{zone.name} is a grid: a tile goes on it by an action's `onto` and place"
            self.findings.append(Finding(pointer, message))
            return None
        if drawn_from and zone.slots is not None:
            message = f"{zone.name} is a row of slots: cards are chosen from it, not drawn"
            self.findings.append(Finding(pointer, message))
            return None
        return compiled, zone

    def _own_zone(self, text: str, scope: Scope, pointer: str) -> Zone | None:
        """The zone of each player that `deal` gives to, by its name (or my.NAME)."""
        name = text.removeprefix("my.")
        zone = scope.zones.get(name)
        if zone is None:
            hint = did_you_mean(name, [n for n, z in scope.zones.items() if z.each])
            self.findings.append(Finding(pointer, f"{name!r} is not a zone{hint}"))
            return None
        if zone.grid is not None:
            self.findings.append(Finding(pointer, f"{name!r} is a grid: tiles go on it by place"))
            return None
        if not zone.each or zone.piles > 1:
            message = f"{name!r} is shared or a row of piles: deal gives to one zone of each player"
            self.findings.append(Finding(pointer, message))
            return None
        return zone

    def _move(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        take = self._taken(item["move"], f"{at}/move", chosen)
        target = self._zone(item["to"], scope, f"{at}/to")
        if take is None or target is None:
            return _nothing
        pile_of, put = target[0], putter(target[1])

        def move(state: DataState, seat: int, env: list[Any]) -> None:
            put(pile_of(state, seat, env), take(state, seat, env))

        return move

    def _discard(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        take = self._taken(item["discard"], f"{at}/discard", chosen)
        if take is None:
            return _nothing

        def discard(state: DataState, seat: int, env: list[Any]) -> None:
            take(state, seat, env)

        return discard

    def _taken(self, name: str, pointer: str, chosen: _Chosen | None) -> Compiled | None:
        """A closure taking the chosen card out of its zone (its slot left empty)."""
        if chosen is None or chosen.name != name or chosen.source is None:
            what = f"the card chosen by this action ({chosen.name})" if chosen and chosen.source else "a card chosen by an action (each ... from a zone)"  # fmt: skip
            self.findings.append(Finding(pointer, f"{name!r}: only {what} can be moved or discarded"))  # fmt: skip
            return None
        source, place, slot = chosen.source, chosen.place, chosen.slot
        assert source.zone is not None
        slotted = source.zone.gaps  # a row's slot, a grid's cell: left empty
        where = self.where(pointer)

        def take(state: DataState, seat: int, env: list[Any]) -> int:
            pile = source.pile(state, seat)
            at, card = env[place], env[slot]
            if not (0 <= at < len(pile)) or pile[at] != card:
                raise RulesFault(f"{where}: the chosen card has left its zone already")
            if slotted:
                pile[at] = HOLE
            else:
                del pile[at]
            return card

        return take

    def _draw(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        source = self._zone(item["draw"], scope, f"{at}/draw", drawn_from=True)
        target = self._zone(item["to"], scope, f"{at}/to")
        count = self._count(item, at, scope)
        if source is None or target is None:
            return _nothing
        pile_of, into_of, take, put = source[0], target[0], taker(source[1]), putter(target[1])

        def draw(state: DataState, seat: int, env: list[Any]) -> None:
            pile, into = pile_of(state, seat, env), into_of(state, seat, env)
            for _ in range(min(1 if count is None else count(state, seat, env), len(pile))):
                put(into, take(state, pile))

        return draw

    def _deal(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        source = self._zone(item["deal"], scope, f"{at}/deal", drawn_from=True)
        zone = self._own_zone(item["to"], scope, f"{at}/to")
        count = self._count(item, at, scope)
        if source is None or zone is None:
            return _nothing
        pile_of, first, take = source[0], zone.first, taker(source[1])

        def deal(state: DataState, seat: int, env: list[Any]) -> None:
            pile = pile_of(state, seat, env)
            n = 1 if count is None else count(state, seat, env)
            for player in range(state.players):
                into = state.piles[first + player]
                for _ in range(min(n, len(pile))):
                    into.append(take(state, pile))

        return deal

    def _refill(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        found = self._zone(item["refill"], scope, f"{at}/refill")
        if found is None:
            return _nothing
        row, zone = found
        if zone.slots is None or zone.refill is None:
            self.findings.append(Finding(f"{at}/refill", f"{zone.name} has no slots and refill zone to refill"))  # fmt: skip
            return _nothing
        slots, origin = zone.slots, self.layout_zone(zone.refill)
        first, take = origin.first, taker(origin)

        def refill(state: DataState, seat: int, env: list[Any]) -> None:
            pile, supply = row(state, seat, env), state.piles[first]
            for i, card in enumerate(pile):
                if card == HOLE and supply:
                    pile[i] = take(state, supply)
            while len(pile) < slots and supply:
                pile.append(take(state, supply))
            if HOLE in pile:
                pile[:] = [card for card in pile if card != HOLE]

        return refill

    def _roll(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        return roll_step(self, item, at, scope) or _nothing

    def _advance(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        return advance_step(self, item, at, scope) or _nothing

    def layout_zone(self, name: str) -> Zone:
        return next(zone for zone in self.layout.zones if zone.name == name)

    def _if(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        test, _ = self.expression(item["if"], scope, f"{at}/if")
        yes = self.steps(item["then"], f"{at}/then", scope, chosen, depth + 1)
        no = self.steps(item.get("else", []), f"{at}/else", scope, chosen, depth + 1)

        def branch(state: DataState, seat: int, env: list[Any]) -> None:
            (yes if test(state, seat, env) else no)(state, seat, env)

        return branch

    def _for(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        name = item["for"]
        if reserved_name(name, f"{at}/for", self.findings):
            return _nothing
        source, ty = self.expression(item["in"], scope, f"{at}/in", Kind.ZONE, Kind.LIST)
        try:
            items, item_ty = iteration(source, ty, ExprError)
        except ExprError as error:
            self.findings.append(Finding(f"{at}/in", str(error)))
            return _nothing
        inner, slot = scope.bind(name, item_ty, pile=ty.kind is Kind.ZONES)
        test = self.expression(item["if"], inner, f"{at}/if")[0] if "if" in item else None
        body = self.steps(item["do"], f"{at}/do", inner, chosen, depth + 1)
        if self.choosing:
            return each_in_turn(items, slot, test, body)

        def each(state: DataState, seat: int, env: list[Any]) -> None:
            for value in list(items(state, seat, env)):
                env[slot] = value
                if test is None or test(state, seat, env):
                    body(state, seat, env)

        return each

    def _each_player(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        body = self.steps(item["each_player"], f"{at}/each_player", scope, chosen, depth + 1)
        if self.choosing:
            return every_player_in_turn(body)

        def every(state: DataState, seat: int, env: list[Any]) -> None:
            for player in range(state.players):
                body(state, player, env)

        return every

    def _place(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        if chosen is not None and chosen.grid is None and chosen.name == item["place"]:
            message = "place puts the chosen card on the cell chosen `onto` a grid: this action has no `onto`"  # fmt: skip
            self.findings.append(Finding(f"{at}/place", message))
            return _nothing
        take = self._taken(item["place"], f"{at}/place", chosen)
        if take is None or chosen is None or chosen.grid is None:
            return _nothing
        grid, where = chosen.grid, self.where(f"{at}/place")
        turned = grid.turns.slot if grid.turns is not None else None  # the tile as turned

        def place(state: DataState, seat: int, env: list[Any]) -> None:
            board, cell = grid.pile(state, seat), env[grid.cell]
            if board[cell] != HOLE:
                raise RulesFault(f"{where}: place: the cell is taken already")
            card = take(state, seat, env)
            board[cell] = card if turned is None else env[turned]

        return place

    def _choose(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        return compile_choice(self, item, at, scope) or _nothing

    def _call(self, item: dict[str, Any], at: str, scope: Scope, chosen: _Chosen | None, depth: int) -> Step:  # fmt: skip
        found = call_step(item["call"], f"{at}/call", self.where(f"{at}/call"), scope, self.functions, self.findings)  # fmt: skip
        return _nothing if found is None else found

    def _grid_choice(self, given: Mapping[str, Any], at: str, holds: str, inner: Scope, param: str) -> GridChoice | None:  # fmt: skip
        """The cell an action chooses `onto` a grid (and the tile's turn), and its
        adjacency rules."""
        _, ty = self.expression(given["onto"], inner, f"{at}/onto", Kind.ZONE)
        zone = ty.zone
        if zone is None:
            return None
        if zone.grid is None:
            self.findings.append(Finding(f"{at}/onto", f"{zone.name} is not a grid (a zone with grid: ...)"))  # fmt: skip
            return None
        if zone.kind != holds:
            message = f"{zone.name} holds {zone.kind}s, and the chosen card is a {holds}"
            self.findings.append(Finding(f"{at}/onto", message))
            return None
        cell = inner.reserve()
        turns = None
        if given.get("rotate") is True:
            turns_of = self.turnings.get((zone.kind, zone.grid.shape))
            if turns_of is None:
                every = ", ".join(SIDES[zone.grid.shape])
                self.findings.append(Finding(f"{at}/rotate", f"a turned tile's sides turn: the catalog's {zone.kind}s need fields {every}"))  # fmt: skip
                return None
            inner, slot = inner.bind(param, Ty(Kind.CARD, zone.kind))  # match reads it turned
            turns = Turns(slot, turns_of)
        near, neighbour = inner.bind("neighbour", Ty(Kind.CARD, zone.kind))
        near, side = near.bind("side", Ty(Kind.TEXT))
        near, facing = near.bind("facing", Ty(Kind.TEXT))
        match = (
            self.expression(given["match"], near, f"{at}/match")[0] if "match" in given else None
        )
        return GridChoice(zone, zone.each, cell, neighbour, side, facing,
                          bool(given.get("touch")), match, turns)  # fmt: skip

    # --- actions ---

    def _actions(self, choose: Mapping[str, Any], scope: Scope) -> Iterable[ActionRule]:
        for verb, given in choose.items():
            at = pointer_of(["turn", "choose", verb])
            kind = self.layout.kinds.get(verb)
            if kind is None:
                continue
            param, origin = given.get("each"), given.get("from")
            if chooses_as_option(param, origin, scope):
                option = compile_option(self, verb, given, at, scope)
                if option is not None:
                    yield ActionRule(verb, None, None, False, None, option.steps, 0, 0, kind,
                                     False, option=option)  # fmt: skip
                continue
            source: ChoiceSource | None = None
            inner, slot, place, by_slot = scope, 0, 0, False
            if param is not None:
                if origin == "resources":
                    inner, slot = scope.bind(param, Ty(Kind.TEXT))
                else:
                    _, ty = self.expression(origin, scope, f"{at}/from", Kind.ZONE)
                    if ty.zone is None:
                        continue
                    source = ChoiceSource(ty.zone, ty.zone.each)
                    by_slot = ty.zone.slots is not None
                    inner, slot = scope.bind(param, Ty(Kind.CARD, ty.zone.kind))
                    place = scope.reserve()
            condition = (
                self.expression(given["if"], inner, f"{at}/if")[0] if "if" in given else None
            )
            grid = None
            if "onto" in given and source is not None and source.zone is not None:
                grid = self._grid_choice(given, at, source.zone.kind, inner, param)
            elif "onto" in given:
                self.findings.append(Finding(f"{at}/onto", "a tile placed `onto` a grid is chosen from a zone, not resources"))  # fmt: skip
            elif "touch" in given or "match" in given:
                self.findings.append(Finding(at, "touch and match are the rules of a cell chosen `onto` a grid"))  # fmt: skip
            elif "rotate" in given:
                self.findings.append(Finding(f"{at}/rotate", "rotate turns a tile placed `onto` a grid", at_key=True))  # fmt: skip
            chosen = _Chosen(param, source, slot, place, grid) if param is not None else None
            steps = self.steps(given.get("do", []), f"{at}/do", inner, chosen, 0)
            offer, steps = offer_of(self, given, at, inner, steps)
            yield ActionRule(verb, param, source, bool(given.get("distinct")), condition, steps,
                             slot, place, kind, by_slot, grid, offer=offer)  # fmt: skip


@dataclass(frozen=True)
class _Chosen:
    """The card an action chose: its name, zone, env slot and the slot of its place."""

    name: str
    source: ChoiceSource | None
    slot: int
    place: int
    grid: GridChoice | None = None  # the grid and cell it goes on (an action's `onto`)


def _score_of(lines: tuple[ScoreLine, ...]) -> Compiled:
    def score(state: DataState, seat: int, env: list[Any]) -> Any:
        return sum(line.value(state, seat, env) for line in lines)

    return score


def _kind_of(values: list[Any]) -> Kind:
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return Kind.NUMBER
    if values and all(isinstance(v, bool) for v in values):
        return Kind.FLAG
    if values and all(isinstance(v, list | tuple) for v in values):
        return Kind.LIST
    if values and all(isinstance(v, str) for v in values):
        return Kind.TEXT
    return Kind.ANY


def _frozen(value: Any) -> Any:
    return tuple(_frozen(item) for item in value) if isinstance(value, list | tuple) else value


def compile_model(
    source: RulesSource, layout: Layout, catalog: Any, functions: Functions | None = None
) -> Model:
    """The rules compiled against catalog (and the functions of --rules-code, which
    `call` steps run); RulesProblems naming each mistake."""
    return _Compiler(source, layout, catalog, functions).compile()
