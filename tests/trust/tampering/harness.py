"""Tampering with a matchledger database as someone holding the file would: plain sqlite3
with the append-only triggers dropped.  Shared by the tamper suites.

- :func:`build` records the fixture match of each game twice: finished (the whole
  script, then a host note: the last checkpoint has an event after it) and unfinished
  (the script cut short, checkpointed on the way with `matchledger checkpoint`).
- Each tamper kind edits one match of a copy and returns a :class:`Tamper`: the seq
  `verify` names, and what a read of each part of the log must then show.
- :func:`reads` lists the read commands tried against a match, each with the parts of
  the log it reads.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import msgspec

from matchledger.ledger.codec import GENESIS_HASH, encode, envelope_hash
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.events import NoteAdded
from matchledger.ledger.store import StoredEvent
from matchledger.projections import snapshots
from matchledger.projections.fold import replay
from tests.helpers import REPO, invoke
from tests.reliability.support import FIXTURE_MATCHES, match_id_of

#: whose view (and knowledge, and explanation) is read: a player, a pw guest, a photographer
PARTICIPANT = {"lca": "bob", "pw": "zed", "photographer": "bob"}
#: another ruling for `rescore` (pw has no ruleset options)
RESCORE = {
    "lca": ("filming_lights_divisor=1",),
    "photographer": ("row_points=1:2,2:4,3:6,4:8,5:10,6:12,7:14",),
}
FORGED_NOTE = "forged by mallory"


@dataclass(frozen=True)
class Match:
    game: str
    id: str
    finished: bool
    last: int  # the last seq
    checkpoint: int  # seq of the last StateCheckpointed; its snapshot holds the state after checkpoint - 1

    @property
    def participant(self) -> str:
        return PARTICIPANT[self.game]

    @property
    def label(self) -> str:
        return f"{self.game}-{'finished' if self.finished else 'open'}"


# --------------------------------------------------------------------------- the matches


def _commands(script: Path) -> list[str]:
    return [line for line in script.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _renamed(line: str, old: str, new: str) -> str:
    return re.sub(rf"(?<= ){re.escape(old)}(?= |$)", new, line, count=1)


def build(path: Path, folder: Path) -> list[Match]:
    """Record the fixture match of each game finished and unfinished into ``path``."""
    scripts = []
    for game, script in FIXTURE_MATCHES.items():
        match_id = match_id_of(REPO / script)
        lines = _commands(REPO / script)
        finished = folder / f"{game}-finished.txt"
        finished.write_text("\n".join(lines + [f'note {match_id} "a word after the match"']) + "\n")
        open_id = f"{match_id}-open"
        cut = [_renamed(line, match_id, open_id) for line in lines[: len(lines) * 17 // 20]]
        middle = len(lines) * 3 // 5
        unfinished = folder / f"{game}-open.txt"
        unfinished.write_text("\n".join(cut[:middle] + [f"checkpoint {open_id}"] + cut[middle:]) + "\n")
        scripts += [(game, match_id, True, finished), (game, open_id, False, unfinished)]
    cwd = os.getcwd()
    os.chdir(REPO)  # the scripts name studio files relative to the repository
    try:
        for _game, _id, _finished, script in scripts:
            invoke(path, "script", script)
    finally:
        os.chdir(cwd)
    matches = []
    conn = sqlite3.connect(path)
    try:
        for game, match_id, finished, _script in scripts:
            kinds = [
                kind for (kind,) in conn.execute("SELECT kind FROM events WHERE match_id = ? ORDER BY seq", (match_id,))
            ]
            checkpoint = max(i for i, kind in enumerate(kinds, start=1) if kind == "StateCheckpointed")
            matches.append(Match(game, match_id, finished, len(kinds), checkpoint))
    finally:
        conn.close()
    for match in matches:
        outcome = json.loads(invoke(path, "outcome", match.id, "--json").stdout)
        assert outcome["finished"] is match.finished, match
        assert 2 < match.checkpoint < match.last, match  # a checkpoint with events before and after it
    return matches


# --------------------------------------------------------------------------- raw access


def raw(path: Path, *statements) -> None:
    """Edit the file with plain sqlite3 as a forger covering their tracks would: the
    append-only triggers dropped, the edits made, the triggers put back (so that no
    read has to repair them)."""
    conn = sqlite3.connect(path)
    try:
        triggers = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
        ).fetchall()
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
        for statement in statements:
            conn.execute(*statement)
        for (sql,) in triggers:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def rows_of(path: Path, match_id: str) -> list[StoredEvent]:
    conn = sqlite3.connect(path)
    try:
        return [
            StoredEvent(*row)
            for row in conn.execute(
                "SELECT match_id, seq, kind, body, recorded_at, actor, prev_hash, hash FROM events "
                "WHERE match_id = ? ORDER BY seq",
                (match_id,),
            )
        ]
    finally:
        conn.close()


def snapshot_of(path: Path, match_id: str) -> tuple[int, str, str, bytes]:
    """(seq, event hash, revision, body) of the match's stored snapshot."""
    conn = sqlite3.connect(path)
    try:
        seq, digest, revision, body = conn.execute(
            "SELECT seq, hash, revision, body FROM snapshots WHERE match_id = ?", (match_id,)
        ).fetchone()
        return seq, digest, revision, bytes(body)
    finally:
        conn.close()


