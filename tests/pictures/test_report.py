"""`report`: the self-contained HTML replay page — its embedded data (one frame per
event, identical boards stored once, no network), the view rules, and a headless
Chromium run that opens it at a step, clicks "next", presses the left arrow and moves
the slider (the page's own #selftest writes what it showed into the DOM)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess

import pytest

from tests.helpers import invoke, read_json

PW_GUESTS = ["ura", "zed", "wim", "tof", "xio", "yul", "vik"]


@pytest.fixture(scope="module")
def reports(pictures_db, tmp_path_factory):
    """(match, view) -> path of the page; written once per module."""
    folder = tmp_path_factory.mktemp("reports")
    cache = {}

    def get(match, *view):
        key = (match, *view)
        if key not in cache:
            out = folder / f"{match}{''.join(view).replace('-', '_')}.html"
            invoke(pictures_db, "report", match, *view, "-o", out)
            cache[key] = out
        return cache[key]

    return get


def embedded(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert match, "no embedded data"
    return json.loads(match.group(1).replace("<\\/", "</").replace("<\\!--", "<!--"))


@pytest.mark.parametrize("match", ["amend5", "pw1", "g2"])
def test_one_frame_per_event_and_no_network(match, reports, pictures_db):
    html = reports(match, "--public").read_text(encoding="utf-8")
    data = embedded(html)
    log = read_json(pictures_db, "log", match, "--public")  # the events the public may know of
    assert [f["seq"] for f in data["frames"]] == [e["seq"] for e in log]
    assert [f["kind"] for f in data["frames"]] == [e["kind"] for e in log]
    assert len(data["boards"]) < len(data["frames"])  # identical boards are stored once
    assert all(0 <= f["board"] < len(data["boards"]) and 0 <= f["panels"] < len(data["panels"]) for f in data["frames"])
    # self-contained: no external resource of any kind
    assert set(re.findall(r"https?://[^\s\"'<>\\]+", html)) <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", html)
    for element in ('id="slider"', 'id="prev"', 'id="next"', 'id="current"', 'id="board"', 'id="panels"'):
        assert element in html
    assert f'max="{len(log)}"' in html


def test_public_reports_keep_secrets(reports):
    pw = reports("pw1", "--public").read_text(encoding="utf-8")
    assert [g for g in PW_GUESTS if re.search(rf"\b{g}\b", pw)] == []
    photo = reports("g2", "--public").read_text(encoding="utf-8")
    assert "card down" in photo and not re.search(r">\[\d+\]<", photo)
    lca = reports("amend5", "--public").read_text(encoding="utf-8")
    assert 'class=\\"action' not in lca and 'class="action' not in lca
    public_frames = embedded(lca)["frames"]
    # the public steps through what everyone may know: no submission, void or note
    assert {f["kind"] for f in public_frames} == {"MatchCreated", "RuleAmended", "RoundClosed", "OutcomeAnnounced"}
    assert [f["detail"] for f in public_frames if f["kind"] == "RoundClosed"] == [
        "round 1 closed (computed announcement)",
        "round 2 closed (computed announcement)",
        "round 3 closed (computed announcement)",
    ]
    host = embedded(reports("amend5").read_text(encoding="utf-8"))
    assert host["frames"][8]["detail"] == "eve round 2: F5 B12 E12"
    ann = embedded(reports("pw1", "--as", "ann").read_text(encoding="utf-8"))
    submitted = [f["detail"] for f in ann["frames"] if f["kind"] == "SubmissionRecorded"]
    assert len(submitted) == 3 and all(d.startswith("ann round ") for d in submitted)  # hers, and nobody else's
    notices = [p for panels in ann["panels"] for p in panels if p["title"] == "Your notices"]
    assert notices and ["round 2", "own 0, partner 3"] in notices[-1]["rows"]


def test_report_errors(pictures_db, tmp_path):
    assert "must end in .html" in invoke(pictures_db, "report", "g2", "-o", tmp_path / "x.svg", expect=2).output
    assert "nosuch" in invoke(pictures_db, "report", "nosuch", "-o", tmp_path / "x.html", expect=1).output
    invoke(pictures_db, "report", "g2", "--as", "zoe", "-o", tmp_path / "x.html", expect=1)
    assert not (tmp_path / "x.html").exists()


# --------------------------------------------------------------------------- in a browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def dump_dom(page, fragment: str, tmp_path) -> str:
    if CHROMIUM is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--virtual-time-budget=5000",
        "--dump-dom",
        f"{page.as_uri()}#{fragment}",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def shown(dom: str) -> dict:
    match = re.search(r'<div id="current" data-seq="(\d+)" data-kind="(\w+)">', dom)
    assert match, "the page showed no step"
    return {"seq": int(match.group(1)), "kind": match.group(2)}


def test_browser_steps_through_the_match(reports, tmp_path):
    page = reports("amend5")
    dom = dump_dom(page, "seq=9&selftest", tmp_path)
    result = json.loads(html.unescape(re.search(r'<pre id="selftest">(.*?)</pre>', dom, re.S).group(1)))
    assert result["start"] == {
        "seq": 9,
        "kind": "SubmissionRecorded",
        "panels": result["start"]["panels"],
        "board": 1,
        "hash": "#seq=9&selftest",
    }
    assert (result["after_next"]["seq"], result["after_next"]["kind"]) == (10, "RoundClosed")
    assert (result["after_left"]["seq"], result["after_left"]["kind"]) == (9, "SubmissionRecorded")
    assert (result["after_slider"]["seq"], result["after_slider"]["kind"]) == (1, "MatchCreated")
    # the address follows each step, so a link copied at any step opens at it
    assert [result[step]["hash"] for step in ("after_next", "after_left", "after_slider")] == [
        "#seq=10&selftest",
        "#seq=9&selftest",
        "#seq=1&selftest",
    ]


def test_browser_shows_board_reveals_scores_and_outcome(reports, tmp_path):
    dom = dump_dom(reports("amend5", "--public"), "seq=6", tmp_path)
    assert shown(dom) == {"seq": 6, "kind": "RoundClosed"}
    assert dom.count('class="light"') == 4 and 'class="action' not in dom
    assert "lights F2 G4 B5 D8; brightness (on the board)" in dom
    assert "none known in this view yet" in dom and "not finished yet" in dom
    final = dump_dom(reports("amend5", "--public"), "", tmp_path)
    assert shown(final) == {"seq": 17, "kind": "OutcomeAnnounced"}
    assert "Outcome: standings" in final and "highest filming" in final
    photo = dump_dom(reports("g2", "--as", "ann"), "seq=21", tmp_path)
    assert shown(photo) == {"seq": 21, "kind": "TurnResolved"}
    assert 'class="hand" data-player="ann"' in photo and "Last turns" in photo
