"""Tables read from a web address: a published spreadsheet's CSV or XLSX export.

Only http and https, for the address and for every redirect (never file: or
ftp:); a timeout on connecting and on each read, and an overall deadline that
every read keeps, the status line and headers included (a server dripping a
byte at a time, or answering `100 Continue` forever, is cut off); at most
MAX_CATALOG_BYTES, as for a local table; a body shorter than its
Content-Length, or a chunked body cut short, is a failed download, never a
table. What came back is taken for CSV
or XLSX by its content, not by the address or the server's word: a web page
(a sign-in page, a sheet that is not published) is said to be one. Every
failure is a FetchError with one line to show.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import io
import re
import socket
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urljoin, urlsplit

from protopress import __version__
from protopress.components.loader import MAX_CATALOG_BYTES
from protopress.components.problems import printable

URL_SCHEMES = ("http", "https")
FETCH_TIMEOUT = 30.0  # seconds without an answer, connecting or reading
FETCH_DEADLINE = 300.0  # seconds for the whole table
MAX_REDIRECTS = 5
_CHUNK = 64 * 1024
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_XLSX_MAGIC = b"PK\x03\x04"  # a zip archive, as every .xlsx is
_XLS_MAGIC = b"\xd0\xcf\x11\xe0"  # an old binary workbook (OLE)


class FetchError(Exception):
    """A table could not be fetched from its address; the message is one line."""


def is_url(text: str) -> bool:
    """Whether text is written as a web address (scheme://...) rather than a file name."""
    return bool(_ADDRESS.match(text))


@dataclass(frozen=True)
class FetchedTable:
    url: str
    data: bytes
    suffix: str  # ".csv" or ".xlsx", by content


def fetch_table(url: str) -> FetchedTable:
    """The table at url; FetchError when it cannot be fetched or is no table."""
    shown = printable(url)
    scheme = urlsplit(url).scheme.lower()
    if scheme not in URL_SCHEMES:
        raise FetchError(f"{shown}: only http and https addresses are read, not {scheme}:")
    deadline = time.monotonic() + FETCH_DEADLINE
    opener = urllib.request.build_opener(
        _Redirects, _DeadlineHttp(deadline), _DeadlineHttps(deadline)
    )
    request = urllib.request.Request(url, headers={"User-Agent": f"protopress/{__version__}"})
    try:
        with opener.open(request, timeout=FETCH_TIMEOUT) as response:
            data = _read_bounded(response, shown)
    except FetchError:
        raise
    except _PastDeadline:
        raise FetchError(f"{shown}: not downloaded within {FETCH_DEADLINE:g} s") from None
    except urllib.error.HTTPError as error:
        if "infinite loop" in str(error.reason):  # urllib gives up on a loop or a long chain
            raise FetchError(f"{shown}: more than {MAX_REDIRECTS} redirects") from None
        reason = printable(str(error.reason).splitlines()[0] if error.reason else "")
        raise FetchError(f"{shown}: the server answered {error.code} {reason}".rstrip()) from None
    except urllib.error.URLError as error:
        why = error.reason
        if isinstance(why, _PastDeadline):
            raise FetchError(f"{shown}: not downloaded within {FETCH_DEADLINE:g} s") from None
        if isinstance(why, TimeoutError | socket.timeout):
            raise FetchError(f"{shown}: no answer within {FETCH_TIMEOUT:g} s") from None
        raise FetchError(f"{shown}: cannot be reached ({printable(str(why))})") from None
    except TimeoutError:
        raise FetchError(f"{shown}: no answer within {FETCH_TIMEOUT:g} s") from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        what = printable(str(error)) or type(error).__name__
        raise FetchError(f"{shown}: the download failed ({what})") from None
    return FetchedTable(url, data, _suffix(data, shown))


def _read_bounded(response: http.client.HTTPResponse, shown: str) -> bytes:
    limit = MAX_CATALOG_BYTES
    too_large = f"{shown}: larger than {limit // (1024 * 1024)} MiB"
    length = response.headers.get("Content-Length")
    promised = int(length) if length and length.isdigit() else None
    if promised is not None and promised > limit:
        raise FetchError(too_large)
    parts, size = [], 0
    while chunk := response.read(_CHUNK):
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            raise FetchError(too_large)
    if promised is not None and size < promised:  # http.client ends a cut body quietly
        raise FetchError(
            f"{shown}: the download was cut short ({size} of {promised} bytes); nothing imported"
        )
    return b"".join(parts)


def _suffix(data: bytes, shown: str) -> str:
    if data.startswith(_XLSX_MAGIC):
        return ".xlsx"
    if data.startswith(_XLS_MAGIC):
        raise FetchError(f"{shown}: an old .xls workbook; export the sheet as .xlsx or CSV")
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html", b"<head", b"<?xml")) or b"<html" in head:
        raise FetchError(
            f"{shown}: the address gave a web page, not a table (publish the sheet to the web "
            "as CSV, and use that address)"
        )
    return ".csv"


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follows at most MAX_REDIRECTS redirects, each to an http or https address."""

    max_redirections = MAX_REDIRECTS

    def http_error_302(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
    ) -> http.client.HTTPResponse | None:
        target = headers.get("Location") or headers.get("URI") or ""
        scheme = urlsplit(urljoin(req.full_url, target)).scheme.lower()
        if scheme not in URL_SCHEMES:
            raise FetchError(
                f"{printable(req.full_url)}: redirected to a {printable(scheme)}: address; "
                "only http and https are followed"
            )
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


class _PastDeadline(TimeoutError):
    """The whole fetch's deadline passed during a read (headers or body)."""


class _DeadlineReader(io.RawIOBase):
    """A socket's reads, each waiting no longer than FETCH_TIMEOUT nor past the deadline.

    http.client reads the status line, the headers and the body through
    `sock.makefile("rb")`; the socket's own timeout restarts with every byte, so
    without this a server sending one byte at a time is never cut off. The raw
    file keeps the socket open after urllib closes its own reference, as
    makefile's does.
    """

    def __init__(self, sock: socket.socket, deadline: float):
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise _PastDeadline("past the deadline")
        self._sock.settimeout(min(FETCH_TIMEOUT, left))
        try:
            return self._raw.readinto(buffer)
        except TimeoutError:
            if time.monotonic() >= self._deadline:
                raise _PastDeadline("past the deadline") from None
            raise

    def close(self) -> None:
        self._raw.close()
        super().close()


class _DeadlineSocket:
    """What HTTPResponse needs of a socket (makefile), reading through _DeadlineReader."""

    def __init__(self, sock: socket.socket, deadline: float):
        self._sock = sock
        self._deadline = deadline

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))


