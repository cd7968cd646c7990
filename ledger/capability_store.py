"""The capability store: the service's links, kept by the sha256 of their tokens
(ledger/capabilities.py), in a table beside the log and never in it; and the service's
address, as `serve` recorded it for the links (ledger/service_addresses.py), in a table
beside it.

The table is made by the first invitation (a write), never by a read: a reader of a
database without it finds no capability.  Revoking stamps a row; rows are never removed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .capabilities import Capability
from .service_addresses import ServiceAddress


class CapabilityStore(ABC):
    """Capabilities issued, by token hash."""

    @abstractmethod
    def save_capability(self, capability: Capability) -> None:
        """Keep ``capability`` (its token hash is new: tokens are random), in the open
        transaction if there is one."""

    @abstractmethod
    def capability(self, token_hash: str) -> Capability | None:
        """The capability issued for the token with this hash, revoked or not (None:
        none, or nobody was ever invited)."""

    @abstractmethod
    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        """Every capability issued (for ``match_id``, or for any match), revoked or not, in
        the order they were issued (then by token hash): what `invite --list` shows, so
        a row nobody issued through matchledger is seen."""

    @abstractmethod
    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        """Stamp the capability of this token hash revoked (if it is not yet); the
        capability as it now stands (None: no such token)."""

    @abstractmethod
    def save_service_address(self, address: ServiceAddress) -> None:
        """Keep ``address`` as the latest of its source, in place of the one before."""

    @abstractmethod
    def service_addresses(self) -> list[ServiceAddress]:
        """The latest address of each source, as stored (unchecked: see
        ledger/service_addresses.py), by source; none where none was ever recorded, or
        in a database from before they were kept."""
