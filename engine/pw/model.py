"""The game's own derived state (``MatchState.g``): plain dataclasses, comparable with ``==``."""

from __future__ import annotations

from dataclasses import dataclass, field

from .notation import TYPES, Action, Guess


@dataclass
class RoundResult:
    """The engine's own resolution of one round (never the recorded announcement)."""

    round: int
    actions: dict[str, list[Action]]  # participant -> the two submitted actions
    effective: dict[str, list[str]]  # participant -> effective target of each action (W6)
    swapped: list[str]  # players whose pair was swapped this round (W6)
    type_counts: dict[str, int]
    round_points: dict[str, int]  # Gift and Predict points of this round
    end_points: dict[str, int]  # Round 3 only: Unique (W8) and guess points
    totals: dict[str, int]  # cumulative point totals at the end of this round
    learn: dict[str, list[dict]]  # participant -> results of their Learn actions (W7)
    watch: dict[str, list[dict]]  # participant -> results of their Watch actions
    guesses: dict[str, list[Guess]] = field(default_factory=dict)
    guess_record: dict[str, dict[str, int]] = field(default_factory=dict)  # {"correct": n, "wrong": n}
    unique_points: dict[str, int] = field(default_factory=dict)
    guess_points: dict[str, int] = field(default_factory=dict)


@dataclass
class PWState:
    players: list[str]
    guest_of: dict[str, str]  # player -> guest (host-only, forever)
    partner: dict[str, str]  # participant -> partner
    role: dict[str, str]  # participant -> "player" | "guest"
    rounds: dict[int, RoundResult] = field(default_factory=dict)

    def totals(self) -> dict[str, int]:
        """Cumulative points after the last closed round (0 for everyone before)."""
        if not self.rounds:
            return dict.fromkeys(self.partner, 0)
        return dict(self.rounds[max(self.rounds)].totals)


def public_order(players: list[str], guests) -> list[str]:
    """An order that does not depend on the pairing: players as listed, then guests by
    name (``MatchState.participants`` is in this order)."""
    return list(players) + sorted(guests)


def zero_counts() -> dict[str, int]:
    return dict.fromkeys(TYPES, 0)
