"""Corrections as events, per game: a submission corrected in the open round, one in
the last closed round with --reopen and the round closed again; earlier events' bytes
never change; replay honours the corrections (scores worked out by hand); `--at` before
a correction shows the old state; `audit` lists every correction with who, when, why.
Photographer refuses void/correct by design."""

from __future__ import annotations

import sqlite3

from tests.helpers import REPO, invoke, read_json, run_script


def stored(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT seq, kind, body, hash FROM events ORDER BY match_id, seq").fetchall()
    finally:
        conn.close()


def totals(db, match, *extra) -> dict[str, int]:
    data = read_json(db, "scores", match, *extra)
    if "participants" in data:  # pw
        return {r["participant"]: r["points"] for r in data["participants"]}
    return {r["participant"]: r["total"] for r in data["scores"]}


def check_audit(db, match, expected: list[tuple[int, str, str]]) -> None:
    report = read_json(db, "audit", match)
    assert report["verified"] is True
    got = [(c["seq"], c["event"], c["reason"]) for c in report["corrections"]]
    assert got == expected
    for entry in report["corrections"]:
        assert entry["actor"] == "tester" and entry["recorded_at"].endswith("Z")
    log = invoke(db, "log", match).output
    for _seq, _kind, reason in expected:
        assert reason in log


# --------------------------------------------------------------------------- lca

# One row of five walled 3-cell compartments: A-C, E-G, I-K, M-O, Q-S (the walls below
# make the studio tall enough for a camera).  A lone light brightens the other two
# cells of its compartment (brightness 1: 3 points each).
LCA_STUDIO = "...#...#...#...#...\n###################\n###################\n"


def test_lca_corrections(tmp_path):
    (tmp_path / "studio.txt").write_text(LCA_STUDIO)
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "c1", "--players", "ann,bob", "--studio", tmp_path / "studio.txt")  # 1
    invoke(db, "submit", "c1", "ann", "A1", "E1", "I1", "M1", "Q1")  # 2
    invoke(db, "submit", "c1", "bob", "M1", "Q1", "B1", "F1", "J1")  # 3
    # As submitted: ann A E I, bob M Q B.  Compartment A-C: A (ann) brightens only B (a
    # light's cell; B blocks the way to C); B (bob) brightens A and C.  ann 3 + 6 + 6 =
    # 15, bob 3 + 3 + 6 + 6 = 18.
    before = stored(db)
    invoke(db, "correct", "c1", "3", "M1", "Q1", "C1", "F1", "J1", "--reason", "bob's DM said C1, not B1")  # 4
    assert stored(db)[: len(before)] == before
    invoke(db, "close", "c1")  # 5
    # Corrected (open round): A (ann) and C (bob): B brightness 2 (2 points) for both,
    # C 1 for ann, A 1 for bob (3 each): 5 + 12 = 17 each.
    assert totals(db, "c1") == {"ann": 17, "bob": 17}
    assert read_json(db, "status", "c1", "--at", 3)["submissions"]["bob"] == ["M1", "Q1", "B1", "F1", "J1"]
    assert read_json(db, "status", "c1", "--at", 4)["submissions"]["bob"] == ["M1", "Q1", "C1", "F1", "J1"]

    refused = invoke(db, "correct", "c1", "2", "B1", "E1", "I1", "M1", "Q1", "--reason", "late", expect=1)
    assert "add --reopen" in refused.output
    before = stored(db)
    invoke(db, "correct", "c1", "2", "B1", "E1", "I1", "M1", "Q1", "--reopen", "--reason", "ann meant B1")  # 6, 7
    assert stored(db)[: len(before)] == before
    assert read_json(db, "status", "c1")["round"] == 1  # the round must be closed again
    assert read_json(db, "reveals", "c1")["rounds"] == []  # its announcement is superseded
    invoke(db, "close", "c1")  # 8
    # ann B, bob C: B brightens A and C (a light's cell), C's way to A is blocked by B:
    # ann 3 + 3 + 12 = 18, bob 3 (B) + 12 = 15.
    assert totals(db, "c1") == {"ann": 18, "bob": 15}
    assert totals(db, "c1", "--at", 5) == {"ann": 17, "bob": 17}  # before the reopen
    explained = read_json(db, "explain", "c1", "ann", "--at", 5)
    assert [c["score"] for c in explained["categories"]] == [17]
    assert read_json(db, "explain", "c1", "ann")["total"] == 18
    assert "ok" in invoke(db, "verify", "c1").output
    kinds = [e["kind"] for e in read_json(db, "log", "c1")]
    assert kinds[3:] == ["SubmissionCorrected", "RoundClosed", "RoundReopened", "SubmissionCorrected", "RoundClosed"]
    check_audit(
        db,
        "c1",
        [
            (4, "SubmissionCorrected", "bob's DM said C1, not B1"),
            (6, "RoundReopened", "ann meant B1"),
            (7, "SubmissionCorrected", "ann meant B1"),
        ],
    )


