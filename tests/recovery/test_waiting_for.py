"""`status` names whom the match waits for, from one engine function
(`Game.waiting_for`, canonical order: players then guests, each by name): the host
always; everyone where the rules announce it (whose photographer turn it is), nobody
else where only the host knows who has submitted (lca, pw)."""

from __future__ import annotations

import pytest

from tests.helpers import invoke, read_json

from .support import (
    LCA_ROUNDS,
    PW_ROUNDS,
    new_lca,
    new_photographer,
    play_rounds,
    play_turns,
    submit_round,
)

pytestmark = pytest.mark.guarantee("safety.waiting-for")


def test_lca_status_names_the_players_still_to_submit_to_the_host_only(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    assert read_json(db, "status", "m1")["waiting_for"] == ["ann", "bob", "cat"]
    submit_round(db, "m1", LCA_ROUNDS[0], only=("bob",))
    assert read_json(db, "status", "m1")["waiting_for"] == ["ann", "cat"]
    assert "waiting for: ann, cat" in invoke(db, "status", "m1").stdout
    for view in (["--public"], ["--as", "ann"], ["--as", "bob"]):
        assert "waiting_for" not in read_json(db, "status", "m1", *view)
        assert "waiting for" not in invoke(db, "status", "m1", *view).stdout
    invoke(db, "close", "m1", "--force", "--reason", "ann and cat pass")
    assert read_json(db, "status", "m1")["waiting_for"] == ["ann", "bob", "cat"]


def test_pw_status_names_players_then_guests_each_by_name_whatever_the_listed_order(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "pw", "p1", "--players", "bob,ann", "--pair", "bob=yan", "--pair", "ann=zed")
    submit_round(db, "p1", PW_ROUNDS[0], only=("yan",))
    host_status = read_json(db, "status", "p1")
    assert host_status["waiting_for"] == ["ann", "bob", "zed"]
    # the host's older `missing` stays beside it (JSON shapes only grow), as ever in the
    # order of the pairs: bob, his guest yan's place is filled, ann, zed
    assert host_status["missing"] == ["bob", "ann", "zed"]
    refused = invoke(db, "close", "p1", expect=1)
    assert "no submission from ann, bob, zed" in refused.stderr
    for view in (["--public"], ["--as", "ann"], ["--as", "yan"]):
        assert "waiting_for" not in read_json(db, "status", "p1", *view)
    submit_round(db, "p1", PW_ROUNDS[0], only=("ann", "bob", "zed"))
    assert read_json(db, "status", "p1")["waiting_for"] == []


def test_photographer_status_names_whose_turn_it_is_in_every_view_and_nobody_at_the_end(tmp_path):
    db = tmp_path / "m.db"
    new_photographer(db)
    play_turns(db, "g1", ["ann take 1 left 3 wind 1:2"])
    for view in ([], ["--public"], ["--as", "ann"], ["--as", "bob"]):
        status = read_json(db, "status", "g1", *view)
        assert status["waiting_for"] == [status["to_play"]] == ["bob"]
        assert "waiting for: bob" in invoke(db, "status", "g1", *view).stdout


def test_a_finished_match_waits_for_nobody(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    play_rounds(db, "m1", LCA_ROUNDS)
    assert read_json(db, "status", "m1")["waiting_for"] == []
    assert "waiting for" not in invoke(db, "status", "m1").stdout
