"""Parallel Worlds: what to post and to send each participant when a round closes.

A public message holds how often each type was played and, after Round 3, the awards
as announced (player-level, reasons naming only the award) and every contract's
result; a participant's message holds their own actions for the round, their and their
partner's points after it, the results of their Learn and Watch actions and, at the
end, their pair's awards and contract results.  Each is
taken from `reveals --public` or that participant's `knowledge`, nothing else."""

from __future__ import annotations

from ...wording import award, awards_by_participant, contract_result, contracts_by_participant, names


def _entry(rounds: list[dict], round_no: int) -> dict:
    return next(entry for entry in rounds if entry["round"] == round_no)


def public_message(reveals: dict, round_no: int) -> dict:
    message = {"round": round_no, **_entry(reveals["rounds"], round_no)["public"]}
    if "outcome" in reveals:
        message["awards"] = reveals["outcome"]["awards"]
        message["contracts"] = reveals["outcome"].get("contracts", [])
    return message


def participant_message(knowledge: dict, round_no: int) -> dict:
    me, partner = knowledge["participant"], knowledge["partner"]
    submitted: list[str] = next((s["tokens"] for s in knowledge["submissions"] if s["round"] == round_no), [])
    message = {
        "round": round_no,
        "role": knowledge["role"],
        "partner": partner,
        "submitted": submitted,
        **_entry(knowledge["rounds"], round_no)["notice"],
    }
    if knowledge["finished"]:
        message["awards"] = [a for a in knowledge["awards"] if a["participant"] in (me, partner)]
        message["contracts"] = [r for r in knowledge.get("contracts", []) if r["participant"] in (me, partner)]
    return message


def _headline(match: str, message: dict) -> str:
    return f"{match}: round {message['round']} is closed."


def public_lines(match: str, message: dict) -> list[str]:
    counts = ", ".join(f"{kind} {count}" for kind, count in message["type_counts"].items())
    lines = [_headline(match, message), f"Actions played: {counts}."]
    if "awards" in message:
        awards = awards_by_participant(message["awards"], sorted({a["participant"] for a in message["awards"]}), "pw")
        lines.append("Final awards:" if awards else "Final awards: none.")
        lines += [f"  {line}" for line in awards]
    if "contracts" in message:
        results = contracts_by_participant(message["contracts"], "pw")
        lines.append("Contract results:" if results else "Contract results: none held.")
        lines += [f"  {line}" for line in results]
    return lines


def _action(action: dict) -> str:
    """``{"type": "predict", "target": "gus", "predict": "learn"}`` -> ``predict on gus
    (predicting learn)``."""
    words = f"{action.get('type')} on {action.get('target')}"
    return words + (f" (predicting {action['predict']})" if "predict" in action else "")


def _learned(item: dict) -> str:
    actions = [_action(a) for a in item.get("actions", [])]
    return f"Your Learn on {item.get('target')} revealed: {names(actions) or 'nothing'}."


def _watched(item: dict) -> str:
    seen = item.get("seen", [])
    return f"Your Watch on {item.get('target')} saw actions from {names(seen) or 'nobody'}."


def participant_lines(match: str, name: str, message: dict) -> list[str]:
    partner = message["partner"]
    lines = [_headline(match, message)]
    submitted = message.get("submitted") or []
    lines.append(
        f"You played: {' '.join(submitted)}" if submitted else f"You submitted nothing in round {message['round']}."
    )
    when = "Final points" if "awards" in message else "Points now"
    lines.append(f"{when}: you {message['own_points']}, your partner {partner} {message['partner_points']}.")
    lines += [_learned(item) for item in message.get("learn", [])]
    lines += [_watched(item) for item in message.get("watch", [])]
    if "awards" in message:
        held = "; ".join(award(a, "pw") for a in message["awards"])  # a player's: the pair's
        whose = "Your awards" if message["role"] == "player" else f"Your partner {partner}'s awards"
        lines.append(f"{whose}: {held}." if held else f"{whose}: none.")
    if "contracts" in message:  # a player's: the pair's, like the awards
        results = "; ".join(contract_result(r, "pw") for r in message["contracts"])
        whose = "Your contracts" if message["role"] == "player" else f"Your partner {partner}'s contracts"
        lines.append(f"{whose}: {results}." if results else f"{whose}: none held.")
    return lines
