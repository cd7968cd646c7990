"""Clients that do what a browser never does, against a real `serve` while the host works
from the command line in processes of its own: requests that hold their body back until
after a revocation, keep-alive connections that pipeline, rows edited behind the
ledger's back while it serves, paths and queries made to break the log.

Each "after the host's command returned" is measured by the client's own clock: a
request sent after the command's process ended must see what it committed."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest

from .support import STUDIO, RawConnection, Server, bearer, host

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1"}
#: Seconds the server is given to read a request's headers before the host acts (were it
#: slower, the request would simply be read after the host's command: the test still holds).
HEADERS_READ = 0.3


@pytest.fixture
def lca_with_ann_link(tmp_path):
    """An lca match in round 1, nothing submitted; ann's link that may submit."""
    db = tmp_path / "league.db"
    host(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", str(STUDIO))
    return db, json.loads(host(db, "invite", "m1", "--as", "ann", "--submit", "--json"))["token"]


def head_seq(db) -> int:
    """The match's last seq, as the file holds it (read without the ledger: the log may not verify)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT max(seq) FROM events WHERE match_id = 'm1'").fetchone()[0]


def held_back(url: str, path: str, headers: dict[str, str], body: bytes) -> RawConnection:
    """A request whose headers are sent now and whose body is sent by the caller later."""
    connection = RawConnection(url)
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: x",
        f"Content-Length: {len(body)}",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    connection.send(("\r\n".join(lines) + "\r\n\r\n").encode())
    return connection


# --------------------------------------------------------------------------- a body held back past a revocation


@pytest.mark.guarantee("service.tokens-scoped")
def test_a_submission_whose_body_comes_after_the_revocation_is_refused_and_writes_nothing(lca_with_ann_link):
    db, token = lca_with_ann_link
    body = json.dumps({"tokens": ROUND_1["ann"].split()}).encode()
    with Server(db) as running:
        with held_back(
            running.url, "/api/v1/matches/m1/submissions", {**bearer(token), "Content-Type": "application/json"}, body
        ) as held:
            time.sleep(HEADERS_READ)
            host(db, "revoke", token)
            held.send(body)
            status, answer = held.answer()
    refusal = "this token does not open this match: it is unknown, revoked or for another match"
    assert (status, json.loads(answer)) == (
        401,
        {"type": "about:blank", "title": "Unauthorized", "status": 401, "detail": refusal, "error": refusal},
    )
    assert head_seq(db) == 1


@pytest.mark.guarantee("service.tokens-scoped")
@pytest.mark.parametrize("form", ["tokens=G4+A1+B1+C1+D1", "tokens=ZZ99"], ids=["legal", "refused-by-the-rules"])
def test_a_form_whose_body_comes_after_the_revocation_is_refused_and_shows_nothing(lca_with_ann_link, form):
    """A form the rules refuse would be answered with the participant's whole page (422),
    as the match stands then: a revoked link must not read it."""
    db, token = lca_with_ann_link
    with Server(db) as running:
        with held_back(
            running.url, f"/p/{token}", {"Content-Type": "application/x-www-form-urlencoded"}, form.encode()
        ) as held:
            time.sleep(HEADERS_READ)
            host(db, "revoke", token)
            host(db, "submit", "m1", "ann", *ROUND_1["ann"].split())  # made after the revocation
            held.send(form.encode())
            status, answer = held.answer()
    assert status == 403 and b"This link opens nothing" in answer and b"G4" not in answer
    assert head_seq(db) == 2  # the host's submission only


# --------------------------------------------------------------------------- keep-alive and pipelining


def hammer(url: str, request: bytes, act, clients: int = 4) -> tuple[list[tuple[float, int, bytes]], float, float]:
    """``clients`` keep-alive connections (every other one pipelining two requests) sending
    ``request`` over and over while ``act()`` runs; every (sent at, status, body), when
    ``act`` was called and when it returned."""
    stop = threading.Event()
    seen: list[tuple[float, int, bytes]] = []

    def client(pipelined: bool) -> None:
        with RawConnection(url) as connection:
            while not stop.is_set():
                sent = time.monotonic()
                connection.send(request * (2 if pipelined else 1))
                for _ in range(2 if pipelined else 1):
                    seen.append((sent, *connection.answer()))

    threads = [threading.Thread(target=client, args=(index % 2 == 0,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(0.4)
        called = time.monotonic()
        act()
        returned = time.monotonic()
        time.sleep(0.4)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return seen, called, returned


@pytest.mark.guarantee("service.tokens-scoped")
@pytest.mark.parametrize("path", ["/api/v1/matches/m1/me", "/p/{token}"])
def test_no_request_sent_after_the_revocation_returned_is_let_in(lca_with_ann_link, path):
    db, token = lca_with_ann_link
    with Server(db) as running:
        request = (
            f"GET {path.format(token=token)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        )
        seen, revoking, revoked = hammer(running.url, request, lambda: host(db, "revoke", token))
    before = [status for sent, status, _ in seen if sent < revoking]
    after = [status for sent, status, _ in seen if sent > revoked]
    assert before and set(before) == {200}
    assert len(after) > 10 and set(after) == {401 if path.startswith("/api") else 403}


@pytest.mark.guarantee("service.live")
@pytest.mark.parametrize("path", ["/api/v1/matches/m1/head", "/api/v1/matches/m1/public"])
def test_no_request_sent_after_the_hosts_close_returned_sees_the_match_before_it(lca_with_ann_link, path):
    db, _token = lca_with_ann_link
    for player, cells in ROUND_1.items():
        host(db, "submit", "m1", player, *cells.split())
    with Server(db) as running:
        seen, _closing, closed = hammer(
            running.url, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), lambda: host(db, "close", "m1")
        )
    first = seen[0][2]
    after = [body for sent, _status, body in seen if sent > closed]
    assert len(after) > 10 and first not in after


# --------------------------------------------------------------------------- the log edited while serving


def edited(db, sql: str) -> None:
    """An edit behind the ledger's back, as anyone with the file can make it."""
    with sqlite3.connect(db) as conn:
        for trigger in ("events_no_update", "events_no_delete"):
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.execute(sql)


@pytest.mark.guarantee("service.tamper-refused")
def test_a_row_edited_while_serving_is_refused_at_the_next_request(lca_with_ann_link):
    db, token = lca_with_ann_link
    host(db, "submit", "m1", "ann", *ROUND_1["ann"].split())
    with Server(db) as running:
        paths = ["/api/v1/matches/m1/public", "/api/v1/matches/m1/head", "/m/m1", f"/p/{token}"]
        assert [running.client.get(path).status_code for path in paths] == [200] * 4
        edited(db, "UPDATE events SET body = replace(body, 'G4', 'H4') WHERE match_id = 'm1' AND seq = 2")
        answers = [running.client.get(path) for path in paths]
        assert [answer.status_code for answer in answers] == [409] * 4
        assert all("does not verify" in answer.text and "seq 2" not in answer.text for answer in answers)
        submitted = running.client.post(
            "/api/v1/matches/m1/submissions", headers=bearer(token), json={"tokens": ROUND_1["ann"].split()}
        )
        assert submitted.status_code == 409  # nothing is decided from a log that does not verify
    assert head_seq(db) == 2


@pytest.mark.guarantee("service.tamper-refused")
def test_a_row_added_behind_the_ledgers_back_while_serving_is_refused_at_the_next_request(lca_with_ann_link):
    db, _token = lca_with_ann_link
    with Server(db) as running:
        assert running.client.get("/api/v1/matches/m1/head").status_code == 200
        edited(
            db,
            "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) "
            "SELECT match_id, 2, kind, body, recorded_at, actor, hash, printf('%064d', 0) FROM events "
            "WHERE match_id = 'm1' AND seq = 1",
        )
        assert running.client.get("/api/v1/matches/m1/head").status_code == 409


# --------------------------------------------------------------------------- requests made to break the log


@pytest.mark.guarantee("service.log-no-token")
def test_a_delete_character_in_a_path_is_written_escaped_in_the_json_log(lca_with_ann_link):
    db, _token = lca_with_ann_link
    with Server(db) as running:
        assert running.client.get("/m/x%7Fy").status_code == 404
        text = running.log(until="/m/x")
    assert "\x7f" not in text and "/m/x\\u007fy" in text


def test_a_seq_written_in_other_digits_is_a_clear_400_and_the_log_stays_json_lines(lca_with_ann_link):
    """``"²".isdigit()`` is true, but ² is no seq."""
    db, token = lca_with_ann_link
    with Server(db) as running:
        public = running.client.get("/api/v1/matches/m1/public", params={"at": "²"})
        page = running.client.get(f"/p/{token}", params={"recorded": "²"})
        text = running.log()
    assert public.status_code == 400 and "got '²'" in public.json()["error"]
    assert page.status_code == 200
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines and all(line.startswith("{") for line in lines), lines[:3]


# --------------------------------------------------------------------------- what one link may write


def test_a_form_field_longer_than_its_limit_is_refused_not_cut_short(lca_with_ann_link):
    """Cut short, six cells (which the rules refuse) would have been recorded as five."""
    from matchledger.commands.service.forms import FIELD_MAX

    db, token = lca_with_ann_link
    sent = " ".join(ROUND_1["ann"].split()) + " " * FIELD_MAX + " E1"
    with Server(db) as running:
        page = running.client.get(f"/p/{token}")
        answer = running.client.post(f"/p/{token}", data={"tokens": sent}, follow_redirects=False)
    assert f'maxlength="{FIELD_MAX}"' in page.text
    assert answer.status_code == 400 and f"longer than {FIELD_MAX} characters" in answer.text
    assert head_seq(db) == 1


def test_one_link_makes_a_bounded_number_of_submissions_in_a_round(lca_with_ann_link):
    """Each resubmission is an event for ever, and every read of the match reads it."""
    from matchledger.projections.application.access import SUBMISSIONS_PER_ROUND

    db, token = lca_with_ann_link
    with Server(db) as running:
        answers = [
            running.client.post(
                "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"].split()}, headers=bearer(token)
            )
            for _ in range(SUBMISSIONS_PER_ROUND + 2)
        ]
    assert [a.status_code for a in answers] == [201] * SUBMISSIONS_PER_ROUND + [429] * 2
    assert f"ann already has {SUBMISSIONS_PER_ROUND} submissions in round 1" in answers[-1].json()["error"]
    assert head_seq(db) == 1 + SUBMISSIONS_PER_ROUND
    host(db, "submit", "m1", "ann", *ROUND_1["ann"].split())  # the host still may
    assert head_seq(db) == 2 + SUBMISSIONS_PER_ROUND
