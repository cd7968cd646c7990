"""Read models, each built from an explicit allow-list of fields.

What a view may show (rules, "What each player may know"):
- public: the table (face-up values; face-down as colour + range), every player's film
  rows (face-up values; blurred as colour + range), successful shots, deck size, hand
  sizes, every turn's row/end/count, what of the taken cards was face up, the shots as
  played (face-up values, blurred backs), refills as laid (face-up values, backs), and
  the final scores;
- a player, in addition: their own hand in order (bottom first), the values of the
  face-down cards they took, the values of their own blurred shots, their own winds
  (their own submissions' tokens and each of their turns' private notice);
- the host: everything, including the deck order and every hand.
"""

from __future__ import annotations

from ..state import PUBLIC, MatchState, View
from .cards import shown
from .scoring import player_scores, standings
from .state import PhotoState


def table_view(g: PhotoState, host: bool) -> list[list[str | None]]:
    """Rows top to bottom, four places each: None (empty), ``red-7`` (face up), ``red-[1-6]``
    (face down; the host sees ``red-[4]``).  No player knows a face-down table card."""
    return [
        [None if place is None else shown(place[0], place[1], knows_value=host) for place in row] for row in g.table
    ]


def film_view(g: PhotoState, player: str, knows_blurred: bool) -> dict[str, list[str]]:
    return {
        colour: [shown(card, face_up, knows_value=knows_blurred) for card, face_up in g.film[player][colour]]
        for colour in g.colours
    }


def players_view(g: PhotoState, host: bool, viewer: str | None) -> list[dict]:
    out = []
    for seat, player in enumerate(g.players, start=1):
        out.append(
            {
                "participant": player,
                "seat": seat,
                "hand_size": len(g.hands[player]),
                "film": film_view(g, player, knows_blurred=host or player == viewer),
                "good_shots": [c for c in g.colours if g.good_shots[c] == player],
            }
        )
    return out


def sunset_view(g: PhotoState, options: dict) -> str | None:
    if options.get("end_trigger") != "sunset":
        return None
    return "set aside" if g.set_aside else "in deck"


def common_view(state, g: PhotoState, host: bool, viewer: str | None) -> dict:
    return {
        "match": state.match_id,
        "game": state.game,
        "phase": g.phase,
        "turn": state.round if g.phase != "finished" else None,
        "to_play": g.current,
        "end_reason": g.end_reason,
        "end_order": list(g.end_queue),
        "deck": g.deck_cards(),
        "sunset": sunset_view(g, state.options),
        "table": table_view(g, host),
        "players": players_view(g, host, viewer),
        "good_shots": {c: g.good_shots[c] for c in g.colours},
    }


def score_rows(g: PhotoState, row_points: dict) -> list[dict]:
    rows = []
    for player in g.players:
        scores = player_scores(g, player, row_points)
        rows.append({"participant": player, "points": sum(scores.values()), "scores": scores})
    return rows


def final_standings(g: PhotoState, row_points: dict) -> list[dict]:
    return standings(g, row_points)


# --------------------------------------------------------------------------- read models


def scoring_options(state: MatchState) -> dict:
    """The options in force at the game's last turn (or the turn now open)."""
    turn = state.round - 1 if state.g.phase == "finished" else state.round
    return state.options_for(max(turn, 1))


def status(state: MatchState, view: View) -> dict:
    g = state.g
    viewer = view.participant if view.kind == "participant" else None
    data = common_view(state, g, view.is_host, viewer)
    if view.is_host:
        data["hands"] = {p: list(g.hands[p]) for p in g.players}
        data["deck_order"] = list(g.deck)
    elif viewer is not None:
        data["hand"] = list(g.hands[viewer])
    return data


def scores(state: MatchState, view: View) -> dict:
    # Every component (face-up row lengths, blurred count, missing colours, successful
    # shots) is public, so provisional points are the same in every view.
    g = state.g
    return {
        "match": state.match_id,
        "game": state.game,
        "finished": g.phase == "finished",
        "scores": score_rows(g, scoring_options(state)["row_points"]),
    }


def outcome(state: MatchState, view: View) -> dict:
    # The same in every view: every component of the points is public.
    return _outcome(state, _standings(state))


def _standings(state: MatchState) -> list[dict]:
    g = state.g
    return final_standings(g, scoring_options(state)["row_points"]) if g.phase == "finished" else []


def _outcome(state: MatchState, rows: list[dict]) -> dict:
    return {
        "match": state.match_id,
        "game": state.game,
        "finished": state.g.phase == "finished",
        "standings": rows,
        "awards": [],
    }


def final_outcome(state: MatchState) -> tuple[dict, dict]:
    """``outcome`` for the host and for the public: the same standings, scored once; the
    public copy shares no object with the host's."""
    rows = _standings(state)
    copy = [dict(row, scores=dict(row["scores"])) for row in rows]
    return _outcome(state, rows), _outcome(state, copy)


def reveals(state: MatchState, view: View) -> dict:
    g = state.g
    turns = []
    for record in g.turns:
        entry = {"turn": record["turn"], "participant": record["participant"], "public": record["public"]}
        if view.is_host:
            entry["private"] = record["private"]
        elif view.kind == "participant" and record["participant"] == view.participant:
            entry["private"] = record["private"][view.participant]
        turns.append(entry)
    return {
        "match": state.match_id,
        "game": state.game,
        "turns": turns,
        "outcome": outcome(state, PUBLIC) if g.phase == "finished" else None,
    }


def knowledge(state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    g = state.g
    data = common_view(state, g, host=False, viewer=participant)
    data["participant"] = participant
    data["hand"] = list(g.hands[participant])
    turns = []
    for record in g.turns:
        entry = {"turn": record["turn"], "participant": record["participant"], "public": record["public"]}
        if record["participant"] == participant:
            submission = state.current_submission(record["turn"], participant)
            entry["tokens"] = list(submission.tokens) if submission else []
            entry["private"] = record["private"][participant]
        turns.append(entry)
    data["turns"] = turns
    data["outcome"] = outcome(state, PUBLIC)
    return data
