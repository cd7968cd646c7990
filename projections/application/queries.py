"""Reading matches: where each stands, its read models in one view, its log, its history.

Every read goes through the reader (the chain checked up to what is shown, a snapshot
used only when the log vouches for it: :mod:`..reading`), and a query that needs several
read models reads them all from one state, folded once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from matchledger.engine.rounds import RoundsGame
from matchledger.engine.state import HOST, PUBLIC, MatchState, View
from matchledger.ledger.codec import decode_json
from matchledger.ledger.errors import (
    CorruptLog,
    GameNotInstalled,
    IllegalMove,
    InvalidParameter,
    OutsideLog,
    VerificationFailed,
)
from matchledger.ledger.events import DeadlineSet, Event, OutcomeAnnounced, RoundClosed, StateCheckpointed, TurnResolved
from matchledger.ledger.log_store import StoredEvent

from ..deadlines import is_past
from ..fold import Replayer, replay
from ..lateness import is_late
from ..public_head import ViewHeads, view_heads
from ..read_models import Readings, ReadModel, read_view
from ..reading import Cursor
from ..supersession import fates
from ..views import event_view, resolve_view
from .results import Announced, Due, LogReading, MatchSummary, Reading
from .wiring import Wiring, game_of


class Queries:
    """What hosts, participants, the public and auditors read of the matches (each
    method's contract is written on the facade, ``Application``)."""

    def __init__(self, wiring: Wiring):
        self._wiring = wiring

    # ------------------------------------------------------------------ matches

    def match_ids(self) -> list[str]:
        return self._wiring.store.match_ids()

    def list_matches(self) -> list[MatchSummary]:
        summaries = []
        reader = self._wiring.reader
        for match_id in self._wiring.store.match_ids():
            try:
                cursor = reader.cursor(match_id)
            except (VerificationFailed, CorruptLog) as exc:
                summaries.append(MatchSummary(match_id, problem=str(exc), error=exc))
                continue
            except GameNotInstalled as exc:  # listed, and nothing the matter with its log
                summaries.append(MatchSummary(match_id, exc.game, not_installed=str(exc)))
                continue
            state = cursor.state
            game = game_of(state)
            over = state.finished or game.play_is_over(state)
            summaries.append(
                MatchSummary(
                    match_id,
                    state.game,
                    list(state.players),
                    game.ROUND_WORD,
                    None if over else state.round,
                    state.finished,
                    None if state.abandoned is None else state.abandoned[0],
                    (cursor.seq, cursor.hash),
                )
            )
            reader.forget(match_id)  # a sweep over every match keeps none of their states
        return summaries

    def due(self, now: str) -> list[Due]:
        # Read from each match's kept state (a snapshot, or the last one read): a door
        # with a clock asks this often, and only a state's open round and deadline count.
        found = []
        for match_id in self._wiring.store.match_ids():
            try:
                state = self._wiring.reader.cursor(match_id).state
            except (VerificationFailed, CorruptLog, GameNotInstalled):
                continue  # `list` and `verify` name it; nothing is closed on a log no one can vouch for
            deadline = state.deadline()
            game = game_of(state)
            if (
                deadline is None
                or state.finished
                or state.abandoned is not None
                or game.play_is_over(state)
                or not is_past(deadline, now)
            ):
                continue
            missing = game.waiting_for(state)
            closable = isinstance(game, RoundsGame) and (not missing or game.ALL_MUST_SUBMIT is None)
            found.append(Due(match_id, game.ROUND_WORD, state.round, deadline, missing, closable))
        return found

    def head(self, match_id: str) -> tuple[int, str]:
        last = self._wiring.reader.checked(match_id)[0][-1]
        return last.seq, last.hash

    def change_token(self) -> object:
        return self._wiring.store.data_version()

    def view_heads(self, match_id: str, carried: ViewHeads | None = None) -> ViewHeads:
        reader = self._wiring.reader
        before = reader.kept(match_id)
        # Read afresh, as a new read reads it: a row edited behind the ledger's back is
        # refused, not only rows added after the kept state.
        reader.forget(match_id)
        cursor = reader.cursor(match_id)
        return self._carried(match_id, carried, before, cursor) or self._classified(match_id, cursor.seq)

    def _carried(self, match_id: str, known: ViewHeads | None, before: Cursor | None, now: Cursor) -> ViewHeads | None:
        """``known`` carried on to ``now``'s head through the state ``before`` holds (the
        same event), or None when it cannot be: nothing kept, or the log no longer
        continues from it (then every event is classified again from the first)."""
        if (
            known is None
            or before is None
            or (before.seq, before.hash) != (known.seq, known.hash)
            or now.seq < known.seq
        ):
            return None
        rows = self._wiring.store.rows(match_id, after=known.seq, upto=now.seq)
        try:
            events = before.check(rows)  # they continue the chain from the event classified last
        except (VerificationFailed, CorruptLog):
            return None
        replayer = before.replayer
        for row, (seq, event) in zip(rows, events):
            known.feed(row, event, replayer.state)  # the state before it
            replayer.feed(seq, event)
        return known if (known.seq, known.hash) == (now.seq, now.hash) else None

    def _classified(self, match_id: str, upto: int) -> ViewHeads:
        """Which events up to ``upto`` each non-host view may know of, from the whole
        checked log: the public head and each participant's (``public_head.py``)."""
        rows, events = self._wiring.reader.checked(match_id, upto)
        replayer = Replayer(match_id)

        def steps():
            for row, (seq, event) in zip(rows, events):
                yield row, event, replayer.state  # the state before it: folded only once it is classified
                replayer.feed(seq, event)

        return view_heads(match_id, steps())

    def _check_at(self, match_id: str, at: int | None) -> None:
        """``at`` must name an event of the match."""
        store = self._wiring.store
        head = store.head(match_id)
        if head is None:
            raise store.unknown_match(match_id)
        last = head[0]
        if at is not None and not 1 <= at <= last:
            raise OutsideLog(match_id, at, last)

    # ------------------------------------------------------------------ read models

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        return self._wiring.reader.state(match_id, at)

    def query(
        self,
        match_id: str,
        models: Iterable[ReadModel] | None = None,
        *,
        public: bool = False,
        participant: str | None = None,
        at: int | None = None,
    ) -> Readings:
        state = self.state(match_id, at)
        return read_view(state, resolve_view(state, public=public, participant=participant), models)

    def choices(self, match_id: str, participant: str, at: int | None = None) -> dict | None:
        state = self.state(match_id, at)
        state.require_participant(participant)
        return game_of(state).choices(state, participant)

    def explain(self, match_id: str, participant: str, at: int | None = None) -> Reading:
        state = self.state(match_id, at)
        state.require_participant(participant)
        return Reading(state, HOST, game_of(state).explain(state, participant))

    # ------------------------------------------------------------------ the log, event by event

    def log(
        self,
        match_id: str,
        at: int | None = None,
        *,
        public: bool = False,
        participant: str | None = None,
        models: Iterable[ReadModel] | None = (),
    ) -> LogReading:
        self._check_at(match_id, at)
        view = resolve_view(self.state(match_id), public=public, participant=participant)
        entries: list[tuple[StoredEvent, dict]] = []
        reached: MatchState | None = None
        late: set[int] = set()
        for row, after, shown in self._fold(match_id, view, at, late):
            reached = after
            if shown is not None:
                entries.append((row, shown))
        assert reached is not None  # the reader refuses a match without events
        state = reached
        marks = fates(state, view, ((row.seq, row.kind) for row, _shown in entries))
        shown_late = frozenset(row.seq for row, _shown in entries if row.seq in late)  # only what the view sees
        return LogReading(view, entries, marks, read_view(state, view, models), shown_late)

    def history(
        self, match_id: str, *, public: bool = False, participant: str | None = None
    ) -> tuple[View, Iterator[tuple[StoredEvent, MatchState, dict]]]:
        view = resolve_view(self.state(match_id), public=public, participant=participant)
        steps = ((row, state, shown) for row, state, shown in self._fold(match_id, view) if shown is not None)
        return view, steps

    def _fold(
        self, match_id: str, view: View, at: int | None = None, late: set[int] | None = None
    ) -> Iterator[tuple[StoredEvent, MatchState, dict | None]]:
        """Every event of the checked log up to ``at``, with the state right after it and
        what ``view`` may see of it (None: nothing, it is not theirs to know of), in one
        fold from the first event; ``late`` gathers the seqs of late submissions."""
        rows, events = self._wiring.reader.checked(match_id, at)
        replayer = Replayer(match_id)
        for row, (seq, event) in zip(rows, events):
            if late is not None and is_late(row, event, replayer.state):
                late.add(seq)
            shown = decode_json(row.body) if view.is_host else event_view(view, event, replayer.state)
            yield row, replayer.feed(seq, event), shown

    # ------------------------------------------------------------------ what to send

    def announced(
        self,
        match_id: str,
        round_no: int | None = None,
        at: int | None = None,
        *,
        public: bool = False,
        participant: str | None = None,
    ) -> Announced:
        # The rows are read once: the state at ``at`` says which rounds stand closed, and
        # the state the close left is folded from the same events.
        self._check_at(match_id, at)
        events = self._wiring.reader.checked(match_id, at)[1]
        state = replay(match_id, events)
        view = resolve_view(state, public=public, participant=participant)
        closed = sorted(set(state.announcements) | {turn.turn for turn in state.turns})
        game = game_of(state)
        word = game.ROUND_WORD
        if not closed:
            raise IllegalMove(f"no {word} of {match_id!r} is closed yet: there is nothing to send")
        round_no = closed[-1] if round_no is None else round_no
        if round_no not in closed:
            problem = f"{word} {round_no} of {match_id!r} is not closed ({word}s closed: {_spans(closed)})"
            raise InvalidParameter("round", round_no, problem)
        seq = _closed_at(events, round_no)
        if seq != state.last_seq:
            state = replay(match_id, events, upto=seq)
        earlier = _closed_before(events, round_no, seq)  # the close this one replaces, if any
        if view.is_host:
            guests = sorted(p for p in state.participants if p not in state.players)
            names = sorted(state.players) + guests
        else:
            names = [] if view.participant is None else [view.participant]
        return Announced(
            match=match_id,
            game=state.game,
            round=round_no,
            seq=seq,
            public=None if view.participant is not None else game.reveals(state, PUBLIC),
            knowledge={name: game.knowledge(state, name) for name in names},
            earlier_seq=earlier if view.participant is None else None,
            earlier_public=(
                game.reveals(replay(match_id, events, upto=earlier), PUBLIC)
                if earlier is not None and view.participant is None
                else None
            ),
            deadline=game.deadline_status(state),
        )


def _closed_at(events: list[tuple[int, Event]], round_no: int) -> int:
    """The seq of the last event recorded with the close of round (or turn) ``round_no``
    still standing at the end of ``events``: the close itself, then the outcome,
    checkpoint and scheduled deadline the same command records after it."""
    closes = [
        index
        for index, (_seq, event) in enumerate(events)
        if (isinstance(event, RoundClosed) and event.round == round_no)
        or (isinstance(event, TurnResolved) and event.turn == round_no)
    ]
    index = closes[-1]
    # (and a deadline set right after it: the next round's, which the messages announce)
    while index + 1 < len(events) and isinstance(
        events[index + 1][1], (OutcomeAnnounced, StateCheckpointed, DeadlineSet)
    ):
        index += 1
    return events[index][0]


def _closed_before(events: list[tuple[int, Event]], round_no: int, seq: int) -> int | None:
    """The seq `messages` gave the close of round (or turn) ``round_no`` before the one
    at ``seq`` (a round reopened and closed again), None where it was closed once."""
    earlier = [
        index
        for index, (at, event) in enumerate(events)
        if at <= seq
        and (
            (isinstance(event, RoundClosed) and event.round == round_no)
            or (isinstance(event, TurnResolved) and event.turn == round_no)
        )
    ]
    if len(earlier) < 2:
        return None
    index = earlier[-2]
    while index + 1 < len(events) and isinstance(events[index + 1][1], (OutcomeAnnounced, StateCheckpointed)):
        index += 1
    return events[index][0]


def _spans(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``1-3, 5``."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][-1] + 1:
            spans[-1].append(number)
        else:
            spans.append([number])
    return ", ".join(f"{span[0]}-{span[-1]}" if len(span) > 1 else str(span[0]) for span in spans)
