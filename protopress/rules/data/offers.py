"""What an action chooses beyond its card and cell, in the action's own keys: a trade
with the supply (`trade`), the way to pay its cost (`pay`), the dice to roll again
(`reroll`). Each is an `Offer` (rules/data/model.py): its choices are the action's
last fields, listed as legal actions, and its step runs before the action's `do`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protopress.components.suggest import did_you_mean
from protopress.rules.data.dice import StepCompiler, reroll_of
from protopress.rules.data.expr import Scope
from protopress.rules.data.load import Finding
from protopress.rules.data.model import Compiled, DataState, Kind, Offer, Step
from protopress.rules.data.payment import PayChoice, Payment, trade_of

OFFERS = ("trade", "pay", "reroll")  # an action's keys that choose beyond its card


def offer_fields(given: Mapping[str, Any]) -> list[str]:
    """The fields an action's turn and offer add to its typed action (after its card
    and cell): `turns` of a tile turned onto a grid, then the offer's."""
    fields = ["turns"] if given.get("rotate") is True and "onto" in given else []
    if "trade" in given:
        alike = isinstance(given["trade"], dict) and "alike" in given["trade"]
        fields += ["give", "get"] if alike else []
    elif "pay" in given:
        fields.append("paid")
    elif "reroll" in given:
        fields.append("dice")
    return fields


def offer_of(
    compiler: StepCompiler, given: Mapping[str, Any], at: str, scope: Scope, steps: Step
) -> tuple[Offer | None, Step]:
    """The action's offer (None: it has none, or a finding) and its steps, the offer's
    first."""
    keys = [key for key in OFFERS if key in given]
    if not keys and "do" not in given:
        compiler.findings.append(Finding(at, "missing 'do' (what the action does)"))
        return None, steps
    if len(keys) > 1:
        message = f"an action chooses one of trade, pay or reroll, not {' and '.join(keys)}"
        compiler.findings.append(Finding(at, message))
        return None, steps
    if "times" in given and "reroll" not in given:
        compiler.findings.append(Finding(f"{at}/times", "times goes with reroll", at_key=True))
    if not keys:
        return None, steps
    key = keys[0]
    if key in ("trade", "reroll"):
        stray = [name for name in ("each", "from", "onto") if name in given]
        if stray:
            message = f"a {key} is an action of its own: it takes no {stray[0]!r}"
            compiler.findings.append(Finding(f"{at}/{stray[0]}", message, at_key=True))
            return None, steps
    offer: PayChoice | Any
    if key == "trade":
        offer = trade_of(given["trade"], f"{at}/trade", scope.resources, scope.reserve(),
                         compiler.findings)  # fmt: skip
    elif key == "reroll":
        offer = reroll_of(compiler, given, at, scope)
    else:
        cost = _cost(compiler, given["pay"], f"{at}/pay", scope)
        offer = PayChoice(cost, scope.need, scope.payment or Payment(), tuple(scope.resources),
                          scope.reserve(), compiler.where(f"{at}/pay"))  # fmt: skip
    if offer is None:
        return None, steps
    first: Step = offer.step

    def offered(state: DataState, seat: int, env: list[Any]) -> None:
        first(state, seat, env)
        steps(state, seat, env)

    return offer, offered


def _cost(compiler: StepCompiler, given: Any, at: str, scope: Scope) -> Compiled:
    """An action's `pay`: a list of resources, or an expression (`card.cost`, `gold`)."""
    if not isinstance(given, list):
        return compiler.expression(given, scope, at, Kind.TEXT, Kind.LIST, resource=True)[0]
    for i, name in enumerate(given):
        if name not in scope.resources:
            hint = did_you_mean(name, scope.resources)
            message = f"{name!r} is not a resource of this catalog{hint}"
            compiler.findings.append(Finding(f"{at}/{i}", message))
    cost = tuple(given)
    return lambda state, seat, env: cost
