"""The photographer game state (``MatchState.g``): plain values in a dataclass, so two
states are ``==`` exactly when they hold the same match."""

from __future__ import annotations

from dataclasses import dataclass, field

# A table place: None when empty, else (card, face_up).
Place = tuple[str, bool] | None


@dataclass
class PhotoState:
    players: list[str]
    colours: list[str]
    n_rows: int
    shot_length: int  # N face-up cards for a successful shot
    deck: list[str]  # top card first; may hold "sunset"
    table: list[list[Place]]  # rows top to bottom, 4 places each
    hands: dict[str, list[str]]  # bottom card first
    film: dict[str, dict[str, list[tuple[str, bool]]]]  # player -> colour -> (card, face_up) in play order
    good_shots: dict[str, str | None]  # colour -> the player who took its successful shot
    phase: str = "main"  # "main" | "end" | "finished"
    to_play: int = 0  # seat index of the player whose turn it is
    end_queue: list[str] = field(default_factory=list)  # P7: players still to wind+shoot
    end_reason: str | None = None  # "deck_empty" | "sunset"
    ended_by: str | None = None  # the player whose check ended the game
    set_aside: list[str] = field(default_factory=list)  # the Sunset card once reached
    turns: list[dict] = field(default_factory=list)  # engine-computed announcements per turn

    def clone(self) -> "PhotoState":
        """A copy to resolve a turn on (turns log shared: resolving never touches it)."""
        return PhotoState(
            players=list(self.players),
            colours=list(self.colours),
            n_rows=self.n_rows,
            shot_length=self.shot_length,
            deck=list(self.deck),
            table=[list(row) for row in self.table],
            hands={p: list(h) for p, h in self.hands.items()},
            film={p: {c: list(r) for c, r in rows.items()} for p, rows in self.film.items()},
            good_shots=dict(self.good_shots),
            phase=self.phase,
            to_play=self.to_play,
            end_queue=list(self.end_queue),
            end_reason=self.end_reason,
            ended_by=self.ended_by,
            set_aside=list(self.set_aside),
            turns=self.turns,
        )

    @property
    def current(self) -> str | None:
        if self.phase == "main":
            return self.players[self.to_play]
        if self.phase == "end":
            return self.end_queue[0]
        return None

    def table_count(self) -> int:
        return sum(1 for row in self.table for place in row if place is not None)

    def deck_cards(self) -> int:
        """Photo cards left in the deck (the Sunset card is not a photo card)."""
        return sum(1 for card in self.deck if card != "sunset")
