"""What changed between two versions of a catalog, component by component and
field by field: the changelog between playtest versions."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from protopress.components import Catalog

_MISSING = object()


@dataclass(frozen=True)
class FieldChange:
    path: str  # dotted path inside the component, e.g. "doors.N.cost"
    old: object = None  # absent when the field was added
    new: object = None  # absent when the field was removed
    added: bool = False
    removed: bool = False

    def __str__(self) -> str:
        if self.added:
            return f"{self.path} added: {_show(self.new)}"
        if self.removed:
            return f"{self.path} removed (was {_show(self.old)})"
        return f"{self.path}: {_show(self.old)} -> {_show(self.new)}"

    def to_json(self) -> dict:
        result: dict[str, object] = {"path": self.path}
        if not self.added:
            result["old"] = self.old
        if not self.removed:
            result["new"] = self.new
        return result


@dataclass(frozen=True)
class Change:
    kind: str  # component kind, or "catalog" for the catalog's own fields
    id: str
    status: str  # "added", "removed" or "changed"
    fields: tuple[FieldChange, ...] = field(default=())

    def lines(self) -> list[str]:
        mark = {"added": "+", "removed": "-", "changed": "~"}[self.status]
        head = f"{mark} {self.kind} {self.id}"
        if self.status != "changed":
            return [head]
        return [f"{head}: {change}" for change in self.fields]

    def to_json(self) -> dict:
        result: dict[str, object] = {"kind": self.kind, "id": self.id, "status": self.status}
        if self.fields:
            result["fields"] = [change.to_json() for change in self.fields]
        return result


def _show(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def field_changes(old, new, prefix: str = "") -> list[FieldChange]:
    """Differences between two JSON values; objects are compared key by key."""
    if isinstance(old, dict) and isinstance(new, dict):
        changes = []
        for key in sorted(old.keys() | new.keys()):
            path = f"{prefix}.{key}" if prefix else str(key)
            before, after = old.get(key, _MISSING), new.get(key, _MISSING)
            if before is _MISSING:
                changes.append(FieldChange(path, new=after, added=True))
            elif after is _MISSING:
                changes.append(FieldChange(path, old=before, removed=True))
            else:
                changes.extend(field_changes(before, after, path))
        return changes
    return [] if old == new else [FieldChange(prefix, old, new)]


CATALOG_FIELDS = ("game", "title", "version", "description", "totals")


def diff_catalogs(old: Catalog, new: Catalog) -> list[Change]:
    changes = []
    meta = field_changes(
        {k: old.document.get(k) for k in CATALOG_FIELDS if k in old.document},
        {k: new.document.get(k) for k in CATALOG_FIELDS if k in new.document},
    )
    if meta:
        changes.append(Change("catalog", new.game, "changed", tuple(meta)))
    for kind in dict.fromkeys([*old.components, *new.components]):
        before = {c.id: c for c in old.of_kind(kind)}
        after = {c.id: c for c in new.of_kind(kind)}
        for component_id in [*before, *(i for i in after if i not in before)]:
            if component_id not in after:
                changes.append(Change(kind, component_id, "removed"))
            elif component_id not in before:
                changes.append(Change(kind, component_id, "added"))
            else:
                fields = field_changes(
                    _with_count(before[component_id]), _with_count(after[component_id])
                )
                if fields:
                    changes.append(Change(kind, component_id, "changed", tuple(fields)))
    return changes


def _with_count(component) -> dict:
    """A component's fields with its count made explicit (1 when omitted)."""
    return {**component.fields, "count": component.count}
