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
    catalog_path: Path, layouts_dir: Path | None, assets: bool = False, exclude: Path | None = None
) -> dict[Path, int]:
    """Modification times of the catalog and its layouts; with assets, also of the
    images and fonts under the catalog's folder and the layouts folder, except
    those under exclude (the output folder: the render's own PNGs)."""
    skip = _resolved(exclude) if exclude is not None else None
    paths = [catalog_path]
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


def watch(
    catalog_path: Path,
    options: RenderOptions,
    report: Callable[[WatchEvent], None],
    should_stop: Callable[[], bool],
    interval: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Render once, then again on every change until should_stop() is true."""
    stamps: dict[Path, int] = {}
    catalog = None
    while not should_stop():
        now = snapshot(catalog_path, options.layouts_dir, assets=True, exclude=options.output_dir)
        if now != stamps:
            changed = {p for p in set(now) | set(stamps) if now.get(p) != stamps.get(p)}
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
