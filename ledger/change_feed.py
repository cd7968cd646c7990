"""The change feed: whether anything was committed to the database since a position
read earlier, so that a long-running reader (the service) keeps what it read while
nothing moved and looks again once something did."""

from __future__ import annotations

from abc import ABC, abstractmethod


class ChangeFeed(ABC):
    """Positions of the database, compared with ``==``."""

    @abstractmethod
    def data_version(self) -> int | str:
        """The position now: a value that moves whenever another connection has
        committed to the database since it was last read here, and stays put while
        nothing is written.  It may also move for a commit that changed none of our
        tables (a look too many is cheap; one too few would keep a revoked link open)."""

    def moved_since(self, position: int | str) -> bool:
        """Whether anything may have been committed since ``position`` was read."""
        return self.data_version() != position
