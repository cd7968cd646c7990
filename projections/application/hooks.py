"""Hooks: the posts to the channel a host asks `serve` to make (ledger/hooks.py), kept
beside the log, never in it; which of a match's public posts each hook is owed; and
each delivery claimed once, whichever process claims it, with every attempt kept.

A hook is owed the public post of every round close (a photographer turn included) that
stands in the log and came after the hook was added (``after_seq``, the head then): a
close reopened and closed again is owed anew, at the seq of its new close.  The close
that ends the match is posted once, as ``finished`` where the hook asks for that.
"""

from __future__ import annotations

import msgspec

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.events import OutcomeAnnounced, RoundClosed, StateCheckpointed, TurnResolved
from matchledger.ledger.hooks import (
    CLOSE,
    FAILED,
    FINISHED,
    FORMATS,
    KINDS,
    PENDING,
    TURN,
    URL_MAX_LENGTH,
    Attempt,
    Delivery,
    Hook,
    lapsed,
    new_hook_id,
    new_secret,
    well_formed_url,
)

from ..fold import replay
from .wiring import Wiring

#: The longest error text kept for an attempt (what the receiver said is never kept raw).
ERROR_MAX_LENGTH = 200


class DuePost(msgspec.Struct, frozen=True):
    """A public post a hook is owed: the close (or turn) of ``round`` in ``match``, at
    ``seq`` (where `messages` gives it), posted as ``kind`` (ledger/hooks.py)."""

    match: str
    kind: str
    seq: int
    round: int


class HookStanding(msgspec.Struct, frozen=True):
    """A hook and what became of each of its deliveries (`hook list`)."""

    hook: Hook
    deliveries: list[Delivery]


