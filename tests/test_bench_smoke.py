"""The benchmark runs in its smallest mode and prints every expected row; its corpus
replays alike, and a generated match's script lines record the very same events.

Only the shape of the table is checked, never a number (no timed assertions).
"""

import random

import pytest

from bench import corpus
from bench.postgres import bench_postgres
from bench.run import run, table
from matchledger import engine
from matchledger.ledger.codec import encode
from matchledger.ledger.events import StateCheckpointed, unsalted
from matchledger.ledger.store import Store
from matchledger.projections.fold import play, replay
from tests.helpers import builtin_games, invoke, sampled_games
from tests.toygame import ToyGame


def test_bench_quick_mode_has_every_row():
    rows = run(quick=True, runs=1, sizes=(1, 3), skip_processes=True, log=lambda *a, **k: None, postgres=False)
    names = [(r.section, r.name) for r in rows]
    for name in ("replay (from snapshots, as reads do)", "replay from the first event", "verify --all"):
        assert [r.size for r in rows if r.name == name] == [1, 3]
    assert ("growth", "replay (from snapshots, as reads do) per event: 3 vs 1 matches") in names
    assert ("growth", "replay from the first event per event: 3 vs 1 matches") in names
    for name in (
        "raw INSERT, one transaction",
        "Store.append batch",
        "Store.append, 1 txn per command",
        "Application.execute, 1 txn per command",
        "script --atomic batch",
    ):
        assert ("append", name) in names
    assert any(section == "eventsourcing" for section, _ in names)
    text = table(rows)
    assert text.count("\n") == len(rows) + 1  # header, rule, one line a row
    assert all(r.ours is not None and r.ours > 0 for r in rows if r.section in ("replay", "verify", "append"))


def test_bench_postgresql_rows_are_all_there(postgres_server, tmp_path):
    rows = bench_postgres(tmp_path, corpus.mix(corpus.templates(), 3), 1, processes=False, server=postgres_server)
    assert [r.name for r in rows] == [
        "raw INSERT, one transaction (floor)",
        "PostgresStore.append batch",
        "append batch: PostgreSQL vs SQLite",
        "replay (from snapshots, as reads do)",
        "replay (from snapshots, as reads do): PostgreSQL vs SQLite",
        "replay from the first event",
        "replay from the first event: PostgreSQL vs SQLite",
        "host command in-process: PostgreSQL vs SQLite",
    ]
    assert all(r.ours > 0 and r.base > 0 for r in rows)
    assert [r.verdict().split(" ok")[0].split(" MISSED")[0] for r in rows if r.target_key] == [">= 0.5", "<= 3.5"]


