"""write_atomic and the clean-up of temporaries left by a killed writer."""

import json
import os
import stat
import subprocess
import sys
import time

import pytest

from protopress import atomic
from protopress.atomic import remove_stale_temporaries, temporary_target, write_atomic
from protopress.components import load_catalog
from protopress.generators.render import RenderOptions, remove_stale_output, render_catalog

POSIX = os.name == "posix"


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_temporary_is_hidden_named_after_its_target_and_its_writer(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(source, target):
        seen.append(os.path.basename(source))
        real_replace(source, target)

    monkeypatch.setattr(atomic.os, "replace", replace)
    write_atomic(tmp_path / "card-sheets.pdf", b"%PDF-")
    (name,) = seen
    assert name.startswith(".card-sheets.pdf.") and name.endswith(".tmp")
    assert temporary_target(name) == ("card-sheets.pdf", os.getpid())
    assert os.listdir(tmp_path) == ["card-sheets.pdf"]


def test_temporary_names_of_this_and_older_versions_are_recognised():
    assert temporary_target(".a.pdf.123-0badcafe.tmp") == ("a.pdf", 123)
    assert temporary_target(".a.pdf.k2_x9qz0.tmp") == ("a.pdf", None)  # tempfile.mkstemp
    assert temporary_target(".x-front.png.77-deadbeef.tmp") == ("x-front.png", 77)
    for name in ("a.pdf", ".a.pdf", ".a.pdf.tmp", "a.pdf.1-0badcafe.tmp", ".a.pdf.1-xyz.tmp"):
        assert temporary_target(name) is None, name


def test_a_failed_write_leaves_the_previous_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    write_atomic(target, b"old")

    def full_disk(handle):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["save.json"]


@pytest.mark.skipif(not POSIX, reason="POSIX permission bits")
def test_a_missing_folder_is_said_of_the_file_asked_for_not_its_temporary(tmp_path):
    """`export-table -o nowhere/cards.csv` said "No such file or directory:
    nowhere/.cards.csv.1234-5678abcd.tmp", a name the user never gave."""
    target = tmp_path / "nowhere" / "cards.csv"
    with pytest.raises(FileNotFoundError) as raised:
        write_atomic(target, b"id\n")
    assert raised.value.filename == str(target)
    assert not (tmp_path / "nowhere").exists()


def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(tmp_path):
    old_umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.pdf", b"1")
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o644  # not 0o600
        os.umask(0o077)
        write_atomic(tmp_path / "private.pdf", b"1")
        assert stat.S_IMODE((tmp_path / "private.pdf").stat().st_mode) == 0o600
    finally:
        os.umask(old_umask)
    kept = tmp_path / "catalog.json"
    kept.write_text("{}")
    kept.chmod(0o664)
    write_atomic(kept, b'{"game": "x"}')
    assert stat.S_IMODE(kept.stat().st_mode) == 0o664
    assert kept.read_bytes() == b'{"game": "x"}'


def test_stale_temporaries_of_owned_files_are_removed_and_nothing_else(tmp_path):
    gone = dead_pid()
    names = {
        f".a.pdf.{gone}-0badcafe.tmp": "removed",  # its writer has ended
        f".a.pdf.{os.getpid()}-0badcafe.tmp": "kept",  # its writer still runs
        ".a.pdf.k2_x9qz0.tmp": "kept",  # no pid, and fresh
        ".a.pdf.ab12_xyz.tmp": "removed",  # no pid, and old (made old below)
        f".notes.txt.{gone}-0badcafe.tmp": "kept",  # not a file this writer owns
        f".b.pdf.{gone}-12345678": "kept",  # not a temporary name
    }
    for name in names:
        (tmp_path / name).write_bytes(b"half a")
    long_ago = time.time() - atomic.STALE_AFTER - 60
    os.utime(tmp_path / ".a.pdf.ab12_xyz.tmp", (long_ago, long_ago))
    folder_named_like_one = tmp_path / f".a.pdf.{gone}-feedface.tmp"
    folder_named_like_one.mkdir()
    removed = remove_stale_temporaries(tmp_path, lambda target: target.endswith(".pdf"))
    assert sorted(p.name for p in removed) == sorted(n for n, v in names.items() if v == "removed")
    left = set(os.listdir(tmp_path))
    assert left == {n for n, v in names.items() if v == "kept"} | {folder_named_like_one.name}


@pytest.mark.skipif(not POSIX, reason="symbolic links need privileges on Windows")
def test_a_symlink_named_like_a_temporary_is_not_followed_or_removed(tmp_path):
    gone = dead_pid()
    precious = tmp_path / "precious.pdf"
    precious.write_bytes(b"keep me")
    link = tmp_path / f".a.pdf.{gone}-0badcafe.tmp"
    link.symlink_to(precious)
    assert remove_stale_temporaries(tmp_path, lambda target: True) == []
    assert link.is_symlink() and precious.read_bytes() == b"keep me"


def test_a_render_removes_the_stale_temporaries_of_its_own_files(tmp_path):
    (tmp_path / "deck.json").write_text(
        json.dumps({"game": "t", "title": "T", "version": "1",
                    "cards": [{"id": "c1", "title": "One", "text": "x", "count": 2}]})
    )  # fmt: skip
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "card.json").write_text(
        json.dumps({"kind": "card", "size": {"width": "63mm", "height": "88mm"},
                    "front": [{"type": "text", "x": 5, "y": 5, "w": 50, "h": 10,
                               "text": "{title}"}]})
    )  # fmt: skip
    out = tmp_path / "out"
    (out / "png" / "card").mkdir(parents=True)
    gone = dead_pid()
    stale = [
        out / f".card-sheets.pdf.{gone}-00000001.tmp",
        out / f".card-print-shop.pdf.{gone}-00000002.tmp",
        out / "png" / f".card-contact.png.{gone}-00000003.tmp",
        out / "png" / "card" / f".c1-front.png.{gone}-00000004.tmp",
        out / f".README.txt.{gone}-00000008.tmp",  # every render writes the README
        out / f".parts.csv.{gone}-00000009.tmp",  # and the parts list
    ]
    foreign = [
        out / f".room-tile-sheets.pdf.{gone}-00000005.tmp",  # a kind not rendered now
        out / f".notes.md.{gone}-00000006.tmp",  # not the render's
        out / f".card-sheets.pdf.{os.getpid()}-00000007.tmp",  # a writer still running
    ]
    for path in stale + foreign:
        path.write_bytes(b"torn")
    catalog = load_catalog(tmp_path / "deck.json")
    options = RenderOptions(output_dir=out, layouts_dir=tmp_path / "layouts", png=True, dpi=72)
    render_catalog(catalog, options)
    assert not any(path.exists() for path in stale)
    assert all(path.exists() for path in foreign)
    assert (out / "card-sheets.pdf").read_bytes().startswith(b"%PDF-")
    assert remove_stale_output(out, ["card"]) == []  # nothing left to clean
