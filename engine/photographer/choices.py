"""photographer's legal choices (:mod:`matchledger.engine.choices`), from what every player
may know (the table, hand sizes, whose turn it is).

Main phase: take a row with cards, an end and a count of 1 to 3, at most the cards in
that row; then wind (P4): a card from position FROM (not the top) up to TO, positions
counted from 1 at the bottom of the hand *after* the take, so a wind up to a place only
the taken cards make is offered only with a take that large.  ``wind_required=false``
makes the wind optional.  End phase (P7): the wind alone.
"""

from __future__ import annotations

from typing import Any

from matchledger.engine.choices import closed, nothing
from matchledger.engine.state import MatchState

from .state import PhotoState

ENDS = ("left", "right")
MOST_TAKEN = 3


def choices(game, state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    over = closed(game, state)  # play is over when the phase is "finished"
    if over is not None:
        return over
    g: PhotoState = state.g
    if g.current != participant:
        return nothing(f"Waiting for {g.current} to play.")
    options = state.options_for(state.round) if state.amendments else state.options
    wind_min = 1 if options["wind_required"] else 0
    hand = len(g.hands[participant])
    if g.phase == "end":
        wind = _wind(hand, 0, wind_min)
        prompt = "End phase: wind one card (positions from 1 at the bottom)"
        return {"prompt": prompt, "parts": [wind], "constraints": [], "typed": "wind 1:2"}
    take: list[dict[str, Any]] = []
    for row, places in enumerate(g.table, start=1):
        cards = len(places) - places.count(None)
        for end in ENDS:
            for count in range(1, min(MOST_TAKEN, cards) + 1):
                take.append(
                    {
                        "tokens": ["take", str(row), end, str(count)],
                        "label": f"row {row}, {end} end, {count} card{'s' if count > 1 else ''}",
                        "fields": {"row": row, "end": end, "count": count},
                    }
                )
    most = max((o["fields"]["count"] for o in take), default=0)
    parts = [
        {
            "name": "take",
            "label": "Take",
            "min": 1,
            "max": 1,
            "ordered": False,
            "options": take,
            "fields": [
                {"name": "row", "label": "take from row"},
                {"name": "end", "label": "end"},
                {"name": "count", "label": "cards"},
            ],
        },
        _wind(hand, most, wind_min),
    ]
    prompt = "Your turn: take cards from a row, then wind one card up your hand (positions from 1 at the bottom)"
    return {"prompt": prompt, "parts": parts, "constraints": [], "typed": "take 1 left 1 wind 1:2"}


def position(number: int) -> str:
    """A hand position as a wind names it: counted from 1, the bottom card (docs/design.md's
    notation; rules.md, Deal, P3: "the first of them the bottom of their hand")."""
    return f"{number} (bottom)" if number == 1 else str(number)


def _wind(hand: int, most_taken: int, wind_min: int) -> dict:
    """The winds of a hand of ``hand`` cards, after a take of up to ``most_taken``: a
    wind up to position TO past the hand needs a take of TO - hand cards or more."""
    options = []
    for to in range(2, hand + most_taken + 1):
        for frm in range(1, to):
            label = f"{position(frm)} to {to}"
            option = {"tokens": ["wind", f"{frm}:{to}"], "label": label, "fields": {"from": frm, "to": to}}
            if to > hand + 1:  # FROM < the hand after the take, TO <= it: the take brings TO - hand cards
                option["when"] = {"take": {"count": list(range(to - hand, most_taken + 1))}}
            options.append(option)
    return {
        "name": "wind",
        "label": "Wind",
        "min": wind_min,
        "max": 1,
        "ordered": False,
        "options": options,
        "fields": [{"name": "from", "label": "wind from (1 = bottom)"}, {"name": "to", "label": "to"}],
    }
