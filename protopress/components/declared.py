"""Component kinds a catalog declares itself, under its top-level `kinds`.

Each declaration becomes a JSON Schema at load time (fields, types, enums,
defaults, required fields, references checked by `refersTo`), and the catalog
schema gains the kind's collection, so a declared kind's components are checked
by the same schema machinery, and their problems located the same way, as the
built-in kinds'. Declarations are data only: nothing in them is executed.

Declarations are checked before any schema is built from them: a kind whose
name the catalog schema refuses (a `/`, a control character) is not declared,
and a field whose declaration the catalog schema refuses (`max_length: -1`, an
unknown type) accepts any value. The catalog schema reports the broken
declaration (its `kinds` part), and the collection it names is still accepted,
so one typo is not reported twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from protopress.components.explain import Located, explain
from protopress.components.jsonpos import escape_token, pointer_of
from protopress.components.schemas import (
    CATALOG_SCHEMA,
    SCHEMA_SUFFIX,
    Kind,
    fast_part,
    kinds,
    schema_documents,
    validator,
)
from protopress.components.sizes import MAX_SIZE_MM, MIN_SIZE_MM
from protopress.components.suggest import did_you_mean

MAX_TEXT = 2000  # characters of a text field, unless max_length says otherwise
MAX_LIST = 1000  # items of a list field, unless max_length says otherwise
MAX_COMPONENTS = 10000  # components in one declared collection


@dataclass(frozen=True)
class DeclaredKind(Kind):
    """A kind a catalog declares: its schema is built from the declaration."""

    declaration: Mapping = field(default_factory=dict, compare=False)

    @property
    def size(self) -> object:
        """The declared size (a standard name or a width and height), or None."""
        return self.declaration.get("size")

    @property
    def layout(self) -> str | None:
        """The layout file named by the declaration, relative to the catalog."""
        layout = self.declaration.get("layout")
        return layout if isinstance(layout, str) else None

    @property
    def fields(self) -> Mapping[str, Mapping]:
        fields = self.declaration.get("fields")
        if not isinstance(fields, dict):
            return {}
        return {name: spec for name, spec in fields.items() if isinstance(spec, dict)}

    def defaults(self) -> dict:
        return {name: spec["default"] for name, spec in self.fields.items() if "default" in spec}


def sound_kind_name(name: str) -> bool:
    """A name the catalog schema takes for a kind (and so one a schema file may carry)."""
    return fast_part(CATALOG_SCHEMA, "/properties/kinds/propertyNames").is_valid(name)


def sound_field(spec: object) -> bool:
    """A field declaration the catalog schema takes: one a schema may be built from."""
    return fast_part(CATALOG_SCHEMA, "/$defs/field").is_valid(spec)


def _declarations(document: object) -> dict:
    declarations = document.get("kinds") if isinstance(document, dict) else None
    return declarations if isinstance(declarations, dict) else {}


def declared_kinds(document: object) -> dict[str, DeclaredKind]:
    """The kinds a catalog document declares, by name (in declaration order): those
    with a sound name and a collection."""
    result = {}
    for name, declaration in _declarations(document).items():
        if not isinstance(declaration, dict) or not isinstance(declaration.get("collection"), str):
            continue
        if name + SCHEMA_SUFFIX in schema_documents():
            continue  # a built-in name: declaration_findings says so
        if not sound_kind_name(name):
            continue  # the catalog schema says so
        result[name] = DeclaredKind(
            name, declaration["collection"], name + SCHEMA_SUFFIX, MappingProxyType(declaration)
        )
    return result


def refused_collections(document: object, declared: Mapping[str, DeclaredKind]) -> list[str]:
    """The collections named by declarations that declare no kind (a built-in or
    unsound name): accepted as they are, since the declaration's problem is reported."""
    return [
        declaration["collection"]
        for name, declaration in _declarations(document).items()
        if name not in declared
        and isinstance(declaration, dict)
        and isinstance(declaration.get("collection"), str)
    ]


def all_kinds(declared: Mapping[str, DeclaredKind]) -> dict[str, Kind]:
    """The built-in kinds, then the declared ones."""
    return {**kinds(), **declared}


def field_schema(spec: object, kind_of: Mapping[str, str]) -> dict[str, object]:
    """The JSON Schema of one declared field (anything, for a broken declaration)."""
    if not isinstance(spec, dict):
        return {}
    kind = spec.get("type")
    limit = max_length if isinstance(max_length := spec.get("max_length"), int) else None
    schema: dict[str, object]
    if kind == "text":
        schema = {"type": "string", "maxLength": limit or MAX_TEXT}
    elif kind in ("number", "integer", "boolean"):
        schema = {"type": kind}
    elif kind == "list":
        schema = {"type": "array", "maxItems": limit or MAX_LIST}
        schema["items"] = field_schema(spec.get("of"), kind_of)
    elif kind == "reference":
        schema = {"type": "string"}
        target = kind_of.get(to) if isinstance(to := spec.get("to"), str) else None
        if target:
            schema["refersTo"] = target
    else:
        return {}
    for key in ("enum", "minimum", "maximum", "description", "default"):
        if key in spec:
            schema[key] = spec[key]
    return schema


