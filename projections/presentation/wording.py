"""Words for what the games announce, shared by the messages of every game: awards,
lists of names and cells, counts."""

from __future__ import annotations

from collections import Counter

_AWARDS = {
    "tol": lambda n: f"ToL {n}/4",
    "tol_shard": lambda n: f"+{n} bonus shard{'s' if n != 1 else ''} on the ToL",
    "shards": lambda n: f"{n} shard{'s' if n != 1 else ''}",
    "mark": lambda n: "Mark of Elimination",
    "ec": lambda n: "EC",
}


def award(entry: dict) -> str:
    """``{"kind": "tol", "shards": 3, "reason": "rank 1"}`` -> ``ToL 3/4 (rank 1)``; a
    reason that only repeats the award (pw's public ``EC``) is left out."""
    kind, reason = entry.get("kind"), str(entry.get("reason") or "")
    words = _AWARDS.get(kind, lambda n: str(kind))(entry.get("shards", 0))
    if reason and reason.lower() not in words.lower():
        words += f" ({reason})"
    return words


def awards_by_participant(awards: list[dict], order: list[str]) -> list[str]:
    """One line per participant holding an award, ``name: award; award``, in ``order``
    (then anyone else in the order of the list)."""
    held: dict[str, list[str]] = {}
    for entry in awards:
        held.setdefault(str(entry.get("participant")), []).append(award(entry))
    names = [name for name in order if name in held] + [name for name in held if name not in order]
    return [f"{name}: {'; '.join(held[name])}" for name in names]


def items(values: list) -> str:
    """``A B C``, each repeated one written once with its count: ``H4 (2)``."""
    counts = Counter(values)
    seen: list = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return " ".join(f"{value} ({counts[value]})" if counts[value] > 1 else str(value) for value in seen)


def names(values: list[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cat``."""
    values = [str(value) for value in values]
    if len(values) <= 1:
        return "".join(values)
    return f"{', '.join(values[:-1])} and {values[-1]}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"
