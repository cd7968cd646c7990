"""`messages` on a fixture match of each game: the text and JSON pinned (each number
reviewed against `knowledge --as P --json` and `reveals --public --json`), and each
message's facts checked one by one against those two documents, as they stood at the
close."""

from __future__ import annotations

import json

import pytest

from tests.helpers import invoke, read_json

#: (match, round or turn): a first close, and the last (with the final results)
CLOSES = [("ties8", 1), ("ties8", 2), ("ties8", 3), ("pw1", 1), ("pw1", 3), ("g2", 3), ("g2", 27), ("g2", 29)]


def knowledge(db, match: str, name: str, seq: int) -> dict:
    return read_json(db, "knowledge", match, "--as", name, "--at", seq)


@pytest.mark.parametrize("match, round_no", CLOSES, ids=[f"{m}-{r}" for m, r in CLOSES])
def test_the_messages_of_a_fixture_close_are_pinned(fixtures_db, snapshot, match, round_no):
    text = invoke(fixtures_db, "messages", match, "--round", round_no).stdout
    data = read_json(fixtures_db, "messages", match, "--round", round_no)
    assert text == snapshot(name="text")
    assert json.dumps(data, indent=1) == snapshot(name="json")


@pytest.mark.guarantee("messages.what-each-knows")
def test_lca_messages_say_each_players_lights_and_scores_as_their_knowledge_does(fixtures_db):
    data = read_json(fixtures_db, "messages", "ties8", "--round", "1")
    assert data["seq"] == 18  # the close of round 1: the 9 set-up events, 8 submissions, then the close
    public = read_json(fixtures_db, "reveals", "ties8", "--public", "--at", 18)["rounds"][0]["public"]
    assert data["public"]["lights"] == public["lights"] and data["public"]["brightness"] == public["brightness"]
    assert list(data["participants"]) == ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
    for name, message in data["participants"].items():
        known = knowledge(fixtures_db, "ties8", name, 18)
        private = known["announcements"][0]["private"]
        assert (message["lights"], message["lights_score"]) == (private["lights"], private["lights_score"])
        assert message["submitted"] == known["submissions"]["1"]
        assert message["contract"] == known["contract"]
    ann = data["participants"]["ann"]  # the fixture's own account: ann's lights met her contract
    assert (ann["lights"], ann["lights_score"], ann["contract"]) == (["E3", "K6", "J12"], 140, ["lights"])
    # gus and hal named the very same cells: their lights collide (L2) and neither places one
    assert data["participants"]["gus"]["lights"] == data["participants"]["hal"]["lights"] == []


@pytest.mark.guarantee("messages.what-each-knows")
def test_lca_final_messages_give_each_player_their_own_line_and_awards(fixtures_db):
    data = read_json(fixtures_db, "messages", "ties8")
    assert data["round"] == 3
    outcome = read_json(fixtures_db, "reveals", "ties8", "--public", "--at", data["seq"])["outcome"]
    assert data["public"]["outcome"] == outcome
    for name, message in data["participants"].items():
        standing = next(s for s in outcome["standings"] if s["participant"] == name)
        assert message["standing"] == standing
        assert message["awards"] == [a for a in outcome["awards"] if a["participant"] == name]
        private = knowledge(fixtures_db, "ties8", name, data["seq"])["announcements"][2]["private"]
        assert (message["action_score"], message["filming_score"]) == (
            private["action_score"],
            private["filming_score"],
        )
    dan = data["participants"]["dan"]  # rank 2, the highest filming (57, tied with fay), the pact
    assert dan["standing"]["rank"] == 2 and dan["filming_score"] == 57
    assert [a["kind"] for a in dan["awards"]] == ["tol", "tol", "shards"]


@pytest.mark.guarantee("messages.what-each-knows")
def test_pw_messages_say_points_learn_and_watch_as_each_participants_knowledge_does(fixtures_db):
    data = read_json(fixtures_db, "messages", "pw1", "--round", "1")
    seq = data["seq"]
    # players sorted, then guests sorted: the canonical order, never the pairing's
    assert list(data["participants"]) == [
        "ann",
        "bob",
        "cat",
        "dan",
        "eve",
        "fay",
        "gus",
        "tof",
        "ura",
        "vik",
        "wim",
        "xio",
        "yul",
        "zed",
    ]
    public = read_json(fixtures_db, "reveals", "pw1", "--public", "--at", seq)["rounds"][0]["public"]
    assert data["public"] == {"round": 1, "type_counts": public["type_counts"]}
    assert sum(public["type_counts"].values()) == 28  # 14 participants, 2 actions each
    for name, message in data["participants"].items():
        known = knowledge(fixtures_db, "pw1", name, seq)
        notice = known["rounds"][0]["notice"]
        assert {k: message[k] for k in notice} == notice
        assert message["partner"] == known["partner"]
    # dan's watch on bob: bob's pair was swapped (cat and xio both swapped bob), so the
    # watch, redirected to zed, sees every action redirected there (W6): cat's and xio's
    # swaps, eve's gift and dan's own watch
    dan = data["participants"]["dan"]
    assert dan["watch"] == [{"target": "bob", "seen": ["cat", "dan", "eve", "xio"]}]


@pytest.mark.guarantee("messages.what-each-knows")
def test_photographer_messages_give_the_mover_their_turn_and_everyone_their_hand(fixtures_db):
    data = read_json(fixtures_db, "messages", "g2", "--round", "3")
    assert data["seq"] == 7  # creation, then a submission and its turn three times
    ann, bob = data["participants"]["ann"], data["participants"]["bob"]
    turn = knowledge(fixtures_db, "g2", "ann", 7)["turns"][2]
    assert ann["hand"] == turn["private"]["hand"] == knowledge(fixtures_db, "g2", "ann", 7)["hand"]
    assert (ann["taken"], ann["wind"], ann["shots"]) == (turn["private"]["taken"], "1:2", turn["private"]["shots"])
    assert ann["taken"] == ["red-10", "blue-[12]"]  # the face-down card's value, known to its taker only
    assert data["public"]["taken"] == ["red-10", "blue-[7-12]"]  # everyone else sees its back
    assert "taken" not in bob and bob["hand"] == knowledge(fixtures_db, "g2", "bob", 7)["hand"]
    assert bob["to_play"] == "bob" and bob["table"] == knowledge(fixtures_db, "g2", "bob", 7)["table"]
    final = read_json(fixtures_db, "messages", "g2")
    assert final["round"] == 29 and [s["participant"] for s in final["public"]["standings"]] == ["ann", "bob"]
    assert final["participants"]["bob"]["standing"]["total"] == -11