def set_row(path: Path, match_id: str, seq: int, **values) -> None:
    assignments = ", ".join(f"{column} = ?" for column in values)
    raw(path, (f"UPDATE events SET {assignments} WHERE match_id = ? AND seq = ?", (*values.values(), match_id, seq)))


def set_snapshot(path: Path, match_id: str, **values) -> None:
    assignments = ", ".join(f"{column} = ?" for column in values)
    raw(path, (f"UPDATE snapshots SET {assignments} WHERE match_id = ?", (*values.values(), match_id)))


def rewrite_from(path: Path, match_id: str, seq: int, rows: list[StoredEvent]) -> list[StoredEvent]:
    """Replace the match's rows from ``seq`` on by ``rows`` (their bodies, kinds, actors
    and times), renumbered from ``seq`` and every hash recomputed: a consistent chain, as
    a forger who knows the hash function writes it.  Returns the rows written."""
    before = rows_of(path, match_id)
    prev_hash = before[seq - 2].hash if seq > 1 else GENESIS_HASH
    written = []
    for number, row in enumerate(rows, start=seq):
        digest = envelope_hash(
            encode(row.actor),
            row.body.encode("utf-8"),
            row.kind,
            encode(match_id),
            prev_hash,
            encode(row.recorded_at),
            number,
        )
        written.append(StoredEvent(match_id, number, row.kind, row.body, row.recorded_at, row.actor, prev_hash, digest))
        prev_hash = digest
    raw(
        path,
        ("DELETE FROM events WHERE match_id = ? AND seq >= ?", (match_id, seq)),
        *[("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", msgspec.structs.astuple(row)) for row in written],
    )
    return written


def with_body(row: StoredEvent, event) -> StoredEvent:
    return msgspec.structs.replace(row, kind=type(event).__name__, body=encode(event).decode())


def forged_note(like: StoredEvent) -> StoredEvent:
    """A host note nobody recorded, dressed as the row ``like`` (actor, time)."""
    return with_body(like, NoteAdded(text=FORGED_NOTE))


def forged_snapshot_body(body: bytes) -> bytes:
    """The snapshot's state decoded, changed where the scores show it, and re-encoded:
    well-formed, the same match, seq, game and engine; only the content lies."""
    state = snapshots.decode_state(body)
    g, first = state.g, state.participants[0]
    if state.game == "lca":
        g.lights.scores[first] = g.lights.scores.get(first, 0) + 1000
    elif state.game == "pw":
        totals = g.rounds[max(g.rounds)].totals
        totals[first] = totals.get(first, 0) + 1000
    else:
        colour = sorted(g.film[first])[0]
        g.film[first][colour] = g.film[first][colour] + [(f"{colour}-9", True)] * 3
    forged = snapshots.encode_state(state)
    assert forged != body and snapshots.decode_state(forged) == state
    return forged


