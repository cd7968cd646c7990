"""Stored bodies that are well chained but no body matchledger writes: a key held twice
(SQL's ``json_extract`` reads one value, replay another), a version that is not a
number or not the one the fields are of.  Each is a finding naming its seq (exit 3) for
`verify` and `import`, and every read refuses it rather than show a body SQL reads
otherwise, or stop with an internal error."""

from __future__ import annotations

import sqlite3

import msgspec
import pytest

from matchledger.ledger.portable import export_lines
from matchledger.ledger.store import Store
from tests.helpers import invoke, own_hash
from tests.trust.common import new_lca, new_pw

READS = [("status",), ("log",), ("scores",), ("export",), ("head",), ("audit",)]


def forged_copy(source, target, match_id: str, seq: int, edit) -> list:
    """The match's rows with the body at ``seq`` replaced by ``edit(body)`` and the chain
    re-hashed from there (as a forger with SQL and a hash function would), written into
    the new database ``target``; the rows."""
    rows = Store(source, read_only=True).rows(match_id)
    forged, prev = [], rows[0].prev_hash
    for row in rows:
        row = msgspec.structs.replace(row, prev_hash=prev)
        if row.seq == seq:
            row = msgspec.structs.replace(row, body=edit(row.body))
        row = msgspec.structs.replace(row, hash=own_hash(row))
        forged.append(row)
        prev = row.hash
    Store(target).append_rows(forged)
    return forged


def submitted(tmp_path):
    """An lca match whose seq 2 is ann's submission."""
    db = tmp_path / "host.db"
    new_lca(db)
    invoke(db, "submit", "m1", "ann", "A1", "B2", "C3", "D4", "E5")
    return db


def assert_finding_everywhere(tmp_path, db, rows, match_id: str, seq: int, fragment: str, reads=READS) -> None:
    """verify, import and every read refuse the log, naming ``seq``."""
    verdict = invoke(db, "verify", match_id, expect=3)
    assert f"seq {seq}" in verdict.output and fragment in verdict.output, verdict.output
    export = tmp_path / "forged.jsonl"
    export.write_bytes(export_lines(rows))
    auditor = tmp_path / "auditor.db"
    refused = invoke(auditor, "import", export, expect=3)
    assert f"seq {seq}" in refused.output and fragment in refused.output, refused.output
    assert not Store(auditor).match_ids()  # nothing imported
    for read in reads:
        result = invoke(db, *read, match_id, expect=3)
        assert f"seq {seq}" in result.output, (read, result.output)


@pytest.mark.guarantee("tamper.duplicate-keys")
def test_a_body_holding_a_key_twice_is_a_finding_and_no_read_shows_it(tmp_path):
    db = submitted(tmp_path)
    forged = tmp_path / "forged.db"
    rows = forged_copy(
        db, forged, "m1", 2, lambda body: body.replace('"participant":"ann"', '"participant":"bob","participant":"ann"')
    )
    with sqlite3.connect(forged) as conn:  # the two readers part: SQL says bob, replay ann
        assert conn.execute("SELECT json_extract(body, '$.participant') FROM events WHERE seq = 2").fetchone() == (
            "bob",
        )
    assert rows[1].event().participant == "ann"
    assert_finding_everywhere(tmp_path, forged, rows, "m1", 2, "'participant' appears more than once")


@pytest.mark.guarantee("tamper.duplicate-keys")
def test_a_pw_pairing_holding_a_player_twice_is_a_finding(tmp_path):
    db = tmp_path / "host.db"
    new_pw(db)
    forged = tmp_path / "forged.db"
    rows = forged_copy(
        db, forged, "p1", 1, lambda body: body.replace('"pairs":{"ann":"zed"', '"pairs":{"ann":"yan","ann":"zed"')
    )
    assert rows[0].event().setup["pairs"] == {"ann": "zed", "bob": "yan"}
    # `audit` too, though the chain then vouches for no event at all (no head to print)
    assert_finding_everywhere(tmp_path, forged, rows, "p1", 1, "'ann' appears more than once")


@pytest.mark.parametrize(
    "edit, fragment",
    [
        (
            lambda body: body.replace('{"type":"NoteAdded","v":1,', '{"type":"NoteAdded", "v":1,'),
            "not the canonical encoding",
        ),
        (lambda body: body.replace('"text":"hello"', '"text":"h\\u0065llo"'), "not the canonical encoding"),
        (lambda body: body.replace('"text":"hello"', '"text":"hello","extra":1'), "not the canonical encoding"),
        (lambda body: body.replace(',"v":1', ""), "not the canonical encoding"),
    ],
    ids=["spacing", "escape", "unknown-field", "no-version"],
)
@pytest.mark.guarantee("tamper.duplicate-keys")
def test_a_body_spelled_otherwise_than_its_encoding_is_a_finding(tmp_path, edit, fragment):
    db = tmp_path / "host.db"
    new_lca(db)
    invoke(db, "note", "m1", "hello")
    forged = tmp_path / "forged.db"
    rows = forged_copy(db, forged, "m1", 2, edit)
    assert rows[1].event().text == "hello"  # the same event, other bytes
    assert_finding_everywhere(tmp_path, forged, rows, "m1", 2, fragment)


