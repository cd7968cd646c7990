"""Play a fixture script in memory (no database): its match id and (seq, event) pairs."""

from __future__ import annotations

import tempfile
from pathlib import Path

from matchledger.ledger.store import Store
from tests.helpers import invoke


def played(script: Path) -> tuple[str, list]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        invoke(db, "script", script)
        store = Store(db, create=False)
        [match_id] = store.match_ids()
        pairs = store.events(match_id)
        store.close()
    return match_id, pairs