def kind_schema(kind: DeclaredKind, kind_of: Mapping[str, str]) -> dict[str, object]:
    """The JSON Schema of one component of a declared kind."""
    properties: dict[str, object] = {
        "id": {"$ref": "common.schema.json#/$defs/id"},
        "count": {"$ref": "common.schema.json#/$defs/count"},
    }
    for name, spec in kind.fields.items():
        if name not in properties:
            properties[name] = field_schema(spec, kind_of) if sound_field(spec) else {}
    required = kind.declaration.get("required")
    names = [n for n in required if isinstance(n, str)] if isinstance(required, list) else []
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": kind.name,
        "type": "object",
        "properties": properties,
        "required": ["id", *dict.fromkeys(n for n in names if n in properties and n != "id")],
        "additionalProperties": False,
    }
    if isinstance(kind.declaration.get("description"), str):
        schema["description"] = kind.declaration["description"]
    return schema


def declared_schemas(
    declared: Mapping[str, DeclaredKind], refused: Iterable[str] = ()
) -> dict[str, dict]:
    """The schema files a catalog's declared kinds add: one per kind, and the catalog
    schema with their collections (empty when nothing is declared). The refused
    collections (see refused_collections) are accepted as any list."""
    refused = list(refused)
    if not declared and not refused:
        return {}
    everything = all_kinds(declared)
    kind_of = {k.collection: k.name for k in everything.values()}
    catalog = dict(schema_documents()[CATALOG_SCHEMA])
    properties = dict(catalog["properties"])
    result = {}
    for kind in declared.values():
        result[kind.schema_file] = kind_schema(kind, kind_of)
        properties.setdefault(
            kind.collection,
            {
                "type": "array",
                "maxItems": MAX_COMPONENTS,
                "items": {"$ref": kind.schema_file},
            },
        )
    for collection in refused:
        properties.setdefault(collection, {"type": "array"})
    catalog["properties"] = properties
    result[CATALOG_SCHEMA] = catalog
    return result


def declaration_findings(
    document: object, declared: Mapping[str, DeclaredKind]
) -> Iterator[Located]:
    """What the schema cannot say about the declarations: names taken by the built-in
    kinds, required fields that are not fields, defaults that do not fit, sizes out
    of range."""
    declarations = _declarations(document)
    taken = set(schema_documents()[CATALOG_SCHEMA]["properties"])
    collections: dict[str, str] = {}
    for name, declaration in declarations.items():
        pointer = f"/kinds/{escape_token(name)}"
        if name + SCHEMA_SUFFIX in schema_documents():
            yield Located(
                pointer, f"{name!r} is a built-in kind or schema; choose another name", True
            )
        if not isinstance(declaration, dict):
            continue
        collection = declaration.get("collection")
        if isinstance(collection, str):
            if collection in taken:
                yield Located(
                    pointer + "/collection",
                    f"{collection!r} is a built-in collection or catalog key; choose another",
                )
            elif collection in collections:
                yield Located(
                    pointer + "/collection",
                    f"collection {collection!r} is already declared by kind {collections[collection]!r}",
                )
            collections.setdefault(collection, name)
        yield from _size_findings(pointer + "/size", declaration.get("size"))
        if name in declared:
            yield from _field_findings(pointer, declared[name], declared)


def _size_findings(pointer: str, size: object) -> Iterator[Located]:
    from protopress.generators.units import parse_length, to_mm

    if not isinstance(size, dict):
        return
    for key in ("width", "height"):
        value = size.get(key)
        if not isinstance(value, str | int | float):
            continue  # the schema says what a length is
        try:
            length = to_mm(parse_length(value))
        except (ValueError, TypeError):
            continue  # the schema says what a length is
        if not MIN_SIZE_MM <= length <= MAX_SIZE_MM:
            yield Located(
                f"{pointer}/{key}",
                f"{value!r} is out of range: expected {MIN_SIZE_MM:g} to {MAX_SIZE_MM:g} mm",
            )


def _field_findings(
    pointer: str, kind: DeclaredKind, declared: Mapping[str, DeclaredKind]
) -> Iterator[Located]:
    fields = kind.fields
    required = kind.declaration.get("required")
    for index, name in enumerate(required if isinstance(required, list) else []):
        if isinstance(name, str) and name not in fields:
            hint = did_you_mean(name, fields) or (
                f"; fields: {', '.join(fields)}" if fields else "; it declares no fields"
            )
            yield Located(f"{pointer}/required/{index}", f"{name!r} is not a field{hint}")
    kind_of = {k.collection: k.name for k in all_kinds(declared).values()}
    for name, spec in fields.items():
        if "default" not in spec or not sound_field(spec):
            continue  # a broken field: the catalog schema says so
        at = f"{pointer}/fields/{escape_token(name)}/default"
        schema = field_schema({k: v for k, v in spec.items() if k != "default"}, kind_of)
        for error in validator(CATALOG_SCHEMA).evolve(schema=schema).iter_errors(spec["default"]):
            for finding in explain(error):
                inner = pointer_of(error.absolute_path)
                yield Located(at + inner, f"default {finding.message}")
