"""The local pages on a shared network (web/server.py's Gate): the printed token is
exchanged once for an HttpOnly, SameSite=Strict cookie and leaves the address;
the Host must name the address served and a change must come from the page's own
origin; request bodies are bounded in size and nesting before any endpoint reads
them; a key from an earlier start is refused with a message, never a traceback.

The HTTP-level tests talk to a real server process over a socket, each read held
to TIMEOUT seconds (a server that waited for a body it should refuse unread fails
there); the browser tests drive the pages in headless Chromium."""

import asyncio
import concurrent.futures
import http.client
import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from protopress.web.server import (
    MAX_BODY_BYTES,
    MAX_BODY_NESTING,
    NOT_ADMITTED,
    TOO_DEEP,
    TOO_LARGE,
    Gate,
    Keys,
    nesting_over,
)

TIMEOUT = 20  # seconds for one answer: only reached when the server waits for something
SESSION = re.compile(r"protopress-(\d+)=([\w-]+)")
MINI = Path(__file__).parents[1] / "data" / "mini-game" / "catalog.json"
WAIT = 30_000  # ms, for the browser: only reached when something is wrong


class Reply:
    def __init__(self, response: http.client.HTTPResponse):
        self.status = response.status
        self.headers = response.headers
        self.body = response.read()

    def json(self) -> dict:
        return json.loads(self.body)