class _DeadlineResponse(http.client.HTTPResponse):
    deadline = 0.0  # set on the per-fetch subclass

    def __init__(self, sock: Any, *args: Any, **kwargs: Any):
        super().__init__(_DeadlineSocket(sock, self.deadline), *args, **kwargs)  # type: ignore[arg-type]


def _response_class(deadline: float) -> type[http.client.HTTPResponse]:
    return type("_Response", (_DeadlineResponse,), {"deadline": deadline})


class _DeadlineOpen:
    """An http or https handler whose connections end every wait by the deadline."""

    def __init__(self, deadline: float):
        super().__init__()
        self._deadline = deadline

    def do_open(self, http_class: Any, req: urllib.request.Request, **kwargs: Any) -> Any:
        connection = functools.partial(_connection, http_class, self._deadline)
        return super().do_open(connection, req, **kwargs)  # type: ignore[misc]


class _DeadlineHttp(_DeadlineOpen, urllib.request.HTTPHandler):
    pass


class _DeadlineHttps(_DeadlineOpen, urllib.request.HTTPSHandler):
    pass


def _connection(
    kind: type[http.client.HTTPConnection], deadline: float, host: str, **kwargs: Any
) -> http.client.HTTPConnection:
    """A connection of kind whose connecting and every read end by the deadline."""
    left = max(deadline - time.monotonic(), 0.001)
    kwargs["timeout"] = min(kwargs.get("timeout") or FETCH_TIMEOUT, left)
    connection = kind(host, **kwargs)
    connection.response_class = _response_class(deadline)
    return connection


@contextlib.contextmanager
def fetched_table_file(url: str) -> Iterator[Path]:
    """The table at url as a file (.csv or .xlsx) for as long as the block runs."""
    fetched = fetch_table(url)
    with tempfile.TemporaryDirectory(prefix="protopress-table-") as folder:
        path = Path(folder) / f"table{fetched.suffix}"
        path.write_bytes(fetched.data)
        yield path
