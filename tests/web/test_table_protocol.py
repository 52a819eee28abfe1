"""The playtest table (web/table.py) without a browser: whole games against greedy,
every view read for hidden cards, undo, the save resumed, the replay log, hot seat."""

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli.app import cli
from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import known_ids, spec_for
from protopress.rules.bot_names import make_bot
from protopress.rules.information import reseed
from protopress.rules.observe import UNSEEN, observation
from protopress.rules.plugins import load_rules
from protopress.web.table import PERSON, PlayTable, Stale, TableError, TableSetup, read_save

ROOT = Path(__file__).parents[2]
COTTAGE_RULES = str(ROOT / "examples" / "cottage-market" / "rules.py")
COTTAGE_CATALOG = str(ROOT / "examples" / "cottage-market" / "catalog.json")


def cottage(tmp_path: Path, seats=(PERSON, "greedy"), seed: int = 11) -> PlayTable:
    spec = load_rules(COTTAGE_RULES)
    catalog = load_catalog(COTTAGE_CATALOG)
    setup = TableSetup(
        spec.id, COTTAGE_CATALOG, catalog.version, seats, seed, spec.parse_options({}),
        COTTAGE_RULES,
    )  # fmt: skip
    return PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")


def dragonstone(tmp_path: Path, seats=(PERSON, "greedy"), seed: int = 5) -> PlayTable:
    spec = spec_for("dragonstone-mine")
    catalog = load_catalog(builtin_catalog_path("dragonstone-mine"))
    options = spec.parse_options({"level": "1"})
    setup = TableSetup(spec.id, spec.id, catalog.version, seats, seed, options)
    return PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")


def body(table: PlayTable) -> dict:
    """The view as the page receives it: through JSON."""
    return json.loads(json.dumps(table.view()))


def hidden_lists(table: PlayTable, seat: int) -> list[list]:
    """The lists seat may not see: every face-down pile, the others' hands."""
    state, found = table.state, []
    view = getattr(table.game, "seat_view", None)
    for entry in () if view is None else view.hidden:
        pool = getattr(entry, "pool", None)
        if pool is not None:
            found.append(list(pool.pile(state)))
        if hasattr(entry, "zones"):
            if entry.open is not None and entry.open(state):
                continue  # every seat sees every hand (Gem Rush's Crisis)
            found += [list(z) for owner, z in enumerate(entry.zones(state)) if owner != seat]
        elif hasattr(entry, "pile"):
            found.append(list(entry.pile(state)))
    return found


def check_no_leak(table: PlayTable, seen: dict, rng: random.Random) -> None:
    """What the page got holds no hidden card: its table is the same for a state with
    every hidden field dealt again (what the seat cannot tell apart), and no hidden pile
    or hand appears in it as a list (its cards in order)."""
    if seen.get("pass_to") is not None:
        assert set(seen) == {"game", "seed", "moves", "names", "people", "notice", "save",
                             "pass_to"}  # fmt: skip
        return
    viewer = seen["viewer"]
    twin = table.state.copy()
    reseed(twin, rng.getrandbits(64))
    view = getattr(table.game, "seat_view", None)  # none: chance is all a seat cannot see
    if view is not None:
        view.determinize(twin, viewer, rng, lazily=False)
    other = json.loads(
        json.dumps(observation(table.game, twin, viewer, len(table.setup.seats), table._kind_of))
    )
    assert agree(seen["table"], other)
    text = json.dumps(seen)
    for cards in hidden_lists(table, viewer):
        if len(cards) >= 2:  # in order, as ids (a card object by its id)
            ids = [getattr(card, "id", card) for card in cards]
            assert json.dumps(ids, default=str) not in text


def agree(shown, other) -> bool:
    """Whether every part of shown is the same in other, or left unseen in either (a
    part not shown: a copy's own bookkeeping, or what read a hidden card)."""
    if UNSEEN in (shown, other):
        return True
    if isinstance(shown, dict) and isinstance(other, dict):
        return all(agree(v, other[k]) if k in other else v == UNSEEN for k, v in shown.items())
    if isinstance(shown, list) and isinstance(other, list):
        return len(shown) == len(other) and all(map(agree, shown, other))
    return shown == other


