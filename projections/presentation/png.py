"""PNG pictures: an SVG turned into PNG bytes by cairosvg, a maintained renderer,
imported only when a PNG is asked for."""

from __future__ import annotations

from matchledger.ledger.errors import MalformedInput


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of ``svg``."""
    try:
        import cairosvg
    except ImportError:  # pragma: no cover - depends on the installation
        raise MalformedInput("PNG output needs cairosvg: pip install cairosvg (or write .svg)") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
