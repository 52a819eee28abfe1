"""An output is never one of the inputs; inputs are regular files, read boundedly."""

import contextlib
import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from protopress.cli.common import refuse_output_over_input
from protopress.components import InvalidInput, builtin_catalog_path

from .reliability_helpers import run_protopress

MINI_GAME = Path(__file__).resolve().parents[1] / "data" / "mini-game"
POSIX = os.name == "posix"


def test_an_output_that_is_an_input_by_any_name_is_refused(tmp_path):
    catalog = tmp_path / "cat.json"
    catalog.write_text("{}")
    (tmp_path / "link.json").symlink_to(catalog)
    for name in (catalog, tmp_path / "link.json", tmp_path / "." / "cat.json"):
        with pytest.raises(InvalidInput, match="is also an input"):
            refuse_output_over_input([None, name], ["gem-rush", catalog])
    with pytest.raises(InvalidInput, match="is written twice"):
        refuse_output_over_input([tmp_path / "a.json", tmp_path / "a.json"], [])
    refuse_output_over_input([tmp_path / "new.json", "/dev/null", "/dev/null"], [catalog])


def test_balance_refuses_to_write_its_json_or_report_over_its_catalog(tmp_path):
    catalog = tmp_path / "mycat.json"
    shutil.copy(builtin_catalog_path("gem-rush"), catalog)
    before = catalog.read_bytes()
    for option in ("--json", "--report"):
        run = run_protopress("balance", "gem-rush", "--catalog", catalog, "--games", "1",
                             "--workers", "1", option, catalog)  # fmt: skip
        assert run.returncode == 1, run.stderr
        assert f"{catalog}:1:1 /: is also an input ({catalog})" in run.stdout.decode()
        assert catalog.read_bytes() == before


def test_import_refuses_to_write_the_catalog_over_its_table(tmp_path):
    table = tmp_path / "cards.csv"
    table.write_text("id,title\ndawn,Dawn\n")
    run = run_protopress("import", table, "--kind", "card", "-o", table)
    assert run.returncode == 1, run.stderr
    assert "is also an input" in run.stdout.decode()
    assert table.read_text() == "id,title\ndawn,Dawn\n"


def test_export_table_refuses_to_write_over_its_catalog(tmp_path):
    catalog = tmp_path / "cat.csv"  # a catalog may have any name
    shutil.copy(MINI_GAME / "catalog.json", catalog)
    before = catalog.read_bytes()
    run = run_protopress("export-table", catalog, "--kind", "card", "-o", catalog)
    assert run.returncode == 1, run.stderr
    assert "is also an input" in run.stdout.decode()
    assert catalog.read_bytes() == before


@pytest.mark.skipif(not POSIX, reason="FIFOs")
@pytest.mark.parametrize(
    "command",
    [["validate", "{path}"], ["score", "stonespine-architects", "{path}"], ["replay", "{path}"],
     ["check", "{path}"], ["import", "{path}", "--kind", "card", "-o", "{out}"],
     ["import", "{xlsx}", "--kind", "card", "-o", "{out}"], ["preflight", "{path}"]],
)  # fmt: skip
def test_a_fifo_given_as_an_input_is_refused_without_hanging(tmp_path, command):
    name = {"{xlsx}": "table.xlsx", "import": "table.csv", "preflight": "sheets.pdf"}
    fifo = tmp_path / name.get(command[1], name.get(command[0], "input.json"))
    os.mkfifo(fifo)
    args = [a.format(path=fifo, xlsx=fifo, out=tmp_path / "out.json") for a in command]
    run = run_protopress(*args, timeout=60)
    output = (run.stdout + run.stderr).decode()
    assert run.returncode in (1, 2), output  # a located problem, or "is not a file"
    assert "a FIFO, not a regular file" in output or "is not a file" in output
    assert "internal error" not in output


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_as_a_catalog_is_refused_before_reading(tmp_path):
    state = tmp_path / "state.json"
    state.symlink_to("/dev/zero")
    run = run_protopress("score", "stonespine-architects", state, timeout=60)
    assert run.returncode == 1
    assert f"{state}:1:1 /: a device, not a regular file" in run.stdout.decode()


def test_a_fifo_opened_for_writing_elsewhere_still_reads_as_refused(tmp_path):
    """Even with a writer on the other end, a FIFO is not read."""
    if not POSIX:
        pytest.skip("FIFOs")
    fifo = tmp_path / "cat.json"
    os.mkfifo(fifo)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError):  # refused unread: the reader closed first
            fifo.write_text(json.dumps({"game": "x"}))

    writer = threading.Thread(target=write)
    writer.daemon = True
    writer.start()
    run = run_protopress("replay", fifo, timeout=60)
    assert run.returncode == 1
    assert "a FIFO, not a regular file" in run.stdout.decode()
    writer.join(timeout=10)  # the refused open still unblocked the writer
