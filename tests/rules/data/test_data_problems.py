"""Mistaken and hostile rules files: each gets a located problem (file:line:column
/pointer: message) and exit 1 through the command line; never a traceback, a hang, an
internal error or code run.

One table holds every edit of an example's rules.yaml and what its problem says:
Cottage Market's names and expressions, YAML tricks, wrong types, unknown references,
cycles, loops the language cannot write, huge counts and deep nesting, and
Brookfield's grids. Whole files and the size bound follow it."""

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from protopress.cli import cli, main
from protopress.rules.data.build import MAX_STEP_DEPTH
from protopress.rules.data.expr import MAX_DEPTH, MAX_NUMBER, MAX_TEXT
from protopress.rules.data.load import MAX_RULES_BYTES

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
EXAMPLE = EXAMPLES / "cottage-market"
GOOD = (EXAMPLE / "rules.yaml").read_text()
LOCATED = re.compile(r"^\d+:\d+ /\S*: .+")  # what follows the file: line:column /pointer: message

MARKET = "  market: {holds: card, seen: everyone, slots: 3, refill: deck}"
BUILD_DO = "        - {move: card, to: my.built}"
TAKE_DO = "      do: [{gain: resource}]"
SCORE = "score: sum(card.points + 1 for card in my.built)"
END = "  - empty(market)"
VALUE = "  value: score + 0.4 * total(my.resources) + 0.8 * count(card for card in my.built if card.produces)"  # fmt: skip


def nested_ifs(levels: int) -> str:
    """A build step inside `levels` nested ifs, indented to sit in build's do list."""
    lines, pad = [], "        "
    for _ in range(levels):
        lines += [f"{pad}- if: turns >= 0", f"{pad}  then:"]
        pad += "    "
    return "\n".join([*lines, f"{pad}- {{gain: gold}}"])


