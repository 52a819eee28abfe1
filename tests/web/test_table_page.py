"""The playtest table in a real browser: whole Cottage Market and DragonStone level 1
games, on a phone and on a laptop, played by taps against greedy, with every
response of the page read for hidden cards; undo, a reload and a restart; the log's
replay; hot seat, where each player sees only their own hand."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parents[2]
COTTAGE = [
    "cottage-market",
    "--rules",
    str(ROOT / "examples" / "cottage-market" / "rules.py"),
    "--catalog",
    str(ROOT / "examples" / "cottage-market" / "catalog.json"),
]
DRAGONSTONE = ["dragonstone-mine", "--option", "level=1"]
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WAIT = 30_000  # ms: only reached when something is wrong (or the machine is very busy)
SETTLED = "state && !busy && (state.over || state.pass_to !== null || state.actions.length > 0)"


def open_table(browser, server, width: int, height: int):
    """A page of the given size on the table, bots fast, recording every API response."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    responses: list = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: "/api/" in response.url and responses.append(response))
    page.add_init_script("localStorage.setItem('protopress-table-speed', '150')")
    page.add_init_script(path=str(AXE))
    page.goto(server.url)
    page.wait_for_function(SETTLED)
    return context, page, errors, responses


def axe(page, where: str) -> list[str]:
    """The serious and critical findings of axe-core on the page as it is now."""
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{where}: {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:3]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def settle(page) -> dict:
    page.wait_for_function(SETTLED)
    return page.evaluate("state")


def tap_a_move(page, rng: random.Random) -> None:
    """One move of the person by a tap: on the component the action names when it is
    the only action naming it, else on the action's words."""
    state = page.evaluate("state")
    actions = state["actions"]
    index = rng.randrange(len(actions))
    chosen = actions[index]
    moves = state["moves"]
    named = [n for n in chosen["names"] if sum(n in a["names"] for a in actions) == 1]
    tappable = page.locator(f'.tappable[data-id="{named[0]}"]:visible') if named else None
    if tappable is not None and tappable.count():
        tappable.first.click()
    else:
        unfold(page, index)
        page.locator(f'#choices button[data-index="{index}"]').click()
    page.wait_for_function(f"state.moves > {moves} || state.error")
    assert not page.evaluate("state.error"), page.evaluate("state.error")


def unfold(page, index: int) -> None:
    """Open the folded groups (many actions: by verb, then field by field) that hold
    the action's button, outermost first."""
    groups = page.locator(f'#choices details:has(button[data-index="{index}"])')
    for number in range(groups.count()):
        group = groups.nth(number)
        if not group.evaluate("node => node.open"):
            group.locator("> summary").click()


def bodies(responses) -> list[dict]:
    found = []
    for response in responses:
        if response.status < 500 and "json" in response.headers.get("content-type", ""):
            found.append(response.json())
    return found


def check_bodies(found: list[dict], hidden_fields: dict[str, bool]) -> None:
    """Every body shows the hidden fields as counts: the deck (always), the hands of
    the seats that are not the viewer's (hidden_fields: name -> per seat)."""
    assert found
    for body in found:
        if body.get("pass_to") is not None:
            assert "table" not in body and "log" not in body and "actions" not in body
            continue
        fields = body["table"]["fields"]
        for name, per_seat in hidden_fields.items():
            if not per_seat:
                assert set(fields[name]) >= {"hidden", "count"}
                continue
            for seat, zone in enumerate(fields[name]):
                if seat == body["viewer"]:
                    assert isinstance(zone, list)
                else:
                    assert zone["hidden"] == name and isinstance(zone["count"], int)


def replayed_scores(log: Path, *rules: str) -> list[int]:
    result = subprocess.run(
        [sys.executable, "-m", "protopress", "replay", str(log), *rules],
        capture_output=True,
        text=True,
        check=True,
    )
    return [int(line.rsplit(":", 1)[1]) for line in result.stdout.splitlines()[1:]]


