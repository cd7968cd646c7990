"""Random legal Lights, Camera, Action! matches (engine/lca/rules.md).

A match is created on a random studio with some walls (unless a studio is given), with
2–11 players and sometimes other option values.  Then each call of the chooser looks at
the match as it stands and picks, by chance: a contract for a player who has none (Round
1), a note, an amendment, a resubmission, a void or a correction (in the open round, or
with ``--reopen`` in the last closed one while the open round holds no submission), an early close (forced) that leaves players
without a submission; otherwise the next player's submission, or the close once all have one.
Every extra is capped by what the state already holds, so that a match always ends.
"""

from __future__ import annotations

import random

from matchledger.engine.commands import (
    AddNote,
    Amend,
    CloseRound,
    Command,
    Correct,
    CreateMatch,
    RecordContract,
    Submit,
    Void,
)
from matchledger.engine.sample import SCALES, Sample, longest_names
from matchledger.engine.state import MatchState

from .actions import ACTIONS
from .cameras import CAMERAS, block_inside
from .endgame import CHOICES, SUPREMACY
from .lights import PRIORITIES
from .options import OPTIONS, ROUNDS
from .playable import floor_needed
from .studio import Cell, Studio, cell_names, parse_studio_text

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim"]  # the card's 11
#: The values an option is given at creation or by an amendment.
OPTION_VALUES = {
    "lights_light_lights": ("true", "false"),
    "diamond_center_must_be_empty": ("true", "false"),
    "filming_lights_divisor": ("1", "2", "3"),
}
MAX_NOTES = 2
MAX_AMENDMENTS = 2
MAX_CORRECTIONS = 4  # corrections, voids and reopenings, together
MAX_RESUBMISSIONS = 2  # submissions in a round beyond one a player


#: ``scale`` 1 to 4: the players of the benchmark's corpus matches (as the fixtures').
SCALE_PLAYERS = {1: 3, 2: 5, 3: 8, 4: 11}


def sample(
    rng: random.Random,
    match_id: str = "m1",
    n_players: int | None = None,
    studio: str | None = None,
    scale: int | str | None = None,
) -> Sample:
    """A random legal match of ``n_players`` (drawn from 2–11 when None) in ``studio`` (a
    map's text, drawn when None; a given one needs room for three cameras apart, five
    floor cells and, after the lights, three cells for each player's actions).

    ``scale`` (:mod:`matchledger.engine.sample`): 1 to 4, 3 to 11 players on a random
    studio; ``"small"``, 3 players on a 6 x 6 floor; ``"largest"``, the most participants
    with the longest names on the largest floor."""
    players = PLAYERS
    if scale in SCALE_PLAYERS:
        n_players = SCALE_PLAYERS[scale]
    elif scale == "small":
        n_players, studio = 3, _floor(6)
    elif scale == "largest":
        from matchledger.ledger.limits import PARTICIPANTS_MAX

        from .spec import STUDIO_MAX_SIDE

        players = longest_names(PARTICIPANTS_MAX, "p")
        n_players, studio = len(players), _floor(STUDIO_MAX_SIDE)
    elif scale is not None:
        raise ValueError(f"scale {scale!r} is not one of {SCALES}")
    if n_players is None:
        n_players = rng.randint(2, len(PLAYERS))
    text = _random_studio(rng, n_players) if studio is None else studio
    options = {name: rng.choice(values) for name, values in OPTION_VALUES.items() if rng.random() < 0.2}
    create = CreateMatch(
        match_id=match_id, game="lca", players=players[:n_players], options=options, setup={"studio": text}
    )
    return Sample(create, _Chooser(rng, Studio.from_rows(parse_studio_text(text))).choose)


def _floor(side: int) -> str:
    """A square studio of floor cells only."""
    return ("." * side + "\n") * side


