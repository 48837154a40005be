"""Playable pages: one self-contained HTML file per puzzle that works offline from file://.

The page holds everything inline: the drawing (SVG made by the same code as the pictures), the
script (templates/*.js), the style and the data, including solutions listed for hints (the
first ones the fastest lister gives, within the pictures' time bound), and for Mind Lock the
God's-algorithm table (2 bits a position). A Content-Security-Policy of `default-src 'none'`
keeps the page from fetching anything.
"""

from __future__ import annotations

import html
import json
from importlib import resources

from .. import registry


def template(name: str) -> str:
    return (resources.files("puzzlesat.pictures") / "templates" / name).read_text("utf-8")


def html_page(family: str, title: str, rules: str, controls: str, svg: str, data: dict,
          script: str, help_text: str) -> str:
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    fields = {
        "title": html.escape(title), "family": family, "rules": html.escape(rules),
        "controls": controls, "svg": svg, "data": payload, "help": html.escape(help_text),
        "css": template("play.css"), "common": template("common.js") + template("words.js"),
        "script": template(script),
    }
    page = template("play.html")
    for key, value in fields.items():
        page = page.replace("{{" + key + "}}", value)
    return page


def buttons(*names: tuple[str, str]) -> str:
    return " ".join(f'<button id="{i}" type="button">{html.escape(label)}</button>'
                    for i, label in names)


def play_page(puzzle, level: int | None = None, say=None) -> str:
    """The page of any puzzle, made by its family's pictures module (`say`: what it does, where
    it lists solutions for hints)."""
    return registry.part(puzzle.kind, "pictures").page(puzzle, level, say=say)
