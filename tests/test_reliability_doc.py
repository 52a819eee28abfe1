"""docs/reliability.md names the tests that keep its promises: every file it
names exists, and every test name it gives is defined in the file named
before it (a renamed or moved test must take the document with it)."""

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
DOC = ROOT / "docs" / "reliability.md"
FILE = re.compile(r"`(tests/[\w/]+\.py)`")
NAME = re.compile(r"`(test_\w+)`")


def _references() -> list[tuple[str, str | None]]:
    """(file, test name or None) in the order the document names them."""
    found: list[tuple[str, str | None]] = []
    current = None
    for match in re.finditer(rf"{FILE.pattern}|{NAME.pattern}", DOC.read_text()):
        if match.group(1):
            current = match.group(1)
            found.append((current, None))
        elif current is not None:
            found.append((current, match.group(2)))
    return found


def test_every_test_file_the_reliability_document_names_exists():
    missing = sorted({file for file, _ in _references() if not (ROOT / file).is_file()})
    assert not missing, missing


def test_every_test_the_reliability_document_names_is_defined_where_it_says():
    missing = []
    for file, name in _references():
        path = ROOT / file
        if name and path.is_file() and f"def {name}(" not in path.read_text():
            missing.append(f"{file}::{name}")
    assert not missing, missing
