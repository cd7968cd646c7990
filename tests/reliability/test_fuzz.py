"""Fuzzing the input boundary.

1. Random, mostly invalid host commands for each game (tokens, cells, targets, counts,
   seqs, options, out-of-order closes) run through the CLI in-process on a match that
   is half played: every one exits 0 or 1 (2 for a click usage error such as
   `--seed x`), never with a traceback; a failure prints
   one `Error:` line and leaves the log byte-identical; a success only appends; and the
   log still verifies after every example.
2. The event decoder on random and mutated bytes: an event or CorruptLog, nothing else.
3. `import` of random mutations of a real export: a clear error (exit 1 or 3) and an
   untouched database, or, if the file still holds a valid chain, exactly the original.
4. `import` of well-hashed logs of random events (a forger who recomputes the chain):
   the game must accept every event or the import is refused with exit 1.
"""

from __future__ import annotations

import os
import random

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.commands.cli import cli
from matchledger.ledger import codec
from matchledger.ledger.errors import CorruptLog
from matchledger.ledger.events import (
    ContractRecorded,
    MatchCreated,
    NoteAdded,
    OutcomeAnnounced,
    RoundClosed,
    RoundReopened,
    RuleAmended,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
    TurnResolved,
)
from matchledger.ledger.portable import export_lines
from matchledger.ledger.store import Store
from tests.helpers import REPO, invoke

from .support import FIXTURE_MATCHES, T, all_rows, copy_db, findings, match_id_of, soak

