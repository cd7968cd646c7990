"""matchledger.testing: a match's replayed history (its steps, views and exact numbers),
the snapshot text written of it, and the findings read from two such texts."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from matchledger.ledger.errors import VerificationFailed
from matchledger.ledger.store import Store
from matchledger.testing import replay_history
from matchledger.testing.findings import findings
from matchledger.testing.history import LogEntry, exact
from matchledger.testing.paths import unflatten
from matchledger.testing.report import log_movement, report
from matchledger.testing.text import parse, render
from tests.helpers import REPO, invoke
from tests.reliability.support import copy_db, raw

from .conftest import SEASON
from .earlier_layout import earlier_text


def labels(history) -> list[str]:
    return [step.label for step in history.steps]


def points(step, view="host") -> dict:
    """participant -> total (lca) or points (pw) in ``view``'s scores at ``step``."""
    scores = step.views[view]["scores"]
    rows = scores.get("scores", scores.get("participants"))
    return {row["participant"]: row.get("total", row.get("points")) for row in rows}


# --------------------------------------------------------------------------- steps


def test_a_round_is_a_step_when_it_closes_and_the_outcome_is_the_last(histories):
    assert labels(histories("ties8")) == ["round 1", "round 2", "round 3", "outcome"]


def test_a_turn_is_a_step_and_a_checkpoint_never_is(histories, season_db):
    history = histories("g2")
    turns = [label for label in labels(history) if label.startswith("turn ")]
    assert turns == [f"turn {n}" for n in range(1, len(turns) + 1)] and len(turns) > 20
    assert labels(history)[-1] == "outcome"
    store = Store(season_db, create=False)
    try:
        last = store.rows("g2")[-1]
    finally:
        store.close()
    assert last.kind == "StateCheckpointed" and history.steps[-1].seq == last.seq - 1


def test_every_step_has_every_read_model_in_every_view(histories):
    for step in histories("pw1").steps:
        host, public, *participants = step.views
        assert (host, public) == ("host", "public")
        assert sorted(participants) == [
            "ann",
            "bob",
            "cat",
            "dan",
            "eve",
            "fay",
            "gus",
            "tof",
            "ura",
            "vik",
            "wim",
            "xio",
            "yul",
            "zed",
        ]
        for view in ("host", "public"):
            assert sorted(step.views[view]) == ["outcome", "reveals", "scores", "status"]
        assert {name for participant in participants for name in step.views[participant]} == {"knowledge"}


def test_a_ruling_amended_is_no_step_until_it_changes_what_is_shown(histories):
    # amend5 amends filming_lights_divisor at seq 7, from round 3: nothing any view shows
    # changes then; round 3 scores filming under it (tests/lca/test_fixture_scenarios.py)
    history = histories("amend5")
    assert labels(history) == ["round 1", "round 2", "round 3", "outcome"]
    assert [step.seq for step in history.steps] == [6, 10, 16, 17]


def test_lca_correction_with_reopen_steps_through_the_reopened_round(histories):
    history = histories("c1")
    # bob's correction in the open round (seq 4) comes before any step: no step of its own
    assert labels(history) == ["round 1", "round 1 reopened", "submission 2 corrected", "round 1 closed again"]
    assert points(history.step("round 1")) == {"ann": 17, "bob": 17}
    reopened = history.step("round 1 reopened")
    assert (
        reopened.views["host"]["reveals"]["rounds"] == [] and reopened.views["ann"]["knowledge"]["announcements"] == []
    )
    assert points(reopened) == {"ann": 0, "bob": 0}
    # the correction shows only to the host and to ann, whose submission it was
    corrected = history.step("submission 2 corrected").views
    assert corrected["host"]["status"]["submissions"]["ann"] == ["B1", "E1", "I1", "M1", "Q1"]
    assert corrected["ann"]["knowledge"]["submissions"] == {"1": ["B1", "E1", "I1", "M1", "Q1"]}
    assert corrected["bob"] == reopened.views["bob"] and corrected["public"] == reopened.views["public"]
    assert points(history.step("round 1 closed again")) == {"ann": 18, "bob": 15}


