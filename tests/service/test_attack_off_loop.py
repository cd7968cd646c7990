"""Attacks on `serve` reading off the event loop (issue 29; docs/service.md, "Reads"):
a stranger or a participant who wants to learn what their view hides, a revoked link
that wants to read on, a careless operator, and the races between what is pushed, what
is published to the loop and what is written.

Every test runs a real `serve` process on a PostgreSQL database of its own (changes are
pushed there: the case that answers on the loop), with the poll as slow as it may be.
"Paused" is what tests/service/test_stalled_database.py does: the database's server
processes stopped with SIGSTOP and continued after.  Pausing only the reading
connection's process (every backend but the listener's, before anything was written
through `serve`) stands for a read that takes long, a lock that holds one statement, or
a flood of reads that keeps the one reading thread busy: the database still commits
what others write and announces it."""

from __future__ import annotations

import signal
import subprocess
import threading
import time

import httpx
import psycopg
import pytest

from matchledger.commands.service.writes import QUEUE_DEADLINE_SECONDS
from matchledger.projections.application import Application
from tests.helpers import invoke
from tests.postgres.support import listeners, until

from .support import STOP_SECONDS, STUDIO, Server, bearer, events, invite
from .test_pushed_changes import ROUND_1, SLOW_POLL, own_database  # noqa: F401  # a fixture
from .test_stalled_database import PAUSE_GUARD_SECONDS, backends, paused

PUBLIC_PATHS = ("/api/v1/matches/m1/public", "/api/v1/matches/m1/head", "/m/m1")
#: How long the public keeps asking after the hidden submission (a guard, not a measure):
#: longer than the 2 s a read waits for the database, so a read that waits is seen.
ASKING_SECONDS = 5.0


def _listening(postgres_server, name: str) -> None:
    assert until(lambda: len(listeners(postgres_server, name)) == 1)


def _not_listening(postgres_server, name: str) -> list[int]:
    """Every backend of ``name`` but the listener's: the reading connection among them."""
    heard = set(listeners(postgres_server, name))
    return [pid for pid in backends(postgres_server, name) if pid not in heard]


def _writers_backend(postgres_server, name: str, client: httpx.Client, token: str) -> int:
    """The backend of `serve`'s writer, opened by a submission refused by the rules."""
    before = set(backends(postgres_server, name))
    refused = client.post("/api/v1/matches/m1/submissions", json={"tokens": ["nowhere"]}, headers=bearer(token))
    assert refused.status_code in (400, 422), refused.text
    [writer] = set(backends(postgres_server, name)) - before
    return writer


def _submissions(url: str) -> list[str]:
    app = Application.open(url, read_only=True)
    try:
        exported = app.export("m1")[0].decode()
    finally:
        app.close()
    return [line for line in exported.splitlines() if '"SubmissionRecorded"' in line]


# --------------------------------------------------------------------------- (1) a stranger, a participant


