"""How a baseline script reports: one JSON object on stdout, refused if protopress was
imported (a baseline is a process that imports nothing of ours); a baseline that
serves instead of reporting checks the same before it answers."""

from __future__ import annotations

import json
import sys


def refuse_ours() -> None:
    """Stop the process if a protopress module was imported."""
    ours = sorted(name for name in sys.modules if name.split(".")[0] == "protopress")
    if ours:
        raise SystemExit(f"a baseline imported protopress: {', '.join(ours)}")


def report(result: dict[str, float]) -> None:
    refuse_ours()
    print(json.dumps(result))
