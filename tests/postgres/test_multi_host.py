"""Several hosts on one PostgreSQL database: two hosts at their own terminals, each
running a match and sharing a third, whose season then moves to SQLite; eight processes, each with a connection of
its own, record at once into one shared match and each into its own, half through the
store, half through whole CLI commands; checked afterwards as on SQLite
(tests/reliability/eight_writers.py): every match verifies, the events are exactly the
accepted commands', every loser was told (exit 1) and left nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import psycopg
import pytest

from matchledger.ledger.errors import DatabaseBusy, LogConflict
from matchledger.ledger.events import MatchCreated, NoteAdded
from tests.helpers import REPO, invoke
from tests.reliability.eight_writers import record_at_once

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})

ATTEMPTS = 60


@pytest.mark.guarantee("postgres.multi-host")
def test_eight_processes_each_with_its_own_connection_record_at_once(postgres_url, tmp_path):
    record_at_once(postgres_url, tmp_path, ATTEMPTS)


@pytest.mark.guarantee("postgres.no-long-locks")
def test_a_slow_reader_never_blocks_a_writer_and_a_writer_blocks_only_its_own_match(postgres_url, opened):
    store = opened(postgres_url, lock_timeout=0.5)
    for match in ("m1", "m2"):
        store.append(match, 1, [CREATED], actor="h", recorded_at=T)
    # a reader in the middle of a long transaction, having read the whole match
    with psycopg.connect(postgres_url) as reader:
        reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        assert len(reader.execute("SELECT body FROM events WHERE match_id = 'm1'").fetchall()) == 1
        store.append("m1", 2, [NoteAdded(text="while reading")], actor="h", recorded_at=T)  # not blocked
        assert len(reader.execute("SELECT body FROM events WHERE match_id = 'm1'").fetchall()) == 1  # its snapshot
    # a writer in the middle of its command holds that match only
    other = opened(postgres_url, lock_timeout=0.5)
    with store.transaction():
        store.append("m1", 3, [NoteAdded(text="held")], actor="h", recorded_at=T)
        assert opened(postgres_url, read_only=True).head("m1")[0] == 2  # readers see the last commit, at once
        other.append("m2", 2, [NoteAdded(text="elsewhere")], actor="h2", recorded_at=T)  # another match goes on
        with pytest.raises(DatabaseBusy, match="busy"):
            other.append("m1", 3, [NoteAdded(text="same match")], actor="h2", recorded_at=T)
    with pytest.raises(LogConflict, match="moved on"):  # once it committed: the loser is told
        other.append("m1", 3, [NoteAdded(text="same match")], actor="h2", recorded_at=T)
    assert [r.event().text for r in store.rows("m1")[1:]] == ["while reading", "held"]


def _host(db: str, name: str, own: str, notes: int, said: list) -> None:
    """A host at a terminal of their own: real `matchledger` processes, MATCHLEDGER_DB
    set, re-submitting a note the other host's note got ahead of."""
    env = dict(os.environ, MATCHLEDGER_DB=db, MATCHLEDGER_ACTOR=name)

    def matchledger(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [sys.executable, "-m", "matchledger", *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=60
        )
        said.append((name, args, done.returncode, done.stderr))
        return done

    try:
        assert matchledger("new", "photographer", own, "--players", "ann,bob", "--seed", "7").returncode == 0
        for i in range(notes):
            for match in (own, "shared"):
                while matchledger("note", match, f"{name} {i}").returncode != 0:
                    assert "moved on" in said[-1][3] or "another writer" in said[-1][3], said[-1]
    except AssertionError as exc:
        said.append((name, "failed", exc))


@pytest.mark.guarantee("postgres.multi-host")
def test_two_hosts_run_a_match_each_and_share_a_third_then_the_season_moves_to_sqlite(postgres_url, tmp_path, opened):
    said: list = []
    env = dict(os.environ, MATCHLEDGER_DB=postgres_url, MATCHLEDGER_ACTOR="ann-host")
    subprocess.run(
        [sys.executable, "-m", "matchledger", "new", "photographer", "shared", "--players", "cat,dan", "--seed", "9"],
        check=True,
        capture_output=True,
        env=env,
        cwd=REPO,
    )
    hosts = [
        threading.Thread(target=_host, args=(postgres_url, name, f"{name}-own", 4, said)) for name in ("ann", "bob")
    ]
    for host in hosts:
        host.start()
    for host in hosts:
        host.join()
    assert [entry for entry in said if entry[1] == "failed"] == []
    store = opened(postgres_url, read_only=True)
    texts = {match: [r.event().text for r in store.rows(match) if r.kind == "NoteAdded"] for match in store.match_ids()}
    assert sorted(texts) == ["ann-own", "bob-own", "shared"]
    assert texts["ann-own"] == [f"ann {i}" for i in range(4)] and texts["bob-own"] == [f"bob {i}" for i in range(4)]
    assert sorted(texts["shared"]) == sorted(f"{name} {i}" for name in ("ann", "bob") for i in range(4))

    season = tmp_path / "season.db"
    for match in texts:
        exported = tmp_path / f"{match}.jsonl"
        exported.write_bytes(invoke(postgres_url, "export", match).stdout_bytes)
        invoke(season, "import", exported)
        assert invoke(season, "head", match).output == invoke(postgres_url, "head", match).output
    assert invoke(season, "verify", "--all").output == invoke(postgres_url, "verify", "--all").output
