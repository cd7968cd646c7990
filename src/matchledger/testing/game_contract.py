"""The contract every game keeps, shipped for a game's own tests (docs/testing.md).

A game kept anywhere runs it from its own test suite::

    from matchledger.testing.game_contract import GameContract

    class TestMyGame(GameContract):
        game = "my-game"          # its name in the registry (installed, or engine.register)
        seeds = range(1, 9)       # optional: the sampled matches, one per seed

and, where the game's sampler needs knobs (a size, a set-up), overrides
``sample(self, seed)``.  Each test runs once per seed, on the random legal match the
game's own ``sample`` draws from it, with nothing but the game protocol
(``create``/``decide``/``apply`` and the read models), the fold and the application --
never a game's internals:

- a seed gives the same match again, played to its end; the sampler only reads the state;
- its creation event decodes and re-encodes to the very same bytes;
- ``decide`` never changes the state it is given, whether it accepts the command or
  rejects it; a rejected command (a stranger's, or garbage tokens) raises a
  MatchledgerError and, through the application, writes nothing;
- every read model in every view, every participant's knowledge and every player's
  explained score is a JSON object at every seq;
- the fold is incremental: the state built command by command is the replay of the log,
  and a replay stopped at any seq and resumed later ends in it too;
- the application on a SQLite store records the same events, and its state at every
  ``--at SEQ`` is the replay of that prefix, with the same read models;
- what ``Game.choices`` offers a participant is what ``decide`` accepts, both ways
  (:mod:`.choices_contract`; skipped for a game that describes no choices);
- re-derivation finds nothing to report; and an illegal recorded command (a stranger's
  submission, one for a round or turn that is not open, garbage tokens) spliced into the
  log and the chain re-hashed is a verify finding naming its seq.

The tests carry the ids of the rows of matchledger's docs/guarantees.md they decide
(the ``guarantee`` marker, registered by matchledger's pytest plugin).
"""

from __future__ import annotations

import copy
import itertools
import random
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import ClassVar

import msgspec
import pytest

from matchledger import engine
from matchledger.engine.commands import SetDeadline, Submit
from matchledger.engine.sample import Sample
from matchledger.engine.state import HOST, PUBLIC, as_participant
from matchledger.ledger import codec
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.events import StateCheckpointed, SubmissionRecorded, unsalted
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from matchledger.projections.fold import InMemoryMatch, Replayer, play, replay
from matchledger.projections.read_models import IN_EVERY_VIEW, read_model
from matchledger.projections.rederive import rederive
from matchledger.projections.verification import verify_stored
from matchledger.testing import choices_contract

CLOCK = "2024-01-01T12:00:00.000000Z"


def read_models(state) -> dict[str, bytes]:
    """Every read model in every view, each participant's knowledge and each player's
    explained score, encoded as JSON (``msgspec.json.encode`` raises on what it cannot
    write)."""
    game = engine.get(state.game)
    models = {}
    for view in [HOST, PUBLIC] + [as_participant(p) for p in state.participants]:
        for model in IN_EVERY_VIEW:
            models[f"{model}:{view.label()}"] = read_model(game, model, state, view)
    for participant in state.participants:
        models[f"knowledge:{participant}"] = game.knowledge(state, participant)
    for player in state.players:
        models[f"explain:{player}"] = game.explain(state, player)
    for key, data in models.items():
        assert isinstance(data, dict), f"{key} is a {type(data).__name__}, not a JSON object"
    return {key: msgspec.json.encode(data) for key, data in models.items()}


def rejected_commands(state, legal) -> list[Callable[[], Submit]]:
    """A stranger's submission, and garbage tokens from whoever submits ``legal`` (the
    first participant when ``legal`` is no submission), each built when it is tried: a
    control character is refused as the command is built."""
    who = legal.participant if isinstance(legal, Submit) else state.participants[0]
    return [
        lambda: Submit("nobody-here", ["B2"]),
        lambda: Submit(who, ["?!", "no-such-move", "-1"]),
        lambda: Submit(who, ["\x00", "?!", "no-such-move", "-1"]),
    ]


def illegal_submissions(state, legal: SubmissionRecorded) -> dict[str, SubmissionRecorded]:
    """Submissions no command records at this point of the match: by a stranger, for a
    round or turn that is not open, and of tokens the game cannot read."""
    return {
        "a stranger": msgspec.structs.replace(legal, participant="nobody-here"),
        "a round not open": msgspec.structs.replace(legal, round=state.round + 1),
        "garbage tokens": msgspec.structs.replace(legal, tokens=["?!", "no-such-move", "-1"]),
    }


