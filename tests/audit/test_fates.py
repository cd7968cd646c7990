"""One account of what became of each event (projections/supersession.py), told the
same way by `log` (text and --json), `audit`, and the void's own report: a submission
whose resubmission was voided counts again everywhere; a photographer turn taken back
is marked, with the outcome it had ended the match with; a reopened round's close is
marked; the audit lists as superseded only what the log marks so."""

from __future__ import annotations

import pytest

from tests.helpers import REPO, invoke, read_json, run_script
from tests.trust.common import STUDIO, new_pw

pytestmark = pytest.mark.guarantee("log.marks")

MARK_KEYS = ("superseded_by", "voided_by", "corrected_by", "reopened_by", "taken_back_by")


def marks(db, match, *args) -> dict[int, tuple[str, int]]:
    """seq -> (mark key, seq of the event that undid it) from `log --json`."""
    out = {}
    for entry in read_json(db, "log", match, *args):
        for key in MARK_KEYS:
            if key in entry:
                assert entry["seq"] not in out, entry
                out[entry["seq"]] = (key, entry[key])
    return out


def audited(db, match) -> dict[int, tuple[str, int]]:
    """The same account as `audit --json` lists it."""
    return {f["seq"]: (f"{f['how']}_by", f["by"]) for f in read_json(db, "audit", match)["fates"]}


@pytest.fixture
def voided_lca_db(tmp_path):
    """hal submits (2), kim (3), hal again (4, superseding 2); 4 is voided (5)."""
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "c1", "--players", "hal,kim", "--studio", STUDIO)
    invoke(db, "submit", "c1", "hal", "B2", "C3", "D4", "E5", "F6")
    invoke(db, "submit", "c1", "kim", "B3", "C4", "D5", "E6", "F7")
    invoke(db, "submit", "c1", "hal", "B2", "C3", "D4", "E5", "G6")
    return db


def test_a_submission_whose_resubmission_was_voided_counts_again_in_log_audit_and_the_voids_report(voided_lca_db):
    assert marks(voided_lca_db, "c1") == {2: ("superseded_by", 4)}
    said = invoke(voided_lca_db, "void", "c1", 4, "--reason", "typo").output
    assert "voided seq 4; recorded seq 5 (SubmissionVoided); hal's submission 2 counts again" in said
    assert marks(voided_lca_db, "c1") == {4: ("voided_by", 5)}  # 2 counts again
    report = read_json(voided_lca_db, "audit", "c1")
    assert report["resubmissions"] == []  # not "2 superseded_by 4"
    assert audited(voided_lca_db, "c1") == marks(voided_lca_db, "c1")
    [void] = [c for c in report["corrections"] if c["event"] == "SubmissionVoided"]
    assert (void["target_seq"], void["counts_again"]) == (4, 2)
    assert "superseded_by" not in invoke(voided_lca_db, "audit", "c1").output


def test_the_voids_json_names_the_submission_that_counts_again(voided_lca_db):
    written = read_json(voided_lca_db, "void", "c1", 4, "--reason", "typo")
    assert written["events"][0]["kind"] == "SubmissionVoided" and written["events"][0]["counts_again"] == 2
    # a submission already superseded when voided brings nothing back
    invoke(voided_lca_db, "submit", "c1", "kim", "B3", "C4", "D5", "E6", "G7")  # 6 supersedes 3
    invoke(voided_lca_db, "submit", "c1", "kim", "B3", "C4", "D5", "E6", "H7")  # 7 supersedes 6
    written = read_json(voided_lca_db, "void", "c1", 6, "--reason", "typo")
    assert "counts_again" not in written["events"][0]
    assert marks(voided_lca_db, "c1") == {3: ("superseded_by", 7), 4: ("voided_by", 5), 6: ("voided_by", 8)}
    assert "kim's submission 3 counts again" in invoke(voided_lca_db, "void", "c1", 7, "--reason", "typo").output


