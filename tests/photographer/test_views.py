"""Views: allow-listed knowledge, reveals per view, outcome before the end, verify
catching a doctored announcement, and the terminal picture."""

from __future__ import annotations

import msgspec
import pytest

from matchledger.engine.photographer import GAME
from matchledger.engine.state import HOST, PUBLIC, as_participant
from matchledger.ledger.events import TurnResolved
from matchledger.projections.presentation.text import read_model_text
from matchledger.projections.rederive import rederive

from .support import deck_text, new_match, play

pytestmark = pytest.mark.guarantee("privacy.views-per-game")

ANN = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"]
BOB = ["red-1", "red-2", "red-3", "red-4", "red-5"]


def match_after_two_turns():
    m = new_match(2, deck=deck_text(2, [f"green-{v}" for v in range(1, 13)] + ANN + BOB))
    play(m, "ann", "take 1 left 2 wind 1:7")  # takes green-1 (up), green-2 (down)
    play(m, "bob", "take 2 right 1 wind 5:6")  # takes green-8 (up)
    return m


def test_knowledge_is_public_plus_own_secrets():
    m = match_after_two_turns()
    ann = GAME.knowledge(m.state, "ann")
    # ann's hand: b1..b5 g1 g2, wind 1:7 -> b2 b3 b4 b5 g1 g2 b1; shot b2 b3.
    assert ann["hand"] == ["blue-4", "blue-5", "green-1", "green-2", "blue-1"]
    assert "hands" not in ann and "deck_order" not in ann
    own, other = ann["turns"]
    assert own["tokens"] == ["take", "1", "left", "2", "wind", "1:7"]
    assert own["private"]["taken"] == ["green-1", "green-[2]"]
    assert own["public"]["taken"] == ["green-1", "green-[1-6]"]
    assert set(other) == {"turn", "participant", "public"}  # bob's wind and hand stay his
    assert [p["hand_size"] for p in ann["players"]] == [5, 5]
    bob = GAME.knowledge(m.state, "bob")
    # bob does not learn the face-down green-2 that ann took.
    assert bob["turns"][0]["public"]["taken"] == ["green-1", "green-[1-6]"]
    assert "private" not in bob["turns"][0]
    # bob: r1..r5 g8, wind 5:6 -> r1 r2 r3 r4 g8 r5; shot r1.
    assert bob["hand"] == ["red-2", "red-3", "red-4", "green-8", "red-5"]


def test_a_blurred_shot_shows_its_value_to_its_player_and_the_host_only():
    m = new_match(
        2, deck=deck_text(2, [f"green-{v}" for v in range(1, 13)] + ANN + ["red-1", "red-5", "red-2", "red-3", "red-4"])
    )
    play(m, "ann", "take 1 left 1 wind 5:6")
    # bob takes green-8 and green-7; hand r1 r5 r2 r3 r4 g8 g7, wind 6:7 -> ... g7 g8;
    # he shoots red-1, then red-5: 4 from 1, so it is blurred (face down).
    play(m, "bob", "take 2 right 2 wind 6:7")

    def bobs_red(view):
        return GAME.status(m.state, view)["players"][1]["film"]["red"]

    assert bobs_red(HOST) == bobs_red(as_participant("bob")) == ["red-1", "red-[5]"]
    assert bobs_red(PUBLIC) == bobs_red(as_participant("ann")) == ["red-1", "red-[1-6]"]


def test_reveals_by_view():
    m = match_after_two_turns()
    host = GAME.reveals(m.state, HOST)
    assert set(host["turns"][0]["private"]) == {"ann"} and set(host["turns"][1]["private"]) == {"bob"}
    ann = GAME.reveals(m.state, as_participant("ann"))
    assert ann["turns"][0]["private"]["wind"] == "1:7" and "private" not in ann["turns"][1]
    public = GAME.reveals(m.state, PUBLIC)
    assert all("private" not in t for t in public["turns"]) and public["outcome"] is None


def test_outcome_before_the_end_announces_nothing():
    m = match_after_two_turns()
    for view in (HOST, PUBLIC, as_participant("bob")):
        assert GAME.outcome(m.state, view) == {
            "match": "m1",
            "game": "photographer",
            "finished": False,
            "standings": [],
            "awards": [],
        }


def test_verify_finds_a_doctored_turn_announcement():
    m = match_after_two_turns()
    pairs = m.pairs()
    assert rederive("m1", pairs) == []
    seq, event = pairs[2]
    assert isinstance(event, TurnResolved)
    public = dict(event.public, taken=["green-1", "green-[7-12]"])  # a wrong back announced
    doctored = pairs[:2] + [(seq, msgspec.structs.replace(event, public=public))] + pairs[3:]
    [finding] = rederive("m1", doctored)
    assert finding.seq == 3 and "taken" in finding.field


def test_status_picture():
    m = match_after_two_turns()
    text = read_model_text("photographer", "status", GAME.status(m.state, as_participant("ann")), as_participant("ann"))
    lines = text.splitlines()
    assert lines[0] == "turn 3: ann to play; deck 38 cards"
    # row 1 lost green-1 and green-2 (ann); row 2 lost green-8 (bob).
    assert lines[2].split() == ["row", "1", ".", ".", "green-[1-6]", "green-4"]
    assert lines[3].split() == ["row", "2", "green-5", "green-[1-6]", "green-[7-12]", "."]
    assert "Your hand (bottom first): blue-4 blue-5 green-1 green-2 blue-1" in text
    assert any(line.startswith("Legend:") for line in lines)
    assert lines[-1] == "waiting for: ann"


def test_replay_refuses_a_turn_without_its_submission():
    import pytest

    from matchledger.ledger.errors import CorruptLog
    from matchledger.projections.fold import replay

    m = match_after_two_turns()
    pairs = m.pairs()
    broken = [(1, pairs[0][1]), (2, pairs[2][1])]  # TurnResolved of turn 1, no submission
    with pytest.raises(CorruptLog, match="does not follow that turn's submission"):
        replay("m1", broken)
