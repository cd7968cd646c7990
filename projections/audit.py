"""The auditor's report on a match: who changed what, when and why."""

from __future__ import annotations

from typing import TypeGuard

import msgspec

from matchledger.engine.state import HOST, MatchState
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.events import (
    ContractRecorded,
    Event,
    MatchAbandoned,
    NoteAdded,
    RoundClosed,
    RoundReopened,
    RuleAmended,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
)
from matchledger.ledger.log_store import StoredEvent
from matchledger.ledger.verify import Finding

from .fold import Replayer
from .lateness import is_late
from .supersession import fates, void_effect

#: The events a host records with a reason (each row's kind is its event's type: the
#: rows audited are those the chain vouches for, and the chain checks that too).
_CORRECTIONS = (SubmissionVoided, SubmissionCorrected, RoundReopened, RuleAmended, MatchAbandoned)


def _forced_close(event: Event) -> TypeGuard[RoundClosed]:
    """A round the host closed although submissions were missing (it carries a reason)."""
    return isinstance(event, RoundClosed) and event.reason is not msgspec.UNSET


def audit_report(match_id: str, rows: list[StoredEvent], findings: list[Finding]) -> dict:
    """Corrections (with forced closes and an abandonment: whatever the host did with a
    reason), amendments, host-entered announcements, superseded submissions and notes,
    each with who recorded it and when, plus the verdict of verification.  What became
    of each event is the one account `log` marks (projections.supersession): ``fates``
    lists every event that no longer counts, ``resubmissions`` the submissions of those
    superseded, and a void says what it brought back and took back."""
    corrections, host_entered, notes = [], [], []
    state = _folded(match_id, rows)
    kinds = [(row.seq, row.kind) for row in rows]
    account = {} if state is None else fates(state, HOST, kinds)
    for row in rows:
        event = row.event()
        base = {"seq": row.seq, "event": row.kind, "actor": row.actor, "recorded_at": row.recorded_at}
        if isinstance(event, _CORRECTIONS) or _forced_close(event):
            entry = dict(base, reason=event.reason)
            if isinstance(event, (SubmissionVoided, SubmissionCorrected)):
                entry["target_seq"] = event.target_seq
            if isinstance(event, SubmissionCorrected):
                entry["tokens"] = list(event.tokens)
            if isinstance(event, (RoundReopened, RoundClosed)):
                entry["round"] = event.round
            if isinstance(event, RoundClosed):
                entry["missing"] = [] if event.missing is msgspec.UNSET else list(event.missing)
            if isinstance(event, RuleAmended):
                entry.update(option=event.option, value=event.value, from_round=event.from_round)
            if isinstance(event, SubmissionVoided) and state is not None:
                entry.update(_void_entry(state, row.seq, kinds))
            corrections.append(entry)
        if row.kind in ("RoundClosed", "OutcomeAnnounced") and getattr(event, "source", "computed") == "host":
            host_entered.append(dict(base, round=getattr(event, "round", None)))
        elif isinstance(event, NoteAdded):
            notes.append(dict(base, text=event.text))
    listed = _fate_entries(state, rows, account)
    late = _late_entries(match_id, rows)
    report = {
        "match": match_id,
        "events": len(rows),
        "head": {"seq": rows[-1].seq, "hash": rows[-1].hash} if rows else None,
        "verified": not findings,
        "findings": [f.to_json() for f in findings],
        "corrections": corrections,
        "host_announcements": host_entered,
        "resubmissions": [
            {"seq": e["seq"], "participant": e["participant"], "round": e["round"], "superseded_by": e["by"]}
            for e in listed
            if e["how"] == "superseded" and "round" in e
        ],
        "notes": notes,
        "fates": listed,
    }
    if late is not None:  # a match with deadlines: one without reads as before they existed
        report["late"] = late
    return report


def _late_entries(match_id: str, rows: list[StoredEvent]) -> list[dict] | None:
    """The submissions recorded after their round's deadline (None: the match has no
    deadline), each with whose and when (``lateness``)."""
    if not any(row.kind == "DeadlineSet" for row in rows):
        return None
    late, replayer = [], Replayer(match_id)
    for row in rows:
        event = row.event()
        if is_late(row, event, replayer.state):
            assert isinstance(event, SubmissionRecorded)  # only a submission is late
            before = replayer.state
            assert before is not None
            late.append(
                {
                    "seq": row.seq,
                    "participant": event.participant,
                    "round": event.round,
                    "recorded_at": row.recorded_at,
                    "deadline": before.deadlines[event.round],
                    "actor": row.actor,
                }
            )
        try:
            replayer.feed(row.seq, event)
        except MatchledgerError:
            break
    return late


def _folded(match_id: str, rows: list[StoredEvent]) -> MatchState | None:
    """The match as ``rows`` leave it, or as far as they can be folded (a log verify
    has findings in may hold an event no fold takes: the account stops before it)."""
    replayer = Replayer(match_id)
    for row in rows:
        try:
            replayer.feed(row.seq, row.event())
        except MatchledgerError:
            break
    return replayer.state


def _void_entry(state: MatchState, seq: int, kinds: list[tuple[int, str]]) -> dict:
    effect = void_effect(state, seq, kinds)
    entry: dict = {}
    if effect is not None and effect.counts_again is not None:
        entry["counts_again"] = effect.counts_again
    if effect is not None and effect.takes_back:
        entry["takes_back"] = [seq for seq, _kind in effect.takes_back]
    return entry


def _fate_entries(state: MatchState | None, rows: list[StoredEvent], account: dict) -> list[dict]:
    """Each event that no longer counts: its seq and kind, whose submission (or
    contract) for which round it was, how it stopped counting and by which seq."""
    by_seq = {row.seq: row for row in rows}
    submissions = (
        {}
        if state is None
        else {
            s.seq: s
            for by_participant in state.submissions.values()
            for history in by_participant.values()
            for s in history
        }
    )
    listed = []
    for seq, fate in account.items():
        entry: dict = {"seq": seq, "event": by_seq[seq].kind}
        submission = submissions.get(seq)
        if submission is not None:
            entry.update(participant=submission.participant, round=submission.round)
        elif entry["event"] == "ContractRecorded":
            contract = by_seq[seq].event()
            assert isinstance(contract, ContractRecorded)  # its kind (which the chain holds to its type)
            entry["participant"] = contract.participant
        entry.update(how=fate.how, by=fate.by)
        listed.append(entry)
    return listed
