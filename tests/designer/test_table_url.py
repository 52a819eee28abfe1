"""import from a web address, against a local HTTP server on 127.0.0.1 (no network):
http and https only (redirects too), a timeout, the size limit of local tables, the
content taken for CSV or XLSX by what it is, and one line and exit 1 on failure."""

import io
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import openpyxl
import pytest
from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import load_catalog
from protopress.designer import table_url
from protopress.designer.table_url import FetchError, fetch_table

CSV = b"id,title,count\nace,Ace,2\nking,King,1\n"


def _xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (("id", "title"), ("ace", "Ace")):
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


class _Handler(BaseHTTPRequestHandler):
    routes: dict = {}

    def do_GET(self):  # noqa: N802 (the standard library's name)
        route = self.routes.get(self.path.split("?")[0])
        if route is None:
            self.send_error(404, "Not Found")
            return
        status, headers, body = route() if callable(route) else route
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _slow():
    time.sleep(2)
    return 200, {}, CSV


@pytest.fixture(scope="module")
def server():
    _Handler.routes = {
        "/export": (200, {"Content-Type": "text/csv"}, CSV),
        "/book": (200, {"Content-Type": "application/octet-stream"}, _xlsx()),
        "/page": (200, {"Content-Type": "text/html"}, b"<!DOCTYPE html><html>Sign in</html>"),
        "/moved": (302, {"Location": "/export?format=csv"}, b""),
        "/to-file": (302, {"Location": "file:///etc/passwd"}, b""),
        "/to-ftp": (301, {"Location": "ftp://127.0.0.1/cards.csv"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/broken": (500, {}, b"oops"),
        "/slow": _slow,
        "/bad-cell": (200, {}, b"id,title,count\nace,Ace,two\n"),
    }
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _import(url, target, *more):
    return CliRunner().invoke(cli, ["import", url, "--kind", "card", "-o", str(target), *more])


def test_a_published_csv_export_is_imported(server, tmp_path):
    target = tmp_path / "cat.json"
    result = _import(f"{server}/export?format=csv", target)
    assert result.exit_code == 0, result.output
    cards = load_catalog(target).of_kind("card")
    assert [(c.id, c["title"], c.count) for c in cards] == [("ace", "Ace", 2), ("king", "King", 1)]


def test_xlsx_is_known_by_its_content_not_its_address(server):
    assert fetch_table(f"{server}/book").suffix == ".xlsx"
    assert fetch_table(f"{server}/export").suffix == ".csv"


def test_an_xlsx_address_imports(server, tmp_path):
    result = _import(f"{server}/book", tmp_path / "cat.json")
    assert result.exit_code == 0, result.output
    assert [c.id for c in load_catalog(tmp_path / "cat.json").of_kind("card")] == ["ace"]


def test_http_redirects_are_followed(server, tmp_path):
    result = _import(f"{server}/moved", tmp_path / "cat.json")
    assert result.exit_code == 0, result.output


def test_a_bad_cell_is_located_at_the_address_and_cell(server, tmp_path):
    result = _import(f"{server}/bad-cell", tmp_path / "cat.json")
    assert result.exit_code == 1
    assert result.output.startswith(f"{server}/bad-cell!C2: expected an integer, found 'two'")
    assert not (tmp_path / "cat.json").exists()


@pytest.mark.parametrize(
    ("path", "message"),
    [("/page", "the address gave a web page, not a table"),
     ("/nowhere", "the server answered 404 Not Found"),
     ("/broken", "the server answered 500 Internal Server Error"),
     ("/to-file", "redirected to a file: address; only http and https are followed"),
     ("/to-ftp", "redirected to a ftp: address; only http and https are followed"),
     ("/loop", "/loop: more than 5 redirects")],
)  # fmt: skip
def test_failures_are_one_line_and_exit_1(server, tmp_path, path, message):
    result = _import(f"{server}{path}", tmp_path / "cat.json")
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("protopress: http://127.0.0.1:")
    assert message in lines[0]
    assert not (tmp_path / "cat.json").exists()


def test_a_server_that_does_not_answer_times_out(server, tmp_path, monkeypatch):
    monkeypatch.setattr(table_url, "FETCH_TIMEOUT", 0.2)
    with pytest.raises(FetchError, match=r"/slow: no answer within 0.2 s"):
        fetch_table(f"{server}/slow")


def test_nothing_listening_is_a_one_line_error(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = _import(f"http://127.0.0.1:{port}/cards.csv", tmp_path / "cat.json")
    assert result.exit_code == 1
    assert "cannot be reached" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_size_limit_is_that_of_local_tables(server, monkeypatch):
    monkeypatch.setattr(table_url, "MAX_CATALOG_BYTES", 10)
    with pytest.raises(FetchError, match=r"/export: larger than 0 MiB"):
        fetch_table(f"{server}/export")


def test_the_size_limit_holds_without_a_content_length(monkeypatch):
    class Endless:
        headers: dict = {}

        def read(self, size):
            return b"x" * size

    monkeypatch.setattr(table_url, "MAX_CATALOG_BYTES", 1024 * 1024)
    with pytest.raises(FetchError, match="larger than 1 MiB"):
        table_url._read_bounded(Endless(), "http://x")


@pytest.mark.parametrize("address", ["file:///etc/passwd", "ftp://127.0.0.1/c.csv"])
def test_other_schemes_are_a_usage_error(tmp_path, address):
    result = _import(address, tmp_path / "cat.json")
    assert result.exit_code == 2
    assert "only http and https addresses are read" in result.output


class _Drip(threading.Thread):
    """A server on 127.0.0.1 that answers every connection with `reply` one byte at a
    time, a byte every `gap` seconds, for at most `limit` seconds (it stops by itself)."""

    def __init__(self, reply: bytes, gap: float = 0.05, limit: float = 10.0):
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.reply, self.gap, self.limit = reply, gap, limit

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/cards.csv"

    def run(self) -> None:
        started = time.monotonic()
        with self.listener:
            connection, _ = self.listener.accept()
            with connection:
                request = b""
                while b"\r\n\r\n" not in request:  # read the request: closing unread is a reset
                    request += connection.recv(4096) or b"\r\n\r\n"
                for byte in self.reply:
                    if time.monotonic() - started > self.limit:
                        return
                    try:
                        connection.sendall(bytes([byte]))
                    except OSError:
                        return
                    time.sleep(self.gap)


@pytest.mark.parametrize(
    "reply",
    [
        b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 5000 + b"\r\n\r\n",  # headers dripped
        b"HTTP/1.1 100 Continue\r\n\r\n" * 2000,  # '100 Continue' without end
    ],
    ids=["dripped-headers", "endless-continue"],
)
def test_the_deadline_holds_while_the_status_line_and_headers_arrive(monkeypatch, reply):
    monkeypatch.setattr(table_url, "FETCH_DEADLINE", 0.5)
    drip = _Drip(reply)
    drip.start()
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"cards.csv: not downloaded within 0.5 s"):
        fetch_table(drip.url)
    assert time.monotonic() - started < drip.limit  # cut off, not served to the end
    drip.join(drip.limit + 1)


def _cut_short(body: bytes, promised: int) -> bytes:
    return (
        f"HTTP/1.1 200 OK\r\nContent-Length: {promised}\r\nConnection: close\r\n\r\n".encode()
        + body
    )


def test_a_body_shorter_than_its_content_length_is_no_table(tmp_path):
    rows = b"id,title,count\n" + b"".join(b"c%d,Card %d,1\n" % (i, i) for i in range(1000))
    drip = _Drip(_cut_short(rows[: len(rows) // 2], len(rows)), gap=0)
    drip.start()
    result = _import(drip.url, tmp_path / "cat.json")
    drip.join(5)
    assert result.exit_code == 1, result.output
    assert f"the download was cut short ({len(rows) // 2} of {len(rows)} bytes)" in result.output
    assert not (tmp_path / "cat.json").exists()


def test_a_chunked_body_cut_short_is_no_table(tmp_path):
    reply = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + b"f\r\nid,title,count\n\r\n"
        + b"40\r\nace,Ace,2\n"  # a chunk of 64 bytes announced, 10 sent, then the end
    )
    drip = _Drip(reply, gap=0)
    drip.start()
    result = _import(drip.url, tmp_path / "cat.json")
    drip.join(5)
    assert result.exit_code == 1, result.output
    assert "the download failed" in result.output
    assert not (tmp_path / "cat.json").exists()
