"""What the trust-boundary tests share: a match of each game on a temp database,
reading the events table as it stands, and the control characters that must never
reach a terminal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.helpers import REPO, invoke

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"

#: C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
CONTROLS = frozenset(map(chr, [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]))


def rows(db: Path) -> list[tuple]:
    """Every row of the events table (none when the file or the table is missing)."""
    if not Path(db).exists():
        return []
    with sqlite3.connect(db) as conn:
        try:
            return conn.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall()
        except sqlite3.OperationalError:
            return []


def new_lca(db: Path, match_id: str = "m1", players: str = "ann,bob,cat") -> None:
    invoke(db, "new", "lca", match_id, "--players", players, "--studio", STUDIO)


def new_pw(db: Path, match_id: str = "p1") -> None:
    invoke(db, "new", "pw", match_id, "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")


def uncontrolled(text: str, layout: str = "\n") -> set[str]:
    """The control characters in ``text`` other than those of the output's layout."""
    return {ch for ch in text if ch in CONTROLS and ch not in layout}
