"""Host-entered announcements are typed per game: `close --announced` and `outcome
--announced` accept only JSON in the shape the game announces, bounded in depth and
size, and refuse anything else before it is written; what the engines compute passes
the same checks."""

from __future__ import annotations

import json
import random
import sqlite3

import msgspec
import pytest

from matchledger import engine
from matchledger.engine.commands import CloseRound, CreateMatch, Submit
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.events import OutcomeAnnounced, RoundClosed
from matchledger.ledger.limits import ANNOUNCED_FILE_MAX_BYTES, JSON_MAX_DEPTH
from matchledger.projections.fold import InMemoryMatch, Replayer, play
from tests.fixture_matches import played
from tests.helpers import REPO, invoke, read_json, sampled_games

from .common import new_lca, new_pw, rows, uncontrolled
from .forged import export_file

PW_ROUND = ["ann gift:bob learn:yan", "zed swap:bob watch:yan", "bob gift:ann learn:zed", "yan swap:ann watch:zed"]
LCA_ROUND = ["ann A1 B2 C3 D4 E5", "bob J1 I2 H3 G4 F5", "cat A7 B7 C7 D7 E7"]


def submit_all(db, match_id: str, lines: list[str]) -> None:
    for line in lines:
        invoke(db, "submit", match_id, *line.split())


def computed_round(db, tmp_path, match_id: str) -> dict:
    """What closing the open round would announce: closed in a copy of the file."""
    copy = tmp_path / "copy.db"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    invoke(copy, "close", match_id)
    entry = read_json(copy, "reveals", match_id)["rounds"][-1]
    return {"public": entry["public"], "private": entry["private"]}


def refused(db, tmp_path, match_id: str, command: str, payload, fragment: str) -> None:
    path = tmp_path / "announced.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload), encoding="utf-8")
    before = rows(db)
    result = invoke(db, command, match_id, "--announced", path, expect=1)
    assert fragment in result.stderr, result.stderr
    assert "internal error" not in result.stderr and not uncontrolled(result.stderr, "\n")
    assert rows(db) == before


def changed(payload: dict, path: str, value) -> dict:
    """A deep copy of ``payload`` with the value at ``path`` (keys and indexes split by
    '/') replaced; ``...`` deletes it."""
    copy = json.loads(json.dumps(payload))
    *parents, last = path.split("/")
    target = copy
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    key = int(last) if isinstance(target, list) else last
    if value is ...:
        del target[key]
    else:
        target[key] = value
    return copy


# --------------------------------------------------------------------------- close --announced


@pytest.mark.guarantee("input.announced-shape")
def test_a_pw_announcement_of_the_wrong_shape_is_refused_and_reads_still_work(empty_db_path, tmp_path):
    new_pw(empty_db_path)
    submit_all(empty_db_path, "p1", PW_ROUND)
    refused(
        empty_db_path,
        tmp_path,
        "p1",
        "close",
        {"public": {"type_counts": {"gift": "x"}}, "private": {"ann": []}},
        "$.public.type_counts",
    )
    for args in (
        ("reveals", "p1"),
        ("status", "p1", "--as", "ann"),
        ("render", "p1", "-o", tmp_path / "p.svg"),
        ("report", "p1", "-o", tmp_path / "p.html"),
    ):
        invoke(empty_db_path, *args)


@pytest.mark.parametrize(
    "path, value, fragment",
    [
        ("public/type_counts/hug", 1, "Invalid enum value 'hug'"),
        ("public/type_counts/gift", -1, ">= 0"),
        ("public/type_counts/gift", True, "Expected `int`, got `bool`"),
        ("private/ann/own_points", 1.5, "Expected `int`, got `float`"),
        ("private/ann/learn/0/target", "nobody", "'nobody' is not a participant"),
        ("private/ann/learn/0/actions/0/type", "hug", "Invalid enum value"),
        ("private/bob/watch/0/seen", ["ann", "ghost"], "'ghost' is not a participant"),
        ("private/ghost", {"own_points": 0, "partner_points": 0, "learn": [], "watch": []}, "'ghost'"),
        ("private/ann/extra", 1, "unknown field `extra`"),
        ("private/ann/watch", ..., "missing required field `watch`"),
        ("round", 2, "is for round 2"),
    ],
)
@pytest.mark.guarantee("input.announced-shape")
def test_a_pw_round_announcement_must_have_the_types_the_game_announces(empty_db_path, tmp_path, path, value, fragment):
    new_pw(empty_db_path)
    submit_all(empty_db_path, "p1", PW_ROUND)
    good = computed_round(empty_db_path, tmp_path, "p1")
    assert good["private"]["ann"]["learn"] and good["private"]["bob"]["watch"] == []
    if "bob/watch/0" in path:  # bob watches nobody: give him a watch to spoil
        good = changed(good, "private/bob/watch", [{"target": "yan", "seen": ["ann"]}])
    refused(empty_db_path, tmp_path, "p1", "close", changed(good, path, value), fragment)
    invoke(empty_db_path, "close", "p1", "--announced", tmp_path / "announced.json", expect=1)
    (tmp_path / "good.json").write_text(json.dumps(dict(good, round=1)))
    invoke(
        empty_db_path, "close", "p1", "--announced", tmp_path / "good.json"
    )  # the computed one, as reveals --json shows it


