"""Stonespine set checks on the built-in catalog and on small catalogs built here."""

from pathlib import Path

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.components.catalog import Catalog
from protopress.components.schemas import kinds
from protopress.games.stonespine_architects.checks import (
    BLUEPRINTS,
    CAPACITY,
    CHECKS,
    DOORS_AND_GOLD,
    blueprint_achievability,
    door_pattern,
    doors_and_gold,
    element_capacity,
)
from protopress.validators.findings import Check

ELEMENTS = [
    {
        "id": "monster",
        "name": "Monster",
        "shape": "hexagon",
        "colour": "#b3261e",
        "placement": "slot",
    },
    {"id": "altar", "name": "Altar", "shape": "cross", "colour": "#4e342e", "placement": "slot"},
    {
        "id": "secret-passage",
        "name": "Secret Passage",
        "shape": "kite",
        "colour": "#2e7d32",
        "placement": "edge",
    },
]


def chamber(card_id, doors="NS", count=1, elements=(), slots=2, gold=1):
    return {
        "id": card_id,
        "count": count,
        "title": card_id.title(),
        "doors": doors,
        "elements": list(elements),
        "slots": slots,
        "stars": 0,
        "gold": gold,
        "symbol": "moon",
    }


def blueprint(positions, entrance=("N", 0), exit=("S", 3)):
    return {
        "id": "plan",
        "title": "Plan",
        "entrance": {"side": entrance[0], "index": entrance[1]},
        "exit": {"side": exit[0], "index": exit[1]},
        "positions": [{"row": r, "col": c, "element": e} for r, c, e in positions],
    }


def catalog(**collections) -> Catalog:
    """An in-memory catalog: not schema-checked, so it can break the rules."""
    document = {"game": "test", "title": "Test", "version": "1", "elements": ELEMENTS}
    return Catalog.from_document(Path("test.json"), document | collections, kinds())


def messages(findings, severity=None):
    return [f.message for f in findings if severity is None or f.severity == severity]


@pytest.fixture(scope="module")
def builtin():
    return load_catalog(builtin_catalog_path("stonespine-architects"))


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.name)
def test_the_builtin_catalog_has_no_errors_or_warnings(builtin, check):
    findings = list(check.run(builtin, 0))
    assert messages(findings, "error") == []
    assert messages(findings, "warning") == []


def test_checks_are_named_and_need_their_kinds():
    assert all(isinstance(check, Check) for check in CHECKS)
    assert {check.name: check.needs for check in CHECKS} == {
        CAPACITY: ("chamber-card",),
        DOORS_AND_GOLD: ("chamber-card",),
        BLUEPRINTS: ("blueprint-card",),
    }


def test_every_builtin_blueprint_can_be_routed(builtin):
    routes = [f for f in blueprint_achievability(builtin) if f.severity == "info"]
    assert [f.component for f in routes] == [b.id for b in builtin.of_kind("blueprint-card")]
    assert all(f.data["possible"] for f in routes)


def test_element_capacity():
    cards = [
        chamber("full", elements=["monster", "altar"], slots=2),  # fine: 2 of 2
        chamber("crowded", elements=["monster", "altar", "monster"], slots=2),
        chamber("roomy", elements=[], slots=5),
    ]
    findings = list(element_capacity(catalog(chamber_cards=cards)))
    assert [(f.severity, f.component, f.message) for f in findings] == [
        ("error", "crowded", "3 printed elements but the chamber holds 2 (printed ones count)"),
        ("error", "roomy", "holds 5 elements; a chamber holds at most 4, printed ones included"),
    ]
    assert findings[0].data == {"printed": 3, "slots": 2}


def test_door_and_gold_summaries():
    # 3 copies show doors E and S (a bend), 1 copy N and W (a bend): 4 cards.
    # N: 1 of 4 = 25%, E: 3 of 4 = 75%, S: 75%, W: 25%; N and W fall below 30%.
    # Gold: (3 * 1 + 1 * 3) / 4 = 1.5 per card, 6 for a row of 4.
    cards = [chamber("corner", doors="ES", count=3, gold=1), chamber("nook", doors="NW", gold=3)]
    findings = list(doors_and_gold(catalog(chamber_cards=cards)))
    assert {f.component for f in findings} == {"chamber_cards"}
    assert messages(findings, "info") == [
        "door share by edge over 4 cards: N 25%, E 75%, S 75%, W 25%",
        "door patterns: none 0 (0%), dead end 0 (0%), straight 0 (0%), bend 4 (100%), T 0 (0%), cross 0 (0%)",
        "mean gold 1.50 per card; an average year row of 4 cards pays 6.00 gold (cap 30)",
    ]
    assert messages(findings, "warning") == [
        "only 25% of chamber cards show a north door (below 30%): paths through north edges are hard to build",
        "only 25% of chamber cards show a west door (below 30%): paths through west edges are hard to build",
    ]
    assert findings[0].data == {"cards": 4, "N": 0.25, "E": 0.75, "S": 0.75, "W": 0.25}


