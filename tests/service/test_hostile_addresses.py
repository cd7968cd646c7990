"""An address a hostile (or hand-edited) database keeps for `invite` that passes the
check of its shape but makes every link dead or lead elsewhere than it reads: a
trailing "/" (links ``.../ok//p/TOKEN``), no host at all, a port no socket has, or a user part that makes
``https://games.example.org@elsewhere.example`` lead to ``elsewhere.example``.  Each is
refused, naming it, and no link is issued, as the other malformed addresses are
(tests/service/test_invite_address.py)."""

from __future__ import annotations

import sqlite3

import pytest

from matchledger.ledger.service_addresses import well_formed_base_url
from tests.helpers import invoke

from .support import STUDIO


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    invoke(db, "init")  # this version's tables
    return db


DEAD_OR_ELSEWHERE = [
    "http://games.example.org/prefix/",
    "http:///",
    "http://:8000",
    "http://0.0.0.0:8000",  # a wildcard no browser goes to (serve --host 0.0.0.0 without --base-url)
    "http://[::]:8000",
    "https://games.example.org@elsewhere.example",
    "http://games.example.org:99999",
    "http://games.example.org:80a",
]


@pytest.mark.parametrize(
    "url",
    DEAD_OR_ELSEWHERE,
    ids=[
        "trailing-slash",
        "no-host",
        "port-only",
        "wildcard-ipv4",
        "wildcard-ipv6",
        "user-part",
        "port-too-big",
        "port-not-a-number",
    ],
)
def test_an_address_kept_that_makes_dead_or_misleading_links_is_refused_naming_it(db, url):
    conn = sqlite3.connect(db)
    try:
        conn.execute("INSERT INTO service_addresses VALUES ('listening', ?, '2026-01-01T00:00:00Z')", (url,))
        conn.commit()
    finally:
        conn.close()
    result = invoke(db, "invite", "m1", "--as", "ann", expect=1)
    assert result.stdout == ""
    assert repr(url) in result.stderr
    assert "give --base-url URL" in result.stderr


@pytest.mark.parametrize("url", ["http://:8000", "https://games.example.org@elsewhere.example"])
def test_a_base_url_that_makes_dead_or_misleading_links_is_refused_by_invite(db, url):
    result = invoke(db, "invite", "m1", "--as", "ann", "--base-url", url, expect=2)
    assert repr(url) in result.stderr


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000", "https://games.example.org/league/2026", "http://[::1]:8080", "https://a.b/@x"]
)
def test_the_addresses_serve_records_and_hosts_give_are_still_well_formed(url):
    assert well_formed_base_url(url)
