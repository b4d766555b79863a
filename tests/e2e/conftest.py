"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make are
    # fine. Set only while the browser tests run, so no other test's subprocess inherits it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed: run `bash scripts/system-deps.sh --browser`")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, live_server):
    """A page in a fresh browser context. Every Content-Security-Policy violation the browser reports
    fails the test (make.csp_violations; a test that provokes one on purpose empties the list)."""
    contexts = []
    violations: list[str] = []

    def make(width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server.url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                violations.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )
        return page

    make.csp_violations = violations
    yield make
    for context in contexts:
        context.close()
    assert violations == [], "the browser reported Content-Security-Policy violations"


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take


# -- the live table (tests/e2e/test_live.py, test_live_pages.py): the demo, served by uvicorn ------
@pytest.fixture
def demo(transactional_db):
    import io

    from django.core.management import call_command

    call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture
def asgi_url(transactional_db):
    """uvicorn serving config.asgi in a thread of this process (so on the test database)."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config("config.asgi:application", host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(15)


@pytest.fixture
def table(browser, asgi_url):
    """Open a page logged in as a user, each in a browser context of its own, on the ASGI server."""
    from tests.e2e.test_every_page import log_in

    contexts = []

    def open_as(username: str):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=asgi_url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        log_in(page, username)
        return page

    yield open_as
    for context in contexts:
        context.close()
