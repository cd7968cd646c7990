"""State snapshots (projections/snapshots.py): starting from one and folding the events
after it gives exactly the full rebuild -- the state and every read model in every view
-- and a snapshot that no longer fits the log, the engine or the types is ignored."""

from __future__ import annotations

import functools
import importlib.util
import random
import shutil
import sqlite3
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchledger import engine
from matchledger.ledger.events import StateCheckpointed
from matchledger.ledger.store import Store
from matchledger.projections import snapshots
from matchledger.projections.application import Application
from matchledger.projections.fold import Replayer, play, replay
from matchledger.projections.views import all_read_models
from tests.fixture_matches import played
from tests.helpers import REPO, invoke, read_json

FIXTURES = sorted(path for path in (REPO / "fixtures").glob("*/*.txt") if not path.name.startswith(("studio", "deck")))


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
@pytest.mark.guarantee("log.snapshot-resumes")
def test_a_snapshot_after_any_event_of_a_fixture_resumes_to_the_full_rebuild(script):
    match_id, pairs = played(script)
    _assert_resumes_everywhere(match_id, pairs)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
@pytest.mark.guarantee("log.snapshot-resumes")
def test_random_photographer_matches_resume_from_any_snapshot(seed, n_players):
    m = play(engine.get("photographer").sample(random.Random(seed), n_players=n_players, seed=seed, options={}))
    _assert_resumes_everywhere(m.state.match_id, m.pairs())


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
@pytest.mark.guarantee("log.snapshot-resumes")
def test_random_pw_matches_resume_from_any_snapshot(seed):
    m = play(engine.get("pw").sample(random.Random(seed)))
    _assert_resumes_everywhere(m.state.match_id, m.pairs())


# --------------------------------------------------------------------------- in the store

DEMO = REPO / "fixtures" / "lca" / "card-11-players.txt"  # match "card11", 11 players


@pytest.fixture
def finished_card11_db(tmp_path):
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
    """The state a fresh read gives, and where that read started (the snapshot's seq,
    0 for the first event)."""
    store = Store(db, create=False)
    try:
        app = Application(store, use_snapshots=use_snapshots)
        if at is not None:
            return app.state(match_id, at), None
        cursor = app.reader.cursor(match_id)
        return cursor.state, cursor.resumed_from
    finally:
        store.close()


def _log(db, match_id="card11") -> list:
    store = Store(db, create=False)
    try:
        return store.events(match_id)
    finally:
        store.close()


@pytest.mark.guarantee("log.snapshot-written-with-events")
def test_finishing_a_match_records_a_checkpoint_that_reads_start_from(finished_card11_db):
    [(match_id, seq, event_hash, revision)] = _snapshot_rows(finished_card11_db)
    pairs = _log(finished_card11_db)
    last_seq, checkpoint = pairs[-1]
    assert isinstance(checkpoint, StateCheckpointed) and last_seq == seq + 1
    assert (checkpoint.seq, checkpoint.revision) == (seq, revision) == (seq, snapshots.revision("lca"))
    conn = sqlite3.connect(finished_card11_db)
    [(body,)] = conn.execute("SELECT body FROM snapshots").fetchall()
    conn.close()
    assert checkpoint.digest == snapshots.digest(bytes(body))  # the log vouches for exactly these bytes
    state, resumed_from = _fresh_state(finished_card11_db)
    assert resumed_from == seq  # resumed, not replayed
    full, from_start = _fresh_state(finished_card11_db, use_snapshots=False)
    assert from_start == 0 and state == full and _models(state) == _models(full)


