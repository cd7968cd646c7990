"""Фотограф as terminal text: the table, films and hands, the turns and the standings
(plain text, one line per row) for every read model."""

from __future__ import annotations

from matchledger.engine.state import View

from ...layout import outcome_lines, private_notices, reveal_lines, reveals_text
from ...wording import ending, plural, scores_words

LEGEND = (
    "Legend: red-7 face up; red-[1-6] / red-[7-12] face down (colour and range public); "
    "red-[4] face down, value known to this view; . empty place. "
    "Film rows list cards in play order; [..] there is a blurred shot (-2)."
)


def _table(table: list) -> list[str]:
    width = max([len(p) for row in table for p in row if p] + [4])
    lines = ["Table     " + " ".join(f"{'col ' + str(c):<{width}}" for c in range(1, 5))]
    for r, row in enumerate(table, start=1):
        lines.append(f"  row {r}   " + " ".join(f"{(p or '.'):<{width}}" for p in row))
    return lines


def _films(players: list) -> list[str]:
    lines = ["Films"]
    for p in players:
        shots = f"  successful shots: {', '.join(p['good_shots'])}" if p["good_shots"] else ""
        lines.append(f"  {p['participant']} (seat {p['seat']}, {p['hand_size']} in hand){shots}")
        for colour, cards in p["film"].items():
            if cards:
                values = " ".join(c.partition("-")[2] for c in cards)
                lines.append(f"    {colour:<7} {values}")
    return lines


def _header(data: dict) -> str:
    phase = data["phase"]
    if phase == "finished":
        text = f"game over ({ending(data['end_reason'], 'photographer')})"
    elif phase == "end":
        text = f"end phase ({ending(data['end_reason'], 'photographer')}), turn {data['turn']}: {data['to_play']} winds and shoots two"
    else:
        text = f"turn {data['turn']}: {data['to_play']} to play"
    deck = f"deck {plural(data['deck'], 'card')}"
    if data.get("sunset"):
        deck += f", sunset {data['sunset']}"
    return f"{text}; {deck}"


def board_text(data: dict) -> str:
    lines = [_header(data), *_table(data["table"]), *_films(data["players"])]
    if "hand" in data:
        lines.append(f"Your hand (bottom first): {' '.join(data['hand']) or '-'}")
    if "hands" in data:
        lines.append("Hands (bottom first)")
        for player, hand in data["hands"].items():
            lines.append(f"  {player:<8} {' '.join(hand) or '-'}")
        lines.append(f"Deck (top first): {' '.join(data['deck_order']) or '-'}")
    lines.append(LEGEND)
    return "\n".join(lines)


def _public_turn(pub: dict) -> str:
    if pub["phase"] == "main":
        take = pub["take"]
        text = f"took {take['count']} from row {take['row']} {take['end']}: {' '.join(pub['taken'])}; "
    else:
        text = "end phase; "
    text += f"shot {' '.join(pub['shots'])}"
    if pub["good_shots"]:
        text += f"; successful shot {', '.join(pub['good_shots'])}"
    if pub.get("refill"):
        text += f"; refill {' '.join(r['card'] for r in pub['refill'])}"
    if pub.get("game_end"):
        text += f"; GAME ENDS ({ending(pub['game_end'], 'photographer')})"
    return text


def _private_turn(notice: dict) -> str:
    text = f"wind {notice['wind'] or '-'}; shot {' '.join(notice['shots'])}; hand {' '.join(notice['hand'])}"
    if "taken" in notice:
        text += f"; took {' '.join(notice['taken'])}"
    return text


def _turns(turns: list, view: View) -> list[list[str]]:
    """Each turn in the layout every game shares: public, then the private notices."""
    return [
        reveal_lines(
            f"Turn {entry['public']['turn']}: {entry['public']['participant']}",
            _public_turn(entry["public"]),
            [(who, _private_turn(notice)) for who, notice in private_notices(entry.get("private"), view, keyed=False)],
            shows_private="private" in entry,
        )
        for entry in turns
    ]


def _outcome(outcome: dict | None) -> list[str] | None:
    return outcome_lines(outcome) if outcome and outcome.get("finished") else None


def text(model: str, data: dict, view: View) -> str | None:
    if model == "status":
        lines = [board_text(data)]
        if data.get("waiting_for"):
            lines.append("waiting for: " + ", ".join(data["waiting_for"]))
        if "abandoned" in data:
            reason = f": {data['abandoned']['reason']}" if "reason" in data["abandoned"] else ""
            lines.append(f"abandoned at seq {data['abandoned']['seq']}{reason}")
        return "\n".join(lines)
    if model == "knowledge":
        lines = [f"Knowledge of {data['participant']}", board_text(data), ""]
        turns = reveals_text(_turns(data["turns"], view), _outcome(data.get("outcome")), "no turn played yet")
        return "\n".join(lines) + "\n" + turns
    if model == "reveals":
        return reveals_text(_turns(data["turns"], view), _outcome(data.get("outcome")), "no turn played yet")
    if model == "outcome":
        return "\n".join(outcome_lines(data))
    if model == "scores":
        lines = ["Scores" + (" (final)" if data["finished"] else " (so far)")]
        for s in data["scores"]:
            lines.append(f"  {s['participant']:<8} {s['points']:>4}  ({scores_words(s['scores'], 'photographer')})")
        return "\n".join(lines)
    return None
