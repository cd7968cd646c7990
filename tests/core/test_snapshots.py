"""State snapshots (projections/snapshots.py): starting from one and folding the events
after it gives exactly the full rebuild -- the state and every read model in every view
-- and a snapshot that no longer fits the log, the engine or the types is ignored."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matchledger.ledger.store import Store
from matchledger.projections import snapshots
from matchledger.projections.application import SNAPSHOT_EVERY, Application
from matchledger.projections.fold import Replayer, play, replay
from matchledger.projections.views import all_read_models

from matchledger import engine
from tests.core.fixture_matches import played
from tests.helpers import REPO, invoke, read_json

FIXTURES = sorted(
    path for path in (REPO / "fixtures").glob("*/*.txt") if not path.name.startswith(("studio", "deck"))
)


def _models(state) -> bytes:
    """Every read model in every view, and every participant's score explained, as
    bytes in the models' own key order."""
    game = engine.get(state.game)
    models = all_read_models(state)
    if state.finished:
        models |= {f"explain:{p}": game.explain(state, p) for p in state.players}
    return msgspec.json.encode(models)


def _assert_resumes_everywhere(match_id: str, pairs: list) -> None:
    """A snapshot after any event, decoded and fed the rest, equals the full rebuild."""
    full = replay(match_id, pairs)
    expected_models = _models(full)
    replayer = Replayer(match_id)
    for index, (seq, event) in enumerate(pairs):
        replayer.feed(seq, event)
        body = snapshots.encode_state(replayer.state)
        resumed = Replayer.resume(snapshots.decode_state(body))
        assert resumed.state == replayer.state, f"{match_id}: snapshot after seq {seq} decodes to another state"
        resumed.feed_all(pairs[index + 1 :])
        assert resumed.state == full, f"{match_id}: snapshot after seq {seq} + tail != full rebuild"
    assert _models(resumed.state) == expected_models


def _scripts_with_a_match() -> list[Path]:
    return [path for path in FIXTURES if "\nnew " in "\n" + path.read_text()]