def person_choice(table: PlayTable, seen: dict, chooser) -> list:
    """The person's tap: the action a greedy player would take, among those listed."""
    listed = [action["encoded"] for action in seen["actions"]]
    act = chooser.choose(table.game, table.state)
    encoded = table.codec.encode(act)
    assert encoded in listed
    return encoded


def play_until(table: PlayTable, offered, most: int) -> dict:
    """The view once an action the person is offered meets `offered` (an encoded
    action's test), the bot moving and the person tapping greedy's choice meanwhile;
    at most `most` moves."""
    chooser = make_bot("greedy", 7)
    seen = body(table)
    for _ in range(most):
        if any(offered(act["encoded"]) for act in seen["actions"]):
            break
        if seen["bot_to_move"]:
            table.bot_move(seen["moves"])
        else:
            table.play(person_choice(table, seen, chooser), seen["moves"])
        seen = body(table)
    return seen


def play_out(table: PlayTable, rng: random.Random, seat: int = 0) -> int:
    chooser = make_bot("greedy", 99)
    views = 0
    while True:
        seen = body(table)
        views += 1
        check_no_leak(table, seen, rng)
        if seen.get("pass_to") is not None:
            table.ready(seen["pass_to"])
        elif seen["over"]:
            return views
        elif seen["bot_to_move"]:
            assert seen["actions"] == []  # a bot's decision is not shown
            table.bot_move(seen["moves"])
        else:
            table.play(person_choice(table, seen, chooser), seen["moves"])


