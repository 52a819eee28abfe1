"""CI runs the README's test command, exactly, after installing what the browser
tests need, so they never skip there."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_installs_the_browser_then_runs_the_readme_command():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"Install the test extras.*?```sh\n(.*?)\n```", readme, re.S).group(1)
    script = (ROOT / ".ci" / "run").read_text()
    assert command in script.splitlines()  # the README's command, as a line of its own
    assert script.index("apt-get install -y chromium") < script.index(command)
    assert script.index("apt-get install -y ghostscript") < script.index(command)  # PDF/X test
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert any(r.startswith("playwright") for r in extras["test"])


def test_the_address_for_a_phone_is_also_a_qr_code():
    from protopress.cli.web import qr_code

    url = "http://192.168.1.5:8765/?token=abc"
    drawn = qr_code(url)
    lines = drawn.splitlines()
    assert len(lines) >= 12 and len({len(line) for line in lines}) == 1  # a square of blocks
    assert set("".join(lines)) <= {"█", "▀", "▄", " "}
    assert qr_code(url) == drawn and qr_code(url + "x") != drawn
