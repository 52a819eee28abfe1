"""Stonespine Architects' solo companion as the shared front ends read it.

`COMPANION` follows `protopress.companion.SoloCompanion`: the spec names it, so
`protopress solo stonespine-architects` (terminal and --web) reaches the
engine, saves and history below through it alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from protopress.companion import (
    FaceImages,
    Fact,
    FinalScore,
    LoggedStep,
    Said,
    SavedGame,
    SoloCompanion,
    SoloGame,
    SoloQuestion,
)
from protopress.components.catalog import Catalog
from protopress.games.stonespine_architects import solo_session
from protopress.games.stonespine_architects.rival import DIFFICULTIES
from protopress.games.stonespine_architects.solo import history, saves
from protopress.games.stonespine_architects.solo.book import EMPTY, YEARS, Book
from protopress.games.stonespine_architects.solo.engine import Engine, replayed, undone


def _engine(game: SoloGame) -> Engine:
    if not isinstance(game, Engine):
        raise TypeError(f"not a Stonespine Architects solo game: {game!r}")
    return game


class Table:
    """The companion's games on one catalog (its book read once)."""

    def __init__(self, catalog: Catalog):
        self.book = Book(catalog)

    def replayed(
        self, difficulty: str, seed: int, answers: Sequence[str], intro: Sequence[str]
    ) -> Engine:
        return replayed(self.book, difficulty, seed, answers, intro)

    def undone(self, game: SoloGame, count: int) -> Engine:
        return undone(_engine(game), count)

    def page_options(self, question: SoloQuestion, faces: FaceImages) -> dict[str, Any]:
        options = dict(question.options)
        if question.kind == "cards":
            kind = options["kind"]
            titles = {c.id: c.get("title", c.id) for c in self.book.catalog.of_kind(kind)}
            options["cards"] = [
                {"id": c, "title": titles.get(c, c), "img": faces.image(kind, c)}
                for c in options["cards"]
            ]
        elif question.kind == "market":
            book = self.book
            options["cards"] = sorted(
                (
                    {
                        "id": card["id"],
                        "title": book.market_title[card["id"]],
                        "rows": [
                            {
                                "cost": row["cost"],
                                # one choice of token kinds per token on the row
                                "slots": [
                                    [
                                        {"id": t, "label": book.token_label(t)}
                                        for t in book.kinds_of[element]
                                    ]
                                    for element in row["elements"]
                                ],
                            }
                            for row in card["rows"]
                        ],
                    }
                    for card in options["cards"]
                ),
                key=lambda card: card["title"],
            )
        elif question.kind == "tokens":
            options["tokens"] = [
                {"id": t, "label": "an empty pile", "img": None}
                if t == EMPTY
                else {
                    "id": t,
                    "label": self.book.token_label(t),
                    "img": faces.image("market-token", t),
                }
                for t in options["tokens"]
            ]
        return options

    def page_status(self, game: SoloGame) -> list[Fact]:
        engine = _engine(game)
        card = engine.rival.card
        if engine.complete:
            when, step = "Game over", ""
        elif engine.year == 0:
            when, step = "Setup", engine.where.removeprefix("setup: ")
        elif engine.where.startswith("final scoring"):
            when, step = "Final scoring", engine.where.removeprefix("final scoring: ")
        else:
            when, step = f"Year {engine.year} of {YEARS}", engine.where.split(", ", 1)[-1]
        facts = [Fact("Now", when)] + ([Fact("Step", step)] if step else [])
        facts.append(Fact("Your gold", str(engine.gold)))
        if card is not None:
            facts += [
                Fact("Rival's gold", str(card.gold)),
                Fact("Rival's reputation", str(engine.rival.reputation().total)),
            ]
        return facts

    def page_said(self, game: SoloGame) -> list[Said]:
        return list(_engine(game).spoken)

    def page_log(self, game: SoloGame) -> list[LoggedStep]:
        return list(_engine(game).log)

    def page_result(self, game: SoloGame) -> FinalScore | None:
        return _engine(game).final

    def page_rival(self, game: SoloGame, faces: FaceImages) -> dict[str, Any]:
        engine, book = _engine(game), self.book
        rival = engine.rival
        card = rival.card
        chambers = Counter(c.id for c in rival.chambers)
        tokens = Counter(t.id for t in rival.tokens)
        rep = rival.reputation() if card else None
        return {
            "deck": len(rival.deck),
            "card": None
            if card is None
            else {
                "title": card.title,
                "line": engine.card_line(card),
                "condition": engine.condition_text(card),
                "img": faces.image("rival-card", card.id),
            },
            "chambers": [
                {
                    "title": book.chamber_title[c],
                    "count": n,
                    "img": faces.image("chamber-card", c),
                }
                for c, n in chambers.items()
            ],
            "tokens": [{"label": book.token_label(t), "count": n} for t, n in tokens.items()],
            "chamber_stars": rep.chamber_stars if rep else 0,
            "token_stars": rep.token_stars if rep else 0,
            "reputation": None if rep is None else engine.reputation_sum(),
            "total": rep.total if rep else 0,
            "goal": None
            if engine.goal is None
            else f"{book.goal_title(engine.goal)}: {engine.goal_line()}",
            "gold": engine.gold,
        }


STRENGTH = (
    "how often a player beats the rival, measured with the game's bots "
    "(benchmarks/solo_rival.py, 95% intervals). Normal: the greedy bot, which looks "
    "one action ahead, wins 49.0% (42.2-55.9%, 200 games); the search bot (mcts:100) "
    "81.0% (72.2-87.5%, 100 games). Hard: greedy 28.5% (22.7-35.1%, 200 games); "
    "search 52.0% (42.3-61.5%, 100 games). So normal is an even game for a player "
    "who plays turn by turn, and hard is an even game for one who plans ahead."
)


class StonespineCompanion:
    """The rival of Stonespine Architects' solo mode, run for a player at the table."""

    difficulties: tuple[str, ...] = DIFFICULTIES
    strength: str = STRENGTH
    page: Path = Path(__file__).parent / "page"

    def default_save_path(self) -> Path:
        return saves.default_save_path()

    def run_session(
        self,
        catalog: Catalog,
        stdin: TextIO,
        stdout: TextIO,
        *,
        difficulty: str,
        seed: int | None,
        save_path: Path | None,
        resume_path: Path | None,
    ) -> int:
        return solo_session.run_session(
            catalog,
            stdin,
            stdout,
            difficulty=difficulty,
            seed=seed,
            save_path=save_path,
            resume_path=resume_path,
        )

    def table(self, catalog: Catalog) -> Table:
        return Table(catalog)

    def read_save(self, path: Path, catalog: Catalog) -> SavedGame:
        saved = saves.read_save(path, catalog)
        return SavedGame(saved["difficulty"], saved["seed"], tuple(saved["answers"]))

    def guard(self, path: Path) -> None:
        saves.guard(path)

    def write_save(self, path: Path, game: SoloGame) -> None:
        saves.write_save(path, _engine(game))

    def history_path(self, save_path: Path) -> Path:
        return history.history_path(save_path)

    def read_history(self, path: Path) -> list[dict]:
        return history.read_history(path)

    def record(self, path: Path, game: SoloGame) -> bool:
        return history.record(path, _engine(game))

    def history_csv(self, games: list[dict]) -> str:
        return history.history_csv(games)


COMPANION: SoloCompanion = StonespineCompanion()