def ask(server, method: str, path: str, *, host=None, cookie=None, origin=None, body=None,
        headers=None) -> Reply:  # fmt: skip
    """One request with exactly the headers given (Host: the printed address's)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    sent = {"Host": f"127.0.0.1:{server.port}" if host is None else host, **(headers or {})}
    if cookie:
        sent["Cookie"] = cookie
    if origin:
        sent["Origin"] = origin
    try:
        connection.request(method, path, body=body, headers=sent)
        return Reply(connection.getresponse())
    finally:
        connection.close()


def session_cookie(server) -> str:
    """The cookie the printed address gives, as a browser sends it back."""
    reply = ask(server, "GET", "/?token=" + server.token)
    found = SESSION.search(reply.headers["Set-Cookie"])
    assert found, reply.headers["Set-Cookie"]
    return found.group(0)


@pytest.fixture
def solo(serve, tmp_path):
    return serve("solo", "stonespine-architects", "--web", "--seed", 3, "--save",
                 tmp_path / "s.json")  # fmt: skip


def saved_answers(tmp_path) -> list[str]:
    return json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["answers"]


# ---- the token, exchanged once for a cookie ------------------------------------------


def test_the_token_is_exchanged_once_for_a_cookie_and_leaves_the_address(solo):
    reply = ask(solo, "GET", "/?token=" + solo.token)
    assert reply.status == 303 and reply.headers["Location"] == "/"
    cookie = reply.headers["Set-Cookie"]
    assert cookie.startswith(f"protopress-{solo.port}=")  # one per port: pages side by side
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert attributes == {"httponly", "path=/", "samesite=strict"}
    assert solo.token not in cookie  # the cookie is another secret than the token
    admitted = SESSION.search(cookie).group(0)
    for path in ("/", "/api/state", "/static/page.js", "/static/solo.js", "/history.csv"):
        reply = ask(solo, "GET", path, cookie=admitted)
        assert reply.status == 200, path
        assert solo.token.encode() not in reply.body and b"{{TOKEN}}" not in reply.body, path
        assert b"X-Token" not in reply.body and b"withToken" not in reply.body, path
    # a token given again, with other parameters: kept, and the token taken out
    reply = ask(solo, "GET", f"/history.csv?a=1&token={solo.token}&b=2")
    assert reply.status == 303 and reply.headers["Location"] == "/history.csv?a=1&b=2"


def test_the_address_after_the_token_stays_on_this_site(solo):
    """`//other.example/?token=...` must not redirect to another site; the path is
    kept as it was sent (`%2F` is not a folder)."""
    for path, location in (
        ("//other.example/", "/other.example/"),
        ("/\\other.example/", "/other.example/"),
        ("/face/a%2Fb/front.png", "/face/a%2Fb/front.png"),
    ):
        reply = ask(solo, "GET", f"{path}?token={solo.token}")
        assert reply.status == 303 and reply.headers["Location"] == location, path


def test_without_the_cookie_every_request_is_refused_with_a_message(solo, tmp_path):
    stale = f"protopress-{solo.port}=from-an-earlier-start"
    for path in (
        "/",
        "/api/state",
        "/static/solo.js",
        "/face/goal-card/monster-menagerie/front.png",
    ):
        for query, cookie in (("", None), ("?token=wrong", None), ("", stale)):
            reply = ask(solo, "GET", path + query, cookie=cookie)
            assert reply.status == 401, (path, query, cookie)
            assert "open the address protopress printed" in reply.json()["error"]
            assert reply.headers["Connection"] == "close"
    # a browser opening the page gets a page saying so, not a bare error
    reply = ask(solo, "GET", "/", headers={"Accept": "text/html,*/*"})
    assert reply.status == 401 and reply.headers["Content-Type"].startswith("text/html")
    assert b"open the address protopress printed in the terminal" in reply.body
    # the token is for opening the page only: a change carrying it is refused
    reply = ask(solo, "POST", "/api/answer?token=" + solo.token, origin=solo.base,
                body=b'{"text": "monster-menagerie", "after": 0}')  # fmt: skip
    assert reply.status == 401
    assert saved_answers(tmp_path) == []


def test_each_start_has_a_new_token_and_cookie_kept_nowhere(serve, tmp_path):
    first = serve(
        "solo", "stonespine-architects", "--web", "--seed", 3, "--save", tmp_path / "s.json"
    )
    cookie = session_cookie(first)
    first.kill()
    again = serve("solo", "stonespine-architects", "--web", "--save", tmp_path / "s.json",
                  port=first.port)  # fmt: skip
    assert again.token != first.token
    for secret in (first.token, cookie.split("=", 1)[1]):
        for file in tmp_path.rglob("*"):
            assert not file.is_file() or secret.encode() not in file.read_bytes(), file
    # the first start's cookie and token open nothing now
    reply = ask(again, "GET", "/api/state", cookie=cookie)
    assert reply.status == 401 and "earlier start" in reply.json()["error"]
    assert ask(again, "GET", "/?token=" + first.token).status == 401
    assert session_cookie(again) != cookie


# ---- Host and Origin -----------------------------------------------------------------


def test_a_host_other_than_the_address_served_is_refused(solo):
    """DNS rebinding: another site's name resolving to 127.0.0.1 reaches the port
    with its own name in the Host header."""
    cookie = session_cookie(solo)
    for host in (f"rebound.example:{solo.port}", f"127.0.0.1:{solo.port + 1}", "127.0.0.1",
                 f"127.0.0.1.rebound.example:{solo.port}", ""):  # fmt: skip
        reply = ask(solo, "GET", "/api/state", host=host, cookie=cookie)
        assert reply.status == 403, host
        assert "answers only at the address protopress printed" in reply.json()["error"]
    for host in (f"127.0.0.1:{solo.port}", f"localhost:{solo.port}", f"LOCALHOST:{solo.port}"):
        assert ask(solo, "GET", "/api/state", host=host, cookie=cookie).status == 200, host
    # even the token is not taken under another name
    reply = ask(solo, "GET", "/?token=" + solo.token, host=f"rebound.example:{solo.port}")
    assert reply.status == 403 and "Set-Cookie" not in reply.headers


def test_a_change_from_another_origin_is_refused(solo, tmp_path):
    cookie = session_cookie(solo)
    body = json.dumps({"text": "monster-menagerie", "after": 0}).encode()
    for origin in (None, "null", "http://other.example", f"http://localhost:{solo.port + 1}"):
        reply = ask(solo, "POST", "/api/answer", cookie=cookie, origin=origin, body=body)
        assert reply.status == 403, origin
        assert "another site is refused" in reply.json()["error"]
    assert saved_answers(tmp_path) == []
    reply = ask(solo, "POST", "/api/answer", cookie=cookie, origin=solo.base, body=body)
    assert reply.status == 200 and reply.json()["answers"] == 1
    assert saved_answers(tmp_path) == ["monster-menagerie"]


def test_the_page_sends_no_folder_of_this_machine(serve, tmp_path):
    save = tmp_path / "private-folder" / "s.json"
    server = serve("solo", "stonespine-architects", "--web", "--seed", 3, "--save", save)
    cookie = session_cookie(server)
    ask(server, "POST", "/api/answer", cookie=cookie, origin=server.base,
        body=b'{"text": "monster-menagerie", "after": 0}')  # fmt: skip
    server.kill()
    server = serve("solo", "stonespine-architects", "--web", "--save", save)
    state = ask(server, "GET", "/api/state", cookie=session_cookie(server)).json()
    assert state["save"] == "s.json"
    assert state["note"] == "Resumed the unfinished game in s.json."
    assert "private-folder" not in json.dumps(state)
    assert f"Every answer is saved in {save}." in server.output.decode()  # the terminal's


# ---- request bodies ------------------------------------------------------------------


def test_a_body_over_the_limit_by_its_length_is_refused_unread(solo):
    """A Content-Length of 200 MB, and no byte of the body sent: 413 at once (a
    server waiting for the body would not answer within TIMEOUT)."""
    cookie = session_cookie(solo)
    with socket.create_connection(("127.0.0.1", solo.port), timeout=TIMEOUT) as connection:
        connection.sendall(
            f"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1:{solo.port}\r\nCookie: {cookie}\r\n"
            f"Origin: {solo.base}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {200 * 1024 * 1024}\r\n\r\n".encode()
        )
        reply = http.client.HTTPResponse(connection)
        reply.begin()
        assert reply.status == 413
        assert json.loads(reply.read()) == {"error": "The request body is over 64 KiB; refused."}


def test_a_body_over_the_limit_without_a_length_is_refused_when_it_passes_it(solo):
    """A chunked body that never ends: refused once past the limit, the server well."""
    cookie = session_cookie(solo)
    chunk = b"[" * 16384
    with socket.create_connection(("127.0.0.1", solo.port), timeout=TIMEOUT) as connection:
        connection.sendall(
            f"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1:{solo.port}\r\nCookie: {cookie}\r\n"
            f"Origin: {solo.base}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
        )
        for _ in range(MAX_BODY_BYTES // len(chunk) + 2):
            connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        reply = http.client.HTTPResponse(connection)
        reply.begin()
        assert reply.status == 413
    assert ask(solo, "GET", "/api/state", cookie=cookie).status == 200


@pytest.mark.parametrize(
    ("depth", "status"),
    [(100_000, 413), (20_000, 400), (MAX_BODY_NESTING + 1, 400)],
)
def test_a_deeply_nested_body_is_one_line_and_no_traceback(solo, depth, status):
    """Was: 100,000 levels gave HTTP 500 and a RecursionError's traceback on the
    player's terminal."""
    cookie = session_cookie(solo)
    body = b'{"text": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
    reply = ask(solo, "POST", "/api/answer", cookie=cookie, origin=solo.base, body=body)
    assert reply.status == status
    message = reply.json()["error"]
    assert "\n" not in message and message.endswith("refused.")
    solo.kill()
    assert b"Traceback" not in solo.output and b"internal error" not in solo.output