@pytest.mark.parametrize("make", [cottage, dragonstone])
def test_a_whole_game_against_greedy_leaks_nothing_and_replays(make, tmp_path):
    table = make(tmp_path)
    views = play_out(table, random.Random(3))
    assert views > 20
    seen = body(table)
    assert seen["over"] and seen["replay_log"] and seen["actions"] == []
    log_path = tmp_path / "play-logs" / seen["replay_log"]
    log = json.loads(log_path.read_text())
    assert log["bots"] == list(table.setup.seats) and log["scores"] == seen["table"]["scores"]
    args = ["replay", str(log_path)] + (["--rules", COTTAGE_RULES] if make is cottage else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    for seat, score in enumerate(seen["table"]["scores"]):
        assert f"seat {seat}: {score}" in result.output


def test_the_other_hand_and_the_deck_are_counts(tmp_path):
    table = dragonstone(tmp_path)
    chooser = make_bot("greedy", 1)
    while len(table.state.hands[1]) < 2:  # until the bot holds cards
        seen = body(table)
        if seen["bot_to_move"]:
            table.bot_move(seen["moves"])
        else:
            table.play(person_choice(table, seen, chooser), seen["moves"])
    seen = body(table)
    hands = seen["table"]["fields"]["hands"]
    assert hands[0] == list(table.state.hands[0])  # the person's own
    count = len(table.state.hands[1])
    assert hands[1] == {"hidden": "hands", "count": count, "kind": "action-card"}
    assert seen["table"]["fields"]["deck"]["count"] == len(table.state.deck)
    assert "back:action-card" in seen["components"]  # drawn as the card's back


def test_undo_takes_back_the_last_own_move_and_the_bots_move_again_alike(tmp_path):
    table = cottage(tmp_path)
    chooser = make_bot("greedy", 1)
    for _ in range(3):  # three of the person's moves, each answered by the bot
        seen = body(table)
        table.play(person_choice(table, seen, chooser), seen["moves"])
        table.bot_move(seen["moves"] + 1)
    before = [move.encoded for move in table.moves]
    assert len(before) == 6
    table.undo(6)
    assert [move.encoded for move in table.moves] == before[:4]
    assert body(table)["notice"] == f"Undone: {table.codec.words(table.codec.decode(before[4]))}" \
        " and 1 move after it."  # fmt: skip
    table.play(before[4], 4)
    table.bot_move(5)
    assert [move.encoded for move in table.moves] == before  # the bot answers as it did
    table.undo(6)
    table.undo(4)
    assert len(table.moves) == 2
    with pytest.raises(Stale):
        table.undo(6)  # a second tap of the same undo


def test_nothing_to_undo_and_a_stale_move_are_refused(tmp_path):
    table = cottage(tmp_path)
    with pytest.raises(TableError, match="Nothing to undo"):
        table.undo(0)
    action = body(table)["actions"][0]["encoded"]
    with pytest.raises(Stale):
        table.play(action, 3)
    with pytest.raises(TableError, match="not legal"):
        table.play(["build", 7], 0)
    with pytest.raises(TableError, match="no action"):
        table.play(["fly"], 0)
    table.play(action, 0)
    with pytest.raises(Stale, match="not your decision"):
        table.play(action, 1)  # the bot's turn


def test_the_save_resumes_the_game_where_it_was(tmp_path):
    table = dragonstone(tmp_path)
    chooser = make_bot("greedy", 1)
    for _ in range(12):
        seen = body(table)
        if seen["bot_to_move"]:
            table.bot_move(seen["moves"])
        else:
            table.play(person_choice(table, seen, chooser), seen["moves"])
    setup, actions = read_save(tmp_path / "save.json")
    assert setup == table.setup and len(actions) == 12
    again = PlayTable(table.game, table.catalog, setup, tmp_path / "save.json", actions)
    resumed, played = body(again), body(table)
    # the same page: the state's bookkeeping of its copies, which differs between them
    # (the bots' look-ahead filled the played state's cached tower scores and took the
    # ownership of its towers), is the engine's and not on the page
    assert resumed == played


def test_a_damaged_save_is_named(tmp_path):
    path = tmp_path / "save.json"
    path.write_text('{"format": "protopress-play/1", "game": "x"}')
    with pytest.raises(TableError, match="not a saved playtest game"):
        read_save(path)
    path.write_text("{")
    with pytest.raises(TableError, match="save.json"):
        read_save(path)
    saved = {"format": "protopress-play/1", "game": "dragonstone-mine",
             "catalog": "dragonstone-mine", "seed": 1, "actions": []}  # fmt: skip
    path.write_text(json.dumps(saved | {"seats": ["greedy", "greedy"]}))
    with pytest.raises(TableError, match="no seat is a 'person'"):
        read_save(path)
    path.write_text(json.dumps(saved | {"seats": ["person", "clever"]}))
    with pytest.raises(TableError, match="unknown bot 'clever'"):
        read_save(path)
    path.write_text(json.dumps(saved | {"seats": ["person"] * 9}))
    setup, actions = read_save(path)
    with pytest.raises(TableError, match="cannot be set up: dragonstone-mine takes 2 to"):
        PlayTable(spec_for("dragonstone-mine").new_game(),
                  load_catalog(builtin_catalog_path("dragonstone-mine")), setup, path, actions)  # fmt: skip


def test_hot_seat_passes_the_device_and_each_sees_only_their_own_hand(tmp_path):
    table = dragonstone(tmp_path, seats=(PERSON, PERSON))
    rng = random.Random(8)
    seen = body(table)
    assert seen["viewer"] == 0 and seen["table"]["fields"]["hands"][1]["hidden"] == "hands"
    chooser = make_bot("greedy", 4)
    while body(table)["pass_to"] is None:
        seen = body(table)
        table.play(person_choice(table, seen, chooser), seen["moves"])
    passing = body(table)
    check_no_leak(table, passing, rng)  # nothing but "pass the device to seat 1"
    assert passing["pass_to"] == 1
    with pytest.raises(Stale):
        table.ready(0)
    table.ready(1)
    seen = body(table)
    assert seen["viewer"] == 1 and seen["actions"]
    assert seen["table"]["fields"]["hands"][0]["hidden"] == "hands"
    assert seen["table"]["fields"]["hands"][1] == list(table.state.hands[1])
    check_no_leak(table, seen, rng)
    play_out(table, rng)


def test_the_command_says_what_is_wrong(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "dragonstone-mine"])
    assert result.exit_code == 2 and "add --web" in result.output
    result = runner.invoke(cli, ["play", "dragonstone-mine", "--seat", "4", "--players", "2",
                                 "--web"])  # fmt: skip
    assert result.exit_code == 2 and "seats 0 to 1" in result.output
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "protopress-play/1", "game": "gem-rush",
                                 "catalog": "gem-rush", "seats": [PERSON, "greedy"], "seed": 1,
                                 "actions": []}))  # fmt: skip
    result = runner.invoke(cli, ["play", "dragonstone-mine", "--save", str(other), "--web"])
    assert result.exit_code == 1 and "holds a game of gem-rush" in result.output


