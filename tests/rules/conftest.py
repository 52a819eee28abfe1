"""Fixtures of the rules tests."""

import shutil
import sys
from pathlib import Path

import pytest

from protopress.games import spec_for

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cottage-market"


@pytest.fixture
def cottage_market_installed(tmp_path, monkeypatch):
    """Cottage Market installed as a package's game (an entry point of protopress.games:
    cottage-market = cottage_market_rules:SPEC) on the path, for the test only."""
    package = tmp_path / "site"
    package.mkdir()
    shutil.copy(EXAMPLE / "rules.py", package / "cottage_market_rules.py")
    shutil.copy(EXAMPLE / "catalog.json", package / "catalog.json")
    dist = package / "cottage_market-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cottage-market\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[protopress.games]\ncottage-market = cottage_market_rules:SPEC\n"
    )
    monkeypatch.syspath_prepend(str(package))
    spec_for.cache_clear()
    yield package
    spec_for.cache_clear()
    sys.modules.pop("cottage_market_rules", None)
