"""A validated catalog and its components."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from protopress.components.declared import DeclaredKind
    from protopress.components.schemas import Kind


@dataclass(frozen=True)
class Component:
    """One component design; `count` copies of it are in the box."""

    kind: str
    id: str
    count: int
    fields: Mapping[str, Any]  # the component's JSON object, as the schema checked it

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


@dataclass(frozen=True)
class Catalog:
    path: Path
    game: str
    title: str
    version: str
    components: Mapping[str, tuple[Component, ...]]  # by kind name, catalog order
    document: Mapping  # the validated JSON document, read-only by convention
    declared: Mapping = field(default_factory=dict)  # the kinds it declares, by name (DeclaredKind)

    def of_kind(self, kind: str) -> tuple[Component, ...]:
        return self.components.get(kind, ())

    def get(self, kind: str, component_id: str) -> Component:
        for component in self.of_kind(kind):
            if component.id == component_id:
                return component
        raise KeyError(f"{self.path}: no {kind} {component_id!r}")

    def copies(self, kind: str) -> int:
        """Components of a kind in the box, counting every copy."""
        return sum(component.count for component in self.of_kind(kind))

    @classmethod
    def from_document(
        cls,
        path: Path,
        document: dict[str, Any],
        kinds: Mapping[str, Kind],
        declared: Mapping[str, DeclaredKind] | None = None,
    ) -> Catalog:
        """The catalog of a valid document; a declared kind's components get the
        declared defaults of the fields they leave out."""
        declared = declared or {}
        components: dict[str, tuple[Component, ...]] = {}
        for kind in kinds.values():
            items = document.get(kind.collection)
            defaults = declared[kind.name].defaults() if kind.name in declared else {}
            if items:
                components[kind.name] = tuple(
                    Component(
                        kind.name,
                        item["id"],
                        item.get("count", 1),
                        MappingProxyType({**defaults, **item}),
                    )
                    for item in items
                )
        return cls(
            path=path,
            game=document["game"],
            title=document["title"],
            version=document["version"],
            components=MappingProxyType(components),
            document=MappingProxyType(document),
            declared=MappingProxyType(dict(declared)),
        )