VARIANTS = [(game_id, {}) for game_id in sorted(known_ids())] + [
    ("gem-rush", {"mode": "rush"}),  # private hands (Crisis plays with open ones)
    ("dragonstone-mine", {"level": "2"}),  # face-up cards beside the hidden deck and hands
]


@pytest.mark.parametrize(("game_id", "options"), VARIANTS)
def test_every_built_in_game_plays_at_the_table_and_leaks_nothing(game_id, options, tmp_path):
    """The first 40 decisions of each built-in game against greedy, every view checked
    (the page has no game's code: what it draws is the view)."""
    spec = spec_for(game_id)
    catalog = load_catalog(builtin_catalog_path(game_id))
    players = max(2, spec.min_players)
    seats = (PERSON, *["greedy"] * (players - 1))
    setup = TableSetup(game_id, game_id, catalog.version, seats, 2, spec.parse_options(options))
    table = PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")
    chooser = make_bot("greedy", 7)
    rng = random.Random(1)
    for _ in range(40):
        seen = body(table)
        check_no_leak(table, seen, rng)
        assert seen["components"]  # the catalog's components are named in the view
        if seen["over"]:
            break
        if seen["bot_to_move"]:
            table.bot_move(seen["moves"])
        else:
            table.play(person_choice(table, seen, chooser), seen["moves"])
    assert len(table.moves) >= 20


def test_a_save_that_does_not_replay_is_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "protopress-play/1", "game": "dragonstone-mine",
                               "catalog": "dragonstone-mine", "seats": [PERSON, "greedy"],
                               "seed": 1, "actions": [["fly"]]}))  # fmt: skip
    result = CliRunner().invoke(cli, ["play", "dragonstone-mine", "--save", str(bad), "--web"])
    assert result.exit_code == 1
    assert f"{bad}: action 0: ['fly']: no action 'fly'" in result.output


def test_the_leak_check_finds_a_leak(tmp_path):
    """The check itself can fail: a view with the deck's cards in order is caught."""
    table = cottage(tmp_path)
    seen = body(table)
    check_no_leak(table, seen, random.Random(1))
    seen["table"]["fields"]["deck"] = [card._asdict() for card in table.state.deck]
    with pytest.raises(AssertionError):
        check_no_leak(table, seen, random.Random(1))
    seen = body(table)
    seen["table"]["fields"]["deck"]["count"] += 1  # a count that is not the deck's
    with pytest.raises(AssertionError):
        check_no_leak(table, seen, random.Random(1))


def test_an_action_naming_a_place_says_where_the_view_shows_it(tmp_path):
    # seed 2: the market is woodcutter, woodcutter, hall; with 2 gold the person may
    # build a woodcutter (offered once, from slot 0: the same card twice is one choice)
    table = cottage(tmp_path, seed=2)
    seen = body(table)
    market = seen["table"]["fields"]["market"]
    assert [card["id"] for card in market] == ["woodcutter", "woodcutter", "hall"]
    builds = [act for act in seen["actions"] if act["encoded"][0] == "build"]
    assert [act["at"] for act in builds] == [[["market", 0]]]
    takes = [act for act in seen["actions"] if act["encoded"][0] == "take"]
    assert takes and all(act["at"] == [] for act in takes)


def test_a_spire_of_the_mover_s_tower_is_a_place_in_the_view(tmp_path):
    table = dragonstone(tmp_path)
    seen = body(table)
    while not any(act["encoded"][0] == "stack" for act in seen["actions"]):
        table.play(seen["actions"][0]["encoded"], seen["moves"])  # mine a gem
        seen = body(table)
    stacks = [act for act in seen["actions"] if act["encoded"][0] == "stack"]
    viewer = seen["viewer"]
    assert [act["at"] for act in stacks] == [
        [["spires", viewer, act["encoded"][1]]] for act in stacks
    ]
    spires = seen["table"]["fields"]["spires"][viewer]
    assert all(isinstance(spires[act["encoded"][1]], list) for act in stacks)


