"""Where a replayed history parts from its snapshot, told as audit findings:
``m7, round 2, view ann: knowledge.announcements[round=2].private.camera_score 56 → 55``.

Both texts are read back into full views step by step (a section holds only changes),
each view rebuilt into its read models and written again the one current way, so a
snapshot an earlier version laid out otherwise compares value for value.  A difference
is told once, at the step where it appears: a score that is wrong from round 2 on is
one finding, not one a round.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .paths import flatten, segment, unflatten, value_text
from .text import Lines, Sections, StepKey, parse

ABSENT = "(absent)"
_MISSING = object()  # a key one side of a record lacks

#: A step's views in full, by view.
Views = dict[str, Lines]


@dataclass(frozen=True)
class Difference:
    """One place where the replay parts from the snapshot: at ``step`` (None: the
    match itself), in ``view`` (None: the whole step), ``detail``; ``seq``: the event
    the step follows."""

    match: str
    step: str | None
    view: str | None
    detail: str
    seq: int | None = None

    def __str__(self) -> str:
        where = ", ".join(part for part in (self.match, self.step, self.view and f"view {self.view}") if part)
        return f"{where}: {self.detail}"


def findings(snapshot: str, replayed: str) -> list[Difference]:
    """Every difference of ``replayed`` from ``snapshot`` (both history texts), in step order."""
    return differences(parse(snapshot), parse(replayed))


def differences(old: Sections, new: Sections) -> list[Difference]:
    """Every difference of the history ``new`` from ``old`` (both read back), in step order."""
    match = new.match
    found: list[Difference] = []
    if old.title != new.title:
        found.append(Difference(match, None, None, f"the snapshot is of {old.title}, the replay of {new.title}"))
    if old.verify != new.verify:
        found.append(Difference(match, "verify", None, f"{old.verify} → {new.verify}"))
    old_steps, new_steps = dict(full_views(old)), dict(full_views(new))
    shown_old: Views = {}
    shown_new: Views = {}
    told: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    for step in sorted(old_steps.keys() | new_steps.keys(), key=lambda key: key[1]):
        label, seq = step
        if step not in new_steps:
            detail = f"the replay has no such step (the snapshot has it after seq {seq})"
            found.append(Difference(match, label, None, detail, seq))
        elif step not in old_steps and not (old.log is None and new_steps[step] == shown_new):
            # (an earlier version wrote no line for a step that shows nothing new)
            found.append(Difference(match, label, None, f"a step the snapshot does not have (after seq {seq})", seq))
        shown_old = old_steps.get(step, shown_old)
        shown_new = new_steps.get(step, shown_new)
        for view in dict.fromkeys([*shown_new, *shown_old]):
            before, after = shown_old.get(view, {}), shown_new.get(view, {})
            for path in dict.fromkeys([*after, *before]):
                pair = (before.get(path), after.get(path))
                if pair[0] == pair[1]:
                    told.pop((view, path), None)
                elif told.get((view, path)) != pair:
                    told[(view, path)] = pair
                    found += [Difference(match, label, view, detail, seq) for detail in _details(path, *pair)]
    return found


def full_views(sections: Sections) -> Iterator[tuple[StepKey, Views]]:
    """Each step with every view in full, written the current way (``flatten`` of the
    read models the lines hold)."""
    for step, views in sections.shown():
        yield step, {view: flatten(unflatten(lines)) for view, lines in views.items()}


def _details(path: str, before: str | None, after: str | None) -> list[str]:
    """``path old → new``; inside a record written on one line, each value that differs."""
    if before is None or after is None:
        return [f"{path} {before or ABSENT} → {after or ABSENT}"]
    return [f"{where} {old} → {new}" for where, old, new in differing(path, json.loads(before), json.loads(after))]


def differing(path: str, old: Any, new: Any) -> Iterator[tuple[str, str, str]]:
    """``(path, old, new)`` of each value that differs between ``old`` and ``new``."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            if old.get(key, _MISSING) != new.get(key, _MISSING):
                yield from differing(f"{path}.{segment(key)}", old.get(key, _MISSING), new.get(key, _MISSING))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (old_item, new_item) in enumerate(zip(old, new)):
            if old_item != new_item:
                yield from differing(f"{path}[{index}]", old_item, new_item)
    else:
        yield path, _shown(old), _shown(new)


def _shown(value: Any) -> str:
    return ABSENT if value is _MISSING else value_text(value)
