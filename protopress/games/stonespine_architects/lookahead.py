"""Stonespine Architects' bot support: the values of a decision's actions without
copying the state, declared as SUPPORT (rules/bot_support.py). The heuristic
they agree with is heuristic.py's `judge`.

`action_values` judges most actions without a copy, from what the action
changes that the heuristic reads:

- a chamber card placed: one more chamber, its printed gold on the row; solo,
  the row's last card also offers the card left to the rival and counts the
  improvement's gold, on which the rival card gives its verdict;
- a card kept (solo): the rival's pile grows, the board does not change;
- a token put: one chamber changed, and the tokens still to place that fit;
  the board's value is found once per token, blueprint matches and path score
  (`Judge.board_once`: in any cell a token changes the dungeon's totals alike),
  and so it is for a card placed;
- a market row bought: less gold, its tokens to place, and, solo, what the
  rival collects;
- a solo pass: the claimed challenge, the gold after passing, the market's
  tokens to the rival and the rival's next card face up.

The last card of a row and a pass in multiplayer (hands passed on, priority
track) are judged by the book: copy, apply, judge.
tests/games/stonespine_architects/test_fast.py holds the values to the book's
on thousands of positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from protopress.games.stonespine_architects.actions import (
    Buy,
    Keep,
    Pass,
    PassClaiming,
    Place,
    Put,
    PutInSlot,
    PutOnEdge,
    StonespineAction,
)
from protopress.games.stonespine_architects.dungeon import (
    SIZE,
    geometry_path_score,
    path_reach,
)
from protopress.games.stonespine_architects.heuristic import (
    Facts,
    Judge,
    board_facts,
    by_the_book_only,
    ends_draft,
    row_gold,
)
from protopress.games.stonespine_architects.placement import fits_in, with_token
from protopress.games.stonespine_architects.rival import COLLECT, gold_after_pass
from protopress.games.stonespine_architects.rulebook import YEARS
from protopress.games.stonespine_architects.rules import (
    StonespineArchitects,
    collected_tokens,
    income_of,
)
from protopress.games.stonespine_architects.state import Board, Offer, StonespineState
from protopress.rules.bot_support import BotSupport

_PUTS = {PutInSlot, PutOnEdge}
_MARKET = {Buy, PassClaiming, Pass}

# --- the look-ahead ----------------------------------------------------------------


def action_values(
    game: StonespineArchitects,
    state: StonespineState,
    seat: int,
    actions: Sequence[StonespineAction],
) -> list[float]:
    """heuristic(seat) after each legal action, as copy + apply + heuristic give it."""
    if by_the_book_only(state, seat):
        return [_by_the_book(game, state, seat, action) for action in actions]
    board = state.boards[seat]
    base = board_facts(state, board)
    judging = Judge(state, seat)
    kinds = {type(action) for action in actions}  # the casts below: what kinds tells
    if kinds == {Place} and not ends_draft(state):
        return _place_values(state, judging, board, base, cast(Sequence[Place], actions))
    if kinds == {Place} and state.rival is not None:
        places = cast(Sequence[Place], actions)
        return [_last_place_value(state, judging, board, base, place) for place in places]
    if kinds == {Keep}:
        return _keep_values(state, judging, board, base, cast(Sequence[Keep], actions))
    if kinds and kinds <= _PUTS:
        return _put_values(state, judging, board, base, cast(Sequence[Put], actions))
    if kinds <= _MARKET:
        market = cast(Sequence[Buy | PassClaiming | Pass], actions)
        return _market_values(game, state, seat, judging, board, base, market)
    return [_by_the_book(game, state, seat, action) for action in actions]


def _by_the_book(
    game: StonespineArchitects, state: StonespineState, seat: int, action: StonespineAction
) -> float:
    trial = state.copy()
    game.apply(trial, action)
    return game.heuristic(trial, seat)


def _rival(state: StonespineState) -> int | None:
    return state.rival.reputation().total if state.rival is not None else None


def _place_values(
    state: StonespineState, judging: Judge, board: Board, base: Facts, actions: Sequence[Place]
) -> list[float]:
    """A card placed before the row's last: one new chamber, its printed gold on the row."""
    table = state.table
    gold, rival, start = row_gold(state, board), _rival(state), state.row * SIZE
    entrance, exit = board.blueprint.entrance, board.blueprint.exit
    reach = path_reach(base.tally.geometry, entrance, exit)  # where paths may change
    values = []
    for action in actions:
        index = table.card_index[action.card_id]
        cell, chamber = start + action.column, table.chambers[index]
        paths = base.paths
        if reach >> cell & 1:
            geometry = base.tally.geometry.with_chamber(cell, chamber)
            paths = geometry_path_score(geometry, entrance, exit)
        targets = board.targets.get(cell, ())
        value = judging.value(
            judging.board_once(base, index, cell, chamber, targets, paths),
            gold=board.gold,
            row_gold=gold + table.cards[index].gold,
            rival=rival,
        )
        values.append(value)
    return values


