"""Lowest Unique as a game of simultaneous rounds the host closes (rules.md, U1–U12)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from matchledger.engine.commands import Amend, CloseRound
from matchledger.engine.explanation import category, explanation, line
from matchledger.engine.game import CHECKED, Decision, decides
from matchledger.engine.options import OptionSpec
from matchledger.engine.rounds import RoundsGame
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import IllegalMove, MalformedInput
from matchledger.ledger.events import Event, OutcomeAnnounced

from . import announcements, views
from .model import LowestUniqueState, RoundResult, resolve

if TYPE_CHECKING:  # only named in annotations: the sampler is not loaded with the game
    import random

    from matchledger.engine.sample import Sample

#: U2: the options' bounds.
ROUNDS_RANGE = (1, 20)
HIGHEST_RANGE = (2, 100)
#: U3: a number in digits, at most three of them (nothing above 100 is ever legal).
DIGITS = re.compile(r"[0-9]{1,3}\Z")


def _bounded(low: int, high: int):
    def parse(text: str) -> int:
        text = str(text).strip()
        if not DIGITS.match(text):
            raise ValueError(f"expected a whole number from {low} to {high}, got {text!r}")
        value = int(text)
        if not low <= value <= high:
            raise ValueError(f"expected a whole number from {low} to {high}, got {value}")
        return value

    return parse


class LowestUnique(RoundsGame):
    name = "lowest-unique"
    views = views
    announcement_shapes = announcements
    STATE_TYPE = LowestUniqueState
    MIN_PLAYERS = 3  # U1
    MAX_PLAYERS = 20
    #: The most rounds a match can have (U2); a match's own number is its `rounds`
    #: option, which ``play_is_over`` reads.
    ROUNDS = ROUNDS_RANGE[1]
    ALL_MUST_SUBMIT = None  # U5: a close may be forced
    WITHOUT_SUBMISSION = "U5: a player without a number takes no part in the round"
    OPTIONS = {
        "rounds": OptionSpec(
            "rounds",
            3,
            _bounded(*ROUNDS_RANGE),
            "how many rounds the match has (1 to 20)",
            fixed_because="U12: the number of rounds is fixed when the match is made",
        ),
        "highest": OptionSpec(
            "highest", 10, _bounded(*HIGHEST_RANGE), "the highest number a player may submit (2 to 100)"
        ),
    }

    # ---- the match's length: its own `rounds` (U2, U12)

    def play_is_over(self, state: MatchState) -> bool:
        return state.round > views.rounds_of(state)

    def init_game(self, state: MatchState) -> LowestUniqueState:
        return LowestUniqueState(players=list(state.players), totals=dict.fromkeys(state.players, 0))

    # ---- deciding

    def parse_submission(self, state, participant, round_no, tokens, replacing=None) -> list[str]:
        """U3: one whole number from 1 to the round's `highest`, recorded without leading zeros."""
        if participant not in state.players:
            raise IllegalMove(f"{participant!r} is not a player of {state.match_id!r}")
        highest = state.options_for(round_no)["highest"]
        if len(tokens) != 1:
            given = " ".join(tokens) or "nothing"
            raise MalformedInput(f"a submission is one whole number from 1 to {highest}, got {given!r} (U3)")
        text = tokens[0]
        if not DIGITS.match(text):
            raise MalformedInput(f"{text!r} is not a whole number from 1 to {highest} (U3)")
        number = int(text)
        if not 1 <= number <= highest:
            raise IllegalMove(f"{text!r}: round {round_no} takes a number from 1 to {highest} (U3)")
        return [str(number)]

    @decides(CloseRound)
    def decide_close(self, state: MatchState, cmd: CloseRound) -> Decision:
        # The core announces the outcome with the close of its fixed last round; here the
        # last round is the match's own `rounds` (U11: the outcome comes with its close).
        decision = super().decide_close(state, cmd)
        closed = decision.events[0]
        done = any(isinstance(event, OutcomeAnnounced) for event in decision.events)
        if closed.round == views.rounds_of(state) and closed.source == "computed" and not done:
            after = self._after_close(state, closed, decision.work[0])
            outcome, public = self.final_outcome(after)
            decision.events.append(OutcomeAnnounced(outcome=outcome, public=public))
            decision.work.append(CHECKED)
            decision.rules.append(None)
        return decision

    @decides(Amend)
    def decide_amend(self, state: MatchState, cmd: Amend) -> list[Event]:
        rounds = views.rounds_of(state)
        if cmd.option in self.OPTIONS and self.OPTIONS[cmd.option].fixed_because is None and cmd.from_round > rounds:
            raise MalformedInput(f"--from-round {cmd.from_round}: match {state.match_id!r} has {rounds} rounds")
        events = super().decide_amend(state, cmd)
        [amended] = events
        if amended.option == "highest" and amended.from_round == state.round:
            # U12: every counting number stays within the highest in force for its round
            above = [
                f"seq {s.seq} ({s.participant}: {s.tokens[0]})"
                for s in state.round_submissions(state.round).values()
                if int(s.tokens[0]) > amended.value
            ]
            if above:
                raise IllegalMove(
                    f"highest={amended.value} from round {state.round}: round {state.round} already counts "
                    f"{', '.join(above)} above it (U12); void or correct them first"
                )
        return events

    # ---- a round: resolve (U6), announce (U7, U8), store

    def resolve_round(self, state: MatchState, round_no: int) -> RoundResult:
        numbers = {p: int(s.tokens[0]) for p, s in state.round_submissions(round_no).items()}
        return resolve(numbers, round_no)

    def announce_round(self, state: MatchState, round_no: int, result: RoundResult) -> tuple[dict, dict]:
        public = {"numbers": sorted(result.numbers.values()), "lowest_unique": result.lowest_unique}
        private = {p: {"number": result.numbers.get(p), "won": result.winner == p} for p in state.players}
        return public, private

    def store_round(self, state: MatchState, round_no: int, result: RoundResult) -> None:
        g: LowestUniqueState = state.g
        g.results[round_no] = result
        if result.winner is not None:
            g.totals[result.winner] += 1

    def unstore_round(self, state: MatchState, round_no: int) -> None:
        g: LowestUniqueState = state.g
        for r in [r for r in g.results if r >= round_no]:
            result = g.results.pop(r)
            if result.winner is not None:
                g.totals[result.winner] -= 1

    def fork_game_state(self, g: LowestUniqueState) -> LowestUniqueState:
        # storing a round adds one result and changes one total: the results are shared
        return LowestUniqueState(players=g.players, totals=dict(g.totals), results=dict(g.results))

    # ---- explain, legal choices, sampler

    def explain(self, state: MatchState, participant: str) -> dict:
        """``participant``'s points round by round (U6), for the host."""
        if participant not in state.players:
            state.require_participant(participant)
        g: LowestUniqueState = state.g
        lines = []
        for r, result in sorted(g.results.items()):
            number = result.numbers.get(participant)
            where = f"round {r}"
            if number is None:
                lines.append(
                    line(0, "U5: no number, no part in the round", f"{where}: {participant} submitted nothing")
                )
            elif result.winner == participant:
                lines.append(
                    line(
                        1,
                        "U6: the lowest unique number wins the point",
                        f"{where}: {participant}'s {number} was the lowest number nobody else chose",
                    )
                )
            elif result.lowest_unique is None:
                lines.append(
                    line(
                        0,
                        "U6: no number was unique, nobody wins",
                        f"{where}: {participant}'s {number} was chosen by another player too",
                    )
                )
            else:
                lines.append(
                    line(
                        0,
                        "U6: another number won",
                        f"{where}: {participant}'s {number}; the lowest unique number was {result.lowest_unique}",
                    )
                )
        return explanation(state, participant, [category("rounds won", lines)])

    def choices(self, state: MatchState, participant: str) -> dict | None:
        """What ``participant`` may submit now (U3, U4: again while the round is open), as
        the legal-choices description (``{"none": why}`` once there is nothing to submit).
        It depends on nothing but the round and its `highest`, facts every viewer knows (U9)."""
        state.require_participant(participant)
        if state.abandoned is not None:
            return {"none": f"match {state.match_id!r} was abandoned"}
        if state.finished or self.play_is_over(state):
            return {"none": f"match {state.match_id!r} is over: every round is closed"}
        highest = state.options_for(state.round)["highest"]
        return {
            "prompt": f"Round {state.round}: one number from 1 to {highest}",
            "parts": [
                {
                    "name": "number",
                    "label": "your number",
                    "min": 1,
                    "max": 1,
                    "ordered": False,
                    "options": [{"tokens": [str(n)], "label": str(n)} for n in range(1, highest + 1)],
                }
            ],
            "constraints": [],
            "typed": str(min(3, highest)),  # an example of the notation, to type instead
        }

    def sample(self, rng: random.Random, match_id: str = "m1", **knobs: Any) -> Sample:
        """A random legal match of this game (knobs: :func:`.sample.sample`'s)."""
        from .sample import sample

        return sample(rng, match_id, **knobs)


GAME = LowestUnique()
