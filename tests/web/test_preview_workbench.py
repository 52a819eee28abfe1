"""The preview as a place to work: its problem list is the very set `validate`
prints on the same files, the fields panel follows every redraw, faces can be
filtered, sized, walked with the keyboard and opened full size."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from protopress.web.faces import DPI, LARGE
from protopress.web.preview import Preview


def rewrite(path: Path, change) -> None:
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document, indent=2))


@pytest.fixture
def mistaken(game):
    """The mini game with the designer's usual mistakes: a layout binding a field no
    card has ({titel}), a card field no layout uses (txet), an unknown icon in text
    (:fier:) and a missing image."""

    def layout(document):
        document["front"][2]["text"] = "{titel}"
        document["front"].append(
            {"type": "image", "x": 40, "y": 20, "w": 9, "h": 9, "path": "art/{id}.png"}
        )

    def catalog(document):
        document["cards"][0]["txet"] = "Gain one sun."
        document["cards"][1]["text"] = "Trade :fier: for two moons."

    rewrite(game / "layouts" / "card.json", layout)
    rewrite(game / "catalog.json", catalog)
    return game


def validate_lines(game: Path) -> list[str]:
    """What `protopress validate catalog.json --layouts layouts` prints, run in the
    game's folder (stdout only: the summary goes to stderr)."""
    run = subprocess.run(
        [sys.executable, "-m", "protopress", "validate", "catalog.json", "--layouts", "layouts"],
        cwd=game,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    return run.stdout.splitlines()


def test_the_problems_are_those_validate_prints(mistaken):
    lines = validate_lines(mistaken)
    report = Preview(mistaken / "catalog.json", mistaken / "layouts").state()["report"]
    assert report == lines
    # every mistake is there, each once
    for mistake in ("'titel'", "txet", "fier", "art/dawn.png", "art/dusk.png", "art/eclipse.png"):
        assert sum(mistake in line for line in lines) == 1, (mistake, lines)


def test_a_catalog_that_does_not_load_lists_what_validate_prints(game):
    rewrite(game / "catalog.json", lambda d: d["cards"][1].update(count="two"))
    rewrite(game / "layouts" / "card.json", lambda d: d["front"][4].update(type="lien"))
    lines = validate_lines(game)
    assert len(lines) == 2 and "/cards/1/count" in lines[0] and "'lien'" in lines[1]
    report = Preview(game / "catalog.json", game / "layouts").state()["report"]
    assert report == lines


def test_the_full_size_face_is_drawn_larger(game):
    preview = Preview(game / "catalog.json", game / "layouts")
    small = preview.png("card", "dawn", "front")
    large = preview.png("card", "dawn", "front", LARGE)
    assert small.status_code == large.status_code == 200
    # 63 x 88 mm: 273 x 381 pixels at 110 dpi, three times that full size
    width_small = int.from_bytes(bytes(small.body)[16:20], "big")
    width_large = int.from_bytes(bytes(large.body)[16:20], "big")
    assert width_small == round(63 / 25.4 * DPI) == 273
    assert width_large == round(63 / 25.4 * DPI * LARGE) == 819


@pytest.mark.browser
def test_the_page_lists_what_validate_prints(phone, serve, mistaken):
    server = serve("preview", mistaken / "catalog.json", "--layouts", mistaken / "layouts")
    phone.goto(server.url)
    phone.wait_for_selector("#report-list li", state="attached")
    assert (
        phone.inner_text("#report-title") == "All 5 problems and 1 warning, as validate prints them"
    )
    assert phone.locator("#report-list li").all_text_contents() == validate_lines(mistaken)


def wait_version_after(page, version: int) -> None:
    page.wait_for_function(f"document.body.dataset.version > {version}", timeout=15_000)


@pytest.mark.browser
def test_working_in_the_preview(browser, serve, game):
    catalog = game / "catalog.json"
    server = serve("preview", catalog, "--layouts", game / "layouts")
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url)
    dawn = '.face[data-id="dawn"]'
    page.wait_for_selector(f"{dawn} img")

    # a readable size on a laptop, and the Size control changes it
    width = page.locator(f"{dawn} img").first.bounding_box()["width"]
    assert width >= 160
    page.locator("#zoom").fill("400")
    wider = page.locator(f"{dawn} img").first.bounding_box()["width"]
    assert wider >= 380

    # the fields panel follows a rename at once
    page.click(dawn)
    assert page.inner_text("#fields-title") == "Dawn (card, \u00d73)"
    version = int(page.evaluate("document.body.dataset.version"))
    rewrite(catalog, lambda d: d["cards"][0].update(title="Daybreak"))
    wait_version_after(page, version)
    assert page.inner_text("#fields-title") == "Daybreak (card, \u00d73)"
    assert "Daybreak" in page.inner_text("#fields")

    # the keyboard: arrows between faces, Enter opens full size, Escape closes
    page.focus(dawn)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.id") == "dusk"
    assert page.inner_text("#fields-title") == "Dusk (card, \u00d72)"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.id") == "dawn"
    page.keyboard.press("Enter")
    assert page.is_visible("#viewer")
    assert page.inner_text("#viewer-title") == "Daybreak (card, front)"
    image = page.locator("#viewer-image")
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=image.element_handle())
    assert image.evaluate("i => i.naturalWidth") == 819
    page.keyboard.press("ArrowRight")  # the next face, still full size
    assert page.inner_text("#viewer-title") == "Dusk (card, front)"
    page.keyboard.press("Escape")
    assert not page.is_visible("#viewer")
    # the dialog gives the focus back to the face it opened from, then its close event
    # (a task of its own) moves it to the face last viewed
    page.wait_for_function("document.activeElement.dataset.id === 'dusk'")

    # / filters, by id or by kind
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "filter"
    page.keyboard.type("ecl")
    visible = page.locator("#kinds .face:visible")
    assert [f.get_attribute("data-id") for f in visible.all()] == ["eclipse"]
    assert page.inner_text("#shown-count") == "1 of 5 shown"
    page.fill("#filter", "symbol")
    assert [f.get_attribute("data-id") for f in visible.all()] == ["sun", "moon"]
    assert not page.is_visible("#kind-card")
    page.fill("#filter", "")
    assert visible.count() == 5
    context.close()
    assert not errors, errors
