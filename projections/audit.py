"""The auditor's report on a match: who changed what, when and why."""

from __future__ import annotations

import msgspec
from matchledger.ledger.log_store import StoredEvent
from matchledger.ledger.verify import Finding

_CORRECTIONS = ("SubmissionVoided", "SubmissionCorrected", "RoundReopened", "RuleAmended", "MatchAbandoned")


def _forced_close(kind: str, event) -> bool:
    """A round the host closed although submissions were missing (it carries a reason)."""
    return kind == "RoundClosed" and event.reason is not msgspec.UNSET


def audit_report(match_id: str, rows: list[StoredEvent], findings: list[Finding]) -> dict:
    """Corrections (with forced closes and an abandonment: whatever the host did with a
    reason), amendments, host-entered announcements, superseded submissions and notes,
    each with who recorded it and when, plus the verdict of verification."""
    corrections, host_entered, notes, superseded = [], [], [], []
    latest: dict[tuple[str, int], int] = {}
    for row in rows:
        event = row.event()
        base = {"seq": row.seq, "event": row.kind, "actor": row.actor, "recorded_at": row.recorded_at}
        if row.kind in _CORRECTIONS or _forced_close(row.kind, event):
            entry = dict(base, reason=event.reason)
            if hasattr(event, "target_seq"):
                entry["target_seq"] = event.target_seq
            if hasattr(event, "tokens"):
                entry["tokens"] = list(event.tokens)
            if row.kind in ("RoundReopened", "RoundClosed"):
                entry["round"] = event.round
            if row.kind == "RoundClosed":
                entry["missing"] = [] if event.missing is msgspec.UNSET else list(event.missing)
            if row.kind == "RuleAmended":
                entry.update(option=event.option, value=event.value, from_round=event.from_round)
            corrections.append(entry)
        if row.kind in ("RoundClosed", "OutcomeAnnounced") and getattr(event, "source", "computed") == "host":
            host_entered.append(dict(base, round=getattr(event, "round", None)))
        elif row.kind == "NoteAdded":
            notes.append(dict(base, text=event.text))
        elif row.kind == "SubmissionRecorded":
            key = (event.participant, event.round)
            if key in latest:
                superseded.append({"seq": latest[key], "participant": event.participant, "round": event.round,
                                   "superseded_by": row.seq})
            latest[key] = row.seq
    return {
        "match": match_id,
        "events": len(rows),
        "head": {"seq": rows[-1].seq, "hash": rows[-1].hash} if rows else None,
        "verified": not findings,
        "findings": [f.to_json() for f in findings],
        "corrections": corrections,
        "host_announcements": host_entered,
        "resubmissions": superseded,
        "notes": notes,
    }
