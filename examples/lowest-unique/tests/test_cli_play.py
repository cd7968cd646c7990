"""A match played end to end from the command line, read in every view; and what the
command line refuses (exit 1, the log unchanged)."""

from __future__ import annotations

import pytest
from conftest import invoke, play, read_json

ROUND_1 = """
new lowest-unique m1 --players ann,bob,cat --option rounds=2 --option highest=5
submit m1 ann 2
submit m1 bob 2
submit m1 cat 4
"""


def events(db, match="m1") -> int:
    return len(read_json(db, "log", match))


def test_a_match_from_new_to_outcome_in_every_view(db):
    play(db, ROUND_1)
    # U9: before the close the host sees every number, a player only their own, the public none
    host = read_json(db, "status", "m1")
    assert host["numbers"] == {"ann": 2, "bob": 2, "cat": 4} and host["waiting_for"] == []
    assert read_json(db, "status", "m1", "--as", "bob")["number"] == 2
    public = read_json(db, "status", "m1", "--public")
    assert "numbers" not in public and "submitted" not in public and "waiting_for" not in public
    assert (public["round"], public["rounds"], public["highest"]) == (1, 2, 5)

    invoke(db, "close", "m1")
    # U7: every number, sorted, no names; U8: each player's own number and whether it won
    [round_1] = read_json(db, "reveals", "m1", "--public")["rounds"]
    assert round_1 == {"round": 1, "public": {"numbers": [2, 2, 4], "lowest_unique": 4}}
    assert read_json(db, "reveals", "m1", "--as", "cat")["rounds"][0]["private"] == {"cat": {"number": 4, "won": True}}
    assert read_json(db, "reveals", "m1", "--as", "ann")["rounds"][0]["private"] == {"ann": {"number": 2, "won": False}}
    assert set(read_json(db, "reveals", "m1")["rounds"][0]["private"]) == {"ann", "bob", "cat"}
    # U10: the public sees no totals during play; a player sees their own
    assert read_json(db, "scores", "m1", "--public")["scores"] == []
    assert read_json(db, "scores", "m1", "--as", "cat")["scores"] == [{"participant": "cat", "total": 1}]
    assert read_json(db, "outcome", "m1", "--public")["standings"] == []

    play(
        db,
        """
    submit m1 ann 1
    submit m1 bob 3
    submit m1 cat 3
    """,
    )
    invoke(db, "close", "m1")  # the last round (rounds=2): the outcome comes with it (U11)
    outcome = read_json(db, "outcome", "m1")
    assert outcome["finished"] is True
    assert outcome["standings"] == [
        {"participant": "ann", "rank": 1, "total": 1, "scores": {"won": [2]}},
        {"participant": "cat", "rank": 1, "total": 1, "scores": {"won": [1]}},
        {"participant": "bob", "rank": 3, "total": 0, "scores": {"won": []}},
    ]
    public = read_json(db, "outcome", "m1", "--public")
    assert public["standings"] == [
        {"participant": "ann", "rank": 1, "total": 1},
        {"participant": "cat", "rank": 1, "total": 1},
        {"participant": "bob", "rank": 3, "total": 0},
    ]
    assert read_json(db, "outcome", "m1", "--as", "bob")["total"] == 0
    knowledge = read_json(db, "knowledge", "m1", "--as", "ann")
    assert knowledge["submissions"] == [{"round": 1, "number": 2}, {"round": 2, "number": 1}]
    assert [a["notice"] for a in knowledge["announcements"]] == [
        {"number": 2, "won": False},
        {"number": 1, "won": True},
    ]
    explained = read_json(db, "explain", "m1", "ann")
    assert explained["total"] == 1 and [line["points"] for line in explained["categories"][0]["lines"]] == ["0", "1"]
    assert "ok" in invoke(db, "verify", "m1").output
    # the match is over: nothing more is recorded
    invoke(db, "submit", "m1", "ann", "1", expect=1)
    listed = invoke(db, "list").output
    assert "lowest-unique" in listed and "finished" in listed


def test_u4_a_later_number_replaces_the_earlier_one(db):
    play(db, ROUND_1 + "submit m1 cat 2\n")
    invoke(db, "close", "m1")
    [round_1] = read_json(db, "reveals", "m1", "--public")["rounds"]
    assert round_1["public"] == {"numbers": [2, 2, 2], "lowest_unique": None}  # U6: nobody
    assert all(not notice["won"] for notice in read_json(db, "reveals", "m1")["rounds"][0]["private"].values())


@pytest.mark.parametrize("tokens", [["6"], ["0"], ["two"], ["1", "2"]])
def test_u3_a_bad_number_is_refused_naming_it_and_the_log_is_unchanged(db, tokens):
    play(db, ROUND_1)
    before = events(db)
    result = invoke(db, "submit", "m1", "ann", *tokens, expect=1)
    assert repr(" ".join(tokens))[1:-1] in result.output
    assert events(db) == before


