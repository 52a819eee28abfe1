"""Request bodies of the local pages: any body to any endpoint of the solo page,
through the gate as a browser's request passes it, is answered with 200 or a
refusal whose `error` is one line (400, 409, 413, 422), never an internal error,
within the hang limit. The statistics give the share of bodies the gate refused
(size, nesting), the share that reached an endpoint, and the share that changed
the game (`--hypothesis-show-statistics`; PROTOPRESS_FUZZ_TALLY counts as it runs).

The app runs in this process on an event loop of its own thread, as uvicorn
would run it, with the real Stonespine companion and a save in a temporary
folder."""

import asyncio
import json
import threading

import pytest
from fuzzing import (
    Raw,
    fuzz_settings,
    hard_timeout,
    mutate_text,
    serialize,
    smoke_settings,
    tally,
    to_bytes,
    weird_values,
)
from hypothesis import event, given
from hypothesis import strategies as st

from protopress.components import builtin_catalog_path, load_catalog
from protopress.games import builtin_spec, solo_companion
from protopress.web.server import MAX_BODY_BYTES, MAX_BODY_NESTING, Gate, Keys
from protopress.web.solo import Companion, solo_app

CHANGES = ["/api/answer", "/api/undo", "/api/new"]
READS = ["/api/state", "/api/history"]
ANSWERED = {200, 400, 409, 413, 422}
FIELDS = ["text", "after", "count", "seed", "difficulty"]
# answers the game may take at some point (the first is its first answer, seed 3)
PLAUSIBLE = {
    "text": st.sampled_from(["monster-menagerie", "8", "buy", "pass", "none", "", "2 goblin"]),
    "after": st.integers(0, 40),
    "count": st.integers(-1, 4),
    "seed": st.integers(-3, 10**6),
    "difficulty": st.sampled_from(["normal", "hard", "Normal", ""]),
}


@st.composite
def documents(draw) -> bytes:
    """A JSON object of the endpoints' fields, plausible or hostile, as text that
    may be broken and bytes that may not be UTF-8."""
    document = {}
    for name in draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=5)):
        document[name] = draw(PLAUSIBLE[name] if draw(st.booleans()) else weird_values())
    if draw(st.integers(0, 5)) == 0:
        document[draw(st.text(max_size=8))] = draw(weird_values())
    text = serialize(document, draw(st.sampled_from([None, 2])))
    if draw(st.integers(0, 4)) == 0:
        text = draw(mutate_text(text))
    return draw(to_bytes(text))


@st.composite
def large_or_deep(draw) -> bytes:
    """Bodies at and around the bounds: size, nesting, and both."""
    depth = draw(st.sampled_from([MAX_BODY_NESTING, MAX_BODY_NESTING + 1, 1000, 100_000]))
    inner = Raw(
        draw(st.sampled_from(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth]))
    )
    padding = draw(st.sampled_from([0, MAX_BODY_BYTES - 40, MAX_BODY_BYTES + 1]))
    return serialize({"text": inner, "pad": " " * padding}, None).encode()


bodies = st.one_of(documents(), large_or_deep(), st.binary(max_size=200))


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The solo page behind its gate, and a function sending it one request."""
    keys = Keys.new()
    spec = builtin_spec("stonespine-architects")
    catalog = load_catalog(builtin_catalog_path("stonespine-architects"))
    save = tmp_path_factory.mktemp("bodies") / "s.json"
    companion = Companion.open(
        solo_companion(spec), catalog, difficulty="normal", seed=3, save_path=save
    )
    app = Gate(solo_app(companion), keys, "127.0.0.1")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="page", daemon=True)
    thread.start()

    def request(method: str, path: str, body: bytes, length: bool) -> tuple[int, bytes]:
        headers = [
            (b"host", b"127.0.0.1:8765"),
            (b"origin", b"http://127.0.0.1:8765"),
            (b"cookie", f"protopress-8765={keys.session}".encode()),
            (b"content-type", b"application/json"),
        ]
        if length:
            headers.append((b"content-length", str(len(body)).encode()))
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"",
            "server": ("127.0.0.1", 8765),
            "client": ("127.0.0.1", 50000),
            "headers": headers,
        }
        chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)] or [b""]
        sent: list[dict] = []

        async def receive():
            if chunks:
                chunk = chunks.pop(0)
                return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        asyncio.run_coroutine_threadsafe(app(scope, receive, send), loop).result()
        start = next(m for m in sent if m["type"] == "http.response.start")
        content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return start["status"], content

    yield request
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def check_body(page, path: str, body: bytes, length: bool) -> None:
    method = "POST" if path in CHANGES else "GET"
    with hard_timeout():
        status, content = page(method, path, body, length)
    assert status in ANSWERED, (status, content[:300])
    answer = json.loads(content)
    if status != 200:
        assert "\n" not in answer["error"] and answer["error"].strip(), answer
    refused_by_gate = status in (400, 413) and answer["error"].endswith("; refused.")
    if refused_by_gate:
        event("refused by the gate (size or nesting)")
    else:
        event("reached the endpoint")
        tally("reached")
        if method == "POST" and status == 200:
            event("changed the game")
            tally("changed")


@pytest.mark.fuzz
@fuzz_settings()
@given(path=st.sampled_from(CHANGES + READS), body=bodies, length=st.booleans())
def test_fuzz_request_bodies(page, path, body, length):
    check_body(page, path, body, length)


@smoke_settings(examples=30)
@given(path=st.sampled_from(CHANGES + READS), body=bodies, length=st.booleans())
def test_smoke_request_bodies(page, path, body, length):
    check_body(page, path, body, length)
