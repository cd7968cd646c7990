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

    def fork(self, participant: str) -> PhotoState:
        """A copy to resolve ``participant``'s turn on: the parts a turn changes are
        copied, the parts it never changes are shared (the other players' hands and film rows, the
        players and colours, the turns log).  Resolving the turn on the fork leaves this
        state untouched; nothing may change the fork afterwards but that one turn."""
        hands = self.hands.copy()
        hands[participant] = hands[participant][:]
        film = self.film.copy()
        film[participant] = {c: r[:] for c, r in film[participant].items()}
        fields = self.__dict__.copy()  # every field; the mutable ones replaced below
        fields["deck"] = self.deck[:]
        fields["table"] = [row[:] for row in self.table]
        fields["hands"] = hands
        fields["film"] = film
        fields["good_shots"] = self.good_shots.copy()
        fields["end_queue"] = self.end_queue[:]
        fields["set_aside"] = self.set_aside[:]
        forked = object.__new__(PhotoState)
        forked.__dict__.update(fields)
        return forked

    @property
    def current(self) -> str | None:
        if self.phase == "main":
            return self.players[self.to_play]
        if self.phase == "end":
            return self.end_queue[0]
        return None

    def table_count(self) -> int:
        return sum([len(row) - row.count(None) for row in self.table])

    def deck_cards(self) -> int:
        """Photo cards left in the deck (the Sunset card is not a photo card)."""
        return len(self.deck) - self.deck.count("sunset")