def play_whole_game(page, seed: int, lines: list[str]) -> dict:
    """Tap moves until the end; lines: the move lines shown when the person is to move."""
    rng = random.Random(seed)
    while True:
        state = settle(page)
        lines.append(page.inner_text("#bot-line"))
        if state["over"]:
            return state
        tap_a_move(page, rng)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
@pytest.mark.parametrize(
    ("game", "hidden", "rules"),
    [
        (COTTAGE, {"deck": False}, COTTAGE[1:3]),
        (DRAGONSTONE, {"deck": False, "hands": True}, []),
    ],
    ids=["cottage-market", "dragonstone-level-1"],
)
def test_a_whole_game_by_taps_against_greedy(browser, serve, tmp_path, game, size, hidden, rules):
    server = serve("play", *game, "--seed", 21, "--save", tmp_path / "save.json", "--web")
    context, page, errors, responses = open_table(browser, server, *size)
    try:
        findings = axe(page, "the first move")
        lines: list[str] = []
        final = play_whole_game(page, 5, lines)
        findings += axe(page, "the end")
        assert not findings, findings
        assert page.locator("#end").is_visible()
        scores = [int(cell) for cell in page.locator("#scores td:nth-child(2)").all_inner_texts()]
        assert scores == final["table"]["scores"]
        assert final["replay_log"] in page.inner_text("#replay-note")
        # the bot's move in words, and what its seat gained by it (a card, a resource)
        said = [line for line in lines if line.startswith("Greedy (seat 1): ")]
        assert any(", gains " in line for line in said), said
        bots = [m for m in final["log"] if m["by"] != "person"]
        people = [m for m in final["log"] if m["by"] == "person"]
        assert bots and people
        check_bodies(bodies(responses), hidden)
        log = tmp_path / "play-logs" / final["replay_log"]
        assert replayed_scores(log, *rules) == scores
        assert not errors, errors
    finally:
        context.close()


def test_undo_reload_and_restart(browser, serve, tmp_path):
    save = tmp_path / "save.json"
    server = serve("play", *COTTAGE, "--seed", 4, "--save", save, "--web")
    context, page, errors, _ = open_table(browser, server, 390, 844)
    try:
        rng = random.Random(2)
        for _ in range(3):
            tap_a_move(page, rng)
            settle(page)
        state = settle(page)
        assert state["moves"] == 6 and not page.locator("#undo").is_disabled()
        page.click("#undo")
        page.wait_for_function("state.moves === 4")
        assert page.inner_text("#notice").startswith("Undone: ")
        assert page.locator("#log li").count() == 4
        assert len(state_actions(save)) == 4  # saved before the page heard back
        page.reload()
        state = settle(page)
        assert state["moves"] == 4 and page.locator("#log li").count() == 4
        tap_a_move(page, rng)
        before = settle(page)
        assert before["moves"] == 6
        server.kill()
        again = serve("play", *COTTAGE, "--save", save, "--web")
        assert b"Resumed the unfinished game" in again.output
        page.goto(again.url)
        state = settle(page)
        assert state["moves"] == 6 and state["seed"] == 4
        assert state["log"] == before["log"] and state["actions"] == before["actions"]
        assert not errors, errors
    finally:
        context.close()


def state_actions(save: Path) -> list:
    return json.loads(save.read_text())["actions"]


