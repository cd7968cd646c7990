"""Terminal text: a read model in the game's own text where its ``text`` module gives
one (:mod:`.games`), else in the generic text of any JSON-like data (key/value lines,
small lists of flat records as aligned tables, long scalar maps wrapped as
``key=value`` runs).  Each function here renders its data with every string made
:func:`~.printable.printable` first, so stored text cannot drive the terminal."""

from __future__ import annotations

import textwrap

from matchledger.engine.state import View

from .games import presentation_module
from .printable import printable_data

MAX_TABLE_COLUMNS = 8
MAX_TABLE_WIDTH = 140
WRAP = 100


def read_model_text(game: str, model: str, data: dict, view: View) -> str:
    """The text of the read model ``model`` (``data``, as ``view`` sees it) of ``game``."""
    data = printable_data(data)
    deadline = data.pop("deadline", None) if model == "status" else None
    own = presentation_module(game, "text")
    text = own.text(model, data, view) if own is not None else None
    text = text if text is not None else generic_text(data)
    return text if deadline is None else f"{text}\n{deadline_line(deadline)}"


def deadline_line(deadline: dict) -> str:
    """The open round's deadline as `status` words it (one line, every game alike)."""
    from matchledger.projections.deadlines import period_text

    unit = deadline.get("unit", "round")
    parts = [f"deadline: {deadline['at']} (UTC)" if deadline.get("at") else f"deadline: none for this {unit}"]
    if deadline.get("passed"):
        parts[0] += f", passed: the {unit} stays open until it is closed"
    if deadline.get("each_seconds"):
        unit = deadline.get("unit", "round")
        parts.append(f"each later {unit}: {period_text(deadline['each_seconds'])} after it opens")
    if deadline.get("remind_seconds"):
        parts.append(f"a reminder {period_text(deadline['remind_seconds'])} before")
    return "; ".join(parts)


def _scalar(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(_scalar(v) for v in value) or "(none)"
    return str(value)


def _is_scalar(value) -> bool:
    return not isinstance(value, (dict, list)) or (
        isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)
    )


def _flatten(row: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in row.items():
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def table(rows: list[dict]) -> list[str]:
    """Records as an aligned table: a header line, a rule, one line a record (nested
    keys flattened as ``a.b``; numbers right-aligned)."""
    flat_rows = [_flatten(row) for row in printable_data(rows)]
    columns: list[str] = []
    for row in flat_rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    cells = [[_scalar(row.get(col)) for col in columns] for row in flat_rows]
    widths = [max(len(col), *(len(r[i]) for r in cells)) for i, col in enumerate(columns)]
    # a column of numbers has its heading over the numbers' right edge
    numeric = [
        any(_is_number(r[i]) for r in cells) and all(_is_number(r[i]) or r[i] in ("", "-") for r in cells)
        for i in range(len(columns))
    ]
    lines = [
        "  ".join(col.rjust(w) if right else col.ljust(w) for col, w, right in zip(columns, widths, numeric)).rstrip()
    ]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) if _is_number(c) else c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return lines


def _is_number(cell: str) -> bool:
    return cell.lstrip("-").isdigit()


def _tabular(rows: list[dict]) -> bool:
    flat_rows = [_flatten(row) for row in rows]
    if not all(all(_is_scalar(v) for v in row.values()) for row in flat_rows):
        return False
    columns = {key for row in flat_rows for key in row}
    if len(columns) > MAX_TABLE_COLUMNS:
        return False
    return max(len(line) for line in table(rows)) <= MAX_TABLE_WIDTH


def generic_text(data, indent: int = 0) -> str:
    """Any JSON-like data as text, indented ``indent`` steps of two spaces."""
    return "\n".join(_lines(printable_data(data), indent))


def _lines(data, indent: int) -> list[str]:
    pad = "  " * indent
    if isinstance(data, dict):
        lines = []
        for key, value in data.items():
            if isinstance(value, dict) and value:
                if len(value) > MAX_TABLE_COLUMNS and all(_is_scalar(v) for v in value.values()):
                    runs = " ".join(f"{k}={_scalar(v)}" for k, v in value.items())
                    lines.append(f"{pad}{key}:")
                    lines += textwrap.wrap(runs, WRAP, initial_indent=pad + "  ", subsequent_indent=pad + "  ")
                else:
                    lines.append(f"{pad}{key}:")
                    lines += _lines(value, indent + 1)
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lines.append(f"{pad}{key}:")
                if _tabular(value):
                    lines += [f"{pad}  {line}" for line in table(value)]
                else:
                    for item in value:
                        block = _lines(item, indent + 2)
                        if block:
                            block[0] = f"{pad}  - " + block[0].lstrip()
                        lines += block
            elif isinstance(value, list) and value and not _is_scalar(value):
                lines.append(f"{pad}{key}:")
                for item in value:
                    lines += _lines(item, indent + 1)
            else:
                shown = "(none)" if value in ({}, []) else _scalar(value)
                if len(shown) > WRAP:
                    lines.append(f"{pad}{key}:")
                    lines += textwrap.wrap(shown, WRAP, initial_indent=pad + "  ", subsequent_indent=pad + "  ")
                else:
                    lines.append(f"{pad}{key}: {shown}")
        return lines
    if isinstance(data, list):
        out = []
        for value in data:
            out += [f"{pad}- {_scalar(value)}"] if _is_scalar(value) else _lines(value, indent)
        return out
    return [f"{pad}{_scalar(data)}"]