def test_pw_correction_with_reopen(histories):
    history = histories("c2")
    assert labels(history) == ["round 1", "round 1 reopened", "submission 4 corrected", "round 1 closed again"]
    assert points(history.step("round 1")) == {"ann": -1, "bob": 0, "zed": 1, "yan": 3}
    assert points(history.step("round 1 closed again")) == {"ann": 0, "bob": 0, "zed": 0, "yan": 3}


def test_a_hand_scored_match_shows_what_was_announced_and_pins_the_dispute(histories):
    history = histories("disp1")
    assert history.findings == [
        "disp1 seq 8: RoundClosed differs from what the rules give [private.ann.lights_score: recorded 154, recomputed 152]"
    ]
    round_1 = history.step("round 1").views
    assert round_1["ann"]["knowledge"]["announcements"][0]["private"]["lights_score"] == 154  # what ann was told
    assert points(history.step("round 1"))["ann"] == 152  # what the rules give


def test_a_tampered_database_is_refused_not_replayed(season_db, tmp_path):
    db = copy_db(season_db, tmp_path / "tampered.db")
    raw(
        db,
        (
            "UPDATE events SET body = replace(body, ?, ?) WHERE match_id = 'amend5' AND seq = 6",
            ('"lights_score":60', '"lights_score":61'),
        ),
    )
    with pytest.raises(VerificationFailed, match="amend5.*seq 6"):
        replay_history(db, "amend5")


def test_reading_a_database_leaves_it_as_it_was(season_db, tmp_path):
    db = copy_db(season_db, tmp_path / "theirs.db")
    before = db.read_bytes()
    replay_history(db, "pw2")
    assert db.read_bytes() == before


def test_numbers_are_exact():
    assert exact({"share": Fraction(61, 2), "total": 30, "ratio": 0.1, "tied": True}) == {
        "share": "61/2",
        "total": 30,
        "ratio": "3602879701896397/36028797018963968",
        "tied": True,
    }
    with pytest.raises(TypeError, match="cannot pin"):
        exact({"when": object()})


# --------------------------------------------------------------------------- the text


def test_a_section_holds_what_the_view_shows_differently_from_its_last_step(histories):
    text = render(histories("amend5"))
    # a studio map is written once, at the first step, and once for all the views that
    # show it alike: status and reveals of host and public, knowledge of every player
    studio_lines = [line for line in text.splitlines() if ".studio: " in line]
    assert [line.split(":")[0] for line in studio_lines] == [
        "  reveals.studio",
        "  status.studio",
        "  knowledge.studio",
    ]
    headers = [line for line in text.splitlines() if line.startswith("round 1 ")]
    assert headers[0] == "round 1 (seq 6), views host, public"
    assert "round 1 (seq 6), views ann, bob, cat, dan, eve" in headers
    sections = parse(text)
    later = list(sections.steps.values())[1:]
    assert not [path for changes in later for view in changes.values() for path in view if path.endswith(".studio")]
    # round 2's section of ann holds her camera announcement, not round 1's again: what
    # everyone was told under every player, what she was told under her alone
    ann = sections.steps[("round 2", 10)]["ann"]
    assert ann["knowledge.announcements[round=2].public"] == '{"cameras": ["E5", "F5", "B12", "B12", "E12", "E12"]}'
    assert ann["knowledge.announcements[round=2].private"] == '{"camera_score": 0}'
    assert not [path for path in ann if "round=1" in path]
    round_2 = text.split("\nround 2 (seq 10), views ann, bob, cat, dan, eve\n")[1].split("\nround 2")[0]
    assert '  knowledge.announcements[round=2].public: {"cameras": ["E5", "F5", "B12", "B12", "E12", "E12"]}' in (
        round_2.splitlines()
    )


def test_a_line_replaces_what_was_written_beneath_it_and_removed_is_only_for_a_value_gone(histories):
    text = render(histories("c1"))
    reopened = text.split("round 1 reopened (seq 6), views ann, bob\n")[1].split("\nsubmission 2")[0]
    # the announcements that went are one line, not a (removed) for each line they held
    assert reopened.splitlines() == [
        "  knowledge.announcements: []",
        '  knowledge.phase: "lights"',
        "  knowledge.round: 1",
    ]
    assert "[round=1].private: (removed)" not in text and "reveals.rounds: (removed)" not in text
    assert "  status.brightness: (removed)\n" in text  # the host and the public no longer see it at all
    # a record that holds a map of records is a line a key: what each participant was told
    assert '  reveals.rounds[round=1].private.ann: {"lights": ["B1", "E1", "I1"], "lights_score": 18}' in text


