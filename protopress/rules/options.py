"""Game options: declared once in a game's spec, parsed and checked once.

An option arrives as text from the command line (`--option target=60`), as a
JSON value from an action log (`"target": 60`) or as a Python value from a
caller. `parse_options` turns any of them into the declared type, fills the
defaults and names the option and what it accepts when a value is wrong, so
no game parses its own options.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


class OptionType(Enum):
    FLAG = "flag"  # true or false
    WHOLE = "whole"  # a whole number, within minimum and maximum
    CHOICE = "choice"  # one of choices


class OptionError(ValueError):
    """A bad option name or value; the message names the option and what it accepts."""


@dataclass(frozen=True)
class Option:
    """One option of a game.

    default None means the game decides from the other options or the
    number of players (Gem Rush's target depends on the mode); such an
    option is absent from the parsed options unless given.
    """

    name: str
    type: OptionType
    help: str
    default: bool | int | str | None = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def accepts(self) -> str:
        """What the option accepts, in words."""
        if self.type is OptionType.FLAG:
            return "true or false"
        if self.type is OptionType.CHOICE:
            return "one of " + ", ".join(self.choices)
        low = "" if self.minimum is None else f"{self.minimum}"
        high = "" if self.maximum is None else f"{self.maximum}"
        if low and high:
            return f"a whole number from {low} to {high}"
        if low:
            return f"a whole number of at least {low}"
        return f"a whole number of at most {high}" if high else "a whole number"

    def parse(self, value: object) -> bool | int | str:
        """The typed value of value (text or already typed), or OptionError."""
        if self.type is OptionType.FLAG:
            return self._flag(value)
        if self.type is OptionType.WHOLE:
            return self._whole(value)
        return self._choice(value)

    def _refuse(self, value: object) -> OptionError:
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return OptionError(f"option {self.name}: expected {self.accepts()}, found {shown}")

    def _flag(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower() if isinstance(value, str | int) else None
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise self._refuse(value)

    def _whole(self, value: object) -> int:
        if isinstance(value, bool):
            raise self._refuse(value)
        if isinstance(value, int):
            number = value
        elif isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            if len(value.strip()) > 12:
                raise self._refuse(value)
            number = int(value.strip())
        else:
            raise self._refuse(value)
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise self._refuse(value)
        return number

    def _choice(self, value: object) -> str:
        from protopress.components.suggest import did_you_mean

        text = str(value).strip().lower() if isinstance(value, str | int) else None
        if isinstance(value, bool) or text not in self.choices:
            hint = did_you_mean(text, self.choices) if text else ""
            raise OptionError(f"{self._refuse(value)}{hint}")
        return text


Options = dict[str, Any]  # parsed options: name -> typed value


def parse_options(declared: Iterable[Option], given: Mapping[str, object]) -> Options:
    """Typed options: each given value parsed, every declared default filled.

    An unknown name is an OptionError naming the options there are.
    """
    from protopress.components.suggest import did_you_mean

    by_name = {option.name: option for option in declared}
    parsed: Options = {}
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name) or "none"
            hint = did_you_mean(str(name), by_name)
            raise OptionError(f"unknown option {name!r}{hint}; options: {known}")
        parsed[name] = option.parse(value)
    for name, option in by_name.items():
        if name not in parsed and option.default is not None:
            parsed[name] = option.default
    return parsed
