"""The solo page as a player at the table uses it, on phones of 390x844 and
320x568: a whole game by taps with the companion's last words and the next
question in view after every answer, a double tap that answers once, a second
tap that unpicks, the end screen without sideways scrolling, undo and redo,
a reload and two tabs, an expired address, and axe-core (vendored in
tests/web/vendor/axe-core) with no serious or critical finding in any state."""

from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog

from .test_solo_page import NORMAL, WAIT, _post, answered, question, saved, tap, wait_answers

pytestmark = pytest.mark.browser
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
PHONES = {"390x844": (390, 844), "320x568": (320, 568)}
CATALOG = load_catalog(builtin_catalog_path("stonespine-architects"))
# ids a player never types, which the page must show by their names
HYPHENATED_IDS = sorted(
    c.id
    for kind in ("chamber-card", "goal-card", "challenge-card", "market-token", "rival-card")
    for c in CATALOG.of_kind(kind)
    if "-" in c.id
)

IN_VIEW = """() => {
  const below = document.getElementById('top').getBoundingClientRect().bottom - 1;
  const fits = (id) => {
    const node = document.getElementById(id);
    if (node.hidden) return null;
    const box = node.getBoundingClientRect();
    return box.top >= below && box.bottom <= innerHeight;
  };
  return {said: fits('said'), prompt: fits('prompt'), headline: fits('headline')};
}"""


