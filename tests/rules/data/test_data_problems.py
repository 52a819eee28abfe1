"""Mistaken and hostile rules files: each gets a located problem (file:line:column
/pointer: message) and exit 1 through the command line; never a traceback, never code run."""

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli, main

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cottage-market"
GOOD = (EXAMPLE / "rules.yaml").read_text()
LOCATED = re.compile(r"^\S*rules\.(yaml|json):\d+:\d+ /\S*: .+")

# (name, text to replace in the example's rules.yaml, its replacement, what the problem says)
EDITS = [
    (
        "resource typo",
        "- pay: card.cost",
        "- pay: gould",
        "/turn/choose/build/do/0/pay: 'gould' is not a resource of this catalog (did you mean 'gold'?)",
    ),
    (
        "field typo",
        "card.points + 1",
        "card.pionts + 1",
        "/score: 'pionts' is not a field of the catalog's cards (did you mean 'points'?)",
    ),
    ("zone typo", "empty(market)", "empty(markt)", "(did you mean 'market'?)"),
    (
        "own zone typo",
        "to: my.built}",
        "to: my.bilt}",
        "a player has no 'bilt' (did you mean 'built'?)",
    ),
    (
        "option typo",
        "option.rounds *",
        "option.round *",
        "not an option of these rules (did you mean 'rounds'?)",
    ),
    ("unknown function", "empty(market)", "__import__('os')", "'__import__' is not a function"),
    ("lambda", "empty(market)", "'(lambda: 1)'", "lambda is not part of the rules language"),
    ("lambda unquoted", "empty(market)", "(lambda: 1)", "is not an expression: write it as text"),
    ("dunder field", "card.points + 1", "card.__class__ + 1", "names starting with _"),
    ("dunder chain", "empty(market)", "market.__class__.__bases__", "names starting with _"),
    ("tuple trick", "empty(market)", "().__class__", "names starting with _"),
    ("tuple", "empty(market)", "(1, 2) == (1, 2)", "a tuple is not part"),
    ("open", "empty(market)", "open('/etc/passwd')", "'open' is not a function"),
    ("power", "option.rounds * players", "option.rounds ** 99", "** is not part"),
    ("division", "option.rounds * players", "option.rounds / players", "/ is not part"),
    ("f-string", "empty(market)", "f'{market}'", "an f-string is not part"),
    (
        "list comprehension",
        "empty(market)",
        "'[c for c in market]'",
        "a list comprehension is not part",
    ),
    ("subscript", "empty(market)", "market[0]", "indexing ([...]) is not part"),
    ("walrus", "empty(market)", "(x := 1)", ":= is not part"),
    ("is", "empty(market)", "turns is 1", "is is not part"),
    ("deep nesting", "empty(market)", "not " * 20 + "turns", "nested too deeply"),
    ("huge number", "option.rounds * players", "1000000000", "numbers are at most"),
    ("long expression", "empty(market)", "turns + " * 60 + "1", "too long"),
    ("huge count", "n: option.start_gold", "n: 99999999999", "at most 1000000"),
    ("huge slots", "slots: 3", "slots: 1000", "at most 64"),
    ("no players", "min: 2", "min: 0", "at least 1"),
    ("min over max", "max: 4", "max: 1", "min is more than max"),
    ("refill step typo", "- refill: market  ", "- refill: markte  ", "(did you mean 'market'?)"),
    (
        "refill zone typo",
        "refill: deck}",
        "refill: dekc}",
        "'dekc' is not a zone (did you mean 'deck'?)",
    ),
    (
        "kind typo",
        "holds: card, seen: everyone, slots",
        "holds: cards, seen: everyone, slots",
        "the catalog has no 'cards' components (did you mean 'card'?)",
    ),
    ("resources kind typo", "{kind: symbol}", "{kind: symbols}", "(did you mean 'symbol'?)"),
    (
        "top-level typo",
        "title: Cottage Market",
        "titel: Cottage Market",
        "unknown key 'titel' (did you mean 'title'?)",
    ),
    ("version", "rules: 1", "rules: 2", "expected 1, found 2"),
    ("players type", "players: {min: 2, max: 4}", "players: 4", "expected an object, found 4"),
    ("score type", "score: sum(", "score: [1]\nx: sum(", "is not an expression"),
    (
        "two option types",
        "{whole: 12,",
        "{flag: true, whole: 12,",
        "exactly one of whole, flag or choice",
    ),
    (
        "two verbs",
        "- pay: card.cost",
        "- {pay: card.cost, gain: wood}",
        "a step does one thing: two verbs",
    ),
    (
        "modifier of another verb",
        "do: [{gain: resource}]",
        "do: [{gain: resource, to: market}]",
        "'to' does not go with gain",
    ),
    (
        "move unchosen",
        "{move: card, to: my.built}",
        "{move: cards, to: my.built}",
        "only the card chosen",
    ),
    ("draw from a row", "- refill: market  ", "- {draw: market, to: deck}  ", "a row of slots"),
    (
        "deal to a shared zone",
        "- refill: market  ",
        "- {deal: deck, to: market}  ",
        "'market' is shared",
    ),
    ("each without from", "      from: resources\n", "", "`each` and `from` go together"),
    (
        "steps nested deeply",
        "do: [{gain: resource}]",
        "do: [" + "{if: true, then: [" * 10 + "]}" * 10 + "]",
        "nested too deeply",
    ),
    ("seen typo", "seen: nobody", "seen: nobodi", "(did you mean 'nobody'?)"),
    ("reserved zone name", "  built:  {", "  my:  {", "'my' is a word of the rules language"),
    ("keyword verb", "    take:\n", "    for:\n", "'for' is a word of the rules language"),
    ("game id pattern", "game: cottage-market", "game: Cottage Market", "is not a name"),
    (
        "arithmetic on a list",
        "if: can_pay(card.cost)",
        "if: card.cost + 1",
        "arithmetic needs numbers, not a list",
    ),
    (
        "empty of a pool",
        "empty(market)",
        "empty(my.resources)",
        "empty(...) needs a zone or a list",
    ),
    ("gain a card", "- pay: card.cost", "- gain: card", "expected text or a list, found a card"),
    ("choice from a typo", "from: market", "from: my.bilt", "a player has no 'bilt'"),
    (
        "the brief's count",
        "count(card for card in my.built if card.produces)",
        "count(card in my.built if card.produces)",
        "not an expression",
    ),
    (
        "for over options",
        "in: my.built",
        "in: option",
        "`for` goes through a zone or a list, not the options",
    ),
    (
        "field of a number",
        "card.points + 1",
        "card.points.real + 1",
        "a number has no field 'real'",
    ),
    (
        "yaml tag",
        "game: cottage-market",
        "game: !!python/object/apply:os.system ['true']",
        "YAML tag",
    ),
    (
        "duplicate key",
        "title: Cottage Market",
        "title: Cottage Market\ntitle: Again",
        "duplicate key",
    ),
    ("yes is not true", "distinct: true", "distinct: yes", "yes"),
    ("a string as steps", "do: [{gain: resource}]", "do: gain", "expected a list"),
    ("bad yaml", "zones:", "zones: [", "invalid YAML"),
    ("float count", "n: option.start_gold", "n: 1.5", "1.5"),
    (
        "unknown name",
        "turns >= option.rounds * players",
        "turn >= option.rounds * players",
        "(did you mean 'turns'?)",
    ),
    ("a shared zone as mine", "to: my.built}", "to: my.market}", "'market' is shared"),
    ("my zone bare", "in: my.built", "in: built", "every player has a built: write my.built"),
]


