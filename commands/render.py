"""Generic terminal rendering of read-model dicts: key/value lines, lists of flat
dicts as aligned tables.  Games may supply their own text through ``Game.render``."""

from __future__ import annotations


def _scalar(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(_scalar(v) for v in value) or "(none)"
    return str(value)


def _is_flat(value) -> bool:
    return isinstance(value, dict) and all(not isinstance(v, (dict, list)) or _flat_list(v) for v in value.values())


def _flat_list(value) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)


def _flatten(row: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in row.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def table(rows: list[dict]) -> list[str]:
    flat_rows = [_flatten(row) for row in rows]
    columns: list[str] = []
    for row in flat_rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    cells = [[_scalar(row.get(col)) for col in columns] for row in flat_rows]
    widths = [max(len(col), *(len(r[i]) for r in cells)) for i, col in enumerate(columns)]
    lines = ["  ".join(col.ljust(w) for col, w in zip(columns, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) if c.lstrip("-").isdigit() else c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return lines


def render(data, indent: int = 0) -> str:
    return "\n".join(_lines(data, indent))


def _lines(data, indent: int) -> list[str]:
    pad = "  " * indent
    if isinstance(data, dict):
        lines = []
        for key, value in data.items():
            if isinstance(value, dict) and value:
                lines.append(f"{pad}{key}:")
                lines += _lines(value, indent + 1)
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lines.append(f"{pad}{key}:")
                if all(_nested_ok(v) for v in value):
                    lines += [f"{pad}  {line}" for line in table(value)]
                else:
                    for item in value:
                        lines += _lines(item, indent + 1)
                        lines.append("")
            elif isinstance(value, list) and value and not _flat_list(value):
                lines.append(f"{pad}{key}:")
                for item in value:
                    lines += _lines(item, indent + 1)
            else:
                lines.append(f"{pad}{key}: {_scalar(value) if value != {} else '(none)'}")
        return lines
    if isinstance(data, list):
        return [f"{pad}- {_scalar(v)}" if not isinstance(v, (dict, list)) else render(v, indent) for v in data]
    return [f"{pad}{_scalar(data)}"]


def _nested_ok(row: dict) -> bool:
    flat = _flatten(row)
    return all(not isinstance(v, (dict, list)) or _flat_list(v) for v in flat.values())
