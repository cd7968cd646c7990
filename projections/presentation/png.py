"""PNG pictures: an SVG turned into PNG bytes by cairosvg, a maintained renderer,
imported only when a PNG is asked for.  A picture larger than PNG_MAX_PIXELS, or wider
or higher than PNG_MAX_SIDE, is refused before rendering: cairo would take seconds and
gigabytes on it, or fail."""

from __future__ import annotations

import re

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import PNG_MAX_PIXELS, PNG_MAX_SIDE

# The size our SVG pictures give their root element (projections/presentation/svg.py).
_ROOT_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"\s+height="([0-9.]+)"')


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of ``svg``."""
    size = _ROOT_SIZE.search(svg)
    if size is None:
        raise MalformedInput("the picture does not state its size, so it cannot be drawn as PNG (write .svg)")
    width, height = (round(float(side) * scale) for side in size.groups())
    if width * height > PNG_MAX_PIXELS or max(width, height) > PNG_MAX_SIDE:
        raise MalformedInput(
            f"the picture would be {width}x{height} pixels, more than the limit of {PNG_MAX_PIXELS} pixels "
            f"and {PNG_MAX_SIDE} a side for a PNG (write .svg)"
        )
    try:
        import cairosvg
    except ImportError:  # pragma: no cover - depends on the installation
        raise MalformedInput("PNG output needs cairosvg: pip install cairosvg (or write .svg)") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