def test_at_before_the_checkpoint_replays_from_the_start_and_after_it_resumes(finished_card11_db):
    [(_, seq, _, _)] = _snapshot_rows(finished_card11_db)
    pairs = _log(finished_card11_db)
    for at in (1, seq // 2, seq - 1, seq, seq + 1):
        state, _ = _fresh_state(finished_card11_db, at=at)
        assert state == replay("card11", pairs, upto=at), at


def _put_snapshot(db, **changes) -> None:
    conn = sqlite3.connect(db)
    columns = dict(
        zip(("match_id", "seq", "hash", "revision", "body"), conn.execute("SELECT * FROM snapshots").fetchone())
    )
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
@pytest.mark.guarantee("log.unfit-snapshot-ignored")
def test_a_snapshot_the_log_does_not_vouch_for_is_ignored(finished_card11_db, changes):
    store = Store(finished_card11_db, create=False)
    if "seq" in changes:  # keep the hash consistent with the claimed seq
        changes["hash"] = store.rows("card11", upto=5)[-1].hash
    store.close()
    _put_snapshot(finished_card11_db, **changes)
    state, resumed_from = _fresh_state(finished_card11_db)
    assert resumed_from == 0  # replayed from the first event
    full, _ = _fresh_state(finished_card11_db, use_snapshots=False)
    assert state == full
    assert read_json(finished_card11_db, "outcome", "card11") == read_json(
        finished_card11_db, "outcome", "card11", "--at", full.last_seq
    )


@pytest.mark.guarantee("log.unfit-snapshot-ignored")
def test_a_snapshot_of_another_match_is_ignored(tmp_path, finished_card11_db):
    other = tmp_path / "other.db"
    invoke(other, "script", REPO / "fixtures" / "lca" / "amendment-example.txt")
    conn = sqlite3.connect(other)
    [(other_id, body)] = conn.execute("SELECT match_id, body FROM snapshots").fetchall()
    conn.close()
    assert other_id != "card11"
    _put_snapshot(finished_card11_db, body=body)  # card11's seq and hash, another match's state
    state, resumed_from = _fresh_state(finished_card11_db)
    assert resumed_from == 0 and state.match_id == "card11"


@pytest.mark.guarantee("log.snapshot-written-with-events")
def test_reading_never_creates_the_snapshots_table(tmp_path):
    db = tmp_path / "old.db"
    invoke(db, "new", "pw", "m1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    assert _snapshot_rows(db) == []  # an unfinished match has none
    conn = sqlite3.connect(db)
    tables = conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    conn.close()
    before = db.read_bytes()
    invoke(db, "status", "m1")
    assert db.read_bytes() == before and ("snapshots",) not in tables


@pytest.mark.guarantee("log.snapshot-written-with-events")
def test_an_open_match_is_checkpointed_on_demand_and_read_from_there(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "pw", "m1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    for _ in range(5):  # resubmissions: the round stays open, and no command checkpoints it
        invoke(db, "submit", "m1", "ann", "gift:bob", "learn:yan")
    assert _snapshot_rows(db) == [] and not any(isinstance(e, StateCheckpointed) for _s, e in _log(db, "m1"))
    assert invoke(db, "checkpoint", "m1").output == "snapshot of 'm1' stored after event 6\n"
    assert invoke(db, "checkpoint", "m1").output == "snapshot of 'm1' stored after event 6\n"  # nothing new
    assert [type(e).__name__ for _s, e in _log(db, "m1")][-2:] == ["SubmissionRecorded", "StateCheckpointed"]
    invoke(db, "submit", "m1", "bob", "gift:ann", "learn:zed")
    state, resumed_from = _fresh_state(db, "m1")
    assert resumed_from == 6 and state.last_seq == 8
    assert state == _fresh_state(db, "m1", use_snapshots=False)[0]


@pytest.mark.guarantee("log.snapshot-written-with-events")
def test_a_rejected_command_leaves_the_snapshot_alone(finished_card11_db):
    before = _snapshot_rows(finished_card11_db)
    invoke(finished_card11_db, "close", "card11", expect=1)  # the match is over
    assert _snapshot_rows(finished_card11_db) == before


def test_checkpoint_command(tmp_path, finished_card11_db):
    result = invoke(finished_card11_db, "checkpoint", "--help")
    assert "Example" in result.output and "matchledger checkpoint m1" in result.output
    assert "give one MATCH or --all" in invoke(finished_card11_db, "checkpoint", expect=2).output
    assert "give one MATCH or --all" in invoke(finished_card11_db, "checkpoint", "card11", "--all", expect=2).output
    assert "no match 'nope'" in invoke(finished_card11_db, "checkpoint", "nope", expect=1).output
    events = len(_log(finished_card11_db))
    assert "snapshots stored for 1 match\n" == invoke(finished_card11_db, "checkpoint", "--all").output
    assert len(_log(finished_card11_db)) == events  # the last event already vouches for the snapshot
    _put_snapshot(finished_card11_db, revision="old")  # as if written by an older engine
    invoke(finished_card11_db, "checkpoint", "--all")
    [(_, seq, _, revision)] = _snapshot_rows(finished_card11_db)
    assert revision == snapshots.revision("lca") and seq == events  # after the old checkpoint
    assert len(_log(finished_card11_db)) == events + 1 and _fresh_state(finished_card11_db)[1] == seq


def _forge_snapshot(db) -> None:
    conn = sqlite3.connect(db)
    [body] = conn.execute("SELECT body FROM snapshots").fetchone()
    conn.close()
    forged = snapshots.decode_state(bytes(body))
    forged.g.lights.scores["ann"] += 1000  # well-formed, right seq, hash and engine: only its content lies
    _put_snapshot(db, body=snapshots.encode_state(forged))


@pytest.mark.guarantee("log.lying-snapshot-found")
def test_a_forged_snapshot_changes_nothing_anyone_sees_and_verify_reports_it(finished_card11_db):
    [(_, seq, _, _)] = _snapshot_rows(finished_card11_db)
    honest = read_json(finished_card11_db, "scores", "card11")
    _forge_snapshot(finished_card11_db)
    assert read_json(finished_card11_db, "scores", "card11") == honest  # the log does not vouch for it: replayed
    assert read_json(finished_card11_db, "scores", "card11", "--at", seq + 1) == honest
    result = invoke(finished_card11_db, "verify", "card11", expect=3)
    assert f"card11 seq {seq}: the stored snapshot after this event holds another state" in result.output
    assert invoke(finished_card11_db, "verify", "--all", "--json", expect=3).stdout.count("stored snapshot") == 1
    invoke(finished_card11_db, "checkpoint", "card11")
    assert "card11: ok" in invoke(finished_card11_db, "verify", "card11").output
    assert read_json(finished_card11_db, "scores", "card11") == honest


def test_a_write_decides_from_the_log_not_from_a_forged_snapshot(tmp_path):
    db = tmp_path / "m.db"
    studio = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio)
    invoke(db, "submit", "m1", "ann", "B2", "C3", "D4", "E5", "F6")
    invoke(db, "checkpoint", "m1")
    conn = sqlite3.connect(db)
    [body] = conn.execute("SELECT body FROM snapshots").fetchone()
    conn.close()
    forged = snapshots.decode_state(bytes(body))
    forged.submissions[1]["ann"][0].tokens = ["G7", "H8", "I9", "B11", "C12"]  # lights ann never submitted
    _put_snapshot(db, body=snapshots.encode_state(forged))
    invoke(db, "submit", "m1", "bob", "D8", "E8", "F8", "G8", "H8")
    invoke(db, "close", "m1")
    closed = [e for _s, e in _log(db, "m1") if type(e).__name__ == "RoundClosed"][0]
    assert closed.private["ann"]["lights"] == ["B2", "C3", "D4"]  # what the log holds, not the forgery
    found = invoke(db, "verify", "m1", expect=3).output  # the forged cache is reported, the close is not
    assert "m1 seq 2: the stored snapshot after this event holds another state" in found
    assert "RoundClosed differs" not in found


@pytest.mark.guarantee("log.lying-snapshot-found")
def test_verify_accepts_a_snapshot_that_encodes_differently_but_holds_the_same_state(finished_card11_db):
    state, _ = _fresh_state(finished_card11_db)
    body = snapshots.encode_state(state)
    assert not snapshots.holds_another_state(body, state)
    assert not snapshots.holds_another_state(b"garbage", state)  # unusable: reads ignore it too
    # A state resumed from a snapshot may iterate its sets in another order; still equal.
    resumed = snapshots.decode_state(body)
    assert resumed == state and not snapshots.holds_another_state(snapshots.encode_state(resumed), state)


@pytest.mark.guarantee("log.snapshot-written-with-events")
def test_an_imported_match_comes_with_its_snapshot(tmp_path, finished_card11_db):
    exported = tmp_path / "card11.jsonl"
    invoke(finished_card11_db, "export", "card11", "-o", exported)
    other = tmp_path / "auditor.db"
    invoke(other, "import", exported)
    [(match_id, seq, _, revision)] = _snapshot_rows(other)
    assert (match_id, revision) == ("card11", snapshots.revision("lca"))
    assert _snapshot_rows(other) == _snapshot_rows(finished_card11_db)  # the one the imported checkpoint vouches for
    state, resumed_from = _fresh_state(other)
    assert resumed_from == seq == state.last_seq - 1
    assert state == _fresh_state(finished_card11_db, use_snapshots=False)[0]
    assert "card11: ok" in invoke(other, "verify", "card11").output


@pytest.mark.guarantee("log.snapshot-needs-source")
def test_without_a_readable_engine_source_snapshots_are_neither_used_nor_written(finished_card11_db, monkeypatch):
    monkeypatch.setattr(snapshots, "revision", lambda game: None)
    before = _snapshot_rows(finished_card11_db)
    events = len(_log(finished_card11_db))
    state, resumed_from = _fresh_state(finished_card11_db)
    assert resumed_from == 0  # replayed from the first event
    assert "no snapshot can be stored" in invoke(finished_card11_db, "checkpoint", "card11", expect=1).output
    invoke(finished_card11_db, "note", "card11", "still recorded")
    assert _snapshot_rows(finished_card11_db) == before and len(_log(finished_card11_db)) == events + 1
    assert "card11: ok" in invoke(finished_card11_db, "verify", "card11").output


def test_a_failure_after_folding_a_command_writes_nothing_and_keeps_no_stale_state(tmp_path, monkeypatch):
    from matchledger.engine.commands import CloseRound
    from matchledger.ledger.errors import CorruptLog

    db = tmp_path / "m.db"
    lines = DEMO.read_text().splitlines()
    last_close = max(i for i, line in enumerate(lines) if line.startswith("close "))
    (tmp_path / "all-but-the-last-close.txt").write_text("\n".join(lines[:last_close]) + "\n")
    invoke(db, "script", tmp_path / "all-but-the-last-close.txt")
    store = Store(db)
    app = Application(store)
    before = app.state("card11").last_seq
    rows_before = store.rows("card11")

    def broken_encode(state):  # the last close finishes the match: its checkpoint comes after the events
        raise CorruptLog("simulated failure after the events were folded")

    with monkeypatch.context() as patch:
        patch.setattr(snapshots, "encode_if_possible", broken_encode)
        with pytest.raises(CorruptLog):
            app.execute("card11", CloseRound())
    assert store.rows("card11") == rows_before  # the events were rolled back with it
    assert app.state("card11").last_seq == before  # and the kept state does not hold them
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
    invoke(
        db, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio, "--option", f"filming_lights_divisor={huge}"
    )
    state, app = _fresh_state(db, "m1")
    assert snapshots.encode_if_possible(state) is None  # so Application.execute records commands without one
    result = invoke(db, "checkpoint", "m1", expect=1)
    assert "cannot be stored as a snapshot" in result.output and _snapshot_rows(db) == []
    invoke(db, "submit", "m1", "ann", "B2", "C3", "D4", "E5", "F6")
    assert _fresh_state(db, "m1")[0].last_seq == 2


# --------------------------------------------------------------------------- revisions


def _game_package(folder: Path, name: str) -> str:
    """A copy of the toy game as a package of its own in ``folder`` (on sys.path):
    its rules module and a helper module beside it."""
    package = folder / name
    package.mkdir()
    (package / "__init__.py").write_text('"""A game installed from elsewhere."""\n')
    (package / "rules.py").write_text((REPO / "tests" / "toygame.py").read_text())
    (package / "helpers").mkdir()
    (package / "helpers" / "__init__.py").write_text("")
    (package / "helpers" / "points.py").write_text("FACTOR = 1\n")
    return name


@pytest.mark.guarantee("log.unfit-snapshot-ignored")
def test_a_games_revision_covers_its_own_code_wherever_installed_and_no_other_games(tmp_path, monkeypatch):
    import dataclasses

    monkeypatch.syspath_prepend(str(tmp_path))
    package = _game_package(tmp_path, "elsewhere_toy_game")
    spec = dataclasses.replace(engine.spec("toy"), code=(package,))
    monkeypatch.setitem(engine._SPECS, "toy", spec)
    monkeypatch.setattr(snapshots, "_revision", functools.cache(snapshots._revision.__wrapped__))
    before = {name: snapshots.revision(name) for name in ("toy", "lca", "pw")}
    assert None not in before.values() and len(set(before.values())) == 3
    nested = tmp_path / package / "helpers" / "points.py"
    nested.write_text("FACTOR = 2\n")  # a fix deep inside the game's own package
    snapshots._revision.cache_clear()  # (what a new process sees)
    after = {name: snapshots.revision(name) for name in ("toy", "lca", "pw")}
    assert after["toy"] != before["toy"]
    assert (after["lca"], after["pw"]) == (before["lca"], before["pw"])
    # the revision names the files by their place in the package, not where it lies
    moved = tmp_path / "other-place"
    moved.mkdir()
    shutil.copytree(tmp_path / package, moved / package)
    monkeypatch.syspath_prepend(str(moved))
    importlib.invalidate_caches()
    monkeypatch.delitem(sys.modules, package, raising=False)
    snapshots._revision.cache_clear()
    assert importlib.util.find_spec(package).origin.startswith(str(moved))
    assert snapshots.revision("toy") == after["toy"]


@pytest.mark.guarantee("log.snapshot-needs-source")
def test_a_game_whose_source_cannot_be_read_takes_no_snapshot(monkeypatch):
    import dataclasses

    for code in (("sys",), ("no_such_game_package_anywhere",)):  # built in: no .py; not installed
        monkeypatch.setitem(engine._SPECS, "toy", dataclasses.replace(engine.spec("toy"), code=code))
        assert snapshots.revision("toy") is None
    assert snapshots.revision("lca") is not None
    assert snapshots.revision("no-such-game") is None
