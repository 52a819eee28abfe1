"""Watch a catalog and its layouts; re-render what changed.

Polls modification times (no platform file-event API needed, works on every
file system). A kind is drawn again when one of its components changed or
its layout file changed; PNGs are drawn again only for changed components.
An image or font file under the catalog's or the layouts' folder that changes
draws everything again (any face may use it).
Problems are reported and watching goes on.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from protopress.components import InvalidInput, load_catalog
from protopress.generators.layout import is_layout_file
from protopress.generators.render import RenderOptions, render_catalog


@dataclass(frozen=True)
class WatchEvent:
    kind: str  # "rendered", "invalid", "error"
    message: str
    files: tuple[Path, ...] = ()


ASSET_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".svg", ".ttf",
                  ".otf")  # fmt: skip
MAX_ASSETS = 5000  # files stamped per folder: a huge folder is not walked for ever


def snapshot(
    catalog_path: Path,
    layouts_dir: Path | None,
    assets: bool = False,
    exclude: Path | None = None,
    tables=(),
) -> dict[Path, int]:
    """Modification times of the catalog, its layouts and tables (its source
    spreadsheets); with assets, also of the images and fonts under the catalog's
    folder and the layouts folder, except those under exclude (the output folder:
    the render's own PNGs)."""
    skip = _resolved(exclude) if exclude is not None else None
    paths = [catalog_path, *tables]
    if layouts_dir is not None and layouts_dir.is_dir():
        paths.extend(sorted(p for p in layouts_dir.iterdir() if is_layout_file(p)))
    if assets:
        for folder in {catalog_path.parent, *([layouts_dir] if layouts_dir else [])}:
            found = (
                p for p in folder.rglob("*")
                if p.suffix.lower() in ASSET_SUFFIXES
                and (skip is None or not _resolved(p).is_relative_to(skip))
            )  # fmt: skip
            paths.extend(itertools.islice(found, MAX_ASSETS))
    stamps: dict[Path, int] = {}
    for path in paths:
        # a file being replaced: next time; a link loop or a name too long: never
        with contextlib.suppress(OSError):
            stamps[path] = path.stat().st_mtime_ns
    return stamps


def _resolved(path: Path) -> Path:
    """The path with its links followed, or as it stands when they go round in a loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a link loop, before Python 3.13
        return Path(os.path.abspath(path))


def changed_components(old, new) -> dict[str, set[str]]:
    """Kinds of new with the ids whose content differs from old (all of a new kind)."""
    changed = {}
    for kind, components in new.components.items():
        before = {c.id: (c.count, dict(c.fields)) for c in old.of_kind(kind)} if old else {}
        ids = {c.id for c in components if before.get(c.id) != (c.count, dict(c.fields))}
        removed = set(before) - {c.id for c in components}
        if ids or removed:
            changed[kind] = ids
    return changed


@dataclass(frozen=True)
class Followed:
    """What a catalog names that is followed beside it: its layouts folder (unless
    one is given) and the spreadsheets its kinds are imported from (`sources`)."""

    layouts_dir: Path | None
    tables: dict[Path, str]  # a source table's file -> the kind imported from it


class Sources:
    """The catalog's layouts folder and source tables, read again from its text
    only when the catalog file changes."""

    def __init__(self, catalog_path: Path, layouts_dir: Path | None):
        self.catalog_path, self.layouts_dir = catalog_path, layouts_dir
        self._stamp: int | None = None
        self._followed = Followed(layouts_dir, {})

    def followed(self) -> Followed:
        try:
            stamp = self.catalog_path.stat().st_mtime_ns
        except OSError:
            return self._followed
        if stamp != self._stamp:
            self._stamp, self._followed = stamp, _followed(self.catalog_path, self.layouts_dir)
        return self._followed


def _followed(catalog_path: Path, layouts_dir: Path | None) -> Followed:
    from protopress.components.loader import parse_source_file
    from protopress.designer.table_files import TABLE_SUFFIXES

    try:
        document = parse_source_file(catalog_path, str(catalog_path))
    except (OSError, InvalidInput):  # said when the catalog is loaded
        return Followed(layouts_dir, {})
    document = document if isinstance(document, dict) else {}
    folder = catalog_path.parent
    written = document.get("layouts")
    if layouts_dir is None and isinstance(written, str) and (folder / written).is_dir():
        layouts_dir = folder / written
    sources = document.get("sources")
    tables = {
        folder / table: kind
        for kind, table in (sources.items() if isinstance(sources, dict) else ())
        if isinstance(table, str) and table.lower().endswith(TABLE_SUFFIXES)
        and "://" not in table and _resolved(folder / table).is_relative_to(_resolved(folder))
    }  # fmt: skip
    return Followed(layouts_dir, tables)


def reimport(catalog_path: Path, table: Path, kind: str) -> WatchEvent | None:
    """Import a changed source table into the catalog again; the event when it fails
    (a bad cell: nothing is written, as with `import`)."""
    from protopress.designer import TableError, UnreadableTable
    from protopress.designer.tables import import_reviewed
    from protopress.files import InUse, exclusive

    try:
        with exclusive(catalog_path, "the catalog"):
            import_reviewed(table, kind, output=catalog_path)
    except InvalidInput as invalid:
        return WatchEvent("invalid", "\n".join(map(str, invalid.problems)))
    except (TableError, UnreadableTable, InUse, OSError) as error:
        return WatchEvent("error", f"{table}: {error}")
    return None


def reimport_changed(
    catalog_path: Path, followed: Followed, changed: set[Path], since: int | None
) -> list[WatchEvent]:
    """Import again each source table among changed, or (since: the catalog's stamp
    at the start) each newer than the catalog; the events of those that fail."""
    events = []
    for table, kind in followed.tables.items():
        try:
            newer = since is not None and table.stat().st_mtime_ns > since
        except OSError:
            continue  # gone: the catalog keeps what was imported
        wanted = newer if since is not None else table in changed
        if wanted:
            event = reimport(catalog_path, table, kind)
            if event is not None:
                events.append(event)
    return events


def watch(
    catalog_path: Path,
    options: RenderOptions,
    report: Callable[[WatchEvent], None],
    should_stop: Callable[[], bool],
    interval: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Render once, then again on every change until should_stop() is true. The
    catalog's source tables are imported again when they change (and at the start
    when newer than the catalog), and its layouts folder is followed."""
    stamps: dict[Path, int] = {}
    catalog = None
    sources = Sources(catalog_path, options.layouts_dir)
    while not should_stop():
        followed = sources.followed()
        now = snapshot(catalog_path, followed.layouts_dir, assets=True,
                       exclude=options.output_dir, tables=followed.tables)  # fmt: skip
        if now != stamps:
            changed = {p for p in set(now) | set(stamps) if now.get(p) != stamps.get(p)}
            since = now.get(catalog_path) if not stamps else None
            failed = reimport_changed(catalog_path, followed, changed, since)
            for event in failed:
                report(event)
            if failed or (changed <= set(followed.tables) and stamps):
                stamps = now  # the catalog written by the import is drawn at the next look
                sleep(interval)
                continue
            now = snapshot(catalog_path, followed.layouts_dir, assets=True,
                           exclude=options.output_dir, tables=followed.tables)  # fmt: skip
            layouts_changed = {p.stem for p in changed if p != catalog_path and is_layout_file(p)}
            assets_changed = any(p.suffix.lower() in ASSET_SUFFIXES for p in changed)
            stamps = now
            previous = None if assets_changed else catalog
            catalog = _render_changes(catalog_path, options, previous, layouts_changed, report)
        sleep(interval)


def _render_changes(catalog_path, options, previous, layouts_changed, report):
    try:
        catalog = load_catalog(catalog_path)
    except InvalidInput as invalid:
        report(WatchEvent("invalid", "\n".join(map(str, invalid.problems))))
        return previous
    except OSError as error:
        report(WatchEvent("error", f"{catalog_path}: {error.strerror or error}"))
        return previous
    only = None
    if previous is not None:
        only = changed_components(previous, catalog)
        for kind in layouts_changed:
            if kind in catalog.components:
                only[kind] = {c.id for c in catalog.of_kind(kind)}
        if not only:
            return catalog
    try:
        result = render_catalog(catalog, options, only=only)
    except InvalidInput as invalid:  # a layout with problems
        report(WatchEvent("invalid", "\n".join(map(str, invalid.problems))))
        return previous
    except ValueError as error:
        report(WatchEvent("error", str(error)))
        return previous
    except OSError as error:  # an output folder that cannot be written, a full disk
        where = error.filename or options.output_dir
        report(WatchEvent("error", f"{where}: {error.strerror or error}"))
        return previous
    except Exception as error:  # a drawing bug must not end the watch: say so, keep going
        report(WatchEvent("error", f"internal error: {type(error).__name__}: {error}"))
        return previous
    what = "everything" if only is None else ", ".join(sorted(only))
    messages = [f"rendered {what}", *(f"warning {w}" for w in result.warnings)]
    report(WatchEvent("rendered", "\n".join(messages), tuple(result.files)))
    return catalog
