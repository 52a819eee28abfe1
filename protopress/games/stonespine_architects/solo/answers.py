"""The check of every kind of answer: the text as typed (or tapped) in, the value
out, or a Reject that says why not. Every front end goes through these."""

from __future__ import annotations

import re
import sys
from collections import Counter

from protopress.games.stonespine_architects.rival import Rival, RivalCard
from protopress.games.stonespine_architects.solo.book import (
    CHALLENGES_SHOWN,
    EMPTY,
    MARKET_CARDS,
    Book,
    Market,
    MarketRow,
)
from protopress.games.stonespine_architects.solo.errors import Reject
from protopress.games.stonespine_architects.solo.names import (
    listing,
    parse_int,
    parse_list,
    plural,
    tally,
)


def goal(book: Book, text: str) -> str:
    if not text.strip():
        raise Reject("Type the goal card's title or id.")
    found = book.goal_names.find(text)
    if found is None:
        raise book.goal_names.unknown(text.strip())
    return found


def chambers(book: Book, rival: Rival, text: str, left: int) -> list[str]:
    card = rival.face_up
    symbol = book.symbol(card.symbol)
    taken = parse_list(text, book.chamber_names)
    for chamber in taken:
        shows = book.chambers[chamber].symbol
        if shows != card.symbol:
            raise Reject(
                f"{book.chamber_title[chamber]} shows the {book.symbol(shows)}, not the "
                f"{symbol}: it is discarded, not given to the rival. Name only the cards "
                f"showing the {symbol}."
            )
    if len(taken) > left:
        raise Reject(
            f"You leave {left} {plural('card', left)} this turn, so at most {left} can go "
            f"to the rival; you named {len(taken)}."
        )
    held = Counter(c.id for c in rival.chambers)
    for chamber, n in Counter(taken).items():
        copies = book.chamber_copies[chamber]
        if held[chamber] + n > copies:
            raise Reject(
                f"The game has {copies} {book.chamber_title[chamber]} "
                f"{plural('card', copies)} and the rival already holds {held[chamber]}."
            )
    return taken


def gold_range(book: Book, year: int) -> tuple[int, int]:
    """The gold a player can have in a year: the starting bonus counts in year 1."""
    cap = book.scoring.gold_cap
    return (min(book.start_bonus, cap) if year == 1 else 0), cap


def gold(book: Book, text: str, year: int) -> int:
    """The year's gold, refused with the range the question shows."""
    low, high = gold_range(book, year)
    what = "gold" if year > 1 else "gold in year 1"
    if not re.fullmatch(r"\s*-?\d+\s*(?:gold)?\s*", text.lower()):
        raise Reject(f"Type gold as a whole number from {low} to {high}.")
    value = parse_int(text, -sys.maxsize, sys.maxsize, what)
    if value < low and low > 0:
        raise Reject(
            f"{what.capitalize()} runs from {low} to {high} (your starting bonus of "
            f"{book.start_bonus} included); {value} is not possible."
        )
    if not low <= value <= high:
        raise Reject(f"{what.capitalize()} runs from {low} to {high}; {value} is not possible.")
    return value


def choice(text: str) -> str:
    word = text.strip().lower()
    if word in ("b", "buy", "visit", "v"):
        return "buy"
    if word in ("p", "pass"):
        return "pass"
    raise Reject("Type buy or pass.")


