"""Results read in the same words in every output form (issue 27, words): the command
line's text, the messages, the pictures (whose side panels are the pages' panels) and
the replay page all word an award as its game declares it ("ToL 3/4", "Mark of
Elimination", "EC") and head a score as the game does ("successful shots"), never as
the JSON's codes (``tol``, ``tol_shard``, ``good_shots``), which the JSON keeps."""

from __future__ import annotations

import html
import json
import re

import pytest

from matchledger import engine
from matchledger.engine.words import ResultWords
from matchledger.projections.presentation.wording import award, award_words, game_title, score_label
from tests.helpers import REPO, invoke, read_json

#: The codes a reader must not meet in place of words.
CODES = ("tol", "tol_shard", "ec", "mark", "good_shots", "missing")


def _texts(svg: str) -> list[str]:
    """Every piece of text a picture shows, its title first."""
    return [html.unescape(t) for t in re.findall(r"<(?:title|text)[^>]*>([^<]*)</(?:title|text)>", svg)]


def _report_data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)[1])


@pytest.mark.parametrize("match", ["amend5", "pw1"])
@pytest.mark.parametrize("view", [(), ("--public",)])
def test_a_pictures_awards_are_the_words_of_the_command_line(render, pictures_db, match, view):
    outcome = read_json(pictures_db, "outcome", match, *view)
    text = invoke(pictures_db, "outcome", match, *view).stdout
    shown = _texts(render(match, *view))
    assert outcome["awards"]
    for entry in outcome["awards"]:
        words = award_words(entry, outcome["game"])
        assert words in shown  # a cell of the awards panel
        assert words in text  # the awards table of `outcome`
    assert not set(CODES) & set(shown), sorted(set(CODES) & set(shown))


def test_the_photographers_score_headings_are_words(render, pictures_db):
    shown = _texts(render("g2"))
    assert "successful shots" in shown and "missing colours" in shown
    assert "good_shots" not in shown and "missing" not in shown
    text = invoke(pictures_db, "outcome", "g2").stdout
    assert "successful shots" in text and "missing colours" in text
    scores = invoke(pictures_db, "scores", "g2").stdout
    assert "missing colours 0" in scores and "successful shots 5" in scores


def test_why_a_match_ended_reads_as_words(render, pictures_db):
    shown = _texts(render("g2", "--public"))
    assert shown[0].startswith("g2 (Фотограф) — finished (the deck is empty) — ")
    assert any(t.endswith("end: the deck is empty") for t in shown)
    assert "game over (the deck is empty)" in invoke(pictures_db, "status", "g2").stdout
    assert "deck_empty" not in " ".join(shown) + invoke(pictures_db, "reveals", "g2").stdout


@pytest.mark.parametrize("match", ["amend5", "pw1", "g2"])
def test_the_picture_and_its_board_name_the_games_title(render, pictures_db, match):
    game = read_json(pictures_db, "status", match)["game"]
    title = engine.spec(game).title
    svg = render(match, "--public")
    assert _texts(svg)[0].startswith(f"{match} ({title}) — ")
    assert f"({game})" not in svg


def test_the_replay_page_words_awards_and_names_the_game_as_the_pages_do(pictures_db, tmp_path):
    out = tmp_path / "r.html"
    invoke(pictures_db, "report", "amend5", "--public", "-o", out)
    page = out.read_text(encoding="utf-8")
    assert "<title>amend5 (Lights, Camera, Action!) — replay" in page
    data = _report_data(page)
    boards = "".join(data["boards"])
    assert "<title>amend5 (Lights, Camera, Action!) — view: public</title>" in boards
    awards = [p for panels in data["panels"] for p in panels if p["key"] == "awards"]
    assert awards and all(p["header"] == ["participant", "award", "reason"] for p in awards)
    cells = {row[1] for p in awards for row in p["rows"]}
    assert "ToL 3/4" in cells and not cells & set(CODES)


def _round_rows(render, match, *view) -> list[str]:
    """The cells of the Round panel's first two rows, as the picture draws them (a
    panel that has one row only shows the next panel's title after it)."""
    shown = _texts(render(match, *view))
    start = shown.index("Round")
    return shown[start + 1 : start + 5]


def test_the_round_panel_shows_who_submitted_only_to_the_host(pictures_db, render, tmp_path):
    # Before, everyone but the host read "submitted -" in every round: their status has
    # no such field (who has submitted is not announced), and the host's read "-" once
    # the match was over.
    assert "submitted" not in _round_rows(render, "amend5", "--public")
    assert "submitted" not in _round_rows(render, "amend5", "--as", "ann")
    assert "submitted" not in _round_rows(render, "amend5")  # finished: nothing open to submit to
    db = tmp_path / "open.db"
    invoke(
        db, "new", "lca", "r1", "--players", "ann,bob,cat", "--studio", REPO / "fixtures/lca/studio-example-10x13.txt"
    )
    render_open = _renderer(db, tmp_path)
    assert _round_rows(render_open, "r1")[-2:] == ["submitted", "nobody yet"]
    invoke(db, "submit", "r1", "ann", "G4", "A1", "B1", "C1", "D1")
    assert _round_rows(render_open, "r1")[-2:] == ["submitted", "ann"]
    assert "submitted" not in _round_rows(render_open, "r1", "--public")
    assert "submitted" not in _round_rows(render_open, "r1", "--as", "bob")


def _renderer(db, tmp_path):
    counter = iter(range(1000))

    def run(match, *options):
        out = tmp_path / f"open{next(counter)}.svg"
        invoke(db, "render", match, *options, "-o", out)
        return out.read_text(encoding="utf-8")

    return run


# --------------------------------------------------------------------------- the words themselves


def test_an_award_reads_as_its_game_declares_it():
    assert award({"kind": "tol", "shards": 3, "reason": "rank 1"}, "lca") == "ToL 3/4 (rank 1)"
    assert award({"kind": "tol_shard", "shards": 2, "reason": "highest lights"}, "lca") == (
        "+2 ToL bonus shards (highest lights)"
    )
    assert award({"kind": "mark", "reason": "supremacy pact"}, "lca") == "Mark of Elimination (supremacy pact)"
    assert award({"kind": "ec", "reason": "EC"}, "pw") == "EC"  # a reason that only repeats the award
    assert award({"kind": "shards", "shards": 1, "reason": "contract: lights"}, "lca") == "1 shard (contract: lights)"


def test_a_code_no_game_declares_words_for_reads_as_words():
    assert award_words({"kind": "gold_star", "shards": 2}, "lca") == "gold star (2 shards)"
    assert award_words({"kind": "gold_star"}, None) == "gold star"
    assert score_label("longest_row", "photographer") == "longest row"
    assert game_title("no-such-game") == "no-such-game"


def test_words_naming_what_an_award_does_not_hold_are_refused_where_the_game_is_declared():
    with pytest.raises(ValueError, match=r"award 'tol': words 'ToL \{count\}/4' name count"):
        ResultWords(awards={"tol": "ToL {count}/4"})
