"""A match's replayed history: at every round close or turn (and every reopening,
amendment or correction that changes what the step before showed), every read model in
every view, then the outcome; and what `verify` finds in the log.  A checkpoint is
bookkeeping, never a step.

Read through the application as every front door reads, so the chain is checked before
anything is replayed: a log the chain does not vouch for raises ``VerificationFailed``
rather than give a history of forged data.

The history also lists its log, an event a line with a digest of what it records, so
that a snapshot tells a log that moved (events added, or a different log) from the same
log replayed by other rules.  A checkpoint is left out there too: it records the code's
revision, which every upgrade changes, and a match checkpointed again is the same match.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from matchledger.ledger.events import StateCheckpointed
from matchledger.projections.application import Application
from matchledger.projections.views import all_read_models

from .sources import opened, source_of

#: Events that always make a step: what the rules announce.
ANNOUNCING = ("RoundClosed", "TurnResolved", "OutcomeAnnounced")
#: Events that make a step only when some view then shows something else.
AMENDING = ("RoundReopened", "RuleAmended", "SubmissionVoided", "SubmissionCorrected")
#: Hex digits of an event's digest: enough to tell two records apart at a glance (the
#: chain, checked before anything is replayed, is what vouches for the log).
DIGEST_LENGTH = 8
#: Bookkeeping: never a step, and not listed in the log.
CHECKPOINT = StateCheckpointed.__name__


@dataclass(frozen=True)
class LogEntry:
    """Event ``seq`` of the log: its ``kind`` and a ``digest`` of what it records, the
    same wherever and whenever it was recorded (its salt, time and actor left out)."""

    seq: int
    kind: str
    digest: str


@dataclass(frozen=True)
class Step:
    """The match right after event ``seq``: ``views`` maps each view (``host``,
    ``public``, each participant) to its read models by name."""

    label: str
    seq: int
    views: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class History:
    match: str
    game: str
    steps: list[Step]
    #: what `verify` reports (a hand-scored match's disputed numbers), one line each
    findings: list[str]
    #: every event of the log but its checkpoints, in order
    log: list[LogEntry] = field(default_factory=list)

    def step(self, label: str) -> Step:
        """The step called ``label`` (``round 2``, ``turn 7``, ``outcome``…)."""
        for step in self.steps:
            if step.label == label:
                return step
        raise KeyError(f"{self.match} has no step {label!r} (steps: {', '.join(s.label for s in self.steps)})")


def replay_history(path: str | Path, match_id: str) -> History:
    """The history of ``match_id`` in the database (a file or a PostgreSQL URL) or
    exported JSON Lines file ``path``."""
    with opened(source_of(path)) as application:
        return replayed_history(application, match_id)


def replayed_history(application: Application, match_id: str) -> History:
    """The history of ``match_id`` as ``application`` replays it (its whole chain checked first)."""
    application.head(match_id)  # the whole chain, before any step is taken from it
    _view, events = application.history(match_id)
    steps: list[Step] = []
    log: list[LogEntry] = []
    closed: set[int] = set()
    game = ""
    for row, state, shown in events:
        game = state.game
        if row.kind != CHECKPOINT:
            log.append(LogEntry(row.seq, row.kind, digest(row.kind, row.body)))
        if row.kind not in ANNOUNCING and row.kind not in AMENDING:
            continue
        views = _views(state)
        # an amendment is a step only where it changes what was shown at the step before
        if row.kind in AMENDING and (not steps or views == steps[-1].views):
            continue
        steps.append(Step(_label(row.kind, shown, closed), row.seq, views))
    findings = [finding.describe() for finding in application.verify(match_id).findings]
    return History(match_id, game, steps, findings, log)


def digest(kind: str, body: str) -> str:
    """What an event records, as a short digest: its kind and its body without the salt
    (drawn afresh each time it is recorded)."""
    record = json.loads(body)
    record.pop("salt", None)
    text = json.dumps([kind, record], ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_LENGTH]


def _views(state) -> dict[str, dict[str, Any]]:
    """Every read model of ``state`` in every view, as exact plain values."""
    views: dict[str, dict[str, Any]] = {}
    for key, model in all_read_models(state).items():
        name, view = key.split(":", 1)
        views.setdefault(view, {})[name] = exact(model)
    return views


def _label(kind: str, event: dict, closed: set[int]) -> str:
    if kind == "RoundClosed":
        again = event["round"] in closed
        closed.add(event["round"])
        return f"round {event['round']}" + (" closed again" if again else "")
    if kind == "TurnResolved":
        return f"turn {event['turn']}"
    if kind == "OutcomeAnnounced":
        return "outcome"
    if kind == "RoundReopened":
        return f"round {event['round']} reopened"
    if kind == "RuleAmended":
        return f"{event['option']} amended from round {event['from_round']}"
    verb = "voided" if kind == "SubmissionVoided" else "corrected"
    return f"submission {event['target_seq']} {verb}"


def exact(value: Any) -> Any:
    """``value`` as plain JSON values, copied (the state it was read from is folded
    further), every number exact: a fraction (or a float, which read models should not
    hold) becomes its exact text, ``61/2``."""
    if isinstance(value, dict):
        return {str(key): exact(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, (Fraction, float)):
        return str(Fraction(value))
    raise TypeError(f"a read model holds {type(value).__name__} {value!r}, which a history cannot pin exactly")
