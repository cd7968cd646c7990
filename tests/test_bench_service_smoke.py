"""The service's benchmark runs end to end on a tiny scale and prints every row it
promises (the numbers are never checked: no timed assertions)."""

from bench import service
from bench.measure import table


def test_the_service_bench_measures_every_row_on_a_tiny_scale(tmp_path):
    quiet = lambda *a, **k: None  # noqa: E731
    rows = service.bench_reads(tmp_path, 4, 0.3, quiet)
    rows += service.bench_receipts(tmp_path, 2, 2, quiet)
    rows += service.bench_live(tmp_path, 3, 1, quiet)
    rows += service.bench_memory(tmp_path, 3, quiet)
    names = [row.name for row in rows]
    assert sum(name.startswith("/me:") for name in names) == 2
    assert sum(name.startswith("participant page:") for name in names) == 2
    assert any(name.startswith("receipt p99") for name in names)
    assert any(name.startswith("live update p99") for name in names)
    assert sum(name.startswith("serve RSS") for name in names) == 2
    assert all(row.ours is not None and row.ours > 0 for row in rows)
    assert not any("not 20" in row.note for row in rows)  # every answer was a 200 or a 201
    assert table(rows).count("\n") == len(rows) + 1


def test_the_service_bench_measures_its_envelope_on_a_tiny_scale(tmp_path):
    rows = service.bench_envelope(tmp_path, 12, 5, lambda *a, **k: None, pipelined=500)
    assert [row.name.split(" (")[0].split(",")[0] for row in rows] == [
        "serve RSS holding 12 half-sent requests",
        "connection 13",
        "serve RSS holding 5 live pages of one match",
        "serve RSS after a header flood on one connection vs before it",
        "serve RSS after 500 requests pipelined on one connection",
    ]
    assert all(row.ours is not None and row.ours > 0 for row in rows)  # the 13th was answered 503 (else nan)