# --------------------------------------------------------------------------- pw


def test_pw_corrections(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "pw", "c2", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")  # 1
    invoke(db, "submit", "c2", "ann", "gift:bob", "predict:yan=learn")  # 2
    invoke(db, "submit", "c2", "zed", "learn:bob", "swap:yan")  # 3
    invoke(db, "submit", "c2", "bob", "gift:ann", "watch:zed")  # 4
    invoke(db, "submit", "c2", "yan", "predict:zed=watch", "unique:ann")  # 5
    before = stored(db)
    invoke(db, "correct", "c2", "5", "predict:zed=gift", "unique:ann", "--reason", "yan's DM predicted gift")  # 6
    assert stored(db)[: len(before)] == before
    invoke(db, "close", "c2")  # 7
    # ann's gift:bob: yan +1; bob's gift:ann: zed +1; yan's predict:zed=gift hits (ann
    # used gift): yan +2, ann -1.  (As first submitted, watch would have missed.)
    assert totals(db, "c2") == {"ann": -1, "bob": 0, "zed": 1, "yan": 3}
    own = {s["round"]: s["tokens"] for s in read_json(db, "knowledge", "c2", "--as", "yan", "--at", 5)["submissions"]}
    assert own == {1: ["predict:zed=watch", "unique:ann"]}
    own = {s["round"]: s["tokens"] for s in read_json(db, "knowledge", "c2", "--as", "yan", "--at", 6)["submissions"]}
    assert own == {1: ["predict:zed=gift", "unique:ann"]}

    refused = invoke(db, "void", "c2", "4", "--reason", "late", expect=1)
    assert "add --reopen" in refused.output
    before = stored(db)
    invoke(db, "correct", "c2", "4", "gift:zed", "watch:ann", "--reopen", "--reason", "bob's gift was for zed")  # 8, 9
    assert stored(db)[: len(before)] == before
    assert read_json(db, "status", "c2")["round"] == 1
    invoke(db, "close", "c2")  # 10
    # bob's gift:zed now goes to partner(zed) = ann: ann -1 + 1 = 0, zed 0.
    assert totals(db, "c2") == {"ann": 0, "bob": 0, "zed": 0, "yan": 3}
    assert totals(db, "c2", "--at", 7) == {"ann": -1, "bob": 0, "zed": 1, "yan": 3}
    ann = read_json(db, "explain", "c2", "ann")
    assert ("1", "round 1: bob's gift:zed; E = zed, whose partner ann gains 1") in [
        (line["points"], line["detail"]) for line in ann["categories"][0]["lines"]
    ]
    assert "ok" in invoke(db, "verify", "c2").output
    check_audit(
        db,
        "c2",
        [
            (6, "SubmissionCorrected", "yan's DM predicted gift"),
            (8, "RoundReopened", "bob's gift was for zed"),
            (9, "SubmissionCorrected", "bob's gift was for zed"),
        ],
    )
    # the public record of round 1 is the re-closed one; the superseded reveal stays in the log
    closes = [e for e in read_json(db, "log", "c2") if e["kind"] == "RoundClosed"]
    assert [e["seq"] for e in closes] == [7, 10]
    assert closes[0]["event"]["private"]["zed"]["own_points"] == 1
    assert closes[1]["event"]["private"]["zed"]["own_points"] == 0


# --------------------------------------------------------------------------- photographer


def test_photographer_refuses_to_void_an_earlier_turn_and_to_correct_any(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    run_script(db, REPO / "fixtures" / "photographer" / "g2-seed7.txt")
    before = stored(db)
    first_turn = next(e["seq"] for e in read_json(db, "log", "g2") if e["kind"] == "SubmissionRecorded")
    result = invoke(db, "void", "g2", first_turn, "--reason", "typo", expect=1)
    assert "only the last turn can be taken back" in result.output
    result = invoke(db, "correct", "g2", first_turn, "take", "1", "left", "1", "--reason", "typo", expect=1)
    assert "a turn cannot be corrected" in result.output
    result = invoke(db, "void", "g2", 1, "--reason", "typo", expect=1)
    assert "is not a submission" in result.output
    assert stored(db) == before  # nothing written
    assert read_json(db, "audit", "g2")["corrections"] == []
