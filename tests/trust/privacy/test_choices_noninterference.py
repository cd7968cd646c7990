"""Noninterference of the legal choices: what a participant may submit, as the game
describes it (``Game.choices``, published at ``/p/{token}/choices`` and drawn as their
form), never moves with a fact they may not know.

- Two matches differing only in a secret (the cases of ``test_noninterference.py``:
  pw's pairing among other pairs, lca's ownership exchanged between two other players,
  photographer's unseen cards): up to the first command telling the viewer something
  different, the viewer's choices are the same bytes after every command.
- Every game's sampled matches: another participant's submission that tells the viewer
  nothing (pw: their partner's, which W3 and W4 judge against) leaves the viewer's
  choices the very same bytes.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from matchledger import engine
from matchledger.ledger.events import SubmissionRecorded
from matchledger.projections.fold import InMemoryMatch
from tests.trust.privacy.harness_cli import first_telling_command, told
from tests.trust.privacy.test_cli_noninterference import _lca_case, _photographer_case, _pw_case

pytestmark = pytest.mark.guarantee("privacy.choices")


def choices_bytes(state, viewer: str) -> bytes:
    return msgspec.json.encode(engine.get(state.game).choices(state, viewer))


def states(played, upto: int):
    """The match's state after its creation and after each of its first commands."""
    match = InMemoryMatch(played.create)
    yield match.state
    for command in played.commands[: upto - 1]:
        match.do(command)
        yield match.state


@pytest.mark.parametrize("case", [_lca_case, _pw_case, _photographer_case], ids=["lca", "pw", "photographer"])
def test_a_secret_never_changes_a_participants_choices(case):
    a, b, viewers = case()
    compared = 0
    for viewer in [v for v in viewers if v != "public"]:
        cut = first_telling_command(a, b, viewer)
        for index, (one, other) in enumerate(zip(states(a, cut), states(b, cut))):
            assert choices_bytes(one, viewer) == choices_bytes(other, viewer), (viewer, index)
            compared += 1
    assert compared > 5


@pytest.mark.parametrize("game", [name for name in engine.names() if hasattr(engine.get(name), "sample")])
def test_another_participants_hidden_submission_leaves_the_choices_as_they_were(game):
    """Every participant's choices before and after each submission that tells them
    nothing (its kind alone), over sampled matches."""
    rules = engine.get(game)
    kept = 0
    for seed in range(1, 4):
        sample = rules.sample(random.Random(seed), f"{game}-{seed}")
        match = InMemoryMatch(sample.create)
        while (command := sample.next_command(match.state)) is not None:
            before = {p: choices_bytes(match.state, p) for p in match.state.participants}
            events = match.do(command)
            hidden_from = [
                p
                for p in before
                if all(told(e, p) == told(SubmissionRecorded(participant="", round=0, tokens=[]), p) for e in events)
            ]
            for viewer in hidden_from:
                assert choices_bytes(match.state, viewer) == before[viewer], (seed, viewer, command)
                kept += 1
    if rules.WAITING_IS_PUBLIC:
        return  # every submission is resolved and announced at once: nothing is hidden
    assert kept > 0
