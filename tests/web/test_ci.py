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
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert any(r.startswith("playwright") for r in extras["test"])
