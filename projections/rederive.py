"""Re-derivation: replay a match, re-deciding every recorded command, and recompute
every recorded announcement.

The chain proves the log was not altered after the fact; this proves that the log is
one the rules could have written.  Each event that a command records first (a
submission, a close, a void, a note, ...) is turned back into that command
(``Game.recorded_command``) and decided against the state before it, with the very
``Game.decision`` the command line runs: a refusal is a finding naming the seq and the
rules' reason, and so is a decision whose events are not the recorded ones (the
recorder's salt aside).  The recorded events are then folded with the decision's work,
so a round is resolved once.  The creation is checked as `new` checks it.  What the host
announced (each round's reveal, each private notice, the final outcome) is compared with
what the rules give; the first divergence is reported precisely.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import msgspec
from msgspec.structs import astuple

from matchledger.ledger.codec import encode
from matchledger.ledger.errors import GameNotInstalled, MatchledgerError
from matchledger.ledger.events import (
    ANNOUNCEMENTS,
    ContractRecorded,
    Event,
    MatchAbandoned,
    MatchCreated,
    NoteAdded,
    OutcomeAnnounced,
    RoundReopened,
    StateCheckpointed,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
    salted,
)
from matchledger.ledger.verify import Finding

from . import snapshots
from .fold import Replayer

_IGNORED_FIELDS = {"source", "v", "type"}
#: What a re-decided event is compared on: everything but its schema version (an older
#: body, upcast) and its type tag (compared apart).
_DECIDED_IGNORED = {"v", "type"}
#: The fields of an announcement that hold what was announced: where a recorded one
#: differs from the rules there, the match is disputed (and still imports as it is);
#: anywhere else, the log is not one the rules could have written.
_ANNOUNCED_FIELDS = ("public", "private", "outcome")
#: Events whose every field is of a fixed type (text, whole numbers, lists of text), so
#: that two of them are equal exactly when they encode alike: compared field by field.
_TYPED = frozenset(
    {
        SubmissionRecorded,
        ContractRecorded,
        NoteAdded,
        SubmissionVoided,
        SubmissionCorrected,
        RoundReopened,
        MatchAbandoned,
    }
)


def first_difference(
    recorded: Any, recomputed: Any, path: str = "", ignored=_IGNORED_FIELDS
) -> tuple[str, Any, Any] | None:
    """The first path at which two JSON values differ, in a stable order (``ignored``:
    top-level keys left out)."""
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        for key in sorted(set(recorded) | set(recomputed), key=str):
            if not path and key in ignored:
                continue
            child = f"{path}.{key}" if path else str(key)
            if key not in recorded:
                return child, None, recomputed[key]
            if key not in recomputed:
                return child, recorded[key], None
            found = first_difference(recorded[key], recomputed[key], child)
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(recomputed, list):
        for index, (a, b) in enumerate(zip(recorded, recomputed)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(recorded) != len(recomputed):
            return f"{path}.length", len(recorded), len(recomputed)
        return None
    if (
        recorded != recomputed
        or type(recorded) is not type(recomputed)
        and not (_number(recorded) and _number(recomputed))
    ):
        return path, recorded, recomputed
    return None


def _number(value: Any) -> bool:
    """A JSON number (2 and 2.0 are one value); never a boolean, though Python counts
    ``False == 0`` (JSON's ``false`` and ``0`` are two values, and SQL reads them apart)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Rederived(NamedTuple):
    """What re-derivation found (at most one finding: the first), and whether it is a
    refusal (the rules would not have written the log) rather than a dispute over what
    was announced."""

    findings: list[Finding]
    refused: bool = False


def rederive(
    match_id: str,
    pairs: Iterable[tuple[int, Event]],
    bodies: Sequence[str] | None = None,
    snapshot: tuple[int, bytes] | None = None,
) -> list[Finding]:
    """Findings for the first event that the rules do not reproduce (see
    :func:`rederivation`)."""
    return rederivation(match_id, pairs, bodies, snapshot).findings


def rederivation(
    match_id: str,
    pairs: Iterable[tuple[int, Event]],
    bodies: Sequence[str] | None = None,
    snapshot: tuple[int, bytes] | None = None,
) -> Rederived:
    """Re-decide and re-derive the match; the first finding, and what kind it is.

    ``bodies``: the stored bodies the events were decoded from, one per pair, if known.
    An event whose stored body already is the recomputed encoding is not encoded again:
    engine output decoded and re-encoded gives back the same bytes
    (tests/audit/test_fast_paths.py), so the comparison's answer is the same.

    ``snapshot``: (seq, body) of the state snapshot stored for the match, which reads
    would start from; it is compared with the state this replay reaches at that seq.
    """
    replayer = Replayer(match_id)
    snapshot_seq, snapshot_body = snapshot if snapshot is not None else (None, b"")
    #: the rest of the last decision: (event, work, what the rules give in its place)
    pending: list[tuple[Event, Any, Event | None]] = []
    for index, (seq, event) in enumerate(pairs):
        body = None if bodies is None else bodies[index]
        try:
            if replayer.state is None:
                replayer.feed(seq, event)
                assert isinstance(event, MatchCreated)  # the fold takes no other first event
                found = _creation_finding(match_id, seq, replayer.game, event, body)
                if found is not None:
                    return Rederived([found], refused=True)
            elif pending or not isinstance(event, StateCheckpointed):
                if not pending:
                    try:
                        decision = replayer.decision_for(seq, event)
                    except MatchledgerError as exc:
                        return Rederived(
                            [Finding(match_id, seq, f"{type(event).__name__} is refused by the rules: {exc}")], True
                        )
                    if decision is None:  # an event only a decision gives, with none before it
                        return Rederived([_unbidden(match_id, seq, event)], refused=True)
                    pending = list(zip(decision.events, decision.work, decision.rules))
                    pending.reverse()  # taken from the end, in the decision's order
                decided, work, rules = pending.pop()
                kind = type(event)
                if not (kind is type(decided) and kind in _TYPED and astuple(event)[2:] == astuple(decided)[2:]):
                    verdict = _decided_finding(match_id, seq, event, decided, body)  # (the same test, and the rest)
                    if verdict is not None:
                        return verdict
                replayer.feed(seq, event, work)
                if rules is not None:
                    rules = in_recorded_shape(event, rules)
                    found = _announcement_finding(
                        match_id, seq, event, salted(rules, event.salt) if event.salt else rules, None
                    )
                    if found is not None:
                        return Rederived([found])
            else:
                found = _checkpoint_finding(match_id, seq, event, replayer.state.game, snapshot_seq, snapshot_body)
                if found is not None:
                    return Rederived([found], refused=True)
                replayer.feed(seq, event)
            assert replayer.state is not None  # every way above folded this event
            if seq == snapshot_seq and snapshots.holds_another_state(snapshot_body, replayer.state):
                return Rederived([_snapshot_finding(match_id, seq)], refused=True)
        except GameNotInstalled:
            raise  # not a log the rules refuse: a game this installation lacks
        except MatchledgerError as exc:
            return Rederived([Finding(match_id, seq, f"replay stops here: {exc}")], refused=True)
    # A log may end inside a decision (cut short after it was exported): the events it
    # holds are the rules', and only a published head tells what came after.
    return Rederived([])


def _creation_finding(match_id: str, seq: int, game, created: MatchCreated, body: str | None) -> Finding | None:
    """The creation checked as `new` checks it, and compared with what `new` records."""
    try:
        made = game.recreation(match_id, created)
    except MatchledgerError as exc:
        return Finding(match_id, seq, f"MatchCreated is refused by the rules: {exc}")
    if created.salt:
        made = salted(made, created.salt)
    return _difference(match_id, seq, created, made, body, "MatchCreated differs from what creating the match records")


def in_recorded_shape(event: Event, expected: Event) -> Event:
    """``expected``, an outcome the rules give, in the shape of the recorded ``event``:
    one recorded before contract results were announced is compared without them
    (``engine.announced.in_recorded_shape``)."""
    if isinstance(event, OutcomeAnnounced) and isinstance(expected, OutcomeAnnounced):
        # imported here: the first outcome compared pays for it, not every command's start-up
        from matchledger.engine.announced import in_recorded_shape as in_recorded_shape_of

        outcome, public = in_recorded_shape_of(event.outcome, expected.outcome, expected.public)
        if outcome is not expected.outcome or public is not expected.public:
            return msgspec.structs.replace(expected, outcome=outcome, public=public)
    return expected


def _decided_finding(match_id: str, seq: int, event: Event, decided: Event, body: str | None) -> Rederived | None:
    """``event`` compared with ``decided``, the event its command gives at this place: a
    difference in what an announcement announced is a dispute, any other a refusal."""
    kind = type(event)
    if kind is type(decided) and kind in _TYPED:
        if astuple(event)[2:] == astuple(decided)[2:]:
            return None  # every field but the version and the salt equal (of types equal only when their JSON is)
    else:
        decided = in_recorded_shape(event, decided)  # an outcome: none of the typed kinds
    if event.salt:
        decided = salted(decided, event.salt)  # the salt is the recorder's, not a rule's
    if type(event) is not type(decided):
        return Rederived(
            [
                Finding(
                    match_id,
                    seq,
                    f"{type(event).__name__} is not what its command records here "
                    f"(the rules record {type(decided).__name__})",
                )
            ],
            refused=True,
        )
    found = _difference(match_id, seq, event, decided, body, f"{type(event).__name__} differs from what the rules give")
    if found is None:
        return None
    assert found.field is not None  # _difference names where they part
    disputed = isinstance(event, ANNOUNCEMENTS) and found.field.startswith(_ANNOUNCED_FIELDS)
    return Rederived([found], refused=not disputed)


def _difference(
    match_id: str, seq: int, event: Event, expected: Event, body: str | None, problem: str
) -> Finding | None:
    if not _differs(event, encode(expected), body):
        return None
    diff = first_difference(msgspec.to_builtins(event), msgspec.to_builtins(expected), ignored=_DECIDED_IGNORED)
    if diff is None:
        return None
    field, recorded, recomputed = diff
    return Finding(match_id, seq, problem, field, recorded, recomputed)


def _announcement_finding(match_id: str, seq: int, event: Event, expected: Event, body: str | None) -> Finding | None:
    """``event``, an announcement, compared with what the rules announce in its place."""
    if not _differs(event, encode(expected), body):
        return None
    recorded, recomputed = msgspec.to_builtins(event), msgspec.to_builtins(expected)
    if isinstance(event, OutcomeAnnounced) and event.source == "host":
        # A host enters only the results; the public subset is not theirs to state.
        recorded.pop("public", None)
        recomputed.pop("public", None)
    diff = first_difference(recorded, recomputed)
    if diff is None:
        return None
    field, recorded, recomputed = diff
    return Finding(
        match_id, seq, f"{type(event).__name__} differs from what the rules give", field, recorded, recomputed
    )


def _unbidden(match_id: str, seq: int, event: Event) -> Finding:
    return Finding(
        match_id,
        seq,
        f"{type(event).__name__} follows no command that records it (the rules record one only "
        "as part of another: a resolved turn with its submission, a computed outcome with the last close or turn)",
    )


def _checkpoint_finding(
    match_id: str, seq: int, event: StateCheckpointed, game: str, snapshot_seq: int | None, snapshot_body: bytes
) -> Finding | None:
    """A checkpoint records the state right before it; and the stored snapshot of that
    state, by this engine, must be the very bytes it vouches for (reads trust nothing else)."""
    misplaced = checkpoint_out_of_place(match_id, seq, event)
    if misplaced is not None:
        return misplaced
    if (
        snapshot_seq == event.seq
        and event.revision == snapshots.revision(game)
        and snapshots.digest(snapshot_body) != event.digest
    ):
        return Finding(
            match_id,
            seq,
            f"the stored snapshot after event {event.seq} is not the one this checkpoint vouches for (reads "
            "ignore it; a new checkpoint replaces it)",
            "digest",
            snapshots.digest(snapshot_body),
            event.digest,
        )
    return None


def checkpoint_out_of_place(match_id: str, seq: int, event: StateCheckpointed) -> Finding | None:
    """A checkpoint records the state right before it: the log contradicts itself when
    one at ``seq`` says otherwise (events were inserted or removed before it, and the
    chain re-hashed).  Reads refuse such a log too (`reading.py`)."""
    if event.seq != seq - 1:
        return Finding(
            match_id, seq, f"the checkpoint records the state after event {event.seq}, not the event before it"
        )
    return None


def _snapshot_finding(match_id: str, seq: int) -> Finding:
    return Finding(
        match_id,
        seq,
        "the stored snapshot after this event holds another state than the log gives, and reads start "
        "from it (a new checkpoint replaces it)",
    )


def _differs(event: Event, expected: bytes, body: str | None) -> bool:
    """Whether ``event`` encodes to other bytes than ``expected`` (an encoding); ``body``
    is the stored text ``event`` was decoded from, if known."""
    if body is not None and body.encode("utf-8") == expected:
        return False
    return encode(event) != expected
