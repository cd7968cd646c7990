"""One bounded cache for the engine's pure look-ups (cell names, parsed tokens, camera
blocks, card faces ...).

A :class:`Memo` is a dict that fills itself: ``memo[key]`` is ``make(key)``, computed on
first use and kept while the memo holds fewer than ``limit`` entries (after that, new
keys are computed every time, so memory stays bounded whatever a log holds).  Being a
dict, a hit costs one dict look-up, and ``map(memo.__getitem__, keys)`` looks many up
in one go.  ``make`` must be a pure function of the key; an exception it raises is
raised to the caller and nothing is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

LIMIT = 65_536


class Memo(dict, Generic[K, V]):
    __slots__ = ("_make", "_limit")

    def __init__(self, make: Callable[[K], V], limit: int = LIMIT):
        super().__init__()
        self._make = make
        self._limit = limit

    def __missing__(self, key: K) -> V:
        value = self._make(key)
        if len(self) < self._limit:
            self[key] = value
        return value
