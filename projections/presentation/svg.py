"""A tiny deterministic SVG writer: integer coordinates, fixed attribute order, escaped
text, no timestamps.  Every picture is one :class:`Canvas` turned into text.

Text is made :func:`~.printable.printable` before it is XML-escaped: XML cannot hold
most control characters, and a name holding one is shown escaped, as on a terminal."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr as xml_quoteattr

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import PNG_MAX_PIXELS

from .printable import printable

FONT = "DejaVu Sans, Verdana, sans-serif"
INK = "#222222"
MUTED = "#666666"
PAPER = "#ffffff"
RULE = "#bbbbbb"


def escape(text: str) -> str:
    return xml_escape(printable(text))


def quoteattr(text: str) -> str:
    return xml_quoteattr(printable(text))


def num(value: float) -> str:
    """Fixed formatting: integers as such, anything else with one decimal."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


def attrs(**kwargs) -> str:
    """Attributes in the order given; ``class_`` -> ``class``, ``_`` -> ``-``; None dropped."""
    parts = []
    for key, value in kwargs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        parts.append(f"{name}={quoteattr(text)}")
    return " ".join(parts)


@dataclass
class Canvas:
    width: int
    height: int
    items: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # checked before anything is drawn: a picture of a huge studio (an imported log)
        # would take minutes and gigabytes to draw and to turn into PNG
        if self.width * self.height > PNG_MAX_PIXELS:
            raise MalformedInput(
                f"the picture would be {self.width}x{self.height} pixels; a picture is at most {PNG_MAX_PIXELS} pixels"
            )

    def rect(self, x, y, w, h, fill, stroke=None, stroke_width=None, rx=None, **extra) -> None:
        self.items.append(
            f"<rect {attrs(x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke, stroke_width=stroke_width, **extra)}/>"
        )

    def line(self, x1, y1, x2, y2, stroke=RULE, stroke_width=1) -> None:
        self.items.append(f"<line {attrs(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=stroke_width)}/>")

    def circle(self, cx, cy, r, fill, stroke=None, stroke_width=None, **extra) -> None:
        self.items.append(
            f"<circle {attrs(cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, stroke_width=stroke_width, **extra)}/>"
        )

    def text(self, x, y, content, size=12, fill=INK, anchor="start", weight=None, **extra) -> None:
        self.items.append(
            f"<text {attrs(x=x, y=y, font_size=size, fill=fill, text_anchor=anchor, font_weight=weight, **extra)}>"
            f"{escape(str(content))}</text>"
        )

    def open_group(self, **extra) -> None:
        self.items.append(f"<g {attrs(**extra)}>")

    def close_group(self) -> None:
        self.items.append("</g>")

    def render(self, title: str) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" {attrs(width=self.width, height=self.height)} '
            f'viewBox="0 0 {num(self.width)} {num(self.height)}" font-family={quoteattr(FONT)}>'
        )
        body = [
            head,
            f"<title>{escape(title)}</title>",
            f"<rect {attrs(x=0, y=0, width=self.width, height=self.height, fill=PAPER)}/>",
        ]
        body += self.items
        body.append("</svg>")
        return "\n".join(body) + "\n"


def text_width(content: str, size: int = 12) -> int:
    """A deterministic estimate of a text's width (no font metrics needed)."""
    return int(len(str(content)) * size * 0.64) + 1
