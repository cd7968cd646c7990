"""Checking and resolving one turn (main phase: take, wind, shoot, check; end phase P7:
wind, shoot two).  ``resolve`` mutates the PhotoState it is given and returns the turn's
announcements: the public record and the acting player's private notice."""

from __future__ import annotations

from matchledger.ledger.errors import IllegalMove

from ..memo import Memo
from .cards import SUNSET, back, known_down, shown
from .film import shoot
from .notation import TAKE_FORM, WIND_FORM, Move
from .state import PhotoState
from .table import check, take

END_SHOTS = 2  # P7: each player plays their two bottom cards


def validate(g: PhotoState, participant: str, move: Move, wind_required: bool) -> None:
    """Raise IllegalMove when ``move`` is well-formed but forbidden now."""
    if g.phase == "finished":
        raise IllegalMove("the game is over; nothing more can be played")
    current = g.current
    if participant != current:
        what = "wind and shoot (end phase)" if g.phase == "end" else "play"
        raise IllegalMove(f"it is {current}'s turn to {what}, not {participant}'s")
    hand_size = len(g.hands[participant])
    if g.phase == "main":
        assert move.take is not None  # parsed for the main phase, a move takes (notation.parse)
        row, end, count = move.take
        if not 1 <= row <= g.n_rows:
            raise IllegalMove(f"row '{row}' is outside the {g.n_rows}-row table (rows 1-{g.n_rows})")
        places = g.table[row - 1]
        in_row = len(places) - places.count(None)  # cards in the row (P5: empty places do not count)
        if in_row == 0:
            raise IllegalMove(f"row '{row}' is empty; take from a row with cards")
        if count > in_row:
            raise IllegalMove(f"count '{count}' is more than the {in_row} card(s) in row {row}")
        hand_size += count
    if move.wind is None:
        if wind_required:
            form = TAKE_FORM if g.phase == "main" else WIND_FORM
            raise IllegalMove(f"wind_required=true: {participant} must wind one card ({form})")
        return
    frm, to = move.wind
    if frm < hand_size and to <= hand_size:
        return  # a legal wind (the messages below are only built for an illegal one)
    text = f"{frm}:{to}"
    after = f" after taking {count}" if g.phase == "main" else ""
    if frm == hand_size:
        raise IllegalMove(
            f"wind '{text}': position {frm} is the top card of the {hand_size}-card hand{after}; "
            f"the top card cannot be wound"
        )
    if frm > hand_size:
        raise IllegalMove(f"wind '{text}': position {frm} is outside the {hand_size}-card hand{after}")
    if to > hand_size:
        raise IllegalMove(f"wind '{text}': position {to} is outside the {hand_size}-card hand{after}")


def _wind(hand: list[str], wind: tuple[int, int] | None) -> None:
    """P4: move the card at position FROM (1 = bottom) up to position TO."""
    if wind is None:
        return
    frm, to = wind
    card = hand.pop(frm - 1)
    hand.insert(to - 1, card)


def _shots(g: PhotoState, participant: str, count: int):
    public, private, good = [], [], []
    for _ in range(count):
        card, face_up, colour = shoot(g, participant)
        if face_up:  # shown(card, face_up, knows_value=False / True)
            public.append(card)
            private.append(card)
        else:
            public.append(back(card))
            private.append(known_down(card))
        if colour is not None:
            good.append(colour)
    return public, private, good


#: "FROM:TO" by (from, to): the few winds there are, written once each
WIND_TEXT: Memo[tuple[int, int], str] = Memo(lambda wind: f"{wind[0]}:{wind[1]}", limit=4096)


def resolve(g: PhotoState, turn: int, participant: str, move: Move) -> tuple[dict, dict]:
    """Resolve a validated move; returns (public record, private notice)."""
    hand = g.hands[participant]
    wind = move.wind
    wind_text = None if wind is None else WIND_TEXT[wind]
    if g.phase == "main":
        assert move.take is not None  # validated for the main phase, a move takes (validate)
        row, end, count = move.take
        taken = take(g, row - 1, end, count)
        for card, _face_up in taken:
            hand.append(card)  # each card taken goes on top of the hand
        if wind is not None:  # _wind(hand, wind)
            hand.insert(wind[1] - 1, hand.pop(wind[0] - 1))
        shots_public, shots_private, good = _shots(g, participant, count)
        result = check(g)  # P5
        taken_public = []
        taken_private = []
        for card, up in taken:  # shown(card, up, knows_value=False / True)
            if up:
                taken_public.append(card)
                taken_private.append(card)
            else:
                taken_public.append(back(card))
                taken_private.append(known_down(card))
        refill = result["refill"]
        game_end = result["end"]
        deck = g.deck
        public = {
            "turn": turn,
            "participant": participant,
            "phase": "main",
            "take": {"row": row, "end": end, "count": count},
            "taken": taken_public,
            "shots": shots_public,
            "good_shots": good,
            "refill": [
                {"row": r + 1, "column": c + 1, "card": shown(card, up, knows_value=False)} for r, c, card, up in refill
            ]
            if refill
            else [],
            "deck": len(deck) - deck.count(SUNSET),  # g.deck_cards()
            "game_end": game_end,
        }
        private = {
            "taken": taken_private,
            "wind": wind_text,
            "shots": shots_private,
            "hand": hand[:],
        }
        players = g.players
        seat = players.index(participant)
        if game_end is not None:
            # P7: every player in seat order, starting with the seat after this one.
            g.phase = "end"
            g.end_reason = game_end
            g.ended_by = participant
            g.end_queue = players[seat + 1 :] + players[: seat + 1]
        else:
            g.to_play = (seat + 1) % len(players)
        return public, private
    # P7 end phase: wind once, then play the two bottom cards.
    _wind(hand, wind)
    shots_public, shots_private, good = _shots(g, participant, min(END_SHOTS, len(hand)))
    g.end_queue.pop(0)
    if not g.end_queue:
        g.phase = "finished"
    public = {
        "turn": turn,
        "participant": participant,
        "phase": "end",
        "shots": shots_public,
        "good_shots": good,
        "finished": g.phase == "finished",
    }
    private = {"wind": wind_text, "shots": shots_private, "hand": list(hand)}
    return public, private
