"""What every page shares: the gate in front of every request, the static files,
the pages, and listening on a host and port with the URL printed.

The gate (one place for every page and endpoint): the Host header must name the
address served (DNS rebinding), the browser must hold this start's session
cookie, got once by opening the printed address with its token, a change must
come from the page's own origin (cross-site posts), and a request body is
bounded in size and nesting before any endpoint reads it.
"""

from __future__ import annotations

import contextlib
import html
import ipaddress
import re
import secrets
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import uvicorn
from starlette.requests import HTTPConnection
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATIC = Path(__file__).parent / "static"
LOCAL = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_BODY_BYTES = 64 * 1024  # an answer is at most 2,000 characters: a body is far smaller
MAX_BODY_NESTING = 32  # the pages send flat objects; json.loads recurses once a level
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
TOKEN_PARAMETER = "token"
NOT_ADMITTED = (
    "This browser has no key to this page, or one from an earlier start of protopress: "
    "open the address protopress printed in the terminal (its key changes each start)."
)
WRONG_HOST = (
    "This page answers only at the address protopress printed "
    "(127.0.0.1, localhost or the --host address, on its port)."
)
FOREIGN_ORIGIN = "A change must come from the page itself: a request from another site is refused."
TOO_LARGE = f"The request body is over {MAX_BODY_BYTES // 1024} KiB; refused."
TOO_DEEP = f"The request body is nested more than {MAX_BODY_NESTING} levels deep; refused."
QUOTE, BACKSLASH, OPENING, CLOSING = ord('"'), ord("\\"), b"[{", b"]}"
HOST_HEADER = re.compile(r"\[([0-9A-Fa-f:.]+)\](?::(\d+))?|([^:\[\]]+)(?::(\d+))?")


@dataclass(frozen=True)
class Keys:
    """This start's secrets, never saved: the token in the printed address, which a
    browser gives once for the session cookie that admits every later request."""

    token: str
    session: str

    @classmethod
    def new(cls) -> Keys:
        return cls(secrets.token_urlsafe(16), secrets.token_urlsafe(32))


@dataclass(frozen=True)
class Refusal:
    """A request turned away before any endpoint sees it."""

    status: int
    message: str

    def response(self, connection: HTTPConnection) -> Response:
        """HTML for a browser opening a page, else JSON with an `error` (what the
        pages' scripts read); the connection is closed (a body may be unread)."""
        headers = {"Cache-Control": "no-store", "Connection": "close"}
        if "text/html" in connection.headers.get("accept", ""):
            text = html.escape(self.message)
            document = (
                '<!doctype html><html lang="en"><meta charset="utf-8">'
                f"<title>protopress</title><p>{text}</p></html>"
            )
            return HTMLResponse(document, self.status, headers=headers)
        return JSONResponse({"error": self.message}, self.status, headers=headers)


