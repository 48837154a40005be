"""results/workshop.png: the workshop's page of IQ Block 8, counted modulo its symmetries, with
a solution and the first page of solutions, as a browser shows it (Playwright, Chromium).
Made by `puzzlesat results` (runners/pictures/generate.py) where the extra `serve` and a
browser are installed."""

from __future__ import annotations

import re
import select
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from ..pictures import browser

PUZZLE = "iq-block-8"
WAIT_MS = 300_000  # a wait for the page, ended by it


def unavailable() -> str | None:
    """Why no screenshot of the workshop can be taken here (None when one can)."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return "the extra 'serve' is not installed (pip install 'puzzlesat[serve]')"
    return browser.unavailable()


def screenshot(target: Path) -> None:
    """Serve a scratch folder, open the puzzle's page, count, show the first page of solutions,
    and take the PNG."""
    with tempfile.TemporaryDirectory(prefix="puzzlesat-workshop-") as folder:
        served = subprocess.Popen(
            [sys.executable, "-m", "puzzlesat", "serve", "--port", "0", "--folder", folder],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([served.stdout], [], [], WAIT_MS / 1000)
            found = re.search(r"http://\S+/", served.stdout.readline() if ready else "")
            if not found:
                raise RuntimeError("puzzlesat serve printed no address")
            with browser.chromium() as context:
                tab = context.new_page()
                tab.set_default_timeout(WAIT_MS)
                tab.set_viewport_size({"width": 1100, "height": 900})
                tab.goto(found.group(0) + f"puzzle?puzzle={PUZZLE}")
                tab.wait_for_selector("#solution svg")
                tab.select_option("#modulo", "symmetry")
                tab.click("#count")
                tab.wait_for_selector("#number")
                tab.click("#next")
                tab.wait_for_selector("#solutions[data-page='1'] figure")
                tab.screenshot(path=str(target))
        finally:
            served.send_signal(signal.SIGINT)
            served.communicate(timeout=60)