def test_a_hidden_submission_while_the_reading_thread_is_held_leaves_every_public_answer_as_it_was(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    url, name = own_database
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        _listening(postgres_server, name)
        with httpx.Client(base_url=server.url, timeout=PAUSE_GUARD_SECONDS) as client:
            _public_asked_through_a_hidden_submission(postgres_server, url, name, client)


def _public_asked_through_a_hidden_submission(postgres_server, url: str, name: str, client: httpx.Client) -> None:
    """The public's answers asked for before and, for a while, after a submission the
    public may not see, while the reading connection is paused: each the same bytes."""
    kept = {path: client.get(path).content for path in PUBLIC_PATHS}
    with paused(_not_listening(postgres_server, name)):
        for path, before in kept.items():  # control: kept, answered on the loop while the reads are held
            answer = client.get(path)
            assert (answer.status_code, answer.content) == (200, before), path
        invoke(url, "submit", "m1", "ann", *ROUND_1["ann"])  # hidden from the public; announced
        seen = []
        asking_until = time.monotonic() + ASKING_SECONDS
        while time.monotonic() < asking_until:
            for path, before in kept.items():
                answer = client.get(path)
                seen.append((path, answer.status_code))
                assert (answer.status_code, answer.content) == (200, before), seen


def test_a_public_stream_open_through_a_hidden_submission_while_reads_are_held_stays_open_and_sends_nothing(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    """A stream that ended (503 for its page, the browser's reconnect) at the moment of a
    hidden submission would tell its viewer of it as plainly as a message."""
    url, name = own_database
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        _listening(postgres_server, name)
        quiet = httpx.Timeout(PAUSE_GUARD_SECONDS, read=ASKING_SECONDS + 3)
        with httpx.Client(base_url=server.url, timeout=quiet) as client, client.stream("GET", "/m/m1/events") as public:
            [(kind, _first)] = events(public, 1)
            assert kind == "view"
            lines = public.extensions["sse-lines"]  # read on from where events() stopped
            with paused(_not_listening(postgres_server, name)):
                invoke(url, "submit", "m1", "ann", *ROUND_1["ann"])
                # nothing within the guard (the keep-alive beat is 15 s): neither a message nor the end
                with pytest.raises(httpx.ReadTimeout):
                    for line in lines:
                        raise AssertionError(f"the public stream sent {line!r} after a hidden submission")
                    raise AssertionError("the public stream ended after a hidden submission")


def test_a_request_that_carries_a_token_is_never_answered_from_what_the_loop_keeps(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    """``/head`` is published for the public; with any Authorization header (a valid
    link, a revoked one, an empty one) it must be looked up on the reading thread."""
    url, name = own_database
    ann = invite(url, "m1", "--as", "ann")["token"]
    bob = invite(url, "m1", "--as", "bob")["token"]
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        _listening(postgres_server, name)
        client = httpx.Client(base_url=server.url, timeout=PAUSE_GUARD_SECONDS)
        public = client.get("/api/v1/matches/m1/head")
        assert public.status_code == 200 and client.get("/api/v1/matches/m1/head").content == public.content
        assert client.get("/api/v1/matches/m1/head", headers=bearer(bob)).status_code == 200
        invoke(url, "revoke", bob)
        assert client.get("/api/v1/matches/m1/head", headers=bearer(bob)).status_code == 401
        assert client.get("/api/v1/matches/m1/head", headers={"Authorization": ""}).status_code == 401
        assert client.get("/api/v1/matches/m1/head", headers={"Authorization": "Basic eDp5"}).status_code == 401
        with paused(backends(postgres_server, name)):
            assert client.get("/api/v1/matches/m1/head").content == public.content  # the public's, on the loop
            for headers in (bearer(ann), bearer(bob), {"Authorization": "Bearer " + "x" * 32}):
                answer = client.get("/api/v1/matches/m1/head", headers=headers)
                assert answer.status_code == 503 and answer.content != public.content, headers
            revoked_page = client.get(f"/p/{bob}")
            assert revoked_page.status_code == 503
        client.close()


def test_a_participants_own_submission_is_in_their_very_next_answer_while_changes_are_pushed(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    """The writer tells ``moved`` before it answers; nothing waits for the announcement."""
    url, name = own_database
    ann = invite(url, "m1", "--as", "ann", "--submit")["token"]
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        _listening(postgres_server, name)
        client = server.client
        before = client.get("/api/v1/matches/m1/me", headers=bearer(ann))
        page_before = client.get(f"/p/{ann}")
        assert before.status_code == 200 and page_before.status_code == 200
        posted = client.post("/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(ann))
        assert posted.status_code == 201, posted.text
        seq = posted.json()["seq"]
        after = client.get("/api/v1/matches/m1/me", headers=bearer(ann))
        assert after.status_code == 200 and after.content != before.content
        page = client.get(f"/p/{ann}")
        assert page.status_code == 200 and page.text != page_before.text and f"{seq}:" in page.text


@pytest.mark.xfail(
    strict=True,
    reason="found (with push; the kept heads before the off-loop change did the same, peek extends it to "
    "the loop): a row edited behind the ledger's back, with the triggers off, announces nothing, so the "
    "public's kept answer is served until the match is 5 minutes old in the kept states, not refused at "
    "the next request as docs/service.md ('Reads') says",
)
def test_a_row_edited_behind_the_ledgers_back_is_refused_at_the_next_public_request_while_pushed(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    url, name = own_database
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        _listening(postgres_server, name)
        assert server.client.get("/api/v1/matches/m1/public").status_code == 200
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET session_replication_role = replica")  # the append-only triggers off
            edited = conn.execute(
                "UPDATE events SET body = replace(body, 'ann', 'amy') WHERE match_id = 'm1' AND seq = 1"
            ).rowcount
        assert edited == 1
        assert invoke(url, "status", "m1", expect=None).exit_code != 0  # a fresh read refuses it
        answer = server.client.get("/api/v1/matches/m1/public")
        assert answer.status_code == 409, answer.text


# --------------------------------------------------------------------------- (3) races with the writer


def test_a_submission_dropped_at_the_deadline_is_never_written_when_the_database_answers_again(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    """Ann's submission is taken and held by the paused database; Bob's waits behind it,
    is refused as not recorded, and must stay unrecorded once Ann's is written."""
    url, name = own_database
    ann = invite(url, "m1", "--as", "ann", "--submit")["token"]
    bob = invite(url, "m1", "--as", "bob", "--submit")["token"]
    with Server(url, folder=tmp_path, poll=SLOW_POLL) as server:
        _listening(postgres_server, name)
        client = httpx.Client(base_url=server.url, timeout=PAUSE_GUARD_SECONDS * 2)
        writer = _writers_backend(postgres_server, name, client, ann)
        held: dict[str, httpx.Response] = {}

        def ann_submits() -> None:
            held["ann"] = client.post(
                "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(ann)
            )

        writing = threading.Thread(target=ann_submits)
        with paused([writer]):  # the writer's connection alone: the reads go on
            writing.start()
            # Still unanswered past the queue's deadline (2 s): taken by the writer, held there.
            writing.join(QUEUE_DEADLINE_SECONDS + 1)
            assert writing.is_alive() and "ann" not in held
            refused = client.post(
                "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["bob"]}, headers=bearer(bob)
            )
            assert refused.status_code == 503 and "nothing was recorded" in refused.text, refused.text
        writing.join(PAUSE_GUARD_SECONDS * 2)
        assert not writing.is_alive()
        assert held["ann"].status_code == 201, held["ann"].text
        recorded = _submissions(url)
        assert len(recorded) == 1 and not any('"bob"' in line for line in recorded), recorded
        client.close()


# --------------------------------------------------------------------------- (2) a careless operator


def _stops_while_paused(server: Server, pids: list[int], hold) -> int | None:
    """SIGTERM sent while ``pids`` are paused and ``hold()`` left work held by them: the
    exit code if serve stopped within ``STOP_SECONDS`` while still paused, else None (it
    may stop once continued)."""
    with paused(pids):
        hold()
        server.process.send_signal(signal.SIGTERM)
        try:
            return server.process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            return None


def _ended(server: Server) -> None:
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()
    server.stop()  # closes what it holds; the process has ended


@pytest.mark.guarantee("service.database-deadline")
def test_sigterm_while_a_read_is_held_by_a_paused_database_stops_serve(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    url, name = own_database
    ann = invite(url, "m1", "--as", "ann")["token"]
    server = Server(url, folder=tmp_path, poll=SLOW_POLL)
    try:
        _listening(postgres_server, name)

        def hold() -> None:  # a read now held on the reading thread
            assert server.client.get("/api/v1/matches/m1/me", headers=bearer(ann)).status_code == 503

        code = _stops_while_paused(server, backends(postgres_server, name), hold)
        assert code == 0, "serve did not stop within 15 s of SIGTERM while its database was paused"
    finally:
        _ended(server)


@pytest.mark.guarantee("service.database-deadline")
def test_sigterm_while_a_submission_is_held_by_a_paused_writer_connection_stops_serve(
    postgres_server,
    own_database,  # the fixture imported above
    tmp_path,
):
    url, name = own_database
    ann = invite(url, "m1", "--as", "ann", "--submit")["token"]
    server = Server(url, folder=tmp_path, poll=SLOW_POLL)
    client = httpx.Client(base_url=server.url, timeout=PAUSE_GUARD_SECONDS * 3)
    try:
        _listening(postgres_server, name)
        writer = _writers_backend(postgres_server, name, client, ann)
        writing = threading.Thread(
            target=lambda: client.post(
                "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(ann)
            ),
            daemon=True,
        )

        def hold() -> None:
            writing.start()
            writing.join(QUEUE_DEADLINE_SECONDS + 1)  # unanswered past the queue's deadline: taken, held
            assert writing.is_alive()

        code = _stops_while_paused(server, [writer], hold)
        assert code == 0, "serve did not stop within 15 s of SIGTERM while its writer's connection was paused"
    finally:
        _ended(server)
        writing.join(PAUSE_GUARD_SECONDS)
        client.close()


# --------------------------------------------------------------------------- (2) SQLite, shared by threads


def test_sqlites_one_connection_serves_requests_streams_the_refresher_and_the_poller_without_an_error(tmp_path):
    """The reading connection is opened with check_same_thread=False; were it ever used
    by two threads at once (requests, the refresher, the live poller, the writer's
    wake-ups), SQLite or its driver would refuse a statement: some answer a 500."""
    db = tmp_path / "shared.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    ann = invite(db, "m1", "--as", "ann", "--submit")["token"]
    statuses: list[int] = []
    with Server(db) as server, server.client.stream("GET", "/m/m1/events") as public:
        assert events(public, 1)[0][0] == "view"

        def asks() -> None:
            with httpx.Client(base_url=server.url, timeout=30) as client:
                for _ in range(25):
                    for path in ("/api/v1/matches/m1/public", "/m/m1", "/api/v1/matches/m1/head"):
                        statuses.append(client.get(path).status_code)
                    statuses.append(client.get("/api/v1/matches/m1/me", headers=bearer(ann)).status_code)

        askers = [threading.Thread(target=asks) for _ in range(3)]
        for asker in askers:
            asker.start()
        for note in range(5):  # commits from another process: the token moves, the poller and refresher read
            invoke(db, "note", "m1", f"note {note}")
        posted = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]}, headers=bearer(ann)
        )
        for asker in askers:
            asker.join(PAUSE_GUARD_SECONDS * 4)
        assert posted.status_code == 201, posted.text
        assert statuses and set(statuses) == {200}, sorted(set(statuses))
        assert not [record for record in server.log_records() if record.get("status", 0) >= 500]