def is_loopback(host: str) -> bool:
    """True when only this machine can reach an address listened on."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def nesting_over(body: bytes, limit: int) -> bool:
    """True when the JSON text nests lists and objects deeper than limit; brackets
    inside strings do not count. One pass, no recursion: linear in the body's size
    whatever its quotes and backslashes."""
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == BACKSLASH:
                escaped = True
            elif byte == QUOTE:
                in_string = False
        elif byte == QUOTE:
            in_string = True
        elif byte in OPENING:
            depth += 1
            if depth > limit:
                return True
        elif byte in CLOSING:
            depth -= 1
    return False


class Gate:
    """In front of every request of a page: the checks of the module's docstring,
    in that order, each refusal a short message; then the app, with the body read."""

    def __init__(self, app: ASGIApp, keys: Keys, host: str):
        self.app = app
        self.keys = keys
        self.host = host  # as given to --host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        port = _served_port(scope)
        if not self._host_allowed(connection.headers.get("host", ""), scope, port):
            return await _refuse(Refusal(403, WRONG_HOST), connection, receive, send)
        cookie = f"protopress-{port}"
        given = connection.query_params.get(TOKEN_PARAMETER)
        admitted = _same(connection.cookies.get(cookie), self.keys.session)
        exchange = given is not None and scope["method"] in ("GET", "HEAD")
        if exchange and (admitted or _same(given, self.keys.token)):
            await _exchanged(connection, cookie, self.keys.session)(scope, receive, send)
            return
        if not admitted:
            return await _refuse(Refusal(401, NOT_ADMITTED), connection, receive, send)
        if scope["method"] not in SAFE_METHODS and not _same_origin(connection):
            return await _refuse(Refusal(403, FOREIGN_ORIGIN), connection, receive, send)
        body, refusal = await _bounded_body(connection, receive)
        if refusal is not None:
            return await _refuse(refusal, connection, receive, send)
        if body is None:  # the client went away
            return None
        await _run(self.app, scope, _replay(body, receive), send)

    def _host_allowed(self, header: str, scope: Scope, port: int) -> bool:
        """The Host header names this server: a loopback name, the --host address, or
        the address the request arrived at (a phone given this machine's address)."""
        found = HOST_HEADER.fullmatch(header)
        if found is None:
            return False
        name = _canonical(found.group(1) or found.group(3))
        given_port = int(found.group(2) or found.group(4) or 80)
        arrived = (scope.get("server") or ("", 0))[0]
        names = {_canonical(n) for n in (*LOOPBACK_NAMES, arrived)}
        if self.host not in WILDCARDS:
            names.add(_canonical(self.host))
        return given_port == port and name in names


def _canonical(name: str) -> str:
    """A host name in lower case; an IP address in one spelling (an IPv4 client of
    a socket listening on `::` arrives at `::ffff:a.b.c.d`)."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return name.lower()
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped or address)


def _served_port(scope: Scope) -> int:
    server = scope.get("server") or ("", 0)
    return int(server[1] or 0)


def _same(given: str | None, secret: str) -> bool:
    return given is not None and secrets.compare_digest(given.encode(), secret.encode())


def _same_origin(connection: HTTPConnection) -> bool:
    """The Origin header (every browser sends it on a POST) is this page's own."""
    origin = connection.headers.get("origin", "")
    return origin.lower() == f"http://{connection.headers.get('host', '')}".lower()


def _exchanged(connection: HTTPConnection, cookie: str, session: str) -> Response:
    """The session cookie for the token, and the same address without the token, so
    that it leaves the address bar, the history and every later request."""
    raw = connection.scope.get("raw_path") or connection.url.path.encode()
    path = "/" + raw.decode("latin-1").lstrip("/\\")  # never `//host` or `/\host`: another site
    rest = [(k, v) for k, v in connection.query_params.multi_items() if k != TOKEN_PARAMETER]
    location = path + ("?" + urlencode(rest) if rest else "")
    response = RedirectResponse(location, 303, headers={"Cache-Control": "no-store"})
    response.set_cookie(cookie, session, path="/", httponly=True, samesite="strict")
    return response


async def _bounded_body(
    connection: HTTPConnection, receive: Receive
) -> tuple[bytes | None, Refusal | None]:
    """The body, refused (413) past MAX_BODY_BYTES without reading further (a
    Content-Length over it is refused unread), or (400) nested past MAX_BODY_NESTING."""
    length = connection.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        return None, Refusal(413, TOO_LARGE)
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None, None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None, Refusal(413, TOO_LARGE)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    if nesting_over(body, MAX_BODY_NESTING):
        return None, Refusal(400, TOO_DEEP)
    return body, None


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body already read, for the app; then the connection's own messages."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


async def _refuse(refusal: Refusal, connection: HTTPConnection, receive: Receive, send: Send):
    await refusal.response(connection)(connection.scope, receive, send)


async def _run(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """The app; an error in it is one line on the terminal and a 500, not a traceback."""
    started = False

    async def watched(message: Message) -> None:
        nonlocal started
        started = started or message["type"] == "http.response.start"
        await send(message)

    try:
        await app(scope, receive, watched)
    except Exception as error:  # noqa: BLE001 (the server goes on; the bug is reported)
        where = f"{scope['method']} {scope['path']}"
        name = type(error).__name__
        print(f"protopress: internal error on {where}: {name}: {error} (a bug)", file=sys.stderr)
        if not started:
            response = JSONResponse({"error": f"internal error: {name}"}, 500)
            await response(scope, receive, send)


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


def page(path: Path) -> HTMLResponse:
    """A page as it is: the session cookie, not its links, carries the key."""
    return HTMLResponse(path.read_text(encoding="utf-8"), headers={"Cache-Control": "no-store"})


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
    """The address to print: opened once, it gives the browser its session cookie."""
    shown = lan_address() if host in WILDCARDS else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}{path}?token={token}"


def serve(app: ASGIApp, sock: socket.socket, announce: Callable[[], None]) -> None:
    """Serve app (behind its Gate) on sock until interrupted; announce() once it is
    about to accept."""
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    announce()
    server.run(sockets=[sock])
