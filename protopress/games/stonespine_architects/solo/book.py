"""The catalog as a solo session reads it: cards, tokens, elements, the bounds
of every answer, and how each is shown."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from protopress.components.catalog import Catalog
from protopress.games.stonespine_architects.dungeon import MAX_ELEMENTS, SIZE
from protopress.games.stonespine_architects.rival import rival_cards
from protopress.games.stonespine_architects.scoring import ChamberCard, Scoring, Token
from protopress.games.stonespine_architects.solo.errors import Reject, SessionError
from protopress.games.stonespine_architects.solo.names import Names, listing, parse_list, plural

YEARS = 4
TURNS = SIZE  # construction turns a year: one per position of the row
HAND = 5  # chamber cards dealt at the start of each year
LEFT = (3, 2, 1, 1)  # cards left to the rival on each turn (hands of 5, 4, 3, 2)
CHALLENGE_YEARS = 3  # challenge cards are face up in years 1-3
SOLO_TABLE = 2  # solo lays out the market and challenges of a two-player game
MARKET_CARDS = 3  # market cards laid out in a solo game
CHALLENGES_SHOWN = SOLO_TABLE + 1  # challenge cards flipped in a solo game
CELLS = SIZE * SIZE
EMPTY = "empty"  # stands for a token a run-out supply pile could not give


@dataclass(frozen=True)
class MarketRow:
    """A row of a market card on the table: its cost and the tokens lying on it."""

    card: str  # the market card's id
    row: int  # 1 for the card's top row
    cost: int
    tokens: tuple[str, ...]  # token ids, as laid out


@dataclass(frozen=True)
class Market:
    """A market token or element the player names: an element may stand for its
    only token kind; a token's stars count for the rival."""

    kind: str  # "token" or "element"
    id: str


