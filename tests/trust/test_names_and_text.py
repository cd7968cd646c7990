"""Names, ids and free text are bounded and validated where they enter (docs/design.md,
"Trust boundary"): each refusal names the rule, quotes the value (its repr) and
writes nothing."""

from __future__ import annotations

import pytest

from matchledger.ledger.limits import (
    ACTOR_MAX_LENGTH,
    NAME_MAX_LENGTH,
    PARTICIPANTS_MAX,
    TEXT_MAX_LENGTH,
    TOKEN_MAX_LENGTH,
    TOKENS_MAX,
)
from tests.helpers import invoke

from .common import STUDIO, new_lca, new_pw, rows


def refused(db, *args, quoting: str, rule: str, env=None) -> str:
    """Run a command that must be refused (exit 1) without writing, naming ``rule`` and
    quoting ``quoting``; the message."""
    before = rows(db)
    result = invoke(db, *args, expect=1) if env is None else _invoke_env(db, env, *args)
    message = result.stderr
    assert quoting in message, message
    assert rule in message, message
    assert message.count("\n") == 1, message  # one line
    assert rows(db) == before
    return message


def _invoke_env(db, env, *args):
    from click.testing import CliRunner

    from matchledger.commands.cli import cli

    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], env=env, catch_exceptions=False)
    assert result.exit_code == 1, result.output
    return result


# --------------------------------------------------------------------------- match ids


@pytest.mark.parametrize(
    "match_id",
    ["m\x1b]52;c;aGk=\x07", "m\n2", "a b", "x" * 65, "m/1", "m1;", "ünï", "m\x7f"],
)
@pytest.mark.guarantee("input.match-id")
def test_a_match_id_outside_the_syntax_is_refused(empty_db_path, match_id):
    refused(
        empty_db_path,
        "new",
        "lca",
        match_id,
        "--players",
        "ann,bob",
        "--studio",
        STUDIO,
        quoting=repr(match_id)[:40],
        rule="1 to 64 characters",
    )


@pytest.mark.guarantee("input.match-id")
def test_a_match_id_of_64_letters_digits_dots_dashes_and_underscores_is_accepted(empty_db_path):
    match_id = ("Ab9._-" * 11)[:64]
    new_lca(empty_db_path, match_id)
    assert invoke(empty_db_path, "head", match_id).stdout.startswith("1:")


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "players, quoting, rule",
    [
        ("ann,Ann", "'Ann'", "differ only in case"),
        ("ann,-x", "'-x'", "may not start with '-'"),
        ("ann,host", "'host'", "reserved"),
        ("ann,Public", "'Public'", "reserved"),
        ("ann," + "b" * (NAME_MAX_LENGTH + 1), "'bbbb", f"at most {NAME_MAX_LENGTH} characters"),
        ("ann,b\x1bc", "'b\\x1bc'", "no control"),
        ("ann,b c", "'b c'", "letters, digits"),
        ("ann,ann", "'ann'", "listed twice"),
    ],
)
@pytest.mark.guarantee("input.names")
def test_a_participant_name_outside_the_rules_is_refused(empty_db_path, players, quoting, rule):
    refused(empty_db_path, "new", "lca", "m1", "--players", players, "--studio", STUDIO, quoting=quoting, rule=rule)


@pytest.mark.guarantee("input.names")
def test_a_name_of_40_characters_with_dots_dashes_and_underscores_is_accepted(empty_db_path):
    name = ("a.b_c-" * 7)[:NAME_MAX_LENGTH]
    new_lca(empty_db_path, players=f"ann,{name}")
    assert name in invoke(empty_db_path, "status", "m1").stdout


@pytest.mark.parametrize(
    "pairs, quoting, rule",
    [
        (("ann=ANN", "bob=yan"), "'ANN'", "differ only in case"),
        (("ann=zed", "bob=Zed"), "'Zed'", "differ only in case"),
        (("ann=-z", "bob=yan"), "'-z'", "may not start with '-'"),
        (("ann=host", "bob=yan"), "'host'", "reserved"),
        (("ann=z\x07", "bob=yan"), "'z\\x07'", "no control"),
    ],
)
@pytest.mark.guarantee("input.names")
def test_a_pw_guest_name_follows_the_same_rules(empty_db_path, pairs, quoting, rule):
    args = [arg for pair in pairs for arg in ("--pair", pair)]
    refused(empty_db_path, "new", "pw", "p1", "--players", "ann,bob", *args, quoting=quoting, rule=rule)


@pytest.mark.guarantee("input.participants")
def test_a_match_has_at_most_the_participants_the_limit_allows(empty_db_path):
    players = ",".join(f"p{i}" for i in range(PARTICIPANTS_MAX + 1))
    refused(
        empty_db_path,
        "new",
        "lca",
        "m1",
        "--players",
        players,
        "--studio",
        STUDIO,
        quoting=str(PARTICIPANTS_MAX + 1),
        rule=f"at most {PARTICIPANTS_MAX}",
    )


