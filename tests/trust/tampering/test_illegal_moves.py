"""Re-derivation re-decides every recorded command against the state before it, with the
decision the command line runs: a well-chained log holding a move the rules refuse (a
stranger's submission, one for a round that is not open, a pw gift to the giver's own
partner, a reopening behind a round that holds submissions) is a finding naming its
seq and the rules' reason.  `import` refuses such a log (exit 3, nothing written); in a
database file that already holds one, `verify` says so and reads still answer."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from matchledger.ledger.events import Event, RoundReopened, SubmissionCorrected, SubmissionRecorded, SubmissionVoided
from matchledger.ledger.store import Store
from tests.helpers import invoke
from tests.trust.common import new_lca, new_pw, rows
from tests.trust.forged import T, export_file

LCA_ROUNDS = [
    ["ann A1 B2 C3 D4 E5", "bob J1 I2 H3 G4 F5"],
    ["ann E5 B12 E12", "bob F5 B12 E12"],
    ["ann E4 A11 J13", "bob F6 A11 J13"],
]
#: pw with pairs ann=zed and bob=yan; each pair uses every type exactly twice (W4).
PW_ROUNDS = [
    ["ann gift:bob learn:yan", "zed swap:bob watch:yan", "bob gift:ann learn:zed", "yan swap:ann watch:zed"],
    [
        "ann unique:bob predict:yan=gift",
        "zed gift:bob learn:yan",
        "bob unique:ann predict:zed=gift",
        "yan gift:ann learn:zed",
    ],
    [
        "ann unique:bob swap:yan",
        "zed watch:bob predict:yan=swap",
        "bob unique:ann swap:zed",
        "yan watch:ann predict:zed=swap",
    ],
]


def play(db: Path, match_id: str, rounds: list[list[str]], closed: int) -> None:
    """Submit every round of ``rounds``, closing the first ``closed`` of them."""
    for number, lines in enumerate(rounds, start=1):
        for line in lines:
            invoke(db, "submit", match_id, *line.split())
        if number <= closed:
            invoke(db, "close", match_id)


def events_of(db: Path, match_id: str) -> list[Event]:
    store = Store(db, create=False)
    try:
        return [event for _seq, event in store.events(match_id)]
    finally:
        store.close()


def lca_after(db: Path, rounds: int, closed: int) -> list[Event]:
    new_lca(db, "m1", "ann,bob")
    play(db, "m1", LCA_ROUNDS[:rounds], closed)
    return events_of(db, "m1")


def pw_after(db: Path, rounds: int, closed: int) -> list[Event]:
    new_pw(db, "p1")
    play(db, "p1", PW_ROUNDS[:rounds], closed)
    return events_of(db, "p1")


def foreign(path: Path, match_id: str, events: list[Event]) -> Path:
    """A database file holding ``events`` as recorded, correctly chained: what a tool that
    writes rows without deciding them leaves."""
    store = Store(path)
    try:
        store.append(match_id, 1, events, actor="host", recorded_at=T)
    finally:
        store.close()
    return path


def refused_everywhere(tmp_path: Path, match_id: str, events: list[Event], seq: int, fragment: str) -> None:
    """``import`` refuses the log naming ``seq`` and ``fragment``, writing nothing; a file
    that holds it verifies with the same finding, and reads answer without an internal error."""
    target = tmp_path / "auditor.db"
    result = invoke(target, "import", export_file(tmp_path / "forged.jsonl", match_id, events, "host"), expect=3)
    assert f"seq {seq}" in result.stderr and fragment in result.stderr, result.stderr
    assert "nothing imported" in result.stderr
    assert rows(target) == []
    held = foreign(tmp_path / "foreign.db", match_id, events)
    result = invoke(held, "verify", match_id, expect=3)
    assert f"seq {seq}" in result.output and fragment in result.output, result.output
    assert invoke(held, "verify", "--all", expect=3).exit_code == 3
    for read in (("status", match_id), ("log", match_id), ("list",)):
        result = invoke(held, *read, expect=None)
        assert result.exit_code in (0, 1) and "internal error" not in result.output, (read, result.output)


@pytest.mark.guarantee("tamper.illegal-move")
def test_a_submission_by_someone_who_is_not_in_the_match_is_a_finding(tmp_path):
    events = lca_after(tmp_path / "h.db", rounds=1, closed=0)[:2]  # created, ann's lights
    events.append(SubmissionRecorded(participant="zoe", round=1, tokens=["J1", "I2", "H3", "G4", "F5"]))
    refused_everywhere(tmp_path, "m1", events, 3, "'zoe' is not a participant of 'm1'")


@pytest.mark.guarantee("tamper.illegal-move")
def test_a_submission_for_round_3_during_round_1_is_a_finding(tmp_path):
    events = lca_after(tmp_path / "h.db", rounds=1, closed=0)[:2]
    events.append(SubmissionRecorded(participant="bob", round=3, tokens=["F6", "A11", "J13"]))
    refused_everywhere(tmp_path, "m1", events, 3, "for round 3, but round 1 is the one open")


@pytest.mark.guarantee("tamper.illegal-move")
def test_a_pw_gift_to_the_givers_own_partner_is_a_finding(tmp_path):
    """W2: never the submitter's partner.  The forged gift would also have scored."""
    events = pw_after(tmp_path / "h.db", rounds=1, closed=0)
    first = next(
        i for i, event in enumerate(events) if isinstance(event, SubmissionRecorded) and event.participant == "ann"
    )
    events[first] = msgspec.structs.replace(events[first], tokens=["gift:zed", "learn:yan"])
    refused_everywhere(tmp_path, "p1", events, first + 1, "W2: 'ann' cannot target their partner ('gift:zed')")