def _last_place_value(
    state: StonespineState, judging: Judge, board: Board, base: Facts, action: Place
) -> float:
    """Solo, the row's last card: one new chamber, the card left in hand offered to
    the rival, the improvement's gold counted and the rival card's verdict on it
    (COLLECT: the rival collects its card's tokens)."""
    table, rival = state.table, state.rival
    assert rival is not None  # solo
    index = table.card_index[action.card_id]
    cell, chamber = state.row * SIZE + action.column, table.chambers[index]
    cards, chambers = board.cards[:], board.chambers[:]
    cards[cell], chambers[cell] = index, chamber
    geometry = base.tally.geometry.with_chamber(cell, chamber)
    paths = geometry_path_score(geometry, board.blueprint.entrance, board.blueprint.exit)
    targets = board.targets.get(cell, ())
    facts = Facts(table.scoring, board.chambers, base.tally, paths, cell, chamber, targets)
    rest = board.hand[:]
    rest.remove(index)
    taken = [table.cards[i] for i in rest if rival.wants(table.cards[i])]
    gold = income_of(state, state.mover, cards, chambers)
    collected = []
    if rival.market_verdict(gold) == COLLECT:
        collected = [table.tokens[t] for t in collected_tokens(state)]
    total = rival.reputation_with(chambers=taken, tokens=collected).total
    return judging.value(judging.board(facts), gold=gold, row_gold=None, rival=total)


def _keep_values(
    state: StonespineState, judging: Judge, board: Board, base: Facts, actions: Sequence[Keep]
) -> list[float]:
    """Solo: a card kept, the rest offered to the rival; the board does not change."""
    table = state.table
    rival = state.rival
    assert rival is not None  # only the solo game keeps cards
    gold, value = row_gold(state, board), judging.board(base)
    values = []
    for action in actions:
        rest = board.hand[:]
        rest.remove(table.card_index[action.card_id])
        taken = [table.cards[i] for i in rest if rival.wants(table.cards[i])]
        total = rival.reputation_with(chambers=taken).total
        values.append(judging.value(value, gold=board.gold, row_gold=gold, rival=total))
    return values


def _put_values(
    state: StonespineState, judging: Judge, board: Board, base: Facts, actions: Sequence[Put]
) -> list[float]:
    """A bought token put in a slot or on an edge: one chamber changed; the tokens
    still to place are those left that fit somewhere afterwards."""
    table, blueprint = state.table, board.blueprint
    rival = _rival(state)
    room = {token: board.room(table, token) for token in state.pending}  # where each fits now
    reach = path_reach(base.tally.geometry, blueprint.entrance, blueprint.exit)
    pending = state.pending
    others = [pending[:k] + pending[k + 1 :] for k in range(len(pending))]  # left after k
    values = []
    for action in actions:
        k = action.token_index
        token, cell = pending[k], action.row * SIZE + action.col
        edge = action.edge if isinstance(action, PutOnEdge) else None
        new = with_token(board.chambers[cell], table.tokens[token], edge)
        paths = base.paths
        if edge is not None and reach >> cell & 1:  # a secret passage where paths may change
            geometry = base.tally.geometry.with_chamber(cell, new)
            paths = geometry_path_score(geometry, blueprint.entrance, blueprint.exit)
        card = board.cards[cell]
        left = []  # as fits() on the dungeon with the new chamber
        for t in others[k]:
            fitting, first = room[t]  # fits in another cell, or in the new chamber
            if fitting > 1 or (fitting == 1 and first != cell) or fits_in(table, card, new, t):
                left.append(t)
        targets = board.targets.get(cell, ())
        change = table.tokens[token]
        value = judging.board_once(base, change, cell, new, targets, paths)
        value += judging.pending(left)
        values.append(judging.value(value, gold=board.gold, row_gold=None, rival=rival))
    return values