def test_a_body_within_the_limits_reaches_the_endpoint(solo):
    cookie = session_cookie(solo)
    body = b'{"text": ' + b"[" * (MAX_BODY_NESTING - 1) + b"]" * (MAX_BODY_NESTING - 1) + b"}"
    reply = ask(solo, "POST", "/api/answer", cookie=cookie, origin=solo.base, body=body)
    assert (reply.status, reply.json()["error"]) == (400, "An answer is a text.")
    text = "x" * 2000  # the longest answer, in the largest form JSON gives it
    body = json.dumps({"text": text, "after": 0}).encode().replace(b"x", b"\\u0078")
    assert len(body) < MAX_BODY_BYTES
    reply = ask(solo, "POST", "/api/answer", cookie=cookie, origin=solo.base, body=body)
    assert reply.status == 422  # the engine's refusal: the body was read whole


def test_the_gate_reads_at_most_the_limit_and_one_message():
    """In process: a client sending 16 KiB messages for ever is refused after the
    message that passes MAX_BODY_BYTES, the rest never asked for."""
    keys = Keys.new()
    pulled = []
    sent = []

    async def receive():
        pulled.append(16384)
        return {"type": "http.request", "body": b"[" * 16384, "more_body": True}

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):
        raise AssertionError("the app is never reached")

    run_apart(Gate(app, keys, "127.0.0.1")(in_process("POST", keys), receive, send))
    assert sent[0]["status"] == 413
    assert sum(pulled) == MAX_BODY_BYTES + 16384  # 64 KiB, then the one that passed it


