"""Two lca fixture scenarios checked by hand against the rules (the comments in each
fixture): the card's Amendment scores filming with divisor 2, and ties break as the
rules say.  Every number of every fixture is pinned in tests/histories."""

from __future__ import annotations

import pytest

from tests.helpers import REPO, read_json, run_script

# The scripts name their studios relative to the repository.
pytestmark = pytest.mark.usefixtures("at_repo_root")


def table(outcome):
    return {s["participant"]: (s["rank"], s["total"], s["scores"]) for s in outcome["standings"]}


def test_amendment_fixture_scores_filming_with_divisor_2(empty_db_path):
    run_script(empty_db_path, REPO / "fixtures" / "lca" / "amendment-example.txt")
    t = table(read_json(empty_db_path, "outcome", "amend5"))
    # hand-computed in test_filming_example: ann 30.5 -> 30, bob 20.5 -> 20, cat 27, dan 37, eve 29
    assert {p: s["filming"] for p, (_r, _t, s) in t.items()} == {"ann": 30, "bob": 20, "cat": 27, "dan": 37, "eve": 29}
    # the match was created under divisor 1 and the Amendment is in the log at seq 7
    log = {entry["seq"]: entry["event"] for entry in read_json(empty_db_path, "log", "amend5")}
    assert log[1]["options"]["filming_lights_divisor"] == 1
    assert (log[7]["type"], log[7]["option"], log[7]["value"], log[7]["from_round"]) == (
        "RuleAmended",
        "filming_lights_divisor",
        2,
        3,
    )


def test_ties_fixture_tie_breaks_and_contracts(empty_db_path):
    run_script(empty_db_path, REPO / "fixtures" / "lca" / "ties-and-contracts.txt")
    outcome = read_json(empty_db_path, "outcome", "ties8")
    t = table(outcome)
    # L1: gus and hal submitted the same cells: equal total and filming, listed order
    assert t["gus"][1:] == t["hal"][1:] and t["gus"][0] + 1 == t["hal"][0]
    # L1: dan and eve tie on total 287, dan's filming 57 > eve's 27 puts him first
    assert t["dan"][1] == t["eve"][1] == 287 and (t["dan"][0], t["eve"][0]) == (2, 3)
    # dan and fay tie for the highest filming (57); only dan (rank 2) gets the 4/4 ToL
    assert t["fay"][2]["filming"] == t["dan"][2]["filming"] == 57
    awards = outcome["awards"]
    assert {"participant": "dan", "kind": "tol", "shards": 4, "reason": "highest filming"} in awards
    assert not [a for a in awards if a["participant"] == "fay" and a["kind"] == "tol"]
    contract = sorted((a["participant"], a["reason"]) for a in awards if a["kind"] in ("shards", "mark"))
    assert contract == [
        ("ann", "contract: lights"),
        ("bob", "supremacy pact"),  # mark
        ("cat", "contract: camera"),
        ("dan", "supremacy pact"),  # 3 shards
        ("eve", "contract: action"),
        ("fay", "supremacy pact"),  # mark
    ]
    assert [a["participant"] for a in awards if a["kind"] == "mark"] == ["bob", "fay"]
