"""The end of the match: pair ranking, ToLs and bonus shards, ECs (W9), contracts and
every contract's result."""

from __future__ import annotations

from dataclasses import dataclass

from matchledger.engine.state import MatchState

from .model import PWState

TOL_CAP = 4
SABOTAGE = "sabotage"


@dataclass
class Endgame:
    ranked: list[str]  # players, best pair first
    totals: dict[str, int]
    awards: list[dict]
    contracts: list[dict]  # every contract's result, players by name


def ranking(g: PWState, totals: dict[str, int]) -> list[str]:
    """Pair score descending, then player points descending, then previous-MM (listed) order."""
    index = {p: i for i, p in enumerate(g.players)}
    return sorted(
        g.players,
        key=lambda p: (-(totals[p] + totals[g.guest_of[p]]), -totals[p], index[p]),
    )


def contract_met(state: MatchState, player: str, name: str, totals: dict[str, int]) -> bool:
    g: PWState = state.g
    guest = g.guest_of[player]
    if name == "diversity":
        # The player and their guest each used six different types over the match.
        for member in (player, guest):
            used = [a.type for r in sorted(g.rounds) for a in g.rounds[r].actions[member]]
            if len(set(used)) != 6 or len(used) != 6:
                return False
        return True
    if name == "generosity":
        return totals[guest] >= totals[player] + 2
    if name == "espionage":
        record = g.rounds[3].guess_record.get(player, {"correct": 0, "wrong": 0}) if 3 in g.rounds else None
        return record is not None and record["correct"] >= 4 and record["wrong"] == 0
    return False


def main_contract(state: MatchState, player: str) -> str | None:
    for name in state.contracts.get(player, []):
        if not name.startswith("sabotage:"):
            return name
    return None


def endgame(state: MatchState) -> Endgame:
    g: PWState = state.g
    totals = g.totals()
    ranked = ranking(g, totals)
    awards: list[dict] = []

    # ToLs: best pair's player 2/4, second pair's player 0/4.
    tol: dict[str, int] = {}
    for player, shards, reason in zip(ranked, (2, 0), ("best pair", "second pair")):
        tol[player] = shards
        awards.append({"participant": player, "kind": "tol", "shards": shards, "reason": reason})

    # Bonus shards: every player / guest tied for the highest score; onto a ToL from this
    # match only (lost otherwise, not listed), never above 4 shards.
    def bonus(holder: str, reason: str) -> None:
        if holder in tol and tol[holder] < TOL_CAP:
            tol[holder] += 1
            awards.append({"participant": holder, "kind": "tol_shard", "shards": 1, "reason": reason})

    top_player = max(totals[p] for p in g.players)
    for player in ranked:
        if totals[player] == top_player:
            bonus(player, "highest player")
    top_guest = max(totals[g.guest_of[p]] for p in g.players)
    for player in ranked:
        if totals[g.guest_of[player]] == top_guest:
            bonus(player, "highest guest")

    awards.extend(ecs(g, ranked, totals))

    # Contracts (players only), in listed order; shards go to the inventory.
    held = {player: player_contracts(state, player, totals) for player in g.players}
    for player in g.players:
        for result in held[player]:
            if result["succeeded"] and result["contract"] == SABOTAGE:
                awards.append({"participant": player, "kind": "shards", "shards": 1, "reason": "sabotage pact"})
            elif result["succeeded"]:
                main = result["contract"]
                shards = 2 if main == "espionage" else 1
                awards.append(
                    {"participant": player, "kind": "shards", "shards": shards, "reason": f"contract: {main}"}
                )
    results = [result for player in state.canonical(g.players) for result in held[player]]
    return Endgame(ranked=ranked, totals=totals, awards=awards, contracts=results)


def player_contracts(state: MatchState, player: str, totals: dict[str, int]) -> list[dict]:
    """``player``'s contracts and whether each succeeded (public at the end: "contract
    results"), a failed one as well as one that pays: their non-pact contract, then a
    Sabotage Pact with the player it names."""
    results = []
    main = main_contract(state, player)
    if main is not None:
        results.append(
            {"participant": player, "contract": main, "succeeded": contract_met(state, player, main, totals)}
        )
    for name in state.contracts.get(player, []):
        if name.startswith("sabotage:"):
            target = name.partition(":")[2]
            other = main_contract(state, target)
            # The named player fails their non-pact contract (or holds none).
            failed = other is None or not contract_met(state, target, other, totals)
            results.append({"participant": player, "contract": SABOTAGE, "target": target, "succeeded": failed})
    return results


def ecs(g: PWState, ranked: list[str], totals: dict[str, int]) -> list[dict]:
    """W9: among pairs without a ToL, the lowest player is EC and the partner of the lowest
    guest is EC; if both name the same player, the next lowest score among those players
    and guests (a guest names their partner) names the second EC, skipping that player.
    Ties: the worse-ranked pair is chosen.  The higher EC is the one whose pair ranks better."""
    rank = {p: i for i, p in enumerate(ranked)}
    candidates = ranked[2:]
    if not candidates:
        return []

    def lowest(entries: list[tuple[int, str]]) -> str:
        # (score, player named): lowest score, ties to the worse-ranked pair.
        return min(entries, key=lambda e: (e[0], -rank[e[1]]))[1]

    by_player = lowest([(totals[p], p) for p in candidates])
    by_guest = lowest([(totals[g.guest_of[p]], p) for p in candidates])
    chosen: dict[str, str] = {}
    if by_player != by_guest:
        chosen[by_player] = "lowest player"
        chosen[by_guest] = "lowest guest"
    else:
        chosen[by_player] = "lowest player and lowest guest"
        rest = [(totals[p], p) for p in candidates if p != by_player]
        rest += [(totals[g.guest_of[p]], p) for p in candidates if p != by_player]
        if rest:
            chosen[lowest(rest)] = "next lowest"
    names = sorted(chosen, key=lambda p: rank[p])
    labels = ["higher EC", "lower EC"] if len(names) == 2 else ["only EC"]
    return [{"participant": p, "kind": "ec", "reason": f"{chosen[p]} ({label})"} for p, label in zip(names, labels)]
