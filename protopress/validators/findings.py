"""What a check reports: a severity, the component it concerns, a message."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    severity: str  # "error", "warning" or "info"
    component: str  # the component id, or the collection/catalog it concerns
    message: str
    check: str  # the name of the check that found it
    data: dict = field(default_factory=dict, compare=False)  # numbers behind the message

    def __post_init__(self):
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity!r}")

    def __str__(self) -> str:
        return f"{self.severity} {self.component}: {self.message}"

    def to_json(self) -> dict:
        return {
            "severity": self.severity,
            "component": self.component,
            "message": self.message,
            "check": self.check,
            "data": self.data,
        }


@dataclass(frozen=True)
class Check:
    """A named check and the component kinds it needs (all must be present)."""

    name: str
    needs: tuple[str, ...]
    run: Callable[..., Iterable[Finding]]  # run(catalog, seed) -> findings