@pytest.mark.parametrize(
    "path, value, fragment",
    [
        ("public/lights/0", "Z99", "outside the 10x13 studio"),
        ("public/lights/0", "hello", "not a cell name"),
        ("public/brightness/B2", 9, "<= 5"),
        ("public/brightness/A99", 1, "outside the"),
        ("private/ann/lights_score", "152", "Expected `int`, got `str`"),
        ("private/dan", {"lights": [], "lights_score": 0}, "'dan' is not a player"),
        ("public/cameras", ["B2"], "unknown field `cameras`"),
        ("public", [], "Expected `object`, got `array`"),
    ],
)
@pytest.mark.guarantee("input.announced-shape")
def test_an_lca_round_announcement_must_have_the_types_the_game_announces(
    empty_db_path, tmp_path, path, value, fragment
):
    new_lca(empty_db_path)
    submit_all(empty_db_path, "m1", LCA_ROUND)
    good = computed_round(empty_db_path, tmp_path, "m1")
    refused(empty_db_path, tmp_path, "m1", "close", changed(good, path, value), fragment)


@pytest.mark.guarantee("input.json-depth")
def test_deep_json_is_refused_and_never_an_internal_error(empty_db_path, tmp_path):
    new_lca(empty_db_path)
    refused(empty_db_path, tmp_path, "m1", "close", "[" * 100_000 + "]" * 100_000, "not valid JSON")
    deep = {"public": {}, "private": {}, "x": json.loads("[" * (JSON_MAX_DEPTH + 5) + "]" * (JSON_MAX_DEPTH + 5))}
    refused(empty_db_path, tmp_path, "m1", "close", deep, f"at most {JSON_MAX_DEPTH}")


@pytest.mark.guarantee("input.announcement-size")
def test_an_announcement_larger_than_the_limit_is_refused_by_the_engine():
    game = engine.get("toy")
    match = InMemoryMatch(CreateMatch(match_id="t1", game="toy", players=["ann", "bob"]))
    match.do(Submit("ann", ["3"]))
    huge = {"public": {"note": "x" * ANNOUNCED_FILE_MAX_BYTES}, "private": {}}
    with pytest.raises(MalformedInput, match=f"at most {ANNOUNCED_FILE_MAX_BYTES}"):
        game.decide(match.state, CloseRound(announced=huge))


# --------------------------------------------------------------------------- outcome --announced


def finish_photographer(db) -> dict:
    """g2-seed7's moves with hand_scored=true, and the outcome the rules give."""
    script = (REPO / "fixtures" / "photographer" / "disputed-outcome.txt").read_text()
    moves = [line.split(maxsplit=2)[2] for line in script.splitlines() if line.startswith("submit")]
    invoke(db, "new", "photographer", "g1", "--players", "ann,bob", "--seed", "7", "--option", "hand_scored=true")
    for move in moves:
        invoke(db, "submit", "g1", *move.split())
    return read_json(db, "outcome", "g1")


@pytest.mark.parametrize(
    "path, value, fragment",
    [
        ("standings/0/participant", "eve", "'eve' is not a player"),
        ("standings/1/participant", "ann", "'ann' is listed twice"),
        ("standings/0/rank", 0, ">= 1"),
        ("standings/0/scores/good_shots", ..., "missing required field `good_shots`"),
        ("standings/0/scores/bonus", 1, "unknown field `bonus`"),
        ("awards", [{"participant": "ann", "kind": "tol", "shards": 1, "reason": "x"}], "photographer has none"),
        ("match", "other", "is for match 'other'"),
        ("game", "lca", "is for game 'lca'"),
        ("finished", False, "not finished"),
        ("standings", ..., "missing required field `standings`"),
    ],
)
@pytest.mark.guarantee("input.announced-shape")
def test_an_announced_outcome_must_have_the_shape_of_outcome_json(empty_db_path, tmp_path, path, value, fragment):
    good = finish_photographer(empty_db_path)
    refused(empty_db_path, tmp_path, "g1", "outcome", changed(good, path, value), fragment)
    (tmp_path / "good.json").write_text(json.dumps(good))
    invoke(empty_db_path, "outcome", "g1", "--announced", tmp_path / "good.json")


