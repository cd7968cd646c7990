"""Lights, Camera, Action! -- the ``lca`` game engine (rules: engine/lca/rules.md).

Modules: ``studio`` (map, cell names, reading order), ``lights`` (L2 placement, L3
illumination, lights score), ``cameras`` (L4, camera score), ``actions`` (merge, L5
diamond, line, distance), ``filming``, ``endgame`` (L1 ranking, ToLs, L6, ECs,
contracts), ``submissions`` (validation), ``views`` (read models), ``explain`` (a
player's score line by line), ``game`` (the game of three rounds).

Decisions where the rules leave room (each also noted at its code):
- Round 1's public ``brightness`` is a dict {cell: level} of every cell with level >= 1,
  in reading order (walls and dark cells omitted).
- Brightness is fixed when Round 1 closes, under ``options_for(1)``; an amendment of
  ``lights_light_lights`` from a later round changes nothing.  Round 3 (actions and
  filming) uses ``options_for(3)``.
- Award order: ranking ToLs in rank order, each followed by its bonus shards (lights,
  camera, action -- so under L6 the later category's shard is the one lost); the
  filming ToL; contract awards in rank order; ECs (lowest rank first, then the third).
- The filming 4/4 ToL counts as "a ToL from this match" for the third EC, but bonus
  shards only go onto a ranking ToL.
- With 2 or 3 players the "two lowest-ranked" ECs are taken literally (they may hold a ToL).
"""

__all__ = ["GAME", "LcaGame"]


def __getattr__(name: str):
    # The rules load when first asked for, not with the package: the game's spec
    # (``.spec``) is read at every start-up and must import nothing of them.
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