# --------------------------------------------------------------------------- what a read must show

SAME = "same"  # byte-identical to what it showed before the tampering
REFERENCE = "reference"  # what the (rewritten) log alone gives: the match replayed from its first event
FORGED = "forged"  # a forged snapshot, vouched for by a rewritten checkpoint (verify finds it)


@dataclass
class Tamper:
    """What one tampering did, and what reads and verify must make of it.

    ``first_bad``: the seq `verify` names (with ``head``, the head published before, when
    the kind needs one).  Exactly one of three shapes:

    - evident (``touched``): the rows at ``changed`` differ, from ``touched`` on, and the
      chain no longer holds there.  A read that reaches a changed row refuses naming
      ``first_bad``; one that does not (an earlier ``--at``, or one that starts from a
      snapshot the log still vouches for, ``vouched``, and reads no changed row after
      it) shows exactly what it showed before.
    - a consistent rewrite (``rewritten``): rows from ``rewritten`` on were written
      anew with every hash recomputed.  A read of rows before it shows what it showed
      before; a read reaching it shows what the rewritten log gives (``REFERENCE``),
      unless it starts from a snapshot the log vouches for (``from_snapshot`` says what
      that shows), or reaches ``refused_at``, a checkpoint the rewritten log
      contradicts (refused, naming it).
    - truncated (``truncated``: the seq it now ends at): every read shows what the
      shorter log gives (``REFERENCE``), as if the match had stood there.
    """

    first_bad: int
    head: tuple[int, str] | None = None
    touched: int | None = None
    changed: frozenset = frozenset()  # every seq whose row differs (or is gone)
    vouched: bool = False  # the snapshot and its checkpoint still stand
    rewritten: int | None = None
    refused_at: int | None = None
    from_snapshot: str | None = None  # SAME, REFERENCE or FORGED: what a read resumed from the snapshot shows
    truncated: int | None = None
    #: what verify names with no head: 0 ``first_bad``, a seq, (lowest, highest), or None: nothing
    verify_without_head: int | tuple[int, int] | None = 0
    #: where `diff` against the untouched copy says the logs part (None: they do not)
    diff_parts_at: int | None = 0

    def expect(self, match: Match, parts: tuple[tuple[str, int], ...]) -> tuple[str, int | None]:
        """(SAME | REFERENCE | FORGED | "refused", the seq named) for a read of ``parts``
        (see :class:`Read`): refused if any part is; else what the parts it shows show."""
        outcomes = [self._part(match, "state" if scope == "view" else scope, upto) for scope, upto in parts]
        refused = {seq for outcome, seq in outcomes if outcome == "refused"}
        if refused:
            assert len(refused) == 1, outcomes
            return "refused", refused.pop()
        shown = {outcome for (outcome, _seq), (scope, _upto) in zip(outcomes, parts) if scope != "view"}
        return next((outcome for outcome in (FORGED, REFERENCE) if outcome in shown), SAME), None

    def _part(self, match: Match, scope: str, upto: int) -> tuple[str, int | None]:
        resumed = scope == "state" and upto >= match.checkpoint
        if self.truncated is not None:
            return REFERENCE, None
        if self.touched is not None:
            if upto < self.touched:
                return SAME, None
            if resumed and self.vouched and not any(match.checkpoint <= seq <= upto for seq in self.changed):
                return SAME, None  # resumed from the snapshot: the rows it stands for are not read
            return "refused", self.first_bad
        if upto < self.rewritten:
            return SAME, None
        start = match.checkpoint if resumed and self.from_snapshot else 1
        if self.refused_at is not None and start <= self.refused_at <= upto:
            return "refused", self.refused_at
        if resumed and self.from_snapshot:
            return self.from_snapshot, None
        return REFERENCE, None


# --------------------------------------------------------------------------- the tamper kinds
# Each takes (path, match, rows, rng) and returns a Tamper.  ``rows``: the match's rows before.


