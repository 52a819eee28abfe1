"""How a baseline script reports: one JSON object on stdout, refused if protopress was
imported (a baseline is a process that imports nothing of ours)."""

from __future__ import annotations

import json
import sys


def report(result: dict[str, float]) -> None:
    ours = sorted(name for name in sys.modules if name.split(".")[0] == "protopress")
    if ours:
        raise SystemExit(f"a baseline imported protopress: {', '.join(ours)}")
    print(json.dumps(result))
