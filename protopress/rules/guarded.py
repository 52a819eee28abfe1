"""A designer's engine, watched at the contract: an error in the rules names the rules.

An engine loaded with --rules is the designer's code. When one of its contract
methods raises (a KeyError in `to_move`, a ValueError in `apply`), or returns
what the contract does not allow (None from `scores`), the kit says so as a
`RulesFault` naming the rules file, the line and the method, instead of an
internal error of protopress or a usage error. `IllegalAction` from `apply`
is part of the contract and passes through as it is.

The watch is a subclass of the designer's class whose contract methods call the
designer's own through a try: isinstance, attributes (`actions`, `seat_view`)
and the engine's module (`score_state`) stay the designer's.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import traceback
from collections.abc import Callable, Sized
from pathlib import Path
from typing import Any

from protopress.rules.core import IllegalAction, RulesFault


def _seat_or_none(value: object) -> bool:
    return value is None or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def _whole_numbers(value: object) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(item, numbers.Integral) and not isinstance(item, bool) for item in value
    )


def _number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


# The contract's methods, and what each must return (None: anything).
RETURNS: dict[str, tuple[Callable[[object], bool], str] | None] = {
    "setup": None,
    "to_move": (_seat_or_none, "a seat number or None"),
    "legal_actions": (lambda value: isinstance(value, Sized), "a sequence of actions"),
    "apply": None,
    "is_over": (lambda value: isinstance(value, bool), "True or False"),
    "scores": (_whole_numbers, "a list of whole numbers, one per seat"),
    "winners": (_whole_numbers, "a list of seat numbers"),
    "heuristic": (_number, "a number"),
    "record": (lambda value: isinstance(value, dict), "a dict"),
    "outcome": None,
}


def guarded(engine: type, rules: str) -> type:
    """A subclass of engine whose contract methods raise RulesFault naming rules (the
    reference as the designer gave it) when the designer's code fails."""
    source = _source_file(engine)
    namespace: dict[str, Any] = {"__module__": engine.__module__, "__doc__": engine.__doc__}
    for name, expected in RETURNS.items():
        method = getattr(engine, name, None)
        if callable(method):
            namespace[name] = _watched(method, name, expected, rules, source)
    return type(engine.__name__, (engine,), namespace)


def _watched(
    method: Callable[..., Any],
    name: str,
    expected: tuple[Callable[[object], bool], str] | None,
    rules: str,
    source: str | None,
) -> Callable[..., Any]:
    @functools.wraps(method)
    def watched(self: Any, *args: Any) -> Any:
        try:
            result = method(self, *args)
        except (IllegalAction, RulesFault):
            raise
        except (Exception, SystemExit) as error:  # the designer's code, whatever it raised
            where = _where(error, rules, source)
            what = (
                f"called sys.exit({error.code!r})"
                if isinstance(error, SystemExit)
                else f"raised {type(error).__name__}: {error}"
            )
            raise RulesFault(f"{where}: the rules' {name} {what}") from error
        if expected is not None and not expected[0](result):
            shown = repr(result)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise RulesFault(f"{rules}: the rules' {name} returned {shown}; expected {expected[1]}")
        return result

    return watched


def _source_file(engine: type) -> str | None:
    try:
        return str(Path(inspect.getfile(engine)).resolve())
    except (TypeError, OSError):
        return None


def _where(error: BaseException, rules: str, source: str | None) -> str:
    """rules:LINE at the innermost frame of the traceback inside the rules file, else rules."""
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if source is not None and str(Path(frame.filename).resolve()) == source:
            line = frame.lineno
    return f"{rules}:{line}" if line is not None else rules
