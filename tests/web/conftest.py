"""The browser tests: real headless Chromium (Debian's /usr/bin/chromium) driven
by Playwright. They run in the default suite; without the browser or the
package they are skipped, saying which is missing (.ci/run installs both)."""

import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("PROTOPRESS_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
URL = re.compile(rb"(http://\S+\?token=(\S+))")
MINI = Path(__file__).parents[1] / "data" / "mini-game"
STARTUP = 30  # seconds for a server to print its URL: only reached when something hangs


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "browser: drives the pages in headless Chromium (skipped without "
        f"{CHROMIUM} or the playwright package)",
    )


def _missing() -> str | None:
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    return None


@pytest.fixture(scope="session")
def browser():
    missing = _missing()
    if missing:
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    """A page on a phone-sized viewport; JavaScript errors fail the test."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)  # ms: only reached when something is wrong
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


class Server:
    """A protopress page server in its own process, on a free port."""

    def __init__(self, *args: str, port: int = 0):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "protopress", *args, "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.output = b""
        deadline = time.monotonic() + STARTUP
        while True:
            line = self.process.stdout.readline()
            self.output += line
            found = URL.search(line)
            if found:
                self.url, self.token = (g.decode() for g in found.groups())
                self.base = self.url.split("/?")[0]
                self.port = int(self.base.rsplit(":", 1)[1])
                return
            if not line or time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"no URL from protopress {args}: {self.output!r}")

    def read_until(self, text: bytes) -> bytes:
        """The output so far, read on until text is in it (or the output ends)."""
        while text not in self.output:
            line = self.process.stdout.readline()
            if not line:
                break
            self.output += line
        return self.output

    def visitor(self) -> urllib.request.OpenerDirector:
        """A client that opened the printed address once: it holds the session cookie
        and sends the page's Origin, as the page's own requests do."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.addheaders = [("Origin", self.base)]
        opener.open(self.url).close()
        return opener

    def kill(self) -> None:
        """SIGKILL: nothing in the server gets to tidy up; its output is kept."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        if not self.process.stdout.closed:
            self.output += self.process.stdout.read()
            self.process.stdout.close()


@pytest.fixture
def serve():
    servers = []

    def start(*args, port: int = 0) -> Server:
        server = Server(*map(str, args), port=port)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.kill()


@pytest.fixture
def game(tmp_path):
    """The mini game copied to a folder of the test's own, its catalog without `$schema`
    (the preview tests edit it)."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    catalog = folder / "catalog.json"
    document = json.loads(catalog.read_text())
    document.pop("$schema", None)
    catalog.write_text(json.dumps(document, indent=2))
    return folder
