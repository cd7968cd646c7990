"""Every front door verifies the same way: `verify`, `audit`, `diff` and `verify --all`
at any number of processes give the same findings, from the log, never from a cache."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.helpers import REPO, invoke, read_json

CARD = REPO / "fixtures" / "lca" / "card-11-players.txt"


def _snapshot_moved_one_event_back(db) -> int:
    """The stored snapshot (taken after the last event) re-labelled as taken after the
    event before: still hash-linked to a real event, so reads would start from it."""
    conn = sqlite3.connect(db)
    [(seq,)] = conn.execute("SELECT seq FROM snapshots WHERE match_id = 'card11'").fetchall()
    [(earlier_hash,)] = conn.execute("SELECT hash FROM events WHERE match_id = 'card11' AND seq = ?", (seq - 1,))
    conn.execute("UPDATE snapshots SET seq = ?, hash = ? WHERE match_id = 'card11'", (seq - 1, earlier_hash))
    conn.commit()
    conn.close()
    return seq - 1


@pytest.mark.guarantee("one-way-in.one-verification")
def test_verify_and_audit_report_the_same_finding_for_a_moved_snapshot(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "script", CARD)
    moved_to = _snapshot_moved_one_event_back(db)
    verified = json.loads(invoke(db, "verify", "card11", "--json", expect=3).stdout)
    audited = read_json(db, "audit", "card11", expect=3)
    [finding] = verified["matches"][0]["findings"]
    assert finding["seq"] == moved_to and "stored snapshot" in finding["problem"]
    assert audited["verified"] is False and audited["findings"] == [finding]
    text = invoke(db, "audit", "card11", expect=3).output
    assert f"seq {moved_to}: the stored snapshot" in text


@pytest.mark.guarantee("one-way-in.diff-verifies")
def test_diff_of_a_copy_with_an_edited_body_names_the_seq_and_exits_3(tmp_path):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    invoke(a, "script", CARD)
    with sqlite3.connect(a) as source, sqlite3.connect(b) as copy:
        source.backup(copy)  # the WAL too: a plain file copy could miss it
    conn = sqlite3.connect(b)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET body = replace(body, '\"J13\"', '\"J12\"') WHERE match_id = 'card11' AND seq = 12")
    conn.commit()
    conn.close()
    result = json.loads(invoke(a, "diff", "card11", "--db-b", b, "--json", expect=3).stdout)
    assert result["first_parting"]["seq"] == 12
    assert result["first_parting"]["field"] == "tokens[0]"
    assert [f["seq"] for f in result["findings"]["b"]] == [12] and result["findings"]["a"] == []
    assert result["differing_read_models"]  # rebuilt from the logs, not from the snapshots
    text = invoke(a, "diff", "card11", "--db-b", b, expect=3).output
    assert "the logs part at seq 12" in text and "FINDING B: card11 seq 12" in text
    same = invoke(a, "diff", "card11", "--db-b", a)
    assert "identical" in same.output and "FINDING" not in same.output


@pytest.mark.guarantee("one-way-in.parallel-verify")
def test_verify_all_in_several_processes_reports_exactly_what_one_process_does(tmp_path):
    db = tmp_path / "m.db"
    for number in range(12):
        script = tmp_path / f"s{number}.txt"
        script.write_text(
            f"new toy t{number:02d} --players ann,bob\n"
            + "".join(
                f"submit t{number:02d} ann {1 + (number + r) % 9}\nsubmit t{number:02d} bob {r + 1}\nclose t{number:02d}\n"
                for r in range(3)
            )
        )
        invoke(db, "script", script)
    invoke(db, "script", REPO / "fixtures" / "lca" / "disputed-lights.txt")  # one with a finding
    one = invoke(db, "verify", "--all", "--json", "--jobs", "1", expect=3)
    three = invoke(db, "verify", "--all", "--json", "--jobs", "3", expect=3)
    assert three.stdout == one.stdout
    report = json.loads(one.stdout)
    assert [m["match"] for m in report["matches"]] == sorted(m["match"] for m in report["matches"])
    assert [m["match"] for m in report["matches"] if not m["ok"]] == ["disp1"]
    assert (
        invoke(db, "verify", "--all", "--jobs", "2", expect=3).stdout
        == invoke(db, "verify", "--all", "--jobs", "1", expect=3).stdout
    )
    assert "--jobs goes with --all" in invoke(db, "verify", "t00", "--jobs", "2", expect=2).output
