"""Baseline of play_table.py's first page: uvicorn and starlette serving a page and a
JSON state, in a process that imports nothing of ours.

As `protopress play GAME --web` does, it listens on 127.0.0.1 (--port, 0 for any),
prints its address with a token, and answers: the address with the token sets a
session cookie and sends the browser to the page; with the cookie, / is the page
(the HTML file given) and /api/state the JSON file given; without it, 401. What it
stands for: the interpreter, the web libraries and two answers, with no game.
"""

from __future__ import annotations

import argparse
import secrets
import socket
from pathlib import Path

import uvicorn
from report import refuse_ours
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

COOKIE = "session"


def app(page: str, state: str, token: str, session: str) -> Starlette:
    def admitted(request: Request) -> bool:
        return secrets.compare_digest(request.cookies.get(COOKIE, ""), session)

    async def home(request: Request) -> Response:
        if secrets.compare_digest(request.query_params.get("token", ""), token):
            response = RedirectResponse("/", 303, headers={"Cache-Control": "no-store"})
            response.set_cookie(COOKIE, session, path="/", httponly=True, samesite="strict")
            return response
        if not admitted(request):
            return Response("not admitted", 401)
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def state_json(request: Request) -> Response:
        if not admitted(request):
            return Response("not admitted", 401)
        return Response(state, media_type="application/json")

    return Starlette(routes=[Route("/", home), Route("/api/state", state_json)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", type=Path, help="the HTML file served as /")
    parser.add_argument("state", type=Path, help="the JSON file served as /api/state")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    token, session = secrets.token_urlsafe(16), secrets.token_urlsafe(32)
    served = app(args.page.read_text(encoding="utf-8"), args.state.read_text(encoding="utf-8"),
                 token, session)  # fmt: skip
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(64)
    config = uvicorn.Config(served, log_level="warning", lifespan="off", access_log=False)
    refuse_ours()
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/?token={token}", flush=True)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
