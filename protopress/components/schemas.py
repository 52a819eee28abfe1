"""The JSON Schemas of the component kinds, compiled once.

The catalog schema is the index: each of its array properties is a collection
whose items follow one kind's schema. Kinds, collection names and schema files
are all read from it. It is composed at load: catalog.schema.json holds the
catalog's own keys and the collections every game may use, and each game adds
its own collections (its spec's `collections`, collection -> kind) and may
carry its own kinds' schema files in its folder's `schemas/`. Adding a shared
kind means a schema file here and one line in catalog.schema.json; a game's
kind, a schema file and one entry in its spec.

Schemas reference each other by relative file name, so editors resolve them
from the files on disk and jsonschema from an in-memory registry keyed by the
same names. The `refersTo` keyword marks a string as the id of a component of
another kind; it is checked against the ids of the catalog being validated.

Two engines run the same schemas: jsonschema-rs decides quickly whether a
catalog is valid (a 10,000-component catalog in tens of milliseconds), and
only when it is not does the slower jsonschema produce the detailed errors
that are explained to the user. tests/components/test_engines.py checks that
their verdicts agree. jsonschema (and its referencing) is imported only where
the slower validator is built, so a run that loads only valid catalogs never
loads it (it takes longer to import than a catalog takes to check).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from itertools import islice
from typing import TYPE_CHECKING

import jsonschema_rs

from protopress.components.problems import MAX_LOCATED
from protopress.components.suggest import did_you_mean
from protopress.games import builtin_ids, builtin_specs

if TYPE_CHECKING:
    import jsonschema
    import referencing

SCHEMA_SUFFIX = ".schema.json"
CATALOG_SCHEMA = "catalog" + SCHEMA_SUFFIX

# The ids known to the catalog being validated, by the kind they belong to.
_known_ids: contextvars.ContextVar[Mapping[str, frozenset[str]] | None] = contextvars.ContextVar(
    "known_ids", default=None
)


@dataclass(frozen=True)
class Kind:
    name: str  # e.g. "room-tile"
    collection: str  # e.g. "room_tiles"
    schema_file: str  # e.g. "room-tile.schema.json"


def _schema_dir() -> Traversable:
    return resources.files("protopress.components") / "schemas"


def _schema_files(folder: Traversable) -> dict[str, dict]:
    return {
        entry.name: json.loads(entry.read_text(encoding="utf-8"))
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if entry.name.endswith(SCHEMA_SUFFIX)
    }


def _with_collections(catalog: dict, added: Mapping[str, str]) -> dict:
    """The catalog schema with the games' collections (collection -> kind) after its
    own keys and before the shared collections (whose first is "symbols"), and no
    other key allowed. (The file on disk lets any other key be a list, so that an
    editor reading a game's catalog against it does not refuse the game's own.)"""
    properties: dict[str, object] = {}
    for key, value in catalog["properties"].items():
        if key == _FIRST_SHARED_COLLECTION:
            for collection, kind in added.items():
                properties[collection] = {"type": "array", "items": {"$ref": kind + SCHEMA_SUFFIX}}
        properties[key] = value
    return {**catalog, "properties": properties, "additionalProperties": False}


_FIRST_SHARED_COLLECTION = "symbols"


def schema_documents() -> dict[str, dict]:
    """Every schema file's contents, by file name: the kit's and the registered games'
    own, and the catalog schema composed with every game's collections."""
    return _documents(builtin_ids())


@functools.cache
def _documents(games: tuple[str, ...]) -> dict[str, dict]:
    """schema_documents for the games registered now (the key of the cache)."""
    documents = _schema_files(_schema_dir())
    collections: dict[str, str] = {}
    for spec in builtin_specs():
        own = spec.folder / "schemas" if spec.folder is not None else None
        for name, document in (_schema_files(own) if own and own.is_dir() else {}).items():
            if name in documents:
                raise ValueError(f"game {spec.id}: the schema file {name} exists already")
            documents[name] = document
        for collection, kind in spec.collections.items():
            if collection in collections or collection in documents[CATALOG_SCHEMA]["properties"]:
                raise ValueError(f"game {spec.id}: the collection {collection} exists already")
            if kind + SCHEMA_SUFFIX not in documents:
                raise ValueError(
                    f"game {spec.id}: no schema {kind}{SCHEMA_SUFFIX} for {collection}"
                )
            collections[collection] = kind
    documents[CATALOG_SCHEMA] = _with_collections(documents[CATALOG_SCHEMA], collections)
    return documents


