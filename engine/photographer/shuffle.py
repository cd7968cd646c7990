"""The documented, version-stable shuffle of Фотограф decks (ruling P2).

Never uses :mod:`random`.  The algorithm, fixed for all versions of matchledger:

1. **PRNG: SplitMix64** (Steele, Lea & Flood 2014; the reference ``splitmix64.c`` by
   Sebastiano Vigna).  The state is the seed reduced modulo 2**64.  Each draw::

       state = (state + 0x9E3779B97F4A7C15) mod 2**64
       z = state
       z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
       return z ^ (z >> 31)

2. **Uniform integer in [0, bound)** by rejection sampling: ``limit = 2**64 - (2**64 mod
   bound)``; draw ``x`` until ``x < limit``; return ``x mod bound``.

3. **Fisher–Yates (Durstenfeld)**: the list starts in the unshuffled order (colours in
   play in rules order blue, red, yellow, green, brown, grey, purple; each colour's values
   1..12); for ``i`` from ``n-1`` down to ``1``: ``j = uniform(i + 1)``; swap items
   ``i`` and ``j``.  The result is read top card first.

4. **Sunset** (``end_trigger=sunset``, rules "Ending by the sunset card"): the shuffled
   deck (top first) is cut into six piles as equal as possible (sizes ``q+1`` for the
   first ``n mod 6`` piles from the top, ``q`` for the rest, ``q = n // 6``; every deck
   in play has 60, 72 or 84 cards, so all piles are equal); with the same generator
   continuing, ``k = uniform(size_of_pile_5 + 1)`` and the Sunset card is inserted into
   pile 5 (second from the bottom) before its ``k``-th card (``k = size`` puts it under
   the pile's last card).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self, bound: int) -> int:
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def shuffle(items: list, rng: SplitMix64) -> list:
    """A Fisher–Yates shuffled copy of ``items``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.uniform(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def pile_sizes(n: int, piles: int = 6) -> list[int]:
    q, r = divmod(n, piles)
    return [q + 1 if i < r else q for i in range(piles)]


def insert_sunset(deck: list, rng: SplitMix64, sunset="sunset") -> list:
    """The deck with the Sunset card shuffled into the second-lowest of six piles."""
    sizes = pile_sizes(len(deck))
    start = sum(sizes[:4])
    k = rng.uniform(sizes[4] + 1)
    out = list(deck)
    out.insert(start + k, sunset)
    return out