class Book:
    """Lookups into the catalog: cards, tokens, elements and the checks' bounds."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.scoring = Scoring.of(catalog)
        self.rival_cards = rival_cards(catalog)
        if not self.rival_cards:
            raise SessionError(f"{catalog.path}: the catalog has no rival cards for a solo game")
        chambers = catalog.of_kind("chamber-card")
        if not chambers:
            raise SessionError(f"{catalog.path}: the catalog has no chamber cards")
        self.chambers = {c.id: ChamberCard.of(c) for c in chambers}
        self.chamber_title = {c.id: c.get("title", c.id) for c in chambers}
        self.chamber_copies = {c.id: c.count for c in chambers}
        self.chamber_names = Names(
            "chamber card", ((c.id, c.get("title", c.id), c.id) for c in chambers)
        )
        self.symbol_name = {s.id: s.get("name", s.id) for s in catalog.of_kind("symbol")}
        self.element_name = {e.id: e.get("name", e.id) for e in catalog.of_kind("element")}
        tokens = catalog.of_kind("market-token")
        self.tokens = {t.id: Token.of(t) for t in tokens}
        self.token_copies = {t.id: t.count for t in tokens}
        self.token_name = {t.id: t.get("name", t.id) for t in tokens}
        self.kinds_of: dict[str, list[str]] = {}  # element -> its token ids
        for token in self.tokens.values():
            self.kinds_of.setdefault(token.element, []).append(token.id)
        self.market_names = Names(
            "market token or element",
            [(t.id, t.get("name", t.id), Market("token", t.id)) for t in tokens]
            + [(e, self.element_name.get(e, e), Market("element", e)) for e in self.kinds_of],
        )
        self.goals = {g.id: g for g in catalog.of_kind("goal-card")}
        if not self.goals:
            raise SessionError(f"{catalog.path}: the catalog has no goal cards")
        self.goal_names = Names(
            "goal card", ((g.id, g.get("title", g.id), g.id) for g in self.goals.values())
        )
        challenges = catalog.of_kind("challenge-card")
        self.challenge_points = {c.id: c["points"] for c in challenges}
        self.challenge_title = {c.id: c.get("title", c.id) for c in challenges}
        self.challenge_copies = {c.id: c.count for c in challenges}
        self.challenge_names = Names(
            "challenge card", ((c.id, c.get("title", c.id), c.id) for c in challenges)
        )
        markets = [
            m for m in catalog.of_kind("market-card") if m.get("min_players", 1) <= SOLO_TABLE
        ]
        # the market cards a solo game lays out: each row's cost and elements
        self.market_rows = {
            m.id: tuple((row["cost"], tuple(row["tokens"])) for row in m["rows"]) for m in markets
        }
        self.market_title = {m.id: m.get("title", m.id) for m in markets}
        self.market_copies = {m.id: m.count for m in markets}
        self.market_card_names = Names(
            "market card", ((m.id, m.get("title", m.id), m.id) for m in markets)
        )
        per_card = sorted((sum(len(r["tokens"]) for r in m["rows"]) for m in markets), reverse=True)
        self.max_market_tokens = sum(per_card[:MARKET_CARDS])
        self.start_bonus = self.scoring.starting_gold[0] if self.scoring.starting_gold else 0
        # bounds of the player's score pad rows (impossible answers are refused)
        points = sorted(
            (
                p
                for cid, p in self.challenge_points.items()
                for _ in range(self.challenge_copies[cid])
            ),
            reverse=True,
        )
        self.max_challenges = sum(points[:CHALLENGE_YEARS])
        card_stars = [c.stars for c in self.chambers.values()] or [0]
        token_stars = [t.stars for t in self.tokens.values()] or [0]
        self.min_reputation = CELLS * min(0, min(card_stars))
        self.max_reputation = CELLS * (
            max(0, max(card_stars)) + MAX_ELEMENTS * max(0, max(token_stars))
        )
        self.blueprint_values = sorted({0, *self.scoring.blueprint_scale.values()})
        self.max_paths = 2 * CELLS * self.scoring.path_per_chamber
        self.max_goal_count = CELLS * MAX_ELEMENTS

    # display

    def symbol(self, symbol: str) -> str:
        return self.symbol_name.get(symbol, symbol)

    def element(self, element: str) -> str:
        return self.element_name.get(element, element).lower()

    def elements(self, elements: Iterable[str]) -> str:
        return listing([self.element(e) for e in elements])

    def token(self, token_id: str) -> str:
        stars = self.tokens[token_id].stars
        return f"{token_id} ({stars} {plural('star', stars)})" if stars else token_id

    def token_label(self, token_id: str) -> str:
        """The token by its name, for the page ("Spike Pit (1 star)")."""
        stars = self.tokens[token_id].stars
        name = self.token_name[token_id]
        return f"{name} ({stars} {plural('star', stars)})" if stars else name

    def token_choices(self, element: str) -> str:
        return ", ".join(self.token(t) for t in self.kinds_of.get(element, ()))

    def goal_title(self, goal_id: str) -> str:
        return self.goals[goal_id].get("title", goal_id)

    def goal_elements(self, goal_id: str) -> tuple[str, ...]:
        return tuple(self.goals[goal_id]["elements"])

    def goal_things(self, goal_id: str) -> str:
        return listing([self.element(e) + "s" for e in self.goal_elements(goal_id)])

    # parsing tokens

    def rival_tokens(self, text: str, specials: Iterable[str] = ()) -> list[str]:
        """Token ids (or `specials`); an element with a single token kind stands for it."""
        result = []
        for item in parse_list(text, self.market_names, specials):
            if isinstance(item, str):
                result.append(item)
            elif item.kind == "token":
                result.append(item.id)
            elif len(self.kinds_of[item.id]) == 1:
                result.append(self.kinds_of[item.id][0])
            else:
                raise Reject(
                    f"{self.element(item.id).capitalize()} tokens differ in stars, and the "
                    f"rival counts them: name the token: {self.token_choices(item.id)}."
                )
        return result