@pytest.mark.guarantee("tamper.illegal-move")
def test_a_close_without_every_submission_and_without_force_is_a_finding(tmp_path):
    db = tmp_path / "h.db"
    events = lca_after(db, rounds=1, closed=0)[:2]
    probe = tmp_path / "probe.db"
    new_lca(probe, "m1", "ann,bob")
    invoke(probe, "submit", "m1", *LCA_ROUNDS[0][0].split())
    invoke(probe, "close", "m1", "--force", "--reason", "bob is away")
    forced = events_of(probe, "m1")[2]
    events.append(msgspec.structs.replace(forced, reason=msgspec.UNSET, missing=msgspec.UNSET))
    refused_everywhere(tmp_path, "m1", events, 3, "no submission from bob")


@pytest.mark.guarantee("tamper.illegal-move")
def test_a_recorded_submission_that_is_not_the_normalized_one_is_a_finding(tmp_path):
    """The rules record what they normalize; a body holding another spelling is not theirs."""
    events = pw_after(tmp_path / "h.db", rounds=1, closed=0)
    first = next(i for i, event in enumerate(events) if isinstance(event, SubmissionRecorded))
    events[first] = msgspec.structs.replace(events[first], tokens=[t.upper() for t in events[first].tokens])
    target = tmp_path / "auditor.db"
    result = invoke(target, "import", export_file(tmp_path / "f.jsonl", "p1", events, "host"), expect=3)
    assert f"seq {first + 1}" in result.stderr and rows(target) == []


# --------------------------------------------------------------------------- a reopening behind submissions


@pytest.mark.guarantee("tamper.reopen-behind-submissions")
def test_lca_refuses_to_reopen_while_the_open_round_holds_submissions(tmp_path):
    db = tmp_path / "h.db"
    events = lca_after(db, rounds=3, closed=2)  # Round 3 open, both submitted
    seqs = [
        seq for seq, event in enumerate(events, start=1) if isinstance(event, SubmissionRecorded) and event.round == 3
    ]
    before = rows(db)
    for command in (
        ("reopen", "m1", "--reason", "again"),
        ("void", "m1", str(seqs[0] - 2), "--reopen", "--reason", "again"),
        ("correct", "m1", str(seqs[0] - 2), "E5", "B12", "E12", "--reopen", "--reason", "again"),
    ):
        result = invoke(db, *command, expect=1)
        assert f"seq {seqs[0]} (ann), seq {seqs[1]} (bob)" in result.stderr, result.stderr
        assert "void m1 SEQ --reason TEXT" in result.stderr
    assert rows(db) == before
    for seq in seqs:
        invoke(db, "void", "m1", str(seq), "--reason", "sent early")
    invoke(db, "reopen", "m1", "--reason", "a camera misread")  # nothing left to decide on it: accepted


@pytest.mark.guarantee("tamper.reopen-behind-submissions")
def test_a_log_reopening_lca_rounds_behind_a_round_3_submission_is_a_finding(tmp_path):
    """The issue's steps: with Round 3 open and a submission in it, Round 2 then Round 1
    reopened and Round 1 corrected (lights moved under the surviving Round-3 actions)."""
    events = lca_after(tmp_path / "h.db", rounds=3, closed=2)[:-1]  # ann's Round-3 actions in
    reopened_at = len(events) + 1
    ann_lights = next(
        i for i, e in enumerate(events, 1) if isinstance(e, SubmissionRecorded) and e.participant == "ann"
    )
    events += [
        RoundReopened(round=2, reason="again"),
        RoundReopened(round=1, reason="again"),
        SubmissionCorrected(target_seq=ann_lights, tokens=["E4", "A11", "J13", "D4", "E5"], reason="misheard"),
    ]
    refused_everywhere(tmp_path, "m1", events, reopened_at, f"holds submissions (seq {reopened_at - 1} (ann))")


