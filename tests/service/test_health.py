"""`/healthz` and `/readyz` (``commands/service/health.py``), for a load balancer or an
orchestrator: the process answers; the database can be read, of a schema this server
reads.  A refusal names the kind of failure, never the database's address or password,
and is logged with its reason.  Through real `matchledger serve` processes, and the
probe's bounds (one at a time, a deadline) directly."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time

import pytest

from matchledger.commands.service.health import Readiness
from matchledger.commands.service.problems import PROBLEM_JSON, TYPE_PREFIX
from matchledger.ledger import migrations
from matchledger.ledger.errors import DatabaseUnavailable
from tests.helpers import invoke

from .support import STUDIO, Server

#: The longest wait for /readyz to change its answer (a verdict is kept a second).
CHANGE_SECONDS = 10.0


@pytest.fixture
def league(tmp_path):
    db = tmp_path / "league.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    return db


def _until(server: Server, status: int):
    """/readyz's answer, once it is ``status`` (or the last one, after CHANGE_SECONDS)."""
    deadline = time.monotonic() + CHANGE_SECONDS
    while True:
        answer = server.client.get("/readyz")
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def _not_ready(answer, kind: str) -> dict:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"] == PROBLEM_JSON and int(answer.headers["retry-after"]) > 0
    problem = answer.json()
    assert problem["type"] == TYPE_PREFIX + kind and problem["status"] == 503
    return problem


@pytest.mark.guarantee("service.probes")
def test_healthz_answers_while_the_process_runs_and_touches_no_database(league, tmp_path):
    with Server(league) as running:
        for path in ("/healthz", "/readyz"):
            answer = running.client.get(path)
            assert (answer.status_code, answer.json()) == (200, {"status": "ok"}), path
            assert (
                answer.headers["cache-control"] == "no-store" and answer.headers["content-type"] == "application/json"
            )
        league.rename(tmp_path / "elsewhere.db")  # the database gone from where it is read
        try:
            _not_ready(_until(running, 503), "no-database")
            assert running.client.get("/healthz").status_code == 200
        finally:
            (tmp_path / "elsewhere.db").rename(league)
        assert _until(running, 200).json() == {"status": "ok"}  # back, and ready again


@pytest.mark.guarantee("service.probes")
def test_readyz_names_a_schema_too_new_and_a_database_not_matchledgers_without_its_path(league):
    with Server(league) as running:
        assert running.client.get("/readyz").status_code == 200
        with sqlite3.connect(league) as conn:
            conn.execute("PRAGMA user_version = 999")  # as a newer matchledger would leave it
        too_new = _not_ready(_until(running, 503), "schema-too-new")
        assert "999" in too_new["detail"] and str(league) not in _until(running, 503).text
        with sqlite3.connect(league) as conn:
            conn.execute(f"PRAGMA user_version = {migrations.sqlite_version()}")
        assert _until(running, 200).status_code == 200
        with sqlite3.connect(league) as conn:
            conn.execute("CREATE TABLE intruder (x)")  # something matchledger does not make
        _not_ready(_until(running, 503), "not-a-matchledger-database")
        records = [r for r in running.log_records() if r.get("path") == "/readyz" and r["status"] == 503]
        assert {r["reason"] for r in records} == {"database schema too new", "not a matchledger database"}
        assert str(league) not in running.log() and league.name not in running.log()


@pytest.mark.guarantee("service.probes")
def test_readyz_says_an_unreachable_postgresql_server_unreachable_without_its_address_or_password(
    postgres_server, postgres_databases, tmp_path
):
    plain = postgres_databases.url()
    invoke(plain, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    # trust authentication takes any password: the URL carries one, which nothing may show
    url = plain.replace("postgres@", "postgres:secret-word@", 1)
    with Server(url, folder=tmp_path) as running:
        assert running.client.get("/readyz").status_code == 200
        postgres_server.stop()
        try:
            answer = _until(running, 503)
            _not_ready(answer, "unreachable")
            assert running.client.get("/healthz").status_code == 200
        finally:
            postgres_server.restart()
        refusals = [r for r in running.log_records() if r.get("path") == "/readyz" and r["status"] == 503]
        assert refusals and {r["reason"] for r in refusals} <= {"database unreachable", "database connection lost"}
        for text in (answer.text, *map(str, refusals)):
            assert str(postgres_server.port) not in text and "127.0.0.1:" not in text and "postgres" not in text
        assert "secret-word" not in running.log()
        assert _until(running, 200).status_code == 200  # the server back, the process ready again


# --------------------------------------------------------------------------- the probe's bounds


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_probe_that_does_not_answer_is_unreachable_by_its_deadline_and_probes_never_pile_up():
    release, calls, clock = threading.Event(), [], _Clock()

    def probe() -> None:
        calls.append(1)
        if not release.wait(10):  # a database that does not answer (bounded, against a hang)
            raise AssertionError("never released")

    readiness = Readiness(probe, deadline=0.05, kept=1.0, clock=clock)

    async def scenario():
        first = await readiness.check()
        second = await readiness.check()  # the first probe still runs: waited for, not doubled
        release.set()
        while readiness._running is not None:  # the probe ends once released
            await asyncio.sleep(0.01)
        return first, second, await readiness.check()

    try:
        first, second, after = asyncio.run(scenario())
    finally:
        release.set()
    assert first is not None and second is not None
    assert (first.status, first.kind, first.reason) == (503, "unreachable", "database unreachable (no answer in time)")
    assert after is None and len(calls) == 1  # the released probe's verdict answers, no second probe


def test_a_verdict_answers_the_probes_of_the_next_second_then_the_database_is_asked_again():
    outcomes, clock = [DatabaseUnavailable("cannot connect to 'postgresql://u:pw@db/x'"), None], _Clock()

    def probe() -> None:
        outcome = outcomes.pop(0)
        if outcome is not None:
            raise outcome

    readiness = Readiness(probe, clock=clock)

    async def checks():
        down = [await readiness.check() for _ in range(3)]
        clock.now += 1.5
        return down, await readiness.check()

    down, up = asyncio.run(checks())
    assert all(refusal is not None and refusal.kind == "unreachable" for refusal in down)
    assert "pw" not in down[0].message and "db/x" not in down[0].message  # fixed words, never the error's
    assert up is None and outcomes == []


def test_the_probe_opens_the_database_read_only(tmp_path):
    from matchledger.commands.service import readable

    missing = tmp_path / "none.db"
    with pytest.raises(Exception) as refused:
        readable(str(missing), 1.0)()
    assert type(refused.value).__name__ == "NoDatabase" and not os.path.exists(missing)  # a probe creates nothing