def test_hot_seat_passes_the_device_and_hides_the_other_hand(browser, serve, tmp_path):
    server = serve("play", *DRAGONSTONE, "--seat", 0, "--seat", 1, "--seed", 3,
                   "--save", tmp_path / "save.json", "--web")  # fmt: skip
    context, page, errors, responses = open_table(browser, server, 390, 844)
    try:
        rng = random.Random(6)
        seen_both = set()
        checked_pass = False
        while len(seen_both) < 2 or not page.evaluate("state.pass_to === null"):
            state = settle(page)
            if state["pass_to"] is not None:
                assert page.locator("#pass").is_visible()
                assert not page.locator("#play").is_visible()
                assert page.locator("#board .seat").count() == 0  # not even hidden in the page
                if not checked_pass:
                    assert not axe(page, "the pass screen")
                    checked_pass = True
                who = state["names"][state["pass_to"]]
                assert page.inner_text("#pass-heading") == f"Pass the device to {who}"
                page.click("#ready")
                page.wait_for_function("state.pass_to === null")
                continue
            viewer = state["viewer"]
            seen_both.add(viewer)
            other = 1 - viewer
            hands = state["table"]["fields"]["hands"]
            assert hands[other]["hidden"] == "hands" and isinstance(hands[viewer], list)
            # on the page: the other seat's hand is backs with a count, never faces
            other_box = page.locator(f'.seat[data-seat="{other}"] [data-zone="hands"]')
            assert other_box.locator(".back").count() == 1
            assert other_box.locator(".face").count() == 0
            tap_a_move(page, rng)
        check_bodies(bodies(responses), {"deck": False, "hands": True})
        assert not errors, errors
    finally:
        context.close()


def test_a_wrong_token_is_refused(serve, tmp_path):
    import urllib.error
    import urllib.request

    server = serve("play", *COTTAGE, "--save", tmp_path / "save.json", "--web")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.base}/api/state")
    assert refused.value.code == 401
    visitor = server.visitor()
    with visitor.open(f"{server.base}/api/state") as response:
        assert json.loads(response.read())["moves"] == 0


def test_many_actions_are_grouped_by_verb_and_still_taps(browser, serve, tmp_path):
    server = serve("play", "gemstone-caverns", "--seed", 2, "--save", tmp_path / "s.json", "--web")
    context, page, errors, _ = open_table(browser, server, 1280, 800)
    try:
        rng = random.Random(4)
        grouped = 0
        for _ in range(6):
            state = settle(page)
            if len(state["actions"]) > 12:
                groups = page.locator("#choices > details.verb")
                verbs = {a["encoded"][0] for a in state["actions"]}
                assert groups.count() == len(verbs)
                buttons = page.locator("#choices button")
                assert buttons.count() == len(state["actions"])
                grouped += 1
            tap_a_move(page, rng)
        assert grouped
        # the game's own view draws each score sheet as a grid of 8 x 8 boxes
        assert page.locator('.seat[data-seat="0"] .grid .cell').count() == 64
        assert not axe(page, "a grid game")
        assert not errors, errors
    finally:
        context.close()


def test_a_component_named_by_its_place_is_tapped_there(browser, serve, tmp_path):
    # seed 2: the market is woodcutter, woodcutter, hall, and `build slot=0` is offered
    # (the same card twice is one choice): the woodcutter drawn at slot 0 takes it, the
    # one at slot 1 (the same card id) is no tap, nor is the hall the person cannot pay
    server = serve("play", *COTTAGE, "--seed", 2, "--save", tmp_path / "save.json", "--web")
    context, page, errors, _ = open_table(browser, server, 390, 844)
    try:
        state = settle(page)
        assert [a["words"] for a in state["actions"] if a["at"]] == ["build slot=0"]
        market = page.locator('[data-zone="market"] .face')
        assert market.count() == 3
        assert market.nth(0).get_attribute("data-at") == '["market",0]'
        assert market.nth(0).evaluate("node => node.classList.contains('tappable')")
        assert market.nth(1).get_attribute("data-id") == "woodcutter"
        assert market.nth(1).is_disabled() and market.nth(2).is_disabled()
        market.nth(0).click()
        page.wait_for_function("state.moves > 0")
        assert page.evaluate("state.log[0].words") == "build slot=0"
        assert not axe(page, "after a tap on a market slot")
        assert not errors, errors
    finally:
        context.close()


