"""An independent oracle for Parallel Worlds (pw) scoring and endgame.

Written from engine/pw/rules.md alone (never from the engine's code), for
differential testing.  Clarity over speed; exact ``Fraction`` arithmetic (pw has no
rounding: every amount in the rules is a whole number, so totals are converted back to
``int`` only after checking they are whole).

Input: a :class:`PwMatch` (players in listed order = previous-MM ranking, pairs, options
and amendments, contracts, and every participant's *counting* submission per round).
:func:`parse_script` builds one from a host script (one CLI command per line), applying
supersession, voids and corrections the way the rules and DESIGN describe (the latest
non-voided submission of a participant in a round counts).

Output (:func:`score`): per-participant points, pair standings with ranks, the award
list as (participant, kind, shards) triples, and the EC order (higher EC first).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from .pw_oracle_input import MAIN_CONTRACTS, ROUNDS, Entry, PwMatch

# --------------------------------------------------------------------------- output


@dataclass
class OracleResult:
    points: dict[str, int]  # every participant's final points
    round_points: dict[int, dict[str, int]]  # Gift/Predict points per round
    unique_points: dict[str, int]
    guess_points: dict[str, int]
    standings: list[dict]  # outcome --json shaped, in rank order
    awards: list[tuple[str, str, int | None]]  # (participant, kind, shards)
    ecs: list[str]  # higher EC first
    contract_results: dict[str, dict[str, bool]]

    def award_counter(self) -> Counter:
        return normalize_awards(self.awards)


def normalize_awards(awards) -> Counter:
    """Awards as a multiset, with bonus shards and inventory shards summed per
    participant (whether the engine lists two 1-shard awards or one 2-shard award is
    presentation; the number of shards is not)."""
    summed: Counter = Counter()
    out: Counter = Counter()
    for participant, kind, shards in awards:
        if kind in ("tol_shard", "shards"):
            summed[(participant, kind)] += shards or 0
        else:
            out[(participant, kind, shards)] += 1
    for (participant, kind), total in summed.items():
        if total:
            out[(participant, kind, total)] += 1
    return out


# --------------------------------------------------------------------------- scoring


def _whole(x: Fraction) -> int:
    assert x.denominator == 1, x
    return int(x)


def effective_targets(match: PwMatch, entries: dict[str, Entry]) -> dict[tuple[str, int], str]:
    """Step 1 (ruling W6): a pair is swapped when >= 2 Swap actions target its members
    (by submitted target); every action on a member of a swapped pair is redirected to
    the other member, once.  Returns (submitter, action index) -> effective target."""
    swaps_on_pair: Counter = Counter()
    for entry in entries.values():
        for action in entry.actions:
            if action.type == "swap":
                swaps_on_pair[match.player_of(action.target)] += 1
    swapped = {pair for pair, n in swaps_on_pair.items() if n >= 2}
    result = {}
    for who, entry in entries.items():
        for i, action in enumerate(entry.actions):
            t = action.target
            result[(who, i)] = match.partner(t) if match.player_of(t) in swapped else t
    return result


def score(match: PwMatch) -> OracleResult:
    participants = match.participants
    pts: dict[str, Fraction] = {p: Fraction(0) for p in participants}
    round_points: dict[int, dict[str, int]] = {}
    uniques: list[tuple[str, str]] = []  # (submitter, effective target), any round

    for rnd in range(1, ROUNDS + 1):
        entries = match.rounds.get(rnd, {})
        missing = [p for p in participants if p not in entries]
        assert not missing, f"round {rnd}: no counting submission for {missing}"
        eff = effective_targets(match, entries)
        this_round: dict[str, Fraction] = {p: Fraction(0) for p in participants}
        for who, entry in entries.items():
            for i, action in enumerate(entry.actions):
                e = eff[(who, i)]
                pe = match.partner(e)
                if action.type == "gift":
                    this_round[pe] += 1
                elif action.type == "predict":
                    if action.predicted in {a.type for a in entries[pe].actions}:
                        this_round[who] += 2
                        this_round[pe] -= 1
                elif action.type == "unique":
                    uniques.append((who, e))
                # learn / watch / swap: no points
        for p in participants:
            pts[p] += this_round[p]
        round_points[rnd] = {p: _whole(v) for p, v in this_round.items()}

    # Unique (W8): +2 per Unique unless another participant's Unique, any round, had the
    # same effective target.
    unique_points = {p: Fraction(0) for p in participants}
    for who, e in uniques:
        if not any(other != who and oe == e for other, oe in uniques):
            unique_points[who] += 2

    # Guesses (Round 3): a correct guess: guesser +1, the guessed participant -1.
    guess_points = {p: Fraction(0) for p in participants}
    correct: Counter = Counter()
    wrong: Counter = Counter()
    for who, entry in match.rounds.get(ROUNDS, {}).items():
        for guessed, named in entry.guesses:
            if match.partner(guessed) == named:
                guess_points[who] += 1
                guess_points[guessed] -= 1
                correct[who] += 1
            else:
                wrong[who] += 1
    for p in participants:
        pts[p] += unique_points[p] + guess_points[p]
    points = {p: _whole(v) for p, v in pts.items()}

    # ---- endgame
    order = {p: i for i, p in enumerate(match.players)}  # previous-MM order
    ranked = sorted(
        match.players,
        key=lambda p: (-(points[p] + points[match.pairs[p]]), -points[p], order[p]),
    )
    rank = {p: i + 1 for i, p in enumerate(ranked)}
    standings = [
        {
            "participant": p,
            "guest": match.pairs[p],
            "rank": rank[p],
            "total": points[p] + points[match.pairs[p]],
            "scores": {"player": points[p], "guest": points[match.pairs[p]]},
        }
        for p in ranked
    ]

    awards: list[tuple[str, str, int | None]] = []
    tol: dict[str, int] = {}
    if len(ranked) >= 1:
        tol[ranked[0]] = 2
    if len(ranked) >= 2:
        tol[ranked[1]] = 0
    for p, shards in tol.items():
        awards.append((p, "tol", shards))
    best_player = max(points[p] for p in match.players)
    for p in match.players:
        if points[p] == best_player and p in tol:
            awards.append((p, "tol_shard", 1))
    best_guest = max(points[g] for g in match.guests)
    for p in match.players:
        if points[match.pairs[p]] == best_guest and p in tol:
            awards.append((p, "tol_shard", 1))

    # EC (W9).  Candidates: players and guests of pairs without a ToL.  "Lowest" with
    # ties broken towards the worse-ranked pair.
    no_tol = [p for p in ranked if p not in tol]

    def lowest(candidates: list[str]) -> str | None:
        if not candidates:
            return None
        return min(candidates, key=lambda c: (points[c], -rank[match.player_of(c)]))

    ecs: list[str] = []
    first = lowest(no_tol)
    second_guest = lowest([match.pairs[p] for p in no_tol])
    if first is not None:
        named_a = first
        named_b = match.player_of(second_guest)
        if named_a != named_b:
            ecs = [named_a, named_b]
        else:
            rest = [c for p in no_tol if p != named_a for c in (p, match.pairs[p])]
            nxt = lowest(rest)
            ecs = [named_a] if nxt is None else [named_a, match.player_of(nxt)]
    ecs.sort(key=lambda p: rank[p])  # the higher EC is the one whose pair ranks better
    for p in ecs:
        awards.append((p, "ec", None))

    # Contracts (players only); the latest record counts.
    def used_types(who: str) -> list[str]:
        return [a.type for rnd in range(1, ROUNDS + 1) for a in match.rounds[rnd][who].actions]

    def main_met(player: str) -> bool | None:
        names = match.contracts.get(player, [])
        mains = [n for n in names if n in MAIN_CONTRACTS]
        if not mains:
            return None
        name = mains[0]
        if name == "diversity":
            return all(len(set(used_types(w))) == 6 for w in (player, match.pairs[player]))
        if name == "generosity":
            return points[match.pairs[player]] >= points[player] + 2
        if name == "espionage":
            return correct[player] >= 4 and wrong[player] == 0
        raise AssertionError(name)

    contract_results: dict[str, dict[str, bool]] = {}
    for p in match.players:
        names = match.contracts.get(p, [])
        res: dict[str, bool] = {}
        for name in names:
            if name in MAIN_CONTRACTS:
                res[name] = bool(main_met(p))
                if res[name]:
                    awards.append((p, "shards", 2 if name == "espionage" else 1))
            elif name.startswith("sabotage:"):
                target = name.split(":", 1)[1]
                met = main_met(target) is not True  # fails its contract, or holds none
                res[name] = met
                if met:
                    awards.append((p, "shards", 1))
        contract_results[p] = res

    return OracleResult(
        points=points,
        round_points=round_points,
        unique_points={p: _whole(v) for p, v in unique_points.items()},
        guess_points={p: _whole(v) for p, v in guess_points.items()},
        standings=standings,
        awards=awards,
        ecs=ecs,
        contract_results=contract_results,
    )