def _position(match: Match, rng: random.Random, where: str) -> int:
    """A seq to tamper with: ``before`` the snapshot's event, ``snapshot`` (that event),
    ``checkpoint`` (the StateCheckpointed), ``after`` it."""
    c = match.checkpoint
    return {
        "before": lambda: rng.randint(2, c - 2),
        "snapshot": lambda: c - 1,
        "checkpoint": lambda: c,
        "after": lambda: rng.randint(c + 1, match.last),
    }[where]()


def _evident(match: Match, rows_before, path, first: int) -> Tamper:
    """An evident tampering whose first changed row is ``first``.  The snapshot still
    stands for the rows before the checkpoint when its event is still stored at its
    seq with the same hash, and the checkpoint is as it was."""
    before = {row.seq: row for row in rows_before}
    after = {row.seq: row for row in rows_of(path, match.id)}
    changed = frozenset(seq for seq in before.keys() | after.keys() if before.get(seq) != after.get(seq))
    assert min(changed) == first, (sorted(changed), first)
    c = match.checkpoint
    vouched = after.get(c - 1) is not None and after[c - 1].hash == before[c - 1].hash and after.get(c) == before[c]
    return Tamper(first_bad=first, touched=first, changed=changed, vouched=vouched)


def body_edited(where: str):
    def body_edited(path, match, rows, rng):
        """A value inside a body changed (still valid JSON of the same event type); hash left."""
        s = _position(match, rng, where)
        row = rows[s - 1]
        data = json.loads(row.body)
        keys = [k for k, v in data.items() if k not in ("type", "v") and isinstance(v, (str, int, list, dict))]
        key = rng.choice(keys)
        value = data[key]
        data[key] = (
            value + 1
            if isinstance(value, int)
            else value + "x"
            if isinstance(value, str)
            else value + [value[0]]
            if isinstance(value, list) and value
            else {"forged": 1}
            if isinstance(value, dict)
            else [1]
        )
        set_row(path, match.id, s, body=json.dumps(data, separators=(",", ":"), sort_keys=True))
        return _evident(match, rows, path, s)

    body_edited.__name__ = f"body_edited_{where}"
    return body_edited


def kind_changed(path, match, rows, rng):
    s = _position(match, rng, "before")
    set_row(path, match.id, s, kind="NoteAdded" if rows[s - 1].kind != "NoteAdded" else "RoundClosed")
    return _evident(match, rows, path, s)


def checkpoint_kind_changed(path, match, rows, rng):
    """The checkpoint's kind column renamed: reads must not resume from its snapshot."""
    s = match.checkpoint
    set_row(path, match.id, s, kind="NoteAdded")
    return _evident(match, rows, path, s)


def actor_changed(path, match, rows, rng):
    s = _position(match, rng, rng.choice(["snapshot", "after"]))
    set_row(path, match.id, s, actor="mallory")
    return _evident(match, rows, path, s)


def recorded_at_changed(path, match, rows, rng):
    s = _position(match, rng, "before")
    set_row(path, match.id, s, recorded_at="2020-01-01T00:00:00.000000Z")
    return _evident(match, rows, path, s)


def row_deleted(where: str):
    def row_deleted(path, match, rows, rng):
        s = _position(match, rng, where)
        if s == match.last:
            s -= 1  # deleting the last row is a truncation
        raw(path, ("DELETE FROM events WHERE match_id = ? AND seq = ?", (match.id, s)))
        return _evident(match, rows, path, s)

    row_deleted.__name__ = f"row_deleted_{where}"
    return row_deleted


def rows_swapped(path, match, rows, rng):
    """Two rows' contents exchanged, one on each side of the snapshot's event."""
    s, t = rng.randint(2, match.checkpoint - 2), rng.randint(match.checkpoint - 1, match.last)
    columns = ("kind", "body", "recorded_at", "actor", "prev_hash", "hash")
    a, b = rows[s - 1], rows[t - 1]
    set_row(path, match.id, s, **{c: getattr(b, c) for c in columns})
    set_row(path, match.id, t, **{c: getattr(a, c) for c in columns})
    return _evident(match, rows, path, s)


