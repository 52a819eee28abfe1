"""Answers as the player types them: names (by id or title, with a suggestion for
a typo), counted lists of names, whole numbers, and the words to show them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from protopress.components.suggest import nearest
from protopress.games.stonespine_architects.solo.errors import Reject

NONE_WORDS = ("", "none", "nothing", "no", "-", "0")


def name_key(text: str) -> str:
    """A name as typed, an id or a title, reduced to id form: "Hermit's Cell" -> hermits-cell."""
    text = text.lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


class Names:
    """Ids and titles of one kind of thing, found by either, with a suggestion for typos."""

    def __init__(self, what: str, entries: Iterable[tuple[str, str, Any]]):
        self.what = what
        self.keys: dict[str, Any] = {}
        self.shown: dict[str, str] = {}  # key -> id, for suggestions
        for ident, title, value in entries:
            for key in (name_key(ident), name_key(title)):
                if key and key not in self.keys:
                    self.keys[key] = value
                    self.shown[key] = ident

    def find(self, phrase: str) -> Any:
        return self.keys.get(name_key(phrase))

    def unknown(self, phrase: str) -> Reject:
        match = nearest(name_key(phrase), self.keys)
        hint = f" (did you mean {self.shown[match]}?)" if match else ""
        return Reject(f"I do not know the {self.what} {phrase!r}{hint}.")


_COUNT_BEFORE = re.compile(r"(\d+)[x\u00d7*]?")
_COUNT_AFTER = re.compile(r"[x\u00d7*](\d+)")


def parse_list(text: str, names: Names, specials: Iterable[str] = ()) -> list:
    """Names separated by commas or spaces, each optionally counted: "2 goblin, ogre",
    "goblin x2", "Hermit's Cell". Multi-word titles are matched longest first."""
    if text.strip().lower() in NONE_WORDS:
        return []
    specials = set(specials)
    found: list = []
    for piece in re.split(r"[,;+]", text):
        words = piece.split()
        count, last, i = None, None, 0
        counted, named = 0, ""  # the last name: the count before it (0: none), as typed
        while i < len(words):
            word = words[i].lower()
            before, after = _COUNT_BEFORE.fullmatch(word), _COUNT_AFTER.fullmatch(word)
            if before or after:
                match = before or after
                assert match is not None  # one of the two matched
                number = int(match.group(1))
                if number < 1:
                    raise Reject(f"{words[i]!r}: a count is 1 or more.")
                if before:
                    count = number
                elif last is None:
                    raise Reject(f"{words[i]!r}: put the count next to a name, like goblin x2.")
                elif counted:
                    raise Reject(
                        f"{words[i]!r}: {named} is already counted; give one count, "
                        f"like {counted} {named} or {named} x{number}."
                    )
                else:
                    found.extend([last] * (number - 1))
                    counted = number
                i += 1
                continue
            if word in specials:
                value, j = word, i + 1
            else:
                for j in range(len(words), i, -1):
                    value = names.find(" ".join(words[i:j]))
                    if value is not None:
                        break
                else:
                    raise names.unknown(" ".join(words[i:]))
            found.extend([value] * (count or 1))
            counted, named = count or 0, " ".join(words[i:j])
            count, last, i = None, value, j
        if count is not None:
            raise Reject(f"a count needs a name after it: {piece.strip()!r}.")
    return found


def parse_int(text: str, low: int, high: int, what: str) -> int:
    match = re.fullmatch(r"\s*(-?\d+)\s*(?:gold)?\s*", text.lower())
    if not match:
        raise Reject(f"Type {what} as a whole number from {low} to {high}.")
    value = int(match.group(1))
    if not low <= value <= high:
        raise Reject(f"{what.capitalize()} runs from {low} to {high}; {value} is not possible.")
    return value


def plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


def listing(items: list[str]) -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def tally(labels: Iterable[str]) -> str:
    """ "2 goblin, ogre": repeated names counted, in first-seen order."""
    counts = Counter(labels)
    return ", ".join(f"{n} {label}" if n > 1 else label for label, n in counts.items())
