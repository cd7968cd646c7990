"""The trust-boundary findings about the chain, each reproduced directly: reads refuse
what the chain does not vouch for.  The findings about views:
../privacy/test_views_findings.py."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.helpers import REPO, invoke, read_json

CARD = REPO / "fixtures" / "lca" / "card-11-players.txt"  # match card11, finished


@pytest.mark.guarantee("tamper.head-seq")
def test_verify_head_needs_an_event_seq(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "script", CARD)
    last_hash = read_json(db, "head", "card11")["hash"]
    result = invoke(db, "verify", "card11", "--head", f"0:{last_hash}", expect=2)
    assert "events are numbered from 1" in result.output


@pytest.mark.guarantee("reads.triggers-dropped")
def test_with_the_triggers_dropped_and_a_body_edited_every_read_refuses(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "script", CARD)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET body = replace(body, '\"J13\"', '\"J12\"') WHERE match_id = 'card11' AND seq = 12")
    conn.execute("DELETE FROM snapshots")  # no cache either: the reads meet the edited body
    conn.commit()
    conn.close()
    for args in (
        ("status", "card11"),
        ("outcome", "card11", "--json"),
        ("knowledge", "card11", "--as", "ann"),
        ("log", "card11"),
        ("export", "card11"),
        ("head", "card11"),
        ("explain", "card11", "ann"),
        ("scores", "card11", "--at", "20"),
    ):
        result = invoke(db, *args, expect=3)
        assert "card11 seq 12: hash does not match the event's contents" in result.output, args
    assert json.loads(invoke(db, "status", "card11", "--at", "11", "--json").stdout)["round"] == 1  # before it: intact
