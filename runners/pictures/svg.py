"""Drawing primitives shared by every picture: an SVG document built with ElementTree, colours.

Every drawing of the package is an `Svg` (a root element with a view box) to which shapes are
added; `to_string` gives standalone SVG text (XML, parsed back by the tests). Cells carry the
class `cell` (one shape per cell) so pages and tests can find them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

from ..models.errors import InputError
from ..output import write_text_atomic

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)

# Well-separated colours (Kelly's 22 colours of maximum contrast, white and black left out).
PALETTE = (
    "#f3c300", "#875692", "#f38400", "#a1caf1", "#be0032", "#c2b280", "#848482", "#008856",
    "#e68fac", "#0067a5", "#f99379", "#604e97", "#f6a600", "#b3446c", "#dcd300", "#882d17",
    "#8db600", "#654522", "#e25822", "#2b3d26",
)

# Edge colours named in puzzle files, drawn as these.
NAMED_COLOURS = {
    "red": "#d62728", "green": "#2ca02c", "blue": "#1f77b4", "yellow": "#f2c80f",
    "purple": "#8e44ad", "orange": "#ff7f0e", "pink": "#e377c2", "brown": "#8c564b",
    "grey": "#9a9a9a", "gray": "#9a9a9a", "black": "#333333", "white": "#f4f4f4",
    "cyan": "#17becf", "teal": "#0b8f8f", "magenta": "#c2187a", "navy": "#22337a",
}


def palette(index: int) -> str:
    """The index-th colour of the palette (it repeats after 20)."""
    return PALETTE[index % len(PALETTE)]


def lighter(colour: str, amount: float = 0.55) -> str:
    """A `#rrggbb` colour mixed with white (amount 0: unchanged, 1: white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mix)


def darker(colour: str, amount: float = 0.3) -> str:
    """A `#rrggbb` colour mixed with black (amount 0: unchanged, 1: black): a shaded side."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(v * (1 - amount)):02x}" for v in (r, g, b))


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on the fill."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _attributes(attributes: dict[str, object]) -> dict[str, str]:
    out = {}
    for key, value in attributes.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        out[name] = _number(value) if isinstance(value, float) else str(value)
    return out


class Svg:
    """An SVG drawing of a given size; shapes are added to the root or to a group."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width, self.height = width, height
        self.root = ET.Element(
            f"{{{SVG_NS}}}svg",
            _attributes(
                {
                    "width": float(width),
                    "height": float(height),
                    "viewBox": f"0 0 {_number(width)} {_number(height)}",
                    "font_family": "DejaVu Sans, Arial, sans-serif",
                }
            ),
        )
        if title:
            ET.SubElement(self.root, f"{{{SVG_NS}}}title").text = title

    def add(self, tag: str, parent: ET.Element | None = None, **attributes: object) -> ET.Element:
        """A new element (`rect`, `polygon`, `g`...) under the parent (default: the root)."""
        return ET.SubElement(
            self.root if parent is None else parent, f"{{{SVG_NS}}}{tag}", _attributes(attributes)
        )

    def group(self, parent: ET.Element | None = None, **attributes: object) -> ET.Element:
        return self.add("g", parent, **attributes)

    def rect(self, x: float, y: float, w: float, h: float, parent=None, **attributes) -> ET.Element:
        return self.add("rect", parent, x=float(x), y=float(y), width=float(w), height=float(h),
                        **attributes)

    def polygon(self, points: Iterable[tuple[float, float]], parent=None, **attributes):
        text = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
        return self.add("polygon", parent, points=text, **attributes)

    def line(self, x1: float, y1: float, x2: float, y2: float, parent=None, **attributes):
        return self.add("line", parent, x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2),
                        **attributes)

    def circle(self, x: float, y: float, r: float, parent=None, **attributes) -> ET.Element:
        return self.add("circle", parent, cx=float(x), cy=float(y), r=float(r), **attributes)

    def text(self, x: float, y: float, words: str, parent=None, size: float = 12,
             **attributes) -> ET.Element:
        element = self.add("text", parent, x=float(x), y=float(y), font_size=float(size),
                           text_anchor=attributes.pop("anchor", "middle"),
                           dominant_baseline="central", **attributes)
        element.text = words
        return element

    def to_string(self) -> str:
        """The drawing as a standalone SVG document."""
        return ET.tostring(self.root, encoding="unicode", xml_declaration=False) + "\n"

    def inline(self) -> str:
        """The drawing as an `<svg>` element to put inside an HTML page."""
        return ET.tostring(self.root, encoding="unicode")


def diamond(svg: Svg, cx: float, cy: float, half: float, parent=None, **attributes) -> ET.Element:
    """A diamond (a square standing on a corner) centred at (cx, cy)."""
    points = [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)]
    return svg.polygon(points, parent, **attributes)


def side_triangles(x: float, y: float, size: float) -> list[list[tuple[float, float]]]:
    """The four triangles (top, right, bottom, left) from a square's sides to its centre."""
    cx, cy = x + size / 2, y + size / 2
    corners = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
    return [[corners[i], corners[(i + 1) % 4], (cx, cy)] for i in range(4)]


PICTURE_SUFFIXES = (".svg", ".png")


def check_path(path: str, what: str = "output") -> None:
    """Before any work: InputError (one line) for a picture file this program cannot write: a
    name not ending in .svg or .png, or .png without its renderer (cairosvg, the `plots`
    extra)."""
    suffix = Path(str(path)).suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise InputError(f"cannot write a {suffix or 'suffix-less'} picture: give a file name "
                         "ending in .svg or .png", file=str(path), field=what)
    if suffix == ".png":
        _cairosvg(what)


def _cairosvg(what: str):
    try:
        import cairosvg  # optional extra 'plots'; OSError: the cairo library is missing
    except (ImportError, OSError) as error:
        raise InputError(
            "PNG output needs the optional package cairosvg (pip install 'puzzlesat[plots]'); "
            "write .svg instead", field=what,
        ) from error
    return cairosvg


def write(svg: Svg, path: str, what: str = "path") -> str:
    """Write a drawing as .svg, or as .png through a well-kept renderer (cairosvg), atomically
    (output.write_text_atomic); returns its note on how it was written."""
    check_path(path, what)
    if str(path).lower().endswith(".png"):
        data: str | bytes = _cairosvg(what).svg2png(bytestring=svg.to_string().encode())
    else:
        data = svg.to_string()
    return write_text_atomic(path, data, what)