def test_a_spire_is_tapped_to_stack_on_it(browser, serve, tmp_path):
    server = serve("play", *DRAGONSTONE, "--seed", 4, "--save", tmp_path / "save.json", "--web")
    context, page, errors, _ = open_table(browser, server, 1280, 800)
    try:
        state = settle(page)
        while not any(a["encoded"][0] == "stack" for a in state["actions"]):
            moves = state["moves"]
            page.locator('#choices button[data-index="0"]').click()  # mine a gem
            page.wait_for_function(f"state.moves > {moves}")
            state = settle(page)
        stack = next(a for a in state["actions"] if a["encoded"][0] == "stack")
        spire = stack["encoded"][1]
        place = page.locator(f"""[data-at='["spires",{state["viewer"]},{spire}]']""")
        assert place.count() == 1
        assert place.get_attribute("role") == "button"
        assert not axe(page, "spires to tap")
        moves = state["moves"]
        place.click()
        page.wait_for_function(f"state.moves > {moves}")
        assert page.evaluate(f"state.log[{moves}].words") == f"stack spire={spire}"
        assert not errors, errors
    finally:
        context.close()


def test_a_room_of_the_mine_is_tapped_to_walk_there(browser, serve, tmp_path):
    # Gem Rush names a room by its cell: the room drawn at mine.cells["[col, row]"]
    server = serve("play", "gem-rush", "--seed", 2, "--save", tmp_path / "save.json", "--web")
    context, page, errors, _ = open_table(browser, server, 1280, 800)
    try:
        state = settle(page)
        for _ in range(30):
            if any(a["encoded"][0] == "move" for a in state["actions"]):
                break
            verbs = [a["encoded"][0] for a in state["actions"]]
            index = verbs.index("build") if "build" in verbs else 0  # open the mine up
            unfold(page, index)
            moves = state["moves"]
            page.locator(f'#choices button[data-index="{index}"]').click()
            page.wait_for_function(f"state.moves > {moves}")
            state = settle(page)
        walk = next(a for a in state["actions"] if a["encoded"][0] == "move")
        cell = walk["encoded"][1]
        assert walk["at"] == [["mine", "cells", f"[{cell[0]}, {cell[1]}]"]]
        room = page.locator(f"""[data-at='{json.dumps(walk["at"][0], separators=(",", ":"))}']""")
        assert room.count() == 1 and room.get_attribute("role") == "button"
        assert not axe(page, "rooms to tap")
        moves = state["moves"]
        room.click()
        page.wait_for_function(f"state.moves > {moves}")
        assert page.evaluate(f"state.log[{moves}].words") == walk["words"]
        assert not errors, errors
    finally:
        context.close()


def place(page, path: list) -> object:
    return page.locator(f"[data-at='{json.dumps(path, separators=(',', ':'))}']")


@pytest.mark.parametrize("by", ["taps", "keys"])
def test_a_gem_is_moved_by_two_taps_on_the_spires(browser, serve, tmp_path, by):
    """move source=S target=T names two spires: the first tap chooses S (framed, the
    moves from S marked among the buttons), Escape or a tap elsewhere lets it go, the
    tap on T moves the gem; by keys: Enter on each spire."""
    server = serve("play", *DRAGONSTONE, "--seed", 2, "--save", tmp_path / "save.json", "--web")
    context, page, errors, _ = open_table(browser, server, 390, 844)
    try:
        rng = random.Random(3)
        state = settle(page)
        for _ in range(60):
            if any(a["encoded"][0] == "move" for a in state["actions"]):
                break
            tap_a_move(page, rng)
            state = settle(page)
        viewer, moves = state["viewer"], state["moves"]
        walk = next(a for a in state["actions"] if a["encoded"][0] == "move")
        source, target = walk["encoded"][1:]
        first, second = ["spires", viewer, source], ["spires", viewer, target]
        from_source = [a for a in state["actions"] if a["at"] and a["at"][0] == first]

        def press(path: list) -> None:
            if by == "keys":
                place(page, path).focus()
                page.keyboard.press("Enter")
            else:
                place(page, path).click()

        press(first)
        page.wait_for_function("document.querySelector('.chosen') !== null")
        chosen = page.locator(".chosen")
        assert chosen.count() == 1 and chosen.get_attribute("aria-pressed") == "true"
        assert json.loads(chosen.get_attribute("data-at")) == first
        assert page.locator("#choices button.named").count() == len(from_source)
        assert page.evaluate("state.moves") == moves  # nothing played yet
        assert place(page, second).get_attribute("role") == "button"
        assert not axe(page, "a spire chosen")
        page.keyboard.press("Escape")
        page.wait_for_function("document.querySelector('.chosen') === null")
        assert page.locator("#choices button.named").count() == 0
        if by == "taps":
            press(first)
            page.wait_for_function("document.querySelector('.chosen') !== null")
            page.locator("#board h2").click()  # a tap elsewhere
            page.wait_for_function("document.querySelector('.chosen') === null")
        press(first)
        page.wait_for_function("document.querySelector('.chosen') !== null")
        press(second)
        page.wait_for_function(f"state.moves > {moves}")
        assert page.evaluate(f"state.log[{moves}].words") == walk["words"]
        assert not errors, errors
    finally:
        context.close()


