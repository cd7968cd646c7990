"""Read models.  The host sees everything; every other view is built from an explicit
allow-list of what that viewer may know (U7–U10), never by pruning the host's.

Before a round closes no non-host read depends on anyone else's submission (U9): the
public's and a player's reads name no count, no submitter and no number but the
player's own."""

from __future__ import annotations

from matchledger.engine.state import HOST, PUBLIC, MatchState, View

from .model import LowestUniqueState, ranked


def _head(state: MatchState) -> dict:
    return {"match": state.match_id, "game": state.game}


def rounds_of(state: MatchState) -> int:
    return state.options["rounds"]  # U12: never amended


def finished(state: MatchState) -> bool:
    """Every round is closed (U11: the standings are then final)."""
    return state.round > rounds_of(state)


def own_number(state: MatchState, round_no: int, player: str) -> int | None:
    submission = state.current_submission(round_no, player)
    return int(submission.tokens[0]) if submission is not None else None


# --------------------------------------------------------------------------- announcements (allow-listed)


def public_round(state: MatchState, round_no: int) -> dict:
    """U7: the round's numbers, sorted, without names, and the lowest unique one."""
    public = state.announcements[round_no].public
    return {"numbers": [int(n) for n in public.get("numbers", [])], "lowest_unique": public.get("lowest_unique")}


def notice(state: MatchState, round_no: int, player: str) -> dict:
    """U8: what ``player`` was told privately when ``round_no`` closed."""
    raw = state.announcements[round_no].private.get(player, {})
    return {"number": raw.get("number"), "won": bool(raw.get("won", False))}


def public_standings(state: MatchState) -> list[dict]:
    """U11: the final table as the public learns it (empty until the match is over)."""
    if not finished(state):
        return []
    g: LowestUniqueState = state.g
    return [{"participant": p, "rank": rank, "total": g.totals[p]} for p, rank in ranked(state.players, g.totals)]


# --------------------------------------------------------------------------- read models


def status(state: MatchState, view: View) -> dict:
    open_round = state.round if not finished(state) else None
    base = {
        **_head(state),
        "round": state.round,
        "rounds": rounds_of(state),
        "highest": state.options_for(min(state.round, rounds_of(state)))["highest"],
        "closed": sorted(state.announcements),
        "finished": finished(state),
        "players": list(state.players),
    }
    if view.is_host:
        subs = state.round_submissions(open_round) if open_round else {}
        base["submitted"] = [p for p in state.players if p in subs]
        base["numbers"] = {p: int(s.tokens[0]) for p, s in subs.items()}
        return base
    if view.is_public:
        return base  # U9: nothing of the open round
    me = state.require_participant(view.participant)
    base["participant"] = me
    base["number"] = own_number(state, open_round, me) if open_round else None
    return base


def scores(state: MatchState, view: View) -> dict:
    g: LowestUniqueState = state.g
    me = state.require_participant(view.participant) if view.kind == "participant" else None
    if view.is_host or finished(state):
        shown = list(state.players)  # U10, U11: every total once the match is over
    elif view.is_public:
        shown = []  # U10
    else:
        shown = [me]
    return {**_head(state), "scores": [{"participant": p, "total": g.totals[p]} for p in shown]}


def outcome(state: MatchState, view: View) -> dict:
    g: LowestUniqueState = state.g
    done = finished(state)
    if view.is_host:
        standings = [
            {"participant": p, "rank": rank, "total": g.totals[p], "scores": {"won": g.rounds_won(p)}}
            for p, rank in ranked(state.players, g.totals)
        ]
        return {**_head(state), "finished": done, "standings": standings, "awards": []}
    result = {**_head(state), "finished": done, "standings": public_standings(state), "awards": []}
    if view.is_public:
        return result
    me = state.require_participant(view.participant)
    result["participant"] = me
    result["total"] = g.totals[me]
    return result


def reveals(state: MatchState, view: View) -> dict:
    if not view.is_host and not view.is_public:
        state.require_participant(view.participant)
    rounds = []
    for r in sorted(state.announcements):
        entry = {"round": r, "public": public_round(state, r)}
        if view.is_host:
            entry["private"] = {p: notice(state, r, p) for p in state.players}
        elif not view.is_public:
            entry["private"] = {view.participant: notice(state, r, view.participant)}
        rounds.append(entry)
    result = {**_head(state), "rounds": rounds}
    if finished(state):
        result["outcome"] = outcome(state, PUBLIC)
    return result


def knowledge(state: MatchState, me: str) -> dict:
    """Everything ``me`` knows: the public facts, their own numbers and their notices."""
    state.require_participant(me)
    g: LowestUniqueState = state.g
    last = min(state.round, rounds_of(state))
    submissions = []
    for r in range(1, last + 1):
        number = own_number(state, r, me)
        if number is not None:
            submissions.append({"round": r, "number": number})
    return {
        **_head(state),
        "participant": me,
        "players": list(state.players),
        "round": state.round,
        "rounds": rounds_of(state),
        "highest": state.options_for(last)["highest"],
        "finished": finished(state),
        "submissions": submissions,
        "announcements": [
            {"round": r, "public": public_round(state, r), "notice": notice(state, r, me)}
            for r in sorted(state.announcements)
        ],
        "total": g.totals[me],
        "standings": public_standings(state),
    }


def final_outcome(state: MatchState) -> tuple[dict, dict]:
    return outcome(state, HOST), outcome(state, PUBLIC)


__all__ = ["status", "scores", "outcome", "reveals", "knowledge", "final_outcome"]
