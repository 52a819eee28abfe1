"""The steps of a solo game of Stonespine Architects at the table.

The rival is `rival.Rival`, driven in the same order as the virtual solo game:

    setup        the face-up goal card; the market laid out (its cards and tokens)
    each year    the rival reveals its card (the deck is shuffled from the seed)
      4 turns    the chamber cards left to the rival that show its symbol
      gold       the player's gold for the year
      market     while the gold beats the rival card: buy (a row of the market) or pass
                 otherwise the rival collects: the tokens drawn for it, then the
                 face-up challenges (years 1-3) to name the one to discard
      pass       the tokens left on the market (the rival takes them): the market
                 tracked since it was laid out, confirmed or corrected
      cleanup    years 1-3: the new market laid out
    the end      final gold, goal elements, the other score pad rows; the result

`Engine.question` is what is asked now (None once the game is over);
`Engine.answer(text)` checks the text (Reject says why not), records it and
goes on to the next question. What the engine says for the table is kept in
`said` (since the last answer) and passed to `listener`. `replayed` builds an
engine from recorded answers: resuming and undo both go through it, so the
rival ends up exactly where it was.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from protopress.companion import FinalScore, LoggedStep, Said, ScoreLine
from protopress.games.stonespine_architects.rival import (
    COLLECT,
    VISIT,
    Rival,
    RivalCard,
    gold_after_pass,
    lowest_challenge,
    solo_outcome,
)
from protopress.games.stonespine_architects.scoring import (
    rank_points,
    solo_goal_place,
    solo_gold_place,
)
from protopress.games.stonespine_architects.solo import answers
from protopress.games.stonespine_architects.solo.book import (
    CHALLENGE_YEARS,
    CHALLENGES_SHOWN,
    EMPTY,
    HAND,
    LEFT,
    MARKET_CARDS,
    TURNS,
    YEARS,
    Book,
    MarketRow,
)
from protopress.games.stonespine_architects.solo.errors import Reject, SessionError
from protopress.games.stonespine_architects.solo.names import parse_int, plural, tally
from protopress.games.stonespine_architects.solo.rules_text import HELP


@dataclass(frozen=True)
class Question:
    where: str  # the step, for status, resume and error messages
    prompt: str
    help: str
    parse: Callable[[str], Any]  # raises Reject
    default: str | None = None  # shown in brackets; an empty answer takes it
    kind: str = "text"  # what the answer is, for a front end that offers taps
    options: Mapping[str, Any] = field(default_factory=dict)  # JSON: what can be tapped


@dataclass(frozen=True)
class Result:
    """The end of a game: both totals and who won (a tie goes to the rival)."""

    player: int
    rival: int
    won: bool
    margin: int


Steps = Generator[Question, Any, None]


class Engine:
    """One solo game: the rival, the player's reported gold and the answers so far."""

    def __init__(
        self,
        book: Book,
        difficulty: str,
        seed: int,
        intro: Sequence[str] = (),
        listener: Callable[[str], None] | None = None,
    ):
        self.book = book
        self.difficulty, self.seed = difficulty, seed
        self.intro = tuple(intro)
        self.listener = listener
        self.rival = Rival.shuffled(book.catalog, difficulty, random.Random(seed))
        self.answers: list[str] = []
        self.said: list[str] = []  # said since the last answer
        self.spoken: list[Said] = []  # the same, each marked a move or a table step
        self.where = "setup"  # the step asked now
        self.last_step: str | None = None  # the step last answered
        self.goal: str | None = None
        self.gold = 0  # the player's gold as reported
        self.result: Result | None = None
        self.result_text: list[str] = []
        self.question: Question | None = None
        self.year = 0  # the year in play (0 at setup)
        self.final: FinalScore | None = None
        self.market: list[MarketRow] = []  # the rows on the table, as laid out less those bought
        self._steps = self._play()
        self._advance(None)
        self.log: list[LoggedStep] = [LoggedStep("", "", tuple(self.said))]

    @property
    def complete(self) -> bool:
        return self.question is None

    def say(self, text: str = "", *, move: bool = True) -> None:
        """Say what the rival did or what the companion decided (move), or, with
        move=False, what to do at the table; a page shows the moves first."""
        self.said.append(text)
        self.spoken.append(Said(text, move))
        if self.listener is not None:
            self.listener(text)

    def tell(self, text: str) -> None:
        """Say what the player does at the table."""
        self.say(text, move=False)

    def answer(self, text: str) -> None:
        """Check and record the answer; Reject (nothing changes) if it is impossible."""
        question = self.question
        if question is None:
            raise Reject("The game is over.")
        value = question.parse(self.with_default(text, question))
        self.answers.append(text)
        self.last_step = question.where
        self.said, self.spoken = [], []
        self._advance(value)
        self.log.append(LoggedStep(question.where, self.words(question, value), tuple(self.said)))

    def words(self, question: Question, value: Any) -> str:
        """An accepted answer in words, by the names on the cards and tokens."""
        book = self.book
        if question.kind == "cards":
            titles = {
                "goal-card": book.goal_title,
                "challenge-card": book.challenge_title.__getitem__,
            }.get(question.options["kind"], book.chamber_title.__getitem__)
            picked = [value] if isinstance(value, str) else list(value)
            if question.options.get("ordered"):
                return ", ".join(titles(c) for c in picked)
            return tally(titles(c) for c in picked) or "none"
        if question.kind == "tokens":
            return tally(book.token_name.get(t, "an empty pile") for t in value) or "none"
        if question.kind == "purchase":
            return answers.row_label(book, value)
        if question.kind == "market":  # its cards and a count: the rows are in status
            tokens = sum(len(row.tokens) for row in value)
            cards = tally(book.market_title[row.card] for row in value if row.row == 1)
            return f"{cards} ({tokens} {plural('token', tokens)})"
        if question.kind == "numbers":
            return " + ".join(map(str, value)) + (f" = {sum(value)}" if len(value) > 1 else "")
        return str(value)

    @staticmethod
    def with_default(text: str, question: Question) -> str:
        return question.default if text == "" and question.default is not None else text

    def _advance(self, value: object) -> None:
        try:
            self.question = self._steps.send(value)
        except StopIteration:
            self.question = None
        else:
            self.where = self.question.where

    # what the rival holds

    def status(self) -> str:
        book, rival = self.book, self.rival
        card = rival.card
        if card is None:
            return (
                f"Rival ({self.difficulty}): no card revealed yet; {len(rival.deck)} "
                f"cards face down, shuffled from seed {self.seed}. Now: {self.where}."
            )
        rep = rival.reputation()
        chambers, tokens = rival.chambers, rival.tokens
        lines = [
            f"Now: {self.where}. Rival ({self.difficulty}), year {rival.year}: "
            f"{self.card_line(card)}",
            f"  Chamber pile ({len(chambers)}): "
            + (tally(book.chamber_title[c.id] for c in chambers) or "empty")
            + f"; {rep.chamber_stars} {plural('star', rep.chamber_stars)}",
            f"  Token pile ({len(tokens)}): "
            + (tally(t.id for t in tokens) or "empty")
            + f"; {rep.token_stars} {plural('star', rep.token_stars)}",
            f"  Reputation if the game ended now: {self.reputation_sum()}",
        ]
        if self.market:
            lines.append(
                "  Market: " + "; ".join(answers.row_label(book, row) for row in self.market)
            )
        if self.goal is not None:
            lines.append(f"  Goal {book.goal_title(self.goal_id())}: {self.goal_line()}")
        lines.append(f"  Your gold: {self.gold}")
        return "\n".join(lines)

    def goal_id(self) -> str:
        """The goal card named at setup (every step after setup has one)."""
        if self.goal is None:
            raise ValueError("no goal card is named yet")
        return self.goal

    def goal_line(self) -> str:
        count = self.rival.goal_count(self.book.goal_elements(self.goal_id()))
        return f"{count} {self.book.goal_things(self.goal_id())} in its piles"

    def card_line(self, card: RivalCard) -> str:
        return (
            f"{card.title} ({card.difficulty} card): symbol {self.book.symbol(card.symbol)}, "
            f"gold {card.gold}, collects {self.book.elements(card.tokens)}"
        )

    def condition_text(self, card: RivalCard) -> str:
        if card.counts == "chambers":
            return f"{card.points} per chamber card"
        if card.element is None:
            raise ValueError(f"rival card {card.id} counts tokens but names no element")
        return f"{card.points} per {self.book.element(card.element)} token"

    def reputation_sum(self) -> str:
        rep = self.rival.reputation()
        return (
            f"base {rep.base} + condition {rep.condition} + chamber stars "
            f"{rep.chamber_stars} + token stars {rep.token_stars} = {rep.total}"
        )

    def took(self, who: str, tokens: list[str]) -> str:
        stars = sum(self.book.tokens[t].stars for t in tokens)
        if not tokens:
            return f"{who} nothing: the piles are empty."
        names = tally(self.book.token_name[t] for t in tokens)
        return f"{who} {names} ({stars} {plural('star', stars)})."

    # the steps

    def _play(self) -> Steps:
        book = self.book
        self.tell(
            f"Stonespine Architects, solo against the rival ({self.difficulty}, seed {self.seed})."
        )
        for line in self.intro:
            self.tell(line)
        self.say()
        self.tell(
            "Setup: use the 1-player side of the tracking board; there is no priority track. "
            "Leave the rival cards aside: I have shuffled the rival's deck, and each year "
            "I tell you which one to turn face up. Flip 3 challenge cards, lay out 3 market "
            "cards with their tokens, take a blueprint, place your entrance doorway on "
            "the frame as your blueprint shows and deal yourself 5 chamber cards. "
            f"Your starting bonus is {book.start_bonus} gold."
        )
        self.goal = yield Question(
            "setup: the goal card",
            "Which goal card is face up?",
            HELP["goal"],
            lambda text: answers.goal(book, text),
            kind="cards",
            options={"kind": "goal-card", "cards": list(book.goals), "most": 1},
        )
        self.say(
            f"Goal: {book.goal_title(self.goal_id())} ({book.goal_things(self.goal_id())}). "
            f"The rival's piles count {self.rival.goal_count(book.goal_elements(self.goal_id()))} so far."
        )
        yield from self._market_laid("setup: the market")
        for year in range(1, YEARS + 1):
            yield from self._year(year)
        yield from self._final_scoring()

    def _year(self, year: int) -> Steps:
        book = self.book
        self.year = year
        card = self.rival.begin_year()
        symbol = book.symbol(card.symbol)
        self.say()
        self.say(f"== Year {year} of {YEARS} ==")
        self.say(f"The rival reveals {self.card_line(card)}.")
        self.tell(
            f"Turn {card.title} face up. Its reputation, if it is the last card: base "
            f"{card.base} + {self.condition_text(card)} in its pile."
        )
        if year > 1:
            self.tell(f"Deal yourself {HAND} chamber cards.")
        self.tell(
            f"Construction: each turn place one card in your row and keep one in hand; of "
            f"the cards you leave, those showing the {symbol} go to the rival, the others "
            f"are discarded."
        )
        showing = [c for c, chamber in book.chambers.items() if chamber.symbol == card.symbol]
        for turn in range(1, TURNS + 1):
            left = LEFT[turn - 1]
            if turn == TURNS:
                prompt = "place one of your last two cards. Does the other show the"
            elif left == 1:
                prompt = "does the card you leave show the"
            else:
                prompt = f"which of the {left} cards you leave show the"
            taken = yield Question(
                f"year {year}, construction turn {turn}",
                f"Turn {turn} of {TURNS}: {prompt} {symbol}?",
                HELP["chambers"],
                functools.partial(answers.chambers, book, self.rival, left=left),
                default="none",
                kind="cards",
                options={"kind": "chamber-card", "cards": showing, "most": left, "repeat": True},
            )
            self.rival.offer_chambers(book.chambers[c] for c in taken)
            if taken:
                stars = sum(book.chambers[c].stars for c in taken)
                got = (
                    f"The rival takes {tally(book.chamber_title[c] for c in taken)} "
                    f"({stars} {plural('star', stars)})"
                )
            else:
                got = "Nothing for the rival"
            rest = left - len(taken)
            after = f"; discard the other {rest}" if rest > 1 else "; discard the other card"
            after = after if rest else ""
            draw = TURNS - turn
            if draw:
                self.say(f"{got}{after}. Draw {draw} {plural('card', draw)}.")
            else:
                self.say(f"{got}{after}. Your row is full.")
        yield from self._improvement(year, card)

    def _improvement(self, year: int, card: RivalCard) -> Steps:
        book = self.book
        cap = book.scoring.gold_cap
        bonus = f", plus your starting bonus of {book.start_bonus}" if year == 1 else ""
        self.say()
        self.tell(
            f"Improvement: count your gold (the gold on this year's row, plus 1 per treasure "
            f"chest in your dungeon{bonus}; {cap} at most) and set your gold tracker."
        )
        low, high = answers.gold_range(book, year)
        self.gold = yield Question(
            f"year {year}, counting gold",
            f"Your gold for year {year} ({low}-{high})?",
            HELP["gold"].format(bonus=book.start_bonus, cap=cap),
            lambda text: answers.gold(book, text, year),
            kind="number",
            options={"low": low, "high": high},
        )
        while True:
            verdict = self.rival.market_verdict(self.gold)
            if verdict == VISIT:
                self.say(
                    f"{self.gold} gold is more than the rival's {card.gold}: visit the market or pass."
                )
                choice = yield Question(
                    f"year {year}, the market",
                    "Buy a row or pass? (buy/pass)",
                    HELP["market"],
                    answers.choice,
                    kind="choice",
                    options={"choices": ["buy", "pass"]},
                )
                if choice == "pass":
                    break
                gold, market = self.gold, list(self.market)
                bought: MarketRow = yield Question(
                    f"year {year}, a purchase",
                    "Which row did you buy? Its cost and its tokens (e.g. 4 ogre spike-pit)",
                    HELP["bought"],
                    functools.partial(answers.tracked_purchase, book, gold, market),
                    kind="purchase",
                    options={
                        "rows": [
                            {
                                "cost": row.cost,
                                "tokens": list(row.tokens),
                                "label": answers.row_label(book, row),
                            }
                            for row in market
                            if row.cost <= gold
                        ]
                    },
                )
                self.market.remove(bought)
                self.gold -= bought.cost
                self.say(
                    f"Place {tally(book.token_name[t] for t in bought.tokens)} in your dungeon "
                    f"now. You have {self.gold} gold left."
                )
                continue
            if verdict == COLLECT:
                yield from self._collect(year, card)
            break
        yield from self._market_pass(year)

    def _collect(self, year: int, card: RivalCard) -> Steps:
        book = self.book
        self.say(
            f"{self.gold} gold is not more than the rival's {card.gold}: the rival "
            f"collects. Draw {book.elements(card.tokens)} from the supply piles "
            f"into its pile."
        )
        choices = "; ".join(
            f"{book.element(e)}: {book.token_choices(e)}" for e in dict.fromkeys(card.tokens)
        )
        drawn = yield Question(
            f"year {year}, the rival collects",
            "Which tokens did you draw for the rival?",
            HELP["collect"].format(choices=choices),
            lambda text: answers.collected(book, self.rival, text, card),
            kind="tokens",
            options={
                "tokens": [t for e in dict.fromkeys(card.tokens) for t in book.kinds_of.get(e, ())]
                + [EMPTY],
                "exactly": len(card.tokens),
            },
        )
        self.rival.collect(book.tokens[t] for t in drawn)
        self.say(self.took("The rival takes", drawn))
        if year <= CHALLENGE_YEARS:
            shown = yield Question(
                f"year {year}, discarding a challenge",
                "Which challenge cards are face up, left to right?",
                HELP["challenges"],
                lambda text: answers.challenges(book, text),
                kind="cards",
                options={
                    "kind": "challenge-card",
                    "cards": list(book.challenge_points),
                    "most": CHALLENGES_SHOWN,
                    "ordered": True,
                },
            )
            discard = shown[lowest_challenge([book.challenge_points[c] for c in shown])]
            self.say(
                f"Discard {book.challenge_title[discard]} "
                f"({book.challenge_points[discard]} points), the lowest."
            )
        self.say("You must pass now.")

    def _market_pass(self, year: int) -> Steps:
        book = self.book
        kept = gold_after_pass(year, self.gold)
        if year <= CHALLENGE_YEARS:
            self.tell(
                "You pass: set your gold tracker to 0 and claim one of the face-up challenge "
                "cards. The rival takes every token left on the market."
            )
        else:
            self.tell(
                f"You pass: leave your gold tracker at {kept} and flip it. The rival takes "
                f"every token left on the market."
            )
        choices = ", ".join(book.token(t) for t in book.tokens)
        left = [t for row in self.market for t in row.tokens]
        leftovers = yield Question(
            f"year {year}, passing",
            "Which tokens are left on the market? Enter if they are the ones I tracked",
            HELP["leftovers"].format(choices=choices),
            lambda text: answers.leftovers(book, self.rival, text),
            default=counted(left) or "none",
            kind="tokens",
            options={
                "tokens": list(book.tokens),
                "most": book.max_market_tokens,
                "tracked": tally(book.token_name[t] for t in left) or "none",
            },
        )
        self.market = []
        self.rival.take_market(book.tokens[t] for t in leftovers)
        self.gold = kept
        self.say(
            self.took("The rival takes", leftovers)
            if leftovers
            else "The market is empty: nothing for the rival."
        )
        rival = self.rival
        self.say(
            f"Rival: {len(rival.chambers)} chamber {plural('card', len(rival.chambers))}, "
            f"{len(rival.tokens)} {plural('token', len(rival.tokens))}, reputation "
            f"{rival.reputation().total} so far."
        )
        if year < YEARS:
            challenges = (
                f" Discard the unclaimed challenges and flip {CHALLENGES_SHOWN} new ones."
                if year < CHALLENGE_YEARS
                else " Discard the unclaimed challenges: year 4 has none."
            )
            self.tell(
                f"Cleanup: keep the rival's chamber cards and tokens aside, apart from the "
                f"supply; discard the market cards and lay out {MARKET_CARDS} new market "
                f"cards with tokens.{challenges}"
            )
            yield from self._market_laid(f"year {year}, the new market")

    def _market_laid(self, where: str) -> Steps:
        """Ask once which market cards are laid out and which tokens lie on their rows:
        purchases then take rows of it, and passing knows what is left."""
        book = self.book
        self.market = yield Question(
            where,
            f"Which {MARKET_CARDS} market cards are out, and which tokens lie on their rows? "
            "(card: top row / middle row / bottom row; next card ...)",
            HELP["market_laid"],
            lambda text: answers.market(book, self.rival, text),
            kind="market",
            options={
                "cards": [
                    {
                        "id": card,
                        "rows": [
                            {"cost": cost, "elements": list(elements)} for cost, elements in rows
                        ],
                    }
                    for card, rows in book.market_rows.items()
                ],
                "most": MARKET_CARDS,
            },
        )
        self.tell(
            "I keep track of the market now: a purchase names one of its rows, and when "
            "you pass I know what is left (status shows its rows)."
        )

    def _final_scoring(self) -> Steps:
        book = self.book
        scoring = book.scoring
        cap = scoring.gold_cap
        things = book.goal_things(self.goal_id())
        self.say()
        self.say("== Final scoring ==")
        self.tell(
            "Place your exit doorway, score your dungeon on the pad, and I score the rival. "
            "Final gold and the goal are judged against the rival."
        )
        final_gold = yield Question(
            "final scoring: your gold",
            f"Your final gold (0-{cap})?",
            HELP["final_gold"].format(first=scoring.solo_gold[0], second=scoring.solo_gold[-1]),
            lambda text: parse_int(text, 0, cap, "gold"),
            default=str(self.gold),
            kind="number",
            options={"low": 0, "high": cap},
        )
        mine = yield Question(
            "final scoring: the goal",
            f"Goal {book.goal_title(self.goal_id())}: how many {things} are in your dungeon?",
            HELP["goal_count"].format(first=scoring.goal[0], second=scoring.goal[1]),
            lambda text: parse_int(text, 0, book.max_goal_count, f"the number of {things}"),
            kind="number",
            options={"low": 0, "high": book.max_goal_count},
        )
        rows = yield Question(
            "final scoring: your score pad",
            "Your challenge cards, chamber reputation, blueprint and dungeon paths "
            "(four numbers, or their sum)?",
            HELP["rows"].format(
                scale=", ".join(
                    f"{m} matches {p}" for m, p in sorted(scoring.blueprint_scale.items())
                )
            ),
            lambda text: answers.rows(book, text),
            kind="numbers",
            options={
                "fields": [
                    {"label": what, "low": low, "high": high}
                    for what, low, high in answers.row_bounds(book)
                ]
            },
        )
        self.gold = final_gold
        self.result_text = self._result_lines(final_gold, mine, rows)
        self.say()
        self.say("\n".join(self.result_text))

    def _result_lines(self, final_gold: int, mine: int, rows: tuple[int, ...]) -> list[str]:
        """The final score, kept as `final` for a page and returned as the terminal's table."""
        self.final = self._final_score(final_gold, mine, rows)
        width = 46

        def line(label: str, you: int | str | None, them: int | str | None) -> str:
            you, them = "" if you is None else you, "" if them is None else them
            return f"{label:<{width}}{you!s:>5}{them!s:>7}".rstrip()

        return [
            "== Result ==",
            line("", "You", "Rival"),
            *(line(row.label, row.you, row.rival) for row in self.final.lines),
            *self.final.notes,
        ]

    def _final_score(self, final_gold: int, mine: int, rows: tuple[int, ...]) -> FinalScore:
        rival, scoring = self.rival, self.book.scoring
        card = rival.face_up
        things = self.book.goal_things(self.goal_id())
        gold_points = rank_points(scoring.solo_gold, solo_gold_place(final_gold, card.gold))
        theirs = rival.goal_count(self.book.goal_elements(self.goal_id()))
        goal_points = rank_points(scoring.goal, solo_goal_place(mine, theirs))
        rep = rival.reputation()
        goal = f"{mine} against {theirs}" if mine else "none in your dungeon"
        lines = [
            ScoreLine(f"Final gold: {final_gold} against {card.gold}", gold_points, None),
            ScoreLine(f"Goal, {things}: {goal}", goal_points, None),
        ]
        if len(rows) == 4:
            labels = ("Challenge cards", "Chamber reputation", "Blueprint", "Dungeon paths")
            lines += [
                ScoreLine(label, value, None) for label, value in zip(labels, rows, strict=True)
            ]
        else:
            lines.append(ScoreLine("Score pad: challenges to paths", rows[0], None))
        tokens, chambers = len(rival.tokens), len(rival.chambers)
        lines += [
            ScoreLine(f"Base reputation, {card.title}", None, rep.base),
            ScoreLine(f"Condition: {self.condition_text(card)}", None, rep.condition),
            ScoreLine(
                f"Stars on its {chambers} chamber {plural('card', chambers)}",
                None,
                rep.chamber_stars,
            ),
            ScoreLine(f"Stars on its {tokens} {plural('token', tokens)}", None, rep.token_stars),
        ]
        total = gold_points + goal_points + sum(rows)
        outcome = solo_outcome(total, rep.total)
        self.result = Result(total, rep.total, outcome.won, outcome.margin)
        lines.append(ScoreLine("Total", total, rep.total))
        notes = ["Ties go to the rival: final gold, goal and total."]
        score = f"You {total} - Rival {rep.total}"
        if outcome.won:
            headline = f"{score}: you win by {outcome.margin}"
            notes.append(f"You win by {outcome.margin}: you take the title of Master Architect!")
        elif outcome.margin == 0:
            headline = f"{score}: a tie, so the rival wins"
            notes.append(f"A tie at {total}: ties go to the rival, so the rival wins.")
        else:
            headline = f"{score}: the rival wins by {-outcome.margin}"
            notes.append(f"The rival wins by {-outcome.margin}. Try again!")
        return FinalScore(headline, tuple(lines), tuple(notes))


def counted(tokens: Iterable[str]) -> str:
    """Token ids with counts, as an answer types them: "2 goblin, spike-pit"."""
    counts = Counter(tokens)
    return ", ".join(f"{n} {t}" if n > 1 else t for t, n in counts.items())


def replayed(
    book: Book, difficulty: str, seed: int, recorded: Iterable[str], intro: Sequence[str] = ()
) -> Engine:
    """An engine with the recorded answers given again; SessionError if one does not fit."""
    engine = Engine(book, difficulty, seed, intro)
    recorded = list(recorded)
    for number, text in enumerate(recorded, start=1):
        if engine.question is None:
            left = len(recorded) - number + 1
            raise SessionError(f"{left} recorded answers are left after the end of the game")
        try:
            engine.answer(text)
        except Reject as reject:
            raise SessionError(
                f"answer {number} ({text!r}) does not fit {engine.where}: {reject}"
            ) from None
    return engine


def undone(engine: Engine, count: int = 1) -> Engine:
    """The same game with its last `count` answers taken back (replayed without them)."""
    keep = engine.answers[: max(0, len(engine.answers) - count)]
    return replayed(engine.book, engine.difficulty, engine.seed, keep, engine.intro)