def test_an_error_in_an_endpoint_is_one_line_and_a_500(capsys):
    keys = Keys.new()
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):
        raise KeyError("a bug")

    run_apart(Gate(app, keys, "127.0.0.1")(in_process("GET", keys), receive, send))
    assert sent[0]["status"] == 500
    assert json.loads(sent[1]["body"]) == {"error": "internal error: KeyError"}
    assert capsys.readouterr().err == (
        "protopress: internal error on GET /api/answer: KeyError: 'a bug' (a bug)\n"
    )


def test_an_ipv4_client_of_a_server_on_every_address_is_let_in_by_its_address():
    """Listening on `::`, an IPv4 phone arrives at ::ffff:192.168.1.5 and names
    192.168.1.5 in its Host header."""
    keys = Keys.new()
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    for host, status in (("192.168.1.5", 204), ("192.168.1.6", 403)):
        scope = in_process("GET", keys, host=host, arrived="::ffff:192.168.1.5")
        sent.clear()
        run_apart(Gate(app, keys, "::")(scope, receive, send))
        assert sent[0]["status"] == status, host


def run_apart(coroutine) -> None:
    """Run the coroutine to its end in a thread of its own (Playwright's sync API
    keeps an event loop running in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, coroutine).result()


def in_process(method: str, keys: Keys, host="127.0.0.1", arrived="127.0.0.1") -> dict:
    """The scope of a request with the session cookie and the page's Origin."""
    return {
        "type": "http",
        "method": method,
        "path": "/api/answer",
        "query_string": b"",
        "server": (arrived, 8765),
        "headers": [
            (b"host", f"{host}:8765".encode()),
            (b"origin", f"http://{host}:8765".encode()),
            (b"cookie", f"protopress-8765={keys.session}".encode()),
        ],
    }


