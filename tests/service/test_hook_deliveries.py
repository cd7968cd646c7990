"""Posts to the channel (docs/service.md): what a hook receives after a close, signed,
split for Discord, tried again on failure, never following a redirect or waiting on a
hung receiver, and claimed once by two processes.  (The same bytes whatever a
participant's secret is: trust/privacy/test_hook_posts.py.)"""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest

from matchledger.commands.service.channel import DISCORD_LIMIT, split_text
from matchledger.commands.service.deliveries import Deliveries
from matchledger.projections.application import Application
from tests.helpers import invoke, read_json

from .hook_support import STUDIO, TIES, Receiver, add_hook, close_round_one, deliver_all, lca_match, public_text


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


def test_a_close_is_posted_once_as_the_public_post_signed_with_the_secret(tmp_path, receiver):
    db = tmp_path / "m.db"
    lca_match(db)
    hook = add_hook(db, receiver.url)
    assert deliver_all(db) == []  # nothing closed since the hook was added
    close_round_one(db)
    [delivered] = deliver_all(db)
    assert delivered.state == "delivered" and [a.status for a in delivered.attempts] == [204]
    [request] = receiver.requests
    assert json.loads(request.body) == {"content": public_text(db), "allowed_mentions": {"parse": []}}
    stamp = request.headers["X-Matchledger-Timestamp"]
    expected = hmac.new(hook["secret"].encode(), stamp.encode() + b"." + request.body, hashlib.sha256).hexdigest()
    assert request.headers["X-Matchledger-Signature"] == f"sha256={expected}"
    assert abs(int(stamp) - time.time()) < 60
    assert "Cookie" not in request.headers and "Authorization" not in request.headers
    assert deliver_all(db) == [] and len(receiver.requests) == 1  # posted once
    listed = invoke(db, "hook", "list", "m1").stdout
    assert f"seq {delivered.seq} close: delivered (" in listed and "HTTP 204" in listed
    assert hook["secret"] not in listed and hook["secret"] not in invoke(db, "hook", "list", "--json").stdout


@pytest.mark.guarantee("hooks.public-only")
def test_no_private_message_is_posted(tmp_path, receiver):
    db = tmp_path / "m.db"
    lca_match(db)
    add_hook(db, receiver.url, "--format", "json")
    close_round_one(db)
    deliver_all(db)
    [request] = receiver.requests
    body = json.loads(request.body)
    public = read_json(db, "messages", "m1", "--public", "--json")
    assert body == {
        "match": "m1",
        "game": "lca",
        "kind": "close",
        "seq": public["seq"],
        "round": 1,
        "text": public_text(db),
        "post": public["public"],
    }
    private = read_json(db, "messages", "m1", "--as", "ann", "--json")["participants"]["ann"]
    assert "lights_score" in json.dumps(private) and "lights_score" not in request.body.decode()


def test_the_close_that_ends_the_match_is_posted_once_as_finished(tmp_path, receiver):
    db = tmp_path / "m.db"
    lines = TIES.read_text().splitlines()
    assert lines[-1] == "close ties8"
    script = tmp_path / "most.txt"
    script.write_text("\n".join(lines[:-1]) + "\n")
    invoke(db, "script", script)
    read_json(db, "hook", "add", "ties8", receiver.url, "--on", "close,finished", "--json")
    invoke(db, "close", "ties8")
    [delivered] = deliver_all(db)
    assert (delivered.kind, delivered.state) == ("finished", "delivered")
    assert len(receiver.requests) == 1


def test_a_failed_post_is_tried_again_and_each_attempt_kept(tmp_path):
    receiver = Receiver(statuses=[500, 503, 204])
    try:
        db = tmp_path / "m.db"
        lca_match(db)
        add_hook(db, receiver.url)
        close_round_one(db)
        [delivered] = deliver_all(db)
    finally:
        receiver.close()
    assert [a.status for a in delivered.attempts] == [500, 503, 204] and delivered.state == "delivered"
    assert len({request.body for request in receiver.requests}) == 1


def test_attempts_are_bounded_and_a_refusal_is_not_tried_again(tmp_path):
    for statuses, tries in (([500], 3), ([404], 1)):
        receiver = Receiver(statuses=statuses)
        try:
            db = tmp_path / f"{statuses[0]}.db"
            lca_match(db)
            add_hook(db, receiver.url)
            close_round_one(db)
            [delivered] = deliver_all(db, attempts=3)
        finally:
            receiver.close()
        assert (delivered.state, len(delivered.attempts), len(receiver.requests)) == ("failed", tries, tries)
        listed = invoke(db, "hook", "list").stdout
        assert f"HTTP {statuses[0]}" in listed and "\x1b" not in listed  # the answer's body is never shown