def test_bench_postgresql_says_why_it_skips(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr("matchledger.testing.postgres_server.find_binaries", lambda: None)
    said = []
    rows = bench_postgres(tmp_path, [], 1, log=lambda *a, **k: said.append(a[0]))
    assert [r.name.split(":")[0] for r in rows] == ["skipped"] and "no PostgreSQL server binaries" in rows[0].name
    assert said and said[0].startswith("postgresql: skipped: no PostgreSQL server binaries")


def test_corpus_matches_are_finished_and_replay_alike():
    by_game = corpus.templates()
    assert list(by_game) == sampled_games()  # every game of the registry with a sampler, in its order
    for game, templates in by_game.items():
        assert templates, game
        for template in templates:
            groups = corpus.play_as(template, "bench-x")
            pairs = list(enumerate((e for g in groups for e in g), start=1))
            assert replay("bench-x", pairs).outcome is not None, template.name


def test_generated_matches_record_the_same_events_from_their_script_lines(tmp_path):
    generated = [t for templates in corpus.templates().values() for t in templates if ":gen" in t.name]
    kinds = set()
    for index, template in enumerate(generated):
        mid = corpus.match_id(index, template)
        script = tmp_path / f"{mid}.script"
        script.write_text(template.script(mid, template.write_setup_files(tmp_path, mid)), encoding="utf-8")
        invoke(tmp_path / "all.db", "script", script)
        store = Store(tmp_path / "all.db", create=False)
        try:
            events = [event for _seq, event in store.events(mid)]
        finally:
            store.close()
        recorded = [encode(unsalted(event)) for event in events if not isinstance(event, StateCheckpointed)]
        assert recorded == [encode(e) for group in corpus.play_as(template, mid) for e in group], template.name
        assert isinstance(events[-1], StateCheckpointed), template.name  # a finished match is checkpointed
        kinds |= {type(cmd).__name__ for cmd in template.commands}
    # every kind of host command a script line is written for
    assert kinds >= {"RecordContract", "Submit", "CloseRound", "Amend", "Void", "Correct", "AddNote"}


def test_every_sampler_draws_the_benchmarks_small_and_largest_matches():
    """What `bench --limits` asks each game for: a small match and the largest input the
    limits allow, both played to their end (knob ``scale``, matchledger.engine.sample;
    a game whose sampler takes no ``scale`` is left out of `--limits`)."""
    from matchledger.ledger.limits import NAME_MAX_LENGTH, PARTICIPANTS_MAX

    scaled = [game for game in sampled_games() if corpus.sample_at(game, 7, "m1", "small") is not None]
    assert set(builtin_games()) <= set(scaled)
    for game in scaled:
        small = play(corpus.sample_at(game, 7, "m1", "small"))
        largest = play(corpus.sample_at(game, 7, "m1", "largest"))
        assert small.state.finished and largest.state.finished, game
        assert len(small.state.participants) < len(largest.state.participants) <= PARTICIPANTS_MAX, game
        assert {len(name) for name in largest.state.participants} == {NAME_MAX_LENGTH}, game
        assert max(map(len, small.state.participants)) < NAME_MAX_LENGTH, game


def test_the_largest_matches_are_at_the_limits_and_a_bad_scale_is_refused():
    from matchledger.ledger.limits import PARTICIPANTS_MAX

    sizes = {
        game: len(play(engine.get(game).sample(random.Random(7), "m1", scale="largest")).state.participants)
        for game in builtin_games()
    }
    # the most participants a match holds, or the most players the game seats
    assert sizes == {game: engine.get(game).MAX_PLAYERS or PARTICIPANTS_MAX for game in builtin_games()}
    for game in builtin_games():
        with pytest.raises(ValueError, match="scale 'huge' is not one of"):
            engine.get(game).sample(random.Random(7), "m1", scale="huge")


class SampledToy(ToyGame):
    """The toy game with a sampler: the benchmark's corpus takes any game that has one."""

    name = "sampled-toy"

    def sample(self, rng, match_id="m1", scale=None):
        from matchledger.engine.commands import CloseRound, CreateMatch, Submit
        from matchledger.engine.sample import Sample

        players = ["ann", "bob", "cat", "dan", "eve"][: 1 + (scale if isinstance(scale, int) else 1)]

        def choose(state):
            if state.round > self.ROUNDS:
                return None
            waiting = [p for p in state.players if p not in state.round_submissions(state.round)]
            return Submit(waiting[0], [str(rng.randint(1, 9))]) if waiting else CloseRound()

        return Sample(CreateMatch(match_id=match_id, game=self.name, players=players), choose)


SAMPLED_TOY = SampledToy()


def test_the_corpus_takes_every_game_of_the_registry_at_the_sizes_its_sampler_gives(monkeypatch):
    monkeypatch.setattr(engine, "_REGISTERED", dict(engine._REGISTERED))
    engine.register(SAMPLED_TOY.name, __name__, "SAMPLED_TOY")
    by_game = corpus.templates()
    assert list(by_game)[-1] == SAMPLED_TOY.name
    assert [template.name for template in by_game[SAMPLED_TOY.name]] == [
        "sampled-toy:gen1x2",
        "sampled-toy:gen2x3",
        "sampled-toy:gen3x4",
        "sampled-toy:gen4x5",
    ]
    assert {template.game for template in corpus.mix(by_game, 4 * len(by_game))} == set(by_game)


class UnscaledToy(SampledToy):
    """A sampler that declares no sizes (takes no ``scale``)."""

    name = "unscaled-toy"

    def sample(self, rng, match_id="m1"):
        return super().sample(rng, match_id)


UNSCALED_TOY = UnscaledToy()


def test_a_game_whose_sampler_takes_no_scale_is_in_the_corpus_at_its_default_size_and_not_in_limits(
    monkeypatch, tmp_path
):
    from bench import limits

    monkeypatch.setattr(engine, "_REGISTERED", dict(engine._REGISTERED))
    engine.register(UNSCALED_TOY.name, __name__, "UNSCALED_TOY")
    assert corpus.sample_at(UNSCALED_TOY.name, 1, "m1", 1) is None
    assert [t.name for t in corpus.templates()[UNSCALED_TOY.name]] == [
        f"{UNSCALED_TOY.name}:gen{seed}x2" for seed in (1, 2, 3, 4)
    ]
    monkeypatch.setattr(engine, "names", lambda: [UNSCALED_TOY.name])
    assert limits.build(tmp_path, largest=True) == {}
