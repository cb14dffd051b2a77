"""A real headless Chromium (Debian's ``chromium``), driven by playwright, for the HTML pages ksafe
writes: the ``browser`` fixture (registered for every test by ``tests/conftest.py``) and
:func:`open_report`, which opens a page from disk and records every console message, request
and dialog. Pages are kept under ``artifacts/html-report/`` (not committed).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "html-report"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    return found


@dataclass
class Opened:
    page: Any
    url: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def visible(self, selector: str) -> int:
        return int(self.page.evaluate(
            "s => Array.from(document.querySelectorAll(s))"
            ".filter(e => e.getBoundingClientRect().width > 0).length",
            selector,
        ))

    def check_clean(self) -> None:
        assert self.errors == []
        assert self.requests == [self.url]  # the page itself, nothing else
        assert self.dialogs == []


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no Chromium found: install Debian's `chromium` (scripts/setup.sh does)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed: pip install -e '.[dev]'"
    )
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1400, "height": 1000},
            service_workers="block",
        )
        try:
            yield context
        finally:
            context.close()


def open_report(browser: Any, html: str, name: str) -> Opened:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page()
    opened = Opened(page, path.as_uri())
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: opened.errors.append(str(e)))
    page.on("request", lambda r: opened.requests.append(r.url))

    def on_dialog(dialog: Any) -> None:
        opened.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(opened.url, wait_until="load")
    page.wait_for_timeout(200)  # anything late (a handler, a lazy load) would show up here
    return opened
