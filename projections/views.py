"""Every read model of a match in every view, keyed by a stable name — what `diff`
compares and what privacy harnesses sweep."""

from __future__ import annotations

from matchledger import engine
from matchledger.engine.base import HOST, PUBLIC, MatchState


def all_read_models(state: MatchState) -> dict[str, object]:
    game = engine.get(state.game)
    models: dict[str, object] = {}
    for view in (HOST, PUBLIC):
        for name in ("status", "scores", "outcome", "reveals"):
            models[f"{name}:{view.label()}"] = getattr(game, name)(state, view)
    for participant in state.participants:
        models[f"knowledge:{participant}"] = game.knowledge(state, participant)
    return models
