"""Helpers shared by the reliability suites: fixture databases, raw SQLite access,
the in-process verify, and the soak factor."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from matchledger.ledger.store import Store
from matchledger.ledger.verify import verify_chain
from matchledger.projections.rederive import rederive
from tests.helpers import REPO, invoke

T = "2026-01-01T00:00:00.000000Z"

#: One fixture script of each game.
FIXTURE_MATCHES = {
    "lca": "fixtures/lca/amendment-example.txt",
    "pw": "fixtures/pw/swap_one_member.txt",
    "photographer": "fixtures/photographer/g2-seed7.txt",
}


def soak() -> int:
    """MATCHLEDGER_SOAK=N multiplies the number of kills/attempts (default 1)."""
    try:
        return max(1, int(os.environ.get("MATCHLEDGER_SOAK", "1")))
    except ValueError:
        return 1


def match_id_of(script: Path) -> str:
    for line in script.read_text().splitlines():
        words = line.split()
        if words[:1] == ["new"]:
            return words[2]
    raise AssertionError(f"{script} has no `new` line")


def build_fixture_db(path: Path, scripts=None) -> dict[str, str]:
    """Run one fixture script per game into ``path``; returns {game: match id}."""
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        ids = {}
        for game, script in (scripts or FIXTURE_MATCHES).items():
            invoke(path, "script", REPO / script)
            ids[game] = match_id_of(REPO / script)
        return ids
    finally:
        os.chdir(cwd)


def copy_db(src: Path, dst: Path) -> Path:
    """A consistent copy of ``src`` (even with its WAL still open elsewhere), with every
    page in the main file ``dst`` and no WAL beside it."""
    source, target = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return dst


def raw(path, *sql, drop_triggers=True) -> None:
    """Edit the file with plain sqlite3, as an attacker would (triggers dropped)."""
    conn = sqlite3.connect(path)
    if drop_triggers:
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
    for statement in sql:
        if isinstance(statement, tuple):
            conn.execute(*statement)
        else:
            conn.execute(statement)
    conn.commit()
    conn.close()


def findings(path, match_id, head=None):
    """verify in-process: the chain first, then re-derivation (as `matchledger verify`)."""
    store = Store(path, create=False)
    try:
        rows = store.rows(match_id)
        found = verify_chain(match_id, rows, head)
        if not found:
            found = rederive(match_id, ((r.seq, r.event()) for r in rows))
        return found
    finally:
        store.close()


def all_rows(path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall()
    except sqlite3.OperationalError:  # no table yet
        return []
    finally:
        conn.close()
