"""A participant's receipt says which of their earlier submissions it supersedes, as the
command line's ``submit --json`` does (an added member: a receipt is still ``{"seq",
"hash"}`` where nothing is superseded), from the one call that recorded it."""

from __future__ import annotations

import re

import pytest

from tests.helpers import invoke

from .support import STUDIO, Server, bearer, cli_json, invite


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    ann = invite(db, "m1", "--as", "ann", "--submit")["token"]
    with Server(db) as server:
        yield db, server, ann


def test_a_resubmission_s_receipt_names_the_submission_it_supersedes(served):
    db, server, ann = served

    def submit(cells: str) -> dict:
        answer = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": cells.split()}, headers=bearer(ann)
        )
        assert answer.status_code == 201, answer.text
        return answer.json()

    first = submit("A2 A1 B1 C1 D1")
    again = submit("G4 A1 B1 C1 D1")
    assert set(first) == {"seq", "hash"}
    assert again == {"seq": first["seq"] + 1, "hash": again["hash"], "supersedes": first["seq"]}
    host = cli_json(db, "submit", "m1", "ann", "F2", "A1", "B1", "C1", "D1")
    assert host["events"][0]["supersedes"] == again["seq"]  # the same account the command line gives


def test_the_forms_notice_says_which_earlier_submission_a_resubmission_replaced(served):
    """Through the page's form, as through the command line: the notice after a
    resubmission says which of the participant's submissions it replaced; the first
    submission's notice says nothing of the kind."""
    _db, server, ann = served

    def submit_form(cells: str) -> str:
        answer = server.client.post(f"/p/{ann}", data={"tokens": cells}, follow_redirects=True)
        assert answer.status_code == 200, answer.text
        return re.search(r'<p class="notice ok" id="recorded">(.*?)</p>', answer.text, re.S).group(1)

    first = submit_form("A2 A1 B1 C1 D1")
    assert "replaces" not in first
    first_seq = int(re.search(r'class="receipt">(\d+):', first).group(1))
    again = submit_form("G4 A1 B1 C1 D1")
    assert f"It replaces your submission {first_seq}, which no longer counts: this one does." in again
    page = server.client.get(f"/p/{ann}").text
    rows = dict(re.findall(r'<tr data-seq="(\d+)">(.*?)</tr>', page))
    # made through the link: "submitted", never "recorded for you by the host"
    assert f"<td>submitted, superseded by {first_seq + 1}</td>" in rows[str(first_seq)], rows
    assert "<td>submitted</td>" in rows[str(first_seq + 1)]
