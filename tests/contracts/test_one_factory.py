"""Every store is opened through ledger/stores.py (``open_store``, ``open_pool``): the one
place a back end is chosen, so that every command, the service, the shipped suites, the
benchmarks and a game's own tests read a PostgreSQL URL as they read a file."""

from __future__ import annotations

import re

from tests.helpers import REPO

#: Code outside the ledger that may not name a back end's class or its opening.
FOLDERS = ("projections", "commands", "src", "bench", "examples")
DIRECT = re.compile(
    r"(?<![\w.])(Store|PostgresStore|PostgresPool)\(|open_for_(reading|writing)\(|ledger\.(sqlite_file|postgres_store)\b"
)
#: Opens still direct, each with who changes it (none now: keep the set, so that a
#: pending one is named here rather than hidden in the pattern).
PENDING: set[str] = set()


def direct_opens() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for folder in FOLDERS:
        for path in sorted((REPO / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if DIRECT.search(line):
                    found.setdefault(path.relative_to(REPO).as_posix(), []).append(number)
    return found


def test_no_code_outside_the_ledger_opens_a_back_end_itself():
    found = direct_opens()
    assert not set(found) - PENDING, {name: lines for name, lines in found.items() if name not in PENDING}


def test_the_pattern_finds_what_it_looks_for():
    for line in (
        "s = Store(path)",
        "PostgresStore(url)",
        "conn = open_for_reading(p, 1)",
        "from matchledger.ledger.sqlite_file import x",
    ):
        assert DIRECT.search(line), line
    for line in ("s = open_store(path)", "class LogStore(ABC):", "x.Store(", "my_Store(1)"):
        assert not DIRECT.search(line), line
