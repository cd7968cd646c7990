"""The contract suites as a game or a back end kept elsewhere runs them: a project of its
own (pytester, in this process) that imports them from ``matchledger.testing``, once
for a game or a store that keeps the contract and once for one that breaks it."""

from __future__ import annotations

import textwrap

from matchledger.testing.game_contract import GameContract
from tests.helpers import sampled_games

pytest_plugins = ["pytester"]

#: The shipped game contract's tests, each run once per seed (every one must run and pass).
GAME_TESTS = sum(name.startswith("test_") for name in dir(GameContract))


def test_a_game_kept_elsewhere_runs_the_shipped_game_contract(pytester):
    game = sampled_games()[0]
    pytester.makepyfile(
        test_my_game=f"""
        from matchledger.testing.game_contract import GameContract

        class TestMyGame(GameContract):
            game = {game!r}
            seeds = [3, 5]
    """
    )
    result = pytester.runpytest("-q", "--strict-markers")
    result.assert_outcomes(passed=2 * GAME_TESTS)
    assert f"[{game}-5]" in "\n".join(pytester.runpytest("--collect-only", "-q").outlines)


def test_the_game_contract_fails_a_sampler_that_changes_the_state(pytester):
    game = sampled_games()[0]
    pytester.makepyfile(
        test_my_game=f"""
        import random
        from matchledger import engine
        from matchledger.engine.sample import Sample
        from matchledger.testing.game_contract import GameContract

        class TestMyGame(GameContract):
            game = {game!r}
            seeds = [1]

            def sample(self, seed):
                drawn = engine.get(self.game).sample(random.Random(seed), "m1")

                def choose(state):
                    state.notes.append("the sampler wrote this")  # what a sampler must never do
                    return drawn.next_command(state)

                return Sample(drawn.create, choose)
    """
    )
    result = pytester.runpytest("-q", "-k", "neither_the_sampler")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*choosing the next command changed the state*"])


def test_the_game_contract_fails_a_game_that_records_a_strangers_submission(pytester):
    game = sampled_games()[0]
    pytester.makepyfile(
        test_my_game=f"""
        import pytest
        from matchledger import engine
        from matchledger.engine.commands import AddNote, Submit
        from matchledger.testing.game_contract import GameContract

        @pytest.fixture(autouse=True)
        def lenient(monkeypatch):
            rules = type(engine.get({game!r}))
            decision = rules.decision

            def lenient_decision(self, state, cmd):
                if isinstance(cmd, Submit) and cmd.participant == "nobody-here":
                    cmd = AddNote("a stranger's submission, taken as a note")  # what a game must refuse
                return decision(self, state, cmd)

            monkeypatch.setattr(rules, "decision", lenient_decision)

        class TestMyGame(GameContract):
            game = {game!r}
            seeds = [1]
    """
    )
    result = pytester.runpytest("-q", "-k", "records_the_match_and_shows_every_seq")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*DID NOT RAISE*"])


def test_a_game_contract_without_a_game_says_so(pytester):
    pytester.makepyfile(
        test_my_game="""
        from matchledger.testing.game_contract import GameContract

        class TestMyGame(GameContract):
            pass
    """
    )
    result = pytester.runpytest("-q")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*TestMyGame: set `game` to the name of the game the contract checks*"])


def test_a_back_end_kept_elsewhere_runs_the_shipped_store_contract(pytester):
    pytester.makepyfile(
        test_my_store=textwrap.dedent("""
        import pytest
        from matchledger.testing.store_contract import SQLiteHarness, StoreContract

        class TestMyStore(StoreContract):
            @pytest.fixture
            def backend(self, tmp_path):
                return SQLiteHarness(tmp_path)
    """)
    )
    result = pytester.runpytest("-q", "--strict-markers")
    outcomes = result.parseoutcomes()
    # the one test of commits overtaking each other skips: SQLite lets one writer in at a time
    assert outcomes.get("skipped") == 1 and outcomes.get("passed", 0) >= 40 and "failed" not in outcomes, outcomes


def test_the_store_contract_fails_a_store_that_loses_its_head(pytester):
    pytester.makepyfile(
        test_my_store="""
        import pytest
        from matchledger.ledger.store import Store
        from matchledger.testing.store_contract import SQLiteHarness, StoreContract

        class Forgetful(Store):
            def head(self, match_id):
                return None  # as if nothing were ever appended (its log still knows)

        class ForgetfulHarness(SQLiteHarness):
            def open(self, database="main"):
                return Forgetful(self._path(database))

        class TestMyStore(StoreContract):
            @pytest.fixture
            def backend(self, tmp_path):
                return ForgetfulHarness(tmp_path)
    """
    )
    result = pytester.runpytest("-q", "-k", "has_match_and_head or answers_each_parts_methods")
    result.assert_outcomes(passed=1, failed=1)  # the log keeps its contract; the store does not answer for it
    result.stdout.fnmatch_lines(["*FAILED*test_the_store_answers_each_parts_methods_as_the_part_does*"])


def test_the_event_log_contract_alone_fails_a_log_that_loses_its_head(pytester):
    pytester.makepyfile(
        test_my_log="""
        import pytest
        from matchledger.testing.store_contract import EventLogContract, SQLiteHarness

        class ForgetfulHarness(SQLiteHarness):
            def open(self, database="main"):
                store = super().open(database)
                store.log.head = lambda match_id: None  # as if nothing were ever appended
                return store

        class TestMyLog(EventLogContract):
            @pytest.fixture
            def backend(self, tmp_path):
                return ForgetfulHarness(tmp_path)
    """
    )
    assert "snapshot" not in "\n".join(pytester.runpytest("--collect-only", "-q").outlines)  # the log's tests only
    result = pytester.runpytest("-q", "-k", "has_match_and_head")
    result.assert_outcomes(failed=1)


def test_a_store_contract_without_a_back_end_says_so(pytester):
    pytester.makepyfile(
        test_my_store="""
        from matchledger.testing.store_contract import StoreContract

        class TestMyStore(StoreContract):
            pass
    """
    )
    result = pytester.runpytest("-q", "-k", "has_match_and_head")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*TestMyStore: give the fixture `backend` (a harness of your back end)*"])