def test_a_box_of_the_score_sheet_is_tapped_to_place_the_shape_there(browser, serve, tmp_path):
    # a placement names the box its top-left corner goes to: a tap there marks the
    # placements with that corner (one per quarter turn) among the buttons
    server = serve("play", "gemstone-caverns", "--seed", 2, "--save", tmp_path / "s.json", "--web")
    context, page, errors, _ = open_table(browser, server, 390, 844)
    try:
        state = settle(page)
        if state["actions"][0]["encoded"][0] == "arrange":
            unfold(page, 0)
            page.locator('#choices button[data-index="0"]').click()
            page.wait_for_function("state.moves > 0")
            state = settle(page)
        viewer = state["viewer"]
        corner = ["sheets", viewer, 2, 3]
        there = [a for a in state["actions"] if a["at"] == [corner]]
        assert len(there) > 1
        box = place(page, corner)
        assert box.count() == 1 and box.get_attribute("role") == "button"
        box.click()
        page.wait_for_function(
            f"document.querySelectorAll('#choices button.named').length === {len(there)}"
        )
        named = page.locator("#choices button.named")
        assert sorted(named.all_inner_texts()) == sorted(a["words"] for a in there)
        assert not axe(page, "boxes to tap")
        moves = state["moves"]
        named.first.click()
        page.wait_for_function(f"state.moves > {moves}")
        assert page.evaluate(f"state.log[{moves}].words") in [a["words"] for a in there]
        assert not errors, errors
    finally:
        context.close()


def test_a_chamber_card_in_hand_is_drawn_and_tapped(browser, serve, tmp_path):
    # Stonespine's engine keeps its hands as card numbers; its view names them by id, so
    # the hand is faces, and a tap on one marks the places it may go (a column each)
    server = serve(
        "play", "stonespine-architects", "--seed", 2, "--save", tmp_path / "s.json", "--web"
    )
    context, page, errors, _ = open_table(browser, server, 390, 844)
    try:
        state = settle(page)
        viewer = state["viewer"]
        hand = state["table"]["fields"]["boards"][viewer]["hand"]
        card = hand[0]
        placing = [a for a in state["actions"] if a["encoded"][:2] == ["place", card]]
        assert len(placing) == 4  # one per column of this year's row
        face = page.locator(
            f'.seat[data-seat="{viewer}"] [data-zone="hand"] .face[data-id="{card}"]'
        )
        assert face.count() == 1 and face.evaluate("node => node.classList.contains('tappable')")
        face.click()
        page.wait_for_function("document.querySelectorAll('#choices button.named').length === 4")
        named = page.locator("#choices button.named")
        assert sorted(named.all_inner_texts()) == sorted(
            a["words"].replace(card, state["components"][card]["name"]) for a in placing
        )
        moves = state["moves"]
        named.nth(2).click()
        page.wait_for_function(f"state.moves > {moves}")
        assert page.evaluate(f"state.log[{moves}].words") in [a["words"] for a in placing]
        assert not errors, errors
    finally:
        context.close()