def kinds() -> dict[str, Kind]:
    """The component kinds, by kind name, in catalog order."""
    return _kinds(builtin_ids())


@functools.cache
def _kinds(games: tuple[str, ...]) -> dict[str, Kind]:
    result = {}
    for collection, prop in schema_documents()[CATALOG_SCHEMA]["properties"].items():
        ref = prop.get("items", {}).get("$ref") if isinstance(prop, dict) else None
        if ref:
            name = ref.removesuffix(SCHEMA_SUFFIX)
            result[name] = Kind(name, collection, ref)
    return result


def kind_of_collection(collection: str) -> Kind | None:
    return next((k for k in kinds().values() if k.collection == collection), None)


def schema_names() -> list[str]:
    """Names `protopress schema` accepts: every kind, the catalog, shared definitions."""
    return sorted(name.removesuffix(SCHEMA_SUFFIX) for name in schema_documents())


def _is_known(kind: str, instance: object) -> bool:
    known = _known_ids.get()
    return known is None or not isinstance(instance, str) or instance in known.get(kind, ())


def _refers_to(
    validator: jsonschema.protocols.Validator, kind: str, instance: object, schema: dict
) -> Iterator[jsonschema.ValidationError]:
    from jsonschema import ValidationError  # loaded already: this runs inside jsonschema

    known = _known_ids.get()
    if known is None or not isinstance(instance, str) or _is_known(kind, instance):
        return
    ids = known.get(kind, frozenset())
    if kind == "collection":
        yield ValidationError(f"{instance!r} is not a collection{did_you_mean(instance, ids)}")
        return
    hint = did_you_mean(instance, ids) if ids else f" (it declares no {kind} components)"
    article = "an" if kind[0] in "aeiou" else "a"
    yield ValidationError(f"{instance!r} is not {article} {kind} of this catalog{hint}")


@functools.cache
def _validator_class() -> type[jsonschema.protocols.Validator]:
    """jsonschema's Draft 2020-12 validator with `refersTo`: the slower engine, imported
    here, when a catalog's errors are to be explained, and not before."""
    import jsonschema

    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"refersTo": _refers_to})


def _without_dialect(document: dict) -> dict:
    # jsonschema picks the validator class of a referenced schema from its
    # "$schema"; without it, referenced schemas keep the `refersTo` keyword.
    return {key: value for key, value in document.items() if key != "$schema"}


def _registry_of(documents: Mapping[str, dict]) -> referencing.Registry:
    import referencing  # with jsonschema, only for the slower engine (see _validator_class)
    import referencing.jsonschema

    spec = referencing.jsonschema.DRAFT202012
    return referencing.Registry().with_resources(
        (
            name,
            referencing.Resource.from_contents(_without_dialect(doc), default_specification=spec),
        )
        for name, doc in documents.items()
    )


@functools.cache
def _registry(games: tuple[str, ...]) -> referencing.Registry:
    return _registry_of(schema_documents())


def validator(schema_file: str = CATALOG_SCHEMA) -> jsonschema.protocols.Validator:
    """The compiled validator of one schema file (the whole catalog by default)."""
    return _validator(schema_file, builtin_ids())


@functools.cache
def _validator(schema_file: str, games: tuple[str, ...]) -> jsonschema.protocols.Validator:
    documents = schema_documents()
    return _validator_class()(_without_dialect(documents[schema_file]), registry=_registry(games))


