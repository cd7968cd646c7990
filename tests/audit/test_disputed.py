"""Disputed fixtures: hand-scored matches in which the host's announcement (entered with
`close --announced`) is wrong in exactly one place.  `verify` must find exactly that
divergence and nothing else; every other fixture verifies clean."""

from __future__ import annotations

import json

import pytest

from tests.helpers import REPO, invoke, read_json, run_script

from .common import match_of, script_fixtures

# fixture -> (match, seq of the disputed close, field, recorded, recomputed, announcement file)
DISPUTED = {
    "lca/disputed-lights": (
        "disp1",
        8,
        "private.ann.lights_score",
        154,
        152,
        "fixtures/lca/disputed-lights-round1.json",
    ),
    "pw/disputed-round2": ("pwd1", 37, "private.gus.own_points", 5, 4, "fixtures/pw/disputed-round2.json"),
}


# Paths inside the scripts are relative to the repository.
pytestmark = pytest.mark.usefixtures("at_repo_root")


def key(path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_disputed_fixture_is_listed():
    listed = [*DISPUTED, "photographer/disputed-outcome"]  # the last: hand-entered results
    assert sorted(key(p) for p in script_fixtures() if p.stem.startswith("disputed-")) == sorted(listed)


@pytest.mark.parametrize("name", sorted(DISPUTED))
def test_verify_finds_exactly_the_disputed_value(name, tmp_path):
    match, seq, field, recorded, recomputed, announcement = DISPUTED[name]
    db = tmp_path / "m.db"
    run_script(db, REPO / "fixtures" / f"{name}.txt")
    report = json.loads(invoke(db, "verify", match, "--json", expect=3).stdout)
    assert report["ok"] is False
    [entry] = report["matches"]
    assert entry["findings"] == [
        {
            "match": match,
            "seq": seq,
            "problem": "RoundClosed differs from what the rules give",
            "field": field,
            "recorded": recorded,
            "recomputed": recomputed,
        }
    ]
    text = invoke(db, "verify", match, expect=3).output
    assert f"seq {seq}" in text and field in text
    # what is stored is the host's announcement, marked as such, never the computed one
    log = {e["seq"]: e for e in read_json(db, "log", match)}
    body = log[seq]["event"]
    assert body["source"] == "host"
    assert {"public": body["public"], "private": body["private"]} == json.loads((REPO / announcement).read_text())
    audit = read_json(db, "audit", match, expect=3)  # audit gives verify's verdict and exit code
    assert [(h["seq"], h["actor"]) for h in audit["host_announcements"]] == [(seq, "tester")]
    assert audit["verified"] is False and len(audit["findings"]) == 1


@pytest.mark.parametrize("name", sorted(DISPUTED))
def test_the_disputed_value_is_the_only_divergence(name, tmp_path):
    # verify reports the first divergence; with that one value put right, the very same
    # match verifies clean -- so the announcement was wrong in exactly one place.
    match, seq, field, recorded, recomputed, announcement = DISPUTED[name]
    payload = json.loads((REPO / announcement).read_text())
    _private, participant, key_name = field.split(".")
    assert payload["private"][participant][key_name] == recorded
    payload["private"][participant][key_name] = recomputed
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps(payload))
    script = tmp_path / "fixed.txt"
    script.write_text((REPO / "fixtures" / f"{name}.txt").read_text().replace(announcement, str(fixed)))
    db = tmp_path / "m.db"
    run_script(db, script)
    assert "ok" in invoke(db, "verify", match).output


def test_all_fixtures_in_one_database_only_the_disputed_ones_diverge(tmp_path):
    db = tmp_path / "all.db"
    scripts = script_fixtures()
    ids = [match_of(p)[1] for p in scripts]
    assert len(set(ids)) == len(ids), f"fixture match ids must be unique: {ids}"
    for path in scripts:
        run_script(db, path)
    report = json.loads(invoke(db, "verify", "--all", "--json", expect=3).stdout)
    diverging = {m["match"]: m["findings"] for m in report["matches"] if not m["ok"]}
    assert sorted(diverging) == sorted([*(d[0] for d in DISPUTED.values()), "gd2"])
    assert all(len(findings) == 1 for findings in diverging.values())
    assert {m["match"] for m in report["matches"] if m["ok"]} == set(ids) - set(diverging)


# --------------------------------------------------------------------------- photographer

PHOTOGRAPHER_ANNOUNCED = "fixtures/photographer/disputed-outcome.json"


def test_photographer_disputed_final_results(tmp_path):
    # fixtures/photographer/disputed-outcome.txt: g2-seed7's moves as match gd2, created
    # hand-scored (no computed outcome at the last turn); the host's announced results
    # equal the computed ones except ann's total, announced as 6 where the rules give 4.
    script = REPO / "fixtures" / "photographer" / "disputed-outcome.txt"
    db = tmp_path / "m.db"
    run_script(db, script)
    report = json.loads(invoke(db, "verify", "gd2", "--json", expect=3).stdout)
    [finding] = report["matches"][0]["findings"]
    assert (finding["field"], finding["recorded"], finding["recomputed"]) == ("outcome.standings[0].total", 6, 4)
    seq = finding["seq"]
    log = read_json(db, "log", "gd2")
    assert log[seq - 1]["kind"] == "OutcomeAnnounced"  # the host's results, then the checkpoint of the finished match
    assert [e["kind"] for e in log[seq:]] == ["StateCheckpointed"]
    assert read_json(db, "audit", "gd2", expect=3)["host_announcements"][0]["seq"] == seq


def test_photographer_announced_results_file_differs_in_one_place(tmp_path):
    # the committed announcement is the computed outcome of those moves with one value changed
    lines = (REPO / "fixtures" / "photographer" / "g2-seed7.txt").read_text().replace(" g2 ", " gd2 ")
    script = tmp_path / "gd2.txt"
    script.write_text(lines)
    db = tmp_path / "m.db"
    run_script(db, script)
    computed = read_json(db, "outcome", "gd2")
    announced = json.loads((REPO / PHOTOGRAPHER_ANNOUNCED).read_text())
    assert announced["standings"][0]["total"] == 6 and computed["standings"][0]["total"] == 4
    announced["standings"][0]["total"] = 4
    assert announced == computed
