"""The game's own derived state (``MatchState.g``): plain dataclasses, comparable with
``==`` and decodable by msgspec (the state snapshot, ``Game.STATE_TYPE``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RoundResult:
    """One closed round as the rules resolve it (U6)."""

    round: int
    numbers: dict[str, int]  # player -> their counting number (host only); U5: absent ones missing
    lowest_unique: int | None  # U6: None when no number was submitted by exactly one player
    winner: str | None


@dataclass
class LowestUniqueState:
    players: list[str]
    totals: dict[str, int]  # player -> points so far (U6)
    results: dict[int, RoundResult] = field(default_factory=dict)  # round -> its result

    def rounds_won(self, player: str) -> list[int]:
        return [r for r, result in sorted(self.results.items()) if result.winner == player]


def resolve(numbers: dict[str, int], round_no: int) -> RoundResult:
    """U6: the lowest number exactly one player submitted, and who submitted it."""
    chosen_by: dict[int, list[str]] = {}
    for player, number in numbers.items():
        chosen_by.setdefault(number, []).append(player)
    unique = [number for number, players in chosen_by.items() if len(players) == 1]
    if not unique:
        return RoundResult(round_no, dict(numbers), None, None)
    lowest = min(unique)
    return RoundResult(round_no, dict(numbers), lowest, chosen_by[lowest][0])


def ranked(players: list[str], totals: dict[str, int]) -> list[tuple[str, int]]:
    """U11: (player, rank) by total, highest first; equal totals share a rank and the
    next rank skips (2, 2, 1 -> 1, 1, 3); within a rank, players as the match lists them."""
    order = sorted(players, key=lambda p: (-totals[p], players.index(p)))
    result = []
    for place, player in enumerate(order, start=1):
        if result and totals[result[-1][0]] == totals[player]:
            result.append((player, result[-1][1]))
        else:
            result.append((player, place))
    return result