@pytest.mark.guarantee("tamper.reopen-behind-submissions")
def test_pw_refuses_to_reopen_while_the_open_round_holds_submissions(tmp_path):
    db = tmp_path / "h.db"
    pw_after(db, rounds=3, closed=2)
    result = invoke(db, "reopen", "p1", "--reason", "again", expect=1)
    assert "round 3 of 'p1' holds submissions (seq" in result.stderr and "(ann)" in result.stderr


@pytest.mark.guarantee("tamper.reopen-behind-submissions")
def test_a_pw_log_whose_reopening_lets_a_pair_use_unique_three_times_is_a_finding(tmp_path):
    """W4: ann's Round-3 unique stands while her Round-2 submission, reopened, is
    corrected to two more: three for the pair over the match."""
    events = pw_after(tmp_path / "h.db", rounds=3, closed=2)
    third = next(i for i, e in enumerate(events) if isinstance(e, SubmissionRecorded) and e.round == 3)
    events = events[: third + 1]  # ann's Round 3 in: unique:bob swap:yan
    ann_second = next(
        i
        for i, e in enumerate(events, 1)
        if isinstance(e, SubmissionRecorded) and e.round == 2 and e.participant == "ann"
    )
    reopened_at = len(events) + 1
    events += [
        RoundReopened(round=2, reason="again"),
        SubmissionCorrected(target_seq=ann_second, tokens=["unique:bob", "unique:yan"], reason="misheard"),
    ]
    refused_everywhere(tmp_path, "p1", events, reopened_at, f"holds submissions (seq {reopened_at - 1} (ann))")


# --------------------------------------------------------------------------- a void that brings back an illegal submission


def pw_with_a_superseded_gift(db: Path) -> None:
    """ann's gift (seq 2) superseded by a watch (seq 3); then her partner zed gives (seq 4),
    legal while ann's counting submission holds no gift (W3)."""
    new_pw(db, "p1")
    for line in ["ann gift:bob learn:yan", "ann watch:bob learn:yan", "zed gift:bob swap:yan"]:
        invoke(db, "submit", "p1", *line.split())


@pytest.mark.ruling("W3")
@pytest.mark.guarantee("tamper.illegal-move")
def test_w3_a_void_that_would_bring_back_a_submission_the_rules_now_refuse_is_refused(tmp_path):
    db = tmp_path / "h.db"
    pw_with_a_superseded_gift(db)
    before = rows(db)
    result = invoke(db, "void", "p1", "3", "--reason", "typed for the wrong player", expect=1)
    assert "would make ann's submission 2 (gift:bob learn:yan) count again" in result.stderr, result.stderr
    assert "W3" in result.stderr and "Void 2 first" in result.stderr
    assert rows(db) == before
    invoke(db, "void", "p1", "2", "--reason", "superseded anyway")  # then nothing counts again
    invoke(db, "void", "p1", "3", "--reason", "typed for the wrong player")


@pytest.mark.ruling("W3")
@pytest.mark.guarantee("tamper.illegal-move")
def test_w3_a_log_whose_void_brings_back_a_submission_the_rules_refuse_is_a_finding(tmp_path):
    """Before, such a round closed with the pair both giving, and `verify` said ok."""
    db = tmp_path / "h.db"
    pw_with_a_superseded_gift(db)
    events = events_of(db, "p1")
    events.append(SubmissionVoided(target_seq=3, reason="typed for the wrong player"))
    refused_everywhere(tmp_path, "p1", events, 5, "count again")


@pytest.mark.guarantee("tamper.illegal-move")
@pytest.mark.parametrize("value", [1, 0])
def test_a_creation_holding_a_number_where_new_records_a_boolean_is_a_finding(tmp_path, value):
    """`new --option diamond_center_must_be_empty=…` records true or false; 1 and 0 equal
    them to Python, but not to JSON, nor to SQL's json_extract."""
    events = lca_after(tmp_path / "h.db", rounds=1, closed=0)[:2]
    options = dict(events[0].options, diamond_center_must_be_empty=value)
    events[0] = msgspec.structs.replace(events[0], options=options)
    refused_everywhere(tmp_path, "m1", events, 1, "options.diamond_center_must_be_empty")
