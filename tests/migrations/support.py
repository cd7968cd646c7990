"""What the migration tests of both back ends check after a read or a write."""

from __future__ import annotations

from collections import Counter

from tests.helpers import invoke


def verified(db) -> list[str]:
    """What `verify --all` says of each match (exit 0), up to its count of events."""
    return [line.split(";")[0] for line in invoke(db, "verify", "--all").output.splitlines()]


def verdicts(season: dict, **more: int) -> list[str]:
    """What `verify --all` says of each match of the season, with ``more`` events of some."""
    counts = Counter(row[0] for row in season["events"])
    return [f"{match}: ok ({counts[match] + more.get(match, 0)} events" for match in sorted(counts)]
