"""The benchmark runs in its smallest mode and prints every expected row; its corpus
replays alike, and a generated match's script lines record the very same events.

Only the shape of the table is checked, never a number (no timed assertions).
"""

from matchledger.ledger.codec import encode
from matchledger.ledger.events import StateCheckpointed, unsalted
from matchledger.ledger.store import Store
from matchledger.projections.fold import replay

from bench import corpus
from bench.postgres import bench_postgres
from bench.run import run, table
from tests.helpers import invoke


def test_bench_quick_mode_has_every_row():
    rows = run(quick=True, runs=1, sizes=(1, 3), skip_processes=True, log=lambda *a, **k: None, postgres=False)
    names = [(r.section, r.name) for r in rows]
    for name in ("replay (from snapshots, as reads do)", "replay from the first event", "verify --all"):
        assert [r.size for r in rows if r.name == name] == [1, 3]
    assert ("growth", "replay (from snapshots, as reads do) per event: 3 vs 1 matches") in names
    assert ("growth", "replay from the first event per event: 3 vs 1 matches") in names
    for name in ("raw INSERT, one transaction", "Store.append batch", "Store.append, 1 txn per command",
                 "Application.execute, 1 txn per command", "script --atomic batch"):
        assert ("append", name) in names
    assert any(section == "eventsourcing" for section, _ in names)
    text = table(rows)
    assert text.count("\n") == len(rows) + 1  # header, rule, one line a row
    assert all(r.ours is not None and r.ours > 0 for r in rows if r.section in ("replay", "verify", "append"))


def test_bench_postgresql_rows_are_all_there(postgres_server, tmp_path):
    rows = bench_postgres(tmp_path, corpus.mix(corpus.templates(), 3), 1, processes=False, server=postgres_server)
    assert [r.name for r in rows] == [
        "raw INSERT, one transaction (floor)", "PostgresStore.append batch", "append batch: PostgreSQL vs SQLite",
        "replay (from snapshots, as reads do)", "replay (from snapshots, as reads do): PostgreSQL vs SQLite",
        "replay from the first event", "replay from the first event: PostgreSQL vs SQLite",
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
    assert set(by_game) == {"lca", "pw", "photographer"}
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
        files = {}
        setup = template.create.setup
        if "studio" in setup:
            files["setup_file"] = tmp_path / f"{mid}.txt"
            files["setup_file"].write_text(setup["studio"], encoding="utf-8")
        script = tmp_path / f"{mid}.script"
        script.write_text(template.script(mid, files), encoding="utf-8")
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
