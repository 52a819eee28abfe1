"""The live preview: `protopress preview CATALOG [--layouts DIR]`.

A thread polls the catalog, its layouts (the catalog's `layouts` folder unless
--layouts), its source tables (imported again when they change), and the
images and fonts of their folders (watch's change detection); on a change the
catalog is loaded and every face built again, with its problems: validation
(placed at the component the problem's JSON pointer names), the layouts' field
checks (fieldcheck.field_report, as validate), text that does not fit, the safe
zone, missing images and icons (drawn as placeholders); and every problem in one
list, the very lines `validate` prints of the same files. The page polls
`/api/version` and redraws when it moves. Faces are drawn to PNG on request;
nothing outside the catalog's folder is served (the images are the generators',
which refuse assets outside it).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from protopress.components import InvalidInput, load_catalog
from protopress.components.problems import Problem, printable
from protopress.generators.fieldcheck import field_report
from protopress.generators.layout import unloaded_layout_problems
from protopress.generators.watch import Sources, reimport_changed, snapshot
from protopress.web.faces import LARGE, Faces
from protopress.web.server import STATIC, page, static_files
from protopress.web.solo import face_response

POLL = 0.4  # seconds between looks at the files: a save shows within about a second

FaceKey = tuple[str, str, str, int]  # kind, component id, side, scale


class Preview:
    """The catalog as last read: the faces, their problems, and a version that moves."""

    def __init__(self, catalog_path: Path, layouts_dir: Path | None = None):
        self.catalog_path = Path(catalog_path).resolve()
        self.layouts_dir = Path(layouts_dir).resolve() if layouts_dir else None
        self.version = 0
        self.model: dict = {"version": 0, "kinds": [], "problems": [], "title": ""}
        self.faces: Faces | None = None
        self._stamps: dict = {}
        self._sources = Sources(self.catalog_path, self.layouts_dir)
        self._lock = threading.Lock()
        self._last_drawn: dict[FaceKey, bytes] = {}  # each face's last PNG that drew
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="preview-watch", daemon=True)
        self.follow()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(POLL):
            self.follow()

    def follow(self) -> None:
        """refresh, whatever fails: a failure keeps the last faces, marked stale, and
        the files are still followed, so the next save is drawn."""
        try:
            self.refresh()
        except Exception as error:  # a redraw must never end the watching
            problem = f"{self.catalog_path.name}: the faces could not be drawn: "
            self._keep_last(printable(problem + f"{type(error).__name__}: {error}"))

    def _keep_last(self, problem: str) -> None:
        with self._lock:
            self.version += 1
            model = {"title": self.model.get("title", ""), "problems": [problem]}
            model |= {"version": self.version, "kinds": self.model["kinds"], "stale": True}
            self.model = model

    def refresh(self) -> bool:
        """Read everything again if a file changed; True when it did. A changed source
        table of the catalog (its `sources`) is imported into it again first."""
        followed = self._sources.followed()
        stamps = snapshot(self.catalog_path, followed.layouts_dir, True, tables=followed.tables)
        if stamps == self._stamps:
            return False
        changed = {p for p in {*stamps, *self._stamps} if stamps.get(p) != self._stamps.get(p)}
        since = stamps.get(self.catalog_path) if not self._stamps else None
        failed = reimport_changed(self.catalog_path, followed, changed, since)
        if not failed and stamps.get(self.catalog_path) != _stamp(self.catalog_path):
            stamps = snapshot(self.catalog_path, followed.layouts_dir, True, tables=followed.tables)
        self._stamps = stamps
        model, faces = self._build()
        model["problems"] = [
            printable(line) for event in failed for line in event.message.splitlines()
        ] + model["problems"]
        with self._lock:
            self.version += 1
            model["version"] = self.version
            if faces is None and self.model["kinds"]:  # keep the last faces that loaded
                model["kinds"], model["stale"] = self.model["kinds"], True
            else:
                self.faces = faces
                shown = {(k["kind"], c["id"]) for k in model["kinds"] for c in k["components"]}
                self._last_drawn = {
                    key: png for key, png in self._last_drawn.items() if key[:2] in shown
                }
            self.model = model
        return True

    def _build(self) -> tuple[dict, Faces | None]:
        shown = self.catalog_path.name
        try:
            catalog = load_catalog(self.catalog_path, display=shown)
            faces = Faces(catalog, self.layouts_dir)
        except InvalidInput as invalid:
            return self._invalid(invalid), None
        except OSError as error:
            problem = printable(f"{shown}: {error.strerror or error}")
            return {"title": shown, "kinds": [], "problems": [problem]}, None
        kinds = [self._kind(faces, kind) for kind in catalog.components]
        model = {"title": catalog.title, "kinds": kinds, "problems": self._fields(faces)}
        return model | {"report": self._report(faces)}, faces

    def _fields(self, faces: Faces) -> list[str]:
        """What validate and render report of the layouts and fields (field_report,
        the one function they share): bindings to fields no component has, unknown
        ids, fields no layout uses (warnings). What drawing meets is on the faces."""
        report = field_report(faces.catalog, faces.layouts)
        return self._lines(report.problems, report.warnings)

    def _report(self, faces: Faces) -> list[str]:
        """The very lines `validate` prints of the same files (field_report with what
        drawing the faces meets): the page's list of every problem, in its order."""
        try:
            report = field_report(faces.catalog, faces.layouts, drawn=True)
        except InvalidInput as invalid:  # a layout's own problems: validate lists them alone
            return self._lines(invalid.problems, [])
        return self._lines(report.every_problem, report.warnings)

    def _lines(self, problems: list[Problem], warnings: list[Problem]) -> list[str]:
        """Problems, then warnings, as validate prints them."""
        return [self._shown(problem) for problem in problems] + [
            f"warning {self._shown(warning)}" for warning in warnings
        ]

    def _invalid(self, invalid: InvalidInput) -> dict:
        """Problems that stop the catalog loading, each at the component it names."""
        from protopress.components.loader import parse_source_file

        shown = self.catalog_path.name
        try:  # with the limits of every catalog read (a catalog over 64 MiB is not read)
            document = parse_source_file(self.catalog_path, shown)
        except (OSError, InvalidInput):
            document = None
        general: list[str] = []
        placed: dict[str, list[str]] = {}
        for problem in invalid.problems:
            ident = _component_at(document, problem.pointer)
            if ident is None:
                general.append(self._shown(problem))
            else:
                placed.setdefault(ident, []).append(self._shown(problem))
        every = [*invalid.problems, *unloaded_layout_problems(self.catalog_path, self.layouts_dir)]
        model = {"title": shown, "kinds": [], "problems": general, "placed": placed}
        return model | {"report": self._lines(every, [])}  # as validate prints them

    def _kind(self, faces: Faces, kind: str) -> dict:
        layout = faces.layouts.get(kind)
        problems = [] if layout else ["no layout: this kind is not drawn"]
        if layout:
            problems += layout.safe_zone_warnings()
        return {
            "kind": kind,
            "problems": problems,
            "sides": list(faces.sides(kind)),
            "size": faces.pixel_size(kind),
            "components": [self._component(faces, c) for c in faces.catalog.of_kind(kind)],
        }

    def _component(self, faces: Faces, component) -> dict:
        problems = []
        stale = []  # the sides that do not draw: their last drawing is shown
        for side in faces.sides(component.kind):
            try:
                face = faces.face(component.kind, component.id, side)
            except InvalidInput as invalid:  # text the face cannot draw: render refuses it too
                problems += [self._shown(problem) for problem in invalid.problems]
                stale.append(side)
                continue
            except ValueError as error:  # an image missing or refused
                problems.append(printable(f"{side}: {error}"))
                continue
            if face is not None:  # the component's own kind and side: always found
                problems += [self._shown(problem) for problem in face.problems]  # placeholders
                problems += [printable(f"{side}: {w}") for w in face.warnings]
        return {
            "id": component.id,
            "title": component.get("title") or component.get("name") or component.id,
            "count": component.count,
            "fields": json.loads(json.dumps(dict(component.fields), default=str)),
            "problems": problems,
            "stale": stale,
        }

    def _shown(self, problem: Problem) -> str:
        """The problem's line, its file named from the catalog's folder when inside it
        (as `render` names it when run there)."""
        folder = self.catalog_path.parent
        path = Path(problem.file)
        if path.is_absolute() and path.is_relative_to(folder):
            problem = dataclasses.replace(problem, file=path.relative_to(folder).as_posix())
        return str(problem)

    def state(self) -> dict:
        with self._lock:
            return self.model

    def png(self, kind: str, ident: str, side: str, scale: int = 1) -> Response:
        """The face drawn now (at scale times the page's resolution), or, when it does
        not draw, its last drawing (the page marks it stale and says why)."""
        with self._lock:
            faces = self.faces
        if faces is None:
            return Response("no faces yet", status_code=404, media_type="text/plain")
        key = (kind, ident, side, scale)
        try:
            response: Response | None = face_response(faces, kind, ident, side, scale)
        except Exception:  # the problem is on the page, beside the face
            response = None
        if response is not None and response.status_code == 200:
            with self._lock:
                self._last_drawn[key] = bytes(response.body)
            return response
        last = self._last_drawn.get(key)  # a face that does not draw now (refused, or failed)
        if last is not None:
            return Response(last, media_type="image/png", headers={"Cache-Control": "no-store"})
        if response is not None:
            return response
        return Response("this face does not draw", status_code=404, media_type="text/plain")


def _stamp(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def _component_at(document, pointer: str) -> str | None:
    """The id of the component a JSON pointer like /cards/2/title falls in."""
    parts = pointer.strip("/").split("/")
    if not isinstance(document, dict) or len(parts) < 2 or not parts[1].isdigit():
        return None
    items = document.get(parts[0])
    index = int(parts[1])
    if not isinstance(items, list) or index >= len(items) or not isinstance(items[index], dict):
        return None
    ident = items[index].get("id")
    return ident if isinstance(ident, str) else None


def preview_app(preview: Preview) -> Starlette:
    """The page's routes; `serve_page` puts them behind the gate."""

    async def index(request: Request) -> Response:
        return page(STATIC / "preview.html")

    async def version(request: Request) -> Response:
        return JSONResponse({"version": preview.version})

    async def state(request: Request) -> Response:
        return JSONResponse(preview.state())

    def face(request: Request) -> Response:
        p = request.path_params
        scale = LARGE if request.query_params.get("size") == "large" else 1
        return preview.png(p["kind"], p["ident"], p["side"], scale)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/version", version),
            Route("/api/state", state),
            Route("/face/{kind}/{ident}/{side}.png", face),
            Mount("/static", static_files()),
        ]
    )
    return app
