"""The hook store: the hooks a host added and their deliveries (ledger/hooks.py), in
tables beside the capabilities, never in the log.

Made by migrations (SQLite 4, PostgreSQL 3): a read of a database from before them finds
no hook.  A removed hook keeps its row (stamped) and its deliveries; rows of deliveries
are claimed once, then only updated: each attempt added, and the claim renewed or taken
over (compared and set on ``claimed_at``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .hooks import Attempt, Delivery, Hook


class HookStore(ABC):
    """Hooks by id, and their deliveries by (hook, match, seq, kind)."""

    @abstractmethod
    def save_hook(self, hook: Hook) -> None:
        """Keep ``hook`` (its id is new: ids are random), in the open transaction if any."""

    @abstractmethod
    def hook(self, hook_id: str) -> Hook | None:
        """The hook of this id, removed or not (None: none)."""

    @abstractmethod
    def hooks(self, match_id: str | None = None) -> list[Hook]:
        """Every hook (of ``match_id``, or of any match), removed or not, in the order
        they were added (then by id)."""

    @abstractmethod
    def remove_hook(self, hook_id: str, removed_at: str) -> Hook | None:
        """Stamp the hook removed (if it is not yet); the hook as it now stands (None:
        no such hook)."""

    @abstractmethod
    def claim_delivery(self, delivery: Delivery) -> bool:
        """Insert ``delivery``'s row unless one of its (hook, match, seq, kind) is
        there: whether this call claimed it (of two processes, exactly one does)."""

    @abstractmethod
    def take_over(self, delivery: Delivery, claimed_at: str) -> Delivery | None:
        """Set the claim of ``delivery`` to ``claimed_at`` if it is still pending and its
        ``claimed_at`` is still the one given (nobody renewed or took it over since): the
        delivery as it now stands, its attempts included (None: someone else holds it,
        or it is no longer pending).  Of two processes, at most one gets it."""

    @abstractmethod
    def record_attempt(self, delivery: Delivery, attempt: Attempt, state: str) -> Delivery:
        """Add ``attempt`` to the claimed ``delivery`` and set its state; the delivery as
        it now stands."""

    @abstractmethod
    def deliveries(self, hook_id: str) -> list[Delivery]:
        """The hook's deliveries, by match, then seq, then kind."""