class Hooks:
    """Hooks and their deliveries (each method's contract is written on the facade,
    ``Application``)."""

    def __init__(self, wiring: Wiring):
        self._wiring = wiring

    def add_hook(self, match_id: str, url: str, kinds: list[str], format: str) -> Hook:
        store = self._wiring.store
        if not well_formed_url(url):
            raise MalformedInput(
                f"{_shown(url)} is not an address to post to: http(s)://HOST[:PORT][/PATH], printable, "
                f"at most {URL_MAX_LENGTH} characters"
            )
        unknown = [kind for kind in kinds if kind not in KINDS]
        if unknown or not kinds:
            raise MalformedInput(
                f"{_shown(','.join(unknown))} is not a kind of post: give one or more of {', '.join(KINDS)}"
            )
        if format not in FORMATS:
            raise MalformedInput(f"{_shown(format)} is not a format of post: {' or '.join(FORMATS)}")
        head = self._wiring.reader.checked(match_id, None)[1]  # the match exists, its chain checked
        hook = Hook(
            hook_id=new_hook_id(),
            match_id=match_id,
            url=url,
            kinds=tuple(kind for kind in KINDS if kind in kinds),
            format=format,
            secret=new_secret(),
            after_seq=head[-1][0] if head else 0,
            created_at=self._wiring.clock(),
        )
        store.hook_store.save_hook(hook)
        return hook

    def hooks(self, match_id: str | None = None) -> list[HookStanding]:
        store = self._wiring.store
        if match_id is not None and not store.has_match(match_id):
            raise store.unknown_match(match_id)
        hook_store = store.hook_store
        return [HookStanding(hook, hook_store.deliveries(hook.hook_id)) for hook in hook_store.hooks(match_id)]

    def remove_hook(self, hook_id: str) -> tuple[Hook, bool]:
        store = self._wiring.store
        found = store.hook_store.hook(hook_id)
        if found is None:
            raise MalformedInput(f"no hook {_shown(hook_id)} in {store.location!r}; nothing removed")
        if not found.active:
            return found, False
        removed = store.hook_store.remove_hook(hook_id, self._wiring.clock())
        assert removed is not None
        return removed, True

    def due_posts(self, hook_id: str) -> list[DuePost]:
        hook_store = self._wiring.store.hook_store
        hook = hook_store.hook(hook_id)
        if hook is None or not hook.active:
            return []
        now = self._wiring.clock()
        # A claim whose lease lapsed is owed again: the `serve` holding it stopped.
        claimed = {(d.seq, d.kind) for d in hook_store.deliveries(hook_id) if not lapsed(d, now)}
        due = []
        for post in self._closes(hook.match_id):
            kind = _kind_for(hook, post)
            if kind is not None and post.seq > hook.after_seq and (post.seq, kind) not in claimed:
                due.append(DuePost(match=post.match, kind=kind, seq=post.seq, round=post.round))
        return due

    def claim_delivery(self, hook_id: str, post: DuePost) -> Delivery | None:
        hook_store = self._wiring.store.hook_store
        now = self._wiring.clock()
        delivery = Delivery(hook_id=hook_id, match_id=post.match, seq=post.seq, kind=post.kind, claimed_at=now)
        if hook_store.claim_delivery(delivery):
            return delivery
        held = next(
            (
                d
                for d in hook_store.deliveries(hook_id)
                if (d.match_id, d.seq, d.kind) == (post.match, post.seq, post.kind)
            ),
            None,
        )
        if held is None or not lapsed(held, now):
            return None  # another `serve` holds it, or it is done
        return hook_store.take_over(held, now)

    def renew_claim(self, delivery: Delivery) -> Delivery | None:
        return self._wiring.store.hook_store.take_over(delivery, self._wiring.clock())

    def record_attempt(
        self, delivery: Delivery, *, status: int | None = None, error: str | None = None, last: bool = False
    ) -> Delivery:
        attempt = Attempt(at=self._wiring.clock(), status=status, error=_bounded(error))
        state = "delivered" if attempt.succeeded else FAILED if last else PENDING
        return self._wiring.store.hook_store.record_attempt(delivery, attempt, state)

    def _closes(self, match_id: str) -> list[_Close]:
        """Every close standing in the match's log (a round's, or a photographer turn),
        at the seq `messages` gives it, and whether the match ended with it."""
        events = self._wiring.reader.checked(match_id, None)[1]
        state = replay(match_id, events)
        standing = set(state.announcements) | {turn.turn for turn in state.turns}
        found: dict[int, _Close] = {}
        for index, (_seq, event) in enumerate(events):
            if isinstance(event, RoundClosed | TurnResolved):
                number = event.round if isinstance(event, RoundClosed) else event.turn
                if number not in standing:
                    continue
                end, finished = index, False
                while end + 1 < len(events) and isinstance(events[end + 1][1], OutcomeAnnounced | StateCheckpointed):
                    end += 1
                    finished = finished or isinstance(events[end][1], OutcomeAnnounced)
                found[number] = _Close(match_id, number, events[end][0], isinstance(event, TurnResolved), finished)
        return sorted(found.values(), key=lambda close: close.seq)


class _Close:
    __slots__ = ("finished", "match", "round", "seq", "turn")

    def __init__(self, match: str, round_no: int, seq: int, turn: bool, finished: bool):
        self.match, self.round, self.seq, self.turn, self.finished = match, round_no, seq, turn, finished


def _kind_for(hook: Hook, close: _Close) -> str | None:
    """What a close is posted as to ``hook``, if the hook asks for it: the end of the
    match as ``finished`` (once, though it is a close too); a photographer turn as
    ``turn`` (asked for as ``turn`` or ``close``: a turn is that game's close)."""
    if close.finished and FINISHED in hook.kinds:
        return FINISHED
    if close.turn:
        return TURN if TURN in hook.kinds or CLOSE in hook.kinds else None
    return CLOSE if CLOSE in hook.kinds else None


def _bounded(text: str | None) -> str | None:
    """An error kept for the host to read: printable, at most ``ERROR_MAX_LENGTH`` characters."""
    if text is None:
        return None
    shown = "".join(ch if ch.isprintable() else "?" for ch in text)
    return shown if len(shown) <= ERROR_MAX_LENGTH else shown[: ERROR_MAX_LENGTH - 1] + "…"


def _shown(value: str) -> str:
    text = value if len(value) <= 80 else value[:79] + "…"
    return repr(text) if text.isprintable() else ascii(text)
