"""A page names its game as players know it: by the title its declaration gives
(``Lights, Camera, Action!``), not by the name the command line types (``lca``)."""

from __future__ import annotations

import re

from matchledger import engine
from tests.helpers import REPO, invoke

from .support import Server, invite

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"


def test_the_public_and_participant_pages_name_the_games_title(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "mm1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(db, "mm1", "--as", "ann")
    title = engine.spec("lca").title
    assert title and title != "lca"
    with Server(db) as running:
        public = running.client.get("/m/mm1").text
        own = running.client.get(f"/p/{link['token']}").text
    escaped = title.replace("'", "&#x27;")
    assert re.search(r"<title>mm1: (.*?)</title>", public).group(1) == escaped
    assert re.search(r"<title>mm1: ann \((.*?)\)</title>", own).group(1) == escaped
    for page in (public, own):
        header = re.search(r"<header>(.*?)</header>", page, re.S).group(1)
        assert f"<small>({escaped})</small>" in header and "lca" not in header
