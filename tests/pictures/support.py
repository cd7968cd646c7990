"""Helpers for the picture tests: a tiny PNG reader (8-bit RGBA/RGB, non-interlaced,
what cairosvg writes) and SVG probing."""

from __future__ import annotations

import re
import struct
import zlib


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


class Png:
    """Decoded pixels of a PNG: ``png.pixel(x, y) -> (r, g, b, a)``."""

    def __init__(self, data: bytes):
        self.width, self.height = png_size(data)
        pos, idat = 8, b""
        depth = colour_type = interlace = None
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos : pos + 4])
            kind = data[pos + 4 : pos + 8]
            body = data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                depth, colour_type, _compression, _filter, interlace = body[8:13]
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        assert depth == 8 and colour_type in (2, 6) and interlace == 0, (depth, colour_type, interlace)
        self.bpp = 4 if colour_type == 6 else 3
        self.raw = zlib.decompress(idat)
        self.rows: list[bytearray] = []  # decoded lazily, top down, as far as probed

    def _decode_to(self, y: int) -> None:
        stride = self.width * self.bpp
        bpp = self.bpp
        while len(self.rows) <= y:
            n = len(self.rows)
            prev = self.rows[-1] if self.rows else bytearray(stride)
            start = n * (stride + 1)
            kind, line = self.raw[start], bytearray(self.raw[start + 1 : start + 1 + stride])
            if kind == 2:
                line = bytearray((x + p) & 0xFF for x, p in zip(line, prev))
            elif kind:
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b = prev[i]
                    c = prev[i - bpp] if i >= bpp else 0
                    if kind == 1:
                        line[i] = (line[i] + a) & 0xFF
                    elif kind == 3:
                        line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
                    elif kind == 4:
                        line[i] = (line[i] + _paeth(a, b, c)) & 0xFF
            self.rows.append(line)

    def pixel(self, x: int, y: int) -> tuple[int, ...]:
        assert 0 <= x < self.width and 0 <= y < self.height, (x, y)
        self._decode_to(y)
        px = tuple(self.rows[y][x * self.bpp : (x + 1) * self.bpp])
        return px if self.bpp == 4 else (*px, 255)


def hex_rgb(colour: str) -> tuple[int, int, int, int]:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16), 255)


def svg_size(svg: str) -> tuple[int, int]:
    match = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    assert match, "no width/height on <svg>"
    return int(match.group(1)), int(match.group(2))


def texts(svg: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


def group(svg: str, opening: str) -> str:
    """The markup of the (non-nested) <g> whose opening tag contains ``opening``."""
    start = svg.index(opening)
    end = svg.index("</g>", start)
    return svg[start:end]
