"""Make the screenshots of the live preview in docs/preview.md (docs/images/preview*.png).

Starts `protopress preview` on a copy of the Cottage Market example, opens it in
headless Chromium and takes a picture on a laptop (1440x900) with a face
selected, on a phone (390x844), and of one face opened full size. Needs
Chromium (/usr/bin/chromium, or PROTOPRESS_CHROMIUM) and the playwright
package. Run from the checkout:

    .venv/bin/python docs/preview_screens.py
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from playwright.sync_api import Page
from screens import OUT, PHONE, ROOT, chromium, served

LAPTOP = {"width": 1440, "height": 900}
EXAMPLE = ROOT / "examples" / "cottage-market"


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
        with (
            served("preview", str(game / "catalog.json"), "--port", "0") as url,
            chromium() as browser,
        ):
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


if __name__ == "__main__":
    main()
