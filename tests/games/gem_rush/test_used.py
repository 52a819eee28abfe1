"""Gem Rush's record of the components each seat used (record.used_components), on a
short scripted game worked from the rules (docs/rules/gem-rush.md), its `offered`,
and the coverage line that `protopress balance gem-rush` says with them."""

from __future__ import annotations

import json
import random
import re

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.gem_rush.actions import Build, EndMove, Rotate, Skip, UseAbility
from protopress.games.gem_rush.rules import GemRush

GAME = GemRush()
CATALOG = load_catalog(builtin_catalog_path("gem-rush"))
ROOM_TILES, SKILL_CARDS = 76, 20  # designs in the built-in catalog
CRISIS_ONLY = {"stoker"}  # its one effect burns from the discard pile: set aside in Rush


def test_a_scripted_rush_game_records_rooms_built_abilities_and_skills_used():
    # Rush, two players, seed 3. Seat 0 stands in Star Tear Vein (the first room, laid
    # by setup) holding two Fire Ruby cards (cards 0 and 3) and the Fire Ruby Adept
    # skill: "each Fire Ruby you spend may pay for an Electrum or a Star Tear".
    state = GAME.setup(CATALOG, 2, random.Random(3), {"mode": "rush"})
    assert state.mine.cells[(0, 0)].tile.id == "star-tear-vein"
    assert [card[0] for card in (state.hands[0][0], state.hands[0][3])] == ["fire-ruby"] * 2
    assert [state.table.skills[k].id for k in state.skills[0]] == ["fire-ruby-adept"]
    assert [tile.id for tile in state.stack[-2:]] == ["scrying-pool", "crossing-tunnel"]
    # Its west door costs Star Tear and Electrum: the two Fire Rubies pay it, each by
    # the skill, so seat 0 uses Fire Ruby Adept. The room drawn is Crossing Tunnel (a
    # tunnel: the builder goes on out the other side and builds again), then Scrying
    # Pool: seat 0 built both.
    for action in (Build((0, 0), "W", (0, 3)), Rotate(0), Rotate(0)):
        GAME.apply(state, action)
    assert state.pos[0] == (-2, 0) and state.mine.cells[(-2, 0)].tile.id == "scrying-pool"
    # It uses Scrying Pool's ability (a free room, already its own), ends its move and
    # skips its action. Seat 1 ends its move in Star Tear Vein and uses its ability
    # in the action phase: a room nobody built, used by seat 1.
    for action in (UseAbility(), EndMove(), Skip(), EndMove(), UseAbility()):
        GAME.apply(state, action)
    assert GAME.record(state)["used"] == [
        ["crossing-tunnel", "fire-ruby-adept", "scrying-pool"],
        ["star-tear-vein"],
    ]


def test_a_copy_carries_the_record_and_changes_apart():
    state = GAME.setup(CATALOG, 2, random.Random(3), {"mode": "rush"})
    copy = state.copy()
    GAME.apply(copy, Build((0, 0), "W", (0, 3)))
    GAME.apply(copy, Rotate(0))
    assert GAME.record(state)["used"] == [[], []]
    assert GAME.record(copy)["used"] == [["crossing-tunnel", "fire-ruby-adept"], []]
    assert GAME.record(copy.copy())["used"] == GAME.record(copy)["used"]


def test_offered_is_every_room_tile_and_the_skill_cards_of_the_mode():
    crisis = GAME.offered(CATALOG, {})
    assert len(crisis) == ROOM_TILES + SKILL_CARDS
    assert {"star-tear-vein", "crossing-tunnel", "fire-ruby-adept", "stoker"} <= set(crisis)
    rush = GAME.offered(CATALOG, {"mode": "rush"})
    assert set(crisis) - set(rush) == CRISIS_ONLY
    assert len(GAME.offered(CATALOG, {"skills": "none"})) == ROOM_TILES


def test_balance_says_what_the_bots_used_of_gem_rush(tmp_path):
    out = tmp_path / "run.json"
    result = CliRunner().invoke(
        cli, ["balance", "gem-rush", "--games", "40", "--workers", "1", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    line = re.search(
        r"The random seats used (\d+) of the (\d+) components in (\d+) seat-games", result.stdout
    )
    assert line is not None, result.stdout
    used, offered, seat_games = map(int, line.groups())
    assert (offered, seat_games) == (ROOM_TILES + SKILL_CARDS, 80)  # 40 games, two seats
    records = json.loads(out.read_text())["records"]
    assert used == len({i for r in records for ids in r["extra"]["used"] for i in ids})
    assert 0 < used < offered
