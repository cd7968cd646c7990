"""Heads and tokens' grants kept while the database stands still (``commands/service/
reads.py``): one look at its ``data_version`` serves every request that arrived before
the look began, and a request that arrived after a commit always sees it, on the reading
thread (``reading.py``) driven from the standard event loop and from uvloop (what
uvicorn runs when it is installed)."""

from __future__ import annotations

import asyncio
import time

import pytest

from matchledger.commands.service.reading import Reading
from matchledger.commands.service.reads import Reads
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO, invite


def _loops() -> list:
    try:
        import uvloop
    except ImportError:
        with_uvloop = pytest.param(None, id="uvloop", marks=pytest.mark.skip(reason="uvloop is not installed"))
    else:
        with_uvloop = pytest.param(uvloop.new_event_loop, id="uvloop")
    return [pytest.param(asyncio.new_event_loop, id="asyncio"), with_uvloop]


@pytest.fixture
def counted_reads(tmp_path):
    db = tmp_path / "kept.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    token = invite(db, "m1", "--as", "ann", "--submit")["token"]
    reads = Reads(Application(open_store(str(db), create=False)))
    looks = []
    store = reads.app.store
    counted = store.data_version

    def data_version():
        looks.append(1)
        return counted()

    store.data_version = data_version
    yield db, token, reads, looks
    store.close()


def run(new_loop, scenario):
    loop = new_loop()
    try:
        return loop.run_until_complete(scenario())
    finally:
        loop.close()


@pytest.mark.guarantee("service.tokens-scoped")
@pytest.mark.parametrize("new_loop", _loops())
def test_a_request_that_arrived_after_a_revocation_is_refused_though_a_look_was_made_before(counted_reads, new_loop):
    db, token, reads, _looks = counted_reads

    async def scenario():
        reading = Reading(reads)
        try:
            arrived_before = time.monotonic_ns()
            assert await reading(reads.grant, token) is not None  # looked: the link is open
            invoke(db, "revoke", token)  # the host, through another connection
            # a request that arrived before that look shares it; one that arrived after the
            # revocation looks again
            shared = await reading(reads.grant, token, since=arrived_before)
            return shared, await reading(reads.grant, token)
        finally:
            reading.close()

    shared, next_request = run(new_loop, scenario)
    assert shared is not None  # the look it arrived before still holds for it
    assert next_request is None


@pytest.mark.guarantee("service.live")
@pytest.mark.parametrize("new_loop", _loops())
def test_a_request_that_arrived_after_a_commit_sees_the_new_head(counted_reads, new_loop):
    db, _token, reads, _looks = counted_reads

    async def scenario():
        reading = Reading(reads)
        try:
            before = await reading(reads.head, "m1")
            invoke(db, "submit", "m1", "ann", "G4", "A1", "B1", "C1", "D1")
            return before, await reading(reads.head, "m1")
        finally:
            reading.close()

    before, after = run(new_loop, scenario)
    assert after[0] == before[0] + 1


@pytest.mark.parametrize("new_loop", _loops())
def test_requests_that_arrived_before_one_look_began_share_it(counted_reads, new_loop):
    _db, token, reads, looks = counted_reads

    def request():
        return reads.grant(token), reads.head("m1")

    async def scenario():
        reading = Reading(reads)
        try:
            arrived = time.monotonic_ns()  # fifty requests read by the server at once
            first = await asyncio.gather(*(reading(request, since=arrived) for _ in range(50)))
            looked = len(looks)
            second = await reading(request)  # a request that arrived later
            return first, looked, second
        finally:
            reading.close()

    first, looked, second = run(new_loop, scenario)
    assert looked == 1 and len(looks) == 2
    assert len({(grant.token_hash, head) for grant, head in first}) == 1
    assert second == first[0]


def test_outside_a_request_every_lookup_looks(counted_reads):
    db, token, reads, looks = counted_reads
    assert reads.grant(token) is not None
    invoke(db, "revoke", token)
    assert reads.grant(token) is None
    assert len(looks) == 2


def test_made_up_tokens_keep_a_bounded_number_of_answers(counted_reads, monkeypatch):
    """Anybody may send any number of tokens; what is kept of them stays bounded."""
    from matchledger.commands.service import reads as reads_module

    _db, token, reads, _looks = counted_reads
    monkeypatch.setattr(reads_module, "KEPT_GRANTS", 8)
    made_up = [f"{index:032d}" for index in range(100)]
    assert all(reads.grant(guess) is None for guess in made_up)
    assert len(reads._grants) <= 8
    assert reads.grant(token) is not None and reads.grant(made_up[0]) is None


def test_a_token_that_is_not_shaped_like_one_is_neither_looked_up_nor_kept(counted_reads):
    _db, token, reads, looks = counted_reads
    assert reads.grant("A" * 1_000_000) is None and reads.grant(token + " ") is None and reads.grant("") is None
    assert reads._grants == {} and looks == []
