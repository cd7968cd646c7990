"""The service's writer on a back end that refuses a stale decision only when appending
(as a store whose transactions take no lock up front would): a batch that loses the race
for the log is decided again, a bounded number of times, and each submission is recorded
once; past the bound the submitters are told to try again and nothing is written.  The
race is staged by a store that refuses the first appends as another writer would."""

from __future__ import annotations

import asyncio

import pytest

from matchledger.commands.service.writes import LinkClosed, NotTaken, Writer
from matchledger.ledger.errors import LogConflict
from matchledger.ledger.store import Store
from matchledger.projections.application import DECISION_ATTEMPTS as ATTEMPTS
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO, cli_json, invite

SUBMISSIONS = {"ann": ["G4", "A1", "B1", "C1", "D1"], "bob": ["F2", "A1", "B1", "C1", "D1"]}


def losing(db, races: int):
    """The writer's application, whose store loses the race for the log ``races`` times."""
    left = {"races": races}

    def open_application() -> Application:
        app = Application(Store(db, create=False))
        append = app.store.append

        def racing(*args, **kwargs):
            if left["races"]:
                left["races"] -= 1
                raise LogConflict("match 'm1' moved on: another writer appended first (staged)")
            return append(*args, **kwargs)

        app.store.append = racing
        return app

    return open_application, left


def submit_all(writer: Writer) -> list:
    async def at_once():
        return await asyncio.gather(
            *(writer.submit("m1", who, tokens, link=None) for who, tokens in SUBMISSIONS.items()),
            return_exceptions=True,
        )

    writer.start()
    try:
        return asyncio.run(at_once())
    finally:
        writer.close()


@pytest.fixture
def new_lca_db(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    return db


@pytest.mark.guarantee("service.redecided")
def test_a_submission_that_loses_the_race_for_the_log_is_decided_again_and_recorded_once(new_lca_db):
    open_application, left = losing(new_lca_db, ATTEMPTS - 1)
    receipts = [recorded[0] for recorded in submit_all(Writer(open_application, lambda _match: None))]
    assert left["races"] == 0  # every staged race was lost, and then won
    recorded = [row for row in cli_json(new_lca_db, "log", "m1") if row["kind"] == "SubmissionRecorded"]
    assert sorted((row["actor"], row["seq"], row["hash"]) for row in recorded) == sorted(
        (who, row.seq, row.hash) for who, row in zip(SUBMISSIONS, receipts)
    )
    assert [row["event"]["tokens"] for row in recorded] == list(SUBMISSIONS.values())


@pytest.mark.guarantee("service.redecided")
def test_past_the_bound_the_submitters_are_told_to_try_again_and_nothing_is_written(new_lca_db):
    before = cli_json(new_lca_db, "head", "m1")
    open_application, _left = losing(new_lca_db, ATTEMPTS)
    outcomes = submit_all(Writer(open_application, lambda _match: None))
    assert all(isinstance(outcome, LogConflict) and "try again" in str(outcome) for outcome in outcomes), outcomes
    assert cli_json(new_lca_db, "head", "m1") == before


@pytest.mark.guarantee("service.tokens-scoped")
def test_a_link_is_checked_again_as_its_submission_is_written(new_lca_db):
    """The request was let in when its headers came; by the time it is written the link
    may be revoked, or never have let this participant submit here."""
    revoked = invite(new_lca_db, "m1", "--as", "ann", "--submit")["token"]
    invoke(new_lca_db, "revoke", revoked)
    reads_only = invite(new_lca_db, "m1", "--as", "bob")["token"]
    cats = invite(new_lca_db, "m1", "--as", "cat", "--submit")["token"]
    before = cli_json(new_lca_db, "head", "m1")
    writer = Writer(lambda: Application(Store(new_lca_db, create=False)), lambda _match: None)

    async def each():
        tries = [("ann", revoked), ("bob", reads_only), ("ann", cats), ("cat", cats)]
        return await asyncio.gather(
            *(
                writer.submit("m1", who, SUBMISSIONS.get(who, ["A2", "A1", "B1", "C1", "D1"]), link=link)
                for who, link in tries
            ),
            return_exceptions=True,
        )

    writer.start()
    try:
        refused_ann, refused_bob, cat_as_ann, recorded = asyncio.run(each())
    finally:
        writer.close()
    assert all(isinstance(outcome, LinkClosed) for outcome in (refused_ann, refused_bob, cat_as_ann))
    assert recorded[0].seq == before["seq"] + 1 and recorded[0].actor == "cat"
    assert [row["actor"] for row in cli_json(new_lca_db, "log", "m1") if row["seq"] > before["seq"]] == ["cat"]


@pytest.mark.guarantee("service.database-deadline")
def test_a_submission_the_writer_has_not_taken_by_the_deadline_is_refused_and_never_written(new_lca_db):
    """A stalled database holds the writer in a write: a submission queued behind it is
    refused as not recorded at the deadline, and stays unwritten when the write ends;
    the one the writer had taken is answered with what became of it."""
    import threading

    stalled = threading.Event()
    release = threading.Event()

    def open_application() -> Application:
        app = Application(Store(new_lca_db, create=False))
        submit = app.submit_through_links

        def slow(batch):
            stalled.set()
            release.wait(30)  # the database answers again when the test says so
            return submit(batch)

        app.submit_through_links = slow  # type: ignore[method-assign]
        return app

    writer = Writer(open_application, lambda _match: None, deadline=0.2)

    async def scenario():
        first = asyncio.ensure_future(writer.submit("m1", "ann", SUBMISSIONS["ann"], link=None))
        while not stalled.is_set():  # the writer took ann's and is writing it
            await asyncio.sleep(0.01)
        second = await asyncio.gather(writer.submit("m1", "bob", SUBMISSIONS["bob"], link=None), return_exceptions=True)
        release.set()
        return await first, second[0]

    writer.start()
    try:
        recorded, refused = asyncio.run(scenario())
    finally:
        release.set()
        writer.close()
    assert isinstance(refused, NotTaken) and "nothing was recorded" in str(refused)
    assert recorded[0].actor == "ann"
    actors = [row["actor"] for row in cli_json(new_lca_db, "log", "m1") if row["kind"] == "SubmissionRecorded"]
    assert actors == ["ann"]
