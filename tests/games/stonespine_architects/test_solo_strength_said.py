"""The rival's measured strength is said in one place (the companion's
`strength`), and `solo --help` and docs/solo.md say the same figures."""

import re
from pathlib import Path

from click.testing import CliRunner

from protopress.cli import cli
from protopress.games.stonespine_architects.solo.companion import COMPANION

DOCS = Path(__file__).parents[3] / "docs" / "solo.md"
FIGURE = re.compile(r"\d+\.\d%(?: \(\d+\.\d-\d+\.\d%)?")


def test_the_help_and_the_guide_give_the_measured_win_rates():
    figures = FIGURE.findall(COMPANION.strength)
    assert len(figures) == 4  # greedy and search, normal and hard, each with its interval
    shown = CliRunner().invoke(cli, ["solo", "--help"], terminal_width=1000)
    assert shown.exit_code == 0
    help_text = " ".join(shown.output.split())
    guide = DOCS.read_text(encoding="utf-8")
    for figure in figures:
        assert figure in help_text
        assert figure in guide
