"""A headless Chromium driven by Playwright: screenshots of pages and pictures, and the tests.

Playwright (the Python package, optional extra `browser`) drives the system's Chromium
(Debian's package `chromium`, /usr/bin/chromium, or $PUZZLESAT_CHROMIUM); Playwright's own
browser download is never used. Each launch gets a fresh, empty user-data folder and the flags
that keep Chromium off the network.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_FLAGS = (
    "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-quic",
)


def chromium_path() -> str | None:
    """The Chromium binary to drive, or None when there is none."""
    for candidate in (os.environ.get("PUZZLESAT_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def unavailable() -> str | None:
    """Why no browser can be driven here (None when one can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install 'puzzlesat[browser]')"
    if chromium_path() is None:
        return "no Chromium binary (apt-get install chromium, or set PUZZLESAT_CHROMIUM)"
    return None


@contextmanager
def chromium() -> Iterator[object]:
    """A persistent Chromium context (Playwright BrowserContext) in a fresh user-data folder."""
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="puzzlesat-chromium-")
    try:
        with sync_playwright() as driver:
            context = driver.chromium.launch_persistent_context(
                folder, executable_path=chromium_path(), headless=True,
                args=list(CHROMIUM_FLAGS), viewport={"width": 1100, "height": 760},
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def screenshot(files: list[tuple[Path, Path]], width: int = 1100, height: int = 760) -> None:
    """Screenshots (PNG) of local files: pairs (page or picture, PNG to write)."""
    with chromium() as context:
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        for source, target in files:
            if str(source).endswith(".svg"):  # Chromium hangs on screenshots of SVG documents
                picture = Path(source).read_text(encoding="utf-8")
                page.set_content(f'<body style="margin:0">{picture}</body>')
            else:
                page.goto(Path(source).resolve().as_uri())
            page.wait_for_timeout(150)
            page.screenshot(path=str(target), full_page=True)
