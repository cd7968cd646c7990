"""A season moved between the back ends: every match exported from SQLite and imported
into PostgreSQL, then back into a new SQLite file, keeps its bytes, hashes and heads;
and ``verify --all --jobs N`` on PostgreSQL (each worker process with a connection of
its own) reports exactly what one process does, a tampered row included."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from tests.helpers import invoke
from tests.reliability.support import build_fixture_db

SEASON = {
    "lca": "fixtures/lca/amendment-example.txt",
    "lca-2": "fixtures/lca/ties-and-contracts.txt",
    "pw": "fixtures/pw/swap_one_member.txt",
    "pw-2": "fixtures/pw/swap_both_members.txt",
    "photographer": "fixtures/photographer/g2-seed7.txt",
    "photographer-2": "fixtures/photographer/g3-sunset.txt",
}


def exports(db: str, match_ids: list[str]) -> dict[str, bytes]:
    return {match_id: invoke(db, "export", match_id).stdout_bytes for match_id in match_ids}


def heads(db: str, match_ids: list[str]) -> dict[str, dict]:
    return {match_id: json.loads(invoke(db, "head", match_id, "--json").stdout) for match_id in match_ids}


def move(exported: dict[str, bytes], db: str, folder: Path) -> None:
    """Import every exported match into ``db``, checking what import says it wrote."""
    folder.mkdir(exist_ok=True)
    for match_id, data in exported.items():
        path = folder / f"{match_id}.jsonl"
        path.write_bytes(data)
        last = json.loads(data.splitlines()[-1])
        said = invoke(db, "import", path).stdout
        assert said == f"imported {len(data.splitlines())} events of {match_id!r}; head {last['seq']}:{last['hash']}\n"


@pytest.fixture
def sqlite_season(tmp_path) -> tuple[str, list[str]]:
    """A SQLite file holding six finished fixture matches, two of each game."""
    path = tmp_path / "season.db"
    build_fixture_db(path, SEASON)
    return str(path), _match_ids(path)


def _match_ids(path) -> list[str]:
    return sorted(report["match"] for report in json.loads(invoke(path, "verify", "--all", "--json").stdout)["matches"])


@pytest.mark.guarantee("postgres.portable")
def test_a_season_moved_to_postgresql_and_back_keeps_every_byte_hash_and_head(sqlite_season, postgres_url, tmp_path):
    sqlite_db, match_ids = sqlite_season
    original = exports(sqlite_db, match_ids)
    move(original, postgres_url, tmp_path / "to-postgres")
    assert exports(postgres_url, match_ids) == original
    assert heads(postgres_url, match_ids) == heads(sqlite_db, match_ids)
    assert invoke(postgres_url, "verify", "--all").output == invoke(sqlite_db, "verify", "--all").output
    for match_id in match_ids:  # and diff, across the two, finds them identical
        assert invoke(sqlite_db, "diff", match_id, "--db-b", postgres_url).output.startswith("identical: ")

    back = str(tmp_path / "back.db")
    move(exports(postgres_url, match_ids), back, tmp_path / "to-sqlite")
    assert exports(back, match_ids) == original
    assert heads(back, match_ids) == heads(sqlite_db, match_ids)
    # the same match cannot be imported twice, on either side
    for db in (postgres_url, back):
        again = invoke(db, "import", tmp_path / "to-postgres" / f"{match_ids[0]}.jsonl", expect=1)
        assert "already" in again.output and again.output.count("\n") == 1


@pytest.mark.guarantee("postgres.parallel-verify")
def test_verify_all_in_several_processes_on_postgresql_reports_what_one_process_does(
    sqlite_season, postgres_url, tmp_path
):
    sqlite_db, match_ids = sqlite_season
    move(exports(sqlite_db, match_ids), postgres_url, tmp_path / "in")
    clean = [
        invoke(postgres_url, "verify", "--all", "--jobs", jobs, *json_flag).output
        for jobs in ("1", "2", "3")
        for json_flag in ([], ["--json"])
    ]
    assert clean[0::2] == [clean[0]] * 3 and clean[1::2] == [clean[1]] * 3
    assert [line.split(" (")[0] for line in clean[0].splitlines() if line] == [f"{m}: ok" for m in match_ids]

    victim = match_ids[2]
    # the owner of the table switches its triggers off, edits a body, and on again
    with psycopg.connect(postgres_url) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        conn.execute("UPDATE events SET body = replace(body, '\"', ' \"') WHERE match_id = %s AND seq = 3", (victim,))
        conn.execute("ALTER TABLE events ENABLE TRIGGER USER")
    tampered = [invoke(postgres_url, "verify", "--all", "--jobs", jobs, expect=3).output for jobs in ("1", "2", "3")]
    assert tampered == [tampered[0]] * 3
    assert victim in tampered[0] and "seq 3" in tampered[0]
