"""SOURCE_DATE_EPOCH dates the PDFs (reportlab) and the proof stamp; a malformed
one is a clear usage error before anything is written, never an internal error."""

import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.generators.render import proof_date


def test_the_proof_date_comes_from_source_date_epoch():
    assert proof_date({"SOURCE_DATE_EPOCH": "0"}) == "1970-01-01"
    assert proof_date({"SOURCE_DATE_EPOCH": "1700000000"}) == "2023-11-14"
    assert len(proof_date({})) == 10


@pytest.mark.parametrize("value", ["yesterday", "-1", "1e9", "99999999999999999999", "١٢"])
def test_a_bad_source_date_epoch_is_refused_clearly(value):
    with pytest.raises(ValueError, match="SOURCE_DATE_EPOCH must be a whole number"):
        proof_date({"SOURCE_DATE_EPOCH": value})


def test_a_bad_source_date_epoch_is_a_clear_usage_error_before_anything_is_written(tmp_path):
    runner = CliRunner(env={"SOURCE_DATE_EPOCH": "yesterday"})
    for extra in ([], ["--proof"]):
        result = runner.invoke(cli, ["render", "gem-rush", "-o", str(tmp_path / "o"), *extra])
        assert result.exit_code == 2, result.output
        assert "SOURCE_DATE_EPOCH must be a whole number of seconds" in result.output
        assert not (tmp_path / "o").exists()


def test_a_valid_source_date_epoch_renders_and_stamps_the_proof(tmp_path):
    runner = CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000"})
    result = runner.invoke(cli, ["render", "gem-rush", "-o", str(tmp_path), "--proof"])
    assert result.exit_code == 0, result.output
