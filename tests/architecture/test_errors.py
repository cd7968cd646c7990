"""The one error hierarchy (``ledger/errors.py``): every error the package raises on
purpose is a MatchledgerError and also the builtin that says what kind of trouble it
is; an error carries its facts as fields and says them in neutral words, which each
door words its own way; an error survives a trip to another process."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import re
import sys

import pytest

from matchledger.commands import errors as cli_errors
from matchledger.ledger import errors
from matchledger.ledger.errors import (
    DatabaseBusy,
    DatabaseUnavailable,
    IllegalMove,
    LogConflict,
    MalformedInput,
    MatchledgerError,
    UnknownMatch,
    UnwritableDatabase,
)
from matchledger.ledger.verify import Finding
from tests.architecture.test_no_cli_words import _command_words, _flags

#: The packages the distribution installs: the folders, mapped under matchledger, and
#: src/matchledger itself (the testing tools).
PACKAGES = (
    "matchledger",
    "matchledger.ledger",
    "matchledger.engine",
    "matchledger.projections",
    "matchledger.commands",
)

#: Exceptions of the package that are not errors of the hierarchy, and why:
OUTSIDE = {
    # the HTTP door's answer (a status and a problem to send), as Starlette's HTTPException
    # is the HTTP layer's own: the domain raises its errors and the door maps them to one
    "matchledger.commands.service.problems.Refused",
    # the contract suite's stand-in for whatever a caller's own code raises inside a store
    # transaction: a matchledger error would test less than "any exception rolls back"
    "matchledger.testing.store_contract.CallerFailed",
}


def _modules() -> list[str]:
    names = []
    for top in PACKAGES:
        package = importlib.import_module(top)
        for found in pkgutil.walk_packages(package.__path__, top + "."):
            if not found.name.endswith("__main__"):  # running it is the command line itself
                importlib.import_module(found.name)
                names.append(found.name)
    return names


def _exception_classes() -> dict[str, type]:
    classes = {}
    for name in _modules():
        for attribute, value in vars(sys.modules[name]).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name:
                classes[f"{name}.{attribute}"] = value
    return classes


def test_every_exception_class_of_the_package_is_under_the_one_root():
    classes = _exception_classes()
    assert "matchledger.ledger.errors.OutsideLog" in classes and "matchledger.testing.collect.NotAHistory" in classes
    outside = sorted(name for name, kind in classes.items() if not issubclass(kind, MatchledgerError))
    assert outside == sorted(OUTSIDE)


def test_every_error_is_also_the_builtin_of_its_kind():
    classes = _exception_classes()
    builtins = (ValueError, LookupError, RuntimeError, OSError)
    for name, kind in classes.items():
        if issubclass(kind, MatchledgerError) and kind is not MatchledgerError:
            assert issubclass(kind, builtins), name


@pytest.mark.parametrize(
    "error, builtin",
    [
        (MalformedInput("x"), ValueError),
        (IllegalMove("x"), ValueError),
        (errors.CorruptLog("x"), ValueError),
        (UnknownMatch("m1", "m.db"), LookupError),
        (LogConflict("x"), RuntimeError),
        (DatabaseBusy("x"), TimeoutError),
        (DatabaseUnavailable("x"), ConnectionError),
        (UnwritableDatabase("x"), OSError),
        (errors.Unavailable("x"), RuntimeError),
        (errors.OutsideLog("m1", 999, 12), ValueError),
        (errors.UnknownParticipant("m1", "zed", ["ann"]), ValueError),
        (errors.MatchFinished("m1", reopenable_round=3), ValueError),
    ],
)
def test_an_error_is_caught_as_its_builtin(error, builtin):
    with pytest.raises(builtin):
        raise error


def test_a_database_error_keeps_its_message_as_an_os_error():
    # OSError words a two-argument error as "[Errno x] y": ours take one, the message
    busy = DatabaseBusy("database 'm.db' is busy")
    assert str(busy) == "database 'm.db' is busy" and busy.errno is None


def test_errors_carry_their_facts_as_fields():
    outside = errors.OutsideLog("m1", 999, 12)
    assert (outside.match, outside.at, outside.last, outside.parameter) == ("m1", 999, 12, "at")
    unknown = errors.UnknownParticipant("m1", "zed", ["ann", "bob"])
    assert (unknown.match, unknown.name, unknown.participants) == ("m1", "zed", ["ann", "bob"])
    viewer = errors.UnknownViewer("m1", "zed", ["ann"], "as")
    assert isinstance(viewer, errors.UnknownParticipant) and isinstance(viewer, MalformedInput)
    assert viewer.parameter == "as"
    setup = errors.InvalidParameter("pairs", "c=zed", "'c' is not a listed player (a, b)", game="pw")
    assert (setup.parameter, setup.game, setup.value) == ("pairs", "pw", "c=zed")
    assert errors.MissingReason("a void").parameter == "reason"
    assert UnknownMatch("m1", "m.db").match == "m1"


def _samples() -> list[MatchledgerError]:
    """One error of each kind that carries fields, and the database errors (OSErrors)."""
    finding = Finding("m1", 2, "hash does not match the event's contents")
    return [
        DatabaseBusy("database 'm.db' is busy"),  # an OSError: rebuilt without errno and strerror
        UnwritableDatabase("cannot write to 'm.db'"),
        UnknownMatch("m1", "m.db"),
        errors.GameNotInstalled("m1", "chess", ["lca"]),
        errors.VerificationFailed("verify found 1 discrepancy", [finding]),
        errors.InvalidParameter("reason", "a\nb", "one line of printable text", shown=repr("a\nb")),
        errors.InvalidToken("option", "x" * 70, "a token is at most 64 printable characters", shown="'x…'"),
        errors.TooManyTokens("submission", 40, 32),
        errors.MalformedReceipt("bad"),
        errors.MissingReason("a forced close", kept=True),
        errors.OutsideLog("m1", 999, 12),
        errors.OutsideView("m1", 999, "the public"),
        errors.AmendmentTooLate(1, "round", 2),
        errors.ExclusiveParameters("seed", "deck", game="photographer"),
        errors.MissingSetup("pw", "pairs", "for every player"),
        errors.IncompleteSetup("pw", "pairs", "player 'b' has no guest", "b=GUEST"),
        errors.UnexpectedSetup("lca", ["deck"], ["studio"]),
        errors.UnknownParticipant("m1", "zed", ["ann", "bob"]),
        errors.UnknownViewer("m1", "zed", ["ann", "bob"], "as"),
        errors.MatchFinished("m1", reopenable_round=3),
        errors.MatchFinished("g1", turns=True, last_turn_seq=58),
        errors.MatchFinished("x1"),
        errors.SubmissionsMissing("m1", 1, ["cat"], "a player with no submission at close places nothing"),
        errors.EveryoneMustSubmit("W5", "p1", 1, ["bob"], forced=True),
        errors.NothingToForce("m1", 2),
        errors.ReopenBlocked("m1", 2, [(5, "ann")]),
        errors.RoundNeedsReopening(2, 1),
        errors.OutOfReach(2, 1, None, 3),
        errors.RevivalRefused(3, "ann", 2, ["gift:bob", "learn:yan"], IllegalMove("W3: no")),
        errors.NoRoundsToReopen("photographer", "g1"),
        errors.NoRoundToReopenForVoid("photographer"),
        errors.TurnNotCorrectable("photographer", "g1", 2, 1),
        errors.OutcomeShape(),
        errors.InvalidActor("\x01", repr("\x01"), 64),
        errors.MalformedHead("nonsense"),
        errors.NoDatabase("none.db"),
        errors.NoDatabase("postgresql://h/db", tables=True),
        errors.ConnectionLost("postgresql://h/db", "server closed the connection"),
        errors.UnverifiedLog("m1", finding),
    ]


@pytest.mark.parametrize("error", _samples(), ids=lambda error: type(error).__name__)
def test_an_error_survives_a_trip_to_another_process(error):
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error)
    assert {key: repr(value) for key, value in vars(again).items()} == {
        key: repr(value) for key, value in vars(error).items()
    }
    assert cli_errors.message(again) == cli_errors.message(error)


@pytest.mark.parametrize("error", _samples(), ids=lambda error: type(error).__name__)
def test_an_errors_own_words_name_no_flag_and_no_command(error):
    flags, commands = _flags(), _command_words()
    text = str(error)
    assert not [flag for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text) if flag in flags], text
    assert not commands.search(text), text


def test_the_command_lines_flags_for_the_cores_parameters_are_its_own():
    assert set(cli_errors.FLAGS.values()) <= _flags()


def test_exit_codes_are_the_command_lines_not_the_errors():
    assert not hasattr(MatchledgerError, "exit_code")
    assert cli_errors.exit_code(errors.UnverifiedLog("m1", Finding("m1", 2, "x"))) == 3
    assert cli_errors.exit_code(errors.VerificationFailed("verify found 1 discrepancy")) == 3
    assert cli_errors.exit_code(errors.OutsideLog("m1", 9, 3)) == 1
    assert cli_errors.exit_code(DatabaseBusy("busy")) == 1


def test_an_errors_own_words_name_a_parameter_in_words_and_leave_a_phrase_as_it_is():
    assert str(errors.InvalidParameter("from_round", 9, "lca has 3 rounds")) == "from round 9: lca has 3 rounds"
    phrase = "the outcome: the reason of an award to 'bob_x'"
    assert str(errors.InvalidParameter(phrase, "a\nb", "one line", shown="'a\\nb'")) == f"{phrase} 'a\\nb': one line"
    assert cli_errors.message(errors.InvalidParameter("from_round", 9, "lca has 3 rounds")).startswith(
        "--from-round 9:"
    )
