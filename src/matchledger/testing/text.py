"""The snapshot text of a history, meant to be reviewed in a pull request.

``path: value``, a line each: a value, or a record small enough to read on one line (a
score line, a studio map, one round's announcement), as exact JSON (keys sorted,
fractions as text).  A section per step and view holds only what that view shows
differently from its previous step, so a studio map or a past round is written once,
where it first appears, and a diff lands on the round where a number changed.  A list
of records that each name their round, turn or participant is keyed by that name, and
the order of the names has a line of its own, so a finding says whom it is about::

    match amend5, game lca
    verify: []
    round 1 (seq 6), view host
      scores.scores[*].participant: ["ann", "bob", "cat", "dan", "eve"]
      scores.scores[participant=ann]: {"lights": 60, "total": 60}
    round 2 (seq 10), view host
      scores.scores[participant=dan]: {"camera": 24, "lights": 50, "total": 74}
    round 2 (seq 10), view dan
      knowledge.announcements[round=2]: {"private": {"camera_score": 24}, "public": {"cameras": [...]}}

:func:`parse` reads the text back into its sections (the findings compare them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .history import History

#: Fields that name the record they are in, tried in this order.
RECORD_KEYS = ("round", "turn", "participant", "player")
REMOVED = "(removed)"
INDENT = "  "

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SEGMENT = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*")'
_ENTRY = re.compile(rf"{INDENT}({_SEGMENT}(?:\.{_SEGMENT}|\[(?:\d+|\*|[a-z_]+={_SEGMENT})\])*): (.*)")
_HEADER = re.compile(r"(.+?) \(seq (\d+)\), view (.+)")


@dataclass
class Sections:
    """A history's text, read back: the changes of each (step, view), steps in order."""

    title: str
    verify: str
    steps: dict[tuple[str, int], dict[str, dict[str, str]]] = field(default_factory=dict)


def render(history: History) -> str:
    lines = [f"match {history.match}, game {history.game}", f"verify: {value_text(history.findings)}"]
    shown: dict[str, dict[str, str]] = {}
    for step in history.steps:
        for view, models in step.views.items():
            now = flatten(models)
            before = shown.get(view, {})
            changes = [(path, text) for path, text in now.items() if before.get(path) != text]
            changes += [(path, REMOVED) for path in before if path not in now]
            if changes:
                lines.append(f"{step.label} (seq {step.seq}), view {view}")
                lines += [f"{INDENT}{path}: {text}" for path, text in changes]
            shown[view] = now
    return "\n".join(lines)


def parse(text: str) -> Sections:
    title, verify_line, *rest = text.split("\n")
    sections = Sections(title, verify_line.removeprefix("verify: "))
    changes: dict[str, str] = {}
    for number, line in enumerate(rest, start=3):
        entry = _ENTRY.fullmatch(line)
        if entry:
            changes[entry[1]] = entry[2]
            continue
        header = _HEADER.fullmatch(line)
        if header is None:
            raise ValueError(f"line {number} of a history snapshot is neither a section nor a value: {line!r}")
        changes = sections.steps.setdefault((header[1], int(header[2])), {}).setdefault(header[3], {})
    return sections


def flatten(models: dict[str, Any]) -> dict[str, str]:
    """``path: value text`` of every value of a view's read models (each model split by
    its keys, however small)."""
    out: dict[str, str] = {}
    for name in sorted(models):
        model = models[name]
        if isinstance(model, dict) and model:
            for key in sorted(model):
                _flatten(model[key], f"{name}.{segment(key)}", out)
        else:
            _flatten(model, name, out)
    return out


def _flatten(value: Any, path: str, out: dict[str, str]) -> None:
    if isinstance(value, dict) and not all(map(is_leaf, value.values())):
        for key in sorted(value):
            _flatten(value[key], f"{path}.{segment(key)}", out)
    elif isinstance(value, list) and not all(map(is_scalar, value)):
        key = record_key(value)
        if key is None:
            for index, item in enumerate(value):
                _flatten(item, f"{path}[{index}]", out)
        else:
            out[f"{path}[*].{key}"] = value_text([item[key] for item in value])
            for item in value:
                rest = {name: part for name, part in item.items() if name != key}
                _flatten(rest, f"{path}[{key}={segment(item[key])}]", out)
    else:
        out[path] = value_text(value)


def is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def is_flat(value: Any) -> bool:
    return is_scalar(value) or (isinstance(value, list) and all(map(is_scalar, value)))


def is_leaf(value: Any) -> bool:
    """A value of a record written on one line: a plain value, a list of them, or a
    dict of those (a studio map, one round's announcement)."""
    return is_flat(value) or (isinstance(value, dict) and all(map(is_flat, value.values())))


def record_key(items: list) -> str | None:
    """The field that tells the records of ``items`` apart, if they all have one."""
    if not all(isinstance(item, dict) for item in items):
        return None
    for key in RECORD_KEYS:
        names = [item.get(key) for item in items]
        if all(isinstance(name, (str, int)) and not isinstance(name, bool) for name in names) and len(
            set(names)
        ) == len(names):
            return key
    return None


def segment(key: str | int) -> str:
    text = str(key)
    return text if _BARE.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def value_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
