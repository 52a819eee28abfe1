"""Nearest valid names for a typo."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The closest choice to word, if any is close enough to be a likely typo."""
    matches = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for a near miss, else ''."""
    match = nearest(word, choices)
    return f" (did you mean {match!r}?)" if match else ""
