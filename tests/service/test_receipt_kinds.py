"""A receipt is bound to a submission: the service hands a participant the seq and hash
of their ``SubmissionRecorded`` (commands/service/writes.py), so `verify --receipt`
proves only such an event, names its kind and participant, and refuses any other
event of the chain as a finding (exit 3) that says what that seq is; --json lists every
receipt it checked."""

from __future__ import annotations

import re

import pytest

from matchledger.commands.service import pages
from matchledger.commands.service.reads import Reads, Receipt
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke, read_json
from tests.trust.common import new_pw

pytestmark = pytest.mark.guarantee("service.receipt-verified")


@pytest.fixture
def pw_round_closed_db(tmp_path):
    """pw: ann (2) and bob submit, zed and yan too; the round closes (6)."""
    db = tmp_path / "m.db"
    new_pw(db)
    for who, tokens in (
        ("ann", "gift:bob learn:yan"),
        ("bob", "gift:ann learn:zed"),
        ("zed", "watch:bob swap:yan"),
        ("yan", "watch:ann swap:zed"),
    ):
        invoke(db, "submit", "p1", who, *tokens.split())
    invoke(db, "close", "p1")
    return db


def receipt(db, kind: str) -> str:
    row = next(e for e in read_json(db, "log", "p1") if e["kind"] == kind)
    return f"{row['seq']}:{row['hash']}"


def test_a_closes_seq_and_hash_is_no_receipt(pw_round_closed_db):
    close = receipt(pw_round_closed_db, "RoundClosed")
    out = invoke(pw_round_closed_db, "verify", "p1", "--receipt", close, expect=3).output
    assert f"receipt {close[: close.index(':') + 17]}…" in out
    assert f"seq {close.split(':')[0]} is a RoundClosed (round 1), not a participant's submission" in out


def test_the_creations_seq_and_hash_is_no_receipt(pw_round_closed_db):
    created = receipt(pw_round_closed_db, "MatchCreated")
    result = read_json(pw_round_closed_db, "verify", "p1", "--receipt", created, expect=3)
    assert result["ok"] is False
    [problem] = result["receipts"]
    assert problem["seq"] == 1 and "seq 1 is a MatchCreated, not a participant's submission" in problem["problem"]
    [checked] = result["receipts_checked"]
    assert checked == {
        "seq": 1,
        "hash": created.split(":")[1],
        "kind": "MatchCreated",
        "participant": None,
        "round": None,
        "ok": False,
        "fate": None,
    }


def test_a_submissions_receipt_names_its_kind_and_participant_and_json_lists_every_receipt_checked(pw_round_closed_db):
    ann, close = receipt(pw_round_closed_db, "SubmissionRecorded"), receipt(pw_round_closed_db, "RoundClosed")
    text = invoke(pw_round_closed_db, "verify", "p1", "--receipt", ann).output
    assert f"receipt {ann.split(':')[0]}: ann's SubmissionRecorded for round 1, in the verified chain" in text
    result = read_json(pw_round_closed_db, "verify", "p1", "--receipt", ann, "--receipt", close, expect=3)
    assert [(c["seq"], c["kind"], c["participant"], c["round"], c["ok"]) for c in result["receipts_checked"]] == [
        (2, "SubmissionRecorded", "ann", 1, True),
        (6, "RoundClosed", None, 1, False),
    ]
    assert [c["hash"] for c in result["receipts_checked"]] == [ann.split(":")[1], close.split(":")[1]]
    assert [p["seq"] for p in result["receipts"]] == [6]  # the findings, as before


def test_a_photographer_turns_resolution_is_no_receipt_and_its_submission_is_named_by_turn(tmp_path):
    db = tmp_path / "g.db"
    invoke(db, "new", "photographer", "g", "--players", "ann,bob", "--seed", 123456789012345)
    invoke(db, "submit", "g", "ann", "take", "1", "left", "1", "wind", "1:2")
    submitted, resolved = (f"{e['seq']}:{e['hash']}" for e in read_json(db, "log", "g")[1:3])
    assert (
        "receipt 2: ann's SubmissionRecorded for turn 1, in the verified chain"
        in invoke(db, "verify", "g", "--receipt", submitted).output
    )
    refused = invoke(db, "verify", "g", "--receipt", resolved, expect=3).output
    assert "seq 3 is ann's TurnResolved (turn 1), not a participant's submission" in refused


