"""`verify --all --jobs N`: matches verified by N processes, reports in match order.

Each worker process opens the database itself, from its address (a file's path or a
PostgreSQL URL: a connection is never shared across processes) and verifies contiguous
chunks of the match list; the chunks' reports come back in the order of the list, so
the output is the same as with one process.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from matchledger.ledger.log_store import LogStore
from matchledger.ledger.stores import open_store

from .verification import MatchReport, verify_stored

#: Chunks per worker: enough to even out matches of different lengths, few enough that
#: handing them out costs nothing next to verifying them.
CHUNKS_PER_JOB = 8

_store: LogStore | None = None  # the worker's own connection


def _open_worker_store(address: str) -> None:
    global _store
    _store = open_store(address, read_only=True)


def _verify_chunk(match_ids: list[str]) -> list[MatchReport]:
    store = _store
    assert store is not None  # opened by the pool's initializer, before any chunk
    return [verify_stored(store, match_id) for match_id in match_ids]


def verify_in_processes(address: str, match_ids: Sequence[str], jobs: int) -> Iterator[MatchReport]:
    size = max(1, -(-len(match_ids) // (jobs * CHUNKS_PER_JOB)))
    chunks = [list(match_ids[i : i + size]) for i in range(0, len(match_ids), size)]
    # fork where the platform has it: a worker starts without importing anything again
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(jobs, multiprocessing.get_context(method), _open_worker_store, (address,)) as pool:
        for reports in pool.map(_verify_chunk, chunks):
            yield from reports