@pytest.mark.guarantee("log.old-versions-decode")
def test_a_body_of_an_older_version_is_canonical_as_its_writer_wrote_it(tmp_path):
    db = submitted(tmp_path)
    forged = tmp_path / "old.db"
    v1 = '{"type":"SubmissionRecorded","v":1,"player":"ann","round":1,"tokens":"A1 B2 C3 D4 E5"}'
    forged_copy(db, forged, "m1", 2, lambda body: v1)
    invoke(forged, "verify", "m1")
    assert "A1 B2 C3 D4 E5" in invoke(forged, "log", "m1").output
    doubled = tmp_path / "doubled.db"
    rows = forged_copy(db, doubled, "m1", 2, lambda body: v1.replace('"player":"ann"', '"player":"bob","player":"ann"'))
    assert_finding_everywhere(tmp_path, doubled, rows, "m1", 2, "'player' appears more than once")


ODD_VERSIONS = [
    ('"v":2', '"v":"2"', "whole number, not '2'"),
    ('"v":2', '"v":1', "has no `player`"),
    ('"v":2', '"v":3', "versions 1 to 2, not 3"),
    ('"v":2', '"v":0', "versions 1 to 2, not 0"),
    ('"v":2', '"v":true', "whole number, not True"),
    # a v1 body naming two submitters: SQL reads `participant`, the upcaster renamed `player` over it
    ('"v":2', '"v":1,"player":"bob"', "has no field 'participant'"),
]


@pytest.mark.parametrize(
    "old, new, fragment",
    ODD_VERSIONS,
    ids=["text", "v1-with-v2-fields", "future", "zero", "bool", "v1-naming-two-submitters"],
)
@pytest.mark.guarantee("tamper.odd-version")
def test_a_body_of_an_odd_version_is_a_finding_not_an_internal_error(tmp_path, old, new, fragment):
    db = submitted(tmp_path)
    forged = tmp_path / "forged.db"
    rows = forged_copy(db, forged, "m1", 2, lambda body: body.replace(old, new))
    assert_finding_everywhere(tmp_path, forged, rows, "m1", 2, fragment)


@pytest.mark.parametrize(
    "old, new",
    [('"v":2', '"v":"2"'), ('"v":2', '"v":1'), ('"participant":"ann"', '"participant":"bob","participant":"ann"')],
    ids=["text", "v1-with-v2-fields", "duplicate-key"],
)
@pytest.mark.guarantee("tamper.odd-version")
def test_the_service_answers_an_odd_body_with_409_never_500(tmp_path, old, new):
    import asyncio

    import httpx

    from matchledger.commands import logs
    from matchledger.commands.service import build, writable
    from matchledger.ledger.capabilities import Capability, new_token, token_hash
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    db = submitted(tmp_path)
    forged = tmp_path / "forged.db"
    forged_copy(db, forged, "m1", 2, lambda body: body.replace(old, new))
    token = new_token()
    Store(forged).save_capability(
        Capability(
            token_hash=token_hash(token),
            match_id="m1",
            role="participant",
            participant="ann",
            can_submit=True,
            created_at="2024-01-01T00:00:00Z",
        )
    )
    reader = Application(open_store(str(forged), read_only=True))
    asgi, service = build(reader, writable(str(forged), 1.0), logs.log().bind(), base_url="http://127.0.0.1:8000")
    bearer = {"Authorization": f"Bearer {token}"}

    async def answers():
        service.writer.start()  # (what the server's start-up does)
        try:
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=asgi), base_url="http://127.0.0.1:8000"
            ) as client:
                got = [
                    await client.get(path, headers=headers)
                    for path, headers in (
                        ("/api/v1/matches/m1/public", {}),
                        ("/api/v1/matches/m1/head", {}),
                        ("/api/v1/matches/m1/me", bearer),
                        ("/m/m1", {}),
                        (f"/p/{token}", {}),
                    )
                ]
                got.append(
                    await client.post(
                        "/api/v1/matches/m1/submissions",
                        json={"tokens": ["A1", "B2", "C3", "D4", "E5"]},
                        headers=bearer,
                    )
                )
                return got
        finally:
            service.writer.close()

    for answer in asyncio.run(answers()):
        assert answer.status_code == 409, (answer.request.url, answer.status_code, answer.text[:300])
        # no seq: it could lie past the viewer's head (service.tamper-refused)
        assert "does not verify" in answer.text and "seq 2" not in answer.text, answer.request.url