@pytest.fixture(params=list(PHONES))
def handset(browser, request):
    """A page on a phone of each size, with axe-core loaded; JavaScript errors fail the test."""
    width, height = PHONES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def phone_pair(browser):
    """Two tabs of one phone (390x844)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(path=str(AXE))
    pages = (context.new_page(), context.new_page())
    yield pages
    context.close()


def axe(page, state: str) -> list[str]:
    """The serious and critical findings of axe-core on the page as it is now."""
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{state}: {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:3]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def start(serve, tmp_path, *more):
    return serve(
        "solo", "stonespine-architects", "--web", "--seed", 3, "--save", tmp_path / "s.json", *more
    )


def test_a_whole_game_by_taps_keeps_the_next_step_in_view(handset, serve, tmp_path):
    server = start(serve, tmp_path)
    handset.goto(server.url)
    wait_answers(handset, 0)
    findings = axe(handset, "the goal")
    handset.click("#help-button")  # the rule of the step, opened
    findings += axe(handset, "help")
    seen_kinds = {"cards-1"}
    out_of_view = []
    for number, text in enumerate(NORMAL, start=1):
        q = question(handset)
        tap(handset, text)
        view = handset.evaluate(IN_VIEW)
        shown = view["prompt"] if handset.evaluate("state.question") else view["headline"]
        if not shown or view["said"] is False:
            out_of_view.append((number, q["where"], view))
        after = handset.evaluate("state.question")
        kind = "end" if after is None else f"{after['kind']}-{after['options'].get('most', '')}"
        if kind not in seen_kinds:  # each kind of question (and the end), checked once
            seen_kinds.add(kind)
            findings += axe(handset, kind)
    assert out_of_view == []
    assert {
        "cards-3",
        "number-",
        "choice-",
        "purchase-",
        "tokens-",
        "numbers-",
        "market-3",
        "end",
    } <= seen_kinds

    # the end: the score first, in two columns, and nothing wider than the phone
    assert handset.inner_text("#headline") == "You 79 - Rival 68: you win by 11"
    assert handset.evaluate("document.activeElement.id") == "headline"
    assert handset.evaluate("document.documentElement.scrollWidth <= innerWidth")
    width = handset.viewport_size["width"]
    score = handset.locator("#score").bounding_box()
    assert score["x"] >= 0 and score["x"] + score["width"] <= width
    # the game log: every step in words, newest first; no id on screen anywhere
    log = handset.locator("#log > li")
    assert log.count() == len(NORMAL) + 1
    assert (
        log.nth(len(NORMAL) - 1)
        .inner_text()
        .startswith("Setup: the goal card: you answered Monster Menagerie")
    )
    assert "Year 1, the rival collects: you answered Ogre, Spike Pit" in handset.inner_text("#log")
    body = handset.inner_text("body")
    assert [i for i in HYPHENATED_IDS if i in body] == []
    handset.wait_for_selector("#games tbody tr", timeout=WAIT)  # the game is in the history
    assert "normal\t3\t79\t68\twon" in handset.inner_text("#games tbody tr")
    findings += axe(handset, "the end with its history")
    assert findings == []


SMALL = """() => [...document.querySelectorAll('button, a, input, select, summary')]
  .filter((n) => n.offsetParent !== null)
  .map((n) => [n.id || n.className || n.tagName, n.getBoundingClientRect()])
  .filter(([, box]) => box.height < 44 || box.width < 44)
  .map(([name, box]) => `${name} ${Math.round(box.width)}x${Math.round(box.height)}`)"""


def test_every_control_is_big_enough_to_tap(handset, serve, tmp_path):
    server = start(serve, tmp_path)
    handset.goto(server.url)
    wait_answers(handset, 0)
    tap(handset, NORMAL[0])
    findings = axe(handset, "the market laid out")
    small = handset.evaluate(SMALL)
    tap(handset, NORMAL[1])  # construction: cards, filter, +1 copy
    handset.click('.card[data-id="sinkhole-shaft"]')
    handset.click("#typed summary")
    handset.click("#new-game summary")
    small += handset.evaluate(SMALL)
    assert small == []
    assert findings == []


def test_a_double_tap_answers_once_and_a_second_tap_unpicks(handset, serve, tmp_path):
    save = tmp_path / "s.json"
    server = start(serve, tmp_path)
    handset.goto(server.url)
    wait_answers(handset, 0)
    tap(handset, NORMAL[0])
    tap(handset, NORMAL[1])
    # a second tap on a picked card unpicks it; another copy has its own control
    card = '.card[data-id="sinkhole-shaft"]'
    handset.click(card)
    assert handset.get_attribute(card, "aria-pressed") == "true"
    assert handset.inner_text("#confirm") == "Confirm: Sinkhole Shaft"
    handset.click(card)
    assert handset.get_attribute(card, "aria-pressed") == "false"
    assert handset.inner_text("#confirm") == "Confirm: none"
    handset.click(card)
    handset.click('.tile:has(.card[data-id="sinkhole-shaft"]) .more')
    assert handset.inner_text("#confirm") == "Confirm: Sinkhole Shaft, Sinkhole Shaft"
    handset.click(card)
    assert handset.inner_text("#confirm") == "Confirm: none"
    # "None of these" on four turns in a row: each double tap answers one turn
    for turn, gap in enumerate((250, 600, 950), start=1):
        before = answered(handset)
        handset.locator("#none").scroll_into_view_if_needed()
        none = handset.locator("#none").bounding_box()
        x, y = none["x"] + none["width"] / 2, none["y"] + none["height"] / 2
        handset.mouse.click(x, y)
        handset.wait_for_timeout(gap)
        handset.mouse.click(x, y)
        wait_answers(handset, before + 1)
        assert handset.inner_text("#done") == f"Year 1, construction turn {turn} done: none."
        handset.wait_for_function("!document.getElementById('answer').disabled", timeout=WAIT)
        handset.wait_for_timeout(300)  # any second answer would have come back by now
        assert answered(handset) == before + 1, f"a double tap {gap} ms apart answered twice"
    answers = saved(save)["answers"]
    assert answers[0] == "monster-menagerie" and answers[2:] == ["none", "none", "none"]
    # the server refuses an answer meant for the step before, whatever the count says
    status, body = _post(
        server,
        "/api/answer",
        {"text": "none", "after": 5, "step": "year 1, construction turn 3"},
    )
    assert status == 409 and body["answers"] == 5
    assert (
        "for year 1, construction turn 3, but the game is at year 1, construction turn 4"
        in (body["error"])
    )


def test_undo_and_redo_a_reload_and_two_tabs(phone_pair, serve, tmp_path):
    first, second = phone_pair
    server = start(serve, tmp_path)
    first.goto(server.url)
    wait_answers(first, 0)
    for text in NORMAL[:10]:
        tap(first, text)
    before = first.evaluate("({rival: state.rival, log: state.log, facts: state.facts})")
    first.click("#undo")
    wait_answers(first, 9)
    assert first.inner_text("#notice") == "Undone: Ogre, Spike Pit (year 1, the rival collects)."
    assert first.evaluate("document.activeElement.id") == "prompt"
    first.click("#redo")
    wait_answers(first, 10)
    assert first.inner_text("#notice") == "Redone: Ogre, Spike Pit (year 1, the rival collects)."
    assert first.evaluate("({rival: state.rival, log: state.log, facts: state.facts})") == before
    first.fill("#undo-count", "3")
    first.click("#undo-many")
    wait_answers(first, 7)
    assert first.inner_text("#notice") == "Undone: 3 answers, back to year 1, the market."
    first.click("#typed summary")
    first.fill("#type-text", "maybe")
    first.click("#type-form button")
    first.wait_for_selector("#error:not([hidden])", timeout=WAIT)  # a refused answer
    assert axe(first, "undone, a refused answer, typing open") == []
    for n in (8, 9, 10):
        first.click("#redo")
        wait_answers(first, n)
    assert first.is_disabled("#redo")
    assert first.evaluate("({rival: state.rival, log: state.log, facts: state.facts})") == before

    # a reload mid-game: the same step, the same log
    first.reload()
    wait_answers(first, 10)
    assert first.evaluate("({rival: state.rival, log: state.log, facts: state.facts})") == before

    # two tabs: an answer in one shows in the other, which can go on from there
    second.goto(server.url)
    wait_answers(second, 10)
    tap(first, NORMAL[10])
    wait_answers(second, 11)  # the other tab looks every few seconds
    tap(second, NORMAL[11])
    wait_answers(first, 12)
    assert first.inner_text("#prompt") == second.inner_text("#prompt")
    assert len(saved(tmp_path / "s.json")["answers"]) == 12


def test_an_expired_address_says_so(handset, serve, tmp_path):
    """protopress started again has a new token: the page says so, and where to go."""
    server = start(serve, tmp_path)
    handset.goto(server.url)
    wait_answers(handset, 0)
    handset.route("**/api/**", lambda route: route.fulfill(status=403, body="forbidden"))
    handset.click('.card[data-id="monster-menagerie"]')
    handset.wait_for_selector("#error:not([hidden])", timeout=WAIT)
    error = handset.inner_text("#error")
    assert "This page's address has expired" in error and "SyntaxError" not in error
    assert handset.get_attribute("#error a", "href") == server.base + "/"
    assert axe(handset, "expired") == []


def test_redo_is_kept_when_protopress_is_started_again(phone_pair, serve, tmp_path):
    first, _ = phone_pair
    server = start(serve, tmp_path)
    first.goto(server.url)
    wait_answers(first, 0)
    for text in NORMAL[:4]:
        tap(first, text)
    given = saved(tmp_path / "s.json")["answers"]
    first.fill("#undo-count", "2")
    first.click("#undo-many")
    wait_answers(first, 2)
    server.kill()
    again = start(serve, tmp_path)
    first.goto(again.url)
    wait_answers(first, 2)
    assert not first.is_disabled("#redo")
    for n in (3, 4):
        first.click("#redo")
        wait_answers(first, n)
    assert first.is_disabled("#redo")
    assert saved(tmp_path / "s.json")["answers"] == given  # the same answers again
