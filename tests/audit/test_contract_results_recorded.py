"""Contract results in the recorded outcome: a log recorded before they were announced
still verifies and replays as it did, its read models now naming them; a log that
records them must record the ones the rules give, in both parts of the outcome; a host
may enter results in either shape.

recorded_before_contract_results/ holds exports made by the version before contract
results were announced (mm1: tests/lca/test_contract_results.py's match, recorded with
salts as a host's database holds them; pw2: fixtures/pw/swap_both_members.txt)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest

from matchledger import engine
from matchledger.engine.state import HOST
from matchledger.ledger.events import OutcomeAnnounced, StateCheckpointed
from matchledger.projections.fold import play
from matchledger.projections.rederive import rederive
from tests.fixture_matches import played
from tests.helpers import REPO, invoke, read_json
from tests.lca.test_contract_results import RESULTS as MM1_RESULTS
from tests.trust.forged import export_file

RECORDED = Path(__file__).resolve().parent / "recorded_before_contract_results"

#: pw2's contracts and their results, players by name: ann's generosity failed (her guest
#: tof ends on 1 point, not 2 above her), so bob's pact on her pays; eve's pact on dan
#: does not (dan and his guest zed each used six types: diversity met).
PW2_RESULTS = [
    {"participant": "ann", "contract": "generosity", "succeeded": False},
    {"participant": "bob", "contract": "diversity", "succeeded": True},
    {"participant": "bob", "contract": "sabotage", "target": "ann", "succeeded": True},
    {"participant": "cat", "contract": "espionage", "succeeded": False},
    {"participant": "dan", "contract": "diversity", "succeeded": True},
    {"participant": "eve", "contract": "generosity", "succeeded": True},
    {"participant": "eve", "contract": "sabotage", "target": "dan", "succeeded": False},
    {"participant": "fay", "contract": "diversity", "succeeded": True},
    {"participant": "gus", "contract": "generosity", "succeeded": False},
]


def imported(tmp_path, name: str) -> Path:
    db = tmp_path / "m.db"
    invoke(db, "import", RECORDED / f"{name}.jsonl")
    return db


def verify_findings(db, match_id: str, expect: int = 0) -> list[dict]:
    [match] = read_json(db, "verify", match_id, expect=expect)["matches"]
    return match["findings"]


def recorded_outcome(db, match_id: str) -> dict:
    [row] = [row for row in read_json(db, "log", match_id) if row["kind"] == "OutcomeAnnounced"]
    return row["event"]


@pytest.mark.parametrize("match_id, results", [("mm1", MM1_RESULTS), ("pw2", PW2_RESULTS)])
def test_a_log_recorded_before_contract_results_verifies_and_its_reads_name_them(tmp_path, match_id, results):
    db = imported(tmp_path, match_id)
    recorded = recorded_outcome(db, match_id)
    assert "contracts" not in recorded["outcome"] and "contracts" not in recorded["public"]  # an old one
    assert invoke(db, "verify", match_id).stdout.startswith(f"{match_id}: ok")
    assert verify_findings(db, match_id) == []
    assert read_json(db, "outcome", match_id)["contracts"] == results
    assert read_json(db, "outcome", match_id, "--public")["contracts"] == results
    assert read_json(db, "reveals", match_id, "--public")["outcome"]["contracts"] == results


def test_an_old_lca_log_tells_kim_that_her_lights_contract_failed(tmp_path):
    db = imported(tmp_path, "mm1")
    assert (
        "Your contracts: lights failed; supremacy pact failed." in invoke(db, "messages", "mm1", "--as", "kim").stdout
    )
    assert "  kim: lights failed; supremacy pact failed" in invoke(db, "messages", "mm1", "--public").stdout


def test_an_old_pw_log_names_the_sabotage_and_the_failed_contract_it_paid_on(tmp_path):
    db = imported(tmp_path, "pw2")
    public = invoke(db, "messages", "pw2", "--public").stdout
    assert "  ann: generosity failed\n" in public
    assert "  bob: diversity succeeded; sabotage pact on ann succeeded\n" in public
    assert "bob          1 shard             sabotage pact" in invoke(db, "outcome", "pw2", "--public").stdout
    # a guest is told their partner's results, as they are told their partner's awards
    guest = next(row["guest"] for row in read_json(db, "status", "pw2")["pairs"] if row["player"] == "bob")
    assert (
        "Your partner bob's contracts: diversity succeeded; sabotage pact on ann succeeded."
        in invoke(db, "messages", "pw2", "--as", guest).stdout
    )


# --------------------------------------------------------------------------- what a log may record


def with_outcome(pairs, change) -> list:
    """``pairs``' events, the OutcomeAnnounced's ``outcome`` and ``public`` as ``change``
    leaves copies of them."""
    events = []
    for _seq, event in pairs:
        if isinstance(event, OutcomeAnnounced):
            outcome, public = json.loads(json.dumps(event.outcome)), json.loads(json.dumps(event.public))
            change(outcome, public)
            event = msgspec.structs.replace(event, outcome=outcome, public=public)
        events.append(event)
    return events


def findings(match_id: str, events: list) -> list:
    return rederive(match_id, list(enumerate(events, start=1)))


@pytest.fixture(scope="module")
def pw2():
    return played(REPO / "fixtures" / "pw" / "swap_both_members.txt")


def test_a_new_log_records_contract_results_in_both_parts(pw2):
    match_id, pairs = pw2
    [event] = [event for _seq, event in pairs if isinstance(event, OutcomeAnnounced)]
    assert event.outcome["contracts"] == event.public["contracts"] == PW2_RESULTS
    assert findings(match_id, [event for _seq, event in pairs]) == []


def _drop(*parts):
    def change(outcome, public):
        for name in parts:
            del {"outcome": outcome, "public": public}[name]["contracts"]

    return change


def _flip(part: str, index: int):
    def change(outcome, public):
        entry = {"outcome": outcome, "public": public}[part]["contracts"][index]
        entry["succeeded"] = not entry["succeeded"]

    return change


@pytest.mark.parametrize(
    "change, field, recorded, recomputed",
    [
        # the outcome says contract results are announced: the public part must hold them
        (_drop("public"), "public.contracts", None, PW2_RESULTS),
        # bob's pact on ann recorded as failed, the host's part or the public one
        (_flip("outcome", 2), "outcome.contracts[2].succeeded", False, True),
        (_flip("public", 2), "public.contracts[2].succeeded", False, True),
    ],
)
def test_recorded_contract_results_must_be_the_rules(pw2, change, field, recorded, recomputed):
    match_id, pairs = pw2
    [finding] = findings(match_id, with_outcome(pairs, change))
    assert (finding.field, finding.recorded, finding.recomputed) == (field, recorded, recomputed)


def test_an_outcome_without_contract_results_in_both_parts_is_one_recorded_before_them(pw2):
    match_id, pairs = pw2
    assert findings(match_id, with_outcome(pairs, _drop("outcome", "public"))) == []
    # ... and only those: the public part alone holding them is not the old shape
    [finding] = findings(match_id, with_outcome(pairs, _drop("outcome")))
    assert (finding.field, finding.recorded) == ("public.contracts", PW2_RESULTS)


def test_a_recorded_public_outcome_naming_a_guest_is_refused_on_import(tmp_path, pw2):
    match_id, pairs = pw2

    def change(outcome, public):
        public["contracts"][0]["participant"] = "tof"

    result = invoke(
        tmp_path / "m.db",
        "import",
        export_file(tmp_path / "f.jsonl", match_id, with_outcome(pairs, change), "host"),
        expect=1,
    )
    assert "'tof' is not a player" in result.stderr and "the public outcome" in result.stderr


@pytest.mark.parametrize("with_results", [False, True], ids=["older shape", "with contract results"])
def test_a_host_may_enter_the_results_with_or_without_contract_results(tmp_path, with_results):
    """Hand-scored: the last round closed with the host's announcement, no outcome recorded."""
    match_id, pairs = played(REPO / "fixtures" / "pw" / "swap_both_members.txt")
    events = [event for _seq, event in pairs if not isinstance(event, (OutcomeAnnounced, StateCheckpointed))]
    events[-1] = msgspec.structs.replace(events[-1], source="host")  # Round 3's close
    db = tmp_path / "m.db"
    invoke(db, "import", export_file(tmp_path / "hand.jsonl", match_id, events, "host"))
    results = read_json(db, "outcome", match_id)
    if not with_results:
        del results["contracts"]
    (tmp_path / "results.json").write_text(json.dumps(results))
    invoke(db, "outcome", match_id, "--announced", tmp_path / "results.json")
    assert verify_findings(db, match_id) == []
    assert read_json(db, "outcome", match_id, "--public")["contracts"] == PW2_RESULTS
    # a host's results that say bob's pact failed are a finding
    results = read_json(db, "outcome", match_id)
    results["contracts"][2]["succeeded"] = False
    other = tmp_path / "other.db"
    invoke(other, "import", export_file(tmp_path / "hand.jsonl", match_id, events, "host"))
    (tmp_path / "wrong.json").write_text(json.dumps(results))
    invoke(other, "outcome", match_id, "--announced", tmp_path / "wrong.json")
    [finding] = verify_findings(other, match_id, expect=3)
    assert (finding["field"], finding["recorded"], finding["recomputed"]) == (
        "outcome.contracts[2].succeeded",
        False,
        True,
    )


