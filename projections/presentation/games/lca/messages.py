"""Lights, Camera, Action!: what to post and to send each player when a round closes.

A public message holds the round's public announcement (with the studio in Round 1, to
draw the brightness) and, after Round 3, the final table, the awards and every
contract's result; a player's message holds
their own submission for the round, their private notice, their contract (Round 1,
when it becomes binding) and, at the end, their own line of the final table, their
awards and whether each of their contracts succeeded.  Each is taken from `reveals --public` or that player's `knowledge`, nothing
else."""

from __future__ import annotations

from matchledger.engine.lca.views import PHASES

from ...wording import awards_by_participant, contract, contract_result, contracts_by_participant, items, plural
from .text import lights_picture

CATEGORIES = ("lights", "camera", "action", "filming")
#: The private notice of each round, in words.
_NOTICE = {
    "lights_score": "Your lights score",
    "camera_score": "Your camera score",
    "action_score": "Your action score",
    "filming_score": "Your filming score",
}
_SUBMITTED = {1: "Your priorities", 2: "Your cameras", 3: "Your actions"}


def _entry(rounds: list[dict], round_no: int) -> dict:
    return next(entry for entry in rounds if entry["round"] == round_no)


def public_message(reveals: dict, round_no: int) -> dict:
    message = {"round": round_no, "phase": PHASES[round_no], **_entry(reveals["rounds"], round_no)["public"]}
    if round_no == 1:
        message["studio"] = reveals["studio"]
    if "outcome" in reveals:
        message["outcome"] = reveals["outcome"]
    return message


def participant_message(knowledge: dict, round_no: int) -> dict:
    me = knowledge["participant"]
    message = {
        "round": round_no,
        "phase": PHASES[round_no],
        "submitted": knowledge["submissions"].get(str(round_no), []),
        **_entry(knowledge["announcements"], round_no).get("private", {}),
    }
    if round_no == 1:  # contracts are recorded until Round 1 closes
        message["contract"] = knowledge["contract"]
    outcome = knowledge.get("outcome")
    if outcome:
        message["standing"] = next((s for s in outcome["standings"] if s["participant"] == me), None)
        message["awards"] = [a for a in outcome["awards"] if a["participant"] == me]
        message["contracts"] = [r for r in outcome.get("contracts", []) if r["participant"] == me]
    return message


def _headline(match: str, message: dict) -> str:
    return f"{match}: round {message['round']} ({message['phase']}) is closed."


def _scores(scores: dict) -> str:
    return ", ".join(f"{category} {scores[category]}" for category in CATEGORIES if category in scores)


def _final_table(outcome: dict) -> list[str]:
    lines = ["Final table:"]
    for s in outcome["standings"]:
        lines.append(f"  {s['rank']:>2}. {s['participant']}  {s['total']}  ({_scores(s['scores'])})")
    order = [s["participant"] for s in outcome["standings"]]
    awards = awards_by_participant(outcome["awards"], order, "lca")
    if awards:
        lines.append("Awards:")
        lines += [f"  {line}" for line in awards]
    results = contracts_by_participant(outcome.get("contracts", []), "lca")
    if results:
        lines.append("Contracts:")
        lines += [f"  {line}" for line in results]
    return lines


def public_lines(match: str, message: dict) -> list[str]:
    lines = [_headline(match, message)]
    if "lights" in message:
        lines.append(f"{plural(len(message['lights']), 'light')}: {items(message['lights']) or '-'}")
    if "brightness" in message and "studio" in message:
        lines.append("Brightness (* light, 1-5 brightness, # wall, . dark floor):")
        lines += lights_picture(message["studio"], message.get("lights", []), message["brightness"])
    if "cameras" in message:
        lines.append(f"{plural(len(message['cameras']), 'camera')}, by centre: {items(message['cameras']) or '-'}")
    if message["round"] == 3:
        lines.append("Actions are not announced.")
    if message.get("outcome", {}).get("finished"):
        lines += _final_table(message["outcome"])
    return lines


def _contract(names: list[str]) -> str:
    if not names:
        return "You hold no contract."
    return "Your contract: " + " + ".join(contract({"contract": n}, "lca") for n in names) + "."


def participant_lines(match: str, name: str, message: dict) -> list[str]:
    round_no = message["round"]
    lines = [_headline(match, message)]
    submitted = message.get("submitted") or []
    if submitted:
        lines.append(f"{_SUBMITTED[round_no]}: {' '.join(submitted)}")
    else:
        lines.append(f"You submitted nothing in round {round_no}.")
    if "lights" in message:
        lines.append(
            f"Your lights: {' '.join(message['lights'])}" if message["lights"] else "None of your cells got a light."
        )
    lines += [f"{words}: {message[key]}" for key, words in _NOTICE.items() if key in message]
    if "contract" in message:
        lines.append(_contract(message["contract"]))
    standing = message.get("standing")
    if standing:
        lines.append(f"Final: rank {standing['rank']} with {standing['total']} ({_scores(standing['scores'])}).")
        awards = awards_by_participant(message.get("awards", []), [], "lca")
        lines.append("Your awards: " + awards[0].partition(": ")[2] + "." if awards else "No awards.")
    if "contracts" in message:  # a failed contract as well as one that paid
        results = [contract_result(r, "lca") for r in message["contracts"]]
        lines.append("Your contracts: " + "; ".join(results) + "." if results else "You held no contract.")
    return lines
