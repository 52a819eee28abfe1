"""`protopress solo stonespine-architects` with no input to read: standard input at
its end (`< /dev/null`) or closed (`0<&-`). Either way no answer can come, so the
session stops at its first question with one line saying why and how to go on,
the game saved, and exit 1 (as for any input that ends before the session is over:
the session did not finish). With stdin closed it was exit 70 (`internal error:
AttributeError: 'NoneType' object has no attribute 'readline'`).

Each case runs a real process limited to 1 GiB of address space and 60 s.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess

import pytest

from .reliability_helpers import environment, protopress_command

GIB = 1024**3
WHERE = "(setup: the goal card)"  # the first question, where the session stops


def _closed_stdin() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))
    os.close(0)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


INPUTS = {
    "at its end": (subprocess.DEVNULL, _limited, "The input ended before the session was over"),
    "closed": (None, _closed_stdin, "Standard input is closed, so no answer can come"),
}


@pytest.mark.parametrize("case", INPUTS)
def test_solo_with_no_input_stops_with_one_line_and_the_game_saved(tmp_path, case):
    stdin, preexec, said = INPUTS[case]
    env = environment() | {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = subprocess.run(
        protopress_command("solo", "stonespine-architects", "--seed", 3),
        stdin=stdin,
        preexec_fn=preexec,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    save = tmp_path / "data" / "protopress" / "solo-stonespine-architects.json"
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr == ""
    last = result.stdout.splitlines()[-1]
    assert last == (
        f"{said} {WHERE}. Your answers are saved in {save}. "
        f"To go on: protopress solo stonespine-architects --resume {save}"
    )
    saved = json.loads(save.read_text())
    assert (saved["seed"], saved["difficulty"], saved["answers"]) == (3, "normal", [])


class _Failing:
    """A standard input whose reads fail, as a terminal that went away does (EIO)."""

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        raise OSError(5, "Input/output error")


def test_solo_with_input_that_cannot_be_read_stops_with_one_line_and_the_game_saved(tmp_path):
    import io

    from protopress.components import builtin_catalog_path, load_catalog
    from protopress.games.stonespine_architects.solo_session import run_session

    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    save = tmp_path / "s.json"
    out = io.StringIO()
    assert run_session(catalog, _Failing(), out, seed=3, save_path=save) == 1
    assert out.getvalue().splitlines()[-1] == (
        f"Standard input cannot be read (Input/output error), so no answer can come "
        f"{WHERE}. Your answers are saved in {save}. "
        f"To go on: protopress solo stonespine-architects --resume {save}"
    )
    assert json.loads(save.read_text())["answers"] == []
