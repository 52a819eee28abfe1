"""Make the screenshots of the solo companion page in docs/solo.md (docs/images/solo-*.png).

Starts `protopress solo stonespine-architects --web` on a new save (seed 3,
normal), opens it in headless Chromium at a phone's 390x844 and plays the
terminal tests' scripted game (tests/games/stonespine_architects), taking a
picture of the screen at each stage. Needs Chromium (/usr/bin/chromium, or
PROTOPRESS_CHROMIUM) and the playwright package. Run from the checkout:

    .venv/bin/python docs/solo_screens.py
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from playwright.sync_api import Page
from screens import PHONE, ROOT, chromium, picture, served


def scripted_answers() -> list[str]:
    """The answers of the terminal session's tests (seed 3, normal): a whole game."""
    path = ROOT / "tests" / "games" / "stonespine_architects" / "test_solo_session.py"
    spec = importlib.util.spec_from_file_location("_scripted_solo_screens", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot read {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.NORMAL)


def answer(page: Page, text: str) -> None:
    """Answer as a tap does (the page's own answer call), and wait for the next step."""
    before = page.evaluate("state.answers")
    page.evaluate("text => answerer(state)(text)", text)
    page.wait_for_function(
        f"state.answers === {before + 1} && !document.getElementById('answer').disabled"
    )


def shot(page: Page, name: str) -> None:
    picture(page, f"solo-{name}")


def main() -> None:
    answers = scripted_answers()
    with tempfile.TemporaryDirectory() as folder:
        save = str(Path(folder) / "game.json")
        command = ["solo", "stonespine-architects", "--web", "--seed", "3", "--save", save]
        with served(*command, "--port", "0") as url, chromium() as browser:
            page = browser.new_page(viewport=PHONE)
            page.goto(url)
            page.wait_for_function("state !== null")
            shot(page, "1-goal")
            answer(page, answers[0])
            shot(page, "9-market")
            answer(page, answers[1])
            shot(page, "2-construction")
            for text in answers[2:6]:
                answer(page, text)
            shot(page, "3-gold")
            for text in answers[6:9]:
                answer(page, text)
            shot(page, "4-collect")
            for text in answers[9:11]:
                answer(page, text)
            shot(page, "5-passing")
            page.click("#undo")
            page.wait_for_function("state.notice.startsWith('Undone')")
            shot(page, "6-undone")
            page.click("#redo")
            page.wait_for_function("state.notice.startsWith('Redone')")
            for text in answers[11:]:
                answer(page, text)
            shot(page, "7-end")
            page.evaluate("document.getElementById('log-panel').scrollIntoView()")
            shot(page, "8-log")


if __name__ == "__main__":
    main()
