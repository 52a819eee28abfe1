"""Gem Rush's own command, offered through its spec: `protopress pay`."""

from __future__ import annotations

import json
import sys

import click

from protopress.cli.common import catalog_option, game_spec, load_for
from protopress.components.suggest import did_you_mean
from protopress.games.gem_rush.payment import gem_set, minimal_payments, recommend


@click.command()
@click.option(
    "--cost", required=True, help="The door's gems, comma-separated ('' for a free door)."
)
@click.option("--hand", "hand", multiple=True, help="A gem card as GEM+GEM (repeat for each card).")
@catalog_option("Take the gems from this Gem Rush catalog instead of the built-in one.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def pay(cost: str, hand: tuple[str, ...], catalog_path: str | None, as_json: bool) -> None:
    """Can a Gem Rush door with this cost be built from these cards?

    Exit 0 when payable, 1 when not, 2 on unknown gems.
    """
    gems = gem_set(load_for(game_spec("gem-rush"), catalog_path))

    def gem(name: str, standard_only: bool = False) -> str:
        name = name.strip()
        allowed = gems.standard if standard_only else gems.all
        if name not in allowed:
            what = "a standard gem" if standard_only and name in gems.all else "a gem"
            raise click.UsageError(f"{name!r} is not {what}{did_you_mean(name, allowed)}")
        return name

    cost_gems = [gem(g, standard_only=True) for g in cost.split(",") if g.strip()]
    cards = [tuple(gem(g) for g in card.split("+")) for card in hand]
    payments = minimal_payments(cost_gems, cards)
    best = recommend(payments, cards)
    answer = {
        "payable": best is not None,
        "cards": list(best.cards) if best else [],
        "bonus": best.bonus if best else 0,
        "alternatives": [{"cards": list(p.cards), "bonus": p.bonus} for p in payments],
    }
    if as_json:
        click.echo(json.dumps(answer))
    elif best is None:
        click.echo("not payable")
    else:
        used = ", ".join(f"{i}:{'+'.join(cards[i])}" for i in best.cards) or "no cards"
        click.echo(f"payable with {used}" + (f" (+{best.bonus} Orichalcum)" if best.bonus else ""))
        if len(payments) > 1:
            click.echo(f"{len(payments)} minimal payments in all")
    sys.exit(0 if best is not None else 1)
