"""The trust-boundary findings about views, each reproduced directly: what a non-host
sees carries no secret (not even in the order of a list or in an error), and a view is
always chosen explicitly.  The findings about the chain: ../tampering/test_chain_findings.py."""

from __future__ import annotations

import pytest

from tests.helpers import REPO, invoke, read_json

PW = REPO / "fixtures" / "pw" / "swap_one_member.txt"  # match pw1, 7 pairs
CARD = REPO / "fixtures" / "lca" / "card-11-players.txt"  # match card11, finished


def _pw_db(tmp_path, name: str, pairs: dict[str, str] | None = None):
    """pw1's first lines (players and contracts) under ``pairs`` (default: the fixture's)."""
    lines = [line for line in PW.read_text().splitlines() if line.startswith(("new ", "contract "))]
    if pairs is not None:
        words = lines[0].split()
        keep = [w for i, w in enumerate(words) if w != "--pair" and (i == 0 or words[i - 1] != "--pair")]
        lines[0] = " ".join(keep + [f"--pair {p}={g}" for p, g in pairs.items()])
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n")
    db = tmp_path / f"{name}.db"
    invoke(db, "script", script)
    return db


@pytest.mark.guarantee("privacy.names-canonical")
def test_no_error_a_stranger_provokes_lists_names_in_an_order_that_tells_the_pairing(tmp_path):
    one = _pw_db(tmp_path, "one")
    pairs = read_json(one, "status", "pw1")["pairs"]
    players = [p["player"] for p in pairs]
    guests = [p["guest"] for p in pairs]
    other = _pw_db(tmp_path, "other", dict(zip(players, guests[1:] + guests[:1])))  # every guest moved on
    for args in (
        ("knowledge", "pw1", "--as", "mallory"),
        ("status", "pw1", "--as", "mallory"),
        ("reveals", "pw1", "--as", "mallory", "--json"),
        ("submit", "pw1", "mallory", "gift:ann", "learn:bob"),
    ):
        first, second = invoke(one, *args, expect=1).output, invoke(other, *args, expect=1).output
        assert first == second, args
        assert "participants: ann, bob, cat, dan, eve, fay, gus, " + ", ".join(sorted(guests)) in first


@pytest.mark.guarantee("privacy.names-canonical")
def test_the_missing_list_of_a_round_that_cannot_close_tells_no_pairing(tmp_path):
    one = _pw_db(tmp_path, "one")
    guests = [p["guest"] for p in read_json(one, "status", "pw1")["pairs"]]
    message = invoke(one, "close", "pw1", expect=1).output
    assert message.endswith(", ".join(["ann", "bob", "cat", "dan", "eve", "fay", "gus", *sorted(guests)]) + "\n")


@pytest.mark.guarantee("privacy.empty-as")
@pytest.mark.parametrize("command", [("status",), ("outcome", "--json"), ("reveals",), ("knowledge",), ("log",)])
def test_an_empty_as_is_an_error_never_the_hosts_view(tmp_path, command):
    db = tmp_path / "m.db"
    invoke(db, "script", CARD)
    name, *rest = command
    result = invoke(db, name, "card11", "--as", "", *rest, expect=1)
    assert "--as '': not a participant" in result.output and "light_owners" not in result.output


@pytest.mark.guarantee("privacy.empty-as")
@pytest.mark.parametrize("output", ["x.svg", "x.html"])
def test_an_empty_as_draws_and_writes_nothing(tmp_path, output):
    db = tmp_path / "m.db"
    invoke(db, "script", CARD)
    command = "render" if output.endswith(".svg") else "report"
    invoke(db, command, "card11", "--as", "", "-o", tmp_path / output, expect=1)
    assert not (tmp_path / output).exists()


@pytest.mark.guarantee("privacy.log-views")
def test_log_shows_the_public_and_each_participant_only_what_they_may_know(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "script", CARD)
    host = read_json(db, "log", "card11")
    public = read_json(db, "log", "card11", "--public")
    ann = read_json(db, "log", "card11", "--as", "ann")
    assert {e["kind"] for e in public} == {"MatchCreated", "RoundClosed", "OutcomeAnnounced"}
    assert all("private" not in e["event"] and "setup" not in e["event"] for e in public)
    own = [e for e in ann if e["kind"] in ("SubmissionRecorded", "ContractRecorded")]
    assert own and all(e["event"]["participant"] == "ann" for e in own)
    assert {e["seq"] for e in ann} - {e["seq"] for e in public} == {e["seq"] for e in own}
    assert len(host) > len(ann) > len(public)
    text = invoke(db, "log", "card11", "--public").output
    assert text.startswith("log of card11 (view: public): ") and "SubmissionRecorded" not in text
