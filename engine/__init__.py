"""The rules: one module or package per game, pure functions, no I/O.

The game protocol (see :class:`engine.base.BaseGame`)::

    game = engine.get("lca")
    [created] = game.create(CreateMatch(...))          # validate a new match
    state = game.initial(match_id, created)             # the state before any move
    events = game.decide(state, command)                # validate a command -> new events
    state = game.apply(state, seq, event)               # fold one event into the state
    game.status/scores/outcome/reveals(state, view)     # read models for a View
    game.knowledge(state, participant)                  # one participant's allow-listed view

``decide`` raises :class:`ledger.errors.MalformedInput` or
:class:`ledger.errors.IllegalMove` and never mutates; ``apply`` never raises on an
event ``decide`` produced.  Games are looked up by name in a lazy registry so that the
CLI imports only the game it needs.
"""

from __future__ import annotations

import importlib

from matchledger.ledger.errors import MalformedInput

_REGISTRY = {
    "lca": ("matchledger.engine.lca", "GAME"),
    "pw": ("matchledger.engine.pw", "GAME"),
    "photographer": ("matchledger.engine.photographer", "GAME"),
}



def register(name: str, module: str, attr: str = "GAME") -> None:
    """Make another game available by name (a plug-in, or a test's toy game)."""
    _REGISTRY[name] = (module, attr)


def names() -> list[str]:
    """Every registered game's name, in registration order."""
    return list(_REGISTRY)


def get(name: str):
    """The game object registered under ``name``."""
    try:
        module_name, attr = _REGISTRY[name]
    except KeyError:
        raise MalformedInput(f"unknown game {name!r} (games: {', '.join(_REGISTRY)})") from None
    return getattr(importlib.import_module(module_name), attr)
