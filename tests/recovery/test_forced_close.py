"""`close --force --reason`: where the rules let a missing submission count as none
(lca), never in pw (W5); recorded with its reason and who was missing, which the host
sees in `log` and `audit` and nobody else sees anywhere."""

from __future__ import annotations

import json
import re

import msgspec
import pytest

from matchledger.engine.commands import CloseRound, CreateMatch, Submit
from matchledger.ledger.codec import encode
from matchledger.ledger.events import RoundClosed
from matchledger.projections.application import Application
from matchledger.projections.fold import InMemoryMatch
from matchledger.projections.rederive import rederive
from tests.helpers import invoke, read_json

from .support import (
    LCA_PLAYERS,
    LCA_ROUNDS,
    PW_ROUNDS,
    STUDIO,
    new_lca,
    new_photographer,
    new_pw,
    stored_rows,
    submit_round,
)

REASON = "cat sent nothing by the deadline"


def forced_match(db, folder, reason: str = REASON) -> None:
    new_lca(db, folder)
    submit_round(db, "m1", LCA_ROUNDS[0], only=("ann", "bob"))
    invoke(db, "close", "m1", "--force", "--reason", reason)
    submit_round(db, "m1", LCA_ROUNDS[1])


@pytest.mark.guarantee("safety.forced-close")
def test_a_forced_lca_close_records_the_reason_and_who_was_missing_and_cat_places_nothing(tmp_path):
    db = tmp_path / "m.db"
    forced_match(db, tmp_path)
    closed = next(e for e in read_json(db, "log", "m1") if e["kind"] == "RoundClosed")
    assert closed["event"]["reason"] == REASON and closed["event"]["missing"] == ["cat"]
    assert read_json(db, "knowledge", "m1", "--as", "cat")["announcements"][0]["private"] == {
        "lights": [],
        "lights_score": 0,
    }
    log = invoke(db, "log", "m1").stdout
    assert f"round 1 closed (computed announcement), forced without cat — {REASON}" in log
    [forced] = [c for c in read_json(db, "audit", "m1")["corrections"] if c["event"] == "RoundClosed"]
    assert (forced["round"], forced["missing"], forced["reason"], forced["actor"]) == (1, ["cat"], REASON, "tester")
    assert REASON in invoke(db, "audit", "m1").stdout
    assert json.loads(invoke(db, "verify", "m1", "--json").stdout)["ok"]


@pytest.mark.guarantee("safety.forced-close")
def test_an_unforced_close_is_encoded_exactly_as_before_forced_closes_existed():
    event = RoundClosed(round=1, public={"lights": []}, private={})
    assert (
        encode(event)
        == b'{"type":"RoundClosed","v":1,"round":1,"public":{"lights":[]},"private":{},"source":"computed"}'
    )


def without_hashes(output: str) -> str:
    """Each event's hash is public and covers the host's whole body (the one exception
    to byte-equality, docs/guarantees.md): hex runs of a hash's length masked."""
    return re.sub(r"[0-9a-f]{16,64}", "HASH", output)


@pytest.mark.guarantee("safety.forced-close-private")
def test_a_forced_close_shows_no_non_host_its_reason_or_who_was_missing(tmp_path, monkeypatch):
    """Two matches whose forced closes differ only in the reason: every output of the
    public and of each player, text and JSON, is the same, and none holds a reason."""
    defaults = dict(Application.__init__.__kwdefaults__)
    monkeypatch.setattr(
        Application.__init__, "__kwdefaults__", {**defaults, "clock": lambda: "2024-01-01T12:00:00.000000Z"}
    )
    one, other = tmp_path / "one", tmp_path / "other"
    for folder, reason in ((one, REASON), (other, "a different reason")):
        folder.mkdir()
        forced_match(folder / "m.db", folder, reason)
    for view in (["--public"], *(["--as", p] for p in LCA_PLAYERS)):
        for command in ("log", "status", "reveals", "scores", "outcome"):
            for form in ([], ["--json"]):
                a = without_hashes(invoke(one / "m.db", command, "m1", *view, *form).stdout)
                b = without_hashes(invoke(other / "m.db", command, "m1", *view, *form).stdout)
                assert a == b, (command, view, form)
                assert "reason" not in a and "forced" not in a and "missing" not in a
    public_close = next(e for e in read_json(one / "m.db", "log", "m1", "--public") if e["kind"] == "RoundClosed")
    assert public_close["event"] == {"type": "RoundClosed", "round": 1, "source": "computed"}
    # the host's own view does tell them apart (the comparison above could fail)
    assert invoke(one / "m.db", "log", "m1").stdout != invoke(other / "m.db", "log", "m1").stdout


@pytest.mark.guarantee("safety.close-refuses-missing")
def test_a_force_without_reason_or_with_nobody_missing_and_a_reason_without_force_are_refused(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    submit_round(db, "m1", LCA_ROUNDS[0], only=("ann",))
    before = stored_rows(db)
    assert "a forced close needs a --reason" in invoke(db, "close", "m1", "--force", expect=1).stderr
    assert "--reason goes with --force" in invoke(db, "close", "m1", "--reason", "x", expect=2).stderr
    submit_round(db, "m1", LCA_ROUNDS[0], only=("bob", "cat"))
    refused = invoke(db, "close", "m1", "--force", "--reason", "x", expect=1)
    assert "every participant has submitted in round 1 of 'm1'; close it without --force" in refused.stderr
    assert len(stored_rows(db)) == len(before) + 2


@pytest.mark.ruling("W5")
@pytest.mark.guarantee("safety.close-refuses-missing")
def test_w5_a_pw_round_with_a_participant_missing_cannot_close_not_even_with_force(tmp_path):
    db = tmp_path / "m.db"
    new_pw(db)
    submit_round(db, "p1", PW_ROUNDS[0], only=("ann", "bob"))
    before = stored_rows(db)
    plain = invoke(db, "close", "p1", expect=1)
    assert "W5: round 1 of 'p1' cannot close; no submission from yan, zed" in plain.stderr
    forced = invoke(db, "close", "p1", "--force", "--reason", "they are late", expect=1)
    assert "W5: round 1 of 'p1' cannot close, not even with --force (every participant must submit)" in forced.stderr
    assert stored_rows(db) == before


def test_photographer_has_no_close_forced_or_not(tmp_path):
    db = tmp_path / "m.db"
    new_photographer(db)
    result = invoke(db, "close", "g1", "--force", "--reason", "x", expect=1)
    assert "photographer has no close: a turn is resolved as soon as it is submitted" in result.stderr


@pytest.mark.guarantee("safety.forced-close")
def test_verify_recomputes_who_was_missing_at_a_forced_close():
    match = InMemoryMatch(CreateMatch("m1", "lca", list(LCA_PLAYERS), setup={"studio": STUDIO}))
    for who in ("ann", "bob"):
        match.do(Submit(who, LCA_ROUNDS[0][who].split()))
    match.do(CloseRound(force=True, reason=REASON))
    assert rederive("m1", match.pairs()) == []
    pairs = match.pairs()
    seq, closed = pairs[-1]
    pairs[-1] = (seq, msgspec.structs.replace(closed, missing=["bob"]))
    [finding] = rederive("m1", pairs)
    assert (finding.seq, finding.field, finding.recorded, finding.recomputed) == (seq, "missing[0]", "bob", "cat")
