"""Every write command's --json: what it recorded, each event's seq, kind and hash exactly
as the log holds them; and a resubmission names the seq it supersedes."""

from __future__ import annotations

import json

import pytest

from tests.helpers import REPO, invoke, read_json

from .support import LCA_ROUNDS, new_lca, play_rounds, submit_round

pytestmark = pytest.mark.guarantee("safety.write-json")


def written(db, *args) -> dict:
    return json.loads(invoke(db, *args, "--json").stdout)


def assert_in_log(db, match: str, report: dict) -> None:
    """The report has the contract's shape and each event is the logged one."""
    assert set(report) == {"match", "events"} and report["match"] == match and report["events"]
    log = {entry["seq"]: entry for entry in read_json(db, "log", match)}
    for event in report["events"]:
        assert set(event) <= {"seq", "kind", "hash", "supersedes"}
        assert (event["kind"], event["hash"]) == (log[event["seq"]]["kind"], log[event["seq"]]["hash"])
    head = read_json(db, "head", match)
    assert (report["events"][-1]["seq"], report["events"][-1]["hash"]) == (head["seq"], head["hash"])


def test_every_lca_write_command_prints_the_seq_kind_and_hash_it_recorded(tmp_path):
    db = tmp_path / "m.db"
    (tmp_path / "studio.txt").write_text("\n".join(["........"] * 8) + "\n", encoding="utf-8")
    reports = [written(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", tmp_path / "studio.txt")]
    assert [e["kind"] for e in reports[0]["events"]] == ["MatchCreated"]
    for args in (
        ["contract", "m1", "ann", "lights"],
        ["submit", "m1", "ann", *LCA_ROUNDS[0]["ann"].split()],
        ["submit", "m1", "bob", *LCA_ROUNDS[0]["bob"].split()],
        ["void", "m1", "3", "--reason", "entered for the wrong player"],
        ["submit", "m1", "bob", *LCA_ROUNDS[0]["bob"].split()],
        ["correct", "m1", "6", *LCA_ROUNDS[0]["bob"].split(), "--reason", "typo"],
        ["note", "m1", "cat is late"],
        ["amend", "m1", "--option", "filming_lights_divisor=1", "--from-round", "3", "--reason", "house rule"],
        ["close", "m1", "--force", "--reason", "cat passes"],
        ["reopen", "m1", "--reason", "cat's DM arrived"],
        ["submit", "m1", "cat", *LCA_ROUNDS[0]["cat"].split()],
        ["submit", "m1", "ann", *LCA_ROUNDS[0]["ann"].split()],
        ["close", "m1"],
        ["checkpoint", "m1"],
        ["abandon", "m1", "--reason", "practice only"],
    ):
        report = written(db, *args)
        assert_in_log(db, "m1", report)
        reports.append(report)
    kinds = [[e["kind"] for e in report["events"]] for report in reports]
    assert kinds[4] == ["SubmissionVoided"] and kinds[6] == ["SubmissionCorrected"]
    assert kinds[9] == ["RoundClosed"] and kinds[10] == ["RoundReopened"] and kinds[14] == ["StateCheckpointed"]
    assert kinds[15] == ["MatchAbandoned"]
    assert [e["seq"] for report in reports for e in report["events"]] == list(range(1, 17))


def test_a_resubmission_and_a_later_contract_name_the_seq_they_supersede(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    first = written(db, "contract", "m1", "ann", "lights")
    assert "supersedes" not in first["events"][0]
    again = written(db, "contract", "m1", "ann", "camera", "supremacy")
    assert again["events"][0] == {**again["events"][0], "seq": 3, "supersedes": 2}
    line = invoke(db, "contract", "m1", "ann", "action").stdout
    assert line.strip() == "ann: contracts action; recorded seq 4 (ContractRecorded), superseding seq 3"
    submitted = written(db, "submit", "m1", "ann", *LCA_ROUNDS[0]["ann"].split())
    assert "supersedes" not in submitted["events"][0]
    resubmitted = written(db, "submit", "m1", "ann", *LCA_ROUNDS[0]["bob"].split())
    assert resubmitted["events"][0]["supersedes"] == 5
    line = invoke(db, "submit", "m1", "ann", *LCA_ROUNDS[0]["cat"].split()).stdout
    assert line.strip().endswith("recorded seq 7 (SubmissionRecorded), superseding seq 6")
    # with seq 7 voided, seq 6 counts again: that is what the next one supersedes
    invoke(db, "void", "m1", "7", "--reason", "wrong player")
    assert written(db, "submit", "m1", "ann", *LCA_ROUNDS[0]["ann"].split())["events"][0]["supersedes"] == 6
    assert_in_log(db, "m1", written(db, "submit", "m1", "bob", *LCA_ROUNDS[0]["bob"].split()))


def test_a_closed_lca_round_3_records_its_outcome_and_checkpoint_in_one_report(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    play_rounds(db, "m1", LCA_ROUNDS[:2])
    submit_round(db, "m1", LCA_ROUNDS[2])
    report = written(db, "close", "m1")
    assert [e["kind"] for e in report["events"]] == ["RoundClosed", "OutcomeAnnounced", "StateCheckpointed"]
    assert_in_log(db, "m1", report)


def test_outcome_announced_checkpoint_all_and_import_print_what_they_wrote(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    lines = (REPO / "fixtures" / "photographer" / "disputed-outcome.txt").read_text(encoding="utf-8").splitlines()
    script = tmp_path / "s.txt"
    script.write_text("\n".join(line for line in lines if not line.startswith("outcome ")) + "\n", encoding="utf-8")
    invoke(db, "script", script)
    report = written(db, "outcome", "gd2", "--announced", "fixtures/photographer/disputed-outcome.json")
    assert [e["kind"] for e in report["events"]] == ["OutcomeAnnounced", "StateCheckpointed"]
    assert_in_log(db, "gd2", report)
    assert json.loads(invoke(db, "checkpoint", "--all", "--json").stdout) == [{"match": "gd2", "events": []}]
    invoke(db, "export", "gd2", "-o", tmp_path / "gd2.jsonl")
    other = tmp_path / "other.db"
    imported = written(other, "import", tmp_path / "gd2.jsonl")
    assert len(imported["events"]) == read_json(db, "head", "gd2")["seq"]
    assert_in_log(other, "gd2", imported)
