"""An output is never one of the inputs; inputs are regular files, read boundedly."""

import json
import os
import threading
from pathlib import Path

import pytest

from protopress.components import InvalidInput
from protopress.files import refuse_output_over_input

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


@pytest.mark.skipif(not POSIX, reason="FIFOs")
@pytest.mark.parametrize(
    "command",
    [["validate", "{path}"], ["score", "stonespine-architects", "{path}"], ["replay", "{path}"],
     ["check", "{path}"], ["import", "{path}", "--kind", "card", "-o", "{out}"]],
)  # fmt: skip
def test_a_fifo_given_as_an_input_is_refused_without_hanging(tmp_path, command):
    fifo = tmp_path / ("table.csv" if command[0] == "import" else "input.json")
    os.mkfifo(fifo)
    args = [a.format(path=fifo, out=tmp_path / "out.json") for a in command]
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
    writer = threading.Thread(target=lambda: fifo.write_text(json.dumps({"game": "x"})))
    writer.daemon = True
    writer.start()
    run = run_protopress("replay", fifo, timeout=60)
    assert run.returncode == 1
    assert "a FIFO, not a regular file" in run.stdout.decode()
    writer.join(timeout=10)  # the refused open still unblocked the writer
