"""Read models: what each view holds at each stage, the amendment on replay, pictures."""

import pytest

from matchledger.engine.commands import Amend, Submit
from matchledger.engine.lca import GAME
from matchledger.engine.state import HOST, PUBLIC, as_participant
from matchledger.ledger.errors import IllegalMove
from matchledger.projections.presentation.text import read_model_text

from . import test_filming_example as ex
from .util import close, new_match, play, replayed

pytestmark = pytest.mark.guarantee("privacy.views-per-game")


def example(options=None):
    return new_match(ex.STUDIO, ex.PLAYERS, options)


def test_scores_views_before_and_after_the_end():
    m = example()
    play(m, [ex.ROUND1])
    # ann's lights score is 60 (see test_fixtures: 24 cells, 12 of brightness 2)
    assert GAME.scores(m.state, HOST)["scores"][0] == {"participant": "ann", "lights": 60, "total": 60}
    assert GAME.scores(m.state, PUBLIC)["scores"] == []
    assert GAME.scores(m.state, as_participant("bob"))["scores"] == [
        {
            "participant": "bob",
            "lights": m.state.announcements[1].private["bob"]["lights_score"],
            "total": m.state.announcements[1].private["bob"]["lights_score"],
        }
    ]
    unfinished = GAME.outcome(m.state, PUBLIC)
    assert unfinished == {
        "match": "m1",
        "game": "lca",
        "finished": False,
        "round": 2,
        "standings": [],
        "awards": [],
        "contracts": [],
    }
    play(m, [ex.ROUND2, ex.ROUND3])
    assert len(GAME.scores(m.state, PUBLIC)["scores"]) == 5
    assert GAME.outcome(m.state, PUBLIC) == GAME.outcome(m.state, HOST) == m.state.outcome.outcome


def test_knowledge_holds_own_submissions_notices_and_contract_only():
    m = example()
    play(m, [ex.ROUND1, ex.ROUND2], contracts={"eve": ["camera", "supremacy"], "dan": ["lights"]})
    m.do(Submit("eve", ["F6", "A11", "J13"]))
    k = GAME.knowledge(m.state, "eve")
    assert k["contract"] == ["camera", "supremacy"]
    assert k["submissions"] == {"2": ["F5", "B12", "E12"], "3": ["F6", "A11", "J13"]}
    assert [a["private"] for a in k["announcements"]] == [{"lights": [], "lights_score": 0}, {"camera_score": 24}]
    assert k["announcements"][1]["public"] == {"cameras": ["E5", "F5", "B12", "B12", "E12", "E12"]}
    assert "dan" not in str(k["announcements"]) and "lights" not in str(k["contract"])


def test_status_only_the_host_sees_who_submitted_their_tokens_and_the_owners():
    m = example()
    play(m, [ex.ROUND1])
    m.do(Submit("eve", ["F5", "B12", "E12"]))
    public = GAME.status(m.state, PUBLIC)
    assert "submitted" not in public and "submissions" not in public and "light_owners" not in public
    bob = GAME.status(m.state, as_participant("bob"))
    assert "submitted" not in bob and bob["you"]["submission"] == []
    host = GAME.status(m.state, HOST)
    assert host["submitted"] == ["eve"]
    assert host["submissions"] == {"eve": ["F5", "B12", "E12"]}
    assert host["light_owners"] == {"F2": "bob", "G4": "ann", "B5": "cat", "D8": "dan"}
    assert GAME.status(m.state, as_participant("eve"))["you"]["submission"] == ["F5", "B12", "E12"]


def test_rendered_public_picture_has_no_owner_and_host_picture_marks_actions():
    m = play(example(), [ex.ROUND1, ex.ROUND2, ex.ROUND3])
    public = read_model_text("lca", "status", GAME.status(m.state, PUBLIC), PUBLIC)
    host = read_model_text("lca", "status", GAME.status(m.state, HOST), HOST)
    assert "ann" not in public.split("players:")[1].split("\n", 1)[1]
    assert " A " not in public.replace("     A B", "")
    # row 4 of the lights picture (brightness by hand from the four lights)
    assert "   4 1 1 1 2 2 2 * 1 1 1" in host  # A4-C4 1, D4-F4 2 (ann+bob), G4 light, H4-J4 1
    assert "lights:  bob F2; ann G4; cat B5; dan D8" in host  # lights in reading order
    assert "actions: E4 ann; D5 bob; F5 cat; E6 dan; F6 eve; A11 ann+bob+cat+dan+eve" in host


