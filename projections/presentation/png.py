"""PNG pictures: an SVG turned into PNG bytes by cairosvg, a maintained renderer,
imported only when a PNG is asked for.

cairosvg draws through the system library libcairo.  Where it is missing, asking for a
PNG is one clear error (:class:`Unavailable`: what is missing, how to install it, or
write .svg), never an internal one; :func:`png_unavailable` says so without raising,
for the tests that skip.

cairosvg draws each text with one font, the first of the picture's font families
(DejaVu Sans), and a character that font has no glyph for would be drawn as a box.
Such characters (CJK names, for one) are drawn as their escapes (``\\u674e``), as a
terminal shows what it cannot print; the SVG keeps them, and a browser draws them from
whatever font has them.

A picture larger than PNG_MAX_PIXELS, or wider or higher than PNG_MAX_SIDE, is refused
before rendering: cairo would take seconds and gigabytes on it, or fail."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from matchledger.ledger.errors import MalformedInput, Unavailable
from matchledger.ledger.limits import PNG_MAX_PIXELS, PNG_MAX_SIDE

from .printable import escaped_character
from .svg import FONT

# The size our SVG pictures give their root element (projections/presentation/svg.py).
_ROOT_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"\s+height="([0-9.]+)"')

#: The one font cairosvg draws our pictures' text with: the first of their families.
PNG_FONT = FONT.split(",")[0].strip()

MISSING_CAIRO = (
    "PNG output needs the system library libcairo, which is not installed here ({reason}); "
    "install it (Debian/Ubuntu: apt-get install libcairo2; macOS: brew install cairo) or write .svg instead"
)
MISSING_CAIROSVG = "PNG output needs the Python package cairosvg: pip install cairosvg (or write .svg instead)"


@dataclass(frozen=True)
class PngPicture:
    data: bytes
    #: The characters drawn as escapes, as the font has no glyph for them (in order of appearance).
    escaped: tuple[str, ...] = ()


def _svg2png() -> Callable[..., bytes]:
    """cairosvg's renderer, or :class:`Unavailable` naming what is missing."""
    try:
        import cairosvg
    except ImportError:
        raise Unavailable(MISSING_CAIROSVG) from None
    except OSError as exc:  # cairocffi found no libcairo to load
        reason = str(exc).splitlines()[0] if str(exc) else "it cannot be loaded"
        raise Unavailable(MISSING_CAIRO.format(reason=reason)) from None
    return cairosvg.svg2png


def png_unavailable() -> str | None:
    """Why PNG pictures cannot be drawn here (one line), or None when they can."""
    try:
        _svg2png()
    except Unavailable as exc:
        return str(exc)
    return None


def missing_glyphs(text: str, family: str = PNG_FONT) -> tuple[str, ...]:
    """The characters of ``text`` that ``family``, as cairo finds it here, has no glyph
    for (each once, in order of appearance; ASCII is taken as covered)."""
    _svg2png()
    import cairocffi

    wanted = list(dict.fromkeys(ch for ch in text if not ch.isascii()))
    if not wanted:
        return ()
    context = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1))
    context.select_font_face(family)
    font = context.get_scaled_font()
    # glyph 0 is the font's "missing glyph" box
    return tuple(ch for ch in wanted if any(glyph[0] == 0 for glyph in font.text_to_glyphs(0, 0, ch, False)))


def render_png(svg: str, scale: float = 1.0) -> PngPicture:
    """The PNG of ``svg``, with the characters its font lacks drawn as escapes."""
    size = _ROOT_SIZE.search(svg)
    if size is None:
        raise MalformedInput("the picture does not state its size, so it cannot be drawn as PNG (write .svg)")
    width, height = (round(float(side) * scale) for side in size.groups())
    if width * height > PNG_MAX_PIXELS or max(width, height) > PNG_MAX_SIDE:
        raise MalformedInput(
            f"the picture would be {width}x{height} pixels, more than the limit of {PNG_MAX_PIXELS} pixels "
            f"and {PNG_MAX_SIDE} a side for a PNG (write .svg)"
        )
    svg2png = _svg2png()
    escaped = missing_glyphs(svg)
    for ch in escaped:
        # an escape is ASCII and holds no XML markup, so it can stand wherever the character stood
        svg = svg.replace(ch, escaped_character(ch))
    return PngPicture(svg2png(bytestring=svg.encode("utf-8"), scale=scale), escaped)


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of ``svg``."""
    return render_png(svg, scale).data
