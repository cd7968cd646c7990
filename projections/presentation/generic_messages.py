"""The messages of a game that has no ``messages`` module of its own (:mod:`.games`):
the public post and each participant's message after a close, in words every game
shares.

As a game's own module does, each message is taken from one read model alone: the
public post from `reveals --public`, a participant's from their `knowledge`.  Knowing no
game, it reads only the shape the games' read models share: a list of entries, each
with its ``round`` and what was announced to all (``public``) and to the viewer alone
(``private``), found at the top of the read model or one level down.  A read model
without such an entry for the round is sent whole.

The JSON of a message::

    {"round": 1, "announced": {...}, "told": {...}}   # told: a participant's own part
    {"round": 1, "reveals": {...}}                     # no entry for the round: all of it
    {"round": 1, "knowledge": {...}}
"""

from __future__ import annotations

from .text import generic_text


def _entry(data, round_no: int) -> dict | None:
    """The entry of round ``round_no`` in a list of round entries at the top of ``data``
    or one level down (the first such list, in the read model's order)."""
    if not isinstance(data, dict):
        return None
    holders = [data, *(value for value in data.values() if isinstance(value, dict))]
    for holder in holders:
        for value in holder.values():
            if isinstance(value, list) and value and all(isinstance(e, dict) and "round" in e for e in value):
                return next((e for e in value if e["round"] == round_no), None)
    return None


def _parts(entry: dict) -> dict:
    if "public" in entry or "private" in entry:
        parts = {}
        if "public" in entry:
            parts["announced"] = entry["public"]
        if entry.get("private") not in (None, {}):
            parts["told"] = entry["private"]
        return parts
    return {"announced": {key: value for key, value in entry.items() if key != "round"}}


def public_message(reveals: dict, round_no: int) -> dict:
    entry = _entry(reveals, round_no)
    if entry is None:
        return {"round": round_no, "reveals": reveals}
    message = {"round": round_no, "announced": _parts(entry).get("announced", {})}
    if isinstance(reveals, dict) and reveals.get("outcome"):
        message["outcome"] = reveals["outcome"]
    return message


def participant_message(knowledge: dict, round_no: int) -> dict:
    entry = _entry(knowledge, round_no)
    if entry is None:
        return {"round": round_no, "knowledge": knowledge}
    return {"round": round_no, **_parts(entry)}


def _block(title: str, data) -> list[str]:
    if data in ({}, [], None):
        return [f"{title} nothing."]
    return [title, generic_text(data, indent=1)]


def _headline(match: str, message: dict, word: str) -> str:
    return f"{match}: {word} {message['round']} is closed."


def public_lines(match: str, message: dict, word: str = "round") -> list[str]:
    lines = [_headline(match, message, word)]
    if "reveals" in message:
        return lines + _block("Announced so far:", message["reveals"])
    lines += _block("Announced:", message["announced"])
    if "outcome" in message:
        lines += _block("Outcome:", message["outcome"])
    return lines


def participant_lines(match: str, name: str, message: dict, word: str = "round") -> list[str]:
    lines = [_headline(match, message, word)]
    if "knowledge" in message:
        return lines + _block(f"What you ({name}) know:", message["knowledge"])
    if "announced" in message:
        lines += _block("Announced to all:", message["announced"])
    lines += _block(f"Told only to you ({name}):", message.get("told"))
    return lines
