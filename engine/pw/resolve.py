"""Resolving a round: Swaps first (W6), then Gift, Learn (W7), Predict, Watch at once;
Unique (W8) and guesses when Round 3 closes.  Pure."""

from __future__ import annotations

from engine.base import MatchState

from .model import PWState, RoundResult, public_order, zero_counts
from .notation import Action, split_tokens


def resolve(state: MatchState, round_no: int) -> RoundResult:
    g: PWState = state.g
    subs = state.round_submissions(round_no)
    actions: dict[str, list[Action]] = {}
    guesses = {}
    for participant in state.participants:
        acts, gs = split_tokens(subs[participant].tokens) if participant in subs else ([], [])
        actions[participant] = acts
        if gs:
            guesses[participant] = gs

    # W6: a pair is swapped when at least two Swap actions target its members (either one).
    swaps_on: dict[str, int] = {p: 0 for p in g.players}
    for acts in actions.values():
        for action in acts:
            if action.type == "swap":
                swaps_on[g.pair_of(action.target)] += 1
    swapped = [p for p in g.players if swaps_on[p] >= 2]
    swapped_set = set(swapped)

    def effective(target: str) -> str:
        # W6: redirected to the other member exactly once (no stacking, no chaining).
        return g.partner[target] if g.pair_of(target) in swapped_set else target

    eff = {p: [effective(a.target) for a in acts] for p, acts in actions.items()}

    counts = zero_counts()
    for acts in actions.values():
        for action in acts:
            counts[action.type] += 1

    order = public_order(g.players, g.guest_of.values())
    points = {p: 0 for p in state.participants}
    learn: dict[str, list[dict]] = {}
    watch: dict[str, list[dict]] = {}
    for submitter, acts in actions.items():
        for action, target in zip(acts, eff[submitter]):
            other = g.partner[target]  # partner(E)
            if action.type == "gift":
                points[other] += 1
            elif action.type == "predict":
                # Several hits all apply: one hit per Predict action whose type partner(E) used.
                if action.predict in {a.type for a in actions[other]}:
                    points[submitter] += 2
                    points[other] -= 1
            elif action.type == "learn":
                # W7: partner(E)'s two actions as type, submitted target, predicted type;
                # never who partner(E) (or E) is.
                learn.setdefault(submitter, []).append(
                    {"target": action.target, "actions": [_learned(a) for a in actions[other]]}
                )
            elif action.type == "watch":
                # Everyone whose action had effective target E this round, Swaps and the watcher included.
                seen = {p for p, targets in eff.items() if target in targets}
                watch.setdefault(submitter, []).append(
                    {"target": action.target, "seen": [p for p in order if p in seen]}
                )

    previous = g.rounds.get(round_no - 1)
    before = previous.totals if previous is not None else {p: 0 for p in state.participants}
    result = RoundResult(
        round=round_no,
        actions=actions,
        effective=eff,
        swapped=swapped,
        type_counts=counts,
        round_points=points,
        end_points={p: 0 for p in state.participants},
        totals={},
        learn=learn,
        watch=watch,
        guesses=guesses,
    )
    if round_no == 3:
        _end_of_match(state, result)
    result.totals = {p: before[p] + points[p] + result.end_points[p] for p in state.participants}
    return result


def _learned(action: Action) -> dict:
    item = {"type": action.type, "target": action.target}
    if action.type == "predict":
        item["predict"] = action.predict
    return item


def _end_of_match(state: MatchState, result: RoundResult) -> None:
    g: PWState = state.g
    # W8: Unique scores 2 when no *other* participant's Unique (any round) had the same effective target.
    rounds = [g.rounds[r] for r in sorted(g.rounds) if r < result.round] + [result]
    uniques: list[tuple[str, str]] = []
    for res in rounds:
        for submitter, acts in res.actions.items():
            for action, target in zip(acts, res.effective[submitter]):
                if action.type == "unique":
                    uniques.append((submitter, target))
    unique_points = {p: 0 for p in state.participants}
    for submitter, target in uniques:
        if not any(t == target and s != submitter for s, t in uniques):
            unique_points[submitter] += 2
    # Guesses: a correct guess steals 1 from the participant whose partner was guessed.
    guess_points = {p: 0 for p in state.participants}
    record = {}
    for guesser, gs in result.guesses.items():
        correct = wrong = 0
        for guess in gs:
            if g.partner[guess.guessed] == guess.partner:
                correct += 1
                guess_points[guesser] += 1
                guess_points[guess.guessed] -= 1
            else:
                wrong += 1
        record[guesser] = {"correct": correct, "wrong": wrong}
    result.unique_points = unique_points
    result.guess_points = guess_points
    result.guess_record = record
    result.end_points = {p: unique_points[p] + guess_points[p] for p in state.participants}


