"""Where a replayed history parts from its snapshot, told as an audit finding:
``m7, round 2, view ann: knowledge.announcements[round=2].private.camera_score 56 → 55``.

Both texts are read back into full views step by step (a section holds only changes),
and a difference is told once, at the step where it appears: a score that is wrong from
round 2 on is one finding, not one a round.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from matchledger.projections.presentation.wording import plural

from .text import REMOVED, parse, segment, value_text

#: Findings told in full; the rest are counted.
SHOWN = 20
ABSENT = "(absent)"
_MISSING = object()  # a key one side of a record lacks


@dataclass(frozen=True)
class Difference:
    """One place where the replay parts from the snapshot: at ``step`` (None: the
    match itself), in ``view`` (None: the whole step), ``detail``."""

    match: str
    step: str | None
    view: str | None
    detail: str

    def __str__(self) -> str:
        where = ", ".join(part for part in (self.match, self.step, self.view and f"view {self.view}") if part)
        return f"{where}: {self.detail}"


def findings(snapshot: str, replayed: str) -> list[Difference]:
    """Every difference of ``replayed`` from ``snapshot`` (both history texts), in step order."""
    old, new = parse(snapshot), parse(replayed)
    match = new.title.removeprefix("match ").split(",")[0]
    found: list[Difference] = []
    if old.title != new.title:
        found.append(Difference(match, None, None, f"the snapshot is of {old.title}, the replay of {new.title}"))
    if old.verify != new.verify:
        found.append(Difference(match, "verify", None, f"{old.verify} → {new.verify}"))
    shown_old: dict[str, dict[str, str]] = {}
    shown_new: dict[str, dict[str, str]] = {}
    told: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    for step in sorted(old.steps.keys() | new.steps.keys(), key=lambda key: key[1]):
        label, seq = step
        if step not in new.steps:
            found.append(
                Difference(match, label, None, f"the replay has no such step (the snapshot has it after seq {seq})")
            )
        elif step not in old.steps:
            found.append(Difference(match, label, None, f"a step the snapshot does not have (after seq {seq})"))
        old_changes, new_changes = old.steps.get(step, {}), new.steps.get(step, {})
        for view in dict.fromkeys([*new_changes, *old_changes]):
            before = _follow(shown_old.setdefault(view, {}), old_changes.get(view, {}))
            after = _follow(shown_new.setdefault(view, {}), new_changes.get(view, {}))
            for path in dict.fromkeys([*new_changes.get(view, {}), *old_changes.get(view, {})]):
                pair = (before.get(path), after.get(path))
                if pair[0] == pair[1]:
                    told.pop((view, path), None)
                elif told.get((view, path)) != pair:
                    told[(view, path)] = pair
                    found += [Difference(match, label, view, detail) for detail in _details(path, *pair)]
    return found


def report(snapshot: str, replayed: str) -> Iterator[str]:
    """The lines of a failure: where the replay differs, step by step and view by view;
    the first ``SHOWN`` differences in full; what to do about it."""
    found = findings(snapshot, replayed)
    views: dict[str | None, list[str]] = {}
    for difference in found:
        seen = views.setdefault(difference.step, [])
        if difference.view and difference.view not in seen:
            seen.append(difference.view)
    yield f"{parse(replayed).title}: the replay differs from its snapshot in {plural(len(found), 'place')}"
    for step, seen in views.items():
        yield f"  {step or 'the match'}" + (
            f": {'views' if len(seen) > 1 else 'view'} {', '.join(seen)}" if seen else ""
        )
    yield from map(str, found[:SHOWN])
    if len(found) > SHOWN:
        yield f"… and {len(found) - SHOWN} more"
    yield "A deliberate change (an amended ruling, a fixed rule): accept it with --snapshot-update and say why in the commit."


def _follow(shown: dict[str, str], changes: dict[str, str]) -> dict[str, str]:
    for path, text in changes.items():
        if text == REMOVED:
            shown.pop(path, None)
        else:
            shown[path] = text
    return shown


def _details(path: str, before: str | None, after: str | None) -> list[str]:
    """``path old → new``; inside a record written on one line, each value that differs."""
    if before is None or after is None:
        return [f"{path} {before or ABSENT} → {after or ABSENT}"]
    return [f"{where} {old} → {new}" for where, old, new in _differing(path, json.loads(before), json.loads(after))]


def _differing(path: str, old: Any, new: Any) -> Iterator[tuple[str, str, str]]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            if old.get(key, _MISSING) != new.get(key, _MISSING):
                yield from _differing(f"{path}.{segment(key)}", old.get(key, _MISSING), new.get(key, _MISSING))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (old_item, new_item) in enumerate(zip(old, new)):
            if old_item != new_item:
                yield from _differing(f"{path}[{index}]", old_item, new_item)
    else:
        yield path, _shown(old), _shown(new)


def _shown(value: Any) -> str:
    return ABSENT if value is _MISSING else value_text(value)
