"""Words for text output: counts with the right plural, values written as a host types
them on the command line (``true``, ``1:1,2:3``) or as JSON, never as a Python repr
(``True``, ``{'1': 1}``, ``None``), and what the games announce (awards, lists of names
and cells) as the messages of every game word it."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 command``, ``0 commands``, ``2 discrepancies`` (``many`` for an irregular plural)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def json_text(value: Any) -> str:
    """``value`` as compact JSON, non-ASCII text as itself: ``null``, ``true``, ``"abc"``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def notation(value: Any) -> str:
    """An option's value as a host types it after ``--option KEY=``: ``true``/``false``,
    numbers and text as they are, a map as ``KEY:VALUE,…`` (``row_points=1:1,2:3``), a
    list as ``A,B``; anything else as JSON."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, dict) and all(not isinstance(v, (dict, list)) for v in value.values()):
        return ",".join(f"{key}:{notation(v)}" for key, v in value.items())
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list)) for v in value):
        return ",".join(notation(v) for v in value)
    return json_text(value)


def options_text(options: dict[str, Any]) -> str:
    """``KEY=VALUE`` pairs as a host types them, separated by spaces."""
    return " ".join(f"{key}={notation(value)}" for key, value in options.items())


_AWARDS = {
    "tol": lambda n: f"ToL {n}/4",
    "tol_shard": lambda n: f"+{plural(n, 'bonus shard')} on the ToL",
    "shards": lambda n: plural(n, "shard"),
    "mark": lambda n: "Mark of Elimination",
    "ec": lambda n: "EC",
}


def award(entry: dict) -> str:
    """``{"kind": "tol", "shards": 3, "reason": "rank 1"}`` -> ``ToL 3/4 (rank 1)``; a
    reason that only repeats the award (pw's public ``EC``) is left out."""
    kind: Any = entry.get("kind")  # as the JSON has it: any value, None when it has none
    reason = str(entry.get("reason") or "")
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


def contract_words(game: str | None) -> dict[str, str]:
    """{contract: its whole name} of the contracts ``game`` calls otherwise than by the
    name it records (its text module's ``CONTRACT_WORDS``: a pact, say)."""
    if not game:
        return {}
    from .games import presentation_module  # the registry, only once a contract is worded

    own = presentation_module(game, "text")
    return dict(getattr(own, "CONTRACT_WORDS", {}) or {})


def contract(entry: dict, game: str | None = None) -> str:
    """A contract result's contract in words: ``lights``, ``supremacy pact``,
    ``sabotage pact on gus`` (the whole names from ``game``'s ``CONTRACT_WORDS``)."""
    name = str(entry.get("contract"))
    words = contract_words(game).get(name, name)
    return f"{words} on {entry['target']}" if "target" in entry else words


def contract_result(entry: dict, game: str | None = None) -> str:
    """``{"contract": "lights", "succeeded": false}`` -> ``lights failed``."""
    return f"{contract(entry, game)} {'succeeded' if entry.get('succeeded') else 'failed'}"


def contracts_by_participant(results: list[dict], game: str | None = None) -> list[str]:
    """One line per player holding a contract, ``name: lights failed; supremacy pact
    succeeded``, in the order of the list (the canonical one)."""
    held: dict[str, list[str]] = {}
    for entry in results:
        held.setdefault(str(entry.get("participant")), []).append(contract_result(entry, game))
    return [f"{name}: {'; '.join(words)}" for name, words in held.items()]


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
