"""Make the screenshots of the playtest table in docs/play.md (docs/images/play-*.png).

Starts `protopress play GAME --web` for each game on a new save with a fixed
seed, opens it in headless Chromium and plays by tapping the first action
listed, taking a picture of the screen at each stage: Cottage Market on a
phone (390x844), DragonStone level 1 on a laptop (1280x800), every other
built-in game once on a laptop, and the pass-the-device screen of a hot seat
game. Needs Chromium (/usr/bin/chromium, or PROTOPRESS_CHROMIUM) and the
playwright package. Run from the checkout:

    .venv/bin/python docs/play_screens.py
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page
from screens import PHONE, ROOT, chromium, picture, served

LAPTOP = {"width": 1280, "height": 800}
COTTAGE = [
    "cottage-market",
    "--rules",
    str(ROOT / "examples" / "cottage-market" / "rules.py"),
    "--catalog",
    str(ROOT / "examples" / "cottage-market" / "catalog.json"),
]
SETTLED = "state && !busy && (state.over || state.pass_to !== null || state.actions.length > 0)"


@contextmanager
def table(folder: str, *args: str) -> Iterator[str]:
    """`protopress play ARGS --web` on a new save in folder: its address."""
    save = Path(folder) / f"save-{len(list(Path(folder).iterdir()))}.json"
    with served("play", *args, "--save", str(save), "--web", "--port", "0") as url:
        yield url


def opened(browser: Browser, url: str, viewport: dict[str, int]) -> Page:
    page = browser.new_page(viewport=viewport)
    page.add_init_script("localStorage.setItem('protopress-table-speed', '150')")
    page.goto(url)
    page.wait_for_function(SETTLED)
    return page


def moves(page: Page, count: int) -> None:
    """count moves of the person, each by a tap on the first action listed."""
    for _ in range(count):
        page.wait_for_function(SETTLED)
        if page.evaluate("state.over || state.pass_to !== null"):
            return
        before = page.evaluate("state.moves")
        groups = page.locator('#choices details:has(button[data-index="0"])')
        for number in range(groups.count()):  # folded groups of many actions: open them
            if not groups.nth(number).evaluate("node => node.open"):
                groups.nth(number).locator("> summary").click()
        page.locator('#choices button[data-index="0"]').click()
        page.wait_for_function(f"state.moves > {before}")
    page.wait_for_function(SETTLED)


def shot(page: Page, name: str, full: bool = False) -> None:
    picture(page, f"play-{name}", full, lazy_ok=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        with table(folder, *COTTAGE, "--seed", "9") as url:
            page = opened(browser, url, PHONE)
            moves(page, 3)
            shot(page, "cottage-market-phone")
            page.evaluate("document.getElementById('board').scrollIntoView()")
            shot(page, "cottage-market-phone-table")
            while not page.evaluate("state.over"):
                moves(page, 10)
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, "cottage-market-phone-end")
            page.close()
        with table(folder, "dragonstone-mine", "--option", "level=1", "--seed", "4") as url:
            page = opened(browser, url, LAPTOP)
            moves(page, 8)
            shot(page, "dragonstone-mine-laptop")
            page.close()
        for game in ("gem-rush", "stonespine-architects", "gemstone-caverns"):
            with table(folder, game, "--seed", "2") as url:
                page = opened(browser, url, LAPTOP)
                moves(page, 4)
                shot(page, f"{game}-laptop")
                page.close()
        with table(folder, "dragonstone-mine", "--option", "level=1", "--seat", "0", "--seat",
                   "1", "--seed", "3") as url:  # fmt: skip
            page = opened(browser, url, PHONE)
            while not page.evaluate("state.pass_to !== null"):
                moves(page, 1)
            shot(page, "hot-seat-pass")
            page.close()


if __name__ == "__main__":
    main()