def test_the_audit_lists_a_submission_superseded_as_it_stands_not_as_it_once_was(voided_lca_db):
    invoke(voided_lca_db, "void", "c1", 4, "--reason", "typo")  # 5
    invoke(voided_lca_db, "submit", "c1", "hal", "B2", "C3", "D4", "E5", "H6")  # 6 supersedes 2
    report = read_json(voided_lca_db, "audit", "c1")
    assert report["resubmissions"] == [{"seq": 2, "participant": "hal", "round": 1, "superseded_by": 6}]
    [void] = [c for c in report["corrections"] if c["event"] == "SubmissionVoided"]
    assert void["counts_again"] == 2  # what the void did when it was recorded


def test_a_reopened_rounds_close_is_marked_for_every_view(voided_lca_db):
    invoke(voided_lca_db, "close", "c1")  # 5
    invoke(voided_lca_db, "reopen", "c1", "--reason", "too early")  # 6
    for view in ((), ("--public",), ("--as", "kim")):
        assert marks(voided_lca_db, "c1", *view).get(5) == ("reopened_by", 6), view
    assert marks(voided_lca_db, "c1", "--at", 5).get(5) is None
    assert "[reopened by 6]" in invoke(voided_lca_db, "log", "c1", "--public").output
    assert audited(voided_lca_db, "c1") == marks(voided_lca_db, "c1")


@pytest.fixture
def finished_g2_db(tmp_path, monkeypatch):
    """g2, played to its end from the fixture script (the last turn ends the match)."""
    monkeypatch.chdir(REPO)
    db = tmp_path / "g.db"
    run_script(db, REPO / "fixtures" / "photographer" / "g2-seed7.txt")
    return db


def test_a_photographer_turn_taken_back_is_voided_not_superseded_and_its_turn_and_outcome_are_marked(finished_g2_db):
    log = read_json(finished_g2_db, "log", "g2")
    last = [e for e in log if e["kind"] == "SubmissionRecorded"][-1]
    turn = next(e for e in log if e["kind"] == "TurnResolved" and e["seq"] > last["seq"])
    outcome = next(e for e in log if e["kind"] == "OutcomeAnnounced")
    who, tokens = last["event"]["participant"], last["event"]["tokens"]
    said = invoke(finished_g2_db, "void", "g2", last["seq"], "--reason", "typo").output
    void = next(e["seq"] for e in read_json(finished_g2_db, "log", "g2") if e["kind"] == "SubmissionVoided")
    assert f"takes back seq {turn['seq']} (TurnResolved), seq {outcome['seq']} (OutcomeAnnounced)" in said
    invoke(finished_g2_db, "submit", "g2", who, *tokens)  # the turn played again
    expected_public = {turn["seq"]: ("taken_back_by", void), outcome["seq"]: ("taken_back_by", void)}
    assert marks(finished_g2_db, "g2") == {last["seq"]: ("voided_by", void), **expected_public}
    assert marks(finished_g2_db, "g2", "--public") == expected_public
    assert marks(finished_g2_db, "g2", "--as", who) == {last["seq"]: ("voided_by", void), **expected_public}
    report = read_json(finished_g2_db, "audit", "g2")
    assert report["resubmissions"] == []  # the voided turn's submission was not superseded
    assert audited(finished_g2_db, "g2") == marks(finished_g2_db, "g2")
    [entry] = [c for c in report["corrections"] if c["event"] == "SubmissionVoided"]
    assert entry["takes_back"] == [turn["seq"], outcome["seq"]]
    text = invoke(finished_g2_db, "log", "g2").output
    assert f"turn {turn['event']['turn']} by {who} [taken back by {void}]" in text


def test_a_superseded_contract_record_is_marked_for_its_player_only(tmp_path):
    db = tmp_path / "p.db"
    new_pw(db)
    invoke(db, "contract", "p1", "ann", "diversity")  # 2
    invoke(db, "contract", "p1", "ann", "generosity")  # 3
    assert marks(db, "p1") == {2: ("superseded_by", 3)}
    assert marks(db, "p1", "--as", "ann") == {2: ("superseded_by", 3)}
    assert marks(db, "p1", "--as", "bob") == {} and marks(db, "p1", "--public") == {}
    assert audited(db, "p1") == {2: ("superseded_by", 3)}
