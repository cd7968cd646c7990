"""An answer made of several read models reads them all from one fold of the log
(``Application.query`` and ``Application.log``): ``GET /public?at=N`` (status, reveals
and outcome) replays the match once, not once per model, and so does a participant's
page as the match stood then (its read models and its receipts with their marks).
Counted in process, through the fold itself; never timed."""

from __future__ import annotations

import contextlib
import json

import pytest

from matchledger.commands.service.reads import Reads
from matchledger.ledger.capabilities import Capability
from matchledger.projections import fold
from matchledger.projections.application import Application
from tests.helpers import invoke

from .support import STUDIO, cli_json

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1", "cat": "E3 A1 B1 C1 D1"}


@pytest.fixture
def closed_round_reads(tmp_path):
    """An lca match whose round 1 was closed (ann submitted twice), then a host's note;
    the public's and ann's ``?at``: the close."""
    db = tmp_path / "fold.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "submit", "m1", "ann", "A2", "A1", "B1", "C1", "D1")
    for player, cells in ROUND_1.items():
        invoke(db, "submit", "m1", player, *cells.split())
    invoke(db, "close", "m1")
    close = cli_json(db, "head", "m1")["seq"]
    invoke(db, "note", "m1", "bob's DM came late")
    application = Application.open(str(db), read_only=True)
    reads = Reads(application)
    reads.head("m1")  # read once, as the first request reads it
    yield db, reads, close
    application.close()


@contextlib.contextmanager
def folds(monkeypatch):
    """How many folds start meanwhile: from the first event, or resumed from a snapshot."""
    counts = {"folds": 0}
    feed, resume = fold.Replayer.feed, fold.Replayer.resume

    def counting_feed(self, seq, event, work=None):
        if self.state is None:  # the first event of a fold
            counts["folds"] += 1
        return feed(self, seq, event, work)

    def counting_resume(state):
        counts["folds"] += 1
        return resume(state)

    monkeypatch.setattr(fold.Replayer, "feed", counting_feed)
    monkeypatch.setattr(fold.Replayer, "resume", staticmethod(counting_resume))
    yield counts
    monkeypatch.undo()


def link(participant: str) -> Capability:
    return Capability(
        token_hash="0" * 64,
        match_id="m1",
        role="participant",
        participant=participant,
        can_submit=False,
        created_at="2026-01-01T00:00:00.000000Z",
    )


def test_the_public_answer_at_a_past_event_is_read_from_one_fold(closed_round_reads, monkeypatch):
    db, reads, close = closed_round_reads
    with folds(monkeypatch) as counted:
        answer = json.loads(reads.public("m1", at=close))
    assert counted == {"folds": 1}  # not one for each of status, reveals and outcome
    assert answer == {
        model: cli_json(db, model, "m1", "--public", "--at", str(close)) for model in ("status", "reveals", "outcome")
    }


def test_a_participants_page_at_a_past_event_is_read_from_one_fold(closed_round_reads, monkeypatch):
    """Its read models, its receipts and what became of each, from the same fold."""
    db, reads, close = closed_round_reads
    with folds(monkeypatch) as counted:
        page = reads.page("m1", "ann", at=close)
    assert counted == {"folds": 1}
    assert page.models["seq"] == close and page.models["knowledge"] == cli_json(
        db, "knowledge", "m1", "--as", "ann", "--at", str(close)
    )
    assert [(receipt.seq, receipt.fate is not None) for receipt in page.receipts] == [(2, True), (3, False)]


def test_the_public_page_and_a_participants_knowledge_at_a_past_event_are_one_fold_each(
    closed_round_reads, monkeypatch
):
    _db, reads, close = closed_round_reads
    for answer in (lambda: reads.page("m1", at=close), lambda: reads.me(link("bob"), at=close)):
        with folds(monkeypatch) as counted:
            answer()
        assert counted == {"folds": 1}