class _FastRefersTo:
    """`refersTo` for jsonschema-rs (its custom keyword protocol)."""

    def __init__(self, parent_schema: dict, value: str, schema_path: list[str | int]) -> None:
        self.kind = value

    def validate(self, instance: object) -> None:
        if not _is_known(self.kind, instance):
            raise ValueError(f"{instance!r} is not a known {self.kind}")


_FAST_BASE = "https://protopress.invalid/schemas/"


def _fast_of(
    documents: Mapping[str, dict], schema_file: str, root: dict | None = None
) -> jsonschema_rs.Draft202012Validator:
    """jsonschema-rs's validator of schema_file, or of root placed beside it."""
    registry = jsonschema_rs.Registry(
        [(_FAST_BASE + name, _without_dialect(doc)) for name, doc in documents.items()]
    )
    return jsonschema_rs.Draft202012Validator(
        root if root is not None else _without_dialect(documents[schema_file]),
        registry=registry,
        base_uri=_FAST_BASE + (schema_file if root is None else "part-of-" + schema_file),
        keywords={"refersTo": _FastRefersTo},
    )


def fast_validator(schema_file: str = CATALOG_SCHEMA) -> jsonschema_rs.Draft202012Validator:
    """The same schema compiled by jsonschema-rs: a quick valid-or-not."""
    return _fast_validator(schema_file, builtin_ids())


@functools.cache
def _fast_validator(schema_file: str, games: tuple[str, ...]) -> jsonschema_rs.Draft202012Validator:
    return _fast_of(schema_documents(), schema_file)


@functools.cache
def fast_part(schema_file: str, pointer: str) -> jsonschema_rs.Draft202012Validator:
    """A quick valid-or-not for one part of a schema file (e.g. the catalog's
    /$defs/field), with `refersTo` taking any value."""
    return _fast_of(schema_documents(), schema_file, {"$ref": f"{schema_file}#{pointer}"})


def _documents_with(extra_json: str) -> dict[str, dict]:
    return {**schema_documents(), **json.loads(extra_json)}


@functools.lru_cache(maxsize=8)
def _fast_with_extra(
    extra_json: str, schema_file: str, games: tuple[str, ...]
) -> jsonschema_rs.Draft202012Validator:
    """fast_validator of schema_file when a catalog adds (or replaces) schema files, as
    its declared kinds do; keyed by the added files' JSON text."""
    return _fast_of(_documents_with(extra_json), schema_file)


@functools.lru_cache(maxsize=8)
def _slow_with_extra(
    extra_json: str, schema_file: str, games: tuple[str, ...]
) -> jsonschema.protocols.Validator:
    """validator of schema_file with added schema files, as _fast_with_extra."""
    documents = _documents_with(extra_json)
    return _validator_class()(
        _without_dialect(documents[schema_file]), registry=_registry_of(documents)
    )


@contextlib.contextmanager
def resolving_ids(known_ids: Mapping[str, frozenset[str]]) -> Iterator[None]:
    """Within this block, `refersTo` checks against known_ids."""
    token = _known_ids.set(known_ids)
    try:
        yield
    finally:
        _known_ids.reset(token)


def schema_errors(
    document: object,
    known_ids: Mapping[str, frozenset[str]],
    schema_file: str = CATALOG_SCHEMA,
    extra: Mapping[str, dict] | None = None,
) -> list[jsonschema.ValidationError]:
    """Schema errors of document in detail, resolving `refersTo` against known_ids;
    extra adds or replaces schema files (a catalog's declared kinds)."""
    extra_json = json.dumps(extra, sort_keys=True) if extra else None
    if extra_json is not None:
        fast = _fast_with_extra(extra_json, schema_file, builtin_ids())
    else:
        fast = fast_validator(schema_file)
    with resolving_ids(known_ids):
        if fast.is_valid(document):
            return []
        if extra_json is not None:
            slow = _slow_with_extra(extra_json, schema_file, builtin_ids())
        else:
            slow = validator(schema_file)
        # one more than are located, so that locate can say some are not shown
        return list(islice(slow.iter_errors(document), MAX_LOCATED + 1))
