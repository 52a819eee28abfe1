"""protopress diff: a designer's changelog between two catalog versions."""

import json

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import builtin_catalog_path


def write(path, document):
    path.write_text(json.dumps(document))
    return str(path)


def versions(tmp_path):
    base = json.loads(builtin_catalog_path("gemstone-caverns").read_text())
    new = json.loads(json.dumps(base))
    new["version"] = "1.1.0"
    new["dice"][0]["faces"][0] = new["dice"][0]["faces"][1]
    new["dice"][1]["colour"] = "#000000"
    del new["dice"][1]["name"]
    new["dice"].append({"id": "bonus-die", "faces": new["dice"][0]["faces"]})
    removed = new["symbols"].pop()
    for die in new["dice"]:
        die["faces"] = [f if f != removed["id"] else new["symbols"][0]["id"] for f in die["faces"]]
    new["totals"]["dice"] = 5
    new["totals"]["symbols"] = 5
    return base, new, removed


def test_diff_lists_added_removed_and_changed_fields(tmp_path):
    base, new, removed = versions(tmp_path)
    old_path = write(tmp_path / "old.json", base)
    new_path = write(tmp_path / "new.json", new)
    result = CliRunner().invoke(cli, ["diff", old_path, new_path])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "~ catalog gemstone-caverns: totals.dice: 4 -> 5",
        "~ catalog gemstone-caverns: totals.symbols: 6 -> 5",
        '~ catalog gemstone-caverns: version: "1.0.0" -> "1.1.0"',
    ]
    assert f"- symbol {removed['id']}" in lines
    assert "+ die bonus-die" in lines
    die1 = base["dice"][1]
    assert f'~ die {die1["id"]}: colour: "{die1["colour"]}" -> "#000000"' in lines
    assert f'~ die {die1["id"]}: name removed (was "{die1["name"]}")' in lines
    die0 = base["dice"][0]
    assert any(line.startswith(f"~ die {die0['id']}: faces: [") for line in lines)


def test_diff_json_and_identical_catalogs(tmp_path):
    base, new, _ = versions(tmp_path)
    result = CliRunner().invoke(
        cli, ["diff", "--json", write(tmp_path / "a.json", base), write(tmp_path / "b.json", new)]
    )
    changes = json.loads(result.stdout)
    added = [c for c in changes if c["status"] == "added"]
    assert added == [{"kind": "die", "id": "bonus-die", "status": "added"}]
    same = CliRunner().invoke(cli, ["diff", "gem-rush", "gem-rush"])
    assert same.exit_code == 0
    assert same.stdout == ""


def test_diff_of_an_invalid_catalog_exits_1(tmp_path):
    broken = write(tmp_path / "broken.json", {"game": "x"})
    result = CliRunner().invoke(cli, ["diff", "gem-rush", broken])
    assert result.exit_code == 1
    assert "missing required property 'title'" in result.stdout
