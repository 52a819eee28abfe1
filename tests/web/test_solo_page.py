"""The solo companion page in a real browser: a whole game by taps (begun in the
terminal, so a save goes across front ends), undo of one and of several, a
reload mid-game, the server killed and restarted with nothing acknowledged
lost, the history with its CSV, and the token."""

import importlib.util
import io
import json
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games.stonespine_architects.solo import answers
from protopress.games.stonespine_architects.solo.book import Book, MarketRow
from protopress.games.stonespine_architects.solo.engine import replayed
from protopress.games.stonespine_architects.solo.names import parse_list
from protopress.games.stonespine_architects.solo_session import run_session


def _scripted_session():
    """The scripted answers of the terminal session's own tests (seed 3, normal)."""
    path = Path(__file__).parents[1] / "games" / "stonespine_architects" / "test_solo_session.py"
    spec = importlib.util.spec_from_file_location("_scripted_solo_page", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.NORMAL, module.NORMAL_RESULT


NORMAL, NORMAL_RESULT = _scripted_session()
pytestmark = pytest.mark.browser
CATALOG = load_catalog(builtin_catalog_path("stonespine-architects"))
BOOK = Book(CATALOG)
NAMES = {
    "chamber-card": BOOK.chamber_names,
    "goal-card": BOOK.goal_names,
    "challenge-card": BOOK.challenge_names,
}
WAIT = 30_000  # ms: only reached when something is wrong (or the machine is very busy)


def question(page) -> dict:
    return page.evaluate("state.question")


def answered(page) -> int:
    return page.evaluate("state.answers")


def wait_answers(page, n: int) -> None:
    try:
        page.wait_for_function(f"state && state.answers === {n}", timeout=WAIT)
    except PlaywrightTimeout:  # say what the page shows, to find the cause
        shown = page.evaluate(
            "({answers: state && state.answers, prompt: document.getElementById('prompt')"
            ".textContent, error: document.getElementById('error').textContent})"
        )
        raise AssertionError(f"answer {n} never acknowledged; the page shows {shown}") from None


def nothing(text: str) -> bool:
    return text.strip().lower() in ("", "none")


def tap(page, text: str) -> None:
    """Give the terminal's answer `text` with the page's taps, and wait until it is saved."""
    before = answered(page)
    q = question(page)
    kind, options = q["kind"], q["options"]
    if kind == "cards":
        picked = Counter([] if nothing(text) else parse_list(text, NAMES[options["kind"]]))
        if not picked:
            page.click("#none")  # the frequent answer, first
        elif options["most"] == 1:
            page.click(f'.card[data-id="{next(iter(picked))}"]')  # the tap is the answer
        else:
            for ident, n in picked.items():  # in the order named: challenges left to right
                page.click(f'.card[data-id="{ident}"]')
                for _ in range(n - 1):
                    page.click(f'.tile:has(.card[data-id="{ident}"]) .more')
            page.click("#confirm")
    elif kind == "number":
        for digit in text:
            page.click(f'.key[data-key="{digit}"]')
        page.click('.key[data-key="OK"]')
    elif kind == "choice":
        page.click(f'.choice[data-choice="{"buy" if text.startswith("b") else "pass"}"]')
    elif kind == "purchase":
        rows = [MarketRow("", 0, r["cost"], tuple(r["tokens"])) for r in options["rows"]]
        row = answers.tracked_purchase(BOOK, 99, rows, text)
        page.click(f'.market-row[data-answer="{row.cost} {" ".join(row.tokens)}"]')
    elif kind == "market":
        lay_out_market(page, text)
    elif kind == "tokens":
        specials = ("empty",) if "exactly" in options else ()
        tokens = Counter([] if nothing(text) else BOOK.rival_tokens(text, specials))
        tracked = q["default"] not in (None, "none") and Counter(BOOK.rival_tokens(q["default"]))
        if tracked and (text == "" or tokens == tracked):
            page.click("#tracked")  # the market as the companion tracked it: one tap
        elif not tokens:
            page.click("#none")
        else:
            for ident, n in tokens.items():
                for _ in range(n):
                    page.click(f'.counter[data-id="{ident}"] .plus')
            page.click("#confirm")
    elif kind == "numbers":
        for field, value in zip(
            page.query_selector_all(".counter input"), text.split(), strict=True
        ):
            field.fill(value)
        page.click("#confirm")
    else:
        raise AssertionError(f"no taps for {kind}")
    wait_answers(page, before + 1)


def lay_out_market(page, text: str) -> None:
    """Choose each market card, then the token on each place of its rows."""
    for number, part in enumerate(text.split(";"), start=1):
        name, rows = part.split(":")
        card = BOOK.market_card_names.find(name)
        page.select_option(f'.market-card[data-slot="{number}"]', card)
        laid = page.locator(".market-laid").nth(number - 1)
        for row_number, row_text in enumerate(rows.split("/"), start=1):
            tokens = BOOK.rival_tokens(row_text)
            _, elements = BOOK.market_rows[card][row_number - 1]
            places = laid.locator(f'.market-row-laid[data-row="{row_number}"] select')
            choosing = []  # a token of each place that offers a choice, in the card's order
            for element in elements:
                token = next(t for t in tokens if BOOK.tokens[t].element == element)
                tokens.remove(token)
                if len(BOOK.kinds_of[element]) > 1:
                    choosing.append(token)
            assert places.count() == len(choosing), (name, row_text)
            for place, token in enumerate(choosing):
                if places.nth(place).input_value() != token:  # the first kind is shown
                    places.nth(place).select_option(token)
    page.click("#confirm")


def saved(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_whole_game_by_taps(phone, serve, tmp_path):
    save = tmp_path / "game.json"
    # begun in the terminal: the first 14 answers, then the input ends
    code = run_session(
        CATALOG,
        io.StringIO("".join(a + "\n" for a in NORMAL[:14])),
        io.StringIO(),
        seed=3,
        save_path=save,
    )
    assert code == 1 and saved(save)["answers"] == NORMAL[:14]

    server = serve("solo", "stonespine-architects", "--web", "--save", save)
    assert b"Resumed the unfinished game" in server.output
    phone.goto(server.url)
    wait_answers(phone, 14)
    assert (
        phone.inner_text("#prompt") == "Turn 2 of 4: which of the 2 cards you leave show the Rune?"
    )
    # the rival's piles and reputation are shown
    rival = replayed(BOOK, "normal", 3, NORMAL[:14]).rival
    assert phone.inner_text("#reputation") == f"Reputation {rival.reputation().total}"
    assert f"({len(rival.chambers)}, " in phone.inner_text("#chamber-count")

    for text in NORMAL[14:17]:
        tap(phone, text)
    # a typo: gold 18 instead of 8; undo it, and the answer before, by taps
    tap(phone, "18")
    phone.click("#undo")
    wait_answers(phone, 17)
    phone.click("#undo")
    wait_answers(phone, 16)
    assert saved(save)["answers"][:14] == NORMAL[:14]  # the terminal's, as typed
    assert len(saved(save)["answers"]) == 16  # undo is saved at once
    tap(phone, NORMAL[16])
    # a refused answer: the engine's reason, nothing recorded
    phone.click("#typed summary")
    phone.fill("#type-text", "99")
    phone.click("#type-form button")
    phone.wait_for_selector("#error:not([hidden])", timeout=WAIT)
    assert "Gold runs from 0 to 30; 99 is not possible." in phone.inner_text("#error")
    assert answered(phone) == 17
    # help quotes the rule of the step
    phone.click("#help-button")
    assert "count your gold" in phone.inner_text("#help")
    tap(phone, NORMAL[17])

    # a reload mid-game resumes where it was
    phone.reload()
    wait_answers(phone, 18)
    assert phone.inner_text("#prompt") == "Buy a row or pass? (buy/pass)"

    for text in NORMAL[18:27]:
        tap(phone, text)
    # the server is killed right after an acknowledged answer, and started again
    server.kill()
    assert len(saved(save)["answers"]) == 27  # every answer the page showed as taken
    server = serve("solo", "stonespine-architects", "--web", "--save", save)
    phone.goto(server.url)
    wait_answers(phone, 27)

    # undo several: three answers back, then on by taps
    for text in NORMAL[27:32]:
        tap(phone, text)
    phone.fill("#undo-count", "3")
    phone.click("#undo-many")
    wait_answers(phone, 29)
    for text in NORMAL[29:]:
        tap(phone, text)

    assert phone.is_hidden("#prompt")  # no question: the end screen instead
    # the end: the score in a headline, then line by line in two columns
    assert phone.inner_text("#headline") == "You 79 - Rival 68: you win by 11"
    rows = phone.eval_on_selector_all(
        "#score tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert rows[0] == ["Final gold: 5 against 5", "6", ""]
    assert rows[-1] == ["Total", "79", "68"]
    assert ["Stars on its 24 tokens", "", "28"] in rows
    data = saved(save)
    assert len(data["answers"]) == len(NORMAL) and data["complete"] is True
    # the finished game is in the history, on the page and as CSV
    phone.wait_for_selector("#games tbody tr", timeout=WAIT)
    row = phone.inner_text("#games tbody tr")
    assert "normal\t3\t79\t68\twon" in row
    with server.visitor().open(f"{server.base}/history.csv") as response:
        csv = response.read().decode()
    assert csv.splitlines()[0] == "date,difficulty,seed,you,rival,result"
    assert csv.splitlines()[1].endswith(",normal,3,79,68,won")

    # and the terminal resumes the game the page finished
    out = io.StringIO()
    assert run_session(CATALOG, io.StringIO(), out, resume_path=save) == 0
    assert NORMAL_RESULT in out.getvalue()


def test_a_wrong_or_missing_token_is_refused(phone, serve, tmp_path):
    server = serve(
        "solo", "stonespine-architects", "--web", "--seed", 3, "--save", tmp_path / "s.json"
    )
    for path in (
        "/",
        "/api/state",
        "/static/solo.js",
        "/face/goal-card/monster-menagerie/front.png",
    ):
        for query in ("", "?token=wrong"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(server.base + path + query)
            assert refused.value.code == 401, path + query
    response = phone.goto(server.base + "/?token=" + server.token[:-1])
    assert response.status == 401
    assert "open the address protopress printed" in phone.inner_text("body")
    response = phone.goto(server.url)
    assert response.status == 200
    phone.wait_for_selector('.card[data-id="monster-menagerie"] img', timeout=WAIT)
    tap(phone, "Monster Menagerie")


def test_nothing_moves_when_the_card_pictures_arrive(phone, serve, tmp_path):
    """A tap aimed before the pictures load must land where it was aimed: each
    picture keeps its room from the start (the cause of taps that went nowhere)."""
    held = []
    phone.route("**/face/**", lambda route: held.append(route))
    server = serve(
        "solo", "stonespine-architects", "--web", "--seed", 3, "--save", tmp_path / "s.json"
    )
    phone.goto(server.url)
    last_card = ".cards .tile:last-child .card"  # below every picture of the grid
    phone.wait_for_selector(last_card, timeout=WAIT)
    before = phone.locator(last_card).bounding_box()
    assert held, "the card pictures are requested"
    while held:
        held.pop().continue_()
        phone.wait_for_timeout(10)
    phone.wait_for_function(
        "[...document.querySelectorAll('.card img')].every(i => i.complete && i.naturalWidth)",
        timeout=WAIT,
    )
    assert phone.locator(last_card).bounding_box() == before


def _post(server, path: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{server.base}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with server.visitor().open(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_an_answer_sent_twice_is_taken_once(serve, tmp_path):
    """The page says how many answers it saw; a second copy of a request (sent
    again after its reply was lost, or from another window) changes nothing."""
    server = serve(
        "solo", "stonespine-architects", "--web", "--seed", 3, "--save", tmp_path / "s.json"
    )
    status, first = _post(server, "/api/answer", {"text": NORMAL[0], "after": 0})
    assert status == 200 and first["answers"] == 1
    status, again = _post(server, "/api/answer", {"text": NORMAL[0], "after": 0})
    assert status == 409 and again["answers"] == 1
    assert "at 1 answer, not the 0 this page saw" in again["error"]
    status, undone = _post(server, "/api/undo", {"count": 1, "after": 5})
    assert status == 409 and undone["answers"] == 1  # an undo for another point: refused
    assert _post(server, "/api/answer", {"text": NORMAL[1], "after": "1"})[0] == 400
    assert saved(tmp_path / "s.json")["answers"] == NORMAL[:1]


def test_a_lost_reply_is_sent_again_and_taken_once(phone, serve, tmp_path):
    """The server takes an answer but its reply never reaches the page: the page
    sends it once more and shows the game as it is, the answer counted once."""
    save = tmp_path / "s.json"
    server = serve("solo", "stonespine-architects", "--web", "--seed", 3, "--save", save)
    lost = []

    def drop_the_first_reply(route):
        if not lost:
            lost.append(route.fetch())  # reaches the server, which saves the answer
            route.abort("connectionreset")
        else:
            route.continue_()

    phone.route("**/api/answer**", drop_the_first_reply)
    phone.goto(server.url)
    wait_answers(phone, 0)
    tap(phone, NORMAL[0])
    assert lost and lost[0].status == 200
    assert saved(save)["answers"] == ["monster-menagerie"]  # once (the page answers by id)
    assert "here is where it is now" in phone.inner_text("#error")


def test_a_new_game_over_an_unfinished_one_asks_first_and_keeps_it(serve, tmp_path):
    """POST /api/new no longer throws an unfinished game away: without `leave` it is
    refused (409, the game as it was); with it the unfinished game is kept beside the
    save, to resume, and the page says where."""
    save = tmp_path / "s.json"
    server = serve("solo", "stonespine-architects", "--web", "--seed", 3, "--save", save)
    assert _post(server, "/api/answer", {"text": NORMAL[0], "after": 0})[0] == 200
    status, refused = _post(server, "/api/new", {"difficulty": "hard", "seed": 9})
    assert status == 409 and refused["answers"] == 1
    assert "This game is not finished" in refused["error"]
    assert saved(save)["answers"] == NORMAL[:1]
    status, fresh = _post(server, "/api/new", {"difficulty": "hard", "seed": 9, "leave": True})
    assert status == 200 and fresh["answers"] == 0
    kept = tmp_path / "s.unfinished-1.json"
    assert saved(kept)["answers"] == NORMAL[:1] and saved(save)["answers"] == []
    assert fresh["notice"] == "The unfinished game is kept in s.unfinished-1.json."
    # a new game with no answer yet is left without asking
    assert _post(server, "/api/new", {"difficulty": "normal", "seed": 4})[0] == 200
