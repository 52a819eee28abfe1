"""A --host that is no address is one line and exit 1, for both page commands."""

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import builtin_catalog_path


@pytest.mark.parametrize("host", ["\uffff", "h\u00f6st", "no such host name.invalid"])
@pytest.mark.parametrize("command", ["preview", "solo"])
def test_a_host_that_is_no_address_is_refused_in_one_line(tmp_path, host, command):
    """Found by the command-line fuzzing: `preview --host '\\uffff'` ended in
    `TypeError: encoding of hostname failed` (exit 70)."""
    if command == "preview":
        args = ["preview", str(builtin_catalog_path("gemstone-caverns")), "--host", host]
    else:
        args = ["solo", "stonespine-architects", "--web", "--host", host,
                "--save", str(tmp_path / "save.json")]  # fmt: skip
    result = CliRunner().invoke(cli, args, input="")
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    assert "cannot listen on" in result.output
