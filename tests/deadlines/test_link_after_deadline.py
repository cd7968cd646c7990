"""The service's link after the deadline: HTTP 409 with a clear detail, or the page's
refusal notice, and nothing written.  The writer's application reads a clock the test
sets (the time is read at the door, under the write's lock): no test sleeps."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from matchledger.commands.service import build
from matchledger.engine.commands import SetDeadline, Submit
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from tests.helpers import read_json
from tests.service.support import bearer, grant

from .conftest import ROUND_1, Clock

TOKEN = "deadline-test-link-0123456789abc"  # as `invite` makes them: 32 characters
DEADLINE = "2026-12-03T10:00:00Z"


@pytest.fixture
def service(lca_db):
    """``(ask, clock)``: ``ask(method, path, **kwargs)`` answers from the service in this
    process, whose writer reads ``clock``."""
    clock = Clock()
    host = Application(Store(lca_db, create=False), clock=clock)
    host.execute("m1", SetDeadline(clock(), DEADLINE))
    host.close()
    grant(lca_db, "m1", "ann", TOKEN, can_submit=True)
    reader = Application(Store(lca_db, create=False, read_only=True), clock=clock)  # says whether it passed
    asgi, service = build(
        reader,
        lambda: Application(Store(lca_db, create=False), clock=clock),
        logging.getLogger("test-deadlines"),
        base_url="http://testserver",
    )
    service.writer.start()

    def ask(method: str, path: str, **kwargs) -> httpx.Response:
        async def once():
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=asgi), base_url="http://testserver"
            ) as client:
                return await client.request(method, path, **kwargs)

        return asyncio.run(once())

    yield ask, clock
    service.writer.close()
    reader.close()


@pytest.mark.guarantee("deadlines.late-refused")
def test_the_api_refuses_a_submission_after_the_deadline_with_409_and_writes_nothing(service, lca_db):
    ask, clock = service
    head = read_json(lca_db, "head", "m1")
    clock.now = "2026-12-03T10:00:01.000000Z"
    answer = ask(
        "POST", "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"].split()}, headers=bearer(TOKEN)
    )
    assert answer.status_code == 409
    problem = answer.json()
    assert problem["type"].endswith("past-deadline")
    assert "deadline of round 1 of 'm1' passed at 2026-12-03T10:00:00Z" in problem["detail"]
    assert read_json(lca_db, "head", "m1") == head


def test_the_api_takes_a_submission_before_the_deadline(service, lca_db):
    ask, clock = service
    clock.now = "2026-12-03T09:59:59.000000Z"
    answer = ask(
        "POST", "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"].split()}, headers=bearer(TOKEN)
    )
    assert answer.status_code == 201


def test_the_status_the_api_gives_everyone_shows_the_deadline(service):
    ask, _clock = service
    assert ask("GET", "/api/v1/matches/m1/public").json()["status"]["deadline"] == {
        "round": 1,
        "unit": "round",
        "at": DEADLINE,
    }


def test_the_pages_show_the_deadline_as_a_utc_time_the_script_counts_down_to(service):
    ask, _clock = service
    expected = '<time class="deadline" datetime="2026-12-03T10:00:00Z">2026-12-03 10:00 UTC</time>'
    assert expected in ask("GET", "/m/m1").text
    assert expected in ask("GET", f"/p/{TOKEN}").text
    script = ask("GET", "/assets/live.js").text
    assert "time.deadline" in script and "toLocaleString" in script


def test_the_page_refuses_a_form_sent_after_the_deadline_saying_so(service, lca_db):
    ask, clock = service
    head = read_json(lca_db, "head", "m1")
    clock.now = "2026-12-03T10:00:01.000000Z"
    fields = {"tokens": ROUND_1["ann"]}
    answer = ask("POST", f"/p/{TOKEN}", data=fields)
    assert answer.status_code == 409  # as the API answers it: a conflict with the time, not a malformed move
    assert 'id="refused"' in answer.text and "passed at 2026-12-03T10:00:00Z" in answer.text
    assert read_json(lca_db, "head", "m1") == head


def test_a_late_submission_the_host_recorded_is_marked_late_on_its_participants_page_only(service, lca_db):
    ask, clock = service
    clock.now = "2026-12-03T10:00:01.000000Z"
    host = Application(Store(lca_db, create=False), clock=clock)
    host.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    host.close()
    assert "recorded for you by the host, late" in ask("GET", f"/p/{TOKEN}").text
    assert ", late" not in ask("GET", "/m/m1").text


@pytest.mark.guarantee("deadlines.late-refused")
def test_the_api_and_the_pages_say_the_deadline_passed_once_it_has_as_status_does(service, lca_db):
    """No event marks the moment: an answer kept from before it must not be given after."""
    ask, clock = service
    clock.now = "2026-12-03T09:59:59.000000Z"
    assert "passed" not in ask("GET", "/api/v1/matches/m1/public").json()["status"]["deadline"]
    assert "(passed)" not in ask("GET", "/m/m1").text
    assert "(passed)" not in ask("GET", f"/p/{TOKEN}").text
    clock.now = "2026-12-03T10:00:01.000000Z"
    status = ask("GET", "/api/v1/matches/m1/public").json()["status"]
    assert status["deadline"] == {"round": 1, "unit": "round", "at": DEADLINE, "passed": True}
    cli = read_json(lca_db, "status", "m1", "--public")  # its clock is the real one: the deadline is ahead
    assert {**status, "deadline": {**status["deadline"], "passed": False}} == {
        **cli,
        "deadline": {**cli["deadline"], "passed": False},
    }
    for path in ("/m/m1", f"/p/{TOKEN}"):
        assert (
            f'<time class="deadline" datetime="{DEADLINE}">2026-12-03 10:00 UTC (passed)</time>'
            in ask("GET", path).text
        )