def test_read_back_every_step_of_every_view_is_the_replay_value_for_value(histories):
    for _script, match in SEASON:
        history = histories(match)
        sections = parse(render(history))
        steps = [(step, {view: unflatten(lines) for view, lines in views.items()}) for step, views in sections.shown()]
        assert steps == [((step.label, step.seq), step.views) for step in history.steps], match


def test_a_step_that_shows_nothing_new_still_has_its_line(histories):
    # gd2's outcome was announced by the host with the last turn's numbers: no view changes
    history = histories("gd2")
    assert history.steps[-1].label == "outcome"
    text = render(history)
    assert f"\noutcome (seq {history.steps[-1].seq}): no view shows anything new\n" in text
    assert list(parse(text).steps)[-1] == ("outcome", history.steps[-1].seq)


def test_the_log_is_listed_an_event_a_line_checkpoints_aside_the_same_however_recorded(histories, tmp_path):
    history = histories("c1")
    assert [(entry.seq, entry.kind) for entry in history.log] == [
        (1, "MatchCreated"),
        (2, "SubmissionRecorded"),
        (3, "SubmissionRecorded"),
        (4, "SubmissionCorrected"),
        (5, "RoundClosed"),
        (6, "RoundReopened"),
        (7, "SubmissionCorrected"),
        (8, "RoundClosed"),
    ]
    text = render(history)
    assert text.endswith(f"\n  8 RoundClosed {history.log[-1].digest}")
    assert parse(text).log == history.log
    # played again (other salts, other times, another actor): the same digests
    again = tmp_path / "again.db"
    invoke(again, "script", REPO / "tests" / "histories" / "corrections.txt")
    assert replay_history(again, "c1").log == history.log
    # a checkpoint (its record holds the code's revision) is never listed
    assert [entry.kind for entry in histories("amend5").log][-1] == "OutcomeAnnounced"


def test_a_text_an_earlier_version_wrote_reads_back_to_the_same_views(histories):
    history = histories("c1")
    text = earlier_text(history)
    assert "knowledge.announcements[round=1].private: (removed)" in text  # what the new text leaves out
    assert parse(text).log is None
    assert findings(text, render(history)) == []
    old = [(step, {v: unflatten(lines) for v, lines in views.items()}) for step, views in parse(text).shown()]
    assert old == [((step.label, step.seq), step.views) for step in history.steps]
    assert list(report(text, render(history))) == [
        "match c1, game lca: the replay is the one pinned, value for value, but the snapshot was written in an "
        "earlier layout: rewrite it with --snapshot-update (nothing else changes)"
    ]


# --------------------------------------------------------------------------- findings


def changed(history, label, view, edit):
    """A copy of ``history`` with ``edit`` applied to ``view``'s models from step ``label`` on."""
    history = copy.deepcopy(history)
    start = labels(history).index(label)
    for step in history.steps[start:]:
        edit(step.views[view])
    return history


def test_a_difference_is_one_finding_naming_the_match_round_view_and_field(histories):
    history = histories("amend5")

    def camera_score_55(models):
        models["knowledge"]["announcements"][1]["private"]["camera_score"] = 55

    replayed = changed(history, "round 2", "dan", camera_score_55)
    # the difference persists in every later step (round 2's announcement stays known): told once
    assert list(map(str, findings(render(history), render(replayed)))) == [
        "amend5, round 2, view dan: knowledge.announcements[round=2].private.camera_score 24 → 55"
    ]


def test_findings_tell_the_steps_one_side_lacks_and_a_new_dispute(histories):
    history = histories("c1")
    replayed = copy.deepcopy(history)
    del replayed.steps[2]  # the correction no longer shows
    replayed.findings.append("c1 seq 8: RoundClosed differs from what the rules give")
    found = list(map(str, findings(render(history), render(replayed))))
    assert found[0] == 'c1, verify: [] → ["c1 seq 8: RoundClosed differs from what the rules give"]'
    assert found[1] == "c1, submission 2 corrected: the replay has no such step (the snapshot has it after seq 7)"
    assert findings(render(history), render(history)) == []


