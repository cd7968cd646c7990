"""Words for values in text output: counts with the right plural, and values written as
a host types them on the command line (``true``, ``1:1,2:3``) or as JSON, never as a
Python repr (``True``, ``{'1': 1}``, ``None``)."""

from __future__ import annotations

import json
from typing import Any


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 command``, ``0 commands``, ``2 discrepancies`` (``many`` for an irregular plural)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def json_text(value: Any) -> str:
    """``value`` as compact JSON, non-ASCII text as itself: ``null``, ``true``, ``"abc"``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def notation(value: Any) -> str:
    """An option's value as a host types it after ``--option KEY=``: ``true``/``false``,
    numbers and text as they are, a map as ``KEY:VALUE,…`` (``row_points=1:1,2:3``), a
    list as ``A,B``; anything else as JSON."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, dict) and all(not isinstance(v, (dict, list)) for v in value.values()):
        return ",".join(f"{key}:{notation(v)}" for key, v in value.items())
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list)) for v in value):
        return ",".join(notation(v) for v in value)
    return json_text(value)


def options_text(options: dict[str, Any]) -> str:
    """``KEY=VALUE`` pairs as a host types them, separated by spaces."""
    return " ".join(f"{key}={notation(value)}" for key, value in options.items())
