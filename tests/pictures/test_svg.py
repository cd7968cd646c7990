"""`render`: SVG snapshots (one per game, host and public), determinism, and the view
rules: a picture is drawn only from the chosen view's read models."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import invoke, read_json

from .support import group, svg_size, texts

MATCHES = {"lca": "amend5", "pw": "pw1", "photographer": "g2"}
LCA_PLAYERS = ["ann", "bob", "cat", "dan", "eve"]
PW_GUESTS = ["ura", "zed", "wim", "tof", "xio", "yul", "vik"]


@pytest.mark.parametrize("view", ["host", "public"])
@pytest.mark.parametrize("game", sorted(MATCHES))
def test_svg_snapshot(game, view, render, snapshot):
    svg = render(MATCHES[game], *(["--public"] if view == "public" else []))
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert svg == snapshot


def test_svg_is_deterministic_and_well_formed(render):
    import xml.dom.minidom

    first = render("amend5", "--at", "12", "--as", "dan")
    assert render("amend5", "--at", "12", "--as", "dan") == first
    xml.dom.minidom.parseString(first)  # raises on malformed XML
    assert "as of seq 12" in first and "view: dan" in first


# --------------------------------------------------------------------------- lca


def test_lca_host_shows_actions_and_owners(render):
    svg = render("amend5")
    actions = re.findall(r'class="action" data-cell="([A-Z]+\d+)"', svg)
    assert sorted(actions) == sorted(["E4", "D5", "F5", "E6", "F6", "A11", "J13"])
    assert "Light owners" in texts(svg) and "Camera owners" in texts(svg)
    assert len(re.findall(r'class="wall"', svg)) == 11  # D6 and the whole row 10
    assert len(re.findall(r'class="camera"', svg)) == 4  # E5, F5, B12 (x2), E12 (x2)
    assert "C2" in texts(group(svg, 'id="board"'))


@pytest.mark.parametrize("at", [5, 9, 15, 17])
def test_lca_public_has_no_action_marker_and_no_owner(render, at):
    host, public = render("amend5", "--at", at), render("amend5", "--at", at, "--public")
    assert 'class="action' not in public
    board = texts(group(public, 'id="board"'))
    assert not set(board) & set(LCA_PLAYERS)
    for title in ("Light owners", "Camera owners", "Actions", "Submissions (open round)"):
        assert title not in texts(public)
    # the host picture of the same moment does name owners once lights are placed
    if at >= 6:
        assert "Light owners" in texts(host)
    if at < 16:  # before the end nobody's scores are public: an empty Scores panel
        assert "none known in this view yet" in texts(group(public, 'id="panels"'))
        assert "none known in this view yet" not in texts(group(host, 'id="panels"'))


def test_lca_participant_sees_only_own_actions_and_lights(render):
    svg = render("amend5", "--as", "ann")
    assert 'class="action"' not in svg
    assert sorted(re.findall(r'class="action own" data-cell="(\w+)"', svg)) == ["A11", "E4", "J13"]
    assert re.findall(r'class="light own" data-cell="(\w+)"', svg) == ["G4"]
    mid = render("amend5", "--as", "ann", "--at", "9")
    assert "lights G4; lights score 60" in texts(mid)
    assert "lights F2; lights score 50" not in texts(mid)  # bob's notice


# --------------------------------------------------------------------------- pw


def test_pw_public_pictures_name_no_guest(pictures_db, tmp_path):
    for at in (1, 20, 30, 41, 53):
        out = tmp_path / f"p{at}.svg"
        invoke(pictures_db, "render", "pw1", "--public", "--at", at, "-o", out)
        svg = out.read_text()
        found = [g for g in PW_GUESTS if re.search(rf"\b{g}\b", svg)]
        assert found == [], f"guest names in the public picture at seq {at}: {found}"


def test_pw_table_and_notices(render, pictures_db):
    public = render("pw1", "--public")
    board = group(public, 'id="board"')
    counts = re.findall(r'class="count" data-round="(\d)" data-type="(\w+)"', board)
    assert len(counts) == 18  # 3 rounds x 6 types
    assert "84" in texts(board)  # 28 actions a round (14 participants x 2)
    ann = render("pw1", "--as", "ann")
    assert "Your notices" in texts(ann)
    assert "learn tof: gift:vik, swap:zed" in texts(ann)  # ann's own round-2 notice
    assert "Your notices" not in texts(public) and "learn tof: gift:vik, swap:zed" not in texts(public)
    # ann's picture names only the guests her own knowledge names (partner, notices, guesses)
    knowledge = read_json(pictures_db, "knowledge", "pw1", "--as", "ann")
    del knowledge["guests"]  # the list of guest names every participant has
    known = {g for g in PW_GUESTS if re.search(rf"\b{g}\b", json.dumps(knowledge))}
    assert known and known < set(PW_GUESTS)
    assert {g for g in PW_GUESTS if re.search(rf"\b{g}\b", ann)} <= known
    host = render("pw1")
    assert "Pairs and points" in texts(host) and "zed" in texts(host)


# --------------------------------------------------------------------------- photographer


HIDDEN = re.compile(r">\[\d+\]<")  # a face-down card drawn with its value


@pytest.mark.parametrize("at", [20, 41, 60])
def test_photographer_public_shows_no_hidden_value(render, at):
    host, public = render("g2", "--at", at), render("g2", "--at", at, "--public")
    assert HIDDEN.search(host), "the host sees face-down values"
    assert not HIDDEN.search(public)
    downs = re.findall(r'class="card down"', public)
    assert downs and len(downs) == len(re.findall(r'class="card down"', host))
    for label in re.findall(r'class="card down"/>\n<text [^>]*>([^<]*)</text>', public):
        assert label in ("1-6", "7-12")
    assert 'class="hand"' not in public and "Deck (top first)" not in texts(public)


def test_photographer_player_sees_own_blurred_values_only(render):
    ann = render("g2", "--as", "ann", "--at", "20")
    assert HIDDEN.search(group(ann, 'class="film" data-player="ann"'))
    assert not HIDDEN.search(group(ann, 'class="film" data-player="bob"'))
    assert not HIDDEN.search(group(ann, 'id="table"'))
    hand = group(ann, 'class="hand" data-player="ann"')
    assert len(re.findall(r'class="card up"', hand)) == 5
    assert 'data-player="bob"' in ann and 'class="hand" data-player="bob"' not in ann


# --------------------------------------------------------------------------- errors


def test_render_errors(pictures_db, tmp_path):
    bad = invoke(pictures_db, "render", "amend5", "-o", tmp_path / "x.gif", expect=2)
    assert "must end in .svg or .png" in bad.output
    both = invoke(pictures_db, "render", "amend5", "--public", "--as", "ann", "-o", tmp_path / "x.svg", expect=2)
    assert "either --public or --as" in both.output
    stranger = invoke(pictures_db, "render", "pw1", "--as", "nobody", "-o", tmp_path / "x.svg", expect=1)
    assert "'nobody'" in stranger.output
    outside = invoke(pictures_db, "render", "g2", "--at", "999", "-o", tmp_path / "x.svg", expect=1)
    assert "--at 999" in outside.output
    unknown = invoke(pictures_db, "render", "nosuch", "-o", tmp_path / "x.svg", expect=1)
    assert "nosuch" in unknown.output
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.gif").exists()


def test_a_game_without_pictures_gets_the_generic_picture(tmp_path):
    # (tests/presentation/test_generic_presentation.py: what the generic picture shows)
    db = tmp_path / "toy.db"
    invoke(db, "new", "toy", "t1", "--players", "ann,bob")
    for command, output in (("render", "x.svg"), ("report", "x.html")):
        invoke(db, command, "t1", "-o", tmp_path / output)
        assert "t1 (toy)" in (tmp_path / output).read_text(encoding="utf-8")


def test_svg_size_matches_content(render):
    svg = render("g2", "--public")
    width, height = svg_size(svg)
    assert width > 400 and height > 400
    assert f'viewBox="0 0 {width} {height}"' in svg
