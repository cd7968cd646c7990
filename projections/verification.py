"""Verification, the one implementation every front door and tool uses: the hash chain
(and a published head), then the re-derivation of every announcement from the moves,
then the stored snapshot against the state the log gives.

A match's first finding stops its verification (later findings could only be caused by
the first).  `verify`, `verify --all` (in parallel processes or not), `audit`, `import`,
`diff` and the benchmark all come here.
"""

from __future__ import annotations

import re
from datetime import datetime

import msgspec
from msgspec import UNSET

from matchledger.engine.deadlines import NOW
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import GameNotInstalled, MalformedInput, VerificationFailed
from matchledger.ledger.events import SALT_BYTES, DeadlineSet, MatchAbandoned, MatchCreated
from matchledger.ledger.log_store import LogStore, StoredEvent
from matchledger.ledger.portable import parse_lines
from matchledger.ledger.validation import check_actor, quoted
from matchledger.ledger.verify import Finding, head_finding, verify_chain

from . import snapshots
from .fold import replay
from .rederive import rederivation, rederive


class MatchReport(msgspec.Struct, frozen=True):
    """What verifying one match found (nothing, when ``ok``)."""

    match_id: str
    events: int
    findings: list[Finding] = msgspec.field(default_factory=list)
    #: the seq of the event that abandoned the match (None: not abandoned)
    abandoned: int | None = None
    #: the match's game, where it could not be verified because that game is not
    #: installed here (None: it was verified)
    not_installed: str | None = None

    @property
    def ok(self) -> bool:
        return not self.findings and self.not_installed is None

    def to_json(self) -> dict:
        report = {
            "match": self.match_id,
            "events": self.events,
            "ok": self.ok,
            "findings": [f.to_json() for f in self.findings],
        }
        if self.abandoned is not None:
            report["abandoned_at"] = self.abandoned
        if self.not_installed is not None:
            report["not_installed"] = self.not_installed
        return report


def verify_stored(store: LogStore, match_id: str, head: tuple[int, str] | None = None) -> MatchReport:
    """Verify a match as ``store`` holds it: chain, head, re-derivation, snapshot."""
    rows = store.rows(match_id)
    events: list = []
    findings = verify_chain(match_id, rows, head, decoded=events)
    if not findings:
        findings = envelope_findings(match_id, rows, events)
    if not findings:
        created = events[0][1] if events else None
        revision = snapshots.revision(created.game) if isinstance(created, MatchCreated) else None
        stored = store.snapshot(match_id, revision) if revision else None
        try:
            findings = rederive(match_id, events, bodies=[row.body for row in rows], snapshot=stored and stored[:2])
        except GameNotInstalled as exc:  # the chain holds; the rules to re-derive it are not here
            return MatchReport(match_id, len(rows), [], None, not_installed=exc.game)
    abandoned = next((seq for seq, event in events if isinstance(event, MatchAbandoned)), None)
    return MatchReport(match_id, len(rows), findings, abandoned)


#: A time as the application records it (``utc_now``): UTC, to the second or finer.
_RECORDED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z")
#: A salt as the application draws it (``new_salt``): lowercase hex.
_SALT = re.compile(f"[0-9a-f]{{{2 * SALT_BYTES}}}")


def envelope_findings(match_id: str, rows: list[StoredEvent], events: list) -> list[Finding]:
    """The first envelope the command line would not have recorded: an actor it refuses
    (``check_actor``: what `--actor` accepts), a time that is not one it writes, a salt
    that is not one it draws.  Every way in meets the same checks (`import`, a foreign
    database through `verify`)."""
    actors: set[str] = set()  # checked already (a match has a few)
    for row, (_seq, event) in zip(rows, events):
        if row.actor not in actors:
            try:
                actors.add(check_actor(row.actor))
            except MalformedInput as exc:
                return [Finding(match_id, row.seq, f"the envelope's actor is not one the command line records: {exc}")]
        if not (
            isinstance(row.recorded_at, str) and _RECORDED_AT.fullmatch(row.recorded_at) and _is_time(row.recorded_at)
        ):
            return [
                Finding(
                    match_id,
                    row.seq,
                    f"recorded_at {quoted(row.recorded_at)} is not a UTC time as the ledger "
                    "records it (2026-12-01T21:28:28.123456Z)",
                )
            ]
        if type(event) is DeadlineSet and not _same_time(event.now, row.recorded_at):
            # A door records a deadline at the time it read: one recorded at another time
            # (later, or already past when it was written) is forged.
            return [
                Finding(
                    match_id,
                    row.seq,
                    f"the deadline says it was set at {quoted(event.now)}, not at the time recorded "
                    f"with it ({row.recorded_at})",
                )
            ]
        if event.salt is not UNSET and not _SALT.fullmatch(event.salt):
            return [
                Finding(
                    match_id,
                    row.seq,
                    f"the salt {quoted(event.salt)} is not one the ledger draws "
                    f"({2 * SALT_BYTES} lowercase hex digits)",
                )
            ]
    return []


def _same_time(now: object, recorded_at: str) -> bool:
    """Whether ``now`` (the time a door read) is the time ``recorded_at`` says, to the
    digit; a ``now`` of another shape is left to re-derivation, which refuses it."""
    found, recorded = (NOW.fullmatch(t) if isinstance(t, str) else None for t in (now, recorded_at))
    if found is None or recorded is None:
        return True
    return (found[1], (found[2] or ".").ljust(10, "0")) == (recorded[1], (recorded[2] or ".").ljust(10, "0"))


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


class VerifiedExport(msgspec.Struct, frozen=True):
    """An exported match whose chain holds and whose every event the rules accept,
    ready to be imported; ``state`` is the replay of exactly those rows."""

    match_id: str
    rows: list[StoredEvent]
    state: MatchState
    findings: list[Finding]  # what re-derivation found (a disputed match imports as it is)


def verify_export(data: bytes, name: str, head: tuple[int, str] | None = None) -> VerifiedExport:
    """Parse and verify an export (JSON Lines, see ``ledger.portable``) before anything is
    written: a broken chain, an export that does not hold ``head`` (the seq and hash, or
    hash prefix, an auditor was told to expect), an event the rules cannot replay, or a
    command the rules refuse when decided again (re-derivation's refusals), is refused."""
    rows = parse_lines(data, name)
    match_id = rows[0].match_id
    events: list = []
    chain = verify_chain(match_id, rows, decoded=events)
    if chain:
        raise VerificationFailed(f"{name}: broken chain, nothing imported: {chain[0].describe()}", chain)
    unpinned = head_finding(match_id, [row.hash for row in rows], head)
    if unpinned:
        assert head is not None  # without a head, there is nothing to find
        raise VerificationFailed(
            f"{name} does not hold the head {head[0]}:{head[1]}, nothing imported: {unpinned[0].describe()}", unpinned
        )
    envelope = envelope_findings(match_id, rows, events)
    if envelope:
        raise VerificationFailed(
            f"{name}: an event the command line would not have recorded, nothing imported: {envelope[0].describe()}",
            envelope,
        )
    rederived = rederivation(match_id, events, bodies=[row.body for row in rows])
    if rederived.refused:
        # The rules would not have written this log: it enters no database.  (What a
        # host announced otherwise than the rules is a dispute, imported as it is.)
        raise VerificationFailed(
            f"{name}: the rules would not have written this log, nothing imported: {rederived.findings[0].describe()}",
            rederived.findings,
        )
    state = replay(match_id, events)  # the state to import with (the rules accept every event)
    return VerifiedExport(match_id, rows, state, rederived.findings)