# --------------------------------------------------------------------------- the actor


@pytest.mark.parametrize(
    "actor",
    ["host\x1b[2J", "a\nb", "x" * (ACTOR_MAX_LENGTH + 1)],
)
@pytest.mark.guarantee("input.actor")
def test_an_unprintable_or_overlong_actor_records_nothing(empty_db_path, actor):
    new_lca(empty_db_path)
    refused(empty_db_path, "--actor", actor, "note", "m1", "hello", quoting=repr(actor)[:30], rule="printable")
    refused(
        empty_db_path,
        "note",
        "m1",
        "hello",
        quoting=repr(actor)[:30],
        rule="printable",
        env={"MATCHLEDGER_ACTOR": None, "USER": actor},
    )


@pytest.mark.guarantee("input.actor")
def test_a_read_needs_no_valid_actor(empty_db_path):
    new_lca(empty_db_path)
    assert "m1" in invoke(empty_db_path, "--actor", "a\x1bb", "status", "m1").stdout


# --------------------------------------------------------------------------- notes and reasons


@pytest.mark.parametrize(
    "text, rule",
    [
        ("hi\x1b[31mred", "no control characters"),
        ("\x1b]52;c;aGk=\x07", "no control characters"),
        ("line one\n  2  2024-01-01  host  NoteAdded  forged", "no control characters"),
        ("x" * (TEXT_MAX_LENGTH + 1), f"at most {TEXT_MAX_LENGTH}"),
    ],
)
@pytest.mark.guarantee("input.text")
def test_a_note_or_reason_with_control_characters_or_too_long_is_refused(empty_db_path, text, rule):
    new_lca(empty_db_path)
    invoke(empty_db_path, "submit", "m1", "ann", "A1", "B1", "C1", "D1", "E1")
    quoting = repr(text)[:30]
    refused(empty_db_path, "note", "m1", text, quoting=quoting, rule=rule)
    refused(empty_db_path, "void", "m1", "2", "--reason", text, quoting=quoting, rule=rule)
    refused(
        empty_db_path, "correct", "m1", "2", "A1", "B1", "C1", "D1", "F1", "--reason", text, quoting=quoting, rule=rule
    )
    refused(
        empty_db_path,
        "amend",
        "m1",
        "--option",
        "filming_lights_divisor=1",
        "--from-round",
        "3",
        "--reason",
        text,
        quoting=quoting,
        rule=rule,
    )


@pytest.mark.guarantee("input.text")
def test_a_note_of_the_longest_printable_text_is_accepted(empty_db_path):
    new_lca(empty_db_path)
    invoke(empty_db_path, "note", "m1", "é✓ " * (TEXT_MAX_LENGTH // 3))


# --------------------------------------------------------------------------- tokens


@pytest.mark.guarantee("input.tokens")
def test_tokens_per_submission_and_token_length_are_bounded(empty_db_path):
    new_lca(empty_db_path)
    new_pw(empty_db_path)
    refused(
        empty_db_path,
        "submit",
        "m1",
        "ann",
        *["A1"] * (TOKENS_MAX + 1),
        quoting=str(TOKENS_MAX + 1),
        rule=f"at most {TOKENS_MAX}",
    )
    long = "A" * (TOKEN_MAX_LENGTH + 1)
    refused(
        empty_db_path,
        "submit",
        "p1",
        "ann",
        f"gift:{long}",
        "learn:yan",
        quoting="'gift:AAA",
        rule=f"{TOKEN_MAX_LENGTH}",
    )
    refused(
        empty_db_path, "submit", "m1", "ann", "A1", "B\x1b1", "C1", "D1", "E1", quoting="'B\\x1b1'", rule="printable"
    )
    refused(empty_db_path, "contract", "m1", "ann", "lights\x07", quoting="'lights\\x07'", rule="printable")


@pytest.mark.guarantee("input.tokens")
def test_the_longest_legal_token_fits_a_pw_guess_between_two_names_of_the_longest_length(tmp_path):
    """The token limit leaves room for what the rules let a host type: a Round-3 guess
    names a player and a guest, each up to NAME_MAX_LENGTH characters."""
    db = tmp_path / "m.db"
    ann, bob, zed, yan = ("a" * NAME_MAX_LENGTH, "b" * NAME_MAX_LENGTH, "z" * NAME_MAX_LENGTH, "y" * NAME_MAX_LENGTH)
    invoke(db, "new", "pw", "p1", "--players", f"{ann},{bob}", "--pair", f"{ann}={zed}", "--pair", f"{bob}={yan}")
    guess = f"guess:{bob}={yan}"
    assert len(guess) == 6 + 2 * NAME_MAX_LENGTH + 1 <= TOKEN_MAX_LENGTH
    # the token passes the limits and reaches the rules (a guess is for Round 3 only)
    result = invoke(db, "submit", "p1", ann, f"gift:{bob}", f"learn:{yan}", guess, expect=1)
    assert "a token is at most" not in result.stderr and "round-3" in result.stderr.lower(), result.stderr
