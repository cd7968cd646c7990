"""Parallel Worlds as terminal text: ``outcome`` and ``reveals`` in the layout every
game shares (:mod:`..layout`), a standing being a pair (player + guest); ``status`` and
``knowledge`` in the generic text, saying "finished" rather than the round after the
last once the match is over."""

from __future__ import annotations

from matchledger.engine.state import View

from ...layout import outcome_lines, private_notices, reveal_lines, reveals_text
from ...panels import fmt
from ...text import generic_text

#: The heading of a standing's pair, in the text and in the panels alike.
PAIR_LABEL = "pair (player + guest)"


def pair(standing: dict) -> str:
    """A standing's pair: ``bob + ura``."""
    return f"{standing['participant']} + {standing['guest']}"


def outcome_text(data: dict) -> list[str]:
    return outcome_lines(data, who=pair, who_label=PAIR_LABEL)


def _action(action: dict) -> str:
    """An action in the notation a participant submits it: ``swap:ura``, ``predict:tof=gift``."""
    text = f"{action['type']}:{action['target']}"
    return f"{text}={action['predict']}" if "predict" in action else text


def notice_text(notice: dict) -> str:
    parts = [f"own points {notice['own_points']}", f"partner points {notice['partner_points']}"]
    parts += [
        f"learn {entry['target']}: {' '.join(_action(a) for a in entry['actions'])}"
        for entry in notice.get("learn", [])
    ]
    parts += [
        f"watch {entry['target']}: saw {', '.join(entry['seen']) or 'nobody'}" for entry in notice.get("watch", [])
    ]
    return "; ".join(parts)


def _reveals(data: dict, view: View) -> str:
    rounds = [
        reveal_lines(
            f"Round {entry['round']}",
            "action types " + fmt(entry["public"]["type_counts"]),
            [(who, notice_text(notice)) for who, notice in private_notices(entry.get("private"), view, keyed=True)],
            shows_private=not view.is_public,
        )
        for entry in data["rounds"]
    ]
    outcome = outcome_text(data["outcome"]) if "outcome" in data else None
    return reveals_text(rounds, outcome)


def _finished_reads_finished(data: dict) -> dict:
    """After the last round the model's ``round`` is the one after it, which no one plays."""
    if data.get("finished") and "round" in data:
        return {**data, "round": "finished"}
    return data


def text(model: str, data: dict, view: View) -> str | None:
    if model == "outcome":
        return "\n".join(outcome_text(data))
    if model == "reveals":
        return _reveals(data, view)
    if model in ("status", "knowledge"):
        return generic_text(_finished_reads_finished(data))
    return None
