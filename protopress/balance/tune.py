"""The tuner: the smallest set of catalog edits that brings every goal inside its band.

The designer names goals (protopress.balance.goals) and the numeric catalog
fields that may change ("cards.*.points"). The tuner measures the catalog as it
is, then tries edits of one field first, then of two, each candidate played with
the balance lab on common random numbers: batch k of every candidate plays the
same seeds, so two candidates differ by their edits and not by their dice.

Sequential testing: a candidate is played a batch at a time, and dropped as soon
as one goal's 95% interval lies wholly outside its band; one that survives is
played to the full number of games, and is a fix when every goal's value then
lies inside its band. The search stops at the first fix or when the budget of
games is spent.

Order (the diagnosis): the fields of the components whose readings lie furthest
outside their bands come first; along one field the tuner steps away from the
current value, 1 then 2 and so on, and turns back once a step does not bring the
goals closer. Pairs are made of the single edits that came closest.
"""

from __future__ import annotations

import copy
import difflib
import fnmatch
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from protopress.balance.goals import Goal, Reading, Standing, standing_of
from protopress.balance.run import run_balance
from protopress.balance.stats import summarize
from protopress.components import InvalidInput, load_catalog
from protopress.rules.core import derive_seed


class VaryError(ValueError):
    """A --vary pattern that names no numeric field; the message says what is there."""


