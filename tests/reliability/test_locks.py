"""Two processes on one save or one catalog: the second is refused, nothing is lost."""

import subprocess
import time

from protopress.files import exclusive

from .reliability_helpers import environment, protopress_command, run_protopress


def test_a_second_session_on_the_same_save_is_refused(tmp_path):
    save = tmp_path / "save.json"
    first = subprocess.Popen(
        protopress_command("solo", "stonespine-architects", "--seed", "5", "--save", save),
        env=environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        for _ in range(200):  # the first session has saved its first step
            if save.exists():
                break
            time.sleep(0.05)
        assert save.exists()
        second = run_protopress("solo", "stonespine-architects", "--resume", save, timeout=60,
                                stdin=subprocess.DEVNULL)  # fmt: skip
        assert second.returncode == 1
        assert b"the saved session is in use by another protopress process" in second.stderr
    finally:
        first.kill()
        first.communicate()


def test_an_import_into_a_catalog_another_process_holds_is_refused(tmp_path):
    table = tmp_path / "cards.csv"
    table.write_text("id,title\nc1,One\n")
    catalog = tmp_path / "catalog.json"
    with exclusive(catalog, "the catalog"):
        held = run_protopress("import", table, "--kind", "card", "-o", catalog, timeout=60)
    assert held.returncode == 1
    assert b"the catalog is in use by another protopress process" in held.stderr
    assert not catalog.exists()
    free = run_protopress("import", table, "--kind", "card", "-o", catalog, timeout=60)
    assert free.returncode == 0, free.stderr
    assert not (tmp_path / ".catalog.json.lock").exists()
