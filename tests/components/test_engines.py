"""The fast engine (jsonschema-rs) and the explaining engine (jsonschema) agree.

A catalog is declared valid by the fast engine alone, so every document the
explaining engine rejects must be rejected by the fast one too, and the other
way round (otherwise a problem would be reported with no explanation).
"""

import copy
import json
import random

import pytest

from protopress.components import BUILTIN_GAMES, builtin_catalog_path
from protopress.components.schemas import fast_validator, resolving_ids, validator
from protopress.components.semantics import known_ids

WRONG_VALUES = [None, True, -1, 0, 1000001, 2.5, "", "fire-rubby", "X", [], {}, ["N"], {"a": 1}]


def leaves_and_branches(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves_and_branches(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from leaves_and_branches(value, (*path, index))


def replaced(document, path, value):
    result = copy.deepcopy(document)
    target = result
    for token in path[:-1]:
        target = target[token]
    target[path[-1]] = value
    return result


def verdicts(document):
    with resolving_ids(known_ids(document)):
        fast = fast_validator().is_valid(document)
        slow = not any(True for _ in validator().iter_errors(document))
    return fast, slow


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_engines_agree_on_mutated_builtin_catalogs(game):
    document = json.loads(builtin_catalog_path(game).read_text())
    assert verdicts(document) == (True, True)
    rng = random.Random(f"engines-{game}")
    paths = [p for p in leaves_and_branches(document) if p]
    disagreements = []
    for path in rng.sample(paths, min(80, len(paths))):
        mutated = replaced(document, path, rng.choice(WRONG_VALUES))
        fast, slow = verdicts(mutated)
        if fast != slow:
            disagreements.append((path, fast, slow))
    assert disagreements == []
