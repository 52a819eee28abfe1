"""The expression language of rules files: a small, safe part of Python's syntax.

An expression is parsed with `ast.parse(text, mode="eval")`, and only a fixed
list of node types is accepted: whole numbers, text, true/false, names, a
field of a card (`card.points`), + - * // %, comparisons, `in`, and/or/not,
`a if c else b`, calls of the functions in FUNCTIONS, and generator
expressions over zones and lists (`sum(card.points for card in my.built)`).
Every name is resolved when the rules are compiled, against the rules' own
scope (zones, resources, options, `my`, `players`, `turns`, `round`) and the
catalog's fields, with did-you-mean; each expression becomes a Python closure.
Nothing of the text is ever evaluated as code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from protopress.components.suggest import did_you_mean
from protopress.rules.core import RulesFault
from protopress.rules.data import bags, grid, scoring, stacks
from protopress.rules.data.model import HOLE, CardTable, Compiled, DataState, Kind, Track, Ty, Zone
from protopress.rules.data.payment import Payment
from protopress.rules.options import Option, OptionType

MAX_TEXT = 400  # characters of one expression
MAX_DEPTH = 16  # nodes inside each other
MAX_NUMBER = 1_000_000  # a whole number written in an expression
FUNCTIONS = ("sum", "count", "total", "empty", "can_pay", "min", "max", "any", "all",
             "track_points", "largest_group", "adjacent_pairs", "rows", "columns", "edge",
             "counts", "distinct_sets", "scale", "most", "fewest", "top", "distinct")  # fmt: skip
GRID_FUNCTIONS = ("largest_group", "adjacent_pairs", "rows", "columns")  # of a grid, by a generator
AGGREGATES = ("sum", "count", "min", "max", "any", "all", "distinct")  # those that take a generator


class ExprError(ValueError):
    """A mistake in an expression, at a character of its text (0-based)."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


NUMBER, FLAG, TEXT, LIST = Ty(Kind.NUMBER), Ty(Kind.FLAG), Ty(Kind.TEXT), Ty(Kind.LIST)
ANY = Ty(Kind.ANY)


@dataclass
class Scope:
    """What the names of an expression can mean in one place of a rules file."""

    zones: dict[str, Zone]
    resources: dict[str, int]  # resource -> its place in a pool
    options: dict[str, Option]
    cards: CardTable
    locals: dict[str, tuple[int, Ty]] = field(default_factory=dict)  # name -> (env slot, kind)
    score: Compiled | None = None  # the name `score` (in bots.value)
    slots: list[int] = field(default_factory=lambda: [0])  # env slots used so far (shared)
    tracks: dict[str, Track] = field(default_factory=dict)  # each player's tracks (tracks.py)
    payment: Payment | None = None  # wilds and trades (payment.py); None: exact costs
    phases: int = 1  # turns of each seat in a round (turn.phases)
    # the locals that are a pile of a row of zones, held in env as its index in state.piles
    pile_slots: frozenset[int] = frozenset()

    def reserve(self) -> int:
        """A new env slot (for a value no expression names: a chosen card's place)."""
        slot = self.slots[0]
        self.slots[0] += 1
        return slot

    def bind(self, name: str, ty: Ty, pile: bool = False) -> tuple[Scope, int]:
        """A scope where name is a new local (a chosen card, a `for` name), and its slot;
        pile: it is a pile of a row of zones (env holds its index in state.piles)."""
        slot = self.reserve()
        piles = self.pile_slots | {slot} if pile else self.pile_slots - {slot}
        return replace(self, locals={**self.locals, name: (slot, ty)}, pile_slots=piles), slot

    def names(self) -> list[str]:
        fixed = ["my", "others", "option", "players", "turns", "round", "resources"]
        shared = [name for name, zone in self.zones.items() if not zone.each]
        score = ["score"] if self.score is not None else []
        return [*self.locals, *fixed, *score, *shared, *self.resources]

    def need(self, names: Iterable[Any]) -> list[tuple[int, int]]:
        """(resource place, how many) of a cost: a resource or a list of them."""
        counts: dict[int, int] = {}
        for name in (names,) if isinstance(names, str) else names:
            place = self.resources.get(name)
            if place is None:
                raise RulesFault(f"{name!r} is not a resource of these rules")
            counts[place] = counts.get(place, 0) + 1
        return sorted(counts.items())