BYTES = settings(max_examples=300 * soak(), deadline=None, derandomize=soak() == 1)
FUZZ = settings(
    max_examples=60 * soak(),
    deadline=None,
    derandomize=soak() == 1,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def half_played(tmp_path_factory):
    """{game: (clean db path, match id, participants)}: each fixture match half played."""
    folder = tmp_path_factory.mktemp("fuzz")
    out = {}
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        for game, script in FIXTURE_MATCHES.items():
            lines = [
                line for line in (REPO / script).read_text().splitlines() if line.strip() and not line.startswith("#")
            ]
            partial = folder / f"{game}.txt"
            partial.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
            db = folder / f"{game}-work.db"
            invoke(db, "script", partial)
            clean = copy_db(db, folder / f"{game}.db")
            match = match_id_of(partial)
            store = Store(clean, create=False)
            from matchledger.projections.application import Application

            participants = Application(store).state(match).participants
            store.close()
            out[game] = (clean, match, participants)
    finally:
        os.chdir(cwd)
    return out


# --------------------------------------------------------------------------- command strategies

junk = st.text(alphabet="abcxyz019:=-_.,;'\"#* é", min_size=0, max_size=8)
small_int = st.one_of(st.integers(0, 30), st.sampled_from([99, 10**9, 2**63]))
reason = st.sampled_from(["typo", "", "  ", "late DM"])


def cell():
    return st.one_of(
        st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFGHIJKLMNOPZabc"), st.integers(0, 16)),
        junk,
    )


def pw_token(names):
    types = st.sampled_from(["gift", "swap", "steal", "block", "unique", "predict", "spy", "bogus", ""])
    target = st.one_of(st.sampled_from(names), junk)
    return st.one_of(
        st.builds(lambda t, x: f"{t}:{x}", types, target),
        st.builds(lambda x, t: f"predict:{x}={t}", target, types),
        st.builds(lambda a, b: f"guess:{a}={b}", target, target),
        junk,
    )


def photo_tokens():
    number = st.one_of(st.integers(0, 9).map(str), junk)
    take = st.builds(lambda r, e, c: ["take", r, e, c], number, st.sampled_from(["left", "right", "up", ""]), number)
    wind = st.builds(lambda a, b: ["wind", f"{a}:{b}"], st.integers(0, 12), st.integers(0, 12))
    return st.one_of(
        st.builds(lambda t, w: t + w, take, wind),
        take,
        wind,
        st.lists(st.one_of(number, st.sampled_from(["take", "wind", "left", "right"])), max_size=7),
    )


def tokens_for(game, names):
    if game == "lca":
        return st.lists(cell(), max_size=7)
    if game == "pw":
        return st.lists(pw_token(names), max_size=5)
    return photo_tokens()


CONTRACT_NAMES = {
    "lca": ["lights", "camera", "action", "supremacy", "bogus"],
    "pw": ["diversity", "generosity", "espionage", "sabotage:bob", "sabotage:zed", "sabotage:", "bogus"],
    "photographer": ["lights", "anything"],
}
OPTIONS = ["filming_lights_divisor", "wind_required", "end_trigger", "row_points", "bogus", ""]


def commands_for(game, match, names):
    who = st.one_of(st.sampled_from(names), junk.filter(lambda s: s and not s.startswith("-")))
    mid = st.one_of(st.just(match), st.just(match), st.sampled_from(["nope", "x y"]))
    one = st.one_of(
        st.builds(lambda m, p, t: ["submit", m, p, *t], mid, who, tokens_for(game, names)),
        st.builds(lambda m, p, t: ["submit", m, p, *t], mid, who, tokens_for(game, names)),
        st.builds(lambda m: ["close", m], mid),
        st.builds(
            lambda m, p, c: ["contract", m, p, *c],
            mid,
            who,
            st.lists(st.sampled_from(CONTRACT_NAMES[game]), min_size=1, max_size=3),
        ),
        st.builds(lambda m, s, r: ["void", m, str(s), "--reason", r], mid, small_int, reason),
        st.builds(
            lambda m, s, t, r: ["correct", m, str(s), *t, "--reason", r],
            mid,
            small_int,
            tokens_for(game, names).filter(bool),
            reason,
        ),
        st.builds(
            lambda m, k, v, r, why: ["amend", m, "--option", f"{k}={v}", "--from-round", str(r), "--reason", why],
            mid,
            st.sampled_from(OPTIONS),
            st.sampled_from(["1", "2", "true", "x", "1:1,2:3", "sunset"]),
            st.integers(0, 5),
            reason,
        ),
        st.builds(lambda m, t: ["note", m, t], mid, junk),
        st.builds(
            lambda p, o: ["new", game, match, "--players", p, *o],
            st.sampled_from(["ann", "ann,ann", "a b,c", ""]),
            st.sampled_from([[], ["--seed", "x"], ["--pair", "ann"], ["--studio", "missing.txt"]]),
        ),
    )
    if game == "photographer":
        one = st.one_of(one, st.integers(0, 2**16).map(lambda seed: ["LEGAL", str(seed)]))
    return st.lists(
        one.filter(
            lambda args: all(
                not a.startswith("-")
                or a in ("--reason", "--option", "--from-round", "--players", "--seed", "--pair", "--studio")
                for a in args
            )
        ),
        min_size=1,
        max_size=5,
    )


def run(db, args):
    return CliRunner().invoke(cli, ["--db", str(db), "--actor", "fuzz", *args], catch_exceptions=True)


def legal_photographer_move(db, match, seed) -> list[str]:
    """A legal turn for whoever is to play (the engine's sampler), or a close once play is over."""
    from matchledger.engine.photographer.sample import random_turn
    from matchledger.projections.application import Application

    store = Store(db, create=False)
    try:
        state = Application(store).state(match)
    finally:
        store.close()
    turn = random_turn(state, random.Random(seed))
    if turn is None:
        return ["close", match]
    return ["submit", match, turn.participant, *turn.tokens]


def check_commands(db, match, cmds, tally):
    for args in cmds:
        if args[0] == "LEGAL":
            args = legal_photographer_move(db, match, int(args[1]))
        before = all_rows(db)
        result = run(db, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{args}: {type(result.exception).__name__}: {result.exception}"
        )
        assert "Traceback" not in result.output
        assert result.exit_code in (0, 1, 2), f"{args}: exit {result.exit_code}: {result.output}"
        after = all_rows(db)
        if result.exit_code == 2:  # click's own usage error (e.g. --seed x): DESIGN's exit 2
            assert "Usage:" in result.stderr and after == before
        elif result.exit_code == 1:
            assert after == before, f"{args} failed but changed the log"
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("Error: ") and len(lines[0]) > 12, result.stderr
        else:
            assert set(before) <= set(after), f"{args} rewrote the log"
            tally["appended"] += len(after) > len(before)
        tally[result.exit_code] += 1
    assert findings(db, match) == []


@pytest.mark.parametrize("game", list(FIXTURE_MATCHES))
@pytest.mark.guarantee("log.rejected-writes-nothing", "input.fuzzed-commands")
def test_random_commands_fail_cleanly_or_append(game, half_played, tmp_path):
    clean, match, names = half_played[game]
    tally = {0: 0, 1: 0, 2: 0, "appended": 0}

    @FUZZ
    @given(commands_for(game, match, names))
    def fuzz(cmds):
        db = copy_db(clean, tmp_path / "f.db")
        try:
            check_commands(db, match, cmds, tally)
        finally:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(f"{db}{suffix}"):
                    os.remove(f"{db}{suffix}")

    fuzz()
    print(f"{game}: {tally}")
    assert tally[1] > tally["appended"] > 0  # mostly invalid, but some commands did go through


# --------------------------------------------------------------------------- bytes


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        i = rng.randrange(len(data) + 1) if data else 0
        if op == 0 and data:
            data[min(i, len(data) - 1)] = rng.randrange(256)
        elif op == 1:
            del data[i : i + rng.randint(1, 8)]
        elif op == 2:
            data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == 3:
            data = data[:i]
        else:
            data[i:i] = rng.choice([b'"', b"{", b"}", b"[", b",", b"null", b'"type"', b"\n", b"1e999", b"\\u0000"])
    return bytes(data)


def sample_bodies(half_played) -> list[bytes]:
    bodies = []
    for clean, match, _ in half_played.values():
        store = Store(clean, create=False)
        bodies += [r.body.encode() for r in store.rows(match)]
        store.close()
    return bodies


@pytest.mark.guarantee("input.decoder-fuzz")
def test_decoder_on_random_and_mutated_bytes(half_played):
    bodies = sample_bodies(half_played)

    @BYTES
    @given(
        st.one_of(
            st.binary(max_size=200),
            st.builds(lambda b, s: mutate(b, random.Random(s)), st.sampled_from(bodies), st.integers(0, 2**32)),
        )
    )
    def fuzz(data):
        try:
            event = codec.decode_event(data)
        except CorruptLog as exc:
            assert str(exc)
        else:
            assert codec.decode_event(codec.encode(event)) == event

    fuzz()


@pytest.fixture(scope="module")
def exported(half_played):
    clean, match, _ = half_played["pw"]
    store = Store(clean, create=False)
    rows = store.rows(match)
    store.close()
    return rows, export_lines(rows)


@pytest.mark.guarantee("input.mutated-import")
def test_import_of_mutated_exports(exported, tmp_path):
    rows, data = exported

    @BYTES
    @given(st.integers(0, 2**32))
    def fuzz(seed):
        file = tmp_path / "in.jsonl"
        file.write_bytes(mutate(data, random.Random(seed)))
        db = tmp_path / "target.db"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{db}{suffix}"):
                os.remove(f"{db}{suffix}")
        result = run(db, ["import", str(file)])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1, 3) and "Traceback" not in result.output
        if result.exit_code == 0:
            # Still a valid chain: then it is the original or a prefix of it (a cut-off
            # file is a valid shorter log; only a published head catches that).
            imported = all_rows(db)
            assert imported and imported == [msgspec.structs.astuple(r) for r in rows][: len(imported)]
        else:
            assert all_rows(db) == []
            assert result.stderr.startswith("Error: ")

    fuzz()


