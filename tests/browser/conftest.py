"""Browser tests: Playwright (Python) driving Debian's chromium against a real server subprocess."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = os.environ.get("FARMTABLE_SCREENSHOTS", "")
"""A folder to save each game's page in (the docs' screenshots); empty: no screenshots."""

if not Path(CHROMIUM).exists():
    pytest.skip(
        f"the browser tests need Debian's chromium at {CHROMIUM} (apt install chromium)", allow_module_level=True
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the 'browser-tests' extra")
pytest.importorskip("fastapi", reason="the browser tests need the 'web' extra")

from tests.browser.helpers import FAST  # noqa: E402
from tests.server.live import LiveServer  # noqa: E402


class Unpaced:
    """The browser, whose new contexts show others' decisions without the pause people get between
    them (``farmtable:pace`` 0: robots do not watch); ``paced_context`` keeps the pause."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        """A context whose pages show updates as fast as they come."""
        context = self.browser.new_context(**options)
        context.add_init_script(FAST)
        return context

    def paced_context(self, **options: Any) -> Any:
        """A context as people have it: others' decisions one at a time."""
        return self.browser.new_context(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One headless chromium for the browser tests; closed after them, since Playwright's sync API keeps
    an event loop running in the main thread while it is open (later tests call ``asyncio.run``)."""
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield Unpaced(chromium)
        chromium.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server (uvicorn subprocess) on a SQLite file, AI seats moving without delay."""
    db = tmp_path_factory.mktemp("browser") / "browser.db"
    # the default limits, but a robot clicks and opens tables faster than people do
    live = LiveServer(f"sqlite:///{db}", args=["--tables-per-minute", "200", "--messages-per-second", "50"])
    live.start()
    yield live
    live.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context and page (phone-sized screens get their own test)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def shoot(page: Any, name: str) -> None:
    """Save a screenshot of the page as ``<FARMTABLE_SCREENSHOTS>/<name>.png`` when asked to."""
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)
