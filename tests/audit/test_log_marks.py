"""`log` marks what became of each submission: superseded by a later one of the same
participant and round, voided, corrected; read from the replayed state at `--at`.  A
participant sees the marks on their own submissions only, the public none (a reopened
round's close is marked for everyone: tests/audit/test_fates.py)."""

from __future__ import annotations

import pytest

from tests.helpers import invoke, read_json
from tests.trust.common import STUDIO

pytestmark = pytest.mark.guarantee("log.marks")


@pytest.fixture
def marked_lca_db(tmp_path):
    """An lca match: ann submits (2), bob (3), ann twice more (4, 5); 5 is voided (6),
    bob's corrected (7); round 1 closes (8) and is reopened to correct ann's 4 (9, 10)."""
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "c1", "--players", "ann,bob", "--studio", STUDIO)
    invoke(db, "submit", "c1", "ann", "B2", "C3", "D4", "E5", "F6")
    invoke(db, "submit", "c1", "bob", "B3", "C4", "D5", "E6", "F7")
    invoke(db, "submit", "c1", "ann", "B2", "C3", "D4", "E5", "G6")
    invoke(db, "submit", "c1", "ann", "B2", "C3", "D4", "E5", "G7")
    invoke(db, "void", "c1", 5, "--reason", "typo")
    invoke(db, "correct", "c1", 3, "B2", "C3", "D4", "E5", "F8", "--reason", "misheard")
    invoke(db, "close", "c1")
    invoke(db, "correct", "c1", 4, "B2", "C3", "D4", "E5", "H6", "--reopen", "--reason", "misheard")
    return db


def marks(db, *args) -> dict[int, tuple[str, int]]:
    out = {}
    for entry in read_json(db, "log", "c1", *args):
        for key in ("superseded_by", "voided_by", "corrected_by"):
            if key in entry:
                assert entry["seq"] not in out, entry
                out[entry["seq"]] = (key, entry[key])
    return out


def test_the_host_sees_every_submission_marked_with_what_became_of_it(marked_lca_db):
    assert marks(marked_lca_db) == {
        2: ("superseded_by", 4),  # ann's 5 was voided, so her 4 superseded her 2
        3: ("corrected_by", 7),
        4: ("corrected_by", 10),  # in the reopened round
        5: ("voided_by", 6),
    }
    rows = {line.split()[0]: line for line in invoke(marked_lca_db, "log", "c1").stdout.splitlines()[3:]}
    assert rows["2"].endswith("ann round 1: B2 C3 D4 E5 F6 [superseded by 4]")
    assert rows["3"].endswith("[corrected by 7]") and rows["5"].endswith("[voided by 6]")
    assert rows["4"].endswith("[corrected by 10]") and not rows["7"].endswith("]") and not rows["10"].endswith("]")


def test_marks_are_as_the_log_stood_at_seq(marked_lca_db):
    assert marks(marked_lca_db, "--at", 5) == {2: ("superseded_by", 4), 4: ("superseded_by", 5)}
    assert marks(marked_lca_db, "--at", 6) == {2: ("superseded_by", 4), 5: ("voided_by", 6)}  # 4 counts again
    assert marks(marked_lca_db, "--at", 3) == {}


def test_a_participant_sees_marks_on_their_own_submissions_only_each_by_an_event_they_see(marked_lca_db):
    for name, expected in (
        ("ann", {2: ("superseded_by", 4), 4: ("corrected_by", 10), 5: ("voided_by", 6)}),
        ("bob", {3: ("corrected_by", 7)}),
    ):
        assert marks(marked_lca_db, "--as", name) == expected
        shown = {entry["seq"] for entry in read_json(marked_lca_db, "log", "c1", "--as", name)}
        assert {by for _key, by in expected.values()} <= shown
        text = invoke(marked_lca_db, "log", "c1", "--as", name).stdout
        assert text.count(" [") == len(expected) + 1  # and the close that 9 reopened, everyone's
        assert "[reopened by 9]" in text


def test_the_public_sees_no_mark_on_a_submission_only_the_reopened_close(marked_lca_db):
    assert marks(marked_lca_db, "--public") == {}
    text = invoke(marked_lca_db, "log", "c1", "--public").stdout
    assert text.count(" [") == 1 and "round 1 closed (computed announcement) [reopened by 9]" in text


def test_a_pw_guests_resubmission_marks_their_earlier_one(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    invoke(db, "submit", "p1", "zed", "swap:bob", "watch:yan")
    invoke(db, "submit", "p1", "yan", "swap:ann", "watch:zed")
    invoke(db, "submit", "p1", "zed", "gift:bob", "watch:yan")
    [first] = [e for e in read_json(db, "log", "p1", "--as", "zed") if e["seq"] == 2]
    assert first["superseded_by"] == 4
    assert all("superseded_by" not in e for e in read_json(db, "log", "p1", "--as", "yan"))
