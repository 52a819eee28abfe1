"""What every page shares: the token gate, the static files, the page with its token, and
listening on a host and port with the URL printed."""

from __future__ import annotations

import contextlib
import secrets
import socket
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import uvicorn
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

STATIC = Path(__file__).parent / "static"
LOCAL = "127.0.0.1"
DEFAULT_PORT = 8765
REFUSED = (
    "403 Forbidden: open the address protopress printed, with its token "
    "(the token keeps others on the network out).\n"
)


def new_token() -> str:
    return secrets.token_urlsafe(16)


class TokenGate:
    """Refuse (403) every request whose `token` (query or X-Token header) is not ours."""

    def __init__(self, app: ASGIApp, token: str):
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = query.get("token", [""])[0].encode()
            headers = dict(scope.get("headers") or [])
            given = given or headers.get(b"x-token", b"")
            if not secrets.compare_digest(given, self.token):
                await PlainTextResponse(REFUSED, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class StaticFolders(StaticFiles):
    """Static files from several folders: the first that holds a name serves it."""

    def __init__(self, *folders: Path):
        self.folders = list(folders)
        super().__init__(directory=folders[0])

    def get_directories(self, directory=None, packages=None) -> list:
        return list(self.folders)


def static_files(*first: Path) -> StaticFiles:
    """The pages' HTML, CSS and JavaScript: only the package's own folder, after
    the folders given first (a game's own page)."""
    return StaticFolders(*first, STATIC)


def page(path: Path, token: str) -> HTMLResponse:
    """A page with its token in the links it makes."""
    html = path.read_text(encoding="utf-8").replace("{{TOKEN}}", token)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
            return probe.getsockname()[0]
        except OSError:
            return LOCAL


def listen(host: str, port: int) -> socket.socket:
    """A listening socket; OSError (say, the port is taken) is the caller's to report."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def page_url(host: str, port: int, token: str, path: str = "/") -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}{path}?token={token}"


def serve(app: ASGIApp, sock: socket.socket, announce: Callable[[], None]) -> None:
    """Serve app on sock until interrupted; announce() once it is about to accept."""
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    announce()
    server.run(sockets=[sock])
