"""The preview page in a real browser: every face with its counts, redrawn within
two seconds of an edit, problems beside the face they concern, fields on a click,
and nothing served from outside the package or the catalog's faces."""

import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
REDRAWN = 2.0  # seconds: the promise of the preview


def edit(page, path: Path, change) -> float:
    """Change the JSON file, wait for the page to redraw; the seconds it took."""
    version = int(page.evaluate("document.body.dataset.version"))
    document = json.loads(path.read_text())
    change(document)
    started = time.monotonic()
    path.write_text(json.dumps(document, indent=2))
    page.wait_for_function(f"document.body.dataset.version > {version}", timeout=15_000)
    return time.monotonic() - started


def test_the_preview_follows_the_catalog(phone, serve, game):
    catalog = game / "catalog.json"
    server = serve("preview", catalog, "--layouts", game / "layouts")
    phone.goto(server.url)
    phone.wait_for_selector('.face[data-id="dawn"] img')
    assert phone.inner_text("#kind-card h2") == "card: 3 designs, 6 copies"
    assert phone.inner_text('.face[data-id="dawn"] .name') == "Dawn \u00d73"
    assert phone.locator('.face[data-id="dawn"] figcaption').all_inner_texts() == ["front", "back"]
    assert "no layout" in phone.inner_text("#kind-symbol")
    image = phone.locator('.face[data-id="dawn"] img').first
    phone.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )

    # clicking a face shows its fields
    phone.click('.face[data-id="dusk"]')
    assert "Trade a sun for two moons." in phone.inner_text("#fields")
    assert phone.inner_text("#fields-title") == "Dusk (card, \u00d72)"

    # an edit shows within two seconds
    assert edit(phone, catalog, lambda d: d["cards"][0].update(title="Daybreak", count=4)) < REDRAWN
    assert phone.inner_text('.face[data-id="dawn"] .name') == "Daybreak \u00d74"
    assert phone.inner_text("#kind-card h2") == "card: 3 designs, 7 copies"

    # a problem shows beside the face it concerns; the last faces stay
    edit(phone, catalog, lambda d: d["cards"][1].update(count="two"))
    assert "/cards/1/count" in phone.inner_text('.face[data-id="dusk"] .problems')
    assert phone.is_visible("#stale")
    # text too long for its box, on the face itself
    edit(phone, catalog, lambda d: d["cards"][1].update(count=2, text="A very long text. " * 60))
    assert not phone.is_visible("#stale")
    assert "front:" in phone.inner_text('.face[data-id="dusk"] .problems')

    # a layout change redraws too
    assert edit(phone, game / "layouts" / "card.json", lambda d: None) < REDRAWN


def test_the_preview_serves_nothing_else(serve, game, phone):
    (game.parent / "secret.txt").write_text("not for the page")
    server = serve("preview", game / "catalog.json")
    visitor = server.visitor()
    for path in (
        "/static/../catalog.json",
        "/static/%2e%2e/%2e%2e/secret.txt",
        "/face/card/..%2F..%2Fsecret/front.png",
        "/catalog.json",
        "/face/card/nobody/front.png",
    ):
        with pytest.raises(urllib.error.HTTPError) as refused:
            visitor.open(f"{server.base}{path}")
        assert refused.value.code == 404, path
    response = phone.goto(server.base + "/?token=wrong")
    assert response.status == 401
