"""Every read of a file named by the user is bounded, also the second reads:
locating problems in a file read before, refusing a file that is not a save,
showing a catalog's problems in the preview, reading a balance run."""

import tracemalloc

import pytest

from protopress.balance import load_run
from protopress.files import read_text_again
from protopress.games.stonespine_architects.solo.saves import SessionError, guard
from protopress.web.preview import Preview

HUGE = 1024**3  # a sparse GiB: no disk used, but reading it whole takes a GiB or more
BOUND = 300 * 1024**2  # what a read bounded at 64 MiB may take, with room to spare


def _sparse(path, size=HUGE):
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def _peak(work) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_file_read_again_to_locate_problems_is_read_boundedly(tmp_path):
    path = _sparse(tmp_path / "grown.json")
    text = []
    assert _peak(lambda: text.append(read_text_again(path))) < BOUND
    assert len(text[0]) == 64 * 1024**2 + 1


def test_the_preview_shows_a_huge_catalogs_problem_without_reading_it(tmp_path):
    """Preview read the catalog whole to place its problems beside faces."""
    path = _sparse(tmp_path / "catalog.json")
    made = []
    assert _peak(lambda: made.append(Preview(path))) < BOUND
    assert any("larger than 64 MiB" in problem for problem in made[0].model["problems"])


def test_solo_refuses_a_huge_file_as_its_save_without_reading_it_whole(tmp_path):
    """guard() read an existing --save file whole before refusing it."""
    path = _sparse(tmp_path / "save.json")

    def refuse():
        with pytest.raises(SessionError, match="not a solo session save"):
            guard(path)

    assert _peak(refuse) < BOUND


def test_a_huge_balance_run_is_refused_without_reading_it_whole(tmp_path):
    path = _sparse(tmp_path / "run.json")

    def refuse():
        with pytest.raises(ValueError, match="cannot read a balance run"):
            load_run(path)

    assert _peak(refuse) < BOUND