def test_too_much_gold_per_row():
    # An in-memory card may print 8 gold (the schema stops at 5): a row pays 32 > 30.
    cards = [chamber("mint", doors="NESW", gold=8)]
    findings = list(doors_and_gold(catalog(chamber_cards=cards)))
    assert messages(findings, "warning") == [
        "an average year row pays 32.00 gold, more than the 30-gold cap: the rest is lost"
    ]
    assert findings[-1].data == {"cards": 1, "mean_gold": 8, "row_gold": 32, "gold_cap": 30}


def test_the_gold_cap_comes_from_the_scoring_table():
    # With a 40-gold cap in the catalog, a 32-gold row is fine.
    cards = [chamber("mint", doors="NESW", gold=8)]
    table = {"id": "final-scoring", "title": "Final scoring", "points": {"gold_cap": 40}}
    findings = list(doors_and_gold(catalog(chamber_cards=cards, scoring_tables=[table])))
    assert messages(findings, "warning") == []
    assert "pays 32.00 gold (cap 40)" in messages(findings)[-1]


@pytest.mark.parametrize(
    ("doors", "pattern"),
    [
        ("", "none"),
        ("S", "dead end"),
        ("NS", "straight"),
        ("EW", "straight"),
        ("NE", "bend"),
        ("SW", "bend"),
        ("NES", "T"),
        ("NESW", "cross"),
    ],
)
def test_door_patterns(doors, pattern):
    assert door_pattern(doors) == pattern


def test_a_blueprint_asking_for_more_than_the_box_holds():
    # The plan wants altars in 3 chambers. No market token is an altar; the
    # only card printing altars has 2 copies (printing two altars each still
    # fills one chamber per copy): supply 0 + 2 = 2 < 3.
    # Monsters: 2 wanted, 1 market token + 1 card copy = 2: enough.
    cards = [
        chamber("shrine", count=2, elements=["altar", "altar"]),
        chamber("den", elements=["monster"]),
    ]
    tokens = [{"id": "goblin", "count": 1, "name": "Goblin", "element": "monster"}]
    plan = blueprint(
        [(0, 0, "altar"), (1, 1, "altar"), (2, 2, "altar"), (0, 3, "monster"), (3, 0, "monster")]
    )
    findings = list(
        blueprint_achievability(
            catalog(chamber_cards=cards, market_tokens=tokens, blueprint_cards=[plan])
        )
    )
    errors = [f for f in findings if f.severity == "error"]
    assert [(f.component, f.message) for f in errors] == [
        (
            "plan",
            "needs 3 chambers holding 'altar' but the box supplies 2: 0 market tokens and 2 chamber cards printing it",
        )
    ]
    assert errors[0].data == {"demand": 3, "supply": 2, "tokens": 0, "printed": 2}


def test_a_blueprint_asking_for_an_edge_element():
    # Secret passages sit on edges; 5 market tokens cover the 2 positions, so
    # only the warning remains.
    tokens = [{"id": "passage", "count": 5, "name": "Passage", "element": "secret-passage"}]
    plan = blueprint([(1, 2, "secret-passage"), (3, 0, "secret-passage")])
    findings = list(blueprint_achievability(catalog(market_tokens=tokens, blueprint_cards=[plan])))
    assert messages(findings, "error") == []
    assert messages(findings, "warning") == [
        "asks for 'secret-passage' at row 1, col 2 and row 3, col 0, but 'secret-passage' sits on "
        "chamber edges and blueprint positions are chamber slots"
    ]


@pytest.mark.parametrize(
    ("entrance", "exit", "message", "data"),
    [
        # (0, 0) to (3, 3): 3 rows down, 3 columns east, 7 chambers.
        (
            ("N", 0),
            ("S", 3),
            "a through-route from entrance N0 to exit S3 is possible; the shortest crosses 7 chambers",
            {"possible": True, "chambers": 7},
        ),
        # N0 and W0 both touch (0, 0): one chamber is the whole route.
        (
            ("N", 0),
            ("W", 0),
            "a through-route from entrance N0 to exit W0 is possible; the shortest crosses 1 chamber",
            {"possible": True, "chambers": 1},
        ),
        (
            ("N", 1),
            ("N", 1),
            "entrance and exit share doorway N1: no through-route is possible",
            {"possible": False},
        ),
    ],
)
def test_blueprint_routes(entrance, exit, message, data):
    plan = blueprint([], entrance, exit)
    [finding] = blueprint_achievability(catalog(blueprint_cards=[plan]))
    assert (finding.severity, finding.component, finding.message) == ("info", "plan", message)
    assert finding.data == data