def _random_studio(rng: random.Random, n_players: int) -> str:
    """A map of 6–14 columns by 6–13 rows (room for three cameras apart), up to an eighth
    of it walls, with a floor cell for every light (3 a player) and 3 more for actions."""
    width, height = rng.randint(6, 14), rng.randint(6, 13)
    cells = [(r, c) for r in range(height) for c in range(width)]
    room = len(cells) - floor_needed(n_players)
    walls = set(rng.sample(cells, max(0, min(rng.randint(0, len(cells) // 8), room))))
    return "".join("".join("#" if (r, c) in walls else "." for c in range(width)) + "\n" for r in range(height))


def _apart(a: Cell, b: Cell) -> bool:
    """Whether the 3x3 blocks centred on ``a`` and ``b`` share no cell."""
    return abs(a[0] - b[0]) > 2 or abs(a[1] - b[1]) > 2


class _Chooser:
    """Chooses each next command of one match, from its state and the sampler's rng."""

    def __init__(self, rng: random.Random, studio: Studio):
        self.rng = rng
        self.floor = [cell for cell in studio.cells() if not studio.is_wall(cell)]
        self.centres = [cell for cell in studio.cells() if block_inside(studio, cell)]

    def choose(self, state: MatchState) -> Command | None:
        if state.finished:
            return None
        for extra in (self.contract, self.note, self.amendment, self.resubmission, self.correction):
            command = extra(state)
            if command is not None:
                return command
        return self.submission_or_close(state)

    # ---- the regular course of a round

    def submission_or_close(self, state: MatchState) -> Command:
        waiting = [p for p in state.players if state.current_submission(state.round, p) is None]
        if not waiting:
            return CloseRound()
        if self.rng.random() < 0.02:  # an early close, forced: the rest place nothing
            return CloseRound(force=True, reason="the rest never sent theirs")
        return Submit(waiting[0], self.tokens(state, state.round))

    def tokens(self, state: MatchState, round_no: int) -> list[str]:
        """A legal submission for ``round_no`` (the open round or, reopened, the last closed)."""
        if round_no == 1:
            return cell_names(self.rng.sample(self.floor, PRIORITIES))
        if round_no == 2:
            return cell_names(self.cameras(self.rng.sample(self.centres, len(self.centres)), []))
        lit = state.g.lights.owner
        return cell_names(self.rng.sample([cell for cell in self.floor if cell not in lit], ACTIONS))

    def cameras(self, candidates: list[Cell], chosen: list[Cell]) -> list[Cell] | None:
        """``chosen`` completed with centres from ``candidates``, in their order, to three
        cameras whose blocks share no cell (None when they cannot be)."""
        if len(chosen) == CAMERAS:
            return chosen
        for index, centre in enumerate(candidates):
            if all(_apart(centre, other) for other in chosen):
                found = self.cameras(candidates[index + 1 :], chosen + [centre])
                if found is not None:
                    return found
        return None

    # ---- the extras, each capped by what the state holds

    def contract(self, state: MatchState) -> Command | None:
        without = [p for p in state.players if p not in state.contracts]
        if state.round != 1 or not without or self.rng.random() >= 0.3:
            return None
        names = [self.rng.choice(CHOICES)] + ([SUPREMACY] if self.rng.random() < 0.3 else [])
        return RecordContract(self.rng.choice(without), names)

    def note(self, state: MatchState) -> Command | None:
        if len(state.notes) >= MAX_NOTES or self.rng.random() >= 0.03:
            return None
        return AddNote(self.rng.choice(["studio booked until six", "ann arrived late", "pizza break"]))

    def amendment(self, state: MatchState) -> Command | None:
        if len(state.amendments) >= MAX_AMENDMENTS or self.rng.random() >= 0.04:
            return None
        # an option may be amended from the open round up to the last round that reads it
        last = {name: spec.last_round_used or ROUNDS for name, spec in OPTIONS.items()}
        names = [name for name in OPTION_VALUES if last[name] >= state.round]
        name = self.rng.choice(names)
        value = self.rng.choice(OPTION_VALUES[name])
        return Amend(name, value, self.rng.randint(state.round, last[name]), "house rule")

    def resubmission(self, state: MatchState) -> Command | None:
        counting = state.round_submissions(state.round)
        made = sum(len(history) for history in state.submissions.get(state.round, {}).values())
        if not counting or made >= len(state.players) + MAX_RESUBMISSIONS or self.rng.random() >= 0.05:
            return None
        return Submit(self.rng.choice(list(counting)), self.tokens(state, state.round))

    def correction(self, state: MatchState) -> Command | None:
        # A closed round is reopened only while the open round holds no submission, so
        # that chance is taken more often than a correction in the open round.
        reopen = state.round > 1 and not _holds_submissions(state)
        if len(state.corrections) >= MAX_CORRECTIONS or self.rng.random() >= (0.2 if reopen else 0.04):
            return None
        round_no = state.round - 1 if reopen else state.round
        counting = list(state.round_submissions(round_no).values())
        if not counting:
            return None
        target = self.rng.choice(counting)
        if self.rng.random() < 0.5:
            return Void(target.seq, "entered for the wrong player", reopen=reopen)
        return Correct(target.seq, self.tokens(state, round_no), "misheard", reopen=reopen)


def _holds_submissions(state: MatchState) -> bool:
    """Whether the open round holds a submission that counts (see ``check_reopenable``)."""
    return any(
        submission.seq not in state.voided
        for history in state.submissions.get(state.round, {}).values()
        for submission in history
    )