def run(tmp_path, text, name="rules.yaml"):
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    path = tmp_path / name
    path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    return CliRunner().invoke(cli, ["simulate", "cottage-market", "--rules", str(path)])


def assert_located(result, expected):
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and LOCATED.match(lines[0]), result.output
    assert any(expected in line for line in lines), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_the_example_is_valid(tmp_path):
    result = run(tmp_path, GOOD)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("old", "new", "expected"), [e[1:] for e in EDITS], ids=[e[0] for e in EDITS]
)
def test_a_mistaken_rules_file_is_a_located_problem(tmp_path, old, new, expected):
    assert old in GOOD
    assert_located(run(tmp_path, GOOD.replace(old, new, 1)), expected)


def test_the_briefs_example_message_is_exact(tmp_path):
    result = run(tmp_path, GOOD.replace("- pay: card.cost", "- pay: gould"))
    assert result.output.splitlines()[0] == (
        f"{tmp_path / 'rules.yaml'}:43:16 /turn/choose/build/do/0/pay: "
        "'gould' is not a resource of this catalog (did you mean 'gold'?)"
    )


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = GOOD.replace("empty(market)", "empty(markt)").replace("card.points", "card.pionts")
    lines = run(tmp_path, text).output.splitlines()
    assert sum(bool(LOCATED.match(line)) for line in lines) == 2