@pytest.mark.parametrize(
    "path, value, fragment",
    [
        ("awards/0/kind", "gold", "Invalid enum value 'gold'"),
        ("awards/0/participant", "zed", "'zed' is not a player"),
        ("awards/0/shards", None, "Expected `int`, got `null`"),
        ("awards/0/reason", "best\x1b[2J", "no control characters"),
        ("standings/0/guest", "bob", "'bob' is not a guest"),
        ("standings/0/scores", {"player": 1}, "missing required field `guest`"),
        # contract results (pw1: ann diversity + sabotage:bob, then bob diversity, ...)
        ("contracts/0/participant", "ura", "'ura' is not a player"),
        ("contracts/0/contract", "lights", "'lights' is not a contract of pw"),
        ("contracts/0/target", "bob", "a 'diversity' contract names no target"),
        ("contracts/1/target", ..., "a 'sabotage' contract names target"),
        ("contracts/1/target", "zed", "'zed' is not a player"),
        ("contracts/1/target", "ann", "'ann' names themselves in a pact"),
        ("contracts/2/participant", "ann", "'ann diversity' is listed twice"),
        ("contracts/0/succeeded", 1, "Expected `bool`, got `int`"),
    ],
)
@pytest.mark.guarantee("input.announced-shape")
def test_a_pw_announced_outcome_names_players_guests_and_award_kinds(tmp_path, path, value, fragment):
    db, match_id = tmp_path / "m.db", "pw1"
    invoke(db, "script", REPO / "fixtures" / "pw" / "swap_one_member.txt")
    good = read_json(db, "outcome", match_id)
    # the results entered by hand on a copy whose last round the host closed by hand
    log = read_json(db, "log", match_id)
    last_close = [e["seq"] for e in log if e["kind"] == "RoundClosed"][-1]
    hand = tmp_path / "hand.db"
    invoke(db, "export", match_id, "-o", tmp_path / "m.jsonl")
    lines = (tmp_path / "m.jsonl").read_text().splitlines()[: last_close - 1]
    (tmp_path / "cut.jsonl").write_text("\n".join(lines) + "\n")
    invoke(hand, "import", tmp_path / "cut.jsonl")
    announced = tmp_path / "round3.json"
    round3 = read_json(db, "reveals", match_id)["rounds"][-1]
    announced.write_text(json.dumps({"public": round3["public"], "private": round3["private"]}))
    invoke(hand, "close", match_id, "--announced", announced)
    refused(hand, tmp_path, match_id, "outcome", changed(good, path, value), fragment)


# --------------------------------------------------------------------------- the engines' own


def announcements_fit(game, match_id: str, pairs) -> int:
    """Check every announcement in ``pairs`` as a host-entered one would be; how many."""
    replayer = Replayer(match_id)
    checked = 0
    for seq, event in pairs:
        state = replayer.state
        if isinstance(event, RoundClosed):
            game.check_round_announcement(state, event.round, {"public": event.public, "private": event.private})
            checked += 1
        elif isinstance(event, OutcomeAnnounced):
            game.check_outcome(state, event.outcome)
            if event.public:
                game.announcement_shapes.check_public_outcome(state, event.public)
            checked += 1
        replayer.feed(seq, event)
    return checked


FIXTURES = sorted(
    str(path.relative_to(REPO / "fixtures"))
    for path in (REPO / "fixtures").glob("*/*.txt")
    if any(line.startswith("new ") for line in path.read_text().splitlines())
)


@pytest.mark.guarantee("input.computed-announcements")
@pytest.mark.parametrize("fixture", FIXTURES)
def test_every_announcement_of_every_fixture_passes_the_checks(fixture):
    match_id, pairs = played(REPO / "fixtures" / fixture)
    game = engine.get(pairs[0][1].game)
    assert announcements_fit(game, match_id, pairs) >= 1


@pytest.mark.guarantee("input.computed-announcements")
@pytest.mark.parametrize("game_name", sampled_games())
def test_every_announcement_of_random_matches_passes_the_checks(game_name):
    game = engine.get(game_name)
    checked = 0
    for seed in range(12):
        match = play(game.sample(random.Random(seed), f"{game_name}-{seed}"))
        checked += announcements_fit(game, match.state.match_id, match.pairs())
    assert checked >= 12


