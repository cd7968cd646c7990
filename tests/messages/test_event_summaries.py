"""Event summaries (`log`, the replay page) in the notation a host types, never as
Python writes its values: every kind of event, with tables, lists, true and false."""

from __future__ import annotations

import re

import msgspec
import pytest

from matchledger.ledger.events import EVENT_TYPES
from matchledger.projections.presentation.events import event_summary, notation
from tests.helpers import invoke

from .conftest import FIXTURES

#: What Python's repr of a dict, a list, a string, True, False or None looks like.
REPR = re.compile(r"[{\[]'|'[}\]]|\bTrue\b|\bFalse\b|\bNone\b|': ")

#: One body of every kind, with every value type a body can hold.
BODIES = {
    "MatchCreated": {
        "game": "photographer",
        "players": ["ann", "bob"],
        "options": {"wind_required": False},
        "setup": {"seed": 7},
    },
    "ContractRecorded": {"participant": "ann", "contracts": ["lights", "supremacy"]},
    "SubmissionRecorded": {"participant": "ann", "round": 2, "tokens": ["take", "2", "left", "2", "wind", "1:6"]},
    "RoundClosed": {"round": 1, "public": {"lights": ["B2"]}, "private": {"ann": {"lights_score": 3}}},
    "TurnResolved": {"turn": 4, "participant": "bob", "public": {"shots": ["red-7"]}, "private": {"bob": {}}},
    "OutcomeAnnounced": {"outcome": {"standings": [], "finished": True}, "public": {}, "source": "host"},
    "RuleAmended": {
        "option": "row_points",
        "value": {"1": 1, "2": 3, "3": 5, "4": 7, "5": 9, "6": 10, "7": 12},
        "from_round": 3,
        "reason": "house rules",
    },
    "SubmissionVoided": {"target_seq": 5, "reason": "typo"},
    "DeadlineSet": {"round": 2, "now": "2026-12-01T10:00:00.000000Z", "at": "2026-12-03T10:00:00Z", "each": 172800},
    "DeadlineCleared": {"round": 2, "reason": "holidays"},
    "SubmissionCorrected": {"target_seq": 3, "tokens": ["B2", "C3"], "reason": "misheard"},
    "RoundReopened": {"round": 2, "reason": "missing submission"},
    "MatchAbandoned": {"reason": "created with the wrong players"},
    "NoteAdded": {"text": "coffee break"},
    "StateCheckpointed": {"seq": 41, "revision": "abc", "digest": "0" * 64},
}


def body(kind: str) -> dict:
    """``kind``'s body as the store holds it (decoded through its event type)."""
    event = msgspec.convert({"type": kind, **BODIES[kind]}, EVENT_TYPES[kind])
    return msgspec.to_builtins(event)


@pytest.mark.guarantee("terminal.summaries-notation")
def test_every_event_kind_has_a_body_here():
    assert set(BODIES) == set(EVENT_TYPES)


@pytest.mark.guarantee("terminal.summaries-notation")
@pytest.mark.parametrize("kind", sorted(BODIES))
def test_no_event_summary_shows_a_python_repr(kind):
    summary = event_summary(body(kind))
    assert summary and not REPR.search(summary), summary


@pytest.mark.guarantee("terminal.summaries-notation")
def test_an_amended_table_reads_as_the_host_typed_it():
    assert event_summary(body("RuleAmended")) == "row_points=1:1,2:3,3:5,4:7,5:9,6:10,7:12 from round 3 — house rules"
    flag = {**body("RuleAmended"), "option": "wind_required", "value": False}
    assert event_summary(flag) == "wind_required=false from round 3 — house rules"


@pytest.mark.guarantee("terminal.summaries-notation")
def test_a_kind_without_a_summary_of_its_own_shows_its_fields_in_the_notation():
    later = {
        "type": "MatchRenamed",
        "v": 1,
        "salt": "ab",
        "reason": "typo in the id",
        "players": ["ann", "bob"],
        "options": {"hand_scored": True},
    }
    assert event_summary(later) == "reason=typo in the id players=ann,bob options=hand_scored:true"


@pytest.mark.guarantee("terminal.summaries-notation")
def test_notation_writes_values_as_a_host_types_them():
    assert [notation(v) for v in (True, False, None, 7, "red-7", ["a", "b"], {"1": 1, "2": 3})] == [
        "true",
        "false",
        "none",
        "7",
        "red-7",
        "a,b",
        "1:1,2:3",
    ]


@pytest.mark.guarantee("terminal.summaries-notation")
def test_no_log_of_a_fixture_shows_a_python_repr(tmp_path):
    db = tmp_path / "m.db"
    for match, script in FIXTURES.items():
        invoke(db, "script", script)
        listing = invoke(db, "log", match).stdout
        assert not REPR.search(listing), listing
    invoke(
        db,
        "new",
        "photographer",
        "p1",
        "--players",
        "ann,bob",
        "--seed",
        2**50,
        "--option",
        "row_points=1:2,2:3,3:5,4:7,5:9,6:10,7:11",
    )
    invoke(
        db, "amend", "p1", "--option", "row_points=1:1,2:3,3:5,4:7,5:9,6:10,7:12", "--from-round", 3, "--reason", "r"
    )
    invoke(db, "amend", "p1", "--option", "wind_required=false", "--from-round", 3, "--reason", "r")
    listing = invoke(db, "log", "p1").stdout
    assert "row_points=1:1,2:3,3:5,4:7,5:9,6:10,7:12 from round 3" in listing
    assert "wind_required=false from round 3" in listing
    assert not REPR.search(listing), listing
