"""Stored text made safe to show: whatever a log holds (an imported note, a match id
written by an older version) is shown with its control and other unprintable
characters escaped as Python writes them (``\\x1b``, ``\\n``, ``\\u202e``), so it can
neither drive a terminal (colours, titles, the clipboard) nor start a line of its own.

Text output applies :func:`printable_data` to the data it renders (or :func:`printable`
to one line); JSON output applies :func:`printable_json` to the JSON text.
"""

from __future__ import annotations

import json
from typing import Any

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped_character(ch: str) -> str:
    """``ch`` as Python writes it escaped: ``\\n``, ``\\x1b``, ``\\u674e``, ``\\U0001f600``."""
    code = ord(ch)
    if ch in _SHORT:
        return _SHORT[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``str.isprintable``:
    control characters, line breaks, format characters such as bidirectional overrides,
    unassigned code points and lone surrogates)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else escaped_character(ch) for ch in text)


def printable_data(data: Any) -> Any:
    """A copy of JSON-like ``data`` with :func:`printable` applied to every string in
    it, keys included; other values as they are."""
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, dict):
        return {printable_data(key): printable_data(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(printable_data(item) for item in data)
    return data


def printable_json(text: str) -> str:
    """JSON ``text`` (as ``json.dumps(..., ensure_ascii=False)`` writes it) with every
    unprintable character but the line breaks of its layout written as a ``\\u`` escape:
    the same JSON value, safe on a terminal.  Outside strings JSON holds only
    printable characters and layout, so only characters inside strings change."""
    if text.replace("\n", "").isprintable():
        return text
    return "".join(ch if ch == "\n" or ch.isprintable() else json.dumps(ch)[1:-1] for ch in text)