def market(book: Book, rival: Rival, text: str) -> list[MarketRow]:
    """The market laid out: each card by name, then the tokens on its rows, top row
    first, rows split by "/" and cards by ";": "Goblin Fence: goblin / ogre, spike-pit /
    2 goblin, treasure-chest; ..."."""
    parts = [part for part in text.split(";") if part.strip()]
    if len(parts) != MARKET_CARDS:
        raise Reject(
            f"Name the {MARKET_CARDS} market cards, each with the tokens on its rows "
            f"(card: row / row / row; next card ...); you named {len(parts)}."
        )
    laid: list[MarketRow] = []
    for part in parts:
        name, colon, rest = part.partition(":")
        card = book.market_card_names.find(name)
        if card is None:
            raise book.market_card_names.unknown(name.strip())
        title = book.market_title[card]
        rows = book.market_rows[card]
        given = rest.split("/") if colon else []
        if len(given) != len(rows):
            raise Reject(
                f"{title} has {len(rows)} rows: name the tokens on each, top row first, "
                f"split by / (e.g. {title}: {' / '.join(book.elements(r) for _, r in rows)})."
            )
        for number, ((cost, elements), row_text) in enumerate(zip(rows, given, strict=True), 1):
            tokens = book.rival_tokens(row_text)
            if sorted(book.tokens[t].element for t in tokens) != sorted(elements):
                raise Reject(
                    f"Row {number} of {title} ({cost} gold) holds {book.elements(elements)}; "
                    f"you named {tally(book.token_name[t] for t in tokens) or 'none'}."
                )
            laid.append(MarketRow(card, number, cost, tuple(tokens)))
    for card, n in Counter(row.card for row in laid if row.row == 1).items():
        if n > book.market_copies[card]:
            copies = book.market_copies[card]
            raise Reject(
                f"The game has {copies} {book.market_title[card]} {plural('card', copies)}."
            )
    check_copies(book, rival, [t for row in laid for t in row.tokens])
    return laid


def market_text(book: Book, rows: list[MarketRow]) -> str:
    """The market as `market` reads it back (the page's answer, a default)."""
    cards: dict[str, list[str]] = {}
    for row in rows:
        cards.setdefault(row.card, []).append(", ".join(row.tokens))
    return "; ".join(f"{book.market_title[c]}: {' / '.join(r)}" for c, r in cards.items())


def tracked_purchase(book: Book, gold_now: int, market: list[MarketRow], text: str) -> MarketRow:
    """The row bought from the tracked market: its cost, then its tokens by name or
    element ("4 ogre spike-pit", "4 monster trap"); the row must still be there."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:gold\b)?\s*[:,]?\s*(.*)", text, re.S | re.I)
    if not match:
        raise Reject("Start with the row's cost, then its tokens: e.g. 4 ogre spike-pit.")
    cost = int(match.group(1))
    if cost > gold_now:
        raise Reject(f"That row costs {cost} gold and you have {gold_now}.")
    named = parse_list(match.group(2), book.market_names)
    if not named:
        raise Reject("Name the tokens of the row after its cost: e.g. 4 ogre spike-pit.")
    fits = {row.tokens: row for row in market if row.cost == cost and _names_row(book, named, row)}
    if not fits:
        raise Reject(
            f"No row on the market costs {cost} gold for "
            f"{listing([_named(book, m) for m in named])}: the market holds "
            f"{'; '.join(row_label(book, r) for r in market) or 'nothing'}."
        )
    if len(fits) > 1:
        raise Reject(
            "More than one row on the market fits: name its tokens, e.g. "
            + " or ".join(f"{r.cost} {' '.join(r.tokens)}" for r in fits.values())
            + "."
        )
    return next(iter(fits.values()))


def _named(book: Book, named: Market) -> str:
    """A token or element as named, in words ("spike pit", "monster")."""
    if named.kind == "token":
        return book.token_name[named.id].lower()
    return book.element(named.id)


def _names_row(book: Book, named: list[Market], row: MarketRow) -> bool:
    """Whether the tokens and elements named are exactly the row's tokens."""
    left = Counter(row.tokens)
    elements = Counter(m.id for m in named if m.kind == "element")
    for m in named:
        if m.kind == "token":
            if not left[m.id]:
                return False
            left[m.id] -= 1
    return Counter(book.tokens[t].element for t in left.elements()) == elements


def row_label(book: Book, row: MarketRow) -> str:
    """A row on the table in words: "Goblin Fence, 4 gold: Ogre, Spike Pit"."""
    return f"{book.market_title[row.card]}, {row.cost} gold: {tally(book.token_name[t] for t in row.tokens)}"


