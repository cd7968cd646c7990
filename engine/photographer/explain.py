"""`explain`: one player's points derived line by line, with the rule behind each (P8).

A host/auditor tool: blurred shots are listed with their values.  The categories are
the keys of the outcome's ``scores`` (rows, blurred, missing, good_shots); before the
game ends they explain the provisional points `scores` shows.  All arithmetic is on
whole numbers: ``exact`` equals ``score``.
"""

from __future__ import annotations

from matchledger.engine.explanation import category, explanation, line
from matchledger.engine.state import MatchState

from .cards import known_down
from .film import sequence
from .scoring import BLURRED, GOOD_SHOT, MISSING
from .views import scoring_options


def explain(state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    g = state.g
    row_points = scoring_options(state)["row_points"]
    rows, blurred, missing, good = [], [], [], []
    for colour in g.colours:
        row = g.film[participant][colour]
        seq = sequence(row)
        length = len(seq)
        if length:
            key = str(min(length, 7))
            capped = f" (a row of {length} scores as 7)" if length > 7 else ""
            rows.append(
                line(
                    row_points[key],
                    f"P8 row of {length} face-up card{'s' if length > 1 else ''}: row_points[{key}] = {row_points[key]}{capped}",
                    f"{colour}: {'-'.join(str(v) for v in seq)}",
                )
            )
        else:
            missing.append(
                line(MISSING, f"a colour with no face-up card costs {-MISSING}", f"{colour}: no face-up card")
            )
        for card, face_up in row:
            if not face_up:
                blurred.append(
                    line(
                        BLURRED, f"blurred shot: {BLURRED}", f"{known_down(card)} played face down on the {colour} row"
                    )
                )
    for colour in g.colours:
        if g.good_shots.get(colour) == participant:
            good.append(
                line(
                    GOOD_SHOT,
                    f"successful shot: +{GOOD_SHOT}",
                    f"{colour}: first row of {colour} to reach {g.shot_length} face-up cards",
                )
            )
    categories = [
        category("rows", rows),
        category("blurred", blurred),
        category("missing", missing),
        category("good_shots", good),
    ]
    return explanation(state, participant, categories)