def test_amendment_from_round_3_applies_on_replay_and_lights_amendment_after_round_1_does_not():
    m = example({"filming_lights_divisor": "1"})
    play(m, [ex.ROUND1])
    m.do(Amend("filming_lights_divisor", "2", 3, "card Amendment"))
    # L3's option is read only when Round 1 closes: a later amendment is refused
    with pytest.raises(IllegalMove, match="lights_light_lights is only read when round 1 closes"):
        m.do(Amend("lights_light_lights", "false", 2, "too late for brightness"))
    play(m, [ex.ROUND2, ex.ROUND3])
    # divisor 2 from Round 3: the hand-computed example numbers
    assert m.state.g.filming.scores == {"ann": 30, "bob": 20, "cat": 27, "dan": 37, "eve": 29}
    # brightness was fixed when Round 1 closed (under options_for(1)); G4 still shows 1
    assert m.state.announcements[1].public["brightness"]["G4"] == 1
    assert replayed(m) == m.state
    # without the amendment the card's pre-Amendment wording holds: ann 15+14+8+12 = 49
    plain = play(example({"filming_lights_divisor": "1"}), [ex.ROUND1, ex.ROUND2, ex.ROUND3])
    assert plain.state.g.filming.scores["ann"] == 49


def test_reopened_round_and_hand_scored_outcome():
    from matchledger.engine.commands import CloseRound, Correct, RecordOutcome

    m = play(example(), [ex.ROUND1, ex.ROUND2])
    for p, tokens in ex.ROUND3.items():
        m.do(Submit(p, tokens.split()))
    close(m)
    seq = next(
        s for s, e in m.pairs() if type(e).__name__ == "SubmissionRecorded" and e.participant == "eve" and e.round == 3
    )
    # eve's action corrected after the end: Round 3 is reopened, the outcome withdrawn
    m.do(Correct(seq, ["G6", "A11", "J13"], "wrong cell", reopen=True))
    assert m.state.g.actions is None and GAME.outcome(m.state, HOST)["finished"] is False
    close(m)
    # F6 is empty now: F5 = 20 + 0 + 2 steps 10 = 30 (was 28); eve's G6 = 0 + 0 + 10 = 10,
    # lit only by ann's G4 and seen by eve's camera.  ann's filming: E4 30/4 + F5 30/4 +
    # G6 10/2 + action part on E4 12 = 7.5 + 7.5 + 5 + 12 = 32
    assert m.state.finished and replayed(m) == m.state
    assert m.state.g.filming.scores["ann"] == 32
    # a hand-scored close: the host's announced table is recorded as it was said, but the
    # outcome read model is still what the rules give (the log is never taken as truth)
    h = play(example(), [ex.ROUND1, ex.ROUND2])
    h.do(CloseRound(announced={"public": {}, "private": {}}, force=True, reason="nobody acted"))
    scores = {"lights": 1, "camera": 0, "action": 0, "filming": 0}
    table = {"standings": [{"participant": "eve", "rank": 1, "total": 1, "scores": scores}], "awards": []}
    h.do(RecordOutcome(table))
    assert h.state.outcome.source == "host" and h.state.outcome.outcome == table
    computed = GAME.outcome(h.state, PUBLIC)
    # nobody acted in h's Round 3, so the rules give dan 50 lights + 24 camera = 74 on top
    assert computed["finished"] is True and computed["standings"] != table["standings"]
    assert computed["standings"][0] == {
        "participant": "dan",
        "rank": 1,
        "total": 74,
        "scores": {"lights": 50, "camera": 24, "action": 0, "filming": 0},
    }
