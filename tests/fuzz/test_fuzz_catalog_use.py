"""Valid catalogs with odd contents: the built-in catalogs changed in ways that keep
the types (numbers to other numbers, ids to other ids of the catalog, optional
fields and list items removed or repeated). Whatever loads must also survive
what the commands do with it: `check` (every design check), `simulate` (one
game with bots, when the catalog's game has an engine) and drawing every face
(`render`); a refusal is a ValueError with a message, never a crash."""

import copy
import json
from pathlib import Path

import pytest
from fuzzing import fuzz_settings, hard_timeout, pick_path, printable, smoke_settings
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.components import BUILTIN_GAMES, InvalidInput, builtin_catalog_path, load_catalog
from protopress.components.jsonpos import pointer_of
from protopress.games import known_ids as engine_ids
from protopress.generators.assets import AssetPolicy
from protopress.generators.face_builder import FaceBuilder
from protopress.generators.layout import layouts_for
from protopress.generators.units import MM
from protopress.rules.registry import game_for
from protopress.rules.simulate import play
from protopress.validators.registry import run_checks

BASES = {}
for _game in BUILTIN_GAMES:
    _document = json.loads(builtin_catalog_path(_game).read_text())
    _document.pop("totals", None)  # changed counts would only break the declared totals
    BASES[_game] = _document


def _strings(document) -> list[str]:
    found, stack = set(), [document]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(found)


@st.composite
def odd_catalogs(draw):
    game = draw(st.sampled_from(BUILTIN_GAMES))
    document = copy.deepcopy(BASES[game])
    strings = _strings(document)
    changes = []
    for _ in range(draw(st.integers(1, 6))):
        path = pick_path(draw, document)
        if not path:
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        value = parent[key]
        if isinstance(value, bool):
            parent[key] = not value
        elif isinstance(value, int):
            parent[key] = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 30, 100]))
        elif isinstance(value, float):
            parent[key] = draw(st.sampled_from([0.0, 0.5, 1.5, 100.0]))
        elif isinstance(value, str):
            parent[key] = draw(st.sampled_from(strings))
        elif isinstance(value, list):
            if value and draw(st.booleans()):
                value.pop(draw(st.integers(0, len(value) - 1)))
            elif value:
                value.append(copy.deepcopy(value[draw(st.integers(0, len(value) - 1))]))
        elif isinstance(value, dict) and value:
            value.pop(sorted(value)[draw(st.integers(0, len(value) - 1))])
        changes.append(pointer_of(path))
    return game, document, changes


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("catalog-use")


def check_catalog_use(game: str, document: dict, folder: Path) -> None:
    path = folder / f"{game}.json"
    path.write_text(json.dumps(document, indent=1))
    with hard_timeout(120):
        try:
            catalog = load_catalog(path)
        except InvalidInput:
            event("refused")
            return
        event("valid")
        for finding in run_checks(catalog, seed=0):  # protopress check
            printable(str(finding))
        if catalog.game in engine_ids():  # protopress simulate --games 1
            engine = game_for(catalog.game)
            players = max(engine.min_players, 2) if catalog.game != "stonespine-architects" else 2
            try:
                play(engine, catalog, ["random"] * players, 1, {})
                event("played")
            except ValueError as error:  # simulate reports it as a usage error
                assert str(error).strip()
                event("game refused")
        assets = AssetPolicy(path.parent)  # protopress render, without the PDF writing
        for kind, layout in layouts_for(catalog.components).items():
            builder = FaceBuilder(layout, catalog, 3 * MM, assets)
            for component in catalog.of_kind(kind):
                try:
                    builder.build(component, "front")
                    if layout.back is not None:
                        builder.build(component, "back")
                except ValueError as error:  # render reports it, exit 1
                    assert str(error).strip()
                    event("face refused")


@pytest.mark.fuzz
@fuzz_settings(scale=0.2, deadline_seconds=120)
@given(case=odd_catalogs())
def test_fuzz_catalog_use(case, folder):
    game, document, _ = case
    check_catalog_use(game, document, folder)


@smoke_settings(examples=2)
@given(case=odd_catalogs())
def test_smoke_catalog_use(case, folder):
    game, document, _ = case
    check_catalog_use(game, document, folder)