# --------------------------------------------------------------------------- forged, well-hashed logs

names = st.sampled_from(["ann", "bob", "cat", "zed", "yul", "x"])
anyjson = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 40), names),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)),
    max_leaves=6,
)
random_events = st.one_of(
    st.builds(
        ContractRecorded,
        participant=names,
        contracts=st.lists(st.sampled_from(["lights", "camera", "diversity", "sabotage:bob", "x"]), max_size=2),
    ),
    st.builds(
        SubmissionRecorded,
        participant=names,
        round=st.integers(0, 4),
        tokens=st.lists(
            st.one_of(names, st.sampled_from(["B2", "gift:bob", "take", "1", "left", "wind", "1:2"])), max_size=6
        ),
    ),
    st.builds(
        RoundClosed,
        round=st.integers(0, 4),
        public=st.dictionaries(names, anyjson, max_size=2),
        private=st.dictionaries(names, anyjson, max_size=2),
    ),
    st.builds(
        TurnResolved, turn=st.integers(0, 4), participant=names, public=st.dictionaries(names, anyjson, max_size=2)
    ),
    st.builds(OutcomeAnnounced, outcome=st.dictionaries(names, anyjson, max_size=2)),
    st.builds(
        RuleAmended,
        option=st.sampled_from(["multiplier", "wind_required", "x"]),
        value=anyjson,
        from_round=st.integers(0, 4),
        reason=names,
    ),
    st.builds(SubmissionVoided, target_seq=st.integers(0, 8), reason=names),
    st.builds(SubmissionCorrected, target_seq=st.integers(0, 8), tokens=st.lists(names, max_size=3), reason=names),
    st.builds(RoundReopened, round=st.integers(0, 4), reason=names),
    st.builds(NoteAdded, text=names),
    st.builds(MatchCreated, game=st.sampled_from(["toy", "pw", "x"]), players=st.lists(names, max_size=3)),
)
created = st.one_of(
    st.builds(
        MatchCreated,
        game=st.just("toy"),
        players=st.just(["ann", "bob"]),
        options=st.one_of(st.just({"multiplier": 1}), st.dictionaries(names, anyjson, max_size=2)),
    ),
    st.builds(
        MatchCreated,
        game=st.just("pw"),
        players=st.just(["ann", "bob"]),
        setup=st.one_of(st.just({"pairs": {"ann": "zed", "bob": "yul"}}), st.dictionaries(names, anyjson, max_size=2)),
    ),
    st.builds(
        MatchCreated,
        game=st.sampled_from(["lca", "photographer", "chess"]),
        players=st.lists(names, max_size=3),
        setup=st.dictionaries(st.sampled_from(["studio", "seed", "deck"]), anyjson, max_size=2),
    ),
)


@pytest.mark.guarantee("input.unusable-events")
def test_import_of_well_hashed_random_logs(tmp_path):
    @FUZZ
    @given(created, st.lists(random_events, max_size=6))
    def fuzz(first, rest):
        memory = Store(":memory:")
        rows = memory.append("f1", 1, [first, *rest], actor="forger", recorded_at=T)
        file = tmp_path / "forged.jsonl"
        file.write_bytes(export_lines(rows))
        db = tmp_path / "target.db"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{db}{suffix}"):
                os.remove(f"{db}{suffix}")
        result = run(db, ["import", str(file)])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{type(result.exception).__name__}: {result.exception}"
        )
        # 3: a log the rules would not have written (re-derivation's refusal)
        assert result.exit_code in (0, 1, 3) and "Traceback" not in result.output
        if result.exit_code in (1, 3):
            assert all_rows(db) == []

    fuzz()
