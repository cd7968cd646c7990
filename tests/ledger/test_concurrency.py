"""Two processes appending to one match at once: no lost or duplicated seq; the loser
of each race is told of the conflict."""

import multiprocessing as mp

import pytest

from matchledger.ledger.errors import LogConflict
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import Store
from matchledger.ledger.verify import verify_chain

T = "2026-01-01T00:00:00.000000Z"
ROUNDS = 40


def _writer(path, name, barrier, results):
    store = Store(path)
    ok = conflicts = 0
    for i in range(ROUNDS):
        head = store.head("m1")
        # Both processes have read the same head; now both append at once, each
        # expecting the same next seq.  Exactly one may win.
        barrier.wait()
        try:
            store.append(
                "m1",
                head[0] + 1,
                [NoteAdded(text=f"{name}-{i}"), NoteAdded(text=f"{name}-{i}+")],
                actor=name,
                recorded_at=T,
            )
            ok += 1
        except LogConflict:
            conflicts += 1
        barrier.wait()
    results.put((name, ok, conflicts))
    store.close()


@pytest.mark.guarantee("concurrency.loser-told")
def test_two_processes_appending_at_once(tmp_path):
    path = str(tmp_path / "m.db")
    s = Store(path)
    s.append("m1", 1, [MatchCreated(game="toy", players=["a", "b"])], actor="h", recorded_at=T)
    s.close()
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(path, n, barrier, results)) for n in ("p1", "p2")]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    successes = sum(ok for _, ok, _ in outcomes)
    conflicts = sum(c for _, _, c in outcomes)
    assert successes == ROUNDS and conflicts == ROUNDS  # one winner, one told, every race

    s = Store(path)
    rows = s.rows("m1")
    assert verify_chain("m1", rows) == []
    assert [r.seq for r in rows] == list(range(1, 2 * ROUNDS + 2))  # no gap, nothing lost
    texts = [r.body for r in rows[1:]]
    assert len(texts) == len(set(texts))  # nothing duplicated
    for first, second in zip(rows[1::2], rows[2::2]):  # a command's two events stay adjacent
        assert second.body.replace('+"', '"') == first.body