@dataclass(frozen=True)
class Tunable:
    """One numeric field of one component that the tuner may change."""

    collection: str
    id: str
    name: str
    value: int
    low: int | None  # None: no bound
    high: int | None

    @property
    def path(self) -> str:
        return f"{self.collection}.{self.id}.{self.name}"

    def allows(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class Edit:
    field: Tunable
    new: int

    def __str__(self) -> str:
        return f"{self.field.path}: {self.field.value} -> {self.new}"


Candidate = tuple[Edit, ...]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _suggest(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else f" (there: {', '.join(choices)})"


def _declared_bounds(document: dict, collection: str, name: str) -> tuple[int | None, int | None]:
    """The minimum and maximum the catalog's own kind declares for a field, if any."""
    for kind in (document.get("kinds") or {}).values():
        if isinstance(kind, dict) and kind.get("collection") == collection:
            declared = (kind.get("fields") or {}).get(name) or {}
            low, high = declared.get("minimum"), declared.get("maximum")
            return (low if _whole(low) else None), (high if _whole(high) else None)
    return None, None


def _numbers(value: object, prefix: str = "") -> dict[str, int]:
    """The whole-number leaves of a component's fields, by dotted name, in order."""
    found: dict[str, int] = {}
    if isinstance(value, dict):
        for key, inner in value.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if _whole(inner):
                found[name] = inner
            else:
                found.update(_numbers(inner, name))
    return found


def _matches(name: str, pattern: str) -> bool:
    names, patterns = name.split("."), pattern.split(".")
    return len(names) == len(patterns) and all(
        fnmatch.fnmatchcase(n, p) for n, p in zip(names, patterns, strict=True)
    )


def resolve_vary(document: dict, patterns: Sequence[str]) -> list[Tunable]:
    """The whole-number fields the patterns name (collection.id.field, the id or any
    part of the field may be *, a field inside a field is dotted: points.per_gem),
    in catalog order, each once. Bounds: the kind's declared minimum and maximum,
    and never below 0 unless the field already is. VaryError when a pattern
    matches nothing, with what is there."""
    found: dict[tuple[int, int, int], Tunable] = {}
    collections = [
        key
        for key, value in document.items()
        if isinstance(value, list) and value and all(isinstance(c, dict) for c in value)
    ]
    for pattern in patterns:
        parts = pattern.split(".")
        if len(parts) < 3 or not all(parts):
            raise VaryError(f"--vary {pattern!r}: write collection.id.field, e.g. cards.*.points")
        collection, ids, name = parts[0], parts[1], ".".join(parts[2:])
        if collection not in collections:
            raise VaryError(
                f"--vary {pattern!r}: no collection {collection!r}{_suggest(collection, collections)}"
            )
        items = [
            (place, c)
            for place, c in enumerate(document[collection])
            if fnmatch.fnmatchcase(str(c.get("id")), ids)
        ]
        if not items:
            all_ids = [str(c.get("id")) for c in document[collection]]
            raise VaryError(f"--vary {pattern!r}: no {collection} {ids!r}{_suggest(ids, all_ids)}")
        matched = 0
        for place, item in items:
            for leaf, (field_name, value) in enumerate(_numbers(item).items()):
                if field_name == "id" or not _matches(field_name, name):
                    continue
                matched += 1
                minimum, maximum = _declared_bounds(document, collection, field_name)
                low = 0 if value >= 0 else None  # never below 0 unless it already is
                if minimum is not None:
                    low = minimum if low is None else max(low, minimum)
                key = (collections.index(collection), place, leaf)
                found[key] = Tunable(collection, str(item["id"]), field_name, value, low, maximum)
        if not matched:
            names = sorted({n for _, c in items for n in _numbers(c)})
            raise VaryError(
                f"--vary {pattern!r}: no whole-number field {name!r} in {collection} {ids!r}"
                + (_suggest(name, names) if names else " (they have none)")
            )
    return [found[key] for key in sorted(found)]


def apply_edits(document: dict, edits: Sequence[Edit]) -> dict:
    """A copy of the catalog document with the edits made. An edit of a `count`
    moves the collection's declared `totals` with it (docs/catalog-format.md:
    the totals are the copies per collection)."""
    edited = copy.deepcopy(document)
    totals = edited.get("totals")
    totals = totals if isinstance(totals, dict) else {}
    for edit in edits:
        for item in edited[edit.field.collection]:
            if str(item.get("id")) == edit.field.id:
                *outer, last = edit.field.name.split(".")
                for key in outer:
                    item = item[key]
                item[last] = edit.new
        if edit.field.name == "count" and _whole(totals.get(edit.field.collection)):
            totals[edit.field.collection] += edit.new - edit.field.value
    return edited


def catalog_bytes(document: dict) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


# --- measuring ----------------------------------------------------------------------------

PlayBatch = Callable[[Path, int, int], list]  # (catalog file, batch number, games) -> records


@dataclass
class Measure:
    """A candidate's games so far and where its goals stand."""

    candidate: Candidate
    refused: str = ""  # the first problem of a candidate catalog that does not load: not played
    records: list = field(default_factory=list)
    readings: list[tuple[Goal, list[Reading]]] = field(default_factory=list)
    standing: Standing = Standing.OPEN
    trail: list[float] = field(default_factory=list)  # the distance after each batch

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def distance(self) -> float:
        return sum(r.distance for _, readings in self.readings for r in readings)

    def closer_than(self, other: Measure) -> bool:
        """Closer to the goals than other over the batches both played: the same
        seeds, so the difference is the edits'."""
        both = min(len(self.trail), len(other.trail))
        return both > 0 and self.trail[both - 1] < other.trail[both - 1]


def _standing(goals: Sequence[Goal], summary: dict) -> tuple[list, Standing]:
    """Every goal's readings, and where the goals stand together."""
    readings = [(goal, goal.readings(summary)) for goal in goals]
    return readings, standing_of([r for _, found in readings for r in found])


class BudgetSpent(Exception):
    """The next batch would play more games than the budget allows."""


@dataclass
class Tuner:
    """Searches edits; play(catalog file, batch number, games) plays one batch."""

    game: str
    document: dict
    goals: Sequence[Goal]
    tunables: Sequence[Tunable]
    play: PlayBatch
    workdir: Path  # where candidate catalogs are written for the workers to read
    games: int = 400  # games a candidate plays in full
    batch: int = 100
    budget: int = 20_000
    max_step: int = 10
    options: dict = field(default_factory=dict)
    played: int = 0
    tried: list[Measure] = field(default_factory=list)

    def measure(self, candidate: Candidate, *, full: bool = False) -> Measure:
        """Play the candidate batch by batch until its goals are clearly missed (unless
        full) or its games are all played. BudgetSpent before a batch beyond the budget."""
        path = self.workdir / f"candidate-{len(self.tried)}.json"
        path.write_bytes(catalog_bytes(apply_edits(self.document, candidate)))
        result = Measure(candidate)
        self.tried.append(result)
        try:
            load_catalog(path)
        except InvalidInput as error:
            result.refused = str(error.problems[0]) if error.problems else str(error)
            result.standing = Standing.MISSED
            return result
        for number in range(-(-self.games // self.batch)):
            size = min(self.batch, self.games - number * self.batch)
            if self.played + size > self.budget:
                raise BudgetSpent
            records = self.play(path, number, size)
            for offset, record in enumerate(records):
                record.index = number * self.batch + offset
            result.records += records
            self.played += len(records)
            summary = summarize(result.records, game=self.game, options=self.options)
            result.readings, result.standing = _standing(self.goals, summary)
            result.trail.append(result.distance)
            if result.standing is Standing.MISSED and not full:
                break
        return result

    def solved(self, measure: Measure) -> bool:
        return measure.standing is Standing.MET and measure.games >= self.games

    def ordered(self, baseline: Measure) -> list[Tunable]:
        """The tunables, those of the components furthest outside their bands first."""
        off: dict[str, float] = {}
        for _, readings in baseline.readings:
            for reading in readings:
                if reading.component is not None:
                    off[reading.component] = max(off.get(reading.component, 0.0), reading.distance)
        return sorted(self.tunables, key=lambda t: -off.get(t.id, 0.0))

    def singles(self, baseline: Measure) -> tuple[Measure | None, list[Measure]]:
        """Edits of one field: a fix, and the closest edit of each field and direction."""
        closest: list[Measure] = []
        for tunable in self.ordered(baseline):
            for direction in (-1, 1):
                best = baseline
                for step in range(1, self.max_step + 1):
                    value = tunable.value + direction * step
                    if not tunable.allows(value):
                        break
                    measure = self.measure((Edit(tunable, value),))
                    if measure.refused:
                        break  # the catalog's own checks refuse it: so would a further step
                    if self.solved(measure):
                        return measure, closest
                    if not measure.closer_than(best):
                        break  # this step brings the goals no closer: turn back
                    best = measure
                if best is not baseline:
                    closest.append(best)
        return None, closest

    def pairs(self, closest: list[Measure], width: int = 6) -> Measure | None:
        """Pairs of the closest single edits, of different fields, closest first."""
        ranked = sorted(closest, key=lambda m: m.trail[0])[:width]  # on the same first seeds
        options = [
            (a, b)
            for a, b in combinations(ranked, 2)
            if a.candidate[0].field.path != b.candidate[0].field.path
        ]
        options.sort(key=lambda pair: pair[0].trail[0] + pair[1].trail[0])
        for a, b in options:
            measure = self.measure(a.candidate + b.candidate)
            if self.solved(measure):
                return measure
        return None


@dataclass
class Outcome:
    """What the search found."""

    baseline: Measure
    fix: Measure | None
    played: int
    budget: int
    candidates: int  # edits tried
    refused: int  # of them, catalogs that did not load (their checks refused the edit)
    spent: bool  # the budget ran out before a fix was found

    @property
    def edits(self) -> Candidate:
        return self.fix.candidate if self.fix else ()


def tune(tuner: Tuner) -> Outcome:
    """Measure the catalog as it is (in full), then search single edits, then pairs."""
    baseline = tuner.measure((), full=True)
    fix: Measure | None = None
    spent = False
    try:
        if tuner.solved(baseline):
            fix = baseline
        else:
            fix, closest = tuner.singles(baseline)
            if fix is None:
                fix = tuner.pairs(closest)
    except BudgetSpent:
        spent = True
    refused = sum(bool(m.refused) for m in tuner.tried)
    return Outcome(baseline, fix, tuner.played, tuner.budget, len(tuner.tried) - 1, refused, spent)


def balance_batches(
    game: str,
    players: int,
    bots: list[str],
    seed: int,
    options: dict | None = None,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    rotate: bool = False,
    rules: str | None = None,
) -> PlayBatch:
    """Play batch number n of a candidate catalog with the balance lab: the same
    seeds for batch n of every candidate (common random numbers); a shorter batch
    plays the first games of the full one."""

    def play(catalog: Path, number: int, games: int) -> list:
        run = run_balance(
            game,
            str(catalog),
            games,
            players,
            bots,
            derive_seed(seed, "tune-batch", number),
            options,
            workers,
            scheduler=scheduler,
            rotate=rotate,
            rules=rules,
        )
        if run.partial:
            raise KeyboardInterrupt
        return run.records

    return play


# --- words ------------------------------------------------------------------------------


def _reading_words(reading: Reading) -> str:
    where = "inside" if reading.inside else "outside"
    return (
        f"{reading.label} {reading.value:.1f} (95% {reading.low:.1f} to {reading.high:.1f}), "
        f"{where} {reading.band_low:g} to {reading.band_high:g}"
    )


def measure_lines(measure: Measure) -> list[str]:
    """Per goal: how many readings lie inside the band, and the one furthest out."""
    lines = []
    for goal, readings in measure.readings:
        inside = sum(r.inside for r in readings)
        worst = max(readings, key=lambda r: (r.distance, abs(r.value)), default=None)
        head = f'  goal "{goal.text}": {inside} of {len(readings)} inside'
        lines.append(f"{head}; furthest: {_reading_words(worst)}" if worst else head)
    return lines


def outcome_lines(outcome: Outcome, game: str) -> list[str]:
    """The text summary: the catalog as it is, the fix and its figures, the games played."""
    refused = f" ({outcome.refused} refused by the catalog's checks)" if outcome.refused else ""
    cost = (
        f"{outcome.candidates} candidates tried{refused}, {outcome.played:,} games played "
        f"(budget {outcome.budget:,})"
    )
    lines = [f"{game} as it is ({outcome.baseline.games:,} games):"]
    lines += measure_lines(outcome.baseline)
    if outcome.fix is None:
        why = "the budget ran out" if outcome.spent else "every candidate was tried"
        lines.append(f"no fix found: {why}; {cost}")
        return lines
    if not outcome.edits:
        lines.append(f"every goal is already inside its band: nothing to change; {cost}")
        return lines
    count = len(outcome.edits)
    lines.append(f"fix: {count} edit{'s' if count > 1 else ''}; {cost}")
    lines += [f"  {edit}" for edit in outcome.edits]
    lines.append(f"with the fix ({outcome.fix.games:,} games, the same seeds):")
    lines += measure_lines(outcome.fix)
    return lines
