"""The 3D page: one self-contained HTML file showing a solution in 3D, turned by dragging, built
up piece by piece (next, previous, all), with three.js inlined.

three.js (MIT, its licence header kept) comes from the npm registry, as a user installs it:
`npm install --no-save three@THREE_VERSION` in the folder where pages are written or in the
project's source folder; $PUZZLESAT_THREE may name the `three` package folder. Its
module build (build/three.core.js, build/three.module.js) and the orbit controls of its examples
(examples/jsm/controls/OrbitControls.js) are put in the page as text; the page turns them into
modules through blob: URLs, so it fetches nothing (a Content-Security-Policy allows inline and
blob: scripts only).
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from ..models.errors import InputError
from ..models.words import plural
from .play import template
from .solid import Assembly, box_name

THREE_FILES = {
    "core": "build/three.core.js",
    "module": "build/three.module.js",
    "controls": "examples/jsm/controls/OrbitControls.js",
}
# The module specifiers the files import each other by, replaced in the page by blob: URLs.
IMPORTS = {"module": "'./three.core.js'", "controls": "'three'"}
PLACEHOLDERS = {"module": "'@three-core@'", "controls": "'@three-module@'"}
THREE_VERSION = "0.187.0"  # the release the pages were tested with (tests/test_solid_browser.py)
# Where `npm install --prefix` puts three.js for every folder: the user's data folder.
DATA_FOLDER = "puzzlesat"
INSTALL = (f"npm install --prefix ~/.local/share/puzzlesat --no-save --no-audit --no-fund "
           f"three@{THREE_VERSION} (found from any folder), or the same without --prefix in the "
           "folder where you run puzzlesat, or set PUZZLESAT_THREE to the folder of the three "
           "package")


def data_folder() -> Path:
    """puzzlesat's folder in the user's data folder ($XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / DATA_FOLDER


def three_folder() -> Path | None:
    """The folder of the npm package `three` to inline: $PUZZLESAT_THREE, else node_modules/three
    in the current folder or a folder above it, in puzzlesat's data folder (where the set-up's
    `npm install --prefix` puts it), or beside puzzlesat's source (a checkout where `npm
    install` was run)."""
    given = os.environ.get("PUZZLESAT_THREE")
    if given:
        return Path(given)
    here = Path.cwd().resolve()
    source = Path(__file__).resolve().parents[2]
    for folder in (here, *here.parents, data_folder(), source):
        candidate = folder / "node_modules" / "three"
        if (candidate / "package.json").is_file():
            return candidate
    return None


def three_library() -> dict[str, str]:
    """The three.js sources the page inlines (import specifiers made placeholders), its version
    and licence; InputError saying how to install it when it is missing."""
    folder = three_folder()
    if folder is None:
        raise InputError(f"the 3D page inlines three.js, which is not installed: {INSTALL}",
                         field="PUZZLE")
    try:
        version = json.loads((folder / "package.json").read_text("utf-8"))["version"]
        texts = {key: (folder / path).read_text("utf-8") for key, path in THREE_FILES.items()}
        licence = (folder / "LICENSE").read_text("utf-8")
    except (OSError, ValueError, KeyError) as error:
        raise InputError(f"cannot read three.js in {folder}: {error}; {INSTALL}",
                         field="PUZZLE") from None
    for key, specifier in IMPORTS.items():
        if specifier not in texts[key]:
            raise InputError(f"three.js {version} in {folder} is laid out differently from the "
                             f"{THREE_FILES[key]} this page expects", field="PUZZLE")
        texts[key] = texts[key].replace(specifier, PLACEHOLDERS[key])
    return {**texts, "version": version, "licence": licence}


def assembly_order(assembly: Assembly, first: Collection[str] = ()) -> list[int]:
    """The order pieces are put in the box, bottom up: by lowest layer, then by the mean layer
    (flat pieces first), then the puzzle's order; the pieces named in `first` (a challenge's
    pre-placed pieces) before the others."""
    def key(index: int) -> tuple[bool, float, float, int]:
        name, cells = assembly.pieces[index]
        return (name not in first, min(z for _, _, z in cells),
                sum(z for _, _, z in cells) / len(cells), index)

    return sorted(range(len(assembly.pieces)), key=key)


def _script_text(text: str) -> str:
    """Text safe inside a <script> element (no '</script' can close it early)."""
    return text.replace("</", "<\\/")


def _solution_data(assembly: Assembly, placed: Collection[str]) -> dict[str, object]:
    return {
        "order": assembly_order(assembly, placed),
        "pieces": [
            {"name": name, "colour": assembly.colour(index), **assembly.drawn(cells)}
            for index, (name, cells) in enumerate(assembly.pieces)
        ],
    }


def solid_page(assemblies: Sequence[Assembly], title: str, rules: str = "",
               captions: Sequence[str] = (), placed: Collection[str] = ()) -> str:
    """The page of assembled solutions (one box size): turn one by dragging, step through its
    assembly, choose another in a list where there are several. A challenge's pre-placed pieces
    (`placed`, by name) go in first and stay: the page starts with them in the box."""
    if not assemblies:
        raise InputError("there is no solution to show", field="PUZZLE")
    library = three_library()
    first = assemblies[0]
    captions = list(captions) or [f"solution {i}" for i in range(1, len(assemblies) + 1)]
    data = {"size": list(first.size), "captions": captions,
            "solutions": [_solution_data(a, placed) for a in assemblies],
            "placed": len(placed)}
    rules = rules or (f"{plural(len(first.pieces), 'piece')} fill the {box_name(first.size)} box. "
                      "Drag to turn it, scroll to zoom; Next puts the next piece in, bottom up.")
    choose = ""
    if len(assemblies) > 1:
        options = "".join(f'<option value="{i}">{html.escape(c)}</option>'
                          for i, c in enumerate(captions))
        choose = f'<select id="solution" aria-label="solution">{options}</select>'
    fields = {
        "title": html.escape(title), "rules": html.escape(rules), "choose": choose,
        "start": "The card (0)" if placed else "Empty box (0)",
        "css": template("play.css"), "data": _script_text(json.dumps(data, separators=(",", ":"))),
        "three_version": html.escape(library["version"]),
        "three_licence": html.escape(library["licence"].strip()),
        "three_core": _script_text(library["core"]),
        "three_module": _script_text(library["module"]),
        "three_controls": _script_text(library["controls"]),
        "script": template("solid.js"),
    }
    page = template("solid.html")
    for key, value in fields.items():
        page = page.replace("{{" + key + "}}", value)
    return page
