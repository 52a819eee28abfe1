"""A rules file as a game: its GameSpec, with an engine class made for it."""

from __future__ import annotations

from pathlib import Path

from protopress.components.loader import load_catalog
from protopress.rules.actions import ActionCodec
from protopress.rules.data.call import Functions
from protopress.rules.data.engine import DataGame, seat_view_of
from protopress.rules.data.layout import layout_of
from protopress.rules.data.load import RulesProblems, RulesSource, read_rules
from protopress.rules.spec import GameSpec, OutcomeKind


def engine_class(source: RulesSource, functions: Functions | None = None) -> type[DataGame]:
    """The engine class of a rules file; InvalidInput locating each mistake the file
    alone shows (those that need the catalog are found when a game is set up)."""
    try:
        layout = layout_of(source)
    except RulesProblems as problems:
        raise source.invalid(problems.findings) from None
    name = "".join(part.title() for part in layout.game.split("-")) + "Rules"
    attributes = {
        "source": source,
        "layout": layout,
        "actions": ActionCodec(layout.kinds.values()),
        "seat_view": seat_view_of(layout),
        "functions": functions,
        "__doc__": f"The rules of {layout.title}, compiled from {source.name}.",
    }
    return type(name, (DataGame,), attributes)


def data_spec(path: Path, name: str | None = None, functions: Functions | None = None) -> GameSpec:
    """The GameSpec of the rules file at path (InvalidInput when it has problems);
    functions: those of --rules-code, which its `call` steps run (None: no code).

    When its folder holds the game's catalog.json, the rules are compiled against
    it now, so that every mistake is found before a game is played."""
    engine = engine_class(read_rules(path, name), functions)
    layout = engine.layout
    catalog = path.resolve().parent / "catalog.json"
    if catalog.is_file():
        engine().model(load_catalog(catalog))
    return GameSpec(
        id=layout.game,
        title=layout.title,
        min_players=layout.min_players,
        max_players=layout.max_players,
        engine=engine,
        outcomes=(OutcomeKind.VERSUS,),
        options=layout.options,
        first_mover=layout.first_mover,  # clockwise from seat 0, unless ordered by a value
        folder=path.resolve().parent,
    )