def rows_swapped_early(path, match, rows, rng):
    """Two adjacent rows before the snapshot's event renumbered into each other's place."""
    s = rng.randint(2, match.checkpoint - 3)
    raw(
        path,
        ("UPDATE events SET seq = -1 WHERE match_id = ? AND seq = ?", (match.id, s)),
        ("UPDATE events SET seq = ? WHERE match_id = ? AND seq = ?", (s, match.id, s + 1)),
        ("UPDATE events SET seq = ? WHERE match_id = ? AND seq = -1", (s + 1, match.id)),
    )
    return _evident(match, rows, path, s)


def tail_truncated(path, match, rows, rng):
    """Rows after k deleted, after the head was published; k on either side of the checkpoint."""
    k = rng.choice([rng.randint(2, match.checkpoint - 1), rng.randint(match.checkpoint, match.last - 1)])
    raw(path, ("DELETE FROM events WHERE match_id = ? AND seq > ?", (match.id, k)))
    return Tamper(
        first_bad=k + 1, head=(match.last, rows[-1].hash), truncated=k, verify_without_head=None, diff_parts_at=k + 1
    )


def snapshot_forged(path, match, rows, rng):
    """The snapshot's state changed and re-encoded: the same seq, hash and revision."""
    _seq, _hash, _revision, body = snapshot_of(path, match.id)
    set_snapshot(path, match.id, body=forged_snapshot_body(body))
    # Nothing in the log changed: every read shows the truth; verify compares the
    # snapshot with its own replay and names the event it was taken after.
    return Tamper(first_bad=match.checkpoint - 1, touched=match.last + 1, diff_parts_at=None)


def snapshot_and_checkpoint_forged(path, match, rows, rng):
    """A forged snapshot, and the checkpoint's digest changed to vouch for it; the
    checkpoint's hash is left as it was (no re-chaining)."""
    _seq, _hash, _revision, body = snapshot_of(path, match.id)
    forged = forged_snapshot_body(body)
    set_snapshot(path, match.id, body=forged)
    c = match.checkpoint
    event = msgspec.structs.replace(rows[c - 1].event(), digest=snapshots.digest(forged))
    set_row(path, match.id, c, body=encode(event).decode())
    return _evident(match, rows, path, c)


def snapshot_and_checkpoint_forged_and_rechained(path, match, rows, rng):
    """The same, and every hash from the checkpoint on recomputed: a consistent rewrite.
    Reads resumed from the snapshot show the forgery; verify's own replay finds it."""
    _seq, _hash, _revision, body = snapshot_of(path, match.id)
    forged = forged_snapshot_body(body)
    set_snapshot(path, match.id, body=forged)
    c = match.checkpoint
    event = msgspec.structs.replace(rows[c - 1].event(), digest=snapshots.digest(forged))
    rewrite_from(path, match.id, c, [with_body(rows[c - 1], event)] + rows[c:])
    return Tamper(
        first_bad=match.last,
        head=(match.last, rows[-1].hash),
        rewritten=c,
        from_snapshot=FORGED,
        verify_without_head=c - 1,
        diff_parts_at=c,
    )


def checkpoint_digest_forged_and_rechained(path, match, rows, rng):
    """The checkpoint vouches for other bytes than the stored (true) snapshot's; the
    chain re-hashed from there.  Reads no longer resume from the snapshot."""
    c = match.checkpoint
    event = msgspec.structs.replace(rows[c - 1].event(), digest="f" * 64)
    rewrite_from(path, match.id, c, [with_body(rows[c - 1], event)] + rows[c:])
    return Tamper(
        first_bad=match.last, head=(match.last, rows[-1].hash), rewritten=c, verify_without_head=c, diff_parts_at=c
    )


def checkpoint_seq_forged_and_rechained(path, match, rows, rng):
    """The checkpoint records another seq than the event before it; re-hashed from there."""
    c = match.checkpoint
    event = msgspec.structs.replace(rows[c - 1].event(), seq=c - 2)
    rewrite_from(path, match.id, c, [with_body(rows[c - 1], event)] + rows[c:])
    return Tamper(
        first_bad=match.last,
        head=(match.last, rows[-1].hash),
        rewritten=c,
        refused_at=c,
        verify_without_head=c,
        diff_parts_at=c,
    )


