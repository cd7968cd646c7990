"""Read models.  Every non-host dict is built from an explicit allow-list of named
fields; nothing is copied from the host's dict and trimmed."""

from __future__ import annotations

from typing import Any

from matchledger.engine.state import MatchState, View, as_participant

from . import endgame
from .studio import cell_name

PHASES = {1: "lights", 2: "cameras", 3: "actions"}
#: what each round announces, by key: public and private (allow-lists for reveals)
PUBLIC_KEYS = {1: ("lights", "brightness"), 2: ("cameras",), 3: ()}
PRIVATE_KEYS = {1: ("lights", "lights_score"), 2: ("camera_score",), 3: ("action_score", "filming_score")}


def _viewer(state: MatchState, view: View) -> str | None:
    """The participant a view belongs to (None for host/public); rejects strangers."""
    if view.kind != "participant":
        return None
    return state.require_participant(view.participant)


def _head(state: MatchState) -> dict:
    return {"match": state.match_id, "game": state.game}


def phase(state: MatchState) -> str:
    return PHASES.get(state.round, "finished")


# --------------------------------------------------------------------------- scores


def category_scores(state: MatchState) -> dict[str, dict[str, int]]:
    """Rounded category scores per player, as far as scored (host knowledge)."""
    g = state.g
    table: dict[str, dict[str, int]] = {p: {} for p in state.players}
    for p in state.players:
        if g.lights is not None:
            table[p]["lights"] = g.lights.scores[p]
        if g.cameras is not None:
            table[p]["camera"] = g.cameras.scores[p]
        if g.actions is not None:
            table[p]["action"] = g.actions.scores[p]
            table[p]["filming"] = g.filming.scores[p]
    return table


def _score_row(p: str, cats: dict[str, int]) -> dict:
    row: dict[str, Any] = {"participant": p}
    for cat in endgame.CATEGORIES:
        if cat in cats:
            row[cat] = int(cats[cat])
    row["total"] = int(sum(cats.values()))
    return row


def scores(state: MatchState, view: View) -> dict:
    me = _viewer(state, view)
    table = category_scores(state)
    if view.is_host or state.g.complete:  # the full final table is public at the end
        rows = [_score_row(p, table[p]) for p in state.players]
    elif me is not None:  # a participant knows their own scores from their private notices
        rows = [_score_row(me, table[me])]
    else:
        rows = []
    return {**_head(state), "finished": state.g.complete, "scores": rows}


# --------------------------------------------------------------------------- outcome


def final_result(state: MatchState) -> tuple[list[endgame.Standing], list[dict], list[dict]]:
    """The final table, the awards and every contract's result (players by name)."""
    table = category_scores(state)
    standings = endgame.rank_players(state.players, table)
    facts = _contract_facts(state)
    results = endgame.contract_results(standings, state.contracts, facts, state.canonical(state.contracts))
    return standings, endgame.awards(standings, state.contracts, facts), results


def contract_results(state: MatchState) -> list[dict]:
    """Every contract's result, once the match is finished ([] before)."""
    return final_result(state)[2] if state.g.complete else []


def _contract_facts(state: MatchState) -> dict[str, dict]:
    """What ``endgame.contract_met`` reads: each fact only for the players holding the
    contract that needs it (exclusive cameras and best shares for everyone cost more
    than the rest of the outcome, and most players hold no such contract)."""
    g = state.g

    def holders(choice: str) -> list[str]:
        return [p for p in state.players if choice in state.contracts.get(p, ())]

    return {
        "lit_cells": {p: len(g.lights.lit_by[p]) for p in holders("lights")},
        "exclusive_cameras": {p: g.cameras.exclusive(p) for p in holders("camera")},
        "best_share": {p: max((g.actions.share(c) for c in g.actions.named[p]), default=0) for p in holders("action")},
    }


def outcome(state: MatchState, view: View) -> dict:
    _viewer(state, view)
    # Even in a hand-scored match this is what the rules give: the log is never taken as
    # truth.  What the host announced stays in the log; `verify` and `audit` compare.
    if not state.g.complete:
        return _unfinished(state)
    # all of the final table, ToLs, bonus shards, ECs and contract results are public at
    # the end, so every view gets the same outcome once the match is finished
    return _finished(state, *final_result(state))


def final_outcome(state: MatchState) -> tuple[dict, dict]:
    """``outcome`` for the host and for the public, the final result computed once (the
    two are equal, see ``outcome``); the public copy shares no object with the host's."""
    if not state.g.complete:
        return _unfinished(state), _unfinished(state)
    standings, awards, results = final_result(state)
    public = _finished(state, standings, [dict(a) for a in awards], [dict(r) for r in results])
    return _finished(state, standings, awards, results), public


def _unfinished(state: MatchState) -> dict:
    return {**_head(state), "finished": False, "round": state.round, "standings": [], "awards": [], "contracts": []}


