"""Named upcasters: each turns a stored body of one version into the next version.

A body is upgraded step by step (v1 → v2 → …) until it reaches the current version of
its type; the stored bytes are never rewritten, so the hash chain stays valid.  A body
whose version is not a whole number from 1 to the current one, or that lacks what its
version's upcaster needs (a "v":1 body written with the current fields), is a
:class:`CorruptLog` naming why: verify reports it as a finding, reads refuse it.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import CorruptLog

Upcaster = Callable[[dict], dict]

#: Current schema version per event type (types not listed are at version 1).
CURRENT_VERSION: dict[str, int] = {"SubmissionRecorded": 2}

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(kind: str, from_version: int):
    def register(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(kind, from_version)] = fn
        return fn

    return register


#: Every field a version 1 SubmissionRecorded was written with.
_SUBMISSION_V1_FIELDS = frozenset({"type", "v", "salt", "player", "round", "tokens"})


@upcaster("SubmissionRecorded", 1)
def submission_v1_player_to_participant(body: dict) -> dict:
    """v1 (before guests existed) named the submitter ``player`` and kept the tokens as
    one space-separated string; v2 says ``participant`` and keeps a list."""
    if "player" not in body:
        raise CorruptLog("a version 1 SubmissionRecorded names its submitter `player`, and this one has no `player`")
    foreign = sorted(set(body) - _SUBMISSION_V1_FIELDS)
    if foreign:
        # Renaming `player` would silently overwrite a `participant` it also holds: SQL
        # (json_extract) would then read one submitter and replay another.
        raise CorruptLog(
            f"a version 1 SubmissionRecorded has no field {', '.join(map(repr, foreign))} "
            f"(its fields: {', '.join(sorted(_SUBMISSION_V1_FIELDS))})"
        )
    body = dict(body)
    body["participant"] = body.pop("player")
    tokens = body.get("tokens", "")
    body["tokens"] = tokens.split() if isinstance(tokens, str) else tokens
    return body


def stored_version(body: dict) -> int:
    """The version a stored body (decoded JSON with a known ``type``) says it has: a
    whole number from 1 to its type's current version (1 when it names none)."""
    kind: str = body["type"]
    version = body.get("v", 1)
    current = CURRENT_VERSION.get(kind, 1)
    if type(version) is not int:  # bool is an int to Python, never a version
        raise CorruptLog(f'its version "v" must be a whole number, not {version!r}')
    if not 1 <= version <= current:
        newer = " (a newer matchledger's?)" if version > current else ""
        raise CorruptLog(f"{kind} has versions 1 to {current}, not {version}{newer}")
    return version


def upcast(body: dict) -> dict:
    """``body`` (decoded JSON with a known ``type``) upgraded to its type's current version."""
    kind: str = body["type"]
    version = stored_version(body)
    target = CURRENT_VERSION.get(kind, 1)
    while version < target:
        step = _UPCASTERS.get((kind, version))
        if step is None:  # a bug of ours: a version bump without its upcaster
            raise CorruptLog(f"no upcaster turns version {version} of {kind} into version {version + 1}")
        body = step(body)
        version += 1
        body["v"] = version
    return body
