"""One process, two connections to one database (the service's reader and its writer):
another process that opens and closes the database must never take it for unused and
delete its WAL under them (POSIX locks belong to the process, and closing any
descriptor of the file would drop them: ``ledger/sqlite_file.py``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import Store

T = "2026-01-01T00:00:00.000000Z"
NOTE = (
    "import sys\n"
    "from matchledger.ledger.events import NoteAdded\n"
    "from matchledger.ledger.store import Store\n"
    "s = Store(sys.argv[1], create=False)\n"
    "seq = s.head('m1')[0]\n"
    "s.append('m1', seq + 1, [NoteAdded(text='from another process')], actor='cli', recorded_at='t')\n"
    "s.close()\n"
)


@pytest.mark.guarantee("service.one-process-two-connections")
def test_another_process_closing_the_database_leaves_our_two_connections_their_wal(tmp_path):
    path = tmp_path / "m.db"
    first = Store(path)
    first.append("m1", 1, [MatchCreated(game="toy", players=["a", "b"])], actor="h", recorded_at=T)
    reader = Store(path, read_only=True)  # a second connection of this process: its header read again
    writer = Store(path, create=False)  # and a third
    assert reader.head("m1")[0] == 1
    subprocess.run([sys.executable, "-c", NOTE, str(path)], check=True)
    writer.append("m1", 3, [NoteAdded(text="ours")], actor="h", recorded_at=T)
    subprocess.run([sys.executable, "-c", NOTE, str(path)], check=True)
    # Everyone sees one log: had the other process deleted the WAL, our connections would
    # go on in a file of their own and the others would never see seq 3.
    assert [r.seq for r in reader.rows("m1")] == [1, 2, 3, 4]
    outside = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from matchledger.ledger.store import Store;"
            "print(Store(sys.argv[1], read_only=True).head('m1')[0])",
            str(path),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    assert outside.stdout.strip() == "4"
    for store in (first, reader, writer):
        store.close()