def _finished(state: MatchState, standings: list[endgame.Standing], awards: list[dict], results: list[dict]) -> dict:
    return {
        **_head(state),
        "finished": True,
        "standings": [s.as_dict() for s in standings],
        "awards": awards,
        # every contract and whether it succeeded; an outcome recorded before this was
        # announced is re-derived without it (engine/announced.py, in_recorded_shape)
        "contracts": results,
    }


# --------------------------------------------------------------------------- reveals


def _pick(source: dict, keys) -> dict:
    return {k: source[k] for k in keys if k in source}


def _public_outcome(state: MatchState) -> dict:
    """Allow-listed copy of the recorded public outcome."""
    assert state.outcome is not None  # called once an outcome is recorded
    recorded = state.outcome.public
    standings = [
        {
            "participant": s.get("participant"),
            "rank": s.get("rank"),
            "total": s.get("total"),
            "scores": _pick(s.get("scores", {}), endgame.CATEGORIES),
        }
        for s in recorded.get("standings", [])
    ]
    awards = [_pick(a, ("participant", "kind", "shards", "reason")) for a in recorded.get("awards", [])]
    if "contracts" in recorded:
        results = [_pick(r, ("participant", "contract", "succeeded")) for r in recorded["contracts"]]
    elif recorded:
        # The engine's announcement, recorded before contract results were announced: the
        # rules made them public all the same, so they are shown as the rules give them.
        results = contract_results(state)
    else:  # the host entered the results (`outcome --announced`): no public part recorded
        results = []
    return {
        **_pick(recorded, ("match", "game", "finished")),
        "standings": standings,
        "awards": awards,
        "contracts": results,
    }


def reveals(state: MatchState, view: View) -> dict:
    """What was announced (the recorded RoundClosed / OutcomeAnnounced events): the public
    part for everyone, plus the viewer's private notices (all of them for the host)."""
    me = _viewer(state, view)
    rounds = []
    for round_no in sorted(state.announcements):
        event = state.announcements[round_no]
        entry = {"round": round_no, "public": _pick(event.public, PUBLIC_KEYS.get(round_no, ()))}
        if view.is_host:
            entry["private"] = {
                p: _pick(event.private.get(p, {}), PRIVATE_KEYS.get(round_no, ())) for p in state.players
            }
        elif me is not None:
            entry["private"] = _pick(event.private.get(me, {}), PRIVATE_KEYS.get(round_no, ()))
        rounds.append(entry)
    result = {**_head(state), "studio": list(state.g.studio.rows), "rounds": rounds}
    if state.outcome is not None:
        result["outcome"] = _public_outcome(state)
    return result


# --------------------------------------------------------------------------- status


def _public_board(state: MatchState) -> dict:
    g = state.g
    board: dict = {"studio": list(g.studio.rows)}
    if g.lights is not None:
        board["lights"] = [cell_name(c) for c in g.lights.lights()]
        board["brightness"] = {cell_name(c): level for c, level in g.lights.brightness().items()}
    if g.cameras is not None:
        board["cameras"] = [cell_name(c) for c in g.cameras.centres()]
    return board


def status(state: MatchState, view: View) -> dict:
    me = _viewer(state, view)
    g = state.g
    open_round = state.round if state.round <= 3 else None
    current = state.round_submissions(open_round) if open_round else {}
    result = {
        **_head(state),
        "round": min(state.round, 3),
        "phase": phase(state),
        "finished": g.complete,
        "players": list(state.players),
        **_public_board(state),
    }
    if view.is_host:
        # who has submitted is the host's to know: the rules announce no such thing
        result["submitted"] = [p for p in state.players if p in current]
        result["submissions"] = {p: list(sub.tokens) for p, sub in current.items()}
        result["contracts"] = {p: list(state.contracts[p]) for p in state.players if p in state.contracts}
        if g.lights is not None:
            result["light_owners"] = {cell_name(c): g.lights.owner[c] for c in g.lights.lights()}
        if g.cameras is not None:
            result["camera_owners"] = [{"participant": p, "centre": cell_name(c)} for p, c in g.cameras.all_cameras()]
        if g.actions is not None:
            result["actions"] = {cell_name(c): list(who) for c, who in g.actions.sharers.items()}
    elif me is not None:
        mine = current.get(me)
        result["you"] = {
            "participant": me,
            "contract": list(state.contracts.get(me, [])),
            "submission": list(mine.tokens) if mine else [],
        }
    return result


# --------------------------------------------------------------------------- knowledge


def knowledge(state: MatchState, participant: str) -> dict:
    view = as_participant(participant)
    _viewer(state, view)
    own = {}
    for round_no in (1, 2, 3):
        sub = state.current_submission(round_no, participant)
        if sub is not None:
            own[str(round_no)] = list(sub.tokens)
    shown = reveals(state, view)
    result = {
        **_head(state),
        "participant": participant,
        "round": min(state.round, 3),
        "phase": phase(state),
        "finished": state.g.complete,
        "players": list(state.players),
        "studio": list(state.g.studio.rows),
        "contract": list(state.contracts.get(participant, [])),
        "submissions": own,
        "announcements": shown["rounds"],
    }
    if "outcome" in shown:
        result["outcome"] = shown["outcome"]
    return result
