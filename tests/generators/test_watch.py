"""Watch mode reacts to changes, driven with events and short timeouts (no sleeps)."""

import json
import shutil
import threading
from pathlib import Path

from protopress.generators.render import RenderOptions
from protopress.generators.watch import watch

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"
TIMEOUT = 20  # seconds: generous for a loaded machine; a working watch answers in well under one


class Watcher:
    """Runs watch() on a catalog in a thread; each report wakes the test
    (test_watch_sources.py uses it too)."""

    def __init__(self, catalog: Path, options: RenderOptions):
        self.events, self.arrived, self.stop = [], threading.Semaphore(0), threading.Event()
        self.thread = threading.Thread(
            target=watch,
            args=(catalog, options, self._report, self.stop.is_set),
            kwargs={"interval": 0.02, "sleep": self.stop.wait},
            daemon=True,
        )
        self.thread.start()

    def _report(self, event):
        self.events.append(event)
        self.arrived.release()

    def next_event(self):
        assert self.arrived.acquire(timeout=TIMEOUT), "no report from watch"
        return self.events[-1]

    def close(self):
        self.stop.set()
        self.thread.join(TIMEOUT)


def game_watcher(folder: Path, png: bool = True) -> Watcher:
    """Watch the mini game copied to folder, with its layouts, drawn at 72 dpi."""
    options = RenderOptions(output_dir=folder / "out", layouts_dir=folder / "layouts",
                            png=png, dpi=72)  # fmt: skip
    return Watcher(folder / "catalog.json", options)


