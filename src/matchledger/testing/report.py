"""The failure of a pinned history, in the order a reviewer asks: what changed in the
final outcome (whose total or rank moved, which awards went or came), the first step
that differs and how, and how the log moved (events added, a different log, or the same
log replayed by other rules); then, with ``-v`` and ``-vv``, the differences in bulk.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from matchledger.engine.state import HOST as HOST_VIEW
from matchledger.projections.presentation.wording import plural

from .findings import Difference, Views, differences, differing
from .history import LogEntry
from .paths import unflatten, value_text
from .text import Sections, parse

#: The view that holds the whole outcome.
HOST = HOST_VIEW.label()
#: Differences of the first differing step shown at each verbosity (None: all).
FIRST_STEP_SHOWN = {0: 5, 1: 20}
#: Differences shown in all at -v; -vv shows every one.
SHOWN = 20
#: Events added to a log, named one by one up to this many.
NAMED_EVENTS = 8
ADVICE = "A deliberate change (a correction, an amended ruling, a fixed rule): accept it with --snapshot-update and say why in the commit."
RELAYOUT = (
    "{title}: the replay is the one pinned, value for value, but the snapshot was written in an earlier "
    "layout: rewrite it with --snapshot-update (nothing else changes)"
)


def report(snapshot: str, replayed: str, verbosity: int = 0) -> Iterator[str]:
    """The lines of a failure: the final outcome, the first differing step and the log
    first; the differences in bulk with ``verbosity`` 1 (the first ``SHOWN``) or 2 (all)."""
    old, new = parse(snapshot), parse(replayed)
    found = differences(old, new)
    log = log_movement(old.log, new.log)
    if not found and (log is None or old.log is None):
        yield RELAYOUT.format(title=new.title)
        return
    if not found:  # events that change nothing any view shows (a note)
        yield f"{new.title}: every step replays as pinned, but the log moved"
        yield f"log: {log}"
        yield ADVICE
        return
    yield f"{new.title}: the replay differs from its snapshot in {plural(len(found), 'place')}"
    yield from outcome_changes(old, new)
    of_the_match = [difference for difference in found if difference.seq is None]  # its title, what verify finds
    yield from map(str, of_the_match)
    at_steps = [difference for difference in found if difference.seq is not None]
    first = [difference for difference in at_steps if difference.seq == at_steps[0].seq]
    shown = FIRST_STEP_SHOWN.get(verbosity)
    if first:
        yield f"first difference: {first[0].step} (seq {first[0].seq})"
        yield from (f"  {difference}" for difference in first[:shown])
        if shown is not None and len(first) > shown:
            yield f"  … and {len(first) - shown} more at this step"
    yield f"log: {log or 'the one pinned, replayed by these rules'}"
    rest = at_steps[len(first) :]
    if verbosity == 0:
        if rest:
            steps = len({difference.seq for difference in rest})
            yield (
                f"{plural(len(rest), 'more difference')} at {plural(steps, 'later step')}: "
                "-v lists the steps and the first ones, -vv every one"
            )
    elif rest:
        yield from _by_step(at_steps)
        told = rest if verbosity > 1 else rest[: max(0, SHOWN - len(first))]
        yield from map(str, told)
        if len(told) < len(rest):
            yield f"… and {len(rest) - len(told)} more (-vv shows every one)"
    yield ADVICE


def _by_step(found: list[Difference]) -> Iterator[str]:
    """Which views differ at each step."""
    views: dict[str | None, list[str]] = {}
    for difference in found:
        seen = views.setdefault(difference.step, [])
        if difference.view and difference.view not in seen:
            seen.append(difference.view)
    yield "where:"
    for step, seen in views.items():
        yield f"  {step or 'the match'}" + (
            f": {'views' if len(seen) > 1 else 'view'} {', '.join(seen)}" if seen else ""
        )


# --------------------------------------------------------------------------- the outcome


def outcome_changes(old: Sections, new: Sections) -> Iterator[str]:
    """What changed in the outcome at the last step, in the host's view: each
    participant whose total or rank moved (and the scores that moved it), each award
    lost or gained."""
    before, after = _outcome(old), _outcome(new)
    if before == after:
        yield "final outcome: as pinned"
        return
    if before.get("finished") and not after.get("finished"):
        yield "final outcome: none any more: the match is no longer finished"
        return
    yield "final outcome:" if after.get("finished") else "outcome so far (the match is not finished):"
    pinned = {standing.get("participant"): standing for standing in before.get("standings", [])}
    replayed = {standing.get("participant"): standing for standing in after.get("standings", [])}
    lines = [
        f"  {name}: {moved}"
        for name in dict.fromkeys([*replayed, *pinned])
        if (moved := _standing_changes(pinned.get(name, {}), replayed.get(name, {})))
    ]
    lost, gained = _award_changes(before.get("awards", []), after.get("awards", []))
    lines += [f"  award lost: {award}" for award in lost] + [f"  award gained: {award}" for award in gained]
    # nobody's total, rank or award moved: whatever else of the outcome did
    yield from lines or (f"  {where}: {was} → {now}" for where, was, now in differing("outcome", before, after))


def _outcome(sections: Sections) -> dict[str, Any]:
    last: Views = {}
    for _step, views in sections.shown():
        last = views  # the same views, folded on to the last step
    outcome = unflatten(last.get(HOST, {})).get("outcome")
    return outcome if isinstance(outcome, dict) else {}


def _standing_changes(before: dict, after: dict) -> str:
    """``total 354 → 304, rank 7 → 9 (action 40 → 35)``, or '' when neither moved."""
    moved = [
        f"{field} {_value(before.get(field))} → {_value(after.get(field))}"
        for field in ("total", "rank")
        if before.get(field) != after.get(field)
    ]
    scores_before, scores_after = before.get("scores"), after.get("scores")
    why = []
    if isinstance(scores_before, dict) and isinstance(scores_after, dict):
        why = [
            f"{key} {_value(scores_before.get(key))} → {_value(scores_after.get(key))}"
            for key in dict.fromkeys([*scores_after, *scores_before])
            if scores_before.get(key) != scores_after.get(key)
        ]
    return ", ".join(moved) + (f" ({', '.join(why)})" if why else "") if moved else ""


def _award_changes(before: list, after: list) -> tuple[list[str], list[str]]:
    pinned, replayed = Counter(map(value_text, before)), Counter(map(value_text, after))
    return [_award(text) for text in (pinned - replayed).elements()], [
        _award(text) for text in (replayed - pinned).elements()
    ]


def _award(text: str) -> str:
    """``kim: tol (reason "highest filming", shards 4)``."""
    award = json.loads(text)
    if not isinstance(award, dict):
        return text
    rest = {key: value for key, value in award.items() if key not in ("participant", "kind")}
    details = ", ".join(f"{key} {value_text(value)}" for key, value in sorted(rest.items()))
    return f"{award.get('participant', '?')}: {award.get('kind', '?')}" + (f" ({details})" if details else "")


def _value(value: Any) -> str:
    return "(none)" if value is None else value_text(value)


# --------------------------------------------------------------------------- the log


def log_movement(pinned: list[LogEntry] | None, replayed: list[LogEntry] | None) -> str | None:
    """How the log moved from the one pinned, or None when it did not."""
    if pinned is None:
        return "the snapshot does not list its log (an earlier version of matchledger wrote it)"
    replayed = replayed or []
    if pinned == replayed:
        return None
    head = pinned[-1].seq if pinned else 0
    for was, now in zip(pinned, replayed):
        if was != now:
            more = len(replayed) - len(pinned)
            counted = f"; it has {plural(abs(more), 'event')} {'more' if more > 0 else 'fewer'}" if more else ""
            return (
                f"rewritten from seq {was.seq}: pinned {_entry(was)}, now {_entry(now)}{counted} "
                f"(the pinned head was {head})"
            )
    if len(replayed) > len(pinned):
        added = replayed[len(pinned) :]
        named = ", ".join(f"{entry.seq} {entry.kind}" for entry in added[:NAMED_EVENTS])
        return f"it ends {plural(len(added), 'event')} past the pinned head {head} ({named}{', …' if len(added) > NAMED_EVENTS else ''})"
    missing = len(pinned) - len(replayed)
    return f"{plural(missing, 'event')} fewer: it ends at seq {replayed[-1].seq if replayed else 0}, the pinned head was {head}"


def _entry(entry: LogEntry) -> str:
    return f"{entry.kind} {entry.digest}"
