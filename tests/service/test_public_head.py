"""What the public head tells, in process (``commands/service/reads.py``,
``projections/public_head.py``): the head a viewer is shown is the last event of their
own view, their ``?at`` takes only the seqs of that view, and an event they may not see
leaves every answer they get the very object it was, served without reading or folding
anything: the refresher read the match ahead of them.  Timings are asserted through
this mechanism, never measured."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest

from matchledger.commands.service.problems import refused
from matchledger.commands.service.reads import Reads
from matchledger.engine.state import PUBLIC, as_participant
from matchledger.ledger.capabilities import Capability
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.stores import open_store
from matchledger.projections import fold
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1", "cat": "E3 A1 B1 C1 D1"}


def link(participant: str) -> Capability:
    return Capability(
        token_hash="0" * 64,
        match_id="m1",
        role="participant",
        participant=participant,
        can_submit=False,
        created_at="2026-01-01T00:00:00.000000Z",
    )


@pytest.fixture
def lca_reads(tmp_path):
    db = tmp_path / "head.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "submit", "m1", "ann", *ROUND_1["ann"].split())
    reads = Reads(Application(open_store(str(db), create=False)))
    yield db, reads
    reads.app.store.close()


def log_seqs(db, *view: str) -> list[int]:
    return [entry["seq"] for entry in json.loads(invoke(db, "log", "m1", *view, "--json").stdout)]


def same(before: dict, after: dict) -> list[str]:
    """What changed: a head by value, every answer by identity (made anew or not)."""
    return [
        what
        for what in before
        if (after[what] != before[what] if what.endswith("head") else after[what] is not before[what])
    ]


def answers(reads: Reads) -> dict[str, object]:
    """Everything the public and cat (who submits nothing here) are answered."""
    return {
        "head": reads.view_head("m1", PUBLIC),
        "cat-head": reads.view_head("m1", as_participant("cat")),
        "public": reads.public("m1"),
        "me": reads.me(link("cat")),
        "page": reads.page("m1"),
        "cat-page": reads.page("m1", "cat"),
        "rendered": reads.rendered(("public-page", "m1"), "m1", lambda: object()),
        "cat-rendered": reads.rendered(("participant-page", "cat"), "m1", lambda: object(), "cat"),
    }


@contextlib.contextmanager
def counted(reads: Reads, monkeypatch):
    """How many times rows are read from the store and events folded meanwhile."""
    counts = {"rows": 0, "folds": 0}
    rows, feed = reads.app.store.rows, fold.Replayer.feed

    def counting_rows(*args, **kwargs):
        counts["rows"] += 1
        return rows(*args, **kwargs)

    def counting_feed(self, *args, **kwargs):
        counts["folds"] += 1
        return feed(self, *args, **kwargs)

    monkeypatch.setattr(reads.app.store, "rows", counting_rows)
    monkeypatch.setattr(fold.Replayer, "feed", counting_feed)
    yield counts
    monkeypatch.undo()


@pytest.mark.guarantee("service.hidden-timing")
def test_after_a_hidden_submission_every_answer_is_the_kept_object_and_nothing_is_read_for_it(lca_reads, monkeypatch):
    db, reads = lca_reads

    async def scenario():
        before = answers(reads)
        invoke(db, "submit", "m1", "bob", *ROUND_1["bob"].split())  # the host's, from another connection
        refreshed = await reads.refresh()  # what the refresher does once it sees the store move
        await asyncio.sleep(0)  # a request's task, in a later turn of the loop
        with counted(reads, monkeypatch) as counts:
            after = answers(reads)
        return before, refreshed, after, counts

    before, refreshed, after, counts = asyncio.run(scenario())
    assert refreshed == 1
    assert counts == {"rows": 0, "folds": 0}  # no replay, no read of the log on the request's path
    assert same(before, after) == []
    assert after["head"] == (1, json.loads(invoke(db, "log", "m1", "--public", "--json").stdout)[-1]["hash"])


@pytest.mark.guarantee("service.hidden-timing")
def test_without_the_refresher_the_request_reads_the_match_but_keeps_the_answer(lca_reads):
    """A request that comes before the refresher reads the match again itself (it must
    see every commit made before it), and still makes nothing anew for its viewer."""
    db, reads = lca_reads

    async def scenario():
        before = answers(reads)
        invoke(db, "submit", "m1", "bob", *ROUND_1["bob"].split())
        await asyncio.sleep(0)
        return before, answers(reads)

    before, after = asyncio.run(scenario())
    assert same(before, after) == []
    assert reads.head("m1")[0] == 3  # the match was read: the full head moved


@pytest.mark.guarantee("service.public-head")
def test_the_public_head_moves_with_a_close_and_is_the_last_event_of_log_public(lca_reads):
    db, reads = lca_reads

    async def scenario():
        seen = [answers(reads)]
        for player in ("bob", "cat"):
            invoke(db, "submit", "m1", player, *ROUND_1[player].split())
            await reads.refresh()
            await asyncio.sleep(0)
            seen.append(answers(reads))
        invoke(db, "close", "m1")
        await reads.refresh()
        await asyncio.sleep(0)
        seen.append(answers(reads))
        return seen

    seen = asyncio.run(scenario())
    assert [s["head"][0] for s in seen] == [1, 1, 1, log_seqs(db, "--public")[-1]]
    assert seen[-1]["head"][0] > 4  # the close, after the three submissions
    reader = Application(open_store(str(db), read_only=True))
    try:
        assert seen[-1]["head"] == reader.view_heads("m1").head(PUBLIC)
    finally:
        reader.close()
    assert seen[-1]["public"] != seen[0]["public"] and seen[-1]["page"] is not seen[0]["page"]
    # cat's own submission moved cat's head, not the public's
    assert seen[2]["cat-head"][0] == 4 and seen[1]["cat-head"][0] == 1


@pytest.mark.guarantee("service.at-own-view")
def test_at_takes_the_seqs_of_the_viewers_own_view_and_its_refusal_names_no_head(lca_reads):
    db, reads = lca_reads
    invoke(db, "submit", "m1", "bob", *ROUND_1["bob"].split())
    invoke(db, "submit", "m1", "cat", *ROUND_1["cat"].split())

    async def scenario():
        found = {}
        for name, _view, call in (
            ("public", PUBLIC, lambda at: reads.public("m1", at)),
            ("cat", as_participant("cat"), lambda at: reads.me(link("cat"), at)),
        ):
            for at in range(1, 8):
                try:
                    call(at)
                    found[(name, at)] = "shown"
                except MalformedInput as exc:
                    found[(name, at)] = refused(exc, match_id="m1").message  # as the service words it
        return found

    found = asyncio.run(scenario())
    public, cats = log_seqs(db, "--public"), log_seqs(db, "--as", "cat")
    assert public == [1] and cats == [1, 4]
    for (name, at), answer in found.items():
        seqs = public if name == "public" else cats
        whose = "the public" if name == "public" else "cat"
        assert answer == (
            "shown" if at in seqs else f"at={at} is not the seq of an event {whose} may know of in match 'm1'"
        )


@pytest.mark.guarantee("service.receipt-seqs")
def test_receipts_keep_their_global_seq_so_a_participant_counts_the_events_between_their_own(lca_reads):
    """What remains, by design: a receipt is the event's own seq and hash (what
    ``verify --receipt`` proves), so ann's two receipts, 2 and 4, tell her one event
    she may not see fell between them; the public head does not move for either."""
    db, reads = lca_reads
    invoke(db, "submit", "m1", "bob", *ROUND_1["bob"].split())
    invoke(db, "submit", "m1", "ann", *ROUND_1["ann"].split())

    async def scenario():
        return reads.page("m1", "ann").receipts, reads.view_head("m1", PUBLIC)

    receipts, public_head = asyncio.run(scenario())
    assert [receipt.seq for receipt in receipts] == [2, 4] == log_seqs(db, "--as", "ann")[1:]
    assert public_head[0] == 1
