"""What the service keeps while changes are pushed (``commands/service/reads.py``): the
change token moving drops the grants only (a revocation is seen by the next request
that carries the link), a pushed move re-reads that match alone, and listening again,
or no longer, forgets everything kept.  The pushes are told by hand here, on a real
store, as the listener's thread hands them over (the listener itself:
tests/postgres/test_listen.py; end to end: tests/service/test_pushed_changes.py)."""

from __future__ import annotations

import asyncio

import pytest

from matchledger.commands.service.reads import Reads
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO, invite


@pytest.fixture
def two_matches(tmp_path):
    db = tmp_path / "pushed.db"
    for match_id in ("m1", "m2"):
        invoke(db, "new", "lca", match_id, "--players", "ann,bob", "--studio", STUDIO)
    token = invite(db, "m1", "--as", "ann")["token"]
    reads = Reads(Application(open_store(str(db), create=False)))
    yield db, token, reads
    reads.app.close()


def outside_a_loop(step):
    """One request's worth of lookups in a turn of its own."""

    async def turn():
        return step()

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(turn())
    finally:
        loop.close()


@pytest.mark.guarantee("service.live")
def test_while_pushed_a_commit_re_reads_only_the_match_it_was_pushed_for(two_matches):
    db, _token, reads = two_matches
    reads.listening(True)
    heads = outside_a_loop(lambda: (reads.head("m1"), reads.head("m2")))
    afresh = reads.reads_afresh
    invoke(db, "note", "m1", "one")
    invoke(db, "note", "m2", "two")  # the token moved for both; m2's move is not pushed yet
    assert outside_a_loop(lambda: (reads.head("m1"), reads.head("m2"))) == heads
    assert reads.reads_afresh == afresh  # nothing was read again for the token alone
    reads.moved("m1")
    m1, m2 = outside_a_loop(lambda: (reads.head("m1"), reads.head("m2")))
    assert m1[0] == heads[0][0] + 1 and m2 == heads[1]
    assert reads.reads_afresh == afresh + 1


@pytest.mark.guarantee("service.live")
def test_the_safety_nets_heads_re_read_a_match_whose_kept_head_differs_and_no_other(two_matches):
    db, _token, reads = two_matches
    reads.listening(True)
    first = outside_a_loop(lambda: (reads.head("m1"), reads.head("m2")))
    invoke(db, "note", "m2", "missed")
    afresh = reads.reads_afresh
    reads.heads_seen({"m1": first[0], "m2": (first[1][0] + 1, "0" * 64)})
    m1, m2 = outside_a_loop(lambda: (reads.head("m1"), reads.head("m2")))
    assert (m1, m2[0]) == (first[0], first[1][0] + 1)
    assert reads.reads_afresh == afresh + 1


@pytest.mark.guarantee("service.tokens-scoped")
def test_while_pushed_a_revocation_is_seen_by_the_next_lookup_before_it_is_pushed(two_matches):
    db, token, reads = two_matches
    reads.listening(True)
    assert outside_a_loop(lambda: reads.grant(token)) is not None
    invoke(db, "revoke", token)  # not pushed (yet): the token's look finds it
    assert outside_a_loop(lambda: reads.grant(token)) is None


@pytest.mark.guarantee("service.live")
@pytest.mark.parametrize("pushed", [True, False], ids=["listening-again", "listener-lost"])
def test_listening_again_or_no_longer_forgets_every_head_kept(two_matches, pushed):
    """What was announced while nobody listened was lost: everything kept is read again."""
    db, _token, reads = two_matches
    reads.listening(True)
    before = outside_a_loop(lambda: reads.head("m1"))
    invoke(db, "note", "m1", "announced to nobody")
    assert outside_a_loop(lambda: reads.head("m1")) == before
    reads.listening(pushed)
    assert outside_a_loop(lambda: reads.head("m1"))[0] == before[0] + 1


@pytest.mark.guarantee("service.live")
def test_a_public_answer_is_answered_on_the_loop_while_pushed_until_the_public_head_read_again_moved(two_matches):
    """``peek``: what the loop answers without the reading thread (while the database
    stalls too)."""
    db, _token, reads = two_matches
    reads.public("m1")
    assert reads.peek(("public", "m1")) is None  # not pushed: every request looks
    reads.listening(True)
    m1, m2 = reads.public("m1"), reads.public("m2")
    assert reads.peek(("public", "m1")) == m1 and reads.peek(("public", "m2")) == m2
    invoke(db, "deadline", "m1", "--at", "2030-01-01T00:00Z")  # a public event
    reads.moved("m1")
    # announced, not read yet: answered as before (as a request a moment earlier was)
    assert reads.peek(("public", "m1")) == m1
    reads.head("m1")  # the refresher (or any request) reads it again: its public head moved
    assert reads.peek(("public", "m1")) is None and reads.peek(("public", "m2")) == m2
    after = reads.public("m1")
    assert after != m1 and b"2030-01-01" in after and reads.peek(("public", "m1")) == after
    reads.listening(False)  # the listener lost: what was kept may have missed a commit
    assert reads.peek(("public", "m1")) is None and reads.peek(("public", "m2")) is None


@pytest.mark.guarantee("service.hidden-timing")
def test_an_event_the_public_may_not_see_never_withdraws_a_public_answer_from_the_loop(two_matches):
    """Timing and status: a hidden submission leaves the public's next request exactly as
    the one before it, whether or not the reading thread has read the match again (a
    stalled database holds it up: the public must not get a 503 it did not get before)."""
    db, _token, reads = two_matches
    reads.listening(True)
    before = reads.public("m1")
    invoke(db, "submit", "m1", "ann", "G4", "A1", "B1", "C1", "D1")  # hidden from the public
    reads.moved("m1")
    assert reads.peek(("public", "m1")) == before  # the thread has not read it yet
    afresh = reads.reads_afresh
    assert asyncio.run(reads.refresh(poked=True)) == 1  # the refresher reads m1 again
    assert reads.reads_afresh == afresh + 1
    assert reads.peek(("public", "m1")) == before  # its public head did not move


def test_a_private_answer_is_never_offered_to_the_loop(two_matches):
    _db, token, reads = two_matches
    reads.listening(True)
    reads.me(reads.grant(token))
    assert reads.peek(("me", "m1", "ann")) is None


def test_a_public_answer_kept_on_the_loop_stops_being_answered_when_its_deadline_passes(two_matches):
    """No event marks the moment a deadline passes; the answer says whether it has."""
    db, _token, reads = two_matches
    invoke(db, "deadline", "m1", "--at", "2030-01-01T00:00Z")
    reads.listening(True)
    reads.app.clock = lambda: "2029-12-31T23:59:59Z"
    before = reads.public("m1")
    assert reads.peek(("public", "m1")) == before
    reads.app.clock = lambda: "2030-01-01T00:00:01Z"
    assert reads.peek(("public", "m1")) is None
    after = reads.public("m1")
    assert after != before and b'"passed":true' in after and reads.peek(("public", "m1")) == after
