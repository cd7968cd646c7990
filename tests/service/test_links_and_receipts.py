"""`invite`, `revoke` and `verify --receipt` on the command line: tokens are random,
kept only as hashes beside the log, scoped to one match and one role; a receipt is
proven in the verified chain or the finding says why not."""

from __future__ import annotations

import json
import sqlite3

import pytest

from matchledger.ledger import capabilities
from matchledger.ledger.capabilities import token_hash
from matchledger.ledger.store import Store
from tests.helpers import invoke, read_json
from tests.trust.common import new_pw


@pytest.fixture
def pw_submitted_db(tmp_path):
    db = tmp_path / "m.db"
    new_pw(db)
    for who, tokens in (("ann", "gift:bob learn:yan"), ("zed", "watch:bob swap:yan")):
        invoke(db, "submit", "p1", who, *tokens.split())
    return db


def tables(db) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@pytest.mark.guarantee("service.tokens-hashed")
def test_invite_prints_a_fresh_192_bit_link_once_and_the_database_keeps_only_its_hash(pw_submitted_db, tmp_path):
    first = read_json(
        pw_submitted_db, "invite", "p1", "--as", "zed", "--submit", "--base-url", "https://games.example.org/x/"
    )
    second = read_json(
        pw_submitted_db, "invite", "p1", "--as", "zed", "--submit", "--base-url", "https://games.example.org/x/"
    )
    token = first["token"]
    assert {k: v for k, v in first.items() if k not in ("url", "token")} == {
        "match": "p1",
        "role": "participant",
        "participant": "zed",
        "can_submit": True,
    }
    assert first["url"] == f"https://games.example.org/x/p/{token}"
    assert len(token) == 32 and token != second["token"]  # 24 random bytes, URL-safe
    with sqlite3.connect(pw_submitted_db) as conn:
        stored = conn.execute("SELECT * FROM capabilities").fetchall()
        events = conn.execute("SELECT body FROM events").fetchall()
    assert [row[0] for row in stored] == [token_hash(token), token_hash(second["token"])]
    assert token not in repr(stored) and token not in repr(events)
    invoke(pw_submitted_db, "export", "p1", "-o", tmp_path / "p1.jsonl")
    assert token not in (tmp_path / "p1.jsonl").read_text()
    auditor = read_json(pw_submitted_db, "invite", "p1", "--auditor")
    assert (auditor["role"], auditor["participant"], auditor["can_submit"]) == ("auditor", None, False)
    assert auditor["url"].endswith(f"/a/{auditor['token']}")


def test_invite_names_what_is_wrong_and_issues_nothing(pw_submitted_db):
    out = invoke(pw_submitted_db, "invite", "p1", "--as", "nobody", expect=1).output
    # the host's message lists the participants in the canonical order: players, then guests
    assert "--as 'nobody': not a participant of 'p1' (participants: ann, bob, yan, zed)" in out
    assert "no match 'zz'" in invoke(pw_submitted_db, "invite", "zz", "--as", "ann", expect=1).output
    # options that exclude or need each other, or a malformed one, are usage errors (exit 2)
    assert "an auditor reads only" in invoke(pw_submitted_db, "invite", "p1", "--auditor", "--submit", expect=2).output
    assert "either a participant" in invoke(pw_submitted_db, "invite", "p1", expect=2).output
    assert (
        "either a participant" in invoke(pw_submitted_db, "invite", "p1", "--as", "ann", "--auditor", expect=2).output
    )
    assert (
        "--base-url" in invoke(pw_submitted_db, "invite", "p1", "--as", "ann", "--base-url", "ftp://x", expect=2).output
    )
    assert "--base-url" in invoke(pw_submitted_db, "serve", "--base-url", "https://x/?a", expect=2).output
    assert "capabilities" not in tables(pw_submitted_db)


@pytest.mark.guarantee("service.tokens-hashed")
def test_a_token_never_starts_with_a_dash_so_revoke_takes_it_as_typed(pw_submitted_db, monkeypatch):
    """One in 64 URL-safe tokens would start with "-", which `revoke TOKEN` takes for an
    option (exit 2): such a draw is drawn again."""
    drawn = iter(["-" + "a" * 31, "b" * 32])
    monkeypatch.setattr(capabilities.secrets, "token_urlsafe", lambda _bytes: next(drawn))
    link = read_json(pw_submitted_db, "invite", "p1", "--as", "ann")
    assert link["token"] == "b" * 32
    assert "revoked" in invoke(pw_submitted_db, "revoke", link["token"]).output


