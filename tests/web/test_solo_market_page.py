"""The tracked market on the phone (390x844): the market laid out once per refill,
and passing confirmed with one tap, for a whole seeded game."""

import importlib.util
from pathlib import Path

import pytest

from protopress.games.stonespine_architects.solo.book import YEARS

from .test_solo_page import NORMAL, question, saved, tap, wait_answers


def _tracked_game():
    """The engine test's game: its passing answers and its last market."""
    folder = Path(__file__).parents[1] / "games" / "stonespine_architects"
    path = folder / "test_solo_market_tracked.py"
    spec = importlib.util.spec_from_file_location("games.stonespine_architects.tracked", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PASSING, module.LAST_MARKET


PASSING, LAST_MARKET = _tracked_game()
pytestmark = pytest.mark.browser
# every tap and every choice in a list, counted by the page
COUNT_TAPS = """() => {
  window.taps = 0;
  document.addEventListener('click', (e) => { if (e.isTrusted) window.taps++; }, true);
  document.addEventListener('change', () => { window.taps++; }, true);
}"""


def test_passing_is_one_tap_on_the_tracked_market(phone, serve, tmp_path):
    script = list(NORMAL)
    for index in PASSING:
        script[index] = ""  # what the companion tracked
    script[29] = LAST_MARKET
    save = tmp_path / "s.json"
    server = serve("solo", "stonespine-architects", "--web", "--seed", 3, "--save", save)
    phone.goto(server.url)
    wait_answers(phone, 0)
    phone.evaluate(COUNT_TAPS)
    passes = []
    for index, text in enumerate(script):
        if index in PASSING:
            q = question(phone)
            assert q["where"].endswith("passing")
            label = phone.inner_text("#tracked")
            assert label == "Confirm: " + q["options"]["tracked"]
            # no second, contrary "Confirm: none" under the counters until they count
            assert not phone.locator("#confirm").is_visible()
            if index == PASSING[0]:
                phone.locator(".counter .plus").first.click()
                assert phone.inner_text("#confirm") == "Confirm"
                phone.locator(".counter .minus").first.click()
                assert not phone.locator("#confirm").is_visible()
            before = phone.evaluate("window.taps")
            tap(phone, text)
            passes.append(phone.evaluate("window.taps") - before)
        else:
            tap(phone, text)
    assert passes == [1] * YEARS
    answers = saved(save)["answers"]
    # the one tap answers the tracked remainder, as the terminal would type it
    assert answers[PASSING[0]] == (
        "8 goblin, treasure-chest, 4 spike-pit, flame-jet, secret-passage, ogre"
    )
    assert phone.inner_text("#headline").startswith("You ")
