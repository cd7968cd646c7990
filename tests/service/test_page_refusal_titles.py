"""A page's refusal is titled by what happened.  A read-only link that posts the form (a
page saved from before, a hand-made request) opens its page all the same: its refusal
must not be headed "This link opens nothing", which tells a participant their link is
dead when it still shows them the match.  A revoked link still is."""

from __future__ import annotations

import re

from tests.helpers import invoke

from .support import STUDIO, Server, cli_json, invite


def heading(html: str) -> str:
    return re.search(r"<h1>(.*?)</h1>", html, re.S).group(1)


def test_a_read_only_link_posting_the_form_is_not_told_its_link_opens_nothing(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    bob = invite(db, "m1", "--as", "bob")["token"]
    with Server(db) as server:
        assert server.client.get(f"/p/{bob}").status_code == 200  # the link opens bob's page
        answer = server.client.post(f"/p/{bob}", data={"tokens": "A2 B2 C2 D2 E2"})
        assert answer.status_code == 403
        assert "reads only" in answer.text
        assert heading(answer.text) != "This link opens nothing"
        invoke(db, "revoke", bob)
        answer = server.client.post(f"/p/{bob}", data={"tokens": "A2 B2 C2 D2 E2"})
        assert answer.status_code == 403
        assert heading(answer.text) == "This link opens nothing"
    assert [r["kind"] for r in cli_json(db, "log", "m1")] == ["MatchCreated"]  # the log unchanged
