"""The application as every door meets it (``projections/application/``): a write says
what it recorded and what that superseded in one call; ``announced`` reads the rows
once; read models are a type every game's views answer; and the policy a submission
made through a link is held to belongs to the application, so a door that is not the
service gets it too."""

from __future__ import annotations

import contextlib

import pytest

from matchledger import engine
from matchledger.engine.commands import RecordContract, Submit, Void
from matchledger.engine.state import HOST, PUBLIC, as_participant
from matchledger.ledger.errors import MalformedInput
from matchledger.projections.application import (
    Application,
    LinkClosed,
    LinkSubmission,
    Recorded,
    TooManySubmissions,
)
from matchledger.projections.application.access import SUBMISSIONS_PER_ROUND
from matchledger.projections.read_models import GameViews, ReadModel, models_of, read_model, read_view
from tests.helpers import invoke
from tests.trust.common import new_lca, new_pw

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1", "cat": "E3 A1 B1 C1 D1"}


@pytest.fixture
def lca_application(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db)
    application = Application.open(str(db))
    yield db, application
    application.close()


@contextlib.contextmanager
def rows_read(application: Application, monkeypatch):
    """How many times the store's rows are read meanwhile."""
    counts = {"rows": 0}
    rows = application.store.rows

    def counting(*args, **kwargs):
        counts["rows"] += 1
        return rows(*args, **kwargs)

    monkeypatch.setattr(application.store, "rows", counting)
    yield counts
    monkeypatch.undo()


# ---------------------------------------------------------------------- what a write did


def test_execute_returns_the_rows_it_recorded_and_the_submission_it_superseded(lca_application):
    _db, application = lca_application
    first = application.execute("m1", Submit("ann", "A2 A1 B1 C1 D1".split()))
    again = application.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    assert isinstance(again, Recorded) and [row.kind for row in again] == ["SubmissionRecorded"]
    assert len(again) == 1 and again[0].seq == first[0].seq + 1  # still read as the rows it recorded
    assert first.supersedes == {} and again.supersedes == {again[0].seq: first[0].seq}


def test_a_later_contract_record_says_which_it_superseded(tmp_path):
    db = tmp_path / "p.db"
    new_pw(db)
    application = Application.open(str(db))
    first = application.execute("p1", RecordContract("ann", ["diversity"]))
    later = application.execute("p1", RecordContract("ann", ["generosity"]))
    assert later.supersedes == {later[0].seq: first[0].seq}
    application.close()


def test_a_void_says_what_counts_again_as_the_command_line_reports_it(lca_application):
    db, application = lca_application
    first = application.execute("m1", Submit("ann", "A2 A1 B1 C1 D1".split()))
    again = application.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    voided = application.execute("m1", Void(again[0].seq, "sent for the wrong round", False))
    assert voided.supersedes == {}
    [(seq, effect)] = voided.voids.items()
    assert seq == voided[0].seq and effect.counts_again == first[0].seq
    assert invoke(db, "log", "m1", "--json").stdout.count('"voided_by"') == 1


# ---------------------------------------------------------------------- reading


def test_announced_reads_the_matchs_rows_once(lca_application, monkeypatch):
    db, application = lca_application
    for player, cells in ROUND_1.items():
        invoke(db, "submit", "m1", player, *cells.split())
    invoke(db, "close", "m1")
    invoke(db, "note", "m1", "posted")
    reader = Application.open(str(db), read_only=True)
    with rows_read(reader, monkeypatch) as counted:
        announced = reader.announced("m1")
    assert counted == {"rows": 1}
    assert announced.round == 1 and announced.seq == 5 and sorted(announced.knowledge) == ["ann", "bob", "cat"]
    reader.close()


@pytest.mark.parametrize("game", engine.names())
def test_every_games_rules_offer_the_views_every_read_model_is_read_through(game):
    assert isinstance(engine.get(game), GameViews)


def test_each_view_reads_its_own_read_models_and_knowledge_only_in_a_participants(lca_application):
    _db, application = lca_application
    state = application.state("m1")
    assert (
        models_of(HOST)
        == models_of(PUBLIC)
        == (ReadModel.STATUS, ReadModel.SCORES, ReadModel.OUTCOME, ReadModel.REVEALS)
    )
    assert models_of(as_participant("ann"))[-1] is ReadModel.KNOWLEDGE
    readings = application.query("m1", participant="ann")
    assert list(readings.data) == list(models_of(as_participant("ann")))
    assert readings[ReadModel.KNOWLEDGE] == read_view(state, as_participant("ann"))[ReadModel.KNOWLEDGE]
    with pytest.raises(MalformedInput, match="knowledge is one participant's"):
        read_model(engine.get("lca"), ReadModel.KNOWLEDGE, state, PUBLIC)


# ---------------------------------------------------------------------- submissions through links


def test_the_bound_per_round_holds_for_any_door_not_only_the_service(lca_application):
    db, application = lca_application
    token, _capability = application.invite("m1", participant="ann", can_submit=True)
    submission = LinkSubmission("m1", Submit("ann", ROUND_1["ann"].split()), token)
    outcomes = [application.submit_through_links([submission])[0] for _ in range(SUBMISSIONS_PER_ROUND + 1)]
    assert all(isinstance(outcome, Recorded) for outcome in outcomes[:-1])
    assert isinstance(outcomes[-1], TooManySubmissions)
    assert str(outcomes[-1]).startswith(f"ann already has {SUBMISSIONS_PER_ROUND} submissions in round 1")


def test_a_link_is_checked_as_its_submission_is_written_whatever_the_door(lca_application):
    db, application = lca_application
    revoked, _capability = application.invite("m1", participant="ann", can_submit=True)
    application.revoke(revoked)
    reads_only, _capability = application.invite("m1", participant="bob")
    cats, _capability = application.invite("m1", participant="cat", can_submit=True)
    before = application.head("m1")
    outcomes = application.submit_through_links(
        [
            LinkSubmission("m1", Submit("ann", ROUND_1["ann"].split()), revoked),
            LinkSubmission("m1", Submit("bob", ROUND_1["bob"].split()), reads_only),
            LinkSubmission("m1", Submit("ann", ROUND_1["ann"].split()), cats),
            LinkSubmission("m1", Submit("cat", ROUND_1["cat"].split()), cats),
        ]
    )
    assert [type(outcome) for outcome in outcomes] == [LinkClosed, LinkClosed, LinkClosed, Recorded]
    assert outcomes[-1][0].seq == before[0] + 1 and outcomes[-1][0].actor == "cat"