def test_counting_the_nesting_is_linear_whatever_the_quotes():
    """Bodies of the largest size built to make a string scan start again at every
    quote (a regular expression took 13 s on the first), counted in a process held
    to 5 s of CPU."""
    bodies = ("b'\"\\\\' * 32768", "b'\"' * 65536", "b'[' * 65536", "b'\\\\' * 65536")
    script = (
        "import resource; resource.setrlimit(resource.RLIMIT_CPU, (5, 5))\n"
        "from protopress.web.server import nesting_over\n"
        f"print([nesting_over(body, 32) for body in ({', '.join(bodies)})])"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == "[False, False, True, False]"


def test_nesting_is_counted_outside_strings_only():
    assert not nesting_over(b'{"a": "[[[[[[[[[[[[", "b": [[1]]}', 3)
    assert nesting_over(b'{"a": [[[1]]]}', 3)
    assert not nesting_over(b'{"a": "\\"[[[[[[", "b": [[1]]}', 3)  # an escaped quote
    assert not nesting_over(b"[" * 3 + b"]" * 3, 3)
    assert nesting_over(b"[" * 4, 3)


def test_the_limits_in_this_document_are_the_gates():
    """docs/reliability.md states the gate's bounds and messages as the code has them."""
    document = (Path(__file__).parents[2] / "docs" / "reliability.md").read_text()
    section = document.split("## The local pages on a shared network")[1].split("\n## ")[0]
    assert f"at most {MAX_BODY_BYTES // 1024} KiB" in section
    assert f"at most {MAX_BODY_NESTING} levels" in section
    for message in (TOO_LARGE, TOO_DEEP):
        assert f"`{message}`" in section
    assert f"`... {NOT_ADMITTED.split(': ', 1)[1]}`" in section


# ---- --host on a shared network ------------------------------------------------------


def test_a_page_on_the_network_says_who_can_reach_it_and_its_address_works(serve, tmp_path):
    server = serve("preview", MINI, "--host", "0.0.0.0")
    printed = server.read_until(b"Ctrl+C").decode()
    assert "Listening on 0.0.0.0, not only on this machine: anyone on the same network" in (printed)
    # the printed address (this machine's on the network) takes the token, then the cookie
    shown = server.base.removeprefix("http://")
    address = shown.rsplit(":", 1)[0]
    connection = http.client.HTTPConnection(address, server.port, timeout=TIMEOUT)
    connection.request("GET", "/?token=" + server.token, headers={"Host": shown})
    reply = Reply(connection.getresponse())
    connection.close()
    assert reply.status == 303
    cookie = SESSION.search(reply.headers["Set-Cookie"]).group(0)
    connection = http.client.HTTPConnection(address, server.port, timeout=TIMEOUT)
    connection.request("GET", "/api/version", headers={"Host": shown, "Cookie": cookie})
    assert connection.getresponse().status == 200
    connection.close()


def test_a_page_on_this_machine_says_so(serve):
    server = serve("preview", MINI)
    printed = server.read_until(b"Ctrl+C").decode()
    assert "Open it in a browser on this machine" in printed and "anyone" not in printed


# ---- in the browser ------------------------------------------------------------------


@pytest.mark.browser
def test_in_the_browser_the_token_leaves_the_address_and_no_request_carries_it(phone, solo):
    asked = []
    phone.on("request", lambda request: asked.append(request.url))
    phone.goto(solo.url)
    phone.wait_for_function("state && state.answers === 0", timeout=WAIT)
    phone.wait_for_selector('.card[data-id="monster-menagerie"] img', timeout=WAIT)
    assert phone.url == solo.base + "/"
    [cookie] = phone.context.cookies()
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["path"]) == (True, "Strict", "/")
    assert phone.evaluate("document.cookie") == ""  # no script can read it
    assert [url for url in asked if "token" in url] == [solo.url]  # the first visit only
    assert len(asked) > 5  # the page, its scripts, its state and faces
    phone.click('.card[data-id="monster-menagerie"]')  # one goal card: the tap is the answer
    phone.wait_for_function("state.answers === 1", timeout=WAIT)
    assert [url for url in asked if "token" in url] == [solo.url]  # the answer carried none


@pytest.mark.browser
def test_a_page_left_open_across_a_restart_says_to_open_the_new_address(phone, serve):
    """The preview polls; started again, protopress has a new key, and the page says
    so (was: a SyntaxError, the refusal not being JSON)."""
    first = serve("preview", MINI)
    phone.goto(first.url)
    phone.wait_for_selector('.face[data-id="dawn"]', timeout=WAIT)
    first.kill()
    again = serve("preview", MINI, port=first.port)
    phone.wait_for_function(
        "document.getElementById('updated').textContent.includes('open the address')",
        timeout=WAIT,
    )
    assert "earlier start of protopress" in phone.inner_text("#updated")
    phone.goto(again.url)
    phone.wait_for_selector('.face[data-id="dawn"]', timeout=WAIT)
