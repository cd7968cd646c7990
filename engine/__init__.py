"""The rules: one package per game, pure functions of the state, no I/O.

The game protocol is :class:`matchledger.engine.game.Game` (create, decide, apply, the
read models in every view, explain); a game is one of two kinds, simultaneous rounds
the host closes (:mod:`.rounds`) or sequential turns resolved as submitted
(:mod:`.turns`).  Games are looked up by name in this registry, which imports a game's
package only when it is asked for (a command needs one game, not all of them).
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
