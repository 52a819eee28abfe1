"""DragonStone Mine's watches: a state's towers, or its piles of cards, in lists
that note whether anything reads them while frames run (`effects.apply_watching`,
`effects.apply_watching_cards`), so that the look-ahead can judge alike the
actions whose positions differ only in what nothing read (lookahead.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from protopress.games.dragonstone_mine.towers import Tower

if TYPE_CHECKING:  # a watch is put in a state: only annotations name it here
    from protopress.games.dragonstone_mine.effects import State


Question = Callable[[Tower, tuple[int, ...]], object]


class TowerWatch(list[Tower]):
    """A state's list of towers that notes whether anything reads one seat's tower,
    and the answers to the questions asked of it through `ask`."""

    __slots__ = ("seat", "read", "answers")

    def __init__(self, towers: list[Tower], seat: int):
        super().__init__(towers)
        self.seat, self.read = seat, False
        self.answers: list[tuple[Question, object]] = []

    def same_answers(self, tower: Tower, caps: tuple[int, ...]) -> bool:
        """Whether tower answers every question asked of the watched one alike
        (most often nothing was asked: the look-ahead skips the call then)."""
        return all(question(tower, caps) == answer for question, answer in self.answers)

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int) or index == self.seat or index == self.seat - len(self):
            self.read = True
        return list.__getitem__(self, index)

    def __iter__(self) -> Iterator[Tower]:
        self.read = True
        return list.__iter__(self)


def ask(state: State, seat: int, question: Question) -> Any:
    """question(seat's tower, capacities): how a frame looks at a tower, so that a
    watch notes the answer rather than a read."""
    towers = state.spires
    if type(towers) is TowerWatch and seat == towers.seat:
        answer = question(list.__getitem__(towers, seat), state.rules.capacities)
        towers.answers.append((question, answer))
        return answer
    return question(towers[seat], state.rules.capacities)


class PileWatch(list[str]):
    """A pile of cards that notes whether anything looks at which cards it holds;
    how many it holds, and putting cards on it, are no look."""

    __slots__ = ("seen",)

    def __init__(self, cards: list[str], seen: list[bool]):
        super().__init__(cards)
        self.seen = seen  # one flag shared by the piles watched together


def _looking(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def look(self: PileWatch, *args: Any) -> Any:
        self.seen[0] = True
        return method(self, *args)

    look.__name__ = name
    return look


for _name in (
    "__getitem__", "__iter__", "__reversed__", "__contains__", "__add__", "__mul__",
    "__rmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__repr__",
    "pop", "remove", "index", "count", "copy", "sort", "reverse",
):  # fmt: skip
    setattr(PileWatch, _name, _looking(_name))