def test_a_participants_page_shows_a_receipt_only_for_a_submission_not_for_the_hosts_void_of_it():
    mine = [Receipt(2, "a" * 64, "SubmissionRecorded", ["B2"], 1), Receipt(5, "b" * 64, "SubmissionVoided", [], None)]
    html = pages._receipts(mine)  # the list a participant's page draws
    assert f'<code class="receipt">2:{"a" * 64}</code>' in html
    assert "b" * 64 not in html and "voided by the host" in html


@pytest.fixture
def undone(tmp_path):
    """pw, round 1 open: ann's 2 superseded by her 4, bob's 3 voided by 5, ann's 4
    corrected by 6, bob's 7 counts."""
    db = tmp_path / "u.db"
    new_pw(db)
    invoke(db, "submit", "p1", "ann", "gift:bob", "learn:yan")
    invoke(db, "submit", "p1", "bob", "gift:ann", "learn:zed")
    invoke(db, "submit", "p1", "ann", "gift:yan", "learn:bob")
    invoke(db, "void", "p1", "3", "--reason", "typed for the wrong player")
    invoke(db, "correct", "p1", "4", "gift:bob", "learn:yan", "--reason", "misread the slip")
    invoke(db, "submit", "p1", "bob", "gift:ann", "learn:zed")
    return db


def test_a_receipt_is_proven_and_says_what_became_of_its_submission_as_log_marks_it(undone):
    """The receipt proves the submission was recorded (exit 0); beside it, its fate from
    the one account `log` marks (projections.supersession), never "in the chain" alone
    for a submission the host voided."""
    rows = read_json(undone, "log", "p1")
    receipts = [f"{row['seq']}:{row['hash']}" for row in rows if row["kind"] == "SubmissionRecorded"]
    args = [arg for r in receipts for arg in ("--receipt", r)]
    text = invoke(undone, "verify", "p1", *args).output
    for seq, fate in ((2, "superseded by 4"), (3, "voided by 5"), (4, "corrected by 6"), (7, "counts")):
        who = "ann" if seq in (2, 4) else "bob"
        assert f"receipt {seq}: {who}'s SubmissionRecorded for round 1, in the verified chain; {fate}\n" in text
    result = read_json(undone, "verify", "p1", *args)
    assert result["ok"] is True and result["receipts"] == []
    marks = {row["seq"]: {k: v for k, v in row.items() if k.endswith("_by")} or None for row in rows}
    assert [(c["seq"], c["ok"], c["fate"]) for c in result["receipts_checked"]] == [
        (2, True, {"superseded_by": 4}),
        (3, True, {"voided_by": 5}),
        (4, True, {"corrected_by": 6}),
        (7, True, None),
    ]
    assert all(c["fate"] == marks[c["seq"]] for c in result["receipts_checked"])  # the keys log --json marks with


def test_a_refused_receipt_has_no_fate(undone):
    void = next(row for row in read_json(undone, "log", "p1") if row["kind"] == "SubmissionVoided")
    [checked] = read_json(undone, "verify", "p1", "--receipt", f"{void['seq']}:{void['hash']}", expect=3)[
        "receipts_checked"
    ]
    assert checked["ok"] is False and checked["fate"] is None


def test_a_participants_page_tells_beside_each_receipt_what_became_of_that_submission(undone):
    """Their page lists the receipt of every submission they made (it proves each was
    recorded) and, as `log --as` marks it, which of them no longer count and why."""
    reads = Reads(Application(open_store(str(undone), create=False)))
    try:
        drawn = {who: pages.live_html(reads.page("p1", who)) for who in ("ann", "bob")}
    finally:
        reads.app.store.close()
    rows = {who: dict(re.findall(r'<tr data-seq="(\d+)">(.*?)</tr>', html)) for who, html in drawn.items()}
    hashes = {row["seq"]: row["hash"] for row in read_json(undone, "log", "p1")}
    # the host recorded every one of them from the command line: the page says so, and
    # names the submission each void or correction undid
    for who, seq, status in (
        ("ann", 2, "recorded for you by the host, superseded by 4"),
        ("ann", 4, "recorded for you by the host, corrected by 6"),
        ("bob", 3, "recorded for you by the host, voided by 5"),
        ("bob", 7, "recorded for you by the host"),
    ):
        row = rows[who][str(seq)]
        assert f"<td>{status}</td>" in row, row
        assert f'<code class="receipt">{seq}:{hashes[seq]}</code>' in row
    assert "<td>voided by the host: your submission 3</td>" in rows["bob"]["5"]
    assert "<td>corrected by the host: your submission 4</td>" in rows["ann"]["6"]
