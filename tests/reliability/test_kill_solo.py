"""A real `protopress solo` process killed (SIGKILL) at any moment resumes with
every acknowledged answer kept, and ends exactly as an uninterrupted session."""

import contextlib
import importlib.util
import json
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from protopress.atomic import temporary_target

from .reliability_helpers import (
    environment,
    needs_sigkill,
    protopress_command,
    run_protopress,
    stalling_command,
)

pytestmark = [pytest.mark.kill, needs_sigkill]


def _scripted_session():
    """The scripted answers of the session module's own tests (seed 3, normal)."""
    path = (
        Path(__file__).resolve().parent.parent
        / "games"
        / "stonespine_architects"
        / "test_solo_session.py"
    )
    spec = importlib.util.spec_from_file_location("_scripted_solo_session", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.NORMAL, module.NORMAL_RESULT


NORMAL, NORMAL_RESULT = _scripted_session()
PROMPT = b" > "  # every question ends so; piped answers are echoed after it
HASH_SEEDS = (12345, 999)  # killed and resumed processes order their sets differently
TIMEOUT = 60  # seconds to wait for a prompt: only reached when something hangs


def new_session(save) -> tuple:
    return ("solo", "stonespine-architects", "--seed", 3, "--save", save)


def resumed(save) -> tuple:
    return ("solo", "stonespine-architects", "--resume", save)


def typed(answers) -> bytes:
    return "".join(f"{answer}\n" for answer in answers).encode("utf-8")


def result(output: str) -> str:
    start = output.index("== Result ==")
    return output[start : output.index("\nThe session is saved in", start)]


def saved(path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


class Live:
    """A solo session in a subprocess, answered one line at a time like a player."""

    def __init__(self, command: list[str]):
        self.process = subprocess.Popen(
            command,
            env=environment(HASH_SEEDS[0]),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            bufsize=0,
        )
        self.output = b""
        self.ended = False
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while chunk := self.process.stdout.read(4096):
            with self.changed:
                self.output += chunk
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def prompts(self) -> int:
        return self.output.count(PROMPT)

    def wait_for(self, seen) -> None:
        with self.changed:
            found = self.changed.wait_for(lambda: seen() or self.ended, timeout=TIMEOUT)
        assert found and seen(), self.output.decode()[-2000:]

    def wait_for_prompt(self, number: int) -> None:
        """Until question `number` (1-based) is asked: every answer before it is in."""
        self.wait_for(lambda: self.prompts() >= number)

    def answer(self, line: str) -> None:
        self.process.stdin.write(line.encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.reader.join(TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(BrokenPipeError):
                stream.close()


def play_until_killed(args, answers, rng, *, type_last=True) -> None:
    """Type the answers, each once its question shows. Then kill the process:
    while it waits for the next answer (type_last=False), or 0 to 30 ms after
    the last answer is typed (it may or may not have taken it)."""
    live = Live(protopress_command(*args))
    try:
        for number, line in enumerate(answers[:-1] if type_last else answers, start=1):
            live.wait_for_prompt(number)
            live.answer(line)
        if type_last:
            live.wait_for_prompt(len(answers))
            live.answer(answers[-1])
            time.sleep(rng.choice([0.0, rng.uniform(0.0, 0.005), rng.uniform(0.0, 0.03)]))
        else:
            live.wait_for_prompt(len(answers) + 1)
    finally:
        live.kill()


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    save = tmp_path_factory.mktemp("solo") / "whole.json"
    whole = run_protopress(*new_session(save), input=typed(NORMAL))
    assert whole.returncode == 0, whole.stdout.decode()
    out = whole.stdout.decode()
    assert result(out) == NORMAL_RESULT
    assert saved(save)["answers"] == NORMAL and saved(save)["complete"] is True
    return result(out)


def finish(save, expected_result):
    """Resume with the answers not saved yet; the end must be the uninterrupted one."""
    data = saved(save)  # a complete JSON document, never a torn one
    kept = data["answers"]
    assert kept == NORMAL[: len(kept)], "the save holds answers that were not typed"
    rest = NORMAL[len(kept) :]
    done = run_protopress(*resumed(save), input=typed(rest), hash_seed=HASH_SEEDS[1])
    out = done.stdout.decode()
    assert done.returncode == 0, out[-2000:]
    noun = "answer" if len(kept) == 1 else "answers"
    assert f"Resumed {save}: {len(kept)} {noun} restored (normal, seed 3)." in out
    assert result(out) == expected_result
    assert saved(save)["answers"] == NORMAL and saved(save)["complete"] is True
    return len(kept)


@pytest.mark.parametrize("k", [0, 1, 9, 17, 26, 37])
def test_a_session_killed_after_k_answers_resumes_to_the_same_end(tmp_path, uninterrupted, k):
    save = tmp_path / "solo.json"
    play_until_killed(new_session(save), NORMAL[:k], random.Random(k), type_last=False)
    assert saved(save)["answers"] == NORMAL[:k]  # killed while question k + 1 waits
    assert finish(save, uninterrupted) == k


@pytest.mark.parametrize("k", [0, 1, 9, 17, 26, 37])
def test_a_session_killed_as_an_answer_is_typed_resumes_to_the_same_end(tmp_path, uninterrupted, k):
    save = tmp_path / "solo.json"
    play_until_killed(new_session(save), NORMAL[: k + 1], random.Random(k))
    # answer k + 1 was typed just before the kill: it is saved whole or not at all
    assert saved(save)["answers"] in (NORMAL[:k], NORMAL[: k + 1])
    finish(save, uninterrupted)


def test_a_session_killed_twice_resumes_twice_to_the_same_end(tmp_path, uninterrupted):
    save = tmp_path / "solo.json"
    rng = random.Random(7)
    play_until_killed(new_session(save), NORMAL[:12], rng)
    first = len(saved(save)["answers"])
    assert first in (11, 12)
    play_until_killed(resumed(save), NORMAL[first:30], rng)  # killed again
    second = len(saved(save)["answers"])
    assert second in (29, 30)
    assert finish(save, uninterrupted) == second


def test_a_session_killed_while_saving_keeps_the_previous_save(tmp_path, uninterrupted):
    """Killed halfway through writing the save after answer 5 (its sixth save):
    the save still holds the 4 answers before, whole; the torn half lies in a
    hidden temporary, which the resumed session removes."""
    save = tmp_path / "solo.json"
    live = Live(stalling_command(6, *new_session(save)))
    try:
        for number, line in enumerate(NORMAL[:5], start=1):
            live.wait_for_prompt(number)
            live.answer(line)
        live.wait_for(lambda: b"torn\n" in live.output)
    finally:
        live.kill()
    assert saved(save)["answers"] == NORMAL[:4]
    hidden = [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    (temporary,) = [p for p in hidden if not p.name.endswith(".lock")]  # the session's lock stays
    assert temporary_target(temporary.name) == (save.name, live.process.pid)
    with pytest.raises(json.JSONDecodeError):
        json.loads(temporary.read_text(encoding="utf-8"))  # torn, and never read
    assert finish(save, uninterrupted) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == [save.name]