@pytest.mark.guarantee("log.game-contract")
class GameContract:
    """The game contract; a subclass named ``Test...`` sets ``game`` (see the module)."""

    #: The game's name in the registry (``matchledger.engine.names()``).
    game: ClassVar[str] = ""
    #: One sampled match per seed; each test runs once per seed.
    seeds: ClassVar[Iterable[int]] = range(1, 9)

    def sample(self, seed: int) -> Sample:
        """The random legal match of ``seed``: the game's ``sample`` with its default
        knobs.  Override to pass knobs (a size, a set-up)."""
        return engine.get(self.game).sample(random.Random(seed), f"{self.game}-{seed}")

    def pytest_generate_tests(self, metafunc):
        if not self.game:
            raise pytest.UsageError(f"{type(self).__name__}: set `game` to the name of the game the contract checks")
        if "seed" in metafunc.fixturenames:
            metafunc.parametrize("seed", list(self.seeds), ids=lambda seed: f"{self.game}-{seed}")

    # ------------------------------------------------------------------- the tests

    def test_the_declaration_names_this_game_and_its_kind_and_fewest_players(self, seed):
        spec, rules = engine.spec(self.game), engine.get(self.game)
        assert (spec.name, spec.game()) == (self.game, rules)
        assert spec.kind == ("turns" if rules.ROUND_WORD == "turn" else "rounds")
        assert spec.min_players == rules.MIN_PLAYERS, "the examples of `new --help` name too few or too many players"
        assert self.sample(seed).create.game == self.game

    @pytest.mark.guarantee("log.choices-contract")
    def test_every_submission_drawn_from_the_choices_is_accepted(self, seed):
        if not choices_contract.drawn_are_accepted(self.game, self.sample(seed), random.Random(seed)):
            pytest.skip(f"{self.game} describes no choices in this match (Game.choices gives None)")

    @pytest.mark.guarantee("log.choices-contract")
    def test_every_submission_the_sampler_plays_is_offered_by_the_choices(self, seed):
        if not choices_contract.played_are_offered(self.game, self.sample(seed)):
            pytest.skip(f"{self.game} describes no choices in this match (Game.choices gives None)")

    def test_a_seed_gives_the_same_finished_match_again(self, seed):
        first, again = play(self.sample(seed)), play(self.sample(seed))
        assert first.state.finished
        assert [codec.encode(event) for event in again.events] == [codec.encode(event) for event in first.events]

    def test_the_creation_event_decodes_and_encodes_to_the_same_bytes(self, seed):
        [created] = engine.get(self.game).create(self.sample(seed).create)
        body = codec.encode(created)
        decoded = codec.decode_event(body)
        assert decoded == created
        assert codec.encode(decoded) == body

    def test_neither_the_sampler_nor_decide_changes_the_state_it_is_given(self, seed):
        sample = self.sample(seed)
        match = InMemoryMatch(sample.create)
        while True:
            before = copy.deepcopy(match.state)
            legal = sample.next_command(match.state)
            assert match.state == before, "choosing the next command changed the state"
            if legal is None:
                break
            for command in rejected_commands(match.state, legal):
                before = copy.deepcopy(match.state)
                with pytest.raises(MatchledgerError):
                    match.game.decide(match.state, command())
                assert match.state == before, "rejecting garbage changed the state"
            before = copy.deepcopy(match.state)
            match.game.decide(match.state, legal)
            assert match.state == before, f"deciding {legal} changed the state"
            match.do(legal)
        assert match.state.finished

    def test_every_read_model_is_a_json_object_at_every_seq(self, seed):
        match = play(self.sample(seed))
        replayer = Replayer(match.state.match_id)
        for seq, event in match.pairs():
            read_models(replayer.feed(seq, event))

    @pytest.mark.guarantee("log.incremental-fold")
    def test_the_fold_is_incremental(self, seed):
        match = play(self.sample(seed))
        match_id, pairs = match.state.match_id, match.pairs()
        full = replay(match_id, pairs)
        assert full == match.state  # the log replayed = the state built command by command
        for seq in range(1, len(pairs) + 1):
            resumed = Replayer.resume(replay(match_id, pairs, upto=seq))
            resumed.feed_all(pairs[seq:])
            assert resumed.state == full, f"a replay stopped at seq {seq} and resumed ends elsewhere"

    def test_rederivation_agrees_with_the_log(self, seed):
        match = play(self.sample(seed))
        assert rederive(match.state.match_id, match.pairs()) == []

    @pytest.mark.guarantee("log.rejected-writes-nothing")
    def test_the_application_records_the_match_and_shows_every_seq_as_replayed(self, seed, tmp_path):
        sample = self.sample(seed)
        match = play(sample)
        match_id = sample.create.match_id
        store = open_store(tmp_path / "contract.db")
        try:
            app = Application(store, clock=lambda: CLOCK)
            app.create(sample.create)
            for command in match.commands:
                for rejected in rejected_commands(app.state(match_id), command):
                    rows = store.rows(match_id)
                    with pytest.raises(MatchledgerError):
                        app.execute(match_id, rejected())  # built here: building may be what refuses it
                    assert store.rows(match_id) == rows, f"the rejected {rejected} wrote to the log"
                app.execute(match_id, command)
            pairs = store.events(match_id)
            # the command that finishes the match is followed by the checkpoint that vouches for its snapshot
            played = [
                codec.encode(unsalted(event)) for _seq, event in pairs if not isinstance(event, StateCheckpointed)
            ]
            assert played == [codec.encode(event) for event in match.events]
            # each event recorded with a salt of its own (the engine's events carry none)
            salts = [event.salt for _seq, event in pairs]
            assert all(isinstance(salt, str) and re.fullmatch("[0-9a-f]{32}", salt) for salt in salts)
            assert len(set(salts)) == len(salts)
            checkpoints = [event for _seq, event in pairs if isinstance(event, StateCheckpointed)]
            assert len(checkpoints) == (1 if match.state.finished else 0)
            if checkpoints:
                assert isinstance(pairs[-1][1], StateCheckpointed) and checkpoints[0].seq == len(pairs) - 1
            for seq in range(1, len(pairs) + 1):
                expected = replay(match_id, pairs, upto=seq)
                at = app.state(match_id, at=seq)
                assert at == expected, f"the match at seq {seq} is not the replay of the first {seq} events"
                assert read_models(at) == read_models(expected)
        finally:
            store.close()

    def test_every_round_or_turn_opened_gets_its_scheduled_deadline_and_verify_agrees(self, seed, tmp_path):
        """The core sets deadlines whatever the game (a game names none): the open round's
        or turn's, and with a period each later one's, from recorded times; a finished
        match takes none."""
        sample = self.sample(seed)
        match_id = sample.create.match_id
        start = datetime(2024, 1, 1, 12, tzinfo=UTC)
        moments = (start + timedelta(minutes=minute) for minute in itertools.count())

        def clock() -> str:
            return next(moments).isoformat(timespec="microseconds").replace("+00:00", "Z")

        store = open_store(tmp_path / "deadlines.db")
        try:
            app = Application(store, clock=clock)
            app.create(sample.create)
            app.execute(match_id, SetDeadline(clock(), "2024-01-02T12:00:00Z", each=3600, reason="contract"))
            rules = engine.get(self.game)
            # played from the recorded match's own state: a void names seqs, which the
            # deadlines recorded among the moves shift
            while (command := sample.next_command(app.state(match_id))) is not None:
                app.execute(match_id, command)
                state = app.state(match_id)
                if not (state.finished or rules.play_is_over(state)):
                    assert state.deadline() is not None, f"{rules.ROUND_WORD} {state.round} opened with no deadline"
            assert app.verify(match_id).findings == []
            state = app.state(match_id)
            if state.finished or rules.play_is_over(state):
                with pytest.raises(MatchledgerError):
                    app.execute(match_id, SetDeadline(clock(), "2030-01-01T00:00:00Z"))
        finally:
            store.close()

    @pytest.mark.guarantee("tamper.illegal-move")
    def test_an_illegal_recorded_command_spliced_into_the_log_is_a_finding_naming_its_seq(self, seed):
        match = play(self.sample(seed))
        match_id, events = match.state.match_id, match.events
        rng = random.Random(seed)
        submissions = [index for index, event in enumerate(events) if isinstance(event, SubmissionRecorded)]
        assert submissions, "the sampled match records no submission to splice an illegal one before"
        for index in rng.sample(submissions, min(3, len(submissions))):
            seq = index + 1  # the spliced event takes the seq of the submission it goes before
            state = replay(match_id, match.pairs(), upto=index)
            legal = events[index]
            assert isinstance(legal, SubmissionRecorded)  # an index of `submissions`
            for label, illegal in illegal_submissions(state, legal).items():
                store = open_store(":memory:")
                try:
                    store.append(
                        match_id, 1, events[:index] + [illegal] + events[index:], actor="host", recorded_at=CLOCK
                    )
                    report = verify_stored(store, match_id)
                finally:
                    store.close()
                assert not report.ok, f"{label} at seq {seq} verifies"
                finding = report.findings[0]
                assert finding.seq == seq and "refused by the rules" in finding.problem, (label, finding.describe())
