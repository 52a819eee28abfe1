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

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).parents[1]
OUT = Path(__file__).parent / "images"
CHROMIUM = os.environ.get("PROTOPRESS_CHROMIUM", "/usr/bin/chromium")
URL = re.compile(rb"(http://\S+\?token=\S+)")
PHONE = {"width": 390, "height": 844}
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
    command = [sys.executable, "-m", "protopress", "play", *args, "--save", str(save), "--web",
               "--port", "0"]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            found = URL.search(line)
            if found:
                yield found.group(1).decode()
                break
        else:
            raise SystemExit(f"protopress printed no address for {' '.join(args)}")
    finally:
        server.kill()
        server.wait(10)


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
    page.wait_for_function("[...document.images].every(i => i.complete || i.loading === 'lazy')")
    page.screenshot(path=str(OUT / f"play-{name}.png"), full_page=full)
    print(f"docs/images/play-{name}.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
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
        browser.close()


if __name__ == "__main__":
    main()
