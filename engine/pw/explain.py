"""`explain`: one participant's points derived line by line, with the rule behind each.

A host/auditor tool: it names who gave, predicted, guessed and whose partner is whose.
Built from the engine's own resolution of each closed round (``state.g.rounds``), so the
lines sum exactly to the points `scores` shows.  Categories: ``round points`` (Gift and
Predict, as rounds close), then, once Round 3 is closed, ``unique`` (W8) and
``guesses``.  Points are whole numbers: ``exact`` equals ``score``.
"""

from __future__ import annotations

from matchledger.engine.explanation import category, explanation, line
from matchledger.engine.state import MatchState

from .model import PWState


def _redirect(g: PWState, result, submitter: str, index: int) -> tuple[str, str]:
    """(effective target, W6 note or '') of ``submitter``'s ``index``-th action."""
    action = result.actions[submitter][index]
    effective = result.effective[submitter][index]
    if effective != action.target:
        return effective, f"W6 swap redirected {action.token()} to {effective}; "
    return effective, ""


def round_lines(g: PWState, p: str) -> list[dict]:
    lines = []
    for round_no in sorted(g.rounds):
        result = g.rounds[round_no]
        for submitter, acts in result.actions.items():
            for index, action in enumerate(acts):
                target, note = _redirect(g, result, submitter, index)
                other = g.partner[target]  # partner(E)
                where = f"round {round_no}: {submitter}'s {action.token()}"
                if action.type == "gift" and other == p:
                    lines.append(
                        line(1, f"{note}gift: partner(E) gains 1", f"{where}; E = {target}, whose partner {p} gains 1")
                    )
                elif action.type == "predict":
                    used = [a.type for a in result.actions[other]]
                    if action.predict not in used:
                        if submitter == p:
                            lines.append(
                                line(
                                    0,
                                    f"{note}predict missed: partner(E) did not use {action.predict}",
                                    f"{where}; partner(E) = {other} used {', '.join(used)}",
                                )
                            )
                        continue
                    if submitter == p:
                        lines.append(
                            line(
                                2,
                                f"{note}predict hit: the submitter gains 2",
                                f"{where}; partner(E) = {other} used {action.predict}",
                            )
                        )
                    if other == p:
                        lines.append(
                            line(
                                -1,
                                f"{note}predict hit: partner(E) loses 1",
                                f"{where}; E = {target}, whose partner {p} used {action.predict}",
                            )
                        )
    return lines


def unique_lines(g: PWState, p: str) -> list[dict]:
    uniques: list[tuple[int, str, str, str]] = []  # (round, submitter, token, effective target)
    for round_no in sorted(g.rounds):
        result = g.rounds[round_no]
        for submitter, acts in result.actions.items():
            for index, action in enumerate(acts):
                if action.type == "unique":
                    target, _note = _redirect(g, result, submitter, index)
                    uniques.append((round_no, submitter, action.token(), target))
    lines = []
    for round_no, submitter, token, target in uniques:
        if submitter != p:
            continue
        note = f" (W6: effective target {target})" if token != f"unique:{target}" else ""
        clashes = [f"{s}'s {t} in round {r}" for r, s, t, e in uniques if e == target and s != p]
        if clashes:
            lines.append(
                line(
                    0,
                    f"W8 unique scores nothing: another participant's Unique had effective target {target}",
                    f"round {round_no}: {token}{note}; also {', '.join(clashes)}",
                )
            )
        else:
            lines.append(
                line(
                    2,
                    f"W8 unique: no other participant's Unique had effective target {target}",
                    f"round {round_no}: {token}{note}",
                )
            )
    return lines


def guess_lines(g: PWState, p: str) -> list[dict]:
    result = g.rounds[3]
    lines = []
    for guesser, guesses in result.guesses.items():
        for guess in guesses:
            correct = g.partner[guess.guessed] == guess.partner
            if guesser == p:
                if correct:
                    lines.append(
                        line(
                            1,
                            "guess correct: the guesser gains 1",
                            f"{guess.token()}: {guess.guessed}'s partner is {guess.partner}",
                        )
                    )
                else:
                    lines.append(
                        line(
                            0,
                            "guess wrong: costs nothing",
                            f"{guess.token()}: {guess.guessed}'s partner is {g.partner[guess.guessed]}",
                        )
                    )
            if guess.guessed == p and correct:
                lines.append(
                    line(
                        -1,
                        "guess correct: the participant whose partner was guessed loses 1",
                        f"{guesser}'s {guess.token()}",
                    )
                )
    return lines


def explain(state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    g: PWState = state.g
    categories = [category("round points", round_lines(g, participant))]
    if 3 in g.rounds:  # Unique and guesses are applied when Round 3 closes
        categories.append(category("unique", unique_lines(g, participant)))
        categories.append(category("guesses", guess_lines(g, participant)))
    return explanation(state, participant, categories)