def test_a_billion_laughs_stops_at_the_alias_limit(tmp_path):
    laughs = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    laughs += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    text = "x-laughs:\n" + "\n".join("  " + line for line in laughs) + "\n" + GOOD
    assert_located(run(tmp_path, text), "aliases repeat more than")


def test_not_utf8(tmp_path):
    assert_located(run(tmp_path, GOOD.encode() + b"\xff\xfe"), "not UTF-8")


def test_too_large(tmp_path):
    assert_located(run(tmp_path, GOOD + "#" * 300_000 + "\n"), "larger than")


def test_a_json_rules_file_is_located_too(tmp_path):
    text = '{"rules": 1, "game": "cottage-market", "players": {"min": 2, "max": 4},\n' \
           ' "zones": {"deck": {"holds": "card", "seen": "nobody"}},\n' \
           ' "turn": {"choose": {"wait": {"do": []}}},\n "end": ["turns >= 2"], "score": "scroe"}\n'  # fmt: skip
    result = run(tmp_path, text, "rules.json")
    assert_located(result, "'scroe' is not a name of these rules")
    assert result.output.startswith(f"{tmp_path / 'rules.json'}:4:")


def test_another_games_rules_are_refused(tmp_path):
    result = run(tmp_path, GOOD.replace("game: cottage-market", "game: other-game"))
    assert result.exit_code == 1 and "holds the rules of 'other-game'" in result.output


def test_a_missing_rules_file_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(
        cli, ["simulate", "cottage-market", "--rules", str(tmp_path / "no.yaml")]
    )
    assert result.exit_code == 2 and "no such rules file" in result.output


def test_a_mistake_found_with_another_catalog_is_located_in_the_rules(
    tmp_path, capsys, monkeypatch
):
    """--catalog: the rules are compiled against it when a game is set up; the
    entry point shows the problem located in the rules file and exits 1."""
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "rules.yaml").write_text(GOOD)
    catalog = json.loads((EXAMPLE / "catalog.json").read_text())
    for card in catalog["cards"]:
        card["worth"] = card.pop("points", 0)
    (tmp_path / "other.json").write_text(json.dumps(catalog))
    rules, other = str(folder / "rules.yaml"), str(tmp_path / "other.json")
    argv = ["protopress", "simulate", "cottage-market", "--rules", rules, "--catalog", other]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{rules}:51:17 /score: 'points' is not a field of the catalog's cards")


def test_rules_that_fail_in_play_are_a_rules_fault_naming_the_file(tmp_path, capsys, monkeypatch):
    """A division by zero in the score (turns - turns): exit 1, the file and the line named."""
    shutil.copy(EXAMPLE / "catalog.json", tmp_path / "catalog.json")
    rules = tmp_path / "rules.yaml"
    rules.write_text(GOOD.replace("score: sum(", "score: 10 // (turns - turns) + sum("))
    monkeypatch.setattr(
        sys, "argv", ["protopress", "simulate", "cottage-market", "--rules", str(rules)]
    )
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert f"{rules}: the rules failed in score line 'score': ZeroDivisionError" in err
    assert "Traceback" not in err and "internal error" not in err