def event_inserted_before_the_checkpoint(path, match, rows, rng):
    """A forged event inserted before the last checkpoint, later rows renumbered, the
    chain re-hashed from there.  The checkpoint, moved one on, still records the seq it
    was taken after: the log contradicts itself there."""
    s = rng.randint(2, match.checkpoint)
    rewrite_from(path, match.id, s, [forged_note(rows[s - 1])] + rows[s - 1 :])
    c = match.checkpoint + 1
    return Tamper(
        first_bad=match.last,
        head=(match.last, rows[-1].hash),
        rewritten=s,
        refused_at=c,
        verify_without_head=c,
        diff_parts_at=s,
    )


def event_inserted_after_the_checkpoint(path, match, rows, rng):
    """A forged event inserted after the last checkpoint, the chain re-hashed from there,
    between two commands' events (inside one, before a resolved turn or a computed
    outcome, re-derivation finds it).  Nothing in the log contradicts it: only a
    published head catches it."""
    inside = ("TurnResolved", "OutcomeAnnounced")
    s = rng.choice([s for s in range(match.checkpoint + 1, match.last + 1) if rows[s - 1].kind not in inside])
    rewrite_from(path, match.id, s, [forged_note(rows[s - 1])] + rows[s - 1 :])
    return Tamper(
        first_bad=match.last,
        head=(match.last, rows[-1].hash),
        rewritten=s,
        from_snapshot=REFERENCE,
        verify_without_head=None,
        diff_parts_at=s,
    )


def event_replaced_before_the_checkpoint_and_snapshot_repointed(path, match, rows, rng):
    """An event before the snapshot's replaced by a forged note, the chain re-hashed from
    there, and the snapshot row pointed at the new hash of its event.  The checkpoint
    still vouches for the snapshot's (true) bytes, so reads resumed from it show the
    truth; the rest of the log shows the forgery.  (A forger replaces an event the rules
    can replay without it; where there is none, photographer's open match, only the
    event's actor is forged.)"""
    c = match.checkpoint
    candidates = [s for s in range(2, c) if _replays(match.id, rows[: s - 1] + [forged_note(rows[s - 1])] + rows[s:])]
    if candidates:
        s = rng.choice(candidates)
        forged, found, parts = forged_note(rows[s - 1]), (s, c - 1), s
    else:  # `diff` compares what events say, not who recorded them: the copies do not part
        s = rng.randint(2, c - 1)
        forged, found, parts = msgspec.structs.replace(rows[s - 1], actor="mallory"), None, None
    written = rewrite_from(path, match.id, s, [forged] + rows[s:])
    set_snapshot(path, match.id, hash=written[c - 1 - s].hash)
    return Tamper(
        first_bad=match.last,
        head=(match.last, rows[-1].hash),
        rewritten=s,
        from_snapshot=SAME,
        verify_without_head=found,
        diff_parts_at=parts,
    )


def _replays(match_id: str, rows: list[StoredEvent]) -> bool:
    """Whether the rules replay ``rows`` (renumbered from 1) to the end."""
    try:
        replay(match_id, [(seq, row.event()) for seq, row in enumerate(rows, start=1)])
    except MatchledgerError:
        return False
    return True


KINDS = [
    body_edited("before"),
    body_edited("checkpoint"),
    body_edited("after"),
    kind_changed,
    checkpoint_kind_changed,
    actor_changed,
    recorded_at_changed,
    row_deleted("before"),
    row_deleted("snapshot"),
    rows_swapped,
    rows_swapped_early,
    tail_truncated,
    snapshot_forged,
    snapshot_and_checkpoint_forged,
    snapshot_and_checkpoint_forged_and_rechained,
    checkpoint_digest_forged_and_rechained,
    checkpoint_seq_forged_and_rechained,
    event_inserted_before_the_checkpoint,
    event_inserted_after_the_checkpoint,
    event_replaced_before_the_checkpoint_and_snapshot_repointed,
]


