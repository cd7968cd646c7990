"""Read models.  Host sees everything; every other view is built from an explicit
allow-list of fields the viewer may know (never by copying the host dict and pruning).

Non-host views never use ``MatchState.participants`` order (guests there follow their
partners, which would leak the pairing): players as listed, guests by name."""

from __future__ import annotations

from matchledger.engine.state import HOST, PUBLIC, MatchState, View

from .endgame import Endgame, endgame, ranking
from .model import PWState
from .notation import TYPES


def finished(state: MatchState) -> bool:
    return 3 in state.g.rounds


def _head(state: MatchState) -> dict:
    return {"match": state.match_id, "game": "pw"}


# --------------------------------------------------------------------------- announcements (allow-listed)


def public_round(state: MatchState, round_no: int) -> dict:
    event = state.announcements[round_no]
    counts = event.public.get("type_counts", {}) if isinstance(event.public, dict) else {}
    return {"type_counts": {t: int(counts.get(t, 0)) for t in TYPES}}


def notice(state: MatchState, round_no: int, participant: str) -> dict:
    """What ``participant`` was told privately when ``round_no`` closed (allow-listed)."""
    event = state.announcements[round_no]
    raw = event.private.get(participant, {}) if isinstance(event.private, dict) else {}
    learn = []
    for item in raw.get("learn", []):
        actions = []
        for a in item.get("actions", []):
            entry = {"type": a.get("type"), "target": a.get("target")}
            if "predict" in a:
                entry["predict"] = a["predict"]
            actions.append(entry)
        learn.append({"target": item.get("target"), "actions": actions})
    watch = [{"target": item.get("target"), "seen": list(item.get("seen", []))} for item in raw.get("watch", [])]
    return {
        "own_points": raw.get("own_points", 0),
        "partner_points": raw.get("partner_points", 0),
        "learn": learn,
        "watch": watch,
    }


def last_notice_points(state: MatchState, participant: str) -> tuple[int, int]:
    closed = sorted(state.announcements)
    if not closed:
        return 0, 0
    n = notice(state, closed[-1], participant)
    return n["own_points"], n["partner_points"]


#: What a public award says: only the award, never the score behind it (rules, "Public at
#: the end": no scores, no pair).  Contract results are announced as they are.
PUBLIC_REASONS = {"tol": "ToL", "tol_shard": "bonus shard", "ec": "EC"}
#: The public list's order within one player: the host's order says which pair ranks better.
KIND_ORDER = ("tol", "tol_shard", "shards", "mark", "ec")


def public_awards(state: MatchState, end: Endgame | None = None) -> list[dict]:
    """Player-level awards only, as announced: participant (a player), kind, shards,
    the award as its reason; players as listed, each one's awards by kind.
    ``end``: the finished match's :func:`endgame`, when the caller has it already."""
    if not finished(state):
        return []
    out = []
    for award in (end if end is not None else endgame(state)).awards:
        assert award["participant"] in state.g.guest_of  # a player, never a guest
        entry = {"participant": award["participant"], "kind": award["kind"]}
        if "shards" in award:
            entry["shards"] = award["shards"]
        entry["reason"] = PUBLIC_REASONS.get(award["kind"], award["reason"])
        out.append(entry)
    seat = {player: index for index, player in enumerate(state.players)}
    return sorted(out, key=lambda a: (seat[a["participant"]], KIND_ORDER.index(a["kind"])))


def public_contracts(state: MatchState, end: Endgame | None = None) -> list[dict]:
    """Every contract's result as announced (rules, "Public at the end": contract results;
    a failed one too, on which another's Sabotage Pact may pay), players by name: the
    player, the contract, the player a Sabotage Pact names, and whether it succeeded.
    An outcome recorded before these were announced is re-derived without them
    (engine/announced.py, in_recorded_shape)."""
    if not finished(state):
        return []
    keys = ("participant", "contract", "target", "succeeded")
    return [{k: r[k] for k in keys if k in r} for r in (end if end is not None else endgame(state)).contracts]


# --------------------------------------------------------------------------- read models


def status(state: MatchState, view: View) -> dict:
    g: PWState = state.g
    base = {
        **_head(state),
        "round": state.round,
        "rounds": 3,
        "closed": sorted(state.announcements),
        "finished": finished(state),
        "players": list(g.players),
    }
    if view.is_host:
        open_round = state.round if state.round <= 3 else None
        subs = state.round_submissions(open_round) if open_round else {}
        base["pairs"] = [{"player": p, "guest": g.guest_of[p]} for p in g.players]
        base["submitted"] = [p for p in state.participants if p in subs]
        # kept beside the later `waiting_for`: scripts read it (JSON shapes only grow)
        base["missing"] = [p for p in state.participants if open_round and p not in subs]
        base["contracts"] = {p: list(state.contracts[p]) for p in g.players if p in state.contracts}
        return base
    if view.is_public:
        return base
    me = state.require_participant(view.participant)
    base["guests"] = sorted(g.guest_of.values())
    base["participant"] = me
    base["role"] = g.role[me]
    base["partner"] = g.partner[me]
    own = state.current_submission(state.round, me) if state.round <= 3 else None
    base["submission"] = list(own.tokens) if own else None
    return base


