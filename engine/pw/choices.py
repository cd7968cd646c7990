"""pw's legal choices (:mod:`matchledger.engine.choices`), from what the participant may
know: their own role, partner and submissions, and who takes part.

Two actions (W1), each a type on a target, Predict with a predicted type, which may be
any of the six, Predict itself included (``predict:bob=predict`` is legal); targets are
neither the submitter nor their partner, and differ (W2).  Over the match a type is
used at most twice by a pair (W4): as far as the participant knows, by their own
earlier rounds.  What their partner submitted (W3, and the partner's share of W4) is
not in their view, so it narrows nothing here (``ParallelWorlds.CHOICES_HIDDEN``).  In
Round 3, at most one guess per other participant of their own role, naming one of the
other role (the Addendum).
"""

from __future__ import annotations

from collections import Counter

from matchledger.engine.choices import closed
from matchledger.engine.state import MatchState

from .model import PWState
from .notation import TYPES, split_tokens

#: W4: a pair uses a type at most this often over the match.
TYPE_USES = 2
#: W1: actions in a submission.
ACTIONS = 2
FIELDS = [
    {"name": "type", "label": "type"},
    {"name": "target", "label": "on"},
    {"name": "predict", "label": "predicted type (predict only)"},
]


def choices(game, state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    over = closed(game, state)
    if over is not None:
        return over
    g: PWState = state.g
    round_no = state.round
    partner = g.partner[participant]
    targets = [p for p in state.participants if p not in (participant, partner)]  # W2
    options = _actions(targets)
    parts = [
        {
            "name": f"a{i}",
            "label": f"Action {i}",
            "min": 1,
            "max": 1,
            "ordered": False,
            "options": options,
            "fields": FIELDS,
        }
        for i in range(1, ACTIONS + 1)
    ]
    used = Counter(a.type for earlier in range(1, round_no) for a in _own_actions(state, earlier, participant))
    names = [part["name"] for part in parts]
    constraints = [
        {"kind": "distinct", "parts": names, "field": "target"},  # W2
        {"kind": "at_most", "parts": names, "field": "type", "counts": {t: TYPE_USES - used[t] for t in TYPES}},  # W4
    ]
    prompt = f"Round {round_no}: two actions"
    if round_no == game.ROUNDS:
        parts += _guesses(g, participant)
        prompt += ", and your guesses of partners if you like"
    typed = f"gift:{targets[0]} predict:{targets[-1]}=swap" if targets else "gift:NAME predict:NAME=TYPE"
    return {"prompt": prompt, "parts": parts, "constraints": constraints, "typed": typed}


def _own_actions(state: MatchState, round_no: int, participant: str):
    sub = state.current_submission(round_no, participant)
    return split_tokens(sub.tokens)[0] if sub is not None else []


def _actions(targets: list[str]) -> list[dict]:
    options = []
    for kind in TYPES:
        for target in targets:
            if kind == "predict":
                for predicted in TYPES:  # W1: any type, predict included
                    options.append(
                        {
                            "tokens": [f"predict:{target}={predicted}"],
                            "label": f"predict {predicted} on {target}",
                            "fields": {"type": kind, "target": target, "predict": predicted},
                        }
                    )
            else:
                options.append(
                    {
                        "tokens": [f"{kind}:{target}"],
                        "label": f"{kind} on {target}",
                        "fields": {"type": kind, "target": target},
                    }
                )
    return options


def _guesses(g: PWState, participant: str) -> list[dict]:
    """One part per other participant of the guesser's role, in the order guesses are
    recorded (players as listed, then guests by name)."""
    guests = sorted(g.guest_of.values())
    if g.role[participant] == "player":
        guessed, partners = [p for p in g.players if p != participant], guests
    else:
        guessed, partners = [x for x in guests if x != participant], list(g.players)
    return [
        {
            "name": f"guess_{who}",
            "label": f"{who}'s partner",
            "min": 0,
            "max": 1,
            "ordered": False,
            "options": [{"tokens": [f"guess:{who}={partner}"], "label": partner} for partner in partners],
        }
        for who in guessed
    ]