def _market_values(
    game: StonespineArchitects,
    state: StonespineState,
    seat: int,
    judging: Judge,
    board: Board,
    base: Facts,
    actions: Sequence[Buy | PassClaiming | Pass],
) -> list[float]:
    """Market rows bought and passes: the board does not change, so its value is
    judged once; what the passes share is found at the first."""
    value = judging.board(base)
    markets = state.table.markets  # each row by (card id, row), the first kept as by offer_of
    offers = {(markets[o.card].id, o.row): o for o in reversed(state.market)}
    rivals: dict[str, int] = {}  # the rival's reputation by its verdict on the gold left
    passing: _Passing | None = None
    values = []
    for action in actions:
        if isinstance(action, Buy):
            offer = offers[action.market_card_id, action.row]
            values.append(_buy_value(state, judging, value, board, offer, rivals))
            continue
        if passing is None:
            passing = _passing(state, seat, board)
        if passing is None:  # multiplayer: by the book
            values.append(_by_the_book(game, state, seat, action))
        else:
            values.append(_pass_value(state, passing, value, base, action))
    return values


def _buy_value(
    state: StonespineState,
    judging: Judge,
    value: float,
    board: Board,
    offer: Offer,
    rivals: dict[str, int],
) -> float:
    """A market row bought: less gold, its tokens to place (those that fit), and in
    solo the rival card's verdict on the gold left (COLLECT: the rival collects);
    value is the board's (judging.board), rivals keeps the rival's reputation per
    verdict for the decision's other rows."""
    table = state.table
    gold = board.gold - offer.cost
    rival = None
    if state.rival is not None:
        verdict = state.rival.market_verdict(gold)
        rival = rivals.get(verdict)
        if rival is None:
            collected: list = []
            if verdict == COLLECT:
                collected = [table.tokens[t] for t in collected_tokens(state)]
            rival = rivals[verdict] = state.rival.reputation_with(tokens=collected).total
    pending = [t for t in offer.tokens if board.room(table, t).cells]  # those that fit
    value += judging.pending(pending)
    return judging.value(value, gold=gold, row_gold=None, rival=rival)


class _Passing(NamedTuple):
    """What a solo decision's passes share: the judge with next year's final
    priority, the gold after passing, next year's row gold (None: the game ends)
    and the rival's reputation with the market's tokens and its next card."""

    judging: Judge
    gold: int
    row_gold: int | None
    rival: int


def _passing(state: StonespineState, seat: int, board: Board) -> _Passing | None:
    """Solo: the year ends, and unless it was the last the next begins with the
    rival's next card face up. None in multiplayer (judged by the book)."""
    rival = state.rival
    if rival is None or (state.year < YEARS and not rival.deck):
        return None
    table = state.table
    tokens = [table.tokens[t] for offer in state.market for t in offer.tokens]
    gold = gold_after_pass(state.year, board.gold)
    if state.year == YEARS:  # the game ends: no construction, the same rival card
        total = rival.reputation_with(tokens=tokens).total
        return _Passing(Judge(state, seat), gold, None, total)
    total = rival.reputation_with(card=rival.deck[0], tokens=tokens).total
    row = row_gold(state, board, state.year)
    return _Passing(Judge(state, seat, year=state.year + 1), gold, row, total)


def _pass_value(
    state: StonespineState,
    passing: _Passing,
    value: float,
    base: Facts,
    action: PassClaiming | Pass,
) -> float:
    """Solo: a challenge claimed (if any is face up) adds its term to the board's
    value; the rest is what the decision's passes share."""
    if isinstance(action, PassClaiming):
        table = state.table
        claimed = next(i for i in state.display if table.challenges[i].id == action.challenge_id)
        value += passing.judging.claimed(table.challenges[claimed], base)
    return passing.judging.value(
        value, gold=passing.gold, row_gold=passing.row_gold, rival=passing.rival
    )


SUPPORT = BotSupport(action_values=action_values)