def scores(state: MatchState, view: View) -> dict:
    g: PWState = state.g
    if view.is_host:
        totals = g.totals()
        return {
            **_head(state),
            "participants": [{"participant": p, "role": g.role[p], "points": totals[p]} for p in state.participants],
        }
    if view.is_public:
        return {**_head(state), "participants": []}
    me = state.require_participant(view.participant)
    own, partner = last_notice_points(state, me)
    return {
        **_head(state),
        "participants": [{"participant": me, "role": g.role[me], "points": own}],
        "partner": {"role": g.role[g.partner[me]], "points": partner},
    }


def outcome(state: MatchState, view: View, end: Endgame | None = None) -> dict:
    """``end``: the finished match's :func:`endgame`, when the caller has it already
    (it is a pure function of ``state``)."""
    g: PWState = state.g
    done = finished(state)
    if view.is_host:
        if done:
            if end is None:
                end = endgame(state)
            ranked, totals, awards = end.ranked, end.totals, end.awards
        else:
            totals = g.totals()
            ranked, awards = ranking(g, totals), []
        standings = [
            {
                "participant": p,
                "guest": g.guest_of[p],
                "rank": i,
                "total": totals[p] + totals[g.guest_of[p]],
                "scores": {"player": totals[p], "guest": totals[g.guest_of[p]]},
            }
            for i, p in enumerate(ranked, start=1)
        ]
        contracts = end.contracts if done and end is not None else []  # done: end is computed above
        return {**_head(state), "finished": done, "standings": standings, "awards": awards, "contracts": contracts}
    result = {
        **_head(state),
        "finished": done,
        "awards": public_awards(state, end),
        "contracts": public_contracts(state, end),
    }
    if view.is_public:
        return result
    me = state.require_participant(view.participant)
    own, partner = last_notice_points(state, me)
    result["participant"] = me
    result["own_points"] = own
    result["partner_points"] = partner
    return result


def reveals(state: MatchState, view: View) -> dict:
    viewer = None if view.is_host or view.is_public else state.require_participant(view.participant)
    rounds = []
    for r in sorted(state.announcements):
        entry = {"round": r, "public": public_round(state, r)}
        if view.is_host:
            entry["private"] = {p: notice(state, r, p) for p in state.participants}
        elif viewer is not None:
            entry["private"] = {viewer: notice(state, r, viewer)}
        rounds.append(entry)
    result = {**_head(state), "rounds": rounds}
    if finished(state):
        end = endgame(state)
        result["outcome"] = {
            **_head(state),
            "finished": True,
            "awards": public_awards(state, end),
            "contracts": public_contracts(state, end),
        }
    return result


def knowledge(state: MatchState, me: str) -> dict:
    """Everything ``me`` knows: the public view, their own submissions, contract and
    guesses, their private notices and their own partner — nothing else."""
    g: PWState = state.g
    state.require_participant(me)
    submissions = []
    guesses = {}
    for r in range(1, 4):
        sub = state.current_submission(r, me)
        if sub is not None:
            submissions.append({"round": r, "tokens": list(sub.tokens)})
            if r == 3:
                for token in sub.tokens:
                    if token.startswith("guess:"):
                        guessed, _, partner = token[len("guess:") :].partition("=")
                        guesses[guessed] = partner
    own, partner_points = last_notice_points(state, me)
    end = endgame(state) if finished(state) else None
    return {
        **_head(state),
        "participant": me,
        "role": g.role[me],
        "partner": g.partner[me],
        "players": list(g.players),
        "guests": sorted(g.guest_of.values()),
        "round": state.round,
        "finished": finished(state),
        "contract": list(state.contracts.get(me, [])) if g.role[me] == "player" else None,
        "submissions": submissions,
        "guesses": guesses,
        "rounds": [
            {"round": r, "type_counts": public_round(state, r)["type_counts"], "notice": notice(state, r, me)}
            for r in sorted(state.announcements)
        ],
        "points": {"own": own, "partner": partner_points},
        "awards": public_awards(state, end),
        "contracts": public_contracts(state, end),
    }


def final_outcome(state: MatchState) -> tuple[dict, dict]:
    """The host's and the public outcome, the end of the match (a pure function of the
    state) computed once for both."""
    end = endgame(state) if finished(state) else None
    return outcome(state, HOST, end), outcome(state, PUBLIC, end)


__all__ = ["status", "scores", "outcome", "reveals", "knowledge", "final_outcome"]
