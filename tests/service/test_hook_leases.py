"""A post claimed by a `serve` that stopped before sending it (it crashed, or was
stopped with the post queued) is not lost: once its claim's lease lapses
(``DELIVERY_LEASE_SECONDS``), the next `serve` to look takes it over, once, and sends
it; the stopped one, if it comes back to it, finds the claim gone and sends nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from matchledger.commands.service.deliveries import Deliveries
from matchledger.ledger.hooks import DELIVERY_LEASE_SECONDS
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import read_json

from .hook_support import Receiver, add_hook, close_round_one, lca_match

START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _at(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _serve(db, seconds: float) -> tuple[Deliveries, Application]:
    """The hooks' part of a `serve` whose clock reads START + ``seconds``."""
    application = Application(open_store(str(db)), clock=lambda: _at(seconds))
    deliveries = Deliveries(lambda: application, backoff=0.0, timeout=0.5, total=2.0)
    return deliveries, application


@pytest.fixture
def closed(tmp_path):
    receiver = Receiver()
    db = tmp_path / "m.db"
    lca_match(db)
    add_hook(db, receiver.url)
    close_round_one(db)
    yield db, receiver
    receiver.close()


@pytest.mark.guarantee("hooks.posted-once")
def test_a_post_claimed_by_a_serve_that_stopped_is_sent_by_another_once_the_claim_lapsed(closed):
    db, receiver = closed
    crashed, first = _serve(db, 0)
    assert crashed.scan_once(first) == 1  # claimed and queued, then the process died
    first.close()
    for seconds, queued in [(DELIVERY_LEASE_SECONDS - 1, 0), (DELIVERY_LEASE_SECONDS, 1)]:
        later, application = _serve(db, seconds)
        try:
            assert later.scan_once(application) == queued, seconds
            if queued:
                delivered = later.deliver(application, later.jobs.get_nowait())
        finally:
            application.close()
    assert delivered.state == "delivered" and len(receiver.requests) == 1
    [hook] = read_json(db, "hook", "list", "--json")
    [shown] = hook["deliveries"]
    assert (shown["state"], shown["claimed_at"]) == ("delivered", _at(DELIVERY_LEASE_SECONDS))


@pytest.mark.guarantee("hooks.posted-once")
def test_a_post_taken_over_is_not_sent_by_the_serve_that_let_its_claim_lapse(closed):
    db, receiver = closed
    slow, first = _serve(db, 0)
    fresh, second = _serve(db, DELIVERY_LEASE_SECONDS + 5)
    try:
        assert slow.scan_once(first) == 1  # queued behind others for longer than the lease
        assert fresh.scan_once(second) == 1  # taken over
        fresh.deliver(second, fresh.jobs.get_nowait())
        kept = slow.deliver(first, slow.jobs.get_nowait())  # its turn comes at last
    finally:
        first.close()
        second.close()
    assert len(receiver.requests) == 1
    assert kept.attempts == ()  # the slow one tried nothing


@pytest.mark.guarantee("hooks.posted-once")
def test_attempts_made_before_the_claim_lapsed_count_towards_the_limit(closed):
    db, receiver = closed
    receiver.statuses = [503]
    crashed, first = _serve(db, 0)
    try:
        crashed.scan_once(first)
        job = crashed.jobs.get_nowait()
        crashed.attempts = 2
        # One attempt is made and kept; then the process dies before the next one.
        first.record_delivery_attempt(job.delivery, status=503)
    finally:
        first.close()
    later, application = _serve(db, DELIVERY_LEASE_SECONDS + 1)
    later.attempts = 2
    try:
        later.scan_once(application)
        done = later.deliver(application, later.jobs.get_nowait())
    finally:
        application.close()
    assert done.state == "failed" and [a.status for a in done.attempts] == [503, 503]
    assert len(receiver.requests) == 1  # the one made after the take-over: two in all, as allowed
