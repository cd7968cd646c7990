"""Words for text output: counts with the right plural, values written as a host types
them on the command line (``true``, ``1:1,2:3``) or as JSON, never as a Python repr
(``True``, ``{'1': 1}``, ``None``), and what the games announce (awards, contracts,
score headings, lists of names and cells) in the words each game declares
(:mod:`matchledger.engine.words`): the one wording of results that the text, the
messages, the panels of the pages and pictures, and the replay page all use."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from matchledger import engine
from matchledger.engine.words import ResultWords
from matchledger.ledger.errors import MatchledgerError


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


def result_words(game: str | None) -> ResultWords:
    """The words ``game`` declares for its results (none for a game not installed here,
    whose codes are then shown as they are)."""
    if not game:
        return ResultWords()
    try:
        return engine.spec(game).words
    except MatchledgerError:
        return ResultWords()


def game_title(game: str | None) -> str:
    """The game's title as its declaration gives it (``Lights, Camera, Action!``), which a
    player knows the game by; its name where it has none to give."""
    try:
        return str(engine.spec(str(game)).title or game)
    except MatchledgerError:
        return str(game)


def code_words(code: str) -> str:
    """A code a game declares no words for, as words: ``lights_score`` -> ``lights score``."""
    return str(code).replace("_", " ")


def score_label(key: str, game: str | None) -> str:
    """A score's column heading: ``good_shots`` -> ``successful shots`` as the game
    declares it, else the key as words."""
    return result_words(game).scores.get(key) or code_words(key)


def ending(code: str | None, game: str | None) -> str:
    """Why a match ended, as ``game`` declares it: ``deck_empty`` -> ``the deck is empty``."""
    return result_words(game).endings.get(str(code)) or code_words(str(code))


def scores_words(scores: dict, game: str | None) -> str:
    """A standing's scores in one line, each under its declared heading: ``rows 25,
    blurred -26, missing colours 0, successful shots 5``."""
    return ", ".join(f"{score_label(key, game)} {value}" for key, value in scores.items())


def award_words(entry: dict, game: str | None) -> str:
    """An award without its reason, as ``game`` declares it: ``ToL 3/4``, ``+1 bonus
    shard on the ToL``, ``Mark of Elimination``; a kind it declares no words for as the
    kind (with its shards, where it holds any)."""
    kind = str(entry.get("kind"))  # as the JSON has it: any value
    shards = entry.get("shards", 0)
    declared = result_words(game).award(kind, shards if isinstance(shards, int) else 0)
    if declared is not None:
        return declared
    return (
        f"{code_words(kind)} ({plural(shards, 'shard')})"
        if isinstance(shards, int) and "shards" in entry
        else code_words(kind)
    )


def award_reason(entry: dict, game: str | None) -> str:
    """Why the award was given; nothing where the reason only repeats the award (pw's
    public ``EC``, ``bonus shard``)."""
    reason = str(entry.get("reason") or "")
    return "" if reason.lower() in award_words(entry, game).lower() else reason


def award(entry: dict, game: str | None) -> str:
    """``{"kind": "tol", "shards": 3, "reason": "rank 1"}`` -> ``ToL 3/4 (rank 1)``."""
    reason = award_reason(entry, game)
    return award_words(entry, game) + (f" ({reason})" if reason else "")


def awards_by_participant(awards: list[dict], order: list[str], game: str | None) -> list[str]:
    """One line per participant holding an award, ``name: award; award``, in ``order``
    (then anyone else in the order of the list)."""
    held: dict[str, list[str]] = {}
    for entry in awards:
        held.setdefault(str(entry.get("participant")), []).append(award(entry, game))
    names = [name for name in order if name in held] + [name for name in held if name not in order]
    return [f"{name}: {'; '.join(held[name])}" for name in names]


def contract(entry: dict, game: str | None = None) -> str:
    """A contract result's contract in words: ``lights``, ``supremacy pact``,
    ``sabotage pact on gus`` (the whole names ``game`` declares)."""
    name = str(entry.get("contract"))
    words = result_words(game).contracts.get(name, name)
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