def test_a_move_between_two_spires_names_both_places_in_its_fields_order(tmp_path):
    # level 1, seed 2, the person playing as greedy: the sixth move offers to move a gem
    table = dragonstone(tmp_path, seed=2)
    seen = play_until(table, lambda encoded: encoded[0] == "move", 40)
    moves = [act for act in seen["actions"] if act["encoded"][0] == "move"]
    viewer = seen["viewer"]
    assert moves and [act["at"] for act in moves] == [
        [["spires", viewer, act["encoded"][1]], ["spires", viewer, act["encoded"][2]]]
        for act in moves
    ]


def test_a_room_named_by_its_cell_is_the_view_s_key_for_it(tmp_path):
    spec = spec_for("gem-rush")
    catalog = load_catalog(builtin_catalog_path("gem-rush"))
    options = spec.parse_options({})
    setup = TableSetup("gem-rush", "gem-rush", catalog.version, (PERSON, "greedy"), 2, options)
    table = PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")
    # the start: the dwarf in the first room (0, 0), which a build goes out of
    seen = body(table)
    builds = [act for act in seen["actions"] if act["encoded"][0] == "build"]
    assert builds and all(act["at"] == [["mine", "cells", "[0, 0]"]] for act in builds)
    assert "[0, 0]" in seen["table"]["fields"]["mine"]["cells"]
    assert all(act["at"] == [] for act in seen["actions"] if act["encoded"][0] == "end-move")


def builtin(game_id: str, tmp_path: Path, seed: int = 2) -> PlayTable:
    spec = spec_for(game_id)
    catalog = load_catalog(builtin_catalog_path(game_id))
    seats = (PERSON, "greedy")
    setup = TableSetup(game_id, game_id, catalog.version, seats, seed, spec.parse_options({}))
    return PlayTable(spec.new_game(), catalog, setup, tmp_path / "save.json")


def test_a_placement_names_the_box_of_the_sheet_its_corner_goes_to(tmp_path):
    table = builtin("gemstone-caverns", tmp_path)
    seen = body(table)
    table.play(seen["actions"][0]["encoded"], seen["moves"])  # seat 0 arranges the dice
    seen = body(table)
    places = [act for act in seen["actions"] if act["encoded"][0] == "place"]
    viewer, sheet = seen["viewer"], seen["table"]["fields"]["sheets"][seen["viewer"]]
    on_sheet = [act for act in places if act["at"]]
    assert on_sheet and len(on_sheet) < len(places)  # a corner off the sheet is no tap
    for act in places:
        _, _, row, column = act["encoded"]
        inside = 0 <= row < len(sheet) and 0 <= column < len(sheet[0])
        assert act["at"] == ([["sheets", viewer, row, column]] if inside else [])


def test_a_token_put_into_a_chamber_names_the_chamber(tmp_path):
    table = builtin("stonespine-architects", tmp_path)
    seen = play_until(table, lambda encoded: encoded[0] == "put", 200)
    viewer = seen["viewer"]
    chambers = seen["table"]["fields"]["boards"][viewer]["chambers"]
    assert len(chambers) == 16
    for act in seen["actions"]:
        row, col = act["encoded"][2:4]
        assert act["at"] == [["boards", viewer, "chambers", row * 4 + col]]


def test_a_card_burnt_from_a_hand_is_in_the_hand_of_the_seat_it_names(tmp_path):
    # Gem Rush's Crisis (open hands): "burn seat=1 card=2" is the third card of seat 1's hand
    table = builtin("gem-rush", tmp_path)
    seen = play_until(table, lambda encoded: encoded[0] == "burn" and len(encoded) == 3, 80)
    burns = [act for act in seen["actions"] if act["encoded"][0] == "burn"]
    from_hands = [act for act in burns if len(act["encoded"]) == 3]
    assert {act["encoded"][1] for act in from_hands} == {0, 1}  # either seat's hand
    for act in burns:
        expected = [["hands", *act["encoded"][1:]]] if act in from_hands else []
        assert act["at"] == expected
