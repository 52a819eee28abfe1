"""A kind's built-in layout is looked up afresh: a game registered after a
lookup (a kind with no built-in layout then) brings its layouts with it."""

import json

from protopress.generators import layout as layout_module
from protopress.generators.layout import builtin_layout


def test_a_layout_that_arrives_after_a_lookup_is_found(tmp_path, monkeypatch):
    folder = tmp_path / "layouts"
    folder.mkdir()
    monkeypatch.setattr(layout_module, "builtin_layout_dirs", lambda: (folder,))
    assert builtin_layout("late-kind") is None
    (folder / "late-kind.json").write_text(json.dumps(
        {"kind": "late-kind", "size": {"width": 40, "height": 60}, "front": []}))  # fmt: skip
    found = builtin_layout("late-kind")
    assert found is not None and found.kind == "late-kind"
    assert builtin_layout("late-kind") is found  # each file is loaded once