def edit(path: Path, change):
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def test_watch_renders_then_redraws_only_what_changed(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(MINI_GAME, folder)
    watcher = game_watcher(folder)
    try:
        first = watcher.next_event()
        assert first.kind == "rendered" and first.message.startswith("rendered everything")
        dawn = folder / "out" / "png" / "card" / "dawn-front.png"
        dusk = folder / "out" / "png" / "card" / "dusk-front.png"
        dusk_before = dusk.stat().st_mtime_ns
        dawn_before = dawn.read_bytes()

        edit(folder / "catalog.json", lambda d: d["cards"][0].update(title="Sunrise"))
        second = watcher.next_event()
        assert second.kind == "rendered", second.message
        assert second.message.splitlines()[0] == "rendered card"
        written = {path.name for path in second.files}
        assert written == {"card-sheets.pdf", "dawn-front.png", "dawn-back.png", "card-contact.png"}
        assert dawn.read_bytes() != dawn_before  # the changed card was drawn again
        assert dusk.stat().st_mtime_ns == dusk_before  # the others were not

        (folder / "catalog.json").write_text('{"game": "mini-game",')  # broken mid-edit
        third = watcher.next_event()
        assert third.kind == "invalid"
        assert "invalid JSON" in third.message

        edit_layout = folder / "layouts" / "card.json"
        (folder / "catalog.json").write_text((MINI_GAME / "catalog.json").read_text())
        assert watcher.next_event().kind == "rendered"
        edit(edit_layout, lambda d: d["front"][0].update(fill="#ffeecc"))
        fourth = watcher.next_event()
        assert fourth.kind == "rendered"
        assert "dusk-front.png" in {
            path.name for path in fourth.files
        }  # a layout change redraws all
    finally:
        watcher.close()
    assert not watcher.thread.is_alive()


def test_a_render_error_of_any_kind_is_reported_and_watching_goes_on(tmp_path, monkeypatch):
    from protopress.generators import watch as watch_module

    folder = tmp_path / "game"
    shutil.copytree(MINI_GAME, folder)
    real = watch_module.render_catalog
    failures = [KeyError("unexpected"), PermissionError(13, "Permission denied", "out/x.pdf")]

    def flaky(*args, **kwargs):
        if failures:
            raise failures.pop(0)
        return real(*args, **kwargs)

    monkeypatch.setattr(watch_module, "render_catalog", flaky)
    watcher = game_watcher(folder, png=False)
    try:
        first = watcher.next_event()
        assert first.kind == "error", first
        assert first.message == "internal error: KeyError: 'unexpected'"
        edit(folder / "catalog.json", lambda d: d["cards"][0].update(title="Dawn 2"))
        second = watcher.next_event()
        assert second.kind == "error" and second.message == "out/x.pdf: Permission denied"
        edit(folder / "catalog.json", lambda d: d["cards"][0].update(title="Dawn 3"))
        third = watcher.next_event()
        assert third.kind == "rendered", third
    finally:
        watcher.close()


def test_a_layout_edited_to_an_unknown_shape_is_reported_and_watching_goes_on(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(MINI_GAME, folder)
    watcher = game_watcher(folder, png=False)
    try:
        assert watcher.next_event().kind == "rendered"
        layout = folder / "layouts" / "card.json"
        original = layout.read_text()
        edit(layout, lambda d: d["front"].append(
            {"type": "icon", "x": 2, "y": 2, "icon_size": 5, "shape": "blob"}))  # fmt: skip
        broken = watcher.next_event()
        assert broken.kind == "invalid" and "unknown shape 'blob'" in broken.message
        layout.write_text(original)
        assert watcher.next_event().kind == "rendered"
    finally:
        watcher.close()


def test_a_changed_image_draws_the_faces_again(tmp_path):
    from PIL import Image

    folder = tmp_path / "game"
    shutil.copytree(MINI_GAME, folder)
    Image.new("RGB", (40, 40), "red").save(folder / "art.png")
    edit(folder / "layouts" / "card.json", lambda d: d["front"].append(
        {"type": "image", "x": 2, "y": 2, "w": 10, "h": 10, "path": "art.png"}))  # fmt: skip
    watcher = game_watcher(folder)
    try:
        assert watcher.next_event().kind == "rendered"
        dawn = folder / "out" / "png" / "card" / "dawn-front.png"
        before = dawn.read_bytes()
        Image.new("RGB", (40, 40), "blue").save(folder / "art.png")
        again = watcher.next_event()
        assert again.kind == "rendered" and again.message.startswith("rendered everything")
        assert dawn.read_bytes() != before
    finally:
        watcher.close()


def test_a_changed_svg_draws_the_faces_again(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(MINI_GAME, folder)
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="{}"/></svg>'
    (folder / "art.svg").write_text(svg.format("#ff0000"))
    edit(folder / "layouts" / "card.json", lambda d: d["front"].append(
        {"type": "image", "x": 2, "y": 2, "w": 10, "h": 10, "path": "art.svg"}))  # fmt: skip
    watcher = game_watcher(folder)
    try:
        assert watcher.next_event().kind == "rendered"
        dawn = folder / "out" / "png" / "card" / "dawn-front.png"
        before = dawn.read_bytes()
        (folder / "art.svg").write_text(svg.format("#0000ff"))
        again = watcher.next_event()
        assert again.kind == "rendered" and again.message.startswith("rendered everything")
        assert dawn.read_bytes() != before
    finally:
        watcher.close()


def test_link_loops_as_the_output_folder_or_among_the_assets_do_not_stop_watch(tmp_path):
    """Found by the command-line fuzzing: `watch -o LOOP` ended in 'RuntimeError:
    Symlink loop' (exit 70), and so did a link loop named like an image in the
    catalog's folder: snapshot() resolved and stat'ed every path unguarded."""
    from protopress.generators.watch import snapshot

    catalog = tmp_path / "cat.json"
    catalog.write_text(json.dumps({"game": "t", "title": "T", "version": "1",
                                   "cards": [{"id": "c1", "title": "C"}]}))  # fmt: skip
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "loop.png").symlink_to("loop.png")
    (tmp_path / "out-loop").symlink_to("out-loop")
    stamps = snapshot(catalog, None, assets=True, exclude=tmp_path / "out-loop")
    assert catalog in stamps and tmp_path / "art" / "loop.png" not in stamps