# --------------------------------------------------------------------------- logs from elsewhere


@pytest.mark.guarantee("input.fold-checks-announcements")
def test_an_imported_announcement_of_another_shape_is_refused_naming_its_seq(empty_db_path, tmp_path):
    new_pw(empty_db_path)
    submit_all(empty_db_path, "p1", PW_ROUND)
    invoke(empty_db_path, "close", "p1")
    invoke(empty_db_path, "export", "p1", "-o", tmp_path / "p1.jsonl")
    from matchledger.ledger.codec import decode_event

    events = [
        decode_event(json.dumps(json.loads(line)["body"])) for line in (tmp_path / "p1.jsonl").read_text().splitlines()
    ]
    events[-1] = RoundClosed(round=1, public={"type_counts": {"gift": "x"}}, private={"ann": []})
    other = tmp_path / "other.db"
    result = invoke(other, "import", export_file(tmp_path / "forged.jsonl", "p1", events, "host"), expect=1)
    assert "seq 6" in result.stderr and "$.public.type_counts" in result.stderr
    assert rows(other) == []


@pytest.mark.guarantee("input.fold-checks-announcements")
def test_a_wrongly_shaped_announcement_already_in_a_file_is_a_clean_error_for_reads_and_a_finding(
    empty_db_path, tmp_path
):
    from matchledger.ledger.store import Store

    new_pw(empty_db_path)
    submit_all(empty_db_path, "p1", PW_ROUND)
    store = Store(empty_db_path)
    store.append(
        "p1",
        6,
        [RoundClosed(round=1, public={"type_counts": {"gift": "x"}}, private={}, source="host")],
        actor="host",
        recorded_at="2024-01-01T00:00:00Z",
    )
    store.close()
    for args in (("reveals", "p1"), ("status", "p1"), ("render", "p1", "-o", tmp_path / "p.svg")):
        result = invoke(empty_db_path, *args, expect=1)
        assert "seq 6" in result.stderr and "internal error" not in result.stderr
    assert "seq 6" in invoke(empty_db_path, "verify", "p1", expect=3).stdout


def hand_scored_lca(db, tmp_path) -> dict:
    """The disputed lca fixture as match disp2, its last round closed by hand (so no
    outcome is recorded); the results the rules give."""
    match_id, pairs = played(REPO / "fixtures" / "lca" / "disputed-lights.txt")
    *events, _outcome = [event for _seq, event in pairs if event.__class__.__name__ != "StateCheckpointed"]
    events[-1] = msgspec.structs.replace(events[-1], source="host")
    invoke(db, "import", export_file(tmp_path / "disp2.jsonl", "disp2", events, "host"))
    return read_json(db, "outcome", "disp2")


@pytest.mark.parametrize(
    "path, value, fragment",
    [
        ("standings/0/scores/filming", ..., "missing required field `filming`"),
        ("standings/0/scores/filming", "6", "Expected `int`, got `str`"),
        ("standings/2/participant", "dan", "'dan' is not a player"),
        ("awards/0/kind", "gold", "Invalid enum value 'gold'"),
        ("awards/0/shards", -1, ">= 0"),
        ("awards/0/reason", "a" * 2001, "at most 2000"),
        ("match", "disp1", "is for match 'disp1'"),
        # contract results (disp2: ann lights, bob camera + supremacy, cat action)
        ("contracts/0/participant", "dan", "'dan' is not a player"),
        ("contracts/0/contract", "diversity", "'diversity' is not a contract of lca"),
        ("contracts/0/succeeded", "yes", "Expected `bool`, got `str`"),
        ("contracts/2/target", "ann", "a 'supremacy' contract names no target"),
        ("contracts/1/contract", "supremacy", "'bob supremacy' is listed twice"),
        ("contracts/0/shards", 1, "unknown field `shards`"),
    ],
)
def test_an_lca_announced_outcome_must_have_the_shape_of_outcome_json(empty_db_path, tmp_path, path, value, fragment):
    good = hand_scored_lca(empty_db_path, tmp_path)
    refused(empty_db_path, tmp_path, "disp2", "outcome", changed(good, path, value), fragment)
    (tmp_path / "good.json").write_text(json.dumps(good))
    invoke(empty_db_path, "outcome", "disp2", "--announced", tmp_path / "good.json")
    [finding] = invoke(empty_db_path, "verify", "disp2", expect=3).stdout.splitlines()
    assert "seq 8" in finding  # the fixture's one disputed number; the results entered are the rules'
