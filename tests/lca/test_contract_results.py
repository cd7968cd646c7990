"""Contract results are public at the end (rules, Endgame: "Public at the end: ... ECs
and contract results"): every contract held and whether it succeeded, a failed one as
well as one that pays, in the outcome, the reveals and the messages."""

from __future__ import annotations

import pytest

from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from tests.helpers import REPO, invoke, read_json

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"

#: kim takes Lights and the Supremacy Pact, then forgets Round 1: she places no lights,
#: so her Lights contract fails (0 lit cells < 50), and ann, the better-ranked acceptor,
#: wins the pact and kim gets its Mark.  ann's three lights brighten 58 cells (Lights
#: met: 50 or more); bob's camera at C7 shares cells with ann's at E5 and his G3 with
#: kim's at H2, so only his I11 sees no other player's cell (Camera failed: two needed).
MOVES = [
    ("contract", "ann", "lights", "supremacy"),
    ("contract", "bob", "camera"),
    ("contract", "kim", "lights", "supremacy"),
    ("submit", "ann", "C3", "H3", "C8", "A1", "B1"),
    ("submit", "bob", "E2", "H7", "C3", "J9", "A2"),
    ("close", "--force", "--reason", "kim forgot Round 1"),
    ("submit", "ann", "B2", "E5", "H8"),
    ("submit", "bob", "C7", "G3", "I11"),
    ("submit", "kim", "E5", "B11", "H2"),
    ("close",),
    ("submit", "ann", "E4", "D5", "F5"),
    ("submit", "bob", "E6", "F6", "A13"),
    ("submit", "kim", "E4", "G9", "J13"),
    ("close",),
]

#: every contract in the canonical order (players by name), each player's chosen one
#: before the pact
RESULTS = [
    {"participant": "ann", "contract": "lights", "succeeded": True},
    {"participant": "ann", "contract": "supremacy", "succeeded": True},
    {"participant": "bob", "contract": "camera", "succeeded": False},
    {"participant": "kim", "contract": "lights", "succeeded": False},
    {"participant": "kim", "contract": "supremacy", "succeeded": False},
]


def play(db) -> None:
    invoke(db, "new", "lca", "mm1", "--players", "ann,bob,kim", "--studio", STUDIO)
    for verb, *args in MOVES:
        if verb == "close":
            invoke(db, "close", "mm1", *args)
        else:
            invoke(db, verb, "mm1", *args)


@pytest.fixture(scope="module")
def finished_mm1_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("contracts") / "m.db"
    play(path)
    return path


def test_the_facts_behind_the_results(finished_mm1_db):
    store = Store(finished_mm1_db, read_only=True)
    try:
        g = Application(store).state("mm1", None).g
    finally:
        store.close()
    assert {p: len(g.lights.lit_by[p]) for p in ("ann", "bob", "kim")} == {"ann": 58, "bob": 42, "kim": 0}
    assert {p: g.cameras.exclusive(p) for p in ("ann", "bob", "kim")} == {"ann": 2, "bob": 1, "kim": 1}
    # ann's lights met and her pact won: both pay; kim's Mark is the pact's only trace today
    awards = read_json(finished_mm1_db, "outcome", "mm1")["awards"]
    assert {"participant": "ann", "kind": "shards", "shards": 1, "reason": "contract: lights"} in awards
    assert {"participant": "kim", "kind": "mark", "reason": "supremacy pact"} in awards
    assert [a for a in awards if a["participant"] == "bob" and a["reason"].startswith("contract")] == []


def test_a_failed_lights_contract_is_in_the_public_outcome(finished_mm1_db):
    public = read_json(finished_mm1_db, "outcome", "mm1", "--public")
    assert public["contracts"] == RESULTS
    assert read_json(finished_mm1_db, "outcome", "mm1")["contracts"] == RESULTS  # the host's too
    assert read_json(finished_mm1_db, "reveals", "mm1", "--public")["outcome"]["contracts"] == RESULTS
    text = invoke(finished_mm1_db, "outcome", "mm1", "--public").stdout
    assert "kim          lights          failed" in text
    assert "ann          supremacy pact  succeeded" in text


def test_the_recorded_announcement_carries_them(finished_mm1_db):
    [event] = [row for row in read_json(finished_mm1_db, "log", "mm1") if row["kind"] == "OutcomeAnnounced"]
    assert event["event"]["outcome"]["contracts"] == event["event"]["public"]["contracts"] == RESULTS
    assert "mm1: ok" in invoke(finished_mm1_db, "verify", "mm1").stdout


def test_a_failed_lights_contract_is_in_her_message_and_the_public_post(finished_mm1_db):
    mine = invoke(finished_mm1_db, "messages", "mm1", "--as", "kim").stdout
    assert "Your awards: ToL 1/4 (rank 3); Mark of Elimination (supremacy pact); EC (rank 3)." in mine
    assert "Your contracts: lights failed; supremacy pact failed." in mine
    data = read_json(finished_mm1_db, "messages", "mm1")
    assert data["participants"]["kim"]["contracts"] == RESULTS[3:]
    assert data["participants"]["bob"]["contracts"] == RESULTS[2:3]
    assert data["public"]["outcome"]["contracts"] == RESULTS
    public = invoke(finished_mm1_db, "messages", "mm1", "--public").stdout
    assert public.endswith(
        "Contracts:\n  ann: lights succeeded; supremacy pact succeeded\n  bob: camera failed\n"
        "  kim: lights failed; supremacy pact failed\n"
    )


def test_a_player_without_a_contract_is_told_so_and_named_nowhere(tmp_path):
    db = tmp_path / "m.db"
    play(db)  # then the same match again, with nobody holding a contract
    invoke(db, "new", "lca", "mm2", "--players", "ann,bob,kim", "--studio", STUDIO)
    for verb, *args in MOVES:
        if verb != "contract":
            invoke(db, verb, "mm2", *args)
    assert read_json(db, "outcome", "mm2", "--public")["contracts"] == []
    assert "You held no contract." in invoke(db, "messages", "mm2", "--as", "kim").stdout
    assert "Contracts" not in invoke(db, "outcome", "mm2", "--public").stdout
