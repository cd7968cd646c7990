"""One `serve` process on the PostgreSQL back end (the session's throwaway server; skipped,
saying why, where none can be started): a participant reads and submits through their
link, the receipt is proven on the command line, and the public's live page follows the
host's close from the command line in another process.  (Two `serve` processes on one
database: tests/service/test_concurrency.py.)"""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .support import STUDIO, Server, bearer, cli_json, events, invite

ROUND_1 = {"ann": ["G4", "A1", "B1", "C1", "D1"], "bob": ["F2", "A1", "B1", "C1", "D1"]}


@pytest.mark.guarantee("service.postgres")
def test_serve_on_postgresql_records_a_participants_submission_and_follows_the_hosts_close(postgres_url, tmp_path):
    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(postgres_url, "m1", "--as", "ann", "--submit")
    with Server(postgres_url, folder=tmp_path) as server, server.client.stream("GET", "/m/m1/events") as public:
        [(kind, first)] = events(public, 1)
        assert kind == "view" and "round 1 (lights)" in first["live"]
        answer = server.client.post("/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"]},
                                    headers=bearer(link["token"]))
        assert answer.status_code == 201, answer.text
        receipt = f"{answer.json()['seq']}:{answer.json()['hash']}"
        assert "1 receipt in the verified chain" in invoke(postgres_url, "verify", "m1", "--receipt", receipt).output
        me = server.client.get("/api/v1/matches/m1/me", headers=bearer(link["token"])).json()
        assert me == {"participant": "ann", "knowledge": cli_json(postgres_url, "knowledge", "m1", "--as", "ann")}
        invoke(postgres_url, "submit", "m1", "bob", *ROUND_1["bob"])
        invoke(postgres_url, "close", "m1")  # the host, from the command line
        [(kind, closed)] = events(public, 1)  # bob's submission sent the public nothing
        assert kind == "view" and "round 2 (cameras)" in closed["live"] and "F2" in closed["live"]
        assert receipt in server.client.get(f"/p/{link['token']}").text
        invoke(postgres_url, "revoke", link["token"])
        assert server.client.get("/api/v1/matches/m1/me", headers=bearer(link["token"])).status_code == 401
