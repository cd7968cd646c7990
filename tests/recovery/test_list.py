"""`list`: every match with its game, players, round or turn, state and head; a match
whose chain is broken is listed with its problem (exit 3), never a crash."""

from __future__ import annotations

import sqlite3

import pytest

from tests.helpers import invoke, read_json

from .support import (
    LCA_ROUNDS,
    PHOTOGRAPHER_TURNS,
    new_lca,
    new_photographer,
    new_pw,
    play_turns,
    submit_round,
)

pytestmark = pytest.mark.guarantee("safety.list")


@pytest.fixture
def four_states_db(tmp_path):
    """An lca match in round 2, a photographer match at turn 3, a pw match abandoned,
    and a finished lca match."""
    path = tmp_path / "m.db"
    new_lca(path, tmp_path, "a-lca")
    submit_round(path, "a-lca", LCA_ROUNDS[0])
    invoke(path, "close", "a-lca")
    new_photographer(path, "b-photo")
    play_turns(path, "b-photo", PHOTOGRAPHER_TURNS[:2])
    new_pw(path, "c-pw")
    invoke(path, "abandon", "c-pw", "--reason", "wrong pairs")
    new_lca(path, tmp_path, "d-done")
    for submissions in LCA_ROUNDS:
        submit_round(path, "d-done", submissions)
        invoke(path, "close", "d-done")
    return path


def test_list_json_gives_every_match_where_it_stands_and_its_head(four_states_db):
    listed = read_json(four_states_db, "list")
    heads = {m: read_json(four_states_db, "head", m) for m in ("a-lca", "b-photo", "c-pw", "d-done")}
    assert listed == [
        {
            "match": "a-lca",
            "game": "lca",
            "players": ["ann", "bob", "cat"],
            "round": 2,
            "finished": False,
            "abandoned": False,
            "head": f"{heads['a-lca']['seq']}:{heads['a-lca']['hash']}",
        },
        {
            "match": "b-photo",
            "game": "photographer",
            "players": ["ann", "bob"],
            "turn": 3,
            "finished": False,
            "abandoned": False,
            "head": f"{heads['b-photo']['seq']}:{heads['b-photo']['hash']}",
        },
        {
            "match": "c-pw",
            "game": "pw",
            "players": ["ann", "bob"],
            "round": 1,
            "finished": False,
            "abandoned": True,
            "head": f"2:{heads['c-pw']['hash']}",
            "abandoned_at": 2,
        },
        {
            "match": "d-done",
            "game": "lca",
            "players": ["ann", "bob", "cat"],
            "round": None,
            "finished": True,
            "abandoned": False,
            "head": f"{heads['d-done']['seq']}:{heads['d-done']['hash']}",
        },
    ]
    # the head is what `verify --head` pins
    invoke(four_states_db, "verify", "b-photo", "--head", listed[1]["head"])


def test_list_text_is_a_table_one_line_a_match(four_states_db):
    lines = invoke(four_states_db, "list").stdout.splitlines()
    assert lines[0].split() == ["match", "game", "players", "at", "state", "head"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert list(rows) == ["a-lca", "b-photo", "c-pw", "d-done"]
    assert "round 2" in rows["a-lca"] and "playing" in rows["a-lca"]
    assert "turn 3" in rows["b-photo"]
    assert "abandoned at seq 2" in rows["c-pw"]
    assert "finished" in rows["d-done"]
    head = read_json(four_states_db, "head", "a-lca")
    assert rows["a-lca"].endswith(f"{head['seq']}:{head['hash'][:12]}")


def test_a_match_whose_chain_is_broken_is_listed_with_its_problem_and_list_exits_3(four_states_db):
    connection = sqlite3.connect(four_states_db)
    connection.execute("DROP TRIGGER events_no_update")
    connection.execute("UPDATE events SET body = replace(body, 'ann', 'amy') WHERE match_id = 'b-photo' AND seq = 2")
    connection.commit()
    connection.close()
    result = invoke(four_states_db, "list", expect=3)
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[2:]}
    assert "does not verify" in rows["b-photo"] and "playing" in rows["a-lca"]
    assert "FINDING b-photo seq 2: hash does not match" in result.stderr
    assert "1 of 4 matches do not verify: b-photo" in result.stderr
    listed = {entry["match"]: entry for entry in read_json(four_states_db, "list", expect=3)}
    assert listed["b-photo"]["head"] is None and "seq 2" in listed["b-photo"]["problem"]
    assert "problem" not in listed["a-lca"]


def test_an_empty_database_lists_no_match(tmp_path):
    db = tmp_path / "empty.db"
    invoke(db, "init")
    assert read_json(db, "list") == []
    assert "no matches in" in invoke(db, "list").stdout
