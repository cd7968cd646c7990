"""A view's read models as ``path: value`` lines, and back.

A line is one value, or one record small enough to read on one line (a score line, a
studio map, one round's public announcement): a map whose values are plain values, lists
of them or maps of plain values, as exact JSON with its keys sorted.  A list of
records that each name their round, turn or participant is keyed by that name
(``scores.scores[participant=ann]``), with the order of the names on a line of its own
(``scores.scores[*].participant``); other lists are indexed from 0.

Lines are a view's state; what a step changes is the lines that differ from the step
before.  Setting a path replaces whatever was written beneath it or above it (a round's
announcement list that empties is one line, ``knowledge.announcements: []``, not one
``(removed)`` a line it held), so ``(removed)`` is written only for a value the view no
longer shows at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

#: Fields that name the record they are in, tried in this order.
RECORD_KEYS = ("round", "turn", "participant", "player")
REMOVED = "(removed)"

_BARE = re.compile(r"[A-Za-z0-9_-]+")
SEGMENT = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*")'
#: A path: a model's name, then keys, indexes, ``[*]`` and ``[field=name]`` records.
PATH = rf"{SEGMENT}(?:\.{SEGMENT}|\[(?:\d+|\*|[a-z_]+={SEGMENT})\])*"
_FIRST = re.compile(SEGMENT)
_STEP = re.compile(rf"\.({SEGMENT})|\[(\d+)\]|\[(\*)\]|\[([a-z_]+)=({SEGMENT})\]")


# --------------------------------------------------------------------------- writing


def flatten(models: dict[str, Any]) -> dict[str, str]:
    """``path: value text`` of every value of a view's read models (each model split by
    its keys, however small), in the order they are written."""
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


def changes(before: dict[str, str], now: dict[str, str]) -> list[tuple[str, str]]:
    """The lines that turn the view ``before`` into ``now`` (both from :func:`flatten`):
    every value that is new or different, then ``(removed)`` for each value that went
    and was not replaced by a line above or beneath it."""
    changed = [(path, text) for path, text in now.items() if before.get(path) != text]
    paths = {path for path, _text in changed}
    above = {ancestor for path in paths for ancestor in ancestors(path)}
    gone = [
        path
        for path in before
        if path not in now and path not in above and not any(ancestor in paths for ancestor in ancestors(path))
    ]
    return changed + [(path, REMOVED) for path in gone]


# --------------------------------------------------------------------------- reading


def apply(shown: dict[str, str], lines: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``shown`` (a view's lines) after a step's ``lines``: each sets its path, replacing
    what was written above or beneath it, or removes that one path.  Changed in place,
    and returned."""
    for path, text in lines:
        if text == REMOVED:
            shown.pop(path, None)
            continue
        if path not in shown:  # a path already shown has nothing above or beneath it
            for ancestor in ancestors(path):
                shown.pop(ancestor, None)
            for beneath in [other for other in shown if is_beneath(other, path)]:
                del shown[beneath]
        shown[path] = text
    return shown


def unflatten(lines: dict[str, str]) -> dict[str, Any]:
    """The read models that :func:`flatten` wrote as ``lines``."""
    root = _Node()
    for path, text in lines.items():
        node = root
        for step in steps(path):
            node = node.child(step)
        node.value = json.loads(text)
    built = root.build()
    return built if isinstance(built, dict) else {}


class _Node:
    """A value being rebuilt: written whole (``value``), or from its keys, indexes or
    records."""

    def __init__(self) -> None:
        self.value: Any = None
        self.keys: dict[str, _Node] = {}
        self.items: dict[int, _Node] = {}
        self.records: dict[str, _Node] = {}
        self.order: _Node | None = None  # a record list's names: its one key holds them

    def child(self, step: tuple) -> _Node:
        kind, *args = step
        if kind == "key":
            return self.keys.setdefault(args[0], _Node())
        if kind == "index":
            return self.items.setdefault(args[0], _Node())
        if kind == "order":
            self.order = self.order or _Node()
            return self.order
        return self.records.setdefault(args[1], _Node())

    def build(self) -> Any:
        if self.order is not None:
            return self._records()
        if self.keys:
            return {key: node.build() for key, node in self.keys.items()}
        if self.items:
            return [self.items[index].build() for index in sorted(self.items)]
        return self.value

    def _records(self) -> list:
        assert self.order is not None
        field, names = next(iter(self.order.keys.items()))
        out = []
        for name in names.value:
            rest = self.records.get(segment(name))
            out.append({field: name, **((rest and rest.build()) or {})})
        return out


# --------------------------------------------------------------------------- paths


def steps(path: str) -> list[tuple]:
    """``path`` as the steps from a model to a value: ``("key", name)``, ``("index",
    n)``, ``("order",)`` (the ``[*]`` of a record list's names) or ``("record", field,
    name)`` (its name as written)."""
    first = _FIRST.match(path)
    if first is None:
        raise ValueError(f"not a path: {path!r}")
    out: list[tuple] = [("key", _name(first[0]))]
    position = first.end()
    while position < len(path):
        step = _STEP.match(path, position)
        if step is None:
            raise ValueError(f"not a path: {path!r}")
        if step[1] is not None:
            out.append(("key", _name(step[1])))
        elif step[2] is not None:
            out.append(("index", int(step[2])))
        elif step[3] is not None:
            out.append(("order",))
        else:
            out.append(("record", step[4], step[5]))
        position = step.end()
    return out


def ancestors(path: str) -> Iterator[str]:
    """Every path above ``path``, nearest last (``a``, ``a.b`` for ``a.b[2]``)."""
    first = _FIRST.match(path)
    if first is None:
        return
    position = first.end()
    while position < len(path):
        yield path[:position]
        step = _STEP.match(path, position)
        if step is None:
            return
        position = step.end()


def is_beneath(path: str, above: str) -> bool:
    return len(path) > len(above) and path.startswith(above) and path[len(above)] in ".["


def segment(key: str | int) -> str:
    text = str(key)
    return text if _BARE.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def _name(written: str) -> str:
    return json.loads(written) if written.startswith('"') else written


# --------------------------------------------------------------------------- values


def value_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def is_flat(value: Any) -> bool:
    return is_scalar(value) or (isinstance(value, list) and all(map(is_scalar, value)))


def is_leaf(value: Any) -> bool:
    """A value of a record written on one line: a plain value, a list of them, or a
    map of plain values (a brightness map).  A record holding a map of lists (a
    player's film) or of records (each participant's private announcement) is split, a
    line a key, so that what one participant holds, or was told, is a line of its own."""
    return is_flat(value) or (isinstance(value, dict) and all(map(is_scalar, value.values())))


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
