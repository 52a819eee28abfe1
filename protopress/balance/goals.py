"""The tuner's goals: what a balanced design should show, read from a balance summary.

A goal is written in a small grammar (GOAL_FORMS) and read against the
summary of balance runs (protopress.balance.stats.summarize). Each goal gives
readings: a value with its 95% interval, and the band the value should lie in.

- "seat win rates 45-55%": every seat's share of the decided (untied) games,
  in percent.
- "no component effect above 10 points": every judged component's within-game
  difference in win rate (stats.components), in percentage points: a seat that
  used the component won that many points more often than the seats at its
  table that did not. Judged: used at least the summary's min_uses times.
- "mean score 20-30": the mean final score over every seat.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from protopress.balance.stats import seat_name

NUMBER = r"(-?\d+(?:\.\d+)?)"
RANGE = rf"(?:between\s+)?{NUMBER}\s*(?:-|to|and)\s*{NUMBER}"
GOAL_FORMS = (
    '"seat win rates 45-55%"',
    '"no component effect above 10 points"',
    '"mean score 20-30"',
)


class GoalError(ValueError):
    """A goal that does not parse, or that the runs cannot measure; the message says which."""


class GoalKind(enum.Enum):
    SEAT_WIN_RATES = "seat win rates"
    COMPONENT_EFFECT = "component effect"
    MEAN_SCORE = "mean score"


class Standing(enum.Enum):
    """Where a goal stands after some games."""

    MET = "met"  # every reading's value inside its band
    OPEN = "open"  # some value outside, but its interval still reaches the band
    MISSED = "missed"  # some reading's whole interval outside its band: clearly bad


@dataclass(frozen=True)
class Reading:
    """One measured value with its 95% interval, against the band it should lie in."""

    label: str  # what was measured: "seat 0", "component cottage", "mean score"
    value: float
    low: float
    high: float
    band_low: float
    band_high: float
    component: str | None = None  # the component's id, for a component's reading

    @property
    def inside(self) -> bool:
        return self.band_low <= self.value <= self.band_high

    @property
    def excluded(self) -> bool:
        """The whole interval lies outside the band."""
        return self.high < self.band_low or self.low > self.band_high

    @property
    def distance(self) -> float:
        """How far the value lies outside its band, in band widths (0 inside)."""
        width = max(self.band_high - self.band_low, 1.0)
        outside = max(self.band_low - self.value, self.value - self.band_high, 0.0)
        return outside / width


_PATTERNS = {
    GoalKind.SEAT_WIN_RATES: re.compile(rf"seats?\s+win\s+rates?\s+{RANGE}\s*%"),
    GoalKind.COMPONENT_EFFECT: re.compile(
        rf"no\s+component\s+effects?\s+(?:above|over|beyond)\s+{NUMBER}\s*(?:percentage\s+)?points?"
    ),
    GoalKind.MEAN_SCORE: re.compile(rf"mean\s+scores?\s+{RANGE}"),
}


@dataclass(frozen=True)
class Goal:
    text: str  # as written
    kind: GoalKind
    low: float
    high: float

    def readings(self, summary: dict) -> list[Reading]:
        """The goal's readings in a balance summary (GoalError when it has none)."""
        if self.kind is GoalKind.SEAT_WIN_RATES:
            return self._seat_readings(summary)
        if self.kind is GoalKind.COMPONENT_EFFECT:
            return self._component_readings(summary)
        scores = summary.get("scores") or {}
        if scores.get("mean") is None:
            raise GoalError(f'goal "{self.text}": the games have no scores')
        return [
            Reading(
                "mean score", scores["mean"], scores["low"], scores["high"], self.low, self.high
            )
        ]

    def _seat_readings(self, summary: dict) -> list[Reading]:
        seats = summary.get("seats") or []
        if len(seats) < 2:
            raise GoalError(f'goal "{self.text}": seat win rates need two or more seats')
        readings = []
        for entry in seats:
            share = entry.get("decided") or entry
            readings.append(
                Reading(
                    seat_name(entry["seat"]),
                    100 * share["rate"],
                    100 * share["low"],
                    100 * share["high"],
                    self.low,
                    self.high,
                )
            )
        return readings

    def _component_readings(self, summary: dict) -> list[Reading]:
        components = summary.get("components")
        if not components:
            raise GoalError(
                f'goal "{self.text}": the games record no components used (the rules\' '
                "`used` record, docs/own-rules.md)"
            )
        return [
            Reading(
                f"component {item['id']}",
                100 * item["difference"],
                100 * item["low"],
                100 * item["high"],
                self.low,
                self.high,
                component=item["id"],
            )
            for item in components["items"]
            if item["difference"] is not None and item["uses"] >= components["min_uses"]
        ]

    def standing(self, summary: dict) -> Standing:
        return standing_of(self.readings(summary))


def standing_of(readings: Sequence[Reading]) -> Standing:
    """Missed when some reading's interval lies wholly outside its band, met when
    every value lies inside, else open."""
    if any(reading.excluded for reading in readings):
        return Standing.MISSED
    return Standing.MET if all(r.inside for r in readings) else Standing.OPEN


def parse_goal(text: str) -> Goal:
    """A goal from its words (GoalError naming the accepted forms when they do not parse)."""
    words = " ".join(text.lower().split())
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(words)
        if match is None:
            continue
        if kind is GoalKind.COMPONENT_EFFECT:
            bound = float(match.group(1))
            if bound < 0:
                break
            return Goal(text, kind, -bound, bound)
        low, high = sorted((float(match.group(1)), float(match.group(2))))
        if kind is GoalKind.SEAT_WIN_RATES and not 0 <= low <= high <= 100:
            break
        return Goal(text, kind, low, high)
    raise GoalError(f'goal "{text}" is not understood; accepted: {", ".join(GOAL_FORMS)}')
