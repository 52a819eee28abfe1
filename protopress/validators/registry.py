"""Every check, and running those that apply to a catalog."""

from __future__ import annotations

import importlib

from protopress.components import Catalog
from protopress.validators.findings import SEVERITIES, Check, Finding

SHARED_CHECK_MODULES = ("protopress.validators.colour",)  # checks any game may use


def check_modules() -> tuple[str, ...]:
    """Modules that define CHECKS (a tuple of Check): each game's, then the shared ones."""
    from protopress.games import builtin_specs

    games = tuple(module for spec in builtin_specs() for module in spec.checks)
    return games + SHARED_CHECK_MODULES


def all_checks() -> list[Check]:
    checks = []
    for module_name in check_modules():
        checks.extend(importlib.import_module(module_name).CHECKS)
    return checks


def applicable(catalog: Catalog) -> list[Check]:
    return [check for check in all_checks() if all(catalog.of_kind(k) for k in check.needs)]


def run_checks(catalog: Catalog, seed: int = 0) -> list[Finding]:
    """Findings of every applicable check, errors first, in a stable order."""
    findings = [finding for check in applicable(catalog) for finding in check.run(catalog, seed)]
    rank = {severity: index for index, severity in enumerate(SEVERITIES)}
    return sorted(findings, key=lambda f: (rank[f.severity], f.check, f.component, f.message))
