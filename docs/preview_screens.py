"""Make the screenshots of the live preview in docs/preview.md (docs/images/preview*.png).

Starts `protopress preview` on a copy of the Cottage Market example, opens it in
headless Chromium and takes a picture on a laptop (1440x900) with a face
selected, on a phone (390x844), and of one face opened full size. Needs
Chromium (/usr/bin/chromium, or PROTOPRESS_CHROMIUM) and the playwright
package. Run from the checkout:

    .venv/bin/python docs/preview_screens.py
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).parents[1]
OUT = Path(__file__).parent / "images"
CHROMIUM = os.environ.get("PROTOPRESS_CHROMIUM", "/usr/bin/chromium")
URL = re.compile(rb"(http://\S+\?token=\S+)")
LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
EXAMPLE = ROOT / "examples" / "cottage-market"


@contextmanager
def preview(catalog: Path) -> Iterator[str]:
    """`protopress preview CATALOG`: its address."""
    command = [sys.executable, "-m", "protopress", "preview", str(catalog), "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            found = URL.search(line)
            if found:
                yield found.group(1).decode()
                break
        else:
            raise SystemExit("protopress preview printed no address")
    finally:
        server.kill()
        server.wait(10)


def drawn(page: Page) -> None:
    """Wait for the page's first version and every face in view to be drawn."""
    page.wait_for_function("Number(document.body.dataset.version) > 0")
    page.wait_for_function(
        "[...document.querySelectorAll('#kinds img')].filter((i) => {"
        " const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })"
        ".every((i) => i.complete && i.naturalWidth > 0)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "cottage-market"
        shutil.copytree(EXAMPLE, game)
        with preview(game / "catalog.json") as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            laptop = browser.new_page(viewport=LAPTOP)
            laptop.goto(url)
            drawn(laptop)
            laptop.locator("#kinds .face:has(img)").nth(1).click()
            drawn(laptop)
            laptop.screenshot(path=OUT / "preview.png")
            laptop.keyboard.press("Enter")
            laptop.wait_for_function(
                "document.getElementById('viewer-image').complete"
                " && document.getElementById('viewer-image').naturalWidth > 0"
            )
            laptop.screenshot(path=OUT / "preview-full-size.png")
            phone = browser.new_page(viewport=PHONE)
            phone.goto(url)
            drawn(phone)
            phone.screenshot(path=OUT / "preview-phone.png")
            browser.close()


if __name__ == "__main__":
    main()
