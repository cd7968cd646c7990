"""The fleet's benchmark (issue 29) runs end to end on a tiny scale, prints every row it
promises on both back ends, and leaves no server, cluster or folder behind (the numbers
are never checked: no timed assertions)."""

import os
from pathlib import Path

from bench import fleet
from bench.measure import table

TINY = fleet.Scale(clients=4, seconds=0.3, pages=4, live_matches=1, stall_seconds=1.0)
CLASSES = ("static (/healthz, /assets/service.css)", "kept public answer (read before)", "participant /me")


def clusters() -> set[Path]:
    """The throwaway clusters this process made (others may run tests beside it)."""
    return {
        folder
        for folder in Path("/tmp").glob("matchledger-pg-*")
        if (folder / "owner.pid").is_file() and (folder / "owner.pid").read_text() == str(os.getpid())
    }


def test_the_fleet_bench_measures_every_row_on_both_back_ends(postgres_server, tmp_path):
    before = clusters()  # the session's own server is one of them
    rows = fleet.run(tmp_path, True, lambda *a, **k: None, scale=TINY)
    names = [row.name for row in rows]
    for kind in ("/me", "participant page"):
        assert any(name.startswith(f"PostgreSQL fleet: {kind}: requests/s, 4 clients over 2 serve") for name in names)
        assert any(name.startswith(f"PostgreSQL fleet: {kind}: p99 latency") for name in names)
    for label, processes in (("PostgreSQL fleet", 2), ("SQLite serve", 1)):
        for quantile in ("p50", "p99"):
            assert f"{label}: live update {quantile}, commit to arrival on 4 open pages" in names
        for index in range(1, processes + 1):
            assert any(name.startswith(f"{label}: serve {index} of {processes}: RSS with") for name in names)
    for stall in (
        "PostgreSQL fleet: cluster paused (SIGSTOP) 1 s",
        "PostgreSQL fleet: events locked + a commit in another database 1 s",
        "SQLite serve: BEGIN EXCLUSIVE held 1 s",
    ):
        for kind in CLASSES:
            [row] = [row for row in rows if row.name.startswith(f"{stall}: {kind}")]
            assert " x" in row.name.split("; ")[-1]  # what was answered, counted
            assert row.note.startswith("every serve ready again")
    assert all("not 200" not in row.note for row in rows)
    assert all(row.ours is not None and row.ours > 0 for row in rows)
    assert all("busy writer" in row.note for row in rows if row.name.startswith("PostgreSQL"))
    assert table(rows).count("\n") == len(rows) + 1
    assert clusters() == before  # the fleet's cluster is removed, not left paused


def test_the_fleet_table_replaces_the_last_one_between_its_marks(tmp_path):
    from bench.measure import Row

    doc = tmp_path / "performance.md"
    doc.write_text(f"# Performance\n\n{fleet.BEGIN}\nthe last run\n{fleet.END}\n\nafter\n")
    rows = [
        Row(
            "fleet",
            "PostgreSQL fleet: live update p99, commit to arrival on 4 open pages",
            None,
            None,
            9.0,
            None,
            9.0,
            "ms",
        ),
        Row("service", "/me: p99 latency, 200 clients", None, None, 5.0, 4.0, 5.0, "ms"),
        Row("service", "receipt p99, 50 participants submitting at once", None, None, 5.0, None, 5.0, "ms"),
    ]
    fleet.write_into(doc, rows, "the heading")
    text = doc.read_text()
    assert "the last run" not in text and text.startswith("# Performance\n") and text.endswith("\n\nafter\n")
    assert "the heading" in text and "live update p99" in text and "/me: p99" in text
    assert "receipt" not in text  # only the fleet's rows and the SQLite reads beside them
    doc.write_text("# Performance\n")
    try:
        fleet.write_into(doc, rows, "the heading")
    except SystemExit as exc:
        assert "no place for the fleet's rows" in str(exc)
    else:
        raise AssertionError("written into a file with no place for the rows")
