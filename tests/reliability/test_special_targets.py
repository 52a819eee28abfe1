"""write_atomic replaces regular files only: devices, FIFOs and /dev/stdout are written."""

import os
import stat
import subprocess
import sys
import threading

import pytest

from protopress.atomic import write_atomic

pytestmark = pytest.mark.skipif(os.name != "posix", reason="devices and FIFOs")


def test_a_fifo_is_written_to_not_replaced(tmp_path):
    fifo = tmp_path / "results.json"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, b'{"games": 3}')
    reader.join(timeout=10)
    assert received == [b'{"games": 3}']
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["results.json"]


def test_dev_null_stays_a_device(tmp_path):
    write_atomic("/dev/null", b"discarded")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_a_link_to_a_device_stays_a_link_and_the_device_stays_a_device(tmp_path):
    link = tmp_path / "out.json"
    link.symlink_to("/dev/null")
    write_atomic(link, b"discarded")
    assert os.readlink(link) == "/dev/null"
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    assert os.listdir(tmp_path) == ["out.json"]


@pytest.mark.parametrize("target", ["/dev/stdout", "/proc/self/fd/1", "link-to-fd-1"])
def test_dev_stdout_reaches_stdout_whether_a_pipe_or_a_file(tmp_path, target):
    if target == "link-to-fd-1":  # a link of one's own to the descriptor
        target = str(tmp_path / "out.json")
        os.symlink("/proc/self/fd/1", target)
    if not os.path.exists("/proc/self/fd/1"):
        pytest.skip("no /proc/self/fd here")
    code = f"from protopress.atomic import write_atomic; print('before', flush=True); write_atomic({target!r}, b'bytes\\n')"  # noqa: E501
    piped = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == b"before\nbytes\n"
    redirected = tmp_path / "stdout.txt"
    with open(redirected, "wb") as stream:
        run = subprocess.run([sys.executable, "-c", code], stdout=stream, timeout=60)
    assert run.returncode == 0
    assert redirected.read_bytes() == b"before\nbytes\n"
    assert os.path.islink("/dev/stdout")
    assert os.path.islink(target) or target.startswith("/proc/")  # never replaced by a file


def test_a_folder_is_refused_clearly(tmp_path):
    with pytest.raises(OSError, match="cannot write over a folder"):
        write_atomic(tmp_path, b"x")
    assert tmp_path.is_dir()


def test_a_link_to_a_regular_file_is_still_replaced_not_written_through(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep")
    link = tmp_path / "out.json"
    link.symlink_to(victim)
    write_atomic(link, b"new")
    assert not link.is_symlink() and link.read_bytes() == b"new"
    assert victim.read_bytes() == b"keep"


def test_balance_json_to_dev_stdout_prints_the_json(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "protopress", "balance", "gem-rush", "--games", "2",
         "--workers", "1", "--json", "/dev/stdout"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert '"records"' in run.stdout or '"games"' in run.stdout
    assert os.path.islink("/dev/stdout")
    assert not os.path.exists("/dev/stdout.games.jsonl")  # no store beside a stream
