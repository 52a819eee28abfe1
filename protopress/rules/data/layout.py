"""What a rules file alone decides, before any catalog: its players, options, zones
and the typed action of each verb (`Layout`, which the action codec needs), and the
words of the language a name may not take."""

from __future__ import annotations

import keyword
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from protopress.components.jsonpos import pointer_of
from protopress.components.suggest import did_you_mean
from protopress.rules.data.bags import zone_findings
from protopress.rules.data.choices import choice_kinds, make_kind, shape_problem
from protopress.rules.data.dice import check_dice_zone
from protopress.rules.data.expr import FUNCTIONS
from protopress.rules.data.grid import grid_findings, grid_spec
from protopress.rules.data.load import Finding, RulesProblems, RulesSource
from protopress.rules.data.model import Seen, Zone
from protopress.rules.data.offers import offer_fields
from protopress.rules.data.turns import end_findings, first_mover, pass_findings, turn_kinds
from protopress.rules.options import Option, OptionType

RESERVED = ("my", "others", "option", "players", "turns", "round", "resources", "score", "verb",
            "used")  # fmt: skip


@dataclass(frozen=True)
class Layout:
    """What the rules file alone decides: the zones and their piles, the options, the
    players, and the typed action of each verb (the codec needs them before a catalog)."""

    game: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    zones: tuple[Zone, ...]
    piles: int
    kinds: dict[str, type]  # verb -> its action class
    first_mover: int | None = 0  # the seat that always starts (None: it depends)


def layout_of(source: RulesSource) -> Layout:
    """The layout of a rules file; RulesProblems naming each mistake."""
    doc, findings = source.document, []
    players = doc["players"]
    if players["min"] > players["max"]:
        findings.append(Finding("/players/min", "min is more than max"))
    options = tuple(_options(doc.get("options", {}), findings))
    zones, piles = _zones(doc["zones"], players["max"], findings)
    findings.extend(grid_findings(zones, options))
    kinds = _action_kinds(doc["turn"]["choose"], {z.name: z for z in zones}, findings)
    choice_kinds(doc["turn"], kinds, findings)
    done, turn_findings = turn_kinds(doc["turn"], {z.name: z for z in zones})
    kinds.update(done)
    findings.extend(turn_findings)
    findings.extend(pass_findings(doc["turn"], {z.name: z for z in zones}))
    findings.extend(end_findings(doc["turn"], doc["end"]))
    if findings:
        raise RulesProblems(findings)
    title = doc.get("title") or doc["game"]
    return Layout(doc["game"], title, players["min"], players["max"], options, zones, piles, kinds,
                  first_mover(doc["turn"]))  # fmt: skip


def _options(declared: Mapping[str, Any], findings: list[Finding]) -> Iterable[Option]:
    for name, given in declared.items():
        at = pointer_of(["options", name])
        typed = [key for key in ("whole", "flag", "choice") if key in given]
        if len(typed) != 1:
            findings.append(Finding(at, "an option is exactly one of whole, flag or choice"))
            continue
        if reserved_name(name, at, findings):
            continue
        low, high, says = given.get("min"), given.get("max"), given["says"]
        if typed[0] == "whole":
            default = given["whole"]
            if (low is not None and default < low) or (high is not None and default > high):
                findings.append(Finding(at + "/whole", f"the default {default} is out of min..max"))
            yield Option(name, OptionType.WHOLE, says, default=default, minimum=low, maximum=high)
        elif typed[0] == "flag":
            yield Option(name, OptionType.FLAG, says, default=given["flag"])
        else:
            choices = tuple(given.get("of", ()))
            if given["choice"] not in choices:
                hint = did_you_mean(given["choice"], choices)
                findings.append(Finding(at + "/choice", f"the default is not one of `of`{hint}"))
            yield Option(name, OptionType.CHOICE, says, default=given["choice"], choices=choices)


def reserved_name(name: str, at: str, findings: list[Finding]) -> bool:
    """Whether name is a word of the rules language (a finding at `at` if so)."""
    if name in RESERVED or name in FUNCTIONS or keyword.iskeyword(name):
        findings.append(Finding(at, f"{name!r} is a word of the rules language: choose another name", at_key=True))  # fmt: skip
        return True
    return False


def _zones(
    declared: Mapping[str, Any], max_players: int, findings: list[Finding]
) -> tuple[tuple[Zone, ...], int]:
    zones, piles = [], 0
    for name, given in declared.items():
        at = pointer_of(["zones", name])
        reserved_name(name, at, findings)
        each = bool(given.get("each"))
        check_dice_zone(name, given, findings)
        zone_findings(name, given, findings)
        slots, refill = given.get("slots"), given.get("refill")
        if refill is not None and refill not in declared:
            hint = did_you_mean(refill, declared)
            findings.append(Finding(at + "/refill", f"{refill!r} is not a zone{hint}"))
        elif refill is not None and (slots is None or declared[refill].get("each")):
            findings.append(Finding(at + "/refill", "refill needs slots, from a shared zone"))
        elif refill is not None and declared[refill].get("slots") is not None:
            what = "itself" if refill == name else f"{refill!r}, a row of slots"
            findings.append(Finding(at + "/refill", f"a row is refilled from a pile, not from {what}"))  # fmt: skip
        if each and given.get("setup"):
            findings.append(Finding(at + "/setup", "a zone of each player starts empty"))
        zones.append(
            Zone(
                name,
                given["holds"],
                Seen(given["seen"]),
                each,
                piles,
                slots,
                refill,
                given.get("setup") == "all",
                bool(given.get("shuffle")),
                grid_spec(given.get("grid")),
                dice=given.get("dice"),
                faces=tuple(given.get("faces", ())),
                bag=bool(given.get("bag")),
                piles=given.get("piles", 1),
            )  # fmt: skip
        )
        piles += (max_players if each else 1) * given.get("piles", 1)
    return tuple(zones), piles


def _action_kinds(
    choose: Mapping[str, Any], zones: Mapping[str, Zone], findings: list[Finding]
) -> dict[str, type]:
    kinds: dict[str, type] = {}
    for verb, given in choose.items():
        at = pointer_of(["turn", "choose", verb])
        if reserved_name(verb, at, findings):
            continue
        param, origin = given.get("each"), given.get("from")
        if (param is None) != (origin is None):
            findings.append(Finding(at, "`each` and `from` go together: each NAME from WHERE"))
            continue
        fields: list[str] = []
        if isinstance(param, list):  # two things chosen at once (rules/data/choices.py)
            if shape_problem(param):
                findings.append(Finding(at + "/each", shape_problem(param)))
            elif not any(reserved_name(name, f"{at}/each/{i}", findings) for i, name in enumerate(param)):  # fmt: skip
                kinds[verb] = make_kind(verb, param)
            continue
        if param is not None:
            if reserved_name(param, at + "/each", findings):
                continue
            zone = zones.get(origin.removeprefix("my.")) if isinstance(origin, str) else None
            fields.append("slot" if zone is not None and zone.slots else param)
            if "onto" in given:
                fields.append("cell")
        elif "onto" in given:
            findings.append(Finding(at + "/onto", "a tile placed `onto` a grid is chosen: each NAME from WHERE"))  # fmt: skip
        fields.extend(offer_fields(given))
        kinds[verb] = make_kind(verb, fields)
    return kinds