@pytest.mark.parametrize("script", _scripts_with_a_match(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_snapshot_after_any_event_of_a_fixture_resumes_to_the_full_rebuild(script):
    match_id, pairs = played(script)
    _assert_resumes_everywhere(match_id, pairs)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_random_photographer_matches_resume_from_any_snapshot(seed, n_players):
    m = play(engine.get("photographer").sample(random.Random(seed), n_players=n_players, seed=seed, options={}))
    _assert_resumes_everywhere(m.state.match_id, m.pairs())


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_random_pw_matches_resume_from_any_snapshot(seed):
    m = play(engine.get("pw").sample(random.Random(seed)))
    _assert_resumes_everywhere(m.state.match_id, m.pairs())


# --------------------------------------------------------------------------- in the store

DEMO = REPO / "fixtures" / "lca" / "card-11-players.txt"  # match "card11", 11 players


@pytest.fixture
def finished(tmp_path):
    """A database holding the finished 11-player lca match, as the CLI wrote it."""
    db = tmp_path / "m.db"
    invoke(db, "script", DEMO)
    return db


def _snapshot_rows(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT match_id, seq, hash, revision FROM snapshots").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()


def _fresh_state(db, match_id="card11", at=None, use_snapshots=True):
    store = Store(db, create=False)
    try:
        app = Application(store, use_snapshots=use_snapshots)
        return app.state(match_id, at), app
    finally:
        store.close()


def test_finishing_a_match_stores_a_snapshot_that_reads_start_from(finished):
    [(match_id, seq, event_hash, revision)] = _snapshot_rows(finished)
    store = Store(finished, create=False)
    head = store.head(match_id)
    store.close()
    assert (seq, event_hash) == head and revision == snapshots.revision()
    state, app = _fresh_state(finished)
    assert app._snapshot_seq["card11"] == seq  # resumed, not replayed
    full, _ = _fresh_state(finished, use_snapshots=False)
    assert state == full and _models(state) == _models(full)


def test_at_before_the_snapshot_replays_from_the_start_and_after_it_resumes(finished):
    [(_, seq, _, _)] = _snapshot_rows(finished)
    store = Store(finished, create=False)
    pairs = store.events("card11")
    store.close()
    for at in (1, seq // 2, seq - 1, seq):
        state, _ = _fresh_state(finished, at=at)
        assert state == replay("card11", pairs, upto=at), at


def _put_snapshot(db, **changes) -> None:
    conn = sqlite3.connect(db)
    columns = dict(zip(("match_id", "seq", "hash", "revision", "body"), conn.execute("SELECT * FROM snapshots").fetchone()))
    columns.update(changes)
    conn.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)", tuple(columns.values()))
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "changes",
    [
        {"revision": "another-engine"},  # written by another version of the rules
        {"hash": "0" * 64},  # the event it was taken after is not in this log
        {"body": b"\x93\x01\xa3lca\xc0"},  # bytes that are not a state
        {"body": b"not msgpack at all"},
        {"seq": 5},  # claims to follow event 5 but holds the state after the last event
    ],
    ids=["revision", "hash", "body-shape", "body-garbage", "seq"],
)
def test_a_snapshot_that_does_not_fit_is_ignored(finished, changes):
    store = Store(finished, create=False)
    if "seq" in changes:  # keep the hash consistent with the claimed seq
        changes["hash"] = store.rows("card11", upto=5)[-1].hash
    store.close()
    _put_snapshot(finished, **changes)
    state, app = _fresh_state(finished)
    assert app._snapshot_seq["card11"] == 0  # replayed from the first event
    full, _ = _fresh_state(finished, use_snapshots=False)
    assert state == full
    assert read_json(finished, "outcome", "card11") == read_json(finished, "outcome", "card11", "--at", full.last_seq)


def test_a_snapshot_of_another_match_is_ignored(tmp_path, finished):
    other = tmp_path / "other.db"
    invoke(other, "script", REPO / "fixtures" / "lca" / "amendment-example.txt")
    conn = sqlite3.connect(other)
    [(other_id, body)] = conn.execute("SELECT match_id, body FROM snapshots").fetchall()
    conn.close()
    assert other_id != "card11"
    _put_snapshot(finished, body=body)  # card11's seq and hash, another match's state
    state, app = _fresh_state(finished)
    assert app._snapshot_seq["card11"] == 0 and state.match_id == "card11"


def test_reading_never_creates_the_snapshots_table(tmp_path):
    db = tmp_path / "old.db"
    invoke(db, "new", "pw", "m1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    assert _snapshot_rows(db) == []  # an unfinished, short match has none yet
    conn = sqlite3.connect(db)
    tables = conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    conn.close()
    before = db.read_bytes()
    invoke(db, "status", "m1")
    assert db.read_bytes() == before and ("snapshots",) not in tables


def test_a_long_match_gets_a_snapshot_every_so_many_events(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "pw", "m1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    for _ in range(SNAPSHOT_EVERY):  # resubmissions: the round stays open
        invoke(db, "submit", "m1", "ann", "gift:bob", "learn:yan")
    [(_, seq, _, _)] = _snapshot_rows(db)
    assert seq == SNAPSHOT_EVERY
    state, app = _fresh_state(db, "m1")
    assert app._snapshot_seq["m1"] == seq and state.last_seq == SNAPSHOT_EVERY + 1
    assert state == _fresh_state(db, "m1", use_snapshots=False)[0]


def test_a_rejected_command_leaves_the_snapshot_alone(finished):
    before = _snapshot_rows(finished)
    invoke(finished, "close", "card11", expect=1)  # the match is over
    assert _snapshot_rows(finished) == before


def test_checkpoint_command(tmp_path, finished):
    result = invoke(finished, "checkpoint", "--help")
    assert "Example" in result.output and "matchledger checkpoint m1" in result.output
    assert "give one MATCH or --all" in invoke(finished, "checkpoint", expect=2).output
    assert "give one MATCH or --all" in invoke(finished, "checkpoint", "card11", "--all", expect=2).output
    assert "no match 'nope'" in invoke(finished, "checkpoint", "nope", expect=1).output
    _put_snapshot(finished, revision="old")
    assert "snapshots stored for 1 match\n" == invoke(finished, "checkpoint", "--all").output
    [(_, _, _, revision)] = _snapshot_rows(finished)
    assert revision == snapshots.revision()


def test_verify_reports_a_snapshot_that_holds_another_state_and_checkpoint_replaces_it(finished):
    [(_, seq, _, _)] = _snapshot_rows(finished)
    conn = sqlite3.connect(finished)
    [body] = conn.execute("SELECT body FROM snapshots").fetchone()
    conn.close()
    forged = snapshots.decode_state(bytes(body))
    forged.g.lights.scores["ann"] += 1000  # well-formed, right hash and engine: only its content lies
    _put_snapshot(finished, body=snapshots.encode_state(forged))
    reads_from_it = read_json(finished, "scores", "card11")
    honest = read_json(finished, "scores", "card11", "--at", seq)  # --at SEQ from the snapshot too
    assert reads_from_it == honest  # both start from the snapshot: this is why verify checks it
    result = invoke(finished, "verify", "card11", expect=3)
    assert f"card11 seq {seq}: the stored snapshot after this event holds another state" in result.output
    assert invoke(finished, "verify", "--all", "--json", expect=3).stdout.count("stored snapshot") == 1
    invoke(finished, "checkpoint", "card11")
    assert "card11: ok" in invoke(finished, "verify", "card11").output
    assert read_json(finished, "scores", "card11") != reads_from_it


def test_verify_accepts_a_snapshot_that_encodes_differently_but_holds_the_same_state(finished):
    state, _ = _fresh_state(finished)
    body = snapshots.encode_state(state)
    assert not snapshots.holds_another_state(body, state)
    assert not snapshots.holds_another_state(b"garbage", state)  # unusable: reads ignore it too
    # A state resumed from a snapshot may iterate its sets in another order; still equal.
    resumed = snapshots.decode_state(body)
    assert resumed == state and not snapshots.holds_another_state(snapshots.encode_state(resumed), state)


def test_an_imported_match_comes_with_its_snapshot(tmp_path, finished):
    exported = tmp_path / "card11.jsonl"
    invoke(finished, "export", "card11", "-o", exported)
    other = tmp_path / "auditor.db"
    invoke(other, "import", exported)
    [(match_id, seq, _, revision)] = _snapshot_rows(other)
    assert (match_id, revision) == ("card11", snapshots.revision())
    state, app = _fresh_state(other)
    assert app._snapshot_seq["card11"] == seq == state.last_seq
    assert state == _fresh_state(finished, use_snapshots=False)[0]
    assert "card11: ok" in invoke(other, "verify", "card11").output


def test_without_a_readable_engine_source_snapshots_are_neither_used_nor_written(finished, monkeypatch):
    monkeypatch.setattr(snapshots, "revision", lambda: None)
    before = _snapshot_rows(finished)
    state, app = _fresh_state(finished)
    assert app._snapshot_seq["card11"] == 0  # replayed from the first event
    assert "no snapshot can be stored" in invoke(finished, "checkpoint", "card11", expect=1).output
    invoke(finished, "note", "card11", "still recorded")  # a finished match would get a new one
    assert _snapshot_rows(finished) == before
    assert "card11: ok" in invoke(finished, "verify", "card11").output


def test_a_failure_after_folding_a_command_writes_nothing_and_keeps_no_stale_state(tmp_path, monkeypatch):
    from matchledger.engine.commands import AddNote
    from matchledger.ledger.errors import CorruptLog

    db = tmp_path / "m.db"
    invoke(db, "script", DEMO)
    store = Store(db)
    app = Application(store)
    before = app.state("card11").last_seq
    rows_before = store.rows("card11")

    def broken_encode(state):  # the match is finished: its snapshot is due after the note
        raise CorruptLog("simulated failure after the events were folded")

    with monkeypatch.context() as patch:
        patch.setattr(snapshots, "encode_state", broken_encode)
        with pytest.raises(CorruptLog):
            app.execute("card11", AddNote("never stored"))
    assert store.rows("card11") == rows_before  # the events were rolled back with it
    assert app.state("card11").last_seq == before  # and the cache does not hold them
    store.close()


def test_fractions_come_back_exact_whatever_terms_a_snapshot_holds():
    from fractions import Fraction

    decode = msgspec.msgpack.Decoder(list[Fraction], dec_hook=snapshots._dec_hook).decode
    values = [Fraction(-7, 3), Fraction(0), Fraction(5, 1), Fraction(10**30 + 1, 10**29)]
    assert decode(snapshots._encoder.encode(values)) == values
    assert decode(msgspec.msgpack.encode([[4, 6], [3, -6]])) == [Fraction(2, 3), Fraction(-1, 2)]  # normalized
    with pytest.raises(ZeroDivisionError):
        decode(msgspec.msgpack.encode([[1, 0]]))  # decode_state turns this into SnapshotUnusable


def test_a_state_that_cannot_be_stored_is_recorded_without_a_snapshot(tmp_path):
    db = tmp_path / "m.db"
    studio = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
    huge = str(2**70)  # a legal divisor, but no MessagePack integer holds it
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio, "--option", f"filming_lights_divisor={huge}")
    state, app = _fresh_state(db, "m1")
    assert snapshots.encode_if_possible(state) is None  # so Application.execute records commands without one
    result = invoke(db, "checkpoint", "m1", expect=1)
    assert "cannot be stored as a snapshot" in result.output and _snapshot_rows(db) == []
    invoke(db, "submit", "m1", "ann", "B2", "C3", "D4", "E5", "F6")
    assert _fresh_state(db, "m1")[0].last_seq == 2