def test_the_failure_starts_with_the_outcome_that_moved_then_the_first_step_then_the_log(histories):
    history = histories("amend5")

    def dan_filmed_less(models):
        if models["outcome"]["standings"]:
            dan = next(row for row in models["outcome"]["standings"] if row["participant"] == "dan")
            dan["total"], dan["scores"]["filming"] = dan["total"] - 5, dan["scores"]["filming"] - 5

    replayed = changed(history, "round 3", "host", dan_filmed_less)
    lines = list(report(render(history), render(replayed)))
    assert lines == [
        "match amend5, game lca: the replay differs from its snapshot in 2 places",
        "final outcome:",
        "  dan: total 159 → 154 (filming 37 → 32)",
        "first difference: round 3 (seq 16)",
        "  amend5, round 3, view host: outcome.standings[participant=dan].scores.filming 37 → 32",
        "  amend5, round 3, view host: outcome.standings[participant=dan].total 159 → 154",
        "log: the one pinned, replayed by these rules",  # so the rules changed, not the log
        "A deliberate change (a correction, an amended ruling, a fixed rule): accept it with --snapshot-update "
        "and say why in the commit.",
    ]


def test_the_bulk_is_counted_by_default_and_listed_with_each_v(histories):
    history = histories("amend5")

    def camera_score_55(models):
        models["knowledge"]["announcements"][1]["private"]["camera_score"] = 55
        models["knowledge"]["finished"] = "maybe"

    replayed = render(changed(history, "round 2", "dan", camera_score_55))
    quiet = list(report(render(history), replayed))
    assert quiet[1] == "final outcome: as pinned"
    # round 2: her camera score and "finished"; at round 3 "finished" again (true, now)
    assert quiet[-2] == "1 more difference at 1 later step: -v lists the steps and the first ones, -vv every one"
    assert not [line for line in quiet if line.startswith("where:")]
    verbose = list(report(render(history), replayed, verbosity=1))
    assert verbose[verbose.index("where:") + 1 :][:3] == [
        "  round 2: view dan",
        "  round 3: view dan",
        'amend5, round 3, view dan: knowledge.finished true → "maybe"',
    ]


def test_the_log_moved_is_told_by_the_events_added_the_seq_it_was_rewritten_from_or_those_missing(histories):
    log = histories("c1").log
    assert log_movement(log, log) is None
    note = LogEntry(9, "NoteAdded", "0badc0de")
    assert log_movement(log, [*log, note]) == "it ends 1 event past the pinned head 8 (9 NoteAdded)"
    assert log_movement(log, log[:-2]) == "2 events fewer: it ends at seq 6, the pinned head was 8"
    rewritten = [*log[:3], LogEntry(4, "SubmissionCorrected", "0badc0de"), *log[4:], note]
    assert log_movement(log, rewritten) == (
        f"rewritten from seq 4: pinned SubmissionCorrected {log[3].digest}, now SubmissionCorrected 0badc0de; "
        "it has 1 event more (the pinned head was 8)"
    )
    assert log_movement(None, log) == "the snapshot does not list its log (an earlier version of matchledger wrote it)"


def test_events_that_change_no_view_fail_as_a_log_that_moved(histories):
    history = histories("c1")
    noted = copy.deepcopy(history)
    noted.log.append(LogEntry(9, "NoteAdded", "0badc0de"))
    assert list(report(render(history), render(noted))) == [
        "match c1, game lca: every step replays as pinned, but the log moved",
        "log: it ends 1 event past the pinned head 8 (9 NoteAdded)",
        "A deliberate change (a correction, an amended ruling, a fixed rule): accept it with --snapshot-update "
        "and say why in the commit.",
    ]


def test_a_match_no_longer_finished_says_so_where_its_outcome_was(histories):
    history = histories("c1")  # not finished: it has no outcome step
    finished = copy.deepcopy(history)
    for view in ("host", "public"):
        finished.steps[-1].views[view]["outcome"]["finished"] = True
    assert list(report(render(finished), render(history)))[1] == (
        "final outcome: none any more: the match is no longer finished"
    )
