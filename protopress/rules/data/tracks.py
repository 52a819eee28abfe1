"""Tracks as data: each player's marker on a numbered track, the `advance` step, the
end a track's position brings, and points by position.

```yaml
tracks:
  renown: {min: 0, max: 15, start: 0, end: 12, points: [0, 1, 2, 4, 6, 9]}
```

Every player's marker starts at `start` (default `min`); `advance: renown`
(with `n:`, which may be negative) moves the player's marker, stopping at
`min` and `max`. `my.renown` reads its position; `track_points(renown)` the
points of that position (`points` lists them from `min` up; past the list's
end a position scores its last entry). With `end`, the game is over after the
turn in which any player's marker reaches that position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protopress.components.jsonpos import pointer_of
from protopress.components.suggest import did_you_mean
from protopress.rules.data.dice import StepCompiler
from protopress.rules.data.expr import Scope
from protopress.rules.data.load import Finding
from protopress.rules.data.model import Compiled, DataState, Kind, Step, Track

MAX_POSITIONS = 1001  # positions of one track


def tracks_of(
    declared: Mapping[str, Any], taken: Mapping[str, str], findings: list[Finding]
) -> tuple[Track, ...]:
    """The tracks of a rules file; taken: the names already used (name -> what it is)."""
    tracks = []
    for place, (name, given) in enumerate(declared.items()):
        at = pointer_of(["tracks", name])
        if name in taken:
            message = f"{name!r} is a {taken[name]} too: choose another name"
            findings.append(Finding(at, message, at_key=True))
        low, high = given.get("min", 0), given["max"]
        start, end = given.get("start", low), given.get("end")
        points = tuple(given.get("points", ()))
        if high <= low:
            findings.append(Finding(f"{at}/max", f"max must be more than min ({low})"))
        elif high - low >= MAX_POSITIONS:
            findings.append(Finding(f"{at}/max", f"a track has at most {MAX_POSITIONS} positions"))
        for key, value in (("start", start), ("end", end)):
            if value is not None and not low <= value <= high:
                findings.append(Finding(f"{at}/{key}", f"{value} is off the track ({low}..{high})"))
        if len(points) > high - low + 1:
            message = f"{len(points)} points for {high - low + 1} positions ({low}..{high})"
            findings.append(Finding(f"{at}/points", message))
        tracks.append(Track(name, place, low, high, start, end, points))
    return tuple(tracks)


def with_starts(tracks: tuple[Track, ...], setup: Step) -> Step:
    """setup, after every player's marker is put at its track's start."""
    if not tracks:
        return setup
    starts = [track.start for track in tracks]

    def begin(state: DataState, seat: int, env: list[Any]) -> None:
        state.tracks = [starts[:] for _ in range(state.players)]
        setup(state, seat, env)

    return begin


def track_ends(tracks: tuple[Track, ...]) -> tuple[Compiled, ...]:
    """An end condition for each track with an `end`: any player's marker reached it."""
    ends: list[Compiled] = []
    for track in tracks:
        if track.ends_at is not None:
            place, goal = track.place, track.ends_at

            def reached(state: DataState, seat: int, env: list[Any], place: int = place,
                        goal: int = goal) -> bool:  # fmt: skip
                return any(marks[place] >= goal for marks in state.tracks)

            ends.append(reached)
    return tuple(ends)


def advance_step(
    compiler: StepCompiler, item: Mapping[str, Any], at: str, scope: Scope
) -> Step | None:
    """The `advance: TRACK` step (with `n:`), or None after a finding."""
    name = item["advance"]
    track = scope.tracks.get(name)
    if track is None:
        hint = did_you_mean(name, scope.tracks)
        message = f"{name!r} is not a track of these rules{hint}"
        compiler.findings.append(Finding(f"{at}/advance", message))
        return None
    count = None
    if "n" in item:
        count = compiler.expression(item["n"], scope, f"{at}/n", Kind.NUMBER)[0]
    place, low, high = track.place, track.low, track.high

    def advance(state: DataState, seat: int, env: list[Any]) -> None:
        marks = state.tracks[seat]
        moved = marks[place] + (1 if count is None else count(state, seat, env))
        marks[place] = low if moved < low else high if moved > high else moved

    return advance
