"""Views: choosing who is looking, what of each event they may see, and every read model
of a match in every view."""

from __future__ import annotations

import msgspec

from matchledger import engine
from matchledger.engine.state import HOST, PUBLIC, MatchState, View, as_participant
from matchledger.ledger.errors import ExclusiveParameters
from matchledger.ledger.events import (
    ContractRecorded,
    DeadlineCleared,
    DeadlineSet,
    Event,
    MatchAbandoned,
    MatchCreated,
    OutcomeAnnounced,
    RoundClosed,
    RoundReopened,
    RuleAmended,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
    TurnResolved,
    unsalted,
)

from .read_models import IN_EVERY_VIEW, ReadModel, read_model


def resolve_view(state: MatchState, *, public: bool = False, participant: str | None = None) -> View:
    """The host's view, the public's, or that of ``participant`` (who must be one)."""
    if public and participant is not None:
        raise ExclusiveParameters("public", "as")
    if public:
        return PUBLIC
    if (
        participant is not None
    ):  # an empty name too: a wrapper passing an empty variable gets an error, never the host's view
        return as_participant(state.require_participant(participant, parameter="as"))
    return HOST


def all_read_models(state: MatchState) -> dict[str, object]:
    """Every read model in every view, keyed by a stable name (``status:host``,
    ``knowledge:ann``): what `diff` compares and what the privacy harnesses sweep."""
    game = engine.get(state.game)
    models: dict[str, object] = {}
    for view in (HOST, PUBLIC):
        for model in IN_EVERY_VIEW:
            models[f"{model}:{view.label()}"] = read_model(game, model, state, view)
    for participant in state.participants:
        knowledge = read_model(game, ReadModel.KNOWLEDGE, state, as_participant(participant))
        models[f"{ReadModel.KNOWLEDGE}:{participant}"] = knowledge
    return models


def event_view(view: View, event: Event, before: MatchState | None) -> dict | None:
    """What ``view`` may see of ``event`` (``before``: the match just before it): the
    whole event for the host; for anyone else an allow-listed part, or None when the
    event is not theirs to know of at all.  Everyone sees that the match was created and
    under which rules, every close, turn, reopening and outcome (what they announced is
    in the read models, per view), every deadline, a turn taken back, and that the match was abandoned; a
    participant also sees their own submissions and contract and what became of them.
    Other people's submissions, resubmissions, voids and corrections, the host's notes,
    reasons and checkpoints are never shown: their count and timing would tell what the
    rules do not announce.  So is a forced close's reason and who was missing: the rules
    announce no such thing, so a forced close looks like any other."""
    if view.is_host:
        return msgspec.to_builtins(event)
    event = unsalted(event)  # the host's: with it a guess at a hidden body could be confirmed
    kind = type(event).__name__
    if isinstance(event, MatchCreated):
        return {
            "type": kind,
            "game": event.game,
            "players": list(event.players),
            "options": msgspec.to_builtins(event.options),
        }
    if isinstance(event, RoundClosed):
        return {"type": kind, "round": event.round, "source": event.source}
    if isinstance(event, TurnResolved):
        return {"type": kind, "turn": event.turn, "participant": event.participant}
    if isinstance(event, OutcomeAnnounced):
        return {"type": kind, "source": event.source}
    if isinstance(event, (RuleAmended, DeadlineSet, DeadlineCleared)):
        return msgspec.to_builtins(event)  # deadlines are public: everyone plays to them
    if isinstance(event, RoundReopened):
        return {"type": kind, "round": event.round}
    if isinstance(event, MatchAbandoned):
        return {"type": kind}
    me = view.participant
    if isinstance(event, (SubmissionVoided, SubmissionCorrected)) and before is not None:
        target = before.submission_at(event.target_seq)
        if target is not None and target.participant == me:
            return msgspec.to_builtins(event)
        if isinstance(event, SubmissionVoided) and target is not None and _resolved_turn(before, target):
            return {"type": kind, "target_seq": event.target_seq}  # a turn taken back: everyone saw it played
    if me is not None and isinstance(event, (SubmissionRecorded, ContractRecorded)) and event.participant == me:
        return msgspec.to_builtins(event)
    return None


def _resolved_turn(state: MatchState, submission) -> bool:
    """Whether ``submission`` is a turn everyone saw resolved (a game of turns)."""
    return any(turn.turn == submission.round and turn.participant == submission.participant for turn in state.turns)
