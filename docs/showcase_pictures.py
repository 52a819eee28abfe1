"""Make the pictures of `protopress showcase` in docs/cli.md (docs/images/showcase-*.png)
from the Cottage Market example: a hand of four cards and a row of five. Run from
the checkout:

    .venv/bin/python docs/showcase_pictures.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
OUT = Path(__file__).parent / "images"
CATALOG = ROOT / "examples" / "cottage-market" / "catalog.json"
PICTURES = {
    "showcase-hand.png": ["woodcutter", "quarry", "card/market", "cottage", "--hand"],
    "showcase-row.png": ["woodcutter", "quarry", "card/market", "cottage", "hall", "--row"],
}


def main() -> None:
    for name, args in PICTURES.items():
        command = [sys.executable, "-m", "protopress", "showcase", str(CATALOG), *args,
                   "--dpi", "80", "-o", str(OUT / name)]  # fmt: skip
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