def test_revoke_withdraws_a_link_once_and_never_quotes_a_token(pw_submitted_db):
    link = read_json(pw_submitted_db, "invite", "p1", "--as", "ann")
    assert "link for ann in p1 revoked" in invoke(pw_submitted_db, "revoke", link["url"]).output
    again = read_json(pw_submitted_db, "revoke", link["token"])
    assert again["was_active"] is False and again["revoked_at"]
    unknown = "x" * 32
    result = invoke(pw_submitted_db, "--log-json", "revoke", unknown, expect=1)
    assert "no invitation" in result.output and unknown not in result.output


@pytest.mark.guarantee("files.read-changes-nothing")
def test_a_reader_of_a_database_without_invitations_finds_none_and_creates_no_table(pw_submitted_db):
    before = tables(pw_submitted_db)
    store = Store(pw_submitted_db, read_only=True)
    try:
        assert store.capability(token_hash("t" * 32)) is None
    finally:
        store.close()
    invoke(pw_submitted_db, "status", "p1", "--public")
    assert tables(pw_submitted_db) == before and "capabilities" not in before


@pytest.mark.guarantee("service.receipt-verified")
def test_verify_proves_a_receipt_in_the_chain_or_names_why_not(pw_submitted_db):
    head = invoke(pw_submitted_db, "head", "p1").output.strip()
    seq, digest = head.split(":")
    second = read_json(pw_submitted_db, "log", "p1")[1]
    ok = invoke(pw_submitted_db, "verify", "p1", "--receipt", head, "--receipt", f"2:{second['hash']}")
    assert "2 receipts in the verified chain" in ok.output
    wrong = invoke(pw_submitted_db, "verify", "p1", "--receipt", f"2:{digest}", expect=3).output
    assert "receipt 2:" in wrong and "does not match the log: the log's event at seq 2 has the hash" in wrong
    beyond = read_json(pw_submitted_db, "verify", "p1", "--receipt", f"9:{digest}", expect=3)
    assert beyond["ok"] is False and beyond["receipts"][0]["seq"] == 9
    assert "it names seq 9, and the log ends at seq" in beyond["receipts"][0]["problem"]
    assert "--receipt must be SEQ:HASH" in invoke(pw_submitted_db, "verify", "p1", "--receipt", "2:zz", expect=2).output
    assert (
        "--receipt must be SEQ:HASH"
        in invoke(pw_submitted_db, "verify", "p1", "--receipt", f"2:{digest[:16]}", expect=2).output
    )
    assert (
        "--receipt checks one match" in invoke(pw_submitted_db, "verify", "--all", "--receipt", head, expect=2).output
    )


@pytest.mark.guarantee("service.receipt-verified")
def test_a_receipt_with_one_digit_wrong_is_said_not_to_match_the_log_not_to_be_tampering(pw_submitted_db):
    """An auditor mistypes one digit of a receipt: verify says the receipt does not match
    the log, with both hashes to compare, and never that the log was rewritten (the chain
    holds, so the log alone cannot say which of the two is wrong)."""
    second = read_json(pw_submitted_db, "log", "p1")[1]
    digest = second["hash"]
    typo = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    result = invoke(pw_submitted_db, "verify", "p1", "--receipt", f"2:{typo}", expect=3)
    [finding] = [line for line in result.output.splitlines() if line.startswith("FINDING")]
    assert "does not match the log" in finding and digest in finding and typo in finding, finding
    assert "rewritten since it was given" in finding and "the chain itself holds" in finding
    assert "the log was rewritten" not in result.output and "recomputed" not in finding, result.output
    assert "p1: ok" in result.output  # the chain verifies: the receipt alone is in question


@pytest.mark.guarantee("service.receipt-verified")
def test_a_receipt_after_an_edited_event_is_not_proven(pw_submitted_db):
    head = invoke(pw_submitted_db, "head", "p1").output.strip()
    with sqlite3.connect(pw_submitted_db) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET body = replace(body, 'learn', 'watch') WHERE seq = 2")
    out = invoke(pw_submitted_db, "verify", "p1", "--receipt", head, "--json", expect=3).stdout
    [problem] = json.loads(out)["receipts"]
    assert problem["seq"] == 2 and "cannot be proven" in problem["problem"]
