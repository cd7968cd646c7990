"""Views: choosing who is looking, and every read model of a match in every view."""

from __future__ import annotations

from matchledger.engine.state import HOST, PUBLIC, MatchState, View, as_participant
from matchledger.ledger.errors import MalformedInput

from matchledger import engine


def resolve_view(state: MatchState, *, public: bool = False, participant: str | None = None) -> View:
    """The host's view, the public's, or that of ``participant`` (who must be one)."""
    if public and participant:
        raise MalformedInput("give either --public or --as PARTICIPANT, not both")
    if public:
        return PUBLIC
    if participant:
        return as_participant(state.require_participant(participant, flag="--as"))
    return HOST


def all_read_models(state: MatchState) -> dict[str, object]:
    """Every read model in every view, keyed by a stable name: what `diff` compares and
    what the privacy harnesses sweep."""
    game = engine.get(state.game)
    models: dict[str, object] = {}
    for view in (HOST, PUBLIC):
        for name in ("status", "scores", "outcome", "reveals"):
            models[f"{name}:{view.label()}"] = getattr(game, name)(state, view)
    for participant in state.participants:
        models[f"knowledge:{participant}"] = game.knowledge(state, participant)
    return models