def test_a_redirect_is_not_followed(tmp_path):
    receiver = Receiver(statuses=[302])
    try:
        db = tmp_path / "m.db"
        lca_match(db)
        add_hook(db, receiver.url)
        close_round_one(db)
        [delivered] = deliver_all(db)
    finally:
        receiver.close()
    assert [request.path for request in receiver.requests] == ["/hook"]
    assert (delivered.state, [a.status for a in delivered.attempts]) == ("failed", [302])


def test_a_hung_receiver_times_out(tmp_path):
    receiver = Receiver(hang=5)
    try:
        db = tmp_path / "m.db"
        lca_match(db)
        add_hook(db, receiver.url)
        close_round_one(db)
        started = time.monotonic()
        [delivered] = deliver_all(db, attempts=2, timeout=0.3, total=1.0)
        took = time.monotonic() - started
    finally:
        receiver.close()
    assert took < 3
    assert delivered.state == "failed" and [a.error for a in delivered.attempts] == ["timed out", "timed out"]


@pytest.mark.guarantee("hooks.posted-once")
def test_two_serves_on_one_database_post_each_close_once(tmp_path, receiver):
    db = tmp_path / "m.db"
    lca_match(db)
    add_hook(db, receiver.url)
    close_round_one(db)
    first, second = (Deliveries(lambda: Application.open(str(db))) for _ in range(2))
    apps = [Application.open(str(db)) for _ in range(2)]
    try:
        assert [first.scan_once(apps[0]), second.scan_once(apps[1])] == [1, 0]
    finally:
        for application in apps:
            application.close()


def test_the_running_worker_posts_a_close_off_the_caller(tmp_path, receiver):
    db = tmp_path / "m.db"
    lca_match(db)
    add_hook(db, receiver.url)
    deliveries = Deliveries(lambda: Application.open(str(db)), poll=0.05).start()
    try:
        close_round_one(db)
        deadline = time.monotonic() + 10
        while not receiver.requests and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        deliveries.stop()
    assert len(receiver.requests) == 1


def test_a_removed_hook_is_posted_nothing(tmp_path, receiver):
    db = tmp_path / "m.db"
    lca_match(db)
    hook = add_hook(db, receiver.url)
    invoke(db, "hook", "remove", hook["id"])
    close_round_one(db)
    assert deliver_all(db) == [] and receiver.requests == []


def test_a_long_post_is_split_at_line_ends_within_discords_limit():
    lines = [f"line {n} " + "x" * 90 for n in range(60)]
    text = "\n".join(lines)
    pieces = split_text(text)
    assert len(pieces) > 1 and all(len(piece) <= DISCORD_LIMIT for piece in pieces)
    assert "\n".join(pieces) == text  # cut only where a line ends
    assert all(piece.split("\n")[0].startswith("line ") for piece in pieces)
    one_long_line = "y" * (2 * DISCORD_LIMIT + 5)
    assert [len(piece) for piece in split_text(one_long_line)] == [DISCORD_LIMIT, DISCORD_LIMIT, 5]
    assert split_text("short") == ["short"]


def _received_within(receiver: Receiver, count: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while len(receiver.requests) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def test_two_serve_processes_on_postgresql_post_a_close_once(postgres_url, tmp_path, receiver):
    from .support import Server

    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    add_hook(postgres_url, receiver.url)
    with Server(postgres_url, folder=tmp_path), Server(postgres_url, folder=tmp_path):
        close_round_one(postgres_url)
        _received_within(receiver, 1, 15)
        _received_within(receiver, 2, 2)  # a second post would have come by now
    assert len(receiver.requests) == 1
    [standing] = read_json(postgres_url, "hook", "list", "--json")
    assert [(d["kind"], d["state"]) for d in standing["deliveries"]] == [("close", "delivered")]


def test_a_hung_receiver_never_stalls_the_pages(tmp_path):
    from .support import Server

    receiver = Receiver(hang=8)
    try:
        db = tmp_path / "m.db"
        lca_match(db)
        add_hook(db, receiver.url)
        with Server(db) as server:
            close_round_one(db)
            _received_within(receiver, 1, 15)  # the post is under way, its receiver silent
            assert len(receiver.requests) == 1
            started = time.monotonic()
            page = server.client.get("/m/m1")
            took = time.monotonic() - started
        assert page.status_code == 200 and took < 2
    finally:
        receiver.close()