@pytest.mark.parametrize("players", ["ann,bob", ",".join(f"p{i}" for i in range(21))])
def test_u1_three_to_twenty_players(db, players):
    result = invoke(db, "new", "lowest-unique", "m1", "--players", players, expect=1)
    assert "players" in result.output
    invoke(db, "new", "lowest-unique", "m2", "--players", ",".join(f"p{i}" for i in range(20)))


def test_u5_a_close_needs_every_number_unless_forced(db):
    play(
        db,
        """
    new lowest-unique m1 --players ann,bob,cat
    submit m1 ann 3
    submit m1 bob 3
    """,
    )
    refused = invoke(db, "close", "m1", expect=1)
    assert "cat" in refused.output
    invoke(db, "close", "m1", "--force", "--reason", "cat left")
    host = read_json(db, "reveals", "m1")["rounds"][0]
    assert host["public"] == {"numbers": [3, 3], "lowest_unique": None}
    assert host["private"]["cat"] == {"number": None, "won": False}


def test_u5_a_round_forced_closed_with_one_number_is_won_by_it(db):
    play(
        db,
        """
    new lowest-unique m1 --players ann,bob,cat
    submit m1 bob 9
    """,
    )
    invoke(db, "close", "m1", "--force", "--reason", "the others left")
    assert read_json(db, "scores", "m1")["scores"][1] == {"participant": "bob", "total": 1}


def test_u12_rounds_cannot_be_amended(db):
    play(db, ROUND_1)
    before = events(db)
    result = invoke(db, "amend", "m1", "--option", "rounds=5", "--from-round", "2", "--reason", "longer", expect=1)
    assert "U12" in result.output
    assert events(db) == before


def test_u12_highest_is_not_lowered_under_a_counting_number(db):
    play(db, ROUND_1)
    refused = invoke(db, "amend", "m1", "--option", "highest=3", "--from-round", "1", "--reason", "r", expect=1)
    assert "cat: 4" in refused.output and "U12" in refused.output
    invoke(db, "amend", "m1", "--option", "highest=4", "--from-round", "1", "--reason", "r")
    invoke(db, "submit", "m1", "ann", "5", expect=1)  # now above the highest in force
    invoke(db, "amend", "m1", "--option", "highest=3", "--from-round", "2", "--reason", "r")
    invoke(db, "close", "m1")
    assert read_json(db, "status", "m1", "--public")["highest"] == 3
    invoke(db, "submit", "m1", "ann", "4", expect=1)
    invoke(db, "submit", "m1", "ann", "3")
    refused = invoke(db, "amend", "m1", "--option", "highest=9", "--from-round", "3", "--reason", "r", expect=1)
    assert "2 rounds" in refused.output


def test_u7_u8_a_hand_made_announcement_is_checked_and_a_wrong_one_is_a_finding(db, tmp_path):
    play(db, ROUND_1)
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text('{"public": {"numbers": [2, 2, 4]}, "private": {}}')
    refused = invoke(db, "close", "m1", "--announced", shapeless, expect=1)
    assert "lowest_unique" in refused.output
    stranger = tmp_path / "stranger.json"
    stranger.write_text(
        '{"public": {"numbers": [2, 2, 4], "lowest_unique": 4}, "private": {"zed": {"number": 1, "won": true}}}'
    )
    assert "zed" in invoke(db, "close", "m1", "--announced", stranger, expect=1).output
    assert read_json(db, "status", "m1")["closed"] == []
    wrong = tmp_path / "wrong.json"  # the host gave ann the point: the rules give it to cat (U6)
    wrong.write_text(
        '{"public": {"numbers": [2, 2, 4], "lowest_unique": 2}, "private": {"ann": {"number": 2, "won": true}}}'
    )
    invoke(db, "close", "m1", "--announced", wrong)
    finding = invoke(db, "verify", "m1", expect=3).output
    assert "seq 5" in finding and "recomputed" in finding


def test_u6_a_closed_round_reopened_and_corrected_is_scored_again(db):
    play(
        db,
        """
    new lowest-unique m1 --players ann,bob,cat --option rounds=1
    submit m1 ann 2
    submit m1 bob 2
    submit m1 cat 4
    close m1
    """,
    )
    assert read_json(db, "outcome", "m1", "--public")["standings"][0] == {"participant": "cat", "rank": 1, "total": 1}
    invoke(db, "correct", "m1", "4", "2", "--reopen", "--reason", "cat meant 2")
    assert read_json(db, "scores", "m1")["scores"][2] == {"participant": "cat", "total": 0}
    assert read_json(db, "outcome", "m1", "--public")["standings"] == []  # the match is open again
    invoke(db, "close", "m1")
    assert [s["rank"] for s in read_json(db, "outcome", "m1", "--public")["standings"]] == [1, 1, 1]
    assert "ok" in invoke(db, "verify", "m1").output
