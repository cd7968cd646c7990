"""The one fold: replay a match's events through its game into a state.

The CLI, the tests, the auditor and the benchmarks all use :func:`replay` (or the
incremental :class:`Replayer`, which must give the same state as a full rebuild).
:class:`InMemoryMatch` decides and folds with no database; :func:`play` drives one
through a game's random legal match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from matchledger import engine
from matchledger.engine.game import Decision, Game
from matchledger.engine.sample import Sample
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import CorruptLog, GameNotInstalled, MatchledgerError
from matchledger.ledger.events import Event, MatchCreated


class Replayer:
    """Folds events one at a time; ``state`` is always the state after the last one."""

    def __init__(self, match_id: str):
        self.match_id = match_id
        # both None until the match's first event is folded (or ``resume`` sets them)
        self.state: MatchState | None = None
        self.game: Game | None = None

    @classmethod
    def resume(cls, state: MatchState) -> Replayer:
        """A replayer that carries on from ``state`` (a snapshot's), as if it had folded
        the events up to ``state.last_seq`` itself."""
        replayer = cls(state.match_id)
        replayer.state = state
        replayer.game = engine.get(state.game)
        return replayer

    @property
    def last_seq(self) -> int:
        return 0 if self.state is None else self.state.last_seq

    def feed(self, seq: int, event: Event, work: Any = None) -> MatchState:
        """Fold ``event``; ``work``: what deciding it already worked out (the decision's)."""
        return self._guarded(seq, event, rederive=False, work=work)

    def feed_and_rederive(self, seq: int, event: Event) -> Event | None:
        """Feed ``event``; for an announcement, also return what the engine itself would
        have recorded in its place (one resolution serves both: verify's single pass)."""
        return self._guarded(seq, event, rederive=True)

    def decision_for(self, seq: int, event: Event) -> Decision | None:
        """The decision, against the state now, of the command that would have recorded
        ``event`` (at ``seq``) first (None: ``event`` only ever follows another's; see
        ``Game.recorded_command``).  Raises the rules' refusal."""
        game, state = self._started()
        self._check_seq(seq, state)
        try:
            command = game.recorded_command(state, event)
            return None if command is None else game.decision(state, command)
        except MatchledgerError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise CorruptLog(
                f"match {self.match_id!r} seq {seq}: {type(event).__name__} cannot be decided again "
                f"({type(exc).__name__}: {exc})"
            ) from None

    def _guarded(self, seq: int, event: Event, rederive: bool, work: Any = None):
        try:
            if rederive and self.state is not None:
                game, state = self._started()
                self._check_seq(seq, state)
                return game.apply_and_rederive(state, seq, event)
            return self._feed(seq, event, work)
        except (CorruptLog, GameNotInstalled):
            raise
        except MatchledgerError as exc:
            # The rules refusing a recorded event as they fold it (a cell that is no
            # cell, in a log no command wrote): the log is corrupt there, said with its seq.
            raise CorruptLog(
                f"match {self.match_id!r} seq {seq}: {type(event).__name__} cannot be replayed: {exc}"
            ) from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            # A well-hashed log can still hold events no engine would have produced
            # (written by hand, or by a buggy tool): that is a corrupt log, said plainly.
            raise CorruptLog(
                f"match {self.match_id!r} seq {seq}: {type(event).__name__} cannot be replayed "
                f"({type(exc).__name__}: {exc})"
            ) from None

    def _feed(self, seq: int, event: Event, work: Any) -> MatchState:
        if self.state is None:
            if not isinstance(event, MatchCreated) or seq != 1:
                raise CorruptLog(
                    f"match {self.match_id!r} does not start with MatchCreated at seq 1 (seq {seq}: {type(event).__name__})"
                )
            if event.game not in engine.names():
                raise GameNotInstalled(self.match_id, event.game, engine.names())
            self.game = engine.get(event.game)
            self.state = self.game.initial(self.match_id, event)
            self.state.last_seq = seq
            return self.state
        game, state = self._started()
        self._check_seq(seq, state)
        return game.apply(state, seq, event, work)

    def _started(self) -> tuple[Game, MatchState]:
        """The game and the state, once the first event is folded (``_feed`` and
        ``resume`` set them together; every caller has folded it)."""
        assert self.game is not None and self.state is not None, "no event folded yet"
        return self.game, self.state

    def _check_seq(self, seq: int, state: MatchState) -> None:
        if seq != state.last_seq + 1:
            raise CorruptLog(f"match {self.match_id!r}: seq {seq} follows seq {state.last_seq}")

    def feed_all(self, pairs: Iterable[tuple[int, Event]]) -> MatchState | None:
        for seq, event in pairs:
            self.feed(seq, event)
        return self.state


def replay(match_id: str, pairs: Iterable[tuple[int, Event]], upto: int | None = None) -> MatchState:
    """The state after every event (or after event ``upto``) of ``pairs`` (seq, event)."""
    replayer = Replayer(match_id)
    for seq, event in pairs:
        if upto is not None and seq > upto:
            break
        replayer.feed(seq, event)
    if replayer.state is None:
        raise CorruptLog(f"match {match_id!r} has no events")
    return replayer.state


class InMemoryMatch:
    """A match kept in memory: decide + apply with no database.  For engine tests,
    property tests and benchmarks that generate matches."""

    def __init__(self, create_cmd):
        self.game = engine.get(create_cmd.game)
        self.events: list[Event] = list(self.game.create(create_cmd))
        self.commands: list = []  # every command done, in order (``events`` came of them)
        self.replayer = Replayer(create_cmd.match_id)
        self.replayer.feed(1, self.events[0])

    @property
    def state(self) -> MatchState:
        state = self.replayer.state
        assert state is not None  # the creation was folded in __init__
        return state

    def do(self, cmd) -> list[Event]:
        decision = self.game.decision(self.state, cmd)
        self.commands.append(cmd)
        for event, work in zip(decision.events, decision.work):
            self.events.append(event)
            self.replayer.feed(len(self.events), event, work)
        return decision.events

    def pairs(self) -> list[tuple[int, Event]]:
        return list(enumerate(self.events, start=1))


def play(sample: Sample, observe: Callable[[InMemoryMatch], None] | None = None, limit: int = 10_000) -> InMemoryMatch:
    """Play a game's random legal match (``game.sample(rng, ...)``) in memory until it
    offers no next command; ``observe(match)`` once created and after every command.  A
    sample still going after ``limit`` commands has a bug: RuntimeError."""
    match = InMemoryMatch(sample.create)
    if observe is not None:
        observe(match)
    for _ in range(limit):
        command = sample.next_command(match.state)
        if command is None:
            return match
        match.do(command)
        if observe is not None:
            observe(match)
    raise RuntimeError(f"a sample of {sample.create.game!r} did not end within {limit} commands")