# --------------------------------------------------------------------------- the reads


@dataclass(frozen=True)
class Read:
    """A read command line (after `--db`), and the parts of the log it reads:
    ("state", X) the state after event X, shown; ("view", X) the same, read only to
    choose the view (it must hold, but nothing of it is shown); ("chain", X) every row
    up to X."""

    args: tuple[str, ...]
    parts: tuple[tuple[str, int], ...]
    output: str | None = None  # the file it writes (render, report)

    @property
    def command(self) -> str:
        return self.args[0]


VIEWS = ((), ("--public",), ("--as", None))  # None: the match's participant


def reads(match: Match, ats: list[int], pictures: bool, png: bool = False) -> list[Read]:
    """Every read command against ``match``, at every seq of ``ats`` (and at the end),
    each view, text and JSON taken in turn so that every command meets each of them;
    with ``pictures`` also `render` (an SVG, with ``png`` a PNG too) and `report`, which
    cost more."""
    last = match.last
    found: list[Read] = []

    def view(index: int) -> tuple[str, ...]:
        chosen = VIEWS[index % 3]
        return tuple(match.participant if word is None else word for word in chosen)

    moments = [None, *ats]
    for number, model in enumerate(("status", "scores", "outcome", "reveals", "knowledge", "explain")):
        for index, at in enumerate(moments):
            upto = last if at is None else at
            if model == "knowledge":
                args = ("knowledge", match.id, "--as", match.participant)
            elif model == "explain":
                args = ("explain", match.id, match.participant)
            else:
                args = (model, match.id, *view(number + index))
            args += (() if at is None else ("--at", str(at))) + (("--json",) if (number + index) % 2 else ())
            found.append(Read(args, (("state", upto),)))
    for index, at in enumerate(moments):
        upto = last if at is None else at
        args = (
            ("log", match.id, *view(index))
            + (() if at is None else ("--at", str(at)))
            + (("--json",) if index % 2 else ())
        )
        found.append(Read(args, (("view", last), ("chain", upto))))
    found += [
        Read(("head", match.id), (("chain", last),)),
        Read(("head", match.id, "--json"), (("chain", last),)),
        Read(("export", match.id), (("chain", last),)),
    ]
    if match.game in RESCORE:
        options = tuple(word for option in RESCORE[match.game] for word in ("--option", option))
        found += [
            Read(("rescore", match.id, *options), (("chain", last),)),
            Read(("rescore", match.id, *options, "--json"), (("chain", last),)),
        ]
    if pictures:
        for index, at in enumerate(moments[:3]):
            upto = last if at is None else at
            suffix = ".png" if index == 2 and png else ".svg"
            found.append(
                Read(
                    ("render", match.id, *view(index + 1)) + (() if at is None else ("--at", str(at))),
                    (("state", upto),),
                    output=f"picture{suffix}",
                )
            )
        found.append(Read(("report", match.id, *view(len(ats))), (("view", last), ("chain", last)), output="page.html"))
    return found


def run(db: Path, read: Read, folder: Path):
    """Run ``read`` on ``db``; (exit code, stdout, stderr, bytes of the file it wrote)."""
    args = list(read.args)
    target = None
    if read.output is not None:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / read.output
        if target.exists():
            target.unlink()
        args += ["-o", str(target)]
    result = invoke(db, *args, expect=None)
    written = target.read_bytes() if target is not None and target.exists() else None
    stderr = result.stderr if target is None else result.stderr.replace(str(target), read.output)
    return result.exit_code, result.stdout, stderr, written


def rng_for(*names) -> random.Random:
    return random.Random("/".join(map(str, names)))


def fresh_copy(source: Path, path: Path) -> Path:
    """A copy of ``source``, a file with no connection open on it and so no WAL beside it
    (a file copy: no sync to wait for)."""
    assert not Path(f"{source}-wal").exists() or Path(f"{source}-wal").stat().st_size == 0, source
    shutil.copyfile(source, path)
    return path
