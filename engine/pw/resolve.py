"""Resolving a round: Swaps first (W6), then Gift, Learn (W7), Predict, Watch at once;
Unique (W8) and guesses when Round 3 closes.  Pure."""

from __future__ import annotations

from matchledger.engine.state import MatchState

from .model import PWState, RoundResult, public_order, zero_counts
from .notation import Action, split_tokens


def resolve(state: MatchState, round_no: int) -> RoundResult:
    g: PWState = state.g
    participants = state.participants
    subs = state.round_submissions(round_no)
    actions: dict[str, list[Action]] = {}
    guesses = {}
    for participant in participants:
        acts, gs = split_tokens(subs[participant].tokens) if participant in subs else ([], [])
        actions[participant] = acts
        if gs:
            guesses[participant] = gs

    partner = g.partner
    role = g.role

    # One pass over the actions: W6 swap counts and the public type counts.  A type that
    # is no action type (a tampered log) raises its KeyError only after every target
    # has been looked up below, as when the counts were taken in a pass of their own.
    counts = zero_counts()
    bad_type = None
    # W6: a pair is swapped when at least two Swap actions target its members (either one).
    swaps_on: dict[str, int] = dict.fromkeys(g.players, 0)
    for acts in actions.values():
        for action in acts:
            kind = action.type
            if kind == "swap":
                target = action.target
                swaps_on[target if role[target] == "player" else partner[target]] += 1  # the player of its pair
            try:
                counts[kind] += 1
            except KeyError:
                if bad_type is None:
                    bad_type = kind
    swapped = [p for p in g.players if swaps_on[p] >= 2]
    swapped_set = set(swapped)

    # One pass: each action's effective target (W6: redirected to the other member
    # exactly once, no stacking, no chaining), then its effect on partner(E) = other.
    # Watch results need every effective target, so they are taken after the pass.
    eff: dict[str, list[str]] = {}
    points = dict.fromkeys(participants, 0)
    learn: dict[str, list[dict]] = {}
    watches: list[tuple[str, str, str]] = []  # (submitter, submitted target, effective target)
    for submitter, acts in actions.items():
        targets = []
        for action in acts:
            target = action.target
            pair = target if role[target] == "player" else partner[target]  # the player of its pair
            if pair in swapped_set:
                target = partner[target]
            targets.append(target)
            other = partner[target]  # partner(E)
            kind = action.type
            if kind == "gift":
                points[other] += 1
            elif kind == "predict":
                # Several hits all apply: one hit per Predict action whose type partner(E) used.
                predicted = action.predict
                for used in actions[other]:  # predicted in {a.type for a in actions[other]}
                    if used.type == predicted:
                        points[submitter] += 2
                        points[other] -= 1
                        break
            elif kind == "learn":
                # W7: partner(E)'s two actions as type, submitted target, predicted type;
                # never who partner(E) (or E) is.
                learn.setdefault(submitter, []).append(
                    {"target": action.target, "actions": [_learned(a) for a in actions[other]]}
                )
            elif kind == "watch":
                watches.append((submitter, action.target, target))
        eff[submitter] = targets
    if bad_type is not None:
        raise KeyError(bad_type)

    order = public_order(g.players, g.guest_of.values())
    watch: dict[str, list[dict]] = {}
    if watches:
        # Everyone whose action had effective target E this round, Swaps and the watcher
        # included (gathered only for the targets someone watched).
        seen_by: dict[str, set[str]] = {target: set() for _s, _t, target in watches}
        for p, targets in eff.items():
            for t in targets:
                if t in seen_by:
                    seen_by[t].add(p)
        for submitter, submitted, target in watches:
            seen = seen_by[target]  # {p for p, targets in eff.items() if target in targets}
            watch.setdefault(submitter, []).append({"target": submitted, "seen": [p for p in order if p in seen]})

    previous = g.rounds.get(round_no - 1)
    before = previous.totals if previous is not None else dict.fromkeys(participants, 0)
    result = RoundResult(
        round=round_no,
        actions=actions,
        effective=eff,
        swapped=swapped,
        type_counts=counts,
        round_points=points,
        end_points=dict.fromkeys(participants, 0),
        totals={},
        learn=learn,
        watch=watch,
        guesses=guesses,
    )
    if round_no == 3:
        _end_of_match(state, result)
    end_points = result.end_points
    result.totals = {p: before[p] + points[p] + end_points[p] for p in participants}
    return result


def _learned(action: Action) -> dict:
    item: dict[str, str | None] = {"type": action.type, "target": action.target}
    if action.type == "predict":
        item["predict"] = action.predict
    return item


def _end_of_match(state: MatchState, result: RoundResult) -> None:
    g: PWState = state.g
    # W8: Unique scores 2 when no *other* participant's Unique (any round) had the same effective target.
    rounds = [g.rounds[r] for r in sorted(g.rounds) if r < result.round] + [result]
    uniques: list[tuple[str, str]] = []
    for res in rounds:
        effective = res.effective
        for submitter, acts in res.actions.items():
            for action in acts:
                if action.type == "unique":
                    break
            else:
                continue  # no Unique among this submitter's actions
            for action, target in zip(acts, effective[submitter]):
                if action.type == "unique":
                    uniques.append((submitter, target))
    unique_points = dict.fromkeys(state.participants, 0)
    submitters_of: dict[str, set[str]] = {}  # effective target -> who played a Unique on it
    for submitter, target in uniques:
        submitters_of.setdefault(target, set()).add(submitter)
    for submitter, target in uniques:
        # No *other* submitter's Unique had this effective target (the submitter is
        # one of those who played a Unique on it, so they must be the only one).
        if len(submitters_of[target]) == 1:
            unique_points[submitter] += 2
    # Guesses: a correct guess steals 1 from the participant whose partner was guessed.
    guess_points = dict.fromkeys(state.participants, 0)
    record = {}
    partner = g.partner
    for guesser, gs in result.guesses.items():
        correct = wrong = 0
        for guess in gs:
            if partner[guess.guessed] == guess.partner:
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