def compile_expression(value: object, scope: Scope) -> tuple[Compiled, Ty]:
    """The closure of an expression written as text (or a YAML number or true/false)."""
    if isinstance(value, bool):
        return _constant(value), FLAG
    if isinstance(value, int):
        return _constant(value), NUMBER
    if not isinstance(value, str):
        raise ExprError("expected an expression")
    if len(value) > MAX_TEXT:
        raise ExprError(f"an expression is at most {MAX_TEXT} characters")
    try:
        tree = ast.parse(value.strip(), mode="eval")
    except SyntaxError as error:
        offset = max((error.offset or 1) - 1, 0)
        raise ExprError(f"not an expression: {error.msg}", offset) from None
    except (ValueError, RecursionError, MemoryError):
        raise ExprError("not an expression") from None
    lead = len(value) - len(value.lstrip())
    try:
        return _Compiler(scope, value.strip()).node(tree.body, 0)
    except ExprError as error:
        error.offset += lead
        raise


def _constant(value: Any) -> Compiled:
    return lambda state, seat, env: value


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_ORDERS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _ordered(one: Ty, two: Ty) -> bool:
    """Whether < and the like may compare values of these kinds (ANY: known in play;
    a player is its seat number: `my > 0`)."""
    kinds = {Kind.PLAYER: Kind.NUMBER}.get(one.kind, one.kind), {Kind.PLAYER: Kind.NUMBER}.get(two.kind, two.kind)  # fmt: skip
    if Kind.ANY in kinds:
        return all(kind in (Kind.NUMBER, Kind.TEXT, Kind.ANY) for kind in kinds)
    return kinds[0] == kinds[1] and kinds[0] in (Kind.NUMBER, Kind.TEXT)


_SYMBOLS = {ast.Pow: "**", ast.Div: "/", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
            ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.Is: "is", ast.IsNot: "is not",
            ast.Invert: "~", ast.UAdd: "unary +"}  # fmt: skip
_WORDS = {
    ast.Lambda: "lambda", ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension", ast.Dict: "a dict", ast.Set: "a set",
    ast.List: "a list", ast.Tuple: "a tuple", ast.Subscript: "indexing ([...])",
    ast.Starred: "*", ast.NamedExpr: ":=", ast.JoinedStr: "an f-string", ast.Await: "await",
    ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "a slice",
}  # fmt: skip


_AGGREGATE: dict[str, Callable[[Iterable[Any]], Any]] = {
    "sum": sum, "min": min, "max": max, "any": any, "all": all, "distinct": stacks.distinct,
}  # fmt: skip


class _Generated(NamedTuple):
    """A compiled `X for NAME in ZONE if C`: the values it gives (chosen), and its parts:
    the items gone through, the env slot of NAME, X, X's kind, whether C filters."""

    chosen: Callable[[DataState, int, list[Any]], Iterable[Any]]
    items: Callable[[DataState, int, list[Any]], Sequence[Any]]
    slot: int
    element: Compiled
    element_ty: Ty
    filtered: bool


