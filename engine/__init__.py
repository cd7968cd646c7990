"""The rules: one package per game, pure functions of the state, no I/O.

The game protocol is :class:`matchledger.engine.game.Game` (create, decide, apply, the
read models in every view, explain, the legal choices); a game is one of two kinds,
simultaneous rounds the host closes (:mod:`.rounds`) or sequential turns resolved as
submitted (:mod:`.turns`).  Each game is declared once by a :class:`.declaration.GameSpec`,
found through the entry-point group ``matchledger.games`` (:mod:`.discovery`), the
built-in games like any other.  The registry reads the declarations on first use and
imports a game's rules only when that game is asked for (a command needs one game,
not all of them).
"""

from __future__ import annotations

import importlib

from matchledger.ledger.errors import MalformedInput

#: {name: "module:attribute"} of a spec (an entry point) or of a Game (``register``).
_TARGETS: dict[str, tuple[str, bool]] | None = None
_SPECS: dict[str, object] = {}
_REGISTERED: dict[str, tuple[str, bool]] = {}


def _targets() -> dict[str, tuple[str, bool]]:
    global _TARGETS
    if _TARGETS is None:
        from .discovery import game_entry_points

        _TARGETS = {name: (target, True) for name, target in game_entry_points().items()}
    return {**_TARGETS, **_REGISTERED}


def register(name: str, module: str, attr: str = "GAME") -> None:
    """Make a game available by name without installing it (a test's toy game): its
    module's ``attr`` is the Game, and its spec is made from the Game."""
    _REGISTERED[name] = (f"{module}:{attr}", False)
    _SPECS.pop(name, None)


def register_spec(declaration) -> None:
    """Make a game available by its :class:`.declaration.GameSpec` without installing it
    (a test's game that declares setup parameters): as an installed game's spec is."""
    _REGISTERED[declaration.name] = (declaration.engine, False)
    _SPECS[declaration.name] = declaration


def unregister(name: str) -> None:
    """Forget a game made available by :func:`register` or :func:`register_spec` (an
    installed game of the same name is found again)."""
    _REGISTERED.pop(name, None)
    _SPECS.pop(name, None)


def names() -> list[str]:
    """Every installed game's name, in discovery order (``sys.path``, then as each
    distribution lists them), then the ones registered by ``register``."""
    return list(_targets())


def spec(name: str):
    """The :class:`.declaration.GameSpec` of the game called ``name``."""
    found = _SPECS.get(name)
    if found is not None:
        return found
    targets = _targets()
    try:
        target, is_spec = targets[name]
    except KeyError:
        raise MalformedInput(f"unknown game {name!r} (games: {', '.join(targets)})") from None
    module, _, attribute = target.partition(":")
    loaded = getattr(importlib.import_module(module), attribute or "SPEC")
    if not is_spec:
        from .declaration import GameSpec

        kind = "turns" if getattr(loaded, "ROUND_WORD", "round") == "turn" else "rounds"
        loaded = GameSpec(name=name, title=name, kind=kind, engine=target, code=(module,))
    if loaded.name != name:
        raise MalformedInput(f"the game installed as {name!r} declares itself {loaded.name!r}")
    _SPECS[name] = loaded
    return loaded


def specs() -> list:
    """Every game's spec, in the order of :func:`names`."""
    return [spec(name) for name in names()]


def get(name: str):
    """The game object (its rules) registered under ``name``."""
    return spec(name).game()
