"""What the screenshot scripts of docs/ share (play_screens.py, preview_screens.py,
solo_screens.py): a protopress command that serves a page, started for its address;
headless Chromium; and pictures written to docs/images.

Needs Chromium (/usr/bin/chromium, or PROTOPRESS_CHROMIUM) and the playwright
package. The scripts import it as a sibling: run them from the checkout as
`.venv/bin/python docs/NAME_screens.py`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).parents[1]
OUT = Path(__file__).parent / "images"
CHROMIUM = os.environ.get("PROTOPRESS_CHROMIUM", "/usr/bin/chromium")
URL = re.compile(rb"(http://\S+\?token=\S+)")
PHONE = {"width": 390, "height": 844}


@contextmanager
def served(*args: str) -> Iterator[str]:
    """`protopress ARGS`, a command that serves a page, running: the address it prints
    (with its token). The server is stopped on leaving."""
    command = [sys.executable, "-m", "protopress", *args]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            found = URL.search(line)
            if found:
                yield found.group(1).decode()
                break
        else:
            raise SystemExit(f"protopress {' '.join(args)} printed no address")
    finally:
        server.kill()
        server.wait(10)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium, closed on leaving."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def picture(page: Page, name: str, full: bool = False, lazy_ok: bool = False) -> None:
    """docs/images/NAME.png of the page once its images are loaded (lazy ones excepted
    with lazy_ok); full takes the whole page, not only the screen."""
    loaded = "i.complete || i.loading === 'lazy'" if lazy_ok else "i.complete"
    page.wait_for_function(f"[...document.images].every(i => {loaded})")
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=full)
    print(f"docs/images/{name}.png")