def collected(book: Book, rival: Rival, text: str, card: RivalCard) -> list[str]:
    drawn = book.rival_tokens(text, specials=(EMPTY,))
    tokens = [t for t in drawn if t != EMPTY]
    wanted = Counter(card.tokens)
    got = Counter(book.tokens[t].element for t in tokens)
    extra = got - wanted
    absent = [e for e in extra.elements() if e not in wanted]
    if absent:
        raise Reject(
            f"The rival collects {book.elements(card.tokens)}; "
            f"{book.elements(absent)} is not on its card."
        )
    for element in extra:
        n = wanted[element]
        raise Reject(
            f"The rival collects {n} {book.element(element)} {plural('token', n)} "
            f"({book.elements(card.tokens)}); you named {got[element]}."
        )
    if len(drawn) != len(card.tokens):
        raise Reject(
            f"The rival collects {len(card.tokens)} tokens ({book.elements(card.tokens)}); "
            f"name each one (empty for a pile that has run out)."
        )
    check_copies(book, rival, tokens)
    return tokens


def challenges(book: Book, text: str) -> list[str]:
    shown = parse_list(text, book.challenge_names)
    if not shown:
        raise Reject("Name the face-up challenge cards, left to right.")
    if len(shown) > CHALLENGES_SHOWN:
        raise Reject(
            f"A solo game shows {CHALLENGES_SHOWN} challenge cards; you named {len(shown)}."
        )
    for challenge, n in Counter(shown).items():
        if n > book.challenge_copies[challenge]:
            copies = book.challenge_copies[challenge]
            raise Reject(
                f"The game has {copies} {book.challenge_title[challenge]} {plural('card', copies)}."
            )
    if len(shown) < CHALLENGES_SHOWN:
        raise Reject(
            f"A solo game shows {CHALLENGES_SHOWN} challenge cards face up: name all "
            f"{CHALLENGES_SHOWN}, left to right; you named {len(shown)}."
        )
    return shown


def leftovers(book: Book, rival: Rival, text: str) -> list[str]:
    tokens = book.rival_tokens(text)
    most = book.max_market_tokens
    if len(tokens) > most:
        raise Reject(f"The market holds at most {most} tokens; you named {len(tokens)}.")
    check_copies(book, rival, tokens)
    return tokens


def check_copies(book: Book, rival: Rival, tokens: list[str]) -> None:
    held = Counter(t.id for t in rival.tokens)
    for token, n in Counter(tokens).items():
        copies = book.token_copies[token]
        if held[token] + n > copies:
            raise Reject(
                f"The game has {copies} {token} tokens and the rival already holds {held[token]}."
            )


def row_bounds(book: Book) -> tuple[tuple[str, int, int], ...]:
    """The player's four other score pad rows, each with its lowest and highest value."""
    return (
        ("challenge cards", 0, book.max_challenges),
        ("chamber reputation", book.min_reputation, book.max_reputation),
        ("blueprint", 0, max(book.blueprint_values)),
        ("dungeon paths", 0, book.max_paths),
    )


def rows(book: Book, text: str) -> tuple[int, ...]:
    numbers = re.split(r"[\s,;]+", text.strip())
    if not all(re.fullmatch(r"-?\d+", n) for n in numbers) or len(numbers) not in (1, 4):
        raise Reject(
            "Type four whole numbers (challenge cards, chamber reputation, blueprint, "
            "dungeon paths), or one number, their sum."
        )
    values = tuple(int(n) for n in numbers)
    bounds = row_bounds(book)
    if len(values) == 1:
        low = sum(b[1] for b in bounds)
        high = sum(b[2] for b in bounds)
        if not low <= values[0] <= high:
            raise Reject(f"Those four rows add up to between {low} and {high}.")
        return values
    for value, (what, low, high) in zip(values, bounds, strict=True):
        if not low <= value <= high:
            raise Reject(f"{what.capitalize()} runs from {low} to {high}; {value} is not possible.")
    if values[2] not in book.blueprint_values:
        shown = ", ".join(map(str, book.blueprint_values))
        raise Reject(f"The blueprint scores {shown}; {values[2]} is not on the scale.")
    return values
