"""Lowest Unique through `matchledger serve` (one real server on a free port of
127.0.0.1): a player submits through the JSON API and the public API tells nothing of
it (U9); the participant's page and the public page, which need matchledger's generic
presentation for a game that brings none of its own."""

from __future__ import annotations

from conftest import read_json


def test_u9_a_number_submitted_through_the_api_is_the_players_alone(served):
    db, client, token = served
    public_before = client.get("/api/v1/matches/s1/public")
    assert public_before.status_code == 200 and public_before.json()["status"]["game"] == "lowest-unique"
    auth = {"Authorization": f"Bearer {token}"}
    refused = client.post("/api/v1/matches/s1/submissions", json={"tokens": ["11"]}, headers=auth)
    assert refused.status_code in (400, 409, 422) and "11" in refused.text  # U3
    accepted = client.post("/api/v1/matches/s1/submissions", json={"tokens": ["04"]}, headers=auth)
    assert accepted.status_code == 201
    assert client.get("/api/v1/matches/s1/me", headers=auth).json()["knowledge"]["submissions"] == [
        {"round": 1, "number": 4}
    ]
    assert client.get("/api/v1/matches/s1/public").content == public_before.content
    assert read_json(db, "status", "s1")["numbers"] == {"ann": 4, "bob": 2}


def test_the_pages_work_for_a_game_without_presentation_of_its_own(served):
    _db, client, token = served
    pages = {"public": client.get("/m/s1"), "participant": client.get(f"/p/{token}")}
    for name, page in pages.items():
        assert page.status_code == 200, name
    assert "Round 1" in pages["participant"].text or "round 1" in pages["participant"].text
