"""Endgame: ranking (ruling L1), ToLs, bonus shards (L6), the filming ToL, ECs and
contracts, and every contract's result.  Works on the rounded category scores only."""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ("lights", "camera", "action", "filming")
BONUS_CATEGORIES = ("lights", "camera", "action")
RANK_TOL = {1: 3, 2: 2, 3: 1}
TOL_CAPACITY = 4
CHOICES = ("lights", "camera", "action")
SUPREMACY = "supremacy"
CONTRACT_SHARDS = {"lights": 1, "camera": 1, "action": 2}
SUPREMACY_SHARDS = 3
LIGHTS_CONTRACT_CELLS = 50
CAMERA_CONTRACT_CAMERAS = 2
ACTION_CONTRACT_SHARE = 50


@dataclass
class Standing:
    participant: str
    rank: int
    total: int
    scores: dict[str, int]

    def as_dict(self) -> dict:
        return {
            "participant": self.participant,
            "rank": self.rank,
            "total": self.total,
            "scores": {k: self.scores[k] for k in CATEGORIES},
        }


def rank_players(players: list[str], scores: dict[str, dict[str, int]]) -> list[Standing]:
    """L1: total descending, then filming descending, then listed (previous-MM) order."""
    order = sorted(
        range(len(players)),
        key=lambda i: (-sum(scores[players[i]].values()), -scores[players[i]]["filming"], i),
    )
    return [
        Standing(players[i], rank, sum(scores[players[i]].values()), dict(scores[players[i]]))
        for rank, i in enumerate(order, start=1)
    ]


def contract_met(choice: str, player: str, facts: dict) -> bool:
    """``facts``: lit_cells[player], exclusive_cameras[player], best_share[player]."""
    if choice == "lights":
        return facts["lit_cells"][player] >= LIGHTS_CONTRACT_CELLS
    if choice == "camera":
        return facts["exclusive_cameras"][player] >= CAMERA_CONTRACT_CAMERAS
    if choice == "action":
        return facts["best_share"][player] >= ACTION_CONTRACT_SHARE
    return False


def awards(standings: list[Standing], contracts: dict[str, list[str]], facts: dict) -> list[dict]:
    """Awards in a fixed order: ranking ToLs (rank order) each followed by its bonus
    shards (lights, camera, action); the filming ToL; contract awards (rank order);
    ECs (rank n, rank n-1, lowest filming)."""
    result: list[dict] = []
    ranked = [s.participant for s in standings]
    by_name = {s.participant: s for s in standings}
    n = len(standings)
    best = {cat: max(s.scores[cat] for s in standings) for cat in CATEGORIES}
    holders: set[str] = set()
    for s in standings:
        if s.rank not in RANK_TOL:
            continue
        shards = RANK_TOL[s.rank]
        holders.add(s.participant)
        result.append({"participant": s.participant, "kind": "tol", "shards": shards, "reason": f"rank {s.rank}"})
        for cat in BONUS_CATEGORIES:
            # ties for the highest all get the bonus ("highest" of 0 still counts);
            # L6: a ToL holds at most 4 shards, a shard beyond that is lost and not listed
            if s.scores[cat] == best[cat] and shards < TOL_CAPACITY:
                shards += 1
                result.append(
                    {"participant": s.participant, "kind": "tol_shard", "shards": 1, "reason": f"highest {cat}"}
                )
    # highest filming: a 4/4 ToL to the best-ranked of the tied players only
    filming_winner = next(s.participant for s in standings if s.scores["filming"] == best["filming"])
    holders.add(filming_winner)
    result.append({"participant": filming_winner, "kind": "tol", "shards": 4, "reason": "highest filming"})
    # contracts (recorded before Round 1 closed): what each one that succeeded pays, and
    # the pact's Mark for every acceptor but its winner
    results = contract_results(standings, contracts, facts, ranked)
    met = {(entry["participant"], entry["contract"]): entry["succeeded"] for entry in results}
    for p in ranked:
        for choice in CHOICES:
            if met.get((p, choice)):
                result.append(
                    {
                        "participant": p,
                        "kind": "shards",
                        "shards": CONTRACT_SHARDS[choice],
                        "reason": f"contract: {choice}",
                    }
                )
        if (p, SUPREMACY) in met:
            if met[p, SUPREMACY]:
                result.append(
                    {"participant": p, "kind": "shards", "shards": SUPREMACY_SHARDS, "reason": "supremacy pact"}
                )
            else:
                result.append({"participant": p, "kind": "mark", "reason": "supremacy pact"})
    # ECs: the two lowest-ranked ...
    ecs = ranked[max(0, n - 2) :][::-1]
    for p in ecs:
        result.append({"participant": p, "kind": "ec", "reason": f"rank {by_name[p].rank}"})
    # ... then the lowest filming among players with no ToL from this match and not EC
    # (ties: the lowest-ranked)
    candidates = [s for s in standings if s.participant not in holders and s.participant not in ecs]
    if candidates:
        third = min(candidates, key=lambda s: (s.scores["filming"], -s.rank))
        result.append({"participant": third.participant, "kind": "ec", "reason": "lowest filming"})
    return result


def contract_results(
    standings: list[Standing], contracts: dict[str, list[str]], facts: dict, order: list[str]
) -> list[dict]:
    """Every contract held and whether it succeeded (public at the end: "contract
    results"), a failed one as well as one that pays: for each player in ``order``, their
    chosen contract, then the Supremacy Pact, which only its best-ranked acceptor wins."""
    ranked = [s.participant for s in standings]
    pact = [p for p in ranked if SUPREMACY in contracts.get(p, ())]
    results = []
    for p in order:
        chosen = contracts.get(p, ())
        for choice in CHOICES:
            if choice in chosen:
                results.append({"participant": p, "contract": choice, "succeeded": contract_met(choice, p, facts)})
        if p in pact:
            results.append({"participant": p, "contract": SUPREMACY, "succeeded": p == pact[0]})
    return results
