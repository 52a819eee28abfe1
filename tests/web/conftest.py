"""The browser tests: real headless Chromium (Debian's /usr/bin/chromium) driven
by Playwright. They run in the default suite; without the browser or the
package they are skipped, saying which is missing (.ci/run installs both)."""

import os
import re
import signal
import subprocess
import sys
import time
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

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "protopress", *args, "--port", "0"],
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
                return
            if not line or time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"no URL from protopress {args}: {self.output!r}")

    def kill(self) -> None:
        """SIGKILL: nothing in the server gets to tidy up."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process.stdout.close()


@pytest.fixture
def serve():
    servers = []

    def start(*args) -> Server:
        server = Server(*map(str, args))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.kill()