# example -> (name, text in its rules.yaml, its replacement, what the problem says)
EDITS: dict[str, list[tuple[str, str, str, str]]] = {
    "cottage-market": [
        # --- names, the expression language, types and YAML ---
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
        # --- YAML tricks ---
        ("merge key", "players: {min: 2, max: 4}", "base: &b {min: 2}\nplayers: {<<: *b, max: 4}", "merge keys (<<) are not read"),  # fmt: skip
        ("binary tag", "title: Cottage Market", "title: !!binary aGVsbG8=", "tag"),
        ("python name tag", "game: cottage-market", "game: !!python/name:os.system", "tag"),
        ("custom tag", "title: Cottage Market", "title: !shout Cottage Market", "tag"),
        ("set tag", "title: Cottage Market", "title: !!set {a, b}", "tag"),
        ("two documents", "rules: 1\n", "rules: 1\n---\nrules: 1\n", "document"),
        ("tab indentation", "  deck:   {holds", "\tdeck:   {holds", "invalid YAML"),
        ("recursive alias", "title: Cottage Market", "title: &t [*t]", ""),
        ("undefined alias", "title: Cottage Market", "title: *nothing", "nothing"),
        ("complex key", "  built:  {holds", "  ? [a, b]\n  : {holds: card, seen: everyone}\n  built:  {holds", ""),  # fmt: skip
        ("number as key", "  built:  {holds", "  7: {holds: card, seen: everyone}\n  built:  {holds", "a key must be text"),  # fmt: skip
        ("null zone", "  built:  {holds: card, seen: everyone, each: true}", "  built:", "expected an object, found null"),  # fmt: skip
        ("unclosed flow", "players: {min: 2, max: 4}", "players: {min: 2, max: 4", ""),
        ("unclosed quote", "title: Cottage Market", 'title: "Cottage Market', ""),
        ("duplicate zone", "  built:  {holds", "  deck: {holds: card, seen: nobody}\n  built:  {holds", "duplicate key"),  # fmt: skip
        ("duplicate action", "    build:\n", "    take: {do: []}\n    build:\n", "duplicate key"),
        ("huge integer digits", "n: option.start_gold", "n: " + "9" * 5000, ""),
        ("octal slots", "slots: 3", "slots: 0o3", "YAML-only notation"),
        ("half slots", "slots: 3", "slots: 2.5", "whole number"),
        ("infinite slots", "slots: 3", "slots: .inf", "infinity or not-a-number"),
        ("not a number slots", "slots: 3", "slots: .nan", "infinity or not-a-number"),
        ("text slots", "slots: 3", 'slots: "3"', "whole number"),
        ("boolean slots", "slots: 3", "slots: true", "whole number"),
        ("null rules version", "rules: 1", "rules: ~", "expected"),
        ("fractional version", "rules: 1", "rules: 1.5", "expected"),
        ("text version", "rules: 1", 'rules: "1"', "expected"),
        ("text shuffle", "shuffle: true", 'shuffle: "true"', "true or false"),
        ("number shuffle", "shuffle: true", "shuffle: 1", "true or false"),
        ("text each", "each: true}", 'each: "yes"}', "true or false"),
        ("NUL in a zone name", "  built:  {holds", '  "bu\\0ilt": {holds: card, seen: nobody}\n  built:  {holds', "is not a name"),
        ("unicode zone name", "  built:  {holds", "  d\u00ebck: {holds: card, seen: nobody}\n  built:  {holds", "is not a name"),  # fmt: skip
        ("very long key", "title: Cottage Market", "title: Cottage Market\n" + "k" * 5000 + ": 1", "invalid YAML"),  # fmt: skip
        ("very long title", "title: Cottage Market", "title: " + "C" * 200, "too long"),
        ("very long game id", "game: cottage-market", "game: " + "c" * 200, ""),
        # --- wrong types ---
        ("players as a list", "players: {min: 2, max: 4}", "players: [2, 4]", "expected an object, found [2, 4]"),  # fmt: skip
        ("players min text", "min: 2,", 'min: "two",', "expected a whole number"),
        ("players missing min", "players: {min: 2, max: 4}", "players: {max: 4}", "missing 'min'"),
        ("players too many", "max: 4}", "max: 1000}", "at most"),
        ("zones as a list", "zones:\n  deck:", "zones: [deck]\nold_zones:\n  deck:", "expected an object"),
        ("zones empty", "zones:\n  deck:   {holds: card, seen: nobody, setup: all, shuffle: true}\n  market: {holds: card, seen: everyone, slots: 3, refill: deck}\n  built:  {holds: card, seen: everyone, each: true}", "zones: {}", "must not be empty"),  # fmt: skip
        ("zone missing holds", "  built:  {holds: card, seen: everyone, each: true}", "  built:  {seen: everyone, each: true}", "missing 'holds'"),  # fmt: skip
        ("zone holds a number", "  built:  {holds: card,", "  built:  {holds: 5,", "expected text"),
        ("zone unknown key", "each: true}", "each: true, size: 3}", "unknown key 'size'"),
        ("seen public", "seen: everyone, each", "seen: public, each", "expected"),
        ("setup some", "setup: all", "setup: some", "expected"),
        ("zero slots", "slots: 3", "slots: 0", "at least"),
        ("negative slots", "slots: 3", "slots: -1", "at least"),
        ("turn as a list", "turn:\n  order: clockwise", "turn: [clockwise]\nold_turn:\n  order: clockwise", "expected an object"),  # fmt: skip
        ("turn missing choose", "  choose:\n    take:", "  chose:\n    take:", "unknown key 'chose'"),
        ("choose as a list", "  choose:\n    take:\n      each: resource", "  choose:\n    - take:\n      each: resource", ""),  # fmt: skip
        ("action missing do", TAKE_DO, "", "missing 'do'"),
        ("do as text", TAKE_DO, "      do: gain resource", "expected a list"),
        ("a number as a step", TAKE_DO, "      do: [42]", "expected an object"),
        ("an empty step", TAKE_DO, "      do: [{}]", "must not be empty"),
        ("verb typo", TAKE_DO, "      do: [{gian: resource}]", "gian"),
        ("a list as a step", TAKE_DO, "      do: [[gain, resource]]", "expected an object"),
        ("count as text", "n: option.start_gold", "n: lots", "'lots' is not a name of these rules"),
        ("count a flag", "n: option.start_gold", "n: turns > 1", "expected a number, found true or false"),
        ("move without to", BUILD_DO, "        - {move: card}", "move needs 'to'"),
        ("move to nowhere", BUILD_DO, "        - {move: card, to: my.attic}", "a player has no 'attic'"),
        ("move to a number", BUILD_DO, "        - {move: card, to: 3}", "expected text, found 3"),
        ("move the wrong name", BUILD_DO, "        - {move: crad, to: my.built}", "'crad': only the card chosen"),  # fmt: skip
        ("discard unchosen", BUILD_DO, "        - {discard: cottage}", "only the card chosen"),
        ("draw to nowhere", "- refill: market  ", "- {draw: deck, to: attic}\n  - refill: market  ", "'attic'"),  # fmt: skip
        ("draw without to", "- refill: market  ", "- {draw: deck}\n  - refill: market  ", "draw needs 'to'"),  # fmt: skip
        ("deal to a zone typo", "- refill: market  ", "- {deal: deck, to: biult}\n  - refill: market  ", "(did you mean 'built'?)"),  # fmt: skip
        ("refill a zone with no slots", "- refill: market  ", "- refill: deck  ", "has no slots"),
        ("refill a number", "- refill: market  ", "- refill: 12  ", "expected text, found 12"),
        ("if without then", BUILD_DO, "        - {if: turns > 1}", "if needs 'then'"),
        ("then as text", BUILD_DO, "        - {if: turns > 1, then: gain}", "expected a list"),
        ("else as an object", BUILD_DO, "        - {if: turns > 1, then: [], else: {gain: gold}}", "expected a list"),  # fmt: skip
        ("for without in", "      in: my.built\n", "", "for needs 'in'"),
        ("for over a number", "in: my.built", "in: turns", "not a number"),
        ("for over a typo", "in: my.built", "in: my.biult", "(did you mean 'built'?)"),
        ("for name reserved", "    - for: card", "    - for: score", "a word of the rules language"),
        ("for name a keyword", "    - for: card", "    - for: class", "a word of the rules language"),
        ("for name a number", "    - for: card", "    - for: 3", "expected text"),
        ("each_player as text", "  - each_player:\n      - {gain: gold, n: option.start_gold}", "  - each_player: gain", "expected a list"),  # fmt: skip
        ("each_player extra key", "  - each_player:\n", "  - to: built\n    each_player:\n", "'to' does not go with each_player"),  # fmt: skip
        ("distinct as text", "distinct: true ", 'distinct: "yes" ', "true or false"),
        ("condition unclosed", "if: can_pay(card.cost)", "if: can_pay(card.cost", "not an expression"),
        ("each reserved", "each: card", "each: players", "a word of the rules language"),
        ("from a number", "from: market", "from: 7", "expected"),
        ("from a typo", "from: market", "from: makret", "(did you mean 'market'?)"),
        ("pay a typo resource", "- pay: card.cost", "- pay: stoen", "(did you mean 'stone'?)"),
        ("pay a number", "- pay: card.cost", "- pay: 3", "expected text or a list, found a number"),
        ("gain a flag", TAKE_DO, "      do: [{gain: turns > 1}]", "expected text or a list, found true or false"),
        # --- options ---
        ("option default below min", "whole: 12, min: 1", "whole: 0, min: 1", "out of min..max"),
        ("option flag as text", "rounds: {whole: 12, min: 1, max: 100,", 'rounds: {flag: "yes",', ""),
        ("option choice not of", "rounds: {whole: 12, min: 1, max: 100,", "rounds: {choice: long, of: [short, medium],", "the default is not one of"),  # fmt: skip
        ("option without says", ", says: gold each player starts with}", "}", "missing 'says'"),
        ("option name reserved", "  start_gold: {", "  players: {", "a word of the rules language"),
        ("option name a function", "  start_gold: {", "  sum: {", "a word of the rules language"),
        ("option min as text", "min: 0, max: 20", 'min: "none", max: 20', "expected a whole number"),
        ("option unknown key", "max: 20, says", "max: 20, step: 2, says", "unknown key 'step'"),
        ("option as a list", "  start_gold: {whole: 2, min: 0, max: 20, says: gold each player starts with}", "  start_gold: [2, 0, 20]", "expected an object"),  # fmt: skip
        ("option huge default", "whole: 12,", "whole: 99999999999999,", ""),
        ("options as a list", "options:\n  rounds:", "options: [rounds]\nold_options:\n  rounds:", "expected an object"),
        # --- end, score and bots ---
        ("end empty", "end:\n  - turns >= option.rounds * players\n  - empty(market)", "end: []", "must not be empty"),  # fmt: skip
        ("end as text", "end:\n  - turns >= option.rounds * players\n  - empty(market)", "end: turns >= 1", "expected a list"),  # fmt: skip
        ("end a number", END, "  - 42", "expected true or false, found a number"),
        ("end a zone", END, "  - market", "expected true or false, found a zone"),
        ("end syntax", END, "  - 'turns >='", "not an expression"),
        ("end option typo", "option.rounds * players", "option.roundz * players", "(did you mean 'rounds'?)"),  # fmt: skip
        ("score empty lines", SCORE, "score: {}", "is not an expression"),
        ("score a zone", SCORE, "score: my.built", "expected a number, found a zone"),
        ("score a flag", SCORE, "score: turns > 1", "expected a number, found true or false"),
        ("score line a list", SCORE, "score:\n  cards: [1, 2]", "not an expression"),
        ("score line name", SCORE, "score:\n  Cards!: 1", "is not an expression"),
        ("score card outside", SCORE, "score: card.points", "'card' is not a name of these rules"),
        ("bots unknown key", "bots:\n  value:", "bots:\n  valeu:", "unknown key 'valeu'"),
        ("bots value a list", VALUE, "  value: [1]", "not an expression"),
        ("bots value typo", VALUE, "  value: scroe", "'scroe' is not a name of these rules"),
        # --- expressions ---
        ("set literal", "empty(market)", "'{1, 2} == {1}'", "not part"),
        ("dict literal", "empty(market)", "'{1: 2} == {}'", "not part"),
        ("starred", "empty(market)", "'count(*market)'", "not name=value or *"),
        ("keyword argument", "empty(market)", "empty(zone=market)", "not name=value or *"),
        ("method call", "empty(market)", "market.pop()", ""),
        ("eval", "empty(market)", "eval('1')", "'eval' is not a function"),
        ("exec", "empty(market)", "exec('1')", "'exec' is not a function"),
        ("getattr", "empty(market)", "getattr(market, 'x')", "'getattr' is not a function"),
        ("globals", "empty(market)", "globals()", "'globals' is not a function"),
        ("bytes literal", "empty(market)", "b'x' == b'y'", "not part"),
        ("complex literal", "option.rounds * players", "option.rounds * 1j", "not part"),
        ("ellipsis", "empty(market)", "'... == 1'", "not part"),
        ("slice", "empty(market)", "'market[0:1]'", "not part"),
        ("shift", "option.rounds * players", "1 << 100", "not part"),
        ("bitwise not", "empty(market)", "'~turns > 1'", "not part"),
        ("yield", "empty(market)", "(yield 1)", "not part"),
        ("await", "empty(market)", "(await market)", ""),
        ("a lambda in a generator", "empty(market)", "'any((lambda: c) for c in market)'", "lambda"),
        ("generator over a number", "empty(market)", "any(c for c in turns)", ""),
        ("two generators", "empty(market)", "any(c for c in market for d in market)", ""),
        ("empty of two", "empty(market)", "empty(market, market)", ""),
        ("can_pay of a zone", "if: can_pay(card.cost)", "if: can_pay(market)", ""),
        ("sum of a number", "empty(market)", "sum(turns) > 1", ""),
        ("count of nothing", "empty(market)", "count() > 1", ""),
        ("a field of a zone", "empty(market)", "market.points > 1", ""),
        ("a field of an option", "option.rounds * players", "option.rounds.points * players", "field"),
        ("a text compared with a number", "empty(market)", "'\"gold\" > 1'", "> compares two numbers (or two texts), not text and a number"),
        ("a long text literal", "empty(market)", "'\"" + "x" * 390 + "\" == \"y\"'", "a text in an expression is at most 64 characters"),
        ("nested calls", "empty(market)", "max(" * 20 + "turns" + ")" * 20 + " > 1", "nested too deeply"),
        ("negative huge", "option.rounds * players", f"-{MAX_NUMBER + 1}", "numbers are at most"),
        ("a call of a call", "empty(market)", "empty(market)(1)", ""),
        ("unknown attribute of my", "in: my.built", "in: my.__dict__", "names starting with _"),
        ("a name with a dunder", "empty(market)", "__builtins__", "'__builtins__' is not a name of these rules"),
        ("import", "empty(market)", "'import os'", ""),
        ("assignment", "empty(market)", "'x = 1'", ""),
        ("semicolons", "empty(market)", "'turns > 1; turns'", ""),
        ("a newline in an expression", "empty(market)", '"turns > 1\\nturns > 2"', ""),
        # --- cycles, loops the language cannot write ---
        ("refill from itself", "slots: 3, refill: deck}", "slots: 3, refill: market}", "a row is refilled from a pile, not from itself"),
        ("two rows refilling each other", MARKET, MARKET.replace("refill: deck", "refill: stall") + "\n  stall: {holds: card, seen: everyone, slots: 2, refill: market}", "not from 'stall', a row of slots"),  # fmt: skip
        ("while", TAKE_DO, "      do: [{while: turns < 10, do: [{gain: resource}]}]", ""),
        ("repeat", TAKE_DO, "      do: [{repeat: 1000000, do: [{gain: resource}]}]", ""),
        ("goto", TAKE_DO, "      do: [{goto: setup}]", ""),
        ("call without code", TAKE_DO, "      do: [{call: explode}]", ""),
        ("for over an endless name", "in: my.built", "in: range(10 ** 9)", ""),
        ("an option referring to itself", "whole: 12,", "whole: option.rounds,", "whole number"),
        ("an alias loop through zones", "  built:  {holds: card, seen: everyone, each: true}", "  built: &b {holds: card, seen: everyone, each: true, more: *b}", ""),  # fmt: skip
        # --- huge counts and deep nesting ---
        ("count beyond the bound", "n: option.start_gold", f"n: {MAX_NUMBER + 1}", "at most"),
        ("expression beyond its length", "empty(market)", "turns + " * (MAX_TEXT // 8 + 1) + "1 > 1", "too long"),  # fmt: skip
        ("expression beyond its depth", "empty(market)", "-" * (MAX_DEPTH + 2) + "turns > 1", "nested too deeply"),  # fmt: skip
        ("steps beyond their depth", BUILD_DO, nested_ifs(MAX_STEP_DEPTH + 2), "nested too deeply"),
        ("a thousand zones", "  built:  {holds", "".join(f"  z{i}: {{holds: card, seen: nobody}}\n" for i in range(1000)) + "  built:  {holds", "too long"),  # fmt: skip
        ("a thousand actions", "    build:\n", "".join(f"    a{i}: {{do: []}}\n" for i in range(1000)) + "    build:\n", "too long"),  # fmt: skip
        ("a thousand end conditions", END, "\n".join(["  - turns > 1"] * 1000), "too long"),
        ("a thousand steps", TAKE_DO, "      do: [" + ", ".join(["{gain: resource}"] * 1000) + "]", "too long"),  # fmt: skip
        ("YAML nested beyond its depth", "title: Cottage Market", "title: " + "[" * 70 + "]" * 70, "nested too deeply"),  # fmt: skip
    ],
    "brookfield": [
        # --- grids ---
        ("shape typo", "shape: square", "shape: squre", "(did you mean 'square'?)"),
        ("grid too wide", "width: size", "width: 40", "at most 16"),
        (
            "size option typo",
            "width: size",
            "width: sise",
            "'sise' is not an option of these rules (did you mean 'size'?)",
        ),
        (
            "size option unbounded",
            "max: 6, says: cells",
            "max: 60, says: cells",
            "a grid's width is a whole option with min >= 1 and max <= 16",
        ),
        ("grid missing height", ", height: size}", "}", "missing 'height'"),
        (
            "grid filled at setup",
            "    seen: everyone\n    each: true\n",
            "    seen: everyone\n    setup: all\n",
            "a grid starts empty",
        ),
        (
            "onto typo",
            "onto: my.field",
            "onto: my.feild",
            "a player has no 'feild' (did you mean 'field'?)",
        ),
        ("onto a row", "onto: my.field", "onto: market", "market is not a grid"),
        ("yaml on", "onto: my.field", "on: my.field", "'on' is a boolean"),
        (
            "grid seen by its owner",
            "    seen: everyone\n    each: true\n    grid",
            "    seen: owner\n    each: true\n    grid",
            "a grid is seen by everyone",
        ),
        (
            "side constant typo",
            "edge(tile, side)",
            "edge(tile, 'north')",
            "'north' is not a side of a cell",
        ),
        ("side typo", "edge(tile, side)", "edge(tile, sied)", "(did you mean 'side'?)"),
        ("edge of a side", "edge(tile, side)", "edge(side, side)", "edge(...) needs a card"),
        (
            "neighbour typo",
            "edge(neighbour, facing)",
            "edge(neighbor, facing)",
            "(did you mean 'neighbour'?)",
        ),
        (
            "terrain typo",
            "t.terrain == 'grove')",
            "t.terain == 'grove')",
            "(did you mean 'terrain'?)",
        ),
        (
            "place without onto",
            "        - discard: tile",
            "        - place: tile",
            "this action has no `onto`",
        ),
        (
            "match without onto",
            "    compost:   ",
            "    compost:\n      touch: true\n     ",
            "touch and match are the rules of a cell chosen `onto` a grid",
        ),
        (
            "draw onto a grid",
            "  - refill: market  ",
            "  - {draw: bag, to: my.field}  ",
            "field is a grid",
        ),
        (
            "deal onto a grid",
            "  - refill: market  ",
            "  - {deal: bag, to: field}  ",
            "'field' is a grid",
        ),
        (
            "group of a row",
            "t for t in my.field if t.terrain == 'grove'",
            "t for t in market if t.terrain == 'grove'",
            "largest_group goes through a grid",
        ),
        (
            "group of a value",
            "largest_group(t for t in my.field if t.terrain == 'grove')",
            "largest_group(my.field)",
            "largest_group takes `... for ... in` a grid",
        ),
        ("pairs with one name", "for a, b in my.field", "for a in my.field", "adjacent_pairs takes"),
        (
            "rows of lines",
            "columns(2 if count(line) == option.size else 0 for",
            "columns(line for",
            "columns adds up a number",
        ),
        (
            "group of a field",
            "largest_group(t for t in my.field if t.terrain == 'grove')",
            "largest_group(t.terrain for t in my.field)",
            "largest_group counts the cards themselves",
        ),
    ],
}  # fmt: skip


def run(tmp_path, text, game="cottage-market", name="rules.yaml", games=1):
    """`simulate GAME --rules FILE --games N` with text as FILE beside the example's catalog."""
    shutil.copy(EXAMPLES / game / "catalog.json", tmp_path / "catalog.json")
    path = tmp_path / name
    path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    command = ["simulate", game, "--rules", str(path), "--games", str(games)]
    return CliRunner().invoke(cli, command)


def located(line, path):
    """Whether line is a problem located in the file at path."""
    place = f"{path}:"
    return line.startswith(place) and LOCATED.match(line[len(place) :]) is not None


def assert_located(result, expected, path):
    """Exit 1 with no traceback; the first line located in path, a line saying expected."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and located(lines[0], path), result.output
    assert any(expected in line for line in lines), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


@pytest.mark.parametrize("game", list(EDITS))
def test_the_example_is_valid(tmp_path, game):
    result = run(tmp_path, (EXAMPLES / game / "rules.yaml").read_text(), game, games=100)
    assert result.exit_code == 0, result.output


CASES = [(game, *edit) for game, edits in EDITS.items() for edit in edits]


@pytest.mark.parametrize(
    ("game", "old", "new", "expected"),
    [(game, old, new, expected) for game, _name, old, new, expected in CASES],
    ids=[f"{game}: {name}" for game, name, *_ in CASES],
)
def test_an_edited_rules_file_is_a_located_problem(tmp_path, game, old, new, expected):
    good = (EXAMPLES / game / "rules.yaml").read_text()
    assert old in good
    assert_located(
        run(tmp_path, good.replace(old, new, 1), game), expected, tmp_path / "rules.yaml"
    )


WHOLE = [
    ("empty file", "", "the file holds no YAML document"),
    ("only a comment", "# nothing yet\n", "the file holds no YAML document"),
    ("a list", "- rules: 1\n", "expected an object"),
    ("a number", "42\n", "expected an object"),
    ("a text", "rules\n", "expected an object"),
    ("null", "~\n", "expected an object"),
    ("the bare minimum missing", "rules: 1\n", "missing"),
    ("JSON with a trailing comma", '{"rules": 1, "game": "cottage-market",}\n', ""),
]


@pytest.mark.parametrize(("text", "expected"), [w[1:] for w in WHOLE], ids=[w[0] for w in WHOLE])
def test_a_hostile_whole_file_is_a_located_problem(tmp_path, text, expected):
    assert_located(run(tmp_path, text), expected, tmp_path / "rules.yaml")


def test_a_file_at_the_size_bound_is_read_and_one_byte_more_is_refused(tmp_path):
    padding = MAX_RULES_BYTES - len(GOOD.encode()) - 1
    (tmp_path / "at").mkdir()
    (tmp_path / "over").mkdir()  # a command loads a rules file once: two files, two names
    assert run(tmp_path / "at", GOOD + "#" * padding + "\n").exit_code == 0
    over = run(tmp_path / "over", GOOD + "#" * (padding + 1) + "\n")
    assert_located(
        over, f"larger than {MAX_RULES_BYTES // 1024} KiB", tmp_path / "over" / "rules.yaml"
    )


def test_the_briefs_example_message_is_exact(tmp_path):
    result = run(tmp_path, GOOD.replace("- pay: card.cost", "- pay: gould"))
    assert result.output.splitlines()[0] == (
        f"{tmp_path / 'rules.yaml'}:43:16 /turn/choose/build/do/0/pay: "
        "'gould' is not a resource of this catalog (did you mean 'gold'?)"
    )


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = GOOD.replace("empty(market)", "empty(markt)").replace("card.points", "card.pionts")
    lines = run(tmp_path, text).output.splitlines()
    assert sum(located(line, tmp_path / "rules.yaml") for line in lines) == 2


def test_a_billion_laughs_stops_at_the_alias_limit(tmp_path):
    laughs = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    laughs += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    text = "x-laughs:\n" + "\n".join("  " + line for line in laughs) + "\n" + GOOD
    assert_located(run(tmp_path, text), "aliases repeat more than", tmp_path / "rules.yaml")


def test_not_utf8(tmp_path):
    assert_located(run(tmp_path, GOOD.encode() + b"\xff\xfe"), "not UTF-8", tmp_path / "rules.yaml")


def test_too_large(tmp_path):
    assert_located(
        run(tmp_path, GOOD + "#" * 300_000 + "\n"), "larger than", tmp_path / "rules.yaml"
    )


def test_a_json_rules_file_is_located_too(tmp_path):
    text = '{"rules": 1, "game": "cottage-market", "players": {"min": 2, "max": 4},\n' \
           ' "zones": {"deck": {"holds": "card", "seen": "nobody"}},\n' \
           ' "turn": {"choose": {"wait": {"do": []}}},\n "end": ["turns >= 2"], "score": "scroe"}\n'  # fmt: skip
    result = run(tmp_path, text, name="rules.json")
    assert_located(result, "'scroe' is not a name of these rules", tmp_path / "rules.json")
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
