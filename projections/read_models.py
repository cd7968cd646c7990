"""The read models of a match, as a type.

Every place that names a read model (the views, the application, the command line's read
commands, the service, the pictures, the pinned histories) names it as a
:class:`ReadModel`; :func:`read_view` is the one place a game is asked for one, through
the methods :class:`GameViews` describes (``engine/game.py``'s read models), so no name
is ever looked up as an attribute.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol, assert_never, runtime_checkable

import msgspec

from matchledger import engine
from matchledger.engine.state import MatchState, View
from matchledger.ledger.errors import MalformedInput


class ReadModel(StrEnum):
    """A read model, named as the command line's read commands and the JSON API name it."""

    STATUS = "status"
    SCORES = "scores"
    OUTCOME = "outcome"
    REVEALS = "reveals"
    KNOWLEDGE = "knowledge"  # one participant's own: read only in that participant's view


#: The read models every view has (the host's, the public's, a participant's), in the
#: order `diff` and the privacy harnesses list them.
IN_EVERY_VIEW: tuple[ReadModel, ...] = (ReadModel.STATUS, ReadModel.SCORES, ReadModel.OUTCOME, ReadModel.REVEALS)


def models_of(view: View) -> tuple[ReadModel, ...]:
    """Every read model ``view`` has: those of every view, and a participant's knowledge."""
    return IN_EVERY_VIEW + ((ReadModel.KNOWLEDGE,) if view.participant is not None else ())


@runtime_checkable
class GameViews(Protocol):
    """What a game offers to read a match by (``engine.game.Game``'s read models): each
    built from the state for one view, and nothing else."""

    def status(self, state: MatchState, view: View) -> dict: ...

    def scores(self, state: MatchState, view: View) -> dict: ...

    def outcome(self, state: MatchState, view: View) -> dict: ...

    def reveals(self, state: MatchState, view: View) -> dict: ...

    def knowledge(self, state: MatchState, participant: str) -> dict: ...


def read_model(game: GameViews, model: ReadModel, state: MatchState, view: View) -> dict:
    """Read model ``model`` of ``state`` in ``view``, as ``game`` gives it."""
    match model:
        case ReadModel.STATUS:
            return game.status(state, view)
        case ReadModel.SCORES:
            return game.scores(state, view)
        case ReadModel.OUTCOME:
            return game.outcome(state, view)
        case ReadModel.REVEALS:
            return game.reveals(state, view)
        case ReadModel.KNOWLEDGE:
            if view.participant is None:
                raise MalformedInput(f"{model} is one participant's: read it in that participant's view")
            return game.knowledge(state, view.participant)
    assert_never(model)


class Readings(msgspec.Struct, frozen=True):
    """Read models of a match in one view, every one from the same state: the match
    ``match`` (of ``game``) as it stood after event ``seq``."""

    match: str
    game: str
    seq: int
    view: View
    data: dict[ReadModel, dict]

    def __getitem__(self, model: ReadModel) -> dict:
        return self.data[model]

    def as_dict(self) -> dict:
        """The readings as pictures, pages and the replay page draw them: where and how
        the match is seen, then each read model by name (in the order they were read)."""
        view = self.view
        return {
            "match": self.match,
            "game": self.game,
            "seq": self.seq,
            "view": {"kind": view.kind, "participant": view.participant, "label": view.label()},
            **{model.value: data for model, data in self.data.items()},
        }


def read_view(
    state: MatchState, view: View, models: Iterable[ReadModel] | None = None, *, game: GameViews | None = None
) -> Readings:
    """Read models ``models`` (by default every one ``view`` has) of ``state`` in ``view``,
    all from that one state (``game``: the match's rules, if already at hand)."""
    rules: GameViews = engine.get(state.game) if game is None else game
    wanted = models_of(view) if models is None else tuple(models)
    return Readings(
        state.match_id,
        state.game,
        state.last_seq,
        view,
        {model: read_model(rules, model, state, view) for model in wanted},
    )
