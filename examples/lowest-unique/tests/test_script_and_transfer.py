"""The fixture matches played by `script`, verified, exported and imported: the copy
verifies and reads the same in every view."""

from __future__ import annotations

import json

from conftest import FIXTURES, invoke, read_json

VIEWS = (("--public",), (), ("--as", "ann"), ("--as", "bob"), ("--as", "cat"))


def every_read(db, match) -> dict[str, str]:
    reads = {}
    for view in VIEWS:
        for read in ("status", "scores", "outcome", "reveals"):
            reads[f"{read} {view}"] = invoke(db, read, match, *view, "--json").stdout
    return reads


def test_u6_u11_the_ties_fixture_scores_as_its_comments_say(fixture_db):
    public = read_json(fixture_db, "reveals", "lu1", "--public")
    assert [r["public"] for r in public["rounds"]] == [
        {"numbers": [2, 2, 5, 9], "lowest_unique": 5},  # bob's 5 was replaced by 2 (U4)
        {"numbers": [4, 4, 4, 4], "lowest_unique": None},  # all the same: nobody (U6)
        {"numbers": [1, 1, 1, 10], "lowest_unique": 10},  # unique at the top
    ]
    standings = read_json(fixture_db, "outcome", "lu1", "--public")["standings"]
    assert [(s["participant"], s["rank"], s["total"]) for s in standings] == [
        ("cat", 1, 1),
        ("dan", 1, 1),
        ("ann", 3, 0),
        ("bob", 3, 0),
    ]
    assert read_json(fixture_db, "reveals", "lu1", "--as", "dan")["rounds"][2]["private"] == {
        "dan": {"number": 10, "won": True}
    }


def test_u5_u12_the_forced_close_fixture_scores_as_its_comments_say(fixture_db):
    host = read_json(fixture_db, "reveals", "lu2")
    assert [r["public"] for r in host["rounds"]] == [
        {"numbers": [1, 1, 5], "lowest_unique": 5},
        {"numbers": [2], "lowest_unique": 2},  # ann's 3 voided, cat missing
    ]
    assert host["rounds"][1]["private"]["cat"] == {"number": None, "won": False}
    standings = read_json(fixture_db, "outcome", "lu2")["standings"]
    assert [(s["participant"], s["rank"], s["scores"]["won"]) for s in standings] == [
        ("bob", 1, [2]),
        ("cat", 1, [1]),
        ("ann", 3, []),
    ]
    assert read_json(fixture_db, "status", "lu2", "--public")["highest"] == 3


def test_the_fixtures_verify_and_survive_export_and_import(fixture_db, tmp_path):
    copy = tmp_path / "copy.db"
    for match in ("lu1", "lu2"):
        assert "ok" in invoke(fixture_db, "verify", match).output
        exported = tmp_path / f"{match}.jsonl"
        invoke(fixture_db, "export", match, "-o", exported)
        assert json.loads(exported.read_text().splitlines()[0])["body"]["game"] == "lowest-unique"
        invoke(copy, "import", exported)
        assert "ok" in invoke(copy, "verify", match).output
        assert every_read(copy, match) == every_read(fixture_db, match)


def test_an_edited_export_is_refused(fixture_db, tmp_path):
    exported = tmp_path / "lu1.jsonl"
    invoke(fixture_db, "export", "lu1", "-o", exported)
    exported.write_text(exported.read_text().replace('"tokens":["9"]', '"tokens":["8"]'))
    result = invoke(tmp_path / "copy.db", "import", exported, expect=None)
    assert result.exit_code != 0
    invoke(tmp_path / "copy.db", "status", "lu1", expect=1)


def test_every_fixture_is_a_script_of_this_game():
    scripts = sorted(FIXTURES.glob("*.txt"))
    assert len(scripts) >= 2
    for script in scripts:
        assert "new lowest-unique " in script.read_text()
