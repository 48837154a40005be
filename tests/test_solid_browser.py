"""The 3D page in a real browser (Playwright driving the system's Chromium, as the play pages):
it renders with three.js inlined, no console error and no request, turns when dragged and shows
k pieces after k steps. Skipped with the reason when the browser or three.js is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlesat.pictures import browser, viewer
from puzzlesat.pictures.solid import Assembly, surface

REASON = browser.unavailable() or (
    None if viewer.three_folder() else f"three.js is not installed ({viewer.INSTALL})")
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"no 3D page: {REASON}")

# A 3x3x2 box cut by hand into four pieces.
SMALL = Assembly.of(
    {
        "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)],
        "I": [(0, 1, 0), (1, 1, 0), (0, 2, 0), (1, 2, 0), (2, 2, 0)],
        "O": [(0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1)],
        "S": [(2, 0, 1), (2, 1, 1), (2, 2, 1), (1, 2, 1), (0, 2, 1)],
    },
    (3, 3, 2),
)
# The same box cut otherwise: three flat pieces in the bottom layer, one on top.
OTHER = Assembly.of(
    {
        "L": [(0, 0, 1), (1, 0, 1), (2, 0, 1), (2, 1, 1)],
        "I": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0)],
        "O": [(2, 1, 0), (2, 2, 0), (1, 2, 0), (0, 2, 0)],
        "S": [(0, 1, 1), (1, 1, 1), (0, 2, 1), (1, 2, 1), (2, 2, 1)],
    },
    (3, 3, 2),
)
# Chromium's software WebGL reports read-backs (screenshots) as performance notes: not the page's.
DRIVER_NOTE = "GL Driver Message (OpenGL, Performance"


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("solid") / "small.html"
    path.write_text(viewer.solid_page([SMALL, OTHER], "a small box"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def context():
    try:
        with browser.chromium() as started:
            yield started
    except Exception as error:  # noqa: BLE001 - any launch failure is a reason to skip
        pytest.skip(f"Chromium did not start: {error}")


def open_page(context, path: Path):
    """A page opened from a file, with the problems it printed and the requests it made."""
    page = context.new_page()
    page.set_default_timeout(60000)  # a wait for the page, ended by it
    problems, requests = [], []
    page.on("console", lambda m: m.type in ("error", "warning")
            and DRIVER_NOTE not in m.text and problems.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.resolve().as_uri())
    page.wait_for_selector("body[data-ready=true]")
    return page, problems, requests


@pytest.fixture(scope="module")
def opened(context, page_file):
    return open_page(context, page_file)


@pytest.fixture
def context_page_factory(context, tmp_path):
    def make(text: str):
        path = tmp_path / "page.html"
        path.write_text(text, encoding="utf-8")
        page, problems, _ = open_page(context, path)
        return page, problems

    return make


def data(page, key: str) -> str:
    return page.evaluate(f"document.body.dataset.{key}")


def test_page_renders_offline_without_errors(opened, page_file):
    page, problems, requests = opened
    assert problems == []
    # the page itself, and the three modules it makes from its own text: nothing else
    assert requests[0] == page_file.resolve().as_uri()
    assert len(requests) == 4 and all(url.startswith("blob:") for url in requests[1:])
    assert int(data(page, "triangles")) == 2 * sum(
        len(surface(cells)) for _, cells in SMALL.pieces)
    assert data(page, "shown") == "4"


def test_dragging_turns_the_view(opened):
    page, problems, _ = opened
    before = data(page, "view")
    box = page.locator("#stage canvas").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 160, y + 40, steps=8)
    page.mouse.up()
    after = data(page, "view")
    assert after != before
    page.keyboard.press("v")
    assert data(page, "view") == before
    assert problems == []


def test_stepping_shows_k_pieces(opened):
    page, problems, _ = opened
    page.click("#none")
    assert data(page, "shown") == "0" and data(page, "triangles") == "0"
    order = viewer.assembly_order(SMALL)
    triangles = 0
    for k in range(1, 5):
        page.click("#next")
        triangles += 2 * len(surface(SMALL.pieces[order[k - 1]][1]))
        assert data(page, "shown") == str(k)
        assert int(data(page, "triangles")) == triangles
        assert page.locator("#legend span.placed").count() == k
    page.click("#next")  # no fifth piece
    assert data(page, "shown") == "4"
    page.keyboard.press("p")
    page.keyboard.press("ArrowLeft")
    assert data(page, "shown") == "2"
    page.keyboard.press("a")
    assert data(page, "shown") == "4"
    assert problems == []


def test_choosing_another_solution(opened):
    page, problems, _ = opened
    page.select_option("#solution", "1")
    assert data(page, "solution") == "2" and data(page, "shown") == "4"
    assert int(data(page, "triangles")) == 2 * sum(
        len(surface(cells)) for _, cells in OTHER.pieces)
    first = [OTHER.pieces[i][0] for i in viewer.assembly_order(OTHER)]
    assert page.locator("#legend span").all_inner_texts() == first
    page.keyboard.press("0")
    page.keyboard.press("n")
    assert data(page, "shown") == "1"
    assert page.inner_text("#shown").endswith(f"(last: {first[0]})")
    page.select_option("#solution", "0")
    assert data(page, "solution") == "1"
    assert problems == []


def test_a_challenge_starts_from_its_placed_pieces(context_page_factory):
    page, problems = context_page_factory(viewer.solid_page([SMALL], "a card", placed=["S"]))
    assert data(page, "shown") == "1"
    assert page.locator("#legend span").first.inner_text() == "S"  # placed first
    page.keyboard.press("p")  # a card's piece stays
    assert data(page, "shown") == "1"
    page.keyboard.press("n")
    assert data(page, "shown") == "2"
    page.click("#none")
    assert data(page, "shown") == "1" and page.inner_text("#none") == "The card (0)"
    assert problems == []