class _Compiler:
    def __init__(self, scope: Scope, text: str):
        self.scope = scope
        self.text = text
        self.encoded = text.encode("utf-8")

    def at(self, node: ast.AST) -> int:
        """The character offset of node in the text (ast counts UTF-8 bytes)."""
        offset = getattr(node, "col_offset", 0)
        return len(self.encoded[:offset].decode("utf-8", "ignore"))

    def fail(self, node: ast.AST, message: str) -> ExprError:
        return ExprError(message, self.at(node))

    def node(self, node: ast.expr, depth: int) -> tuple[Compiled, Ty]:
        if depth > MAX_DEPTH:
            raise self.fail(node, f"nested too deeply: at most {MAX_DEPTH} levels")
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            word = _WORDS.get(type(node), type(node).__name__)
            raise self.fail(node, f"{word} is not part of the rules language")
        result: tuple[Compiled, Ty] = method(node, depth + 1)
        return result

    def _Constant(self, node: ast.Constant, depth: int) -> tuple[Compiled, Ty]:
        value = node.value
        if isinstance(value, bool):
            return _constant(value), FLAG
        if isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                raise self.fail(node, f"numbers are at most {MAX_NUMBER:,}")
            return _constant(value), NUMBER
        if isinstance(value, float) and abs(value) <= MAX_NUMBER:
            return _constant(value), NUMBER  # a weight of the bots' value: 0.4
        if isinstance(value, str) and len(value) <= 64:
            return _constant(value), TEXT
        if isinstance(value, str):
            raise self.fail(node, "a text in an expression is at most 64 characters")
        what = f"{type(value).__name__} {value!r}"
        raise self.fail(node, f"{what[:40]} is not part of the rules language")

    def _Name(self, node: ast.Name, depth: int) -> tuple[Compiled, Ty]:
        name, scope = node.id, self.scope
        if name in scope.locals:
            slot, ty = scope.locals[name]
            if slot in scope.pile_slots:
                return (lambda state, seat, env: state.piles[env[slot]]), ty
            return (lambda state, seat, env: env[slot]), ty
        if name == "my":
            return (lambda state, seat, env: seat), Ty(Kind.PLAYER)
        if name == "others":  # the other players, in turn order from my left
            return (lambda state, seat, env: [(seat + k) % state.players
                                              for k in range(1, state.players)]), Ty(Kind.PLAYERS)  # fmt: skip
        if name == "option":
            return (lambda state, seat, env: state.options), Ty(Kind.OPTIONS)
        if name == "players":
            return (lambda state, seat, env: state.players), NUMBER
        if name == "turns":
            return (lambda state, seat, env: state.turns), NUMBER
        if name == "round":
            if scope.phases > 1:
                phases = scope.phases
                return (lambda state, seat, env: state.turns // (state.players * phases) + 1), NUMBER  # fmt: skip
            return (lambda state, seat, env: state.turns // state.players + 1), NUMBER
        if name == "resources":
            names = tuple(scope.resources)
            return _constant(names), LIST
        if name == "score" and scope.score is not None:
            return scope.score, NUMBER
        zone = scope.zones.get(name)
        if zone is not None:
            if zone.each:
                raise self.fail(node, f"every player has a {name}: write my.{name}")
            first = zone.first
            if zone.piles > 1:
                row = range(first, first + zone.piles)
                return (lambda state, seat, env: row), Ty(Kind.ZONES, zone.kind, zone)
            return (lambda state, seat, env: state.piles[first]), Ty(Kind.ZONE, zone.kind, zone)
        if name in scope.resources:
            return _constant(name), TEXT
        hint = did_you_mean(name, scope.names())
        raise self.fail(node, f"{name!r} is not a name of these rules or a resource{hint}")

    def _Attribute(self, node: ast.Attribute, depth: int) -> tuple[Compiled, Ty]:
        attr = node.attr
        if attr.startswith("_"):
            raise self.fail(node, f"{attr!r}: names starting with _ are not part of the language")
        base, ty = self.node(node.value, depth)
        end = getattr(node, "end_col_offset", None) or 0
        at = len(self.encoded[:end].decode("utf-8", "ignore")) - len(attr)  # the field's name
        if ty.kind is Kind.PLAYER:
            return self._of_player(base, attr, at)
        if ty.kind is Kind.OPTIONS:
            option = self.scope.options.get(attr)
            if option is None:
                hint = did_you_mean(attr, self.scope.options)
                raise ExprError(f"{attr!r} is not an option of these rules{hint}", at)
            kind = {OptionType.WHOLE: NUMBER, OptionType.FLAG: FLAG}.get(option.type, TEXT)
            return (lambda state, seat, env: state.options.get(attr)), kind
        if ty.kind is Kind.CARD:
            cards = self.scope.cards
            known = cards.kind_fields.get(ty.of, frozenset())
            if attr not in known:
                hint = did_you_mean(attr, known)
                raise ExprError(f"{attr!r} is not a field of the catalog's {ty.of}s{hint}", at)
            values = cards.fields[attr]
            kind = Ty(cards.field_kinds.get(attr, Kind.ANY))
            return (lambda state, seat, env: values[base(state, seat, env)]), kind
        raise ExprError(f"{ty} has no field {attr!r}", at)

    def _of_player(self, base: Compiled, attr: str, at: int) -> tuple[Compiled, Ty]:
        scope = self.scope
        if attr == "resources":
            return (lambda state, seat, env: state.pools[base(state, seat, env)]), Ty(Kind.POOL)
        zone = scope.zones.get(attr)
        if zone is not None and zone.each and zone.piles > 1:
            return (lambda state, seat, env: bags.row_of(zone, base(state, seat, env))), Ty(
                Kind.ZONES, zone.kind, zone
            )
        if attr == "score" and scope.score is not None:
            score = scope.score
            return (lambda state, seat, env: score(state, base(state, seat, env), env)), NUMBER
        if zone is not None and zone.each:
            first = zone.first
            return (lambda state, seat, env: state.piles[first + base(state, seat, env)]), Ty(
                Kind.ZONE, zone.kind, zone
            )
        place = scope.resources.get(attr)
        if place is not None:
            return (lambda state, seat, env: state.pools[base(state, seat, env)][place]), NUMBER
        track = scope.tracks.get(attr)
        if track is not None:
            mark = track.place
            return (lambda state, seat, env: state.tracks[base(state, seat, env)][mark]), NUMBER
        own = [name for name, z in scope.zones.items() if z.each]
        hint = did_you_mean(attr, ["resources", *own, *scope.resources, *scope.tracks])
        if zone is not None:
            raise ExprError(f"{attr!r} is shared, not each player's: write {attr}", at)
        raise ExprError(f"a player has no {attr!r}{hint}", at)

    def _BinOp(self, node: ast.BinOp, depth: int) -> tuple[Compiled, Ty]:
        operate = _BINARY.get(type(node.op))
        if operate is None:
            symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
            raise self.fail(node, f"{symbol} is not part of the rules language (+ - * // %)")
        left, lty = self.node(node.left, depth)
        right, rty = self.node(node.right, depth)
        if isinstance(node.op, ast.Add) and {lty.kind, rty.kind} <= {Kind.ZONE, Kind.LIST}:
            return self._joined(left, lty, right, rty, node)
        for side, ty in ((node.left, lty), (node.right, rty)):
            if ty.kind not in (Kind.NUMBER, Kind.ANY):
                raise self.fail(side, f"arithmetic needs numbers, not {ty}")
        if isinstance(node.op, ast.Add):
            return (lambda s, m, e: left(s, m, e) + right(s, m, e)), NUMBER
        if isinstance(node.op, ast.Mult):
            return (lambda s, m, e: left(s, m, e) * right(s, m, e)), NUMBER
        if isinstance(node.op, ast.Sub):
            return (lambda s, m, e: left(s, m, e) - right(s, m, e)), NUMBER
        return (lambda s, m, e: operate(left(s, m, e), right(s, m, e))), NUMBER

    def _joined(
        self, left: Compiled, lty: Ty, right: Compiled, rty: Ty, node: ast.BinOp
    ) -> tuple[Compiled, Ty]:
        """`my.tray + my.picked`: the cards of both (empty slots skipped), to go through
        or count; cards of one kind stay cards of it (their fields can be read)."""
        first = self.iteration(left, lty, node.left)[0]
        second = self.iteration(right, rty, node.right)[0]
        of = lty.of if lty.of == rty.of else ""
        return (lambda s, m, e: [*first(s, m, e), *second(s, m, e)]), Ty(Kind.LIST, of)

    def _UnaryOp(self, node: ast.UnaryOp, depth: int) -> tuple[Compiled, Ty]:
        inner, ty = self.node(node.operand, depth)
        if isinstance(node.op, ast.Not):
            return (lambda s, m, e: not inner(s, m, e)), FLAG
        if isinstance(node.op, ast.USub):
            if ty.kind not in (Kind.NUMBER, Kind.ANY):
                raise self.fail(node, f"- needs a number, not {ty}")
            return (lambda s, m, e: -inner(s, m, e)), NUMBER
        symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
        raise self.fail(node, f"{symbol} is not part of the rules language")

    def _BoolOp(self, node: ast.BoolOp, depth: int) -> tuple[Compiled, Ty]:
        parts = [self.node(value, depth)[0] for value in node.values]
        if isinstance(node.op, ast.And):
            return (lambda s, m, e: all(part(s, m, e) for part in parts)), FLAG
        return (lambda s, m, e: any(part(s, m, e) for part in parts)), FLAG

    def _Compare(self, node: ast.Compare, depth: int) -> tuple[Compiled, Ty]:
        by_place = self._by_place(node)
        if by_place is not None:
            return by_place, FLAG
        left, left_ty = self.node(node.left, depth)
        tests: list[tuple[Callable[[Any, Any], bool], Compiled]] = []
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            test = _COMPARE.get(type(op))
            if test is None:
                symbol = _SYMBOLS.get(type(op), type(op).__name__)
                raise self.fail(node, f"{symbol} is not part of the rules language (use ==)")
            right, ty = self.node(comparator, depth)
            if type(op) in _ORDERS and not _ordered(left_ty, ty):
                raise self.fail(comparator, f"{_ORDERS[type(op)]} compares two numbers (or two texts), not {left_ty} and {ty}")  # fmt: skip
            left_ty = ty
            if isinstance(op, ast.In | ast.NotIn) and ty.kind not in (
                Kind.LIST, Kind.ZONE, Kind.PLAYERS, Kind.ANY,
            ):  # fmt: skip
                raise self.fail(comparator, f"`in` needs a zone or a list, not {ty}")
            tests.append((test, right))
        if len(tests) == 1:
            test, right = tests[0]
            return (lambda s, m, e: test(left(s, m, e), right(s, m, e))), FLAG

        def chain(s: DataState, m: int, e: list[Any]) -> bool:
            value = left(s, m, e)
            for check, right in tests:
                other = right(s, m, e)
                if not check(value, other):
                    return False
                value = other
            return True

        return chain, FLAG

    def _by_place(self, node: ast.Compare) -> Compiled | None:
        """Two piles of a row compared (`a != b`, `a < b`): by their places in it."""
        if len(node.comparators) != 1:
            return None
        left, right = self._pile_slot(node.left), self._pile_slot(node.comparators[0])
        test = _COMPARE.get(type(node.ops[0]))
        if left is None or right is None or test is None or isinstance(node.ops[0], ast.In | ast.NotIn):  # fmt: skip
            return None
        return lambda s, m, e: test(e[left], e[right])

    def _pile_slot(self, node: ast.expr) -> int | None:
        if isinstance(node, ast.Name) and node.id in self.scope.locals:
            slot = self.scope.locals[node.id][0]
            return slot if slot in self.scope.pile_slots else None
        return None

    def _IfExp(self, node: ast.IfExp, depth: int) -> tuple[Compiled, Ty]:
        test, _ = self.node(node.test, depth)
        yes, yty = self.node(node.body, depth)
        no, nty = self.node(node.orelse, depth)
        return (lambda s, m, e: yes(s, m, e) if test(s, m, e) else no(s, m, e)), (
            yty if yty == nty else ANY
        )

    def _GeneratorExp(self, node: ast.GeneratorExp, depth: int) -> tuple[Compiled, Ty]:
        raise self.fail(
            node, "a `... for ... in ...` goes inside sum, count, min, max, any, all or distinct"
        )

    def _Call(self, node: ast.Call, depth: int) -> tuple[Compiled, Ty]:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            called = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            hint = did_you_mean(called, FUNCTIONS) if isinstance(node.func, ast.Name) else ""
            raise self.fail(
                node, f"{called[:40]!r} is not a function of the rules language{hint}; "
                f"functions: {', '.join(FUNCTIONS)}",
            )  # fmt: skip
        name = node.func.id
        if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.fail(node, f"{name}(...) takes plain values, not name=value or *")
        if name in GRID_FUNCTIONS:
            return self._grid_call(name, node, depth)
        if name == "edge":
            return self._edge(node, depth)
        if name == "track_points":
            return self._track_points(node)
        if name in ("counts", "distinct_sets", "scale", "most", "fewest"):
            return self._scoring_call(name, node, depth)
        if (
            name in AGGREGATES
            and len(node.args) == 1
            and isinstance(node.args[0], ast.GeneratorExp)
        ):
            return self._aggregate(name, node.args[0], depth)
        args = [self.node(arg, depth) for arg in node.args]
        if name in ("min", "max") and len(args) >= 2:
            pick = min if name == "min" else max
            parts = [fn for fn, _ in args]
            return (lambda s, m, e: pick(part(s, m, e) for part in parts)), NUMBER
        if len(args) != 1:
            raise self.fail(node, f"{name}(...) takes one value")
        (arg, ty), where = args[0], node.args[0]
        return self._unary_call(name, arg, ty, where)

    def _track_points(self, node: ast.Call) -> tuple[Compiled, Ty]:
        """track_points(TRACK): the points of the player's position on a track."""
        arg = node.args[0] if len(node.args) == 1 else None
        if not isinstance(arg, ast.Name):
            raise self.fail(node, "track_points(...) takes the name of a track")
        track = self.scope.tracks.get(arg.id)
        if track is None:
            hint = did_you_mean(arg.id, self.scope.tracks)
            raise self.fail(arg, f"{arg.id!r} is not a track of these rules{hint}")
        mark, points_at = track.place, track.points_at
        return (lambda s, m, e: points_at(s.tracks[m][mark])), NUMBER

    def _unary_call(self, name: str, arg: Compiled, ty: Ty, where: ast.AST) -> tuple[Compiled, Ty]:
        def expect(*kinds: Kind) -> None:
            if ty.kind not in (*kinds, Kind.ANY):
                wanted = " or ".join(kind.value for kind in kinds)
                raise self.fail(where, f"{name}(...) needs {wanted}, not {ty}")

        if name == "total":
            expect(Kind.POOL)
            return (lambda s, m, e: sum(arg(s, m, e))), NUMBER
        if name == "empty":
            expect(Kind.ZONE, Kind.LIST)
            if ty.zone is not None and ty.zone.gaps:
                return (lambda s, m, e: all(card == HOLE for card in arg(s, m, e))), FLAG
            return (lambda s, m, e: not arg(s, m, e)), FLAG
        if name == "can_pay":
            expect(Kind.LIST, Kind.TEXT)
            need, payment = self.scope.need, self.scope.payment
            cache: dict[Any, list[tuple[int, int]]] = {}
            if payment is not None:

                def can_pay_some_way(s: DataState, m: int, e: list[Any]) -> bool:
                    cost = arg(s, m, e)
                    counts = cache.get(cost)
                    if counts is None:
                        counts = cache[cost] = need(() if cost is None else cost)
                    return payment.plan(s.pools[m], counts) is not None

                return can_pay_some_way, FLAG

            def can_pay(s: DataState, m: int, e: list[Any]) -> bool:
                cost = arg(s, m, e)
                counts = cache.get(cost)
                if counts is None:
                    counts = cache[cost] = need(() if cost is None else cost)
                pool = s.pools[m]
                return all(pool[place] >= n for place, n in counts)

            return can_pay, FLAG
        if name == "count":
            expect(Kind.ZONE, Kind.LIST)
            if ty.zone is not None and ty.zone.gaps:
                return (lambda s, m, e: sum(card != HOLE for card in arg(s, m, e))), NUMBER
            return (lambda s, m, e: len(arg(s, m, e))), NUMBER
        if name == "top":
            expect(Kind.ZONE)
            return (lambda s, m, e: stacks.top(arg(s, m, e))), Ty(Kind.CARD, ty.of)
        if name == "distinct":
            expect(Kind.ZONE, Kind.LIST)
            if ty.kind is Kind.ZONE:
                return (lambda s, m, e: stacks.distinct_cards(arg(s, m, e))), NUMBER
        expect(Kind.LIST)
        if name in ("min", "max"):
            pick = min if name == "min" else max
            return (lambda s, m, e: pick(arg(s, m, e), default=0)), NUMBER
        function = _AGGREGATE[name]
        return (lambda s, m, e: function(arg(s, m, e))), FLAG if name in ("any", "all") else NUMBER

    def _generator(self, gen: ast.GeneratorExp, depth: int) -> _Generated:
        """`X for NAME in ZONE if C`: its values one by one, and the parts they come of."""
        if len(gen.generators) != 1:
            raise self.fail(gen, "one `for` in an expression")
        loop = gen.generators[0]
        if loop.is_async or not isinstance(loop.target, ast.Name):
            raise self.fail(loop.target, "after `for` comes one name")
        source, ty = self.node(loop.iter, depth)
        items, item_ty = self.iteration(source, ty, loop.iter)
        variable = loop.target.id
        if variable in ("my", "option", "players", "turns", "round", "resources", "score"):
            raise self.fail(loop.target, f"{variable!r} is a name of the rules already")
        inner, slot = self.scope.bind(variable, item_ty, pile=ty.kind is Kind.ZONES)
        compiler = _Compiler(inner, self.text)
        conditions = [compiler.node(test, depth)[0] for test in loop.ifs]
        element, element_ty = compiler.node(gen.elt, depth)

        def chosen(s: DataState, m: int, e: list[Any]) -> Iterable[Any]:
            for item in items(s, m, e):
                e[slot] = item
                if all(condition(s, m, e) for condition in conditions):
                    yield element(s, m, e)

        return _Generated(chosen, items, slot, element, element_ty, bool(conditions))

    def _aggregate(self, name: str, gen: ast.GeneratorExp, depth: int) -> tuple[Compiled, Ty]:
        chosen, items, slot, element, element_ty, filtered = self._generator(gen, depth)
        if name == "sum" and not filtered:

            def total(s: DataState, m: int, e: list[Any]) -> Any:
                result = 0
                for item in items(s, m, e):
                    e[slot] = item
                    result += element(s, m, e)
                return result

            return total, NUMBER
        if name == "count":
            return (lambda s, m, e: sum(1 for _ in chosen(s, m, e))), NUMBER
        if name in ("min", "max"):
            pick = min if name == "min" else max
            return (lambda s, m, e: pick(chosen(s, m, e), default=0)), element_ty
        function = _AGGREGATE[name]
        return (lambda s, m, e: function(chosen(s, m, e))), FLAG if name in (
            "any", "all",
        ) else NUMBER  # fmt: skip

    def iteration(
        self, source: Compiled, ty: Ty, where: ast.AST
    ) -> tuple[Callable[[DataState, int, list[Any]], Sequence[Any]], Ty]:
        """What going through a value gives: a zone's cards (its empty slots skipped), a
        list's items."""
        return iteration(source, ty, lambda message: self.fail(where, message))

    # --- grids (rules/data/grid.py) ---

    def _grid_call(self, name: str, node: ast.Call, depth: int) -> tuple[Compiled, Ty]:
        """largest_group(t for t in GRID if C), adjacent_pairs(C for a, b in GRID),
        rows(X for line in GRID) and columns(X for line in GRID)."""
        shapes = {
            "largest_group": "largest_group(tile for tile in my.board if tile.colour == 'red')",
            "adjacent_pairs": "adjacent_pairs(a.colour == b.colour for a, b in my.board)",
            "rows": "rows(count(line) for line in my.board)",
            "columns": "columns(count(line) for line in my.board)",
        }
        gen = node.args[0] if len(node.args) == 1 else None
        if not isinstance(gen, ast.GeneratorExp) or len(gen.generators) != 1:
            raise self.fail(node, f"{name} takes `... for ... in` a grid: {shapes[name]}")
        loop = gen.generators[0]
        board, ty = self.node(loop.iter, depth)
        spec = ty.zone.grid if ty.kind is Kind.ZONE and ty.zone is not None else None
        if spec is None:
            raise self.fail(loop.iter, f"{name} goes through a grid (a zone with grid: ...), not {ty}")  # fmt: skip
        card = Ty(Kind.CARD, ty.of)
        pair = name == "adjacent_pairs"
        targets = loop.target.elts if isinstance(loop.target, ast.Tuple) else [loop.target]
        if len(targets) != (2 if pair else 1) or not all(isinstance(t, ast.Name) for t in targets):
            raise self.fail(loop.target, f"{name} takes {shapes[name]}")
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        for target, variable in zip(targets, names, strict=True):
            if variable in ("my", "option", "players", "turns", "round", "resources", "score"):
                raise self.fail(target, f"{variable!r} is a name of the rules already")
        if name in ("rows", "columns"):
            inner, slot = self.scope.bind(names[0], Ty(Kind.ZONE, ty.of))
            value, vty = _Compiler(inner, self.text).node(gen.elt, depth)
            if vty.kind not in (Kind.NUMBER, Kind.ANY) or loop.ifs:
                raise self.fail(gen.elt, f"{name} adds up a number for each line: {shapes[name]}")
            return grid.lines(spec, board, slot, value, name == "rows"), NUMBER
        if pair:
            inner, first = self.scope.bind(names[0], card)
            inner, second = inner.bind(names[1], card)
            if loop.ifs:
                raise self.fail(loop.ifs[0], f"adjacent_pairs counts the pairs its condition holds for: {shapes[name]}")  # fmt: skip
            test, _ = _Compiler(inner, self.text).node(gen.elt, depth)
            return grid.adjacent_pairs(spec, board, first, second, test), NUMBER
        if not isinstance(gen.elt, ast.Name) or gen.elt.id != names[0]:
            raise self.fail(gen.elt, f"largest_group counts the cards themselves: {shapes[name]}")
        inner, slot = self.scope.bind(names[0], card)
        compiler = _Compiler(inner, self.text)
        tests = [compiler.node(condition, depth)[0] for condition in loop.ifs]

        def passes(s: DataState, m: int, e: list[Any]) -> bool:
            return all(part(s, m, e) for part in tests)

        return grid.largest_group(spec, board, slot, passes if tests else None), NUMBER

    # --- set collection and majorities (rules/data/scoring.py) ---

    def _scoring_call(self, name: str, node: ast.Call, depth: int) -> tuple[Compiled, Ty]:
        """counts(X for c in ZONE), distinct_sets(...), scale(n, p0, p1, ...) and
        most(X, TIES, P1, ...) / fewest(...)."""
        args = node.args
        if name in ("counts", "distinct_sets"):
            if len(args) != 1:
                raise self.fail(node, f"{name} takes one `X for NAME in ZONE`: {name}(card.suit for card in my.tableau)")  # fmt: skip
            if isinstance(args[0], ast.GeneratorExp):
                values: Compiled = self._generator(args[0], depth).chosen
            else:
                values, ty = self.node(args[0], depth)
                values = self.iteration(values, ty, args[0])[0]
            tally = scoring.counts if name == "counts" else scoring.distinct_sets
            return (lambda s, m, e: tally(values(s, m, e))), LIST
        if name == "scale":
            if len(args) < 2:
                raise self.fail(node, "scale takes a number and the points for 0, 1, 2, ...: scale(n, 0, 1, 3, 6)")  # fmt: skip
            count = self._number(args[0], depth, name)
            points = [self._number(arg, depth, name) for arg in args[1:]]
            return (lambda s, m, e: scoring.scale(count(s, m, e), [p(s, m, e) for p in points])), NUMBER  # fmt: skip
        shape = f"{name}(X, 'split' or 'each', points of the first, of the second, ...)"
        if len(args) < 3:
            raise self.fail(node, f"{name} takes {shape}")
        tie = args[1]
        if not (isinstance(tie, ast.Constant) and tie.value in scoring.TIES):
            hint = did_you_mean(str(tie.value), scoring.TIES) if isinstance(tie, ast.Constant) else ""  # fmt: skip
            raise self.fail(tie, f"ties are 'split' or 'each'{hint}: {shape}")
        value = self._number(args[0], depth, name)
        points = [self._number(arg, depth, name) for arg in args[2:]]
        ties, most = str(tie.value), name == "most"

        def ranked(s: DataState, m: int, e: list[Any]) -> int:
            values = [value(s, seat, e) for seat in range(s.players)]
            return scoring.ranked(values, m, ties, [p(s, m, e) for p in points], most)

        return ranked, NUMBER

    def _number(self, node: ast.expr, depth: int, name: str) -> Compiled:
        compiled, ty = self.node(node, depth)
        if ty.kind not in (Kind.NUMBER, Kind.ANY):
            raise self.fail(node, f"{name}(...) needs a number here, not {ty}")
        return compiled

    def _edge(self, node: ast.Call, depth: int) -> tuple[Compiled, Ty]:
        """edge(tile, side): the tile's field named by the side (n, e, s, w; hex: ne, e,
        se, sw, w, nw), the edge of a tile the catalog describes side by side."""
        if len(node.args) != 2:
            raise self.fail(node, "edge takes a card and a side: edge(tile, side)")
        card, cty = self.node(node.args[0], depth)
        side, sty = self.node(node.args[1], depth)
        if cty.kind is not Kind.CARD:
            raise self.fail(node.args[0], f"edge(...) needs a card, not {cty}")
        if sty.kind not in (Kind.TEXT, Kind.ANY):
            raise self.fail(node.args[1], f"edge(...) needs a side (text), not {sty}")
        known = self.scope.cards.kind_fields.get(cty.of, frozenset())
        if not any(known.issuperset(sides) for sides in grid.SIDES.values()):
            every = "; ".join(", ".join(sides) for sides in grid.SIDES.values())
            raise self.fail(node, f"edge(...) reads a field per side, and the catalog's {cty.of}s lack them ({every})")  # fmt: skip
        where = node.args[1]
        if isinstance(where, ast.Constant) and not any(where.value in sides for sides in grid.SIDES.values()):  # fmt: skip
            hint = did_you_mean(str(where.value), [*grid.SIDES["square"], *grid.SIDES["hex"]])
            raise self.fail(where, f"{where.value!r} is not a side of a cell{hint}")
        fields = self.scope.cards.fields

        def edge(s: DataState, m: int, e: list[Any]) -> Any:
            name = side(s, m, e)
            values = fields.get(name) if name in known else None
            if values is None:
                raise RulesFault(f"edge(...): the catalog's {cty.of}s have no side {name!r}")
            return values[card(s, m, e)]

        return edge, ANY


def iteration(
    source: Compiled, ty: Ty, fail: Callable[[str], ExprError]
) -> tuple[Callable[[DataState, int, list[Any]], Sequence[Any]], Ty]:
    """The items of a zone (its cards, empty slots skipped) or a list (its items)."""
    if ty.kind is Kind.ZONE:
        card = Ty(Kind.CARD, ty.of)
        if ty.zone is not None and ty.zone.gaps:
            return (lambda s, m, e: [c for c in source(s, m, e) if c != HOLE]), card
        return source, card
    if ty.kind is Kind.LIST:
        return source, Ty(Kind.CARD, ty.of) if ty.of else ANY
    if ty.kind is Kind.ZONES:  # the piles' indices: the name bound reads the pile (Scope.bind)
        return source, Ty(Kind.ZONE, ty.of, ty.zone)
    if ty.kind is Kind.PLAYERS:
        return source, Ty(Kind.PLAYER)
    raise fail(f"`for` goes through a zone or a list, not {ty}")
