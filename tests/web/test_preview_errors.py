"""The preview keeps following the files after any error: a face that does not draw
shows the located problem `render` gives beside it and a stale mark over its last
drawing, and the page updates again once the file is fixed.

Before, an unclosed `<b>` (or a text over 20,000 characters) raised in the watcher
thread: a traceback on the terminal, and the page never updated again.
"""

import json
import resource
from pathlib import Path

import pytest

from protopress.generators.face_text import MAX_TEXT_CHARACTERS
from protopress.web.preview import Preview

GIB = 1024**3
DUSK_TEXT = "Trade a sun for two moons."
# where render places a problem of the card text: layouts/card.json, line 12, column 65
# (the sixth element of the front, its "text"), the card named
AT_THE_TEXT = "layouts/card.json:12:65 /front/5/text: card 'dusk': "
UNCLOSED = "Trade <b>two moons."
UNCLOSED_PROBLEM = (
    AT_THE_TEXT + "'Trade <b>two moons.': <b> is not closed (write \\< for a literal '<')"
)
TOO_LONG = "x" * (MAX_TEXT_CHARACTERS + 1)
TOO_LONG_PROBLEM = (
    AT_THE_TEXT + f"{MAX_TEXT_CHARACTERS + 1} characters to draw in one text box; "
    f"expected at most {MAX_TEXT_CHARACTERS}"
)


def set_dusk_text(catalog: Path, text: str) -> None:
    document = json.loads(catalog.read_text())
    document["cards"][1]["text"] = text
    catalog.write_text(json.dumps(document, indent=2))


def edit(page, catalog: Path, text: str) -> None:
    """Set the text of the card dusk and wait for the page to show a new version."""
    version = int(page.evaluate("document.body.dataset.version"))
    set_dusk_text(catalog, text)
    page.wait_for_function(f"document.body.dataset.version > {version}", timeout=15_000)


def wait_drawn(page, selector: str) -> None:
    image = page.locator(selector).first
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )


@pytest.mark.browser
def test_a_face_that_does_not_draw_is_marked_stale_and_the_preview_goes_on(phone, serve, game):
    catalog = game / "catalog.json"
    server = serve("preview", catalog, "--layouts", game / "layouts")
    # the server's memory is bounded: a redraw that went wild would fail, not swap
    resource.prlimit(server.process.pid, resource.RLIMIT_AS, (GIB, GIB))
    phone.goto(server.url)
    dusk = '.face[data-id="dusk"]'
    wait_drawn(phone, f"{dusk} img")
    assert not phone.is_visible(f"{dusk} .stale-mark")

    for broken, problem in ((UNCLOSED, UNCLOSED_PROBLEM), (TOO_LONG, TOO_LONG_PROBLEM)):
        edit(phone, catalog, broken)
        assert phone.locator(f"{dusk} .problems li").all_inner_texts() == [problem]
        assert phone.locator(f"{dusk} .stale-mark").all_inner_texts() == [
            "stale: the last drawing, see the problem"
        ]
        wait_drawn(phone, f"{dusk} figure.stale img")  # the last drawing, still shown
        assert not phone.is_visible('.face[data-id="dawn"] .stale-mark')

        # after the fix the page updates: the face is drawn again, nothing stale
        edit(phone, catalog, DUSK_TEXT)
        assert not phone.is_visible(f"{dusk} .stale-mark")
        assert not phone.is_visible(f"{dusk} .problems")
        wait_drawn(phone, f"{dusk} img")

    # the page still follows a plain edit
    edit(phone, catalog, "Trade a sun for three moons.")
    phone.click(dusk)
    assert "three moons" in phone.inner_text("#fields")

    server.process.kill()
    output = server.output + server.process.stdout.read()
    assert b"Traceback" not in output, output.decode(errors="replace")


def test_any_failure_of_a_redraw_keeps_the_last_faces_and_the_watching(game, monkeypatch):
    """A redraw that fails for any reason (here a bug made on purpose) keeps the last
    faces, marked stale with the failure listed, and the next save is drawn."""
    catalog = game / "catalog.json"
    preview = Preview(catalog, game / "layouts")
    drawn = preview.state()
    assert "stale" not in drawn

    def failing():
        raise RuntimeError("a bug \x1b[2J")

    monkeypatch.setattr(preview, "_build", failing)
    set_dusk_text(catalog, "Trade a sun for no moons.")
    preview.follow()
    state = preview.state()
    assert state["stale"] is True
    assert state["kinds"] == drawn["kinds"]
    assert state["version"] == drawn["version"] + 1
    assert state["problems"] == [
        "catalog.json: the faces could not be drawn: RuntimeError: a bug \\x1b[2J"
    ]

    monkeypatch.undo()  # the bug fixed: the next save is drawn
    set_dusk_text(catalog, "Trade a sun for one moon.")
    preview.follow()
    state = preview.state()
    assert "stale" not in state and state["problems"] == []
    [dusk] = [c for k in state["kinds"] for c in k["components"] if c["id"] == "dusk"]
    assert dusk["fields"]["text"] == "Trade a sun for one moon."


@pytest.mark.parametrize(
    ("text", "problem"), [(UNCLOSED, UNCLOSED_PROBLEM), (TOO_LONG, TOO_LONG_PROBLEM)]
)
def test_the_face_that_does_not_draw_serves_its_last_drawing(game, text, problem):
    catalog = game / "catalog.json"
    preview = Preview(catalog, game / "layouts")
    before = preview.png("card", "dusk", "front")
    assert before.status_code == 200
    set_dusk_text(catalog, text)
    preview.follow()
    [dusk] = [c for k in preview.state()["kinds"] for c in k["components"] if c["id"] == "dusk"]
    assert dusk["problems"] == [problem]
    assert dusk["stale"] == ["front"]
    after = preview.png("card", "dusk", "front")
    assert (after.status_code, after.body) == (200, before.body)
    assert preview.png("card", "dusk", "back").status_code == 200  # the back draws still
