"""The same events through the eventsourcing library's SQLite recorder (``pip install
-e '.[bench]'``), append and replay."""

from __future__ import annotations

import contextlib
from pathlib import Path

from . import corpus
from .append import rows_of
from .measure import Row, fresh_database, median_time

# --------------------------------------------------------------------------- eventsourcing


def bench_eventsourcing(tmp: Path, chosen, runs: int) -> list[Row]:
    try:
        from eventsourcing.persistence import StoredEvent as ESStoredEvent
        from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore
    except ImportError:
        return [
            Row(
                "eventsourcing",
                "skipped: eventsourcing is not installed (pip install -e '.[bench]')",
                len(chosen),
                0,
                None,
                None,
                None,
                "",
            )
        ]
    from matchledger.ledger.codec import decode_event, encode
    from matchledger.ledger.events import kind_of
    from matchledger.ledger.stores import open_store
    from matchledger.projections.fold import Replayer, replay

    _rows, matches = rows_of(chosen)
    n_events = len(_rows)
    ours_path, theirs_path = tmp / "ours.db", tmp / "theirs.db"

    def fresh_ours():
        fresh_database(ours_path)
        open_store(ours_path).close()

    holder = {}

    def fresh_theirs():
        fresh_database(theirs_path)
        datastore = SQLiteDatastore(str(theirs_path), originator_id_type="text")
        recorder = SQLiteAggregateRecorder(datastore)
        recorder.create_table()
        holder["recorder"], holder["datastore"] = recorder, datastore

    def ours_append():
        store = open_store(ours_path)
        corpus.append_matches(store, matches)
        store.close()

    def theirs_append():
        recorder = holder["recorder"]
        for mid, groups in matches:
            seq = 1
            for group in groups:
                batch = []
                for event in group:
                    batch.append(
                        ESStoredEvent(
                            originator_id=mid, originator_version=seq, topic=kind_of(event), state=encode(event)
                        )
                    )
                    seq += 1
                recorder.insert_events(batch)

    ours = median_time(ours_append, runs, fresh_ours)
    theirs = median_time(theirs_append, runs, fresh_theirs)
    result = [
        Row(
            "eventsourcing",
            "append, 1 txn per command",
            len(chosen),
            n_events,
            ours,
            theirs,
            ours / theirs,
            "s",
            "eventsourcing append ours/theirs (time)",
            "ours adds the hash chain and the seq check",
        )
    ]

    def ours_read():
        store = open_store(ours_path, create=False)
        for mid in store.match_ids():
            store.events(mid)
        store.close()

    def theirs_read():
        recorder = holder["recorder"]
        for mid, _groups in matches:
            [decode_event(e.state) for e in recorder.select_events(mid)]

    def ours_replay():
        store = open_store(ours_path, create=False)
        for mid in store.match_ids():
            replay(mid, store.events(mid))
        store.close()

    def theirs_replay():
        recorder = holder["recorder"]
        for mid, _groups in matches:
            replayer = Replayer(mid)
            for e in recorder.select_events(mid):
                replayer.feed(e.originator_version, decode_event(e.state))

    for name, a, b in (
        ("read + decode", ours_read, theirs_read),
        ("replay (read + decode + fold)", ours_replay, theirs_replay),
    ):
        ta, tb = median_time(a, runs), median_time(b, runs)
        key = "eventsourcing replay ours/theirs (time)" if name.startswith("replay") else None
        result.append(
            Row("eventsourcing", name, len(chosen), n_events, ta, tb, ta / tb, "s", key, "same decoder and fold")
        )
    with contextlib.suppress(Exception):
        holder["datastore"].close()
    return result
