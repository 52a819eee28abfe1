"""The --bot option of the commands that play games (simulate, play, balance, tune).

Apart from common.py so that the commands that only read catalogs (render,
validate) do not import the bots and the search to describe an option they
do not have.
"""

from __future__ import annotations

import click

from protopress.rules.bot_names import SEARCH_TIERS, make_bot


class BotName(click.ParamType):
    """random, greedy[:SAMPLES] or mcts[:PLAYOUTS|:MSms|:fast|:strong], checked by making one."""

    name = "bot"

    def convert(self, value, param, ctx):
        try:
            make_bot(value, 0)
        except ValueError as error:
            self.fail(str(error), param, ctx)
        return value


def bot_option(command):
    return click.option(
        "--bot",
        "bots",
        multiple=True,
        type=BotName(),
        help="Bot per seat, in seat order (repeat; the last fills the remaining seats): "
        "random, greedy, or mcts (mcts:1000 playouts a move, mcts:250ms); search tiers "
        + " and ".join(
            f"mcts:{tier} ({playouts} playouts)" for tier, playouts in SEARCH_TIERS.items()
        )
        + ", strength and cost in docs/balance.md.",
    )(command)
