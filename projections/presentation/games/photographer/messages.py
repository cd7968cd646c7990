"""Фотограф: what to post and to send each player after a turn.

A public message holds the turn as everyone sees it (the take, the shots, successful
shots, the refill, the deck) and, when the game is over, the final standings; a
player's message holds their hand after the turn and who plays next, for the player who
moved also what they took (the values of face-down cards included), their wind and
their shots, for the player to play next also the table, and at the end their own line
of the standings.  Each is taken from `reveals --public` or that player's `knowledge`,
nothing else."""

from __future__ import annotations

from ...wording import ending, scores_words
from .text import _table as table_lines  # the table as `status` draws it


def _entry(turns: list[dict], turn: int) -> dict:
    return next(entry for entry in turns if entry["turn"] == turn)


def public_message(reveals: dict, turn: int) -> dict:
    message = {"turn": turn, **_entry(reveals["turns"], turn)["public"]}
    outcome = reveals.get("outcome")
    if outcome and outcome.get("finished"):
        message["standings"] = outcome["standings"]
    return message


def participant_message(knowledge: dict, turn: int) -> dict:
    me = knowledge["participant"]
    entry = _entry(knowledge["turns"], turn)
    message = {"turn": turn, "player": entry["participant"], "phase": knowledge["phase"], "hand": knowledge["hand"]}
    if entry["participant"] == me:
        private = entry.get("private", {})
        message["submitted"] = entry.get("tokens", [])
        message.update({key: private[key] for key in ("taken", "wind", "shots") if key in private})
    message["to_play"] = knowledge["to_play"]
    if knowledge["to_play"] == me and knowledge["phase"] == "main":  # what they will take from
        message["table"] = knowledge["table"]
    outcome = knowledge.get("outcome") or {}
    if outcome.get("finished"):
        message["standing"] = next((s for s in outcome["standings"] if s["participant"] == me), None)
    return message


def _scores(standing: dict) -> str:
    return f"{standing['total']} ({scores_words(standing['scores'], 'photographer')})"


def _headline(match: str, message: dict) -> str:
    return f"{match}: turn {message['turn']}"


def public_lines(match: str, message: dict) -> list[str]:
    who = message["participant"]
    if message.get("phase") == "main":
        take = message["take"]
        did = f"{who} took {take['count']} from row {take['row']} ({take['end']}): {' '.join(message['taken'])}"
    else:
        did = f"{who} wound and shot (end phase)"
    lines = [f"{_headline(match, message)}: {did}.", f"Shot: {' '.join(message['shots']) or '-'}."]
    if message.get("good_shots"):
        lines.append(f"Successful shot: {', '.join(message['good_shots'])}.")
    if message.get("refill"):
        lines.append(f"Refilled: {' '.join(r['card'] for r in message['refill'])}.")
    if "deck" in message:  # the end phase draws nothing
        lines.append(f"Deck: {message['deck']} card(s) left.")
    if message.get("game_end"):
        lines.append(f"The game ends: {ending(message['game_end'], 'photographer')}; each player winds and shoots two.")
    if "standings" in message:
        lines.append("Final standings:")
        lines += [f"  {s['rank']}. {s['participant']}  {_scores(s)}" for s in message["standings"]]
    return lines


def participant_lines(match: str, name: str, message: dict) -> list[str]:
    lines = [f"{_headline(match, message)} ({message['player']})."]
    if "shots" in message:
        took = f"You took {' '.join(message['taken'])}; " if message.get("taken") else "You "
        wound = f"wound {message['wind']}" if message.get("wind") else "did not wind"
        lines.append(f"{took}{wound}; shot {' '.join(message['shots']) or 'nothing'}.")
    lines.append(f"Your hand (bottom first): {' '.join(message['hand']) or '-'}")
    standing = message.get("standing")
    if standing:
        lines.append(f"Final: rank {standing['rank']} with {_scores(standing)}.")
    elif message.get("to_play") == name:
        if message.get("phase") == "end":
            lines.append("Your turn next: wind, then shoot your two bottom cards.")
        else:
            lines.append("Your turn next. The table:" if "table" in message else "Your turn next.")
        lines += [line.rstrip() for line in table_lines(message["table"])] if "table" in message else []
    elif message.get("to_play"):
        lines.append(f"Next to play: {message['to_play']}.")
    return lines
