"""The command line's words for every kind of error: the message it prints and the exit
code, byte for byte.  The core raises errors with fields and neutral words; the command
line words them with its own flags and commands (``commands/errors.py``), so that what a
host reads stays exactly what it was."""

from __future__ import annotations

import contextlib
import json
import sqlite3

import pytest
from click.testing import CliRunner

from matchledger.commands.cli import cli
from tests.helpers import REPO, invoke

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"


@pytest.fixture(scope="module")
def matches_for_errors_db(tmp_path_factory):
    """Matches standing where each error can be met:

    - lca ``r1``: round 1 open, ann and bob have submitted, cat has not;
    - lca ``r2``: round 1 closed by force, ann's round-2 submission at seq 5;
    - lca ``r3``: rounds 1 and 2 closed, both players' round-3 submissions in;
    - lca ``amend5`` and photographer ``g2``: finished (the fixtures' scripts);
    - pw ``p1``: round 1, only ann has submitted; pw ``p3``: a void that would bring
      back a submission W3 now refuses;
    - photographer ``g1``: created, no turn played.
    """
    folder = tmp_path_factory.mktemp("wording")
    db = folder / "m.db"
    invoke(db, "new", "lca", "r1", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "submit", "r1", "ann", *"G4 A1 B1 C1 D1".split())
    invoke(db, "submit", "r1", "bob", *"F2 A1 B1 C1 D1".split())
    invoke(db, "new", "lca", "r2", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "submit", "r2", "ann", *"G4 A1 B1 C1 D1".split())
    invoke(db, "submit", "r2", "bob", *"F2 A1 B1 C1 D1".split())
    invoke(db, "close", "r2", "--force", "--reason", "cat away")
    invoke(db, "submit", "r2", "ann", *"E5 B12 E12".split())
    invoke(db, "new", "lca", "r3", "--players", "ann,bob", "--studio", STUDIO)
    invoke(db, "submit", "r3", "ann", *"G4 A1 B1 C1 D1".split())
    invoke(db, "close", "r3", "--force", "--reason", "bob away")
    invoke(db, "submit", "r3", "ann", *"E5 B12 E12".split())
    invoke(db, "close", "r3", "--force", "--reason", "bob away")
    invoke(db, "submit", "r3", "ann", *"E4 A11 J13".split())
    invoke(db, "submit", "r3", "bob", *"D5 A11 J13".split())
    with contextlib.chdir(REPO):  # the scripts name their files from the repository's root
        invoke(db, "script", "fixtures/lca/amendment-example.txt")
        invoke(db, "script", "fixtures/photographer/g2-seed7.txt")
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    invoke(db, "submit", "p1", "ann", "gift:bob", "learn:yan")
    invoke(db, "new", "pw", "p3", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    for line in ["ann gift:bob learn:yan", "ann watch:bob learn:yan", "zed gift:bob swap:yan"]:
        invoke(db, "submit", "p3", *line.split())
    invoke(db, "new", "photographer", "g1", "--players", "ann,bob", "--seed", str(2**40))
    return db


FINISHED_ROUNDS = (
    "match 'amend5' is finished; nothing more can be recorded (`reopen amend5 --reason TEXT` reopens round 3, "
    "and `void`/`correct` with --reopen take back one of its submissions)"
)

#: (the words after `matchledger --db DB --actor tester`, the error's line as printed, the exit code)
WORDED = [
    # reading
    (["status", "r1", "--at", "99"], "--at 99 is outside match 'r1' (events 1 to 3)", 1),
    (["knowledge", "r1", "--as", "zed"], "--as 'zed': not a participant of 'r1' (participants: ann, bob, cat)", 1),
    (["status", "nomatch"], "no match 'nomatch' in '{db}'", 1),
    (["messages", "r1"], "no round of 'r1' is closed yet: there is nothing to send", 1),
    # a file's own refusal, not taken for bad JSON (an input error is a ValueError too)
    (
        ["outcome", "g2", "--announced", "no-such-file.json"],
        "cannot read announced outcome 'no-such-file.json': No such file or directory",
        1,
    ),
    (["messages", "r2", "--round", "5"], "--round 5: round 5 of 'r2' is not closed (rounds closed: 1)", 1),
    (["verify", "r1", "--receipt", "bad"], "--receipt must be SEQ:HASH with a 64-digit hex hash, got 'bad'", 2),
    (
        ["verify", "r1", "--head", "nonsense"],
        "Invalid value for '--head': 'nonsense' is not SEQ:HASH (a seq and a hex hash, as `head` prints them)",
        2,
    ),
    # submitting and closing
    (
        ["submit", "r1", "zed", *"G4 A1 B1 C1 D1".split()],
        "'zed' is not a participant of 'r1' (participants: ann, bob, cat)",
        1,
    ),
    (
        ["close", "r1"],
        "round 1 of 'r1' cannot close; no submission from cat. Record theirs, or close anyway with "
        "`close r1 --force --reason TEXT` (a player with no submission at close places nothing)",
        1,
    ),
    (["close", "r1", "--force", "--reason", " "], "a forced close needs a --reason (kept in the log)", 1),
    (
        ["close", "r3", "--force", "--reason", "r"],
        "every participant has submitted in round 3 of 'r3'; close it without --force",
        1,
    ),
    (["close", "p1"], "W5: round 1 of 'p1' cannot close; no submission from bob, yan, zed", 1),
    (
        ["close", "p1", "--force", "--reason", "r"],
        "W5: round 1 of 'p1' cannot close, not even with --force (every participant must submit); "
        "no submission from bob, yan, zed",
        1,
    ),
    (["submit", "amend5", "ann", "G4"], FINISHED_ROUNDS, 1),
    (
        ["submit", "g2", "ann", "take", "1", "left", "1"],
        "match 'g2' is finished; nothing more can be recorded (`void g2 58 --reason TEXT` takes back its last turn)",
        1,
    ),
    # reasons and free text
    (["abandon", "r1", "--reason", " "], "abandoning a match needs a --reason", 1),
    (
        ["abandon", "r1", "--reason", "a\nb"],
        "--reason 'a\\nb': one line of printable text, with no control characters",
        1,
    ),
    (["note", "r1", "a\x01b"], "note 'a\\x01b': one line of printable text, with no control characters", 1),
    (
        ["amend", "r1", "--option", "filming_lights_divisor=2", "--from-round", "2", "--reason", " "],
        "an amendment needs a --reason",
        1,
    ),
    (["void", "r1", "2", "--reason", " "], "a void needs a --reason", 1),
    (["correct", "r1", "2", *"G4 A1 B1 C1 D1".split(), "--reason", " "], "a correction needs a --reason", 1),
    (["reopen", "r1", "--reason", " "], "reopening a round needs a --reason (kept in the log)", 1),
    (["void", "g1", "2", "--reason", " "], "taking back a turn needs a --reason (kept in the log)", 1),
    # amendments
    (
        ["amend", "r1", "--option", "filming_lights_divisor=2", "--from-round", "9", "--reason", "r"],
        "--from-round 9: lca has 3 rounds",
        1,
    ),
    (
        ["amend", "r2", "--option", "filming_lights_divisor=2", "--from-round", "1", "--reason", "r"],
        "--from-round 1: round 1 is already over; amendments take effect from the open round (2) on",
        1,
    ),
    # reopening, voiding, correcting
    (["reopen", "r1", "--reason", "r"], "no round of 'r1' is closed yet; round 1 is open", 1),
    (
        ["reopen", "r2", "--reason", "r"],
        "round 2 of 'r2' holds submissions (seq 5 (ann)); round 1 cannot be reopened under them. "
        "Void each first (`void r2 SEQ --reason TEXT`), then reopen",
        1,
    ),
    (
        ["void", "r2", "2", "--reason", "r"],
        "submission 2 belongs to round 1, which is closed; add --reopen to supersede that round's "
        "announcements (the round must then be closed again)",
        1,
    ),
    (
        ["void", "r3", "2", "--reason", "r", "--reopen"],
        "submission 2 belongs to round 1; only the open round (3) or, with --reopen, the last closed round (2) "
        "can be corrected",
        1,
    ),
    (
        ["void", "p3", "3", "--reason", "r"],
        "voiding 3 would make ann's submission 2 (gift:bob learn:yan) count again, which the rules refuse now: "
        "W3: 'gift' ('gift:bob') was already submitted this round by 'ann''s partner 'zed'; a pair may not share "
        "a type within a round. Void 2 first (then nothing counts again), or `correct 3` with tokens the rules "
        "accept",
        1,
    ),
    (["close", "g1"], "photographer has no close: a turn is resolved as soon as it is submitted", 1),
    (
        ["reopen", "g1", "--reason", "r"],
        "photographer has no rounds to reopen: a turn is resolved as soon as it is submitted, and "
        "`void g1 SEQ --reason TEXT` takes back the last one",
        1,
    ),
    (
        ["void", "g1", "2", "--reason", "r", "--reopen"],
        "photographer has no rounds to reopen: drop --reopen; `void` alone takes back the last turn",
        1,
    ),
    (
        ["correct", "g2", "2", *"take 1 left 3 wind 1:2".split(), "--reason", "r"],
        "submission 2 is photographer turn 1, resolved when it was submitted; a turn cannot be corrected, but the "
        "last one can be taken back (`void g2 SEQ --reason TEXT`) and submitted again",
        1,
    ),
    (["void", "g1", "99", "--reason", "r"], "no event 99 in match 'g1' (events 1 to 1)", 1),
    # creating
    (["new", "pw", "x1", "--players", "a,b"], "pw needs --pair PLAYER=GUEST for every player", 1),
    (["new", "pw", "x1", "--players", "a,b", "--pair", "a=zed"], "player 'b' has no guest (add --pair b=GUEST)", 1),
    (
        ["new", "pw", "x1", "--players", "a,b", "--pair", "c=zed", "--pair", "b=y"],
        "--pair c=zed: 'c' is not a listed player (a, b)",
        1,
    ),
    (
        ["new", "pw", "x1", "--players", "a,b", "--pair", "a=b", "--pair", "b=y"],
        "--pair a=b: guest 'b' is also a player",
        1,
    ),
    (["new", "lca", "x1", "--players", "a,b"], "lca needs --studio FILE", 1),
    (
        ["new", "photographer", "x1", "--players", "a,b", "--seed", "1", "--deck", STUDIO],
        "give either --seed or --deck, not both",
        1,
    ),
]


def _error_line(result) -> str:
    return result.stderr.rstrip("\n").splitlines()[-1]


@pytest.mark.parametrize("args, message, code", WORDED, ids=[" ".join(map(str, args))[:60] for args, _m, _c in WORDED])
def test_the_command_line_words_each_error_as_it_always_has(matches_for_errors_db, args, message, code):
    result = invoke(matches_for_errors_db, *args, expect=code)
    assert _error_line(result) == "Error: " + message.format(db=matches_for_errors_db)


def test_an_actor_is_worded_with_the_option_and_the_variables_that_name_it(matches_for_errors_db):
    result = CliRunner().invoke(cli, ["--db", str(matches_for_errors_db), "--actor", "\x01", "note", "r1", "hi"])
    assert result.exit_code == 1
    assert _error_line(result) == (
        "Error: actor '\\x01' (--actor, MATCHLEDGER_ACTOR or $USER): the actor is 1 to 64 printable characters, "
        "with no control characters"
    )


def test_a_database_that_is_not_there_is_worded_with_the_commands_that_make_one(tmp_path):
    missing = tmp_path / "none.db"
    result = invoke(missing, "status", "m1", expect=1)
    assert _error_line(result) == f"Error: no database at {str(missing)!r} (run `matchledger init` or `new` first)"


def test_a_script_line_carries_the_same_words_and_exit_code(matches_for_errors_db, tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("status amend5\nsubmit amend5 ann G4\n")
    result = invoke(matches_for_errors_db, "script", script, "--atomic", expect=1)
    assert _error_line(result) == (
        f"Error: {script} line 2 (submit amend5 ann G4): {FINISHED_ROUNDS}; nothing was written (--atomic)"
    )


@pytest.fixture(scope="module")
def tampered(matches_for_errors_db, tmp_path_factory):
    """A copy of ``db`` whose event p1:2 was edited behind the chain's back."""
    copy = tmp_path_factory.mktemp("tampered") / "tampered.db"
    with sqlite3.connect(matches_for_errors_db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    conn = sqlite3.connect(copy)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET actor = 'mallory' WHERE match_id = 'p1' AND seq = 2")
    conn.commit()
    conn.close()
    return copy


REFUSED_READ = (
    "]; the log of 'p1' does not verify, so nothing from it is shown or decided (`matchledger verify p1` tells more)"
)


def test_a_read_the_chain_does_not_vouch_for_names_the_command_that_tells_more(tampered):
    line = _error_line(invoke(tampered, "status", "p1", expect=3))
    assert line.startswith("Error: p1 seq 2: hash does not match the event's contents [hash: recorded ")
    assert line.endswith(REFUSED_READ)


def test_list_words_a_match_that_does_not_verify_as_a_read_of_it_does(tampered):
    result = invoke(tampered, "list", expect=3)
    [finding] = [line for line in result.stderr.splitlines() if line.startswith("FINDING ")]
    assert finding.startswith("FINDING p1 seq 2: hash does not match") and finding.endswith(REFUSED_READ)
    [listed] = [
        entry for entry in json.loads(invoke(tampered, "list", "--json", expect=3).stdout) if "problem" in entry
    ]
    assert listed["match"] == "p1" and listed["problem"] == finding.removeprefix("FINDING ")
