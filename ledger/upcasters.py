"""Named upcasters: each turns a stored body of one version into the next version.

A body is upgraded step by step (v1 → v2 → …) until it reaches the current version of
its type; the stored bytes are never rewritten, so the hash chain stays valid.
"""

from __future__ import annotations

from typing import Callable

Upcaster = Callable[[dict], dict]

#: Current schema version per event type (types not listed are at version 1).
CURRENT_VERSION: dict[str, int] = {"SubmissionRecorded": 2}

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(kind: str, from_version: int):
    def register(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(kind, from_version)] = fn
        return fn

    return register


@upcaster("SubmissionRecorded", 1)
def submission_v1_player_to_participant(body: dict) -> dict:
    """v1 (before guests existed) named the submitter ``player`` and kept the tokens as
    one space-separated string; v2 says ``participant`` and keeps a list."""
    body = dict(body)
    body["participant"] = body.pop("player")
    tokens = body.get("tokens", "")
    body["tokens"] = tokens.split() if isinstance(tokens, str) else tokens
    return body


def upcast(body: dict) -> dict:
    kind = body.get("type")
    version = body.get("v", 1)
    target = CURRENT_VERSION.get(kind, 1)
    while version < target:
        step = _UPCASTERS.get((kind, version))
        if step is None:
            break
        body = step(body)
        version += 1
        body["v"] = version
    return body
