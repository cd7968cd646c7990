"""The pages speak as the command line's results do, and refuse in words (issue 27,
words): a finished match's awards read "ToL 3/4", not ``tol``; a rules refusal says what
is wrong first and cites its ruling last ("(rule W2)"), on the page and in the API
alike; ``?at`` is named as the service takes it, never as the command line's flag."""

from __future__ import annotations

import html
import re

import pytest

from tests.helpers import REPO, invoke, run_script

from .support import Server, bearer, invite

PW = "new pw w1 --players ann,bob,cat --pair ann=xio --pair bob=yan --pair cat=zed"


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """One server on a finished lca match (``amend5``) and a pw match in round 1 (``w1``),
    ann of which holds a link that may submit."""
    db = tmp_path_factory.mktemp("words") / "m.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)  # studio paths in scripts are relative to the repo root
        run_script(db, REPO / "fixtures" / "lca" / "amendment-example.txt")
    invoke(db, *PW.split())
    link = invite(db, "w1", "--as", "ann", "--submit")
    with Server(db) as server:
        yield server, link["token"]


def _cells(page: str, key: str) -> list[list[str]]:
    section = re.search(rf'<section class="panel" data-key="{key}">(.*?)</section>', page, re.S)
    assert section, key
    rows = re.findall(r"<tr>(.*?)</tr>", section.group(1), re.S)
    return [[html.unescape(c) for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", row)] for row in rows]


def test_the_public_page_words_awards_as_the_command_line_does(running):
    server, _ = running
    rows = _cells(server.client.get("/m/amend5").text, "awards")
    assert rows[0] == ["participant", "award", "reason"]
    awards = {row[1] for row in rows[1:]}
    assert {"ToL 3/4", "+1 ToL bonus shard", "EC"} <= awards
    assert not awards & {"tol", "tol_shard", "ec", "mark"}


def test_a_refusal_by_the_rules_cites_its_ruling_last_in_the_api(running):
    server, token = running
    answer = server.client.post(
        "/api/v1/matches/w1/submissions", json={"tokens": ["gift:xio", "watch:bob"]}, headers=bearer(token)
    )
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert not re.match(r"[A-Z][0-9]+:", detail), detail
    assert detail == "'ann' cannot target their partner ('gift:xio') (rule W2)"


def test_a_refusal_by_the_rules_cites_its_ruling_last_on_the_page(running):
    server, token = running
    # ann's partner xio has played a gift this round, which ann's form cannot know of:
    # the rules refuse ann's gift (W3), and the page says so in words.
    invoke(server.db, "submit", "w1", "xio", "gift:bob", "watch:cat")
    fields = {"a1_type": "gift", "a1_target": "bob", "a2_type": "watch", "a2_target": "cat"}
    answer = server.client.post(f"/p/{token}", data=fields)
    assert answer.status_code == 422
    notice = html.unescape(re.search(r'<p [^>]*id="refused"[^>]*>(.*?)</p>', answer.text, re.S).group(1))
    assert notice.endswith("(rule W3)") and "W3:" not in notice, notice


@pytest.mark.parametrize("address", ["/m/w1?at=0", "/m/amend5?at=0", "/api/v1/matches/w1/public?at=0"])
def test_an_at_outside_the_match_is_named_as_the_service_takes_it(running, address):
    server, _ = running
    answer = server.client.get(address)
    assert answer.status_code == 400
    assert "at=0" in html.unescape(answer.text) and "--at" not in answer.text