# --------------------------------------------------------------------------- results and awards agree

#: The award each successful contract pays, by game (rules, "Contracts").
PAYS = {
    "lca": {
        "lights": ("shards", "contract: lights"),
        "camera": ("shards", "contract: camera"),
        "action": ("shards", "contract: action"),
        "supremacy": ("shards", "supremacy pact"),
    },
    "pw": {
        "diversity": ("shards", "contract: diversity"),
        "generosity": ("shards", "contract: generosity"),
        "espionage": ("shards", "contract: espionage"),
        "sabotage": ("shards", "sabotage pact"),
    },
}


@pytest.mark.parametrize("game_name", ["lca", "pw"])
def test_every_contract_held_has_a_result_and_exactly_the_successful_ones_pay(game_name):
    game = engine.get(game_name)
    seen = {True: 0, False: 0}
    for seed in range(10):
        state = play(game.sample(random.Random(seed), f"{game_name}-{seed}")).state
        host = game.outcome(state, HOST)
        results = host["contracts"]
        # one result per contract held, players by name
        held = [(p, name.partition(":")[0]) for p in sorted(state.contracts) for name in state.contracts[p]]
        assert sorted((r["participant"], r["contract"]) for r in results) == sorted(held)
        assert [r["participant"] for r in results] == sorted(r["participant"] for r in results)
        paid = sorted(
            (a["participant"], a["kind"], a["reason"])
            for a in host["awards"]
            if a["kind"] == "shards" or a["reason"] == "supremacy pact"
        )
        expected = sorted((r["participant"], *PAYS[game_name][r["contract"]]) for r in results if r["succeeded"])
        if game_name == "lca":  # a pact's acceptor who does not win it gets a Mark
            expected += [
                (r["participant"], "mark", "supremacy pact")
                for r in results
                if r["contract"] == "supremacy" and not r["succeeded"]
            ]
        assert paid == sorted(expected)
        for r in results:
            seen[r["succeeded"]] += 1
    assert seen[True] >= 5 and seen[False] >= 5  # both kinds of result were met
