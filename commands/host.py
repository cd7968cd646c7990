"""What a host types while running a match: init, new, contract, submit, close, reopen,
amend, void, correct, note, abandon.  Each command that writes takes --json and prints
what it recorded.  The layers below (the engine's commands) are imported when a command
runs: a command's --help needs none of them."""

from __future__ import annotations

import click

from .declared_setup import DeclaredSetupCommand, read_setup
from .options import key_values, load_json_object, write_options
from .output import report_written, say
from .session import app


@click.command("init")
def init_cmd():
    """Create the database file, or the tables of a PostgreSQL database (any command
    that writes does too).

    \b
    Examples:
      matchledger --db tournament.db init
      matchledger --db postgresql://league@db.example.org/season2026 init
    """
    from matchledger.projections.presentation.wording import plural

    application = app(create=True)
    say(f"database ready: {application.location} ({plural(len(application.match_ids()), 'match', 'matches')})")


@click.command("new", cls=DeclaredSetupCommand)
@click.argument("game")
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--players", required=True, help="Players, comma-separated, in previous-MM order (best first) or seat order."
)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A ruleset option; repeat for more.")
@write_options
def new_cmd(game, match_id, players, options, as_json, **given):
    """Create a match of GAME named MATCH, with the setup GAME declares.

    GAME is an installed game (listed below, with the setup parameters each declares:
    `matchledger new GAME --help` lists one game's).  A parameter GAME does not declare
    is refused.  Options go before or after GAME and MATCH.
    """
    from matchledger.engine.commands import CreateMatch

    command = click.get_current_context().command
    assert isinstance(command, DeclaredSetupCommand)  # `new` is declared with cls=DeclaredSetupCommand
    setup, warnings = read_setup(command, game, given)
    names = [name.strip() for name in players.split(",") if name.strip()]
    cmd = CreateMatch(match_id=match_id, game=game, players=names, options=key_values(options, "--option"), setup=setup)
    rows = app(create=True).create(cmd)
    report_written(match_id, rows, as_json, f"created {game} match {match_id!r} with {len(names)} players; ")
    for warning in warnings:
        click.echo(warning, err=True)


@click.command("contract")
@click.argument("match_id", metavar="MATCH")
@click.argument("player")
@click.argument("names", nargs=-1, required=True)
@write_options
def contract_cmd(match_id, player, names, as_json):
    """Record PLAYER's contracts (a later record replaces the earlier one).

    A later record names the seq of the one it supersedes.

    \b
    Examples:
      matchledger contract m1 alice lights supremacy     # lca
      matchledger contract m2 ann diversity sabotage:bob # pw
    """
    from matchledger.engine.commands import RecordContract

    recorded = app(write=True).execute(match_id, RecordContract(player, list(names)))
    report_written(match_id, recorded, as_json, f"{player}: contracts {' '.join(names)}; ", recorded.supersedes)


@click.command("submit", context_settings={"ignore_unknown_options": True})
@click.argument("match_id", metavar="MATCH")
@click.argument("participant")
@click.argument("tokens", nargs=-1)
@write_options
def submit_cmd(match_id, participant, tokens, as_json):
    """Record PARTICIPANT's submission (or turn) in the game's own notation.

    A later submission by the same participant in the same round supersedes the earlier,
    and says the seq it supersedes.

    \b
    Examples:
      matchledger submit m1 alice B2 C3 D4 E5 F6                      # lca round 1
      matchledger submit m2 ann gift:bob predict:cat=swap guess:dan=zed  # pw
      matchledger submit m3 ann take 2 left 2 wind 1:6                # photographer
      matchledger submit m1 alice B2 C3 D4 E5 G6 --json               # {"match": "m1", "events": [...]}
    """
    from matchledger.engine.commands import Submit

    application = app(write=True)
    cmd = Submit(participant, list(tokens))  # split as typed: "A1, B1" is two tokens
    recorded = application.execute(match_id, cmd)
    report_written(match_id, recorded, as_json, f"{participant}: {' '.join(cmd.tokens)}; ", recorded.supersedes)


@click.command("close")
@click.argument("match_id", metavar="MATCH")
@click.option("--announced", metavar="FILE", help="JSON of the announcement the host actually made (hand-scored).")
@click.option("--force", is_flag=True, help="Close although participants have not submitted (lca; never pw, W5).")
@click.option("--reason", default="", help="Why a forced close is right (kept in the log; needed with --force).")
@write_options
def close_cmd(match_id, announced, force, reason, as_json):
    """Close the current round: resolve it and record its public and private reveals.

    A round with participants still to submit is refused, naming them.  Where the rules
    let a missing submission count as none (lca: that player places nothing), --force
    --reason TEXT closes it anyway, recording the reason and who was missing (for the
    host's log and audit only: the rules announce no such thing).  A pw round never
    closes without every submission (W5); photographer has no close.

    For a hand-scored match, --announced FILE records the announcement the host actually
    made instead of the computed one: a JSON object {"public": {...}, "private":
    {"PARTICIPANT": {...}}} in the shape of the round's entry in `reveals --json`.
    Closing the last round this way records no computed outcome: enter the announced
    results with `outcome MATCH --announced FILE`.

    \b
    Examples:
      matchledger close m1
      matchledger close m1 --force --reason "kim sent no lights before the deadline"
      matchledger close m1 --announced round1.json
    """
    from matchledger.engine.commands import CloseRound

    if reason and not force:
        raise click.UsageError("--reason goes with --force (a plain close needs none)")
    payload = load_json_object(announced, "announcement file") if announced is not None else None
    rows = app(write=True).execute(match_id, CloseRound(announced=payload, force=force, reason=reason))
    report_written(match_id, rows, as_json, "closed: ")
    if not as_json:
        # what the README says to send after a close: the post and the messages, ready to paste
        click.echo(
            f"to send: matchledger messages {match_id} (the public post, then each participant's message; "
            f"--public or --as NAME for one)"
        )


@click.command("reopen")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True, help="Why the round is reopened (kept in the log).")
@write_options
def reopen_cmd(match_id, reason, as_json):
    """Reopen the last closed round, with or without submissions in it.

    In a game of rounds the host closes (`matchledger list --games` says each game's
    kind).  Its announcements are superseded until it is closed again; submissions can then be
    recorded, voided or corrected in it as in any open round.  A finished match's last
    round can be reopened too: its outcome is superseded with it.  In a game of turns
    the last turn is taken back with `void` instead.

    \b
    Examples:
      matchledger reopen m1 --reason "closed before bob's DM arrived"
      matchledger reopen m1 --reason "round 3 closed by mistake" --json
    """
    from matchledger.engine.commands import Reopen

    rows = app(write=True).execute(match_id, Reopen(reason))
    report_written(match_id, rows, as_json, "reopened: ")


@click.command("amend")
@click.argument("match_id", metavar="MATCH")
@click.option("--option", "option", required=True, metavar="KEY=VALUE", help="The ruleset option and its new value.")
@click.option("--from-round", type=int, required=True, help="First round the new value applies to.")
@click.option("--reason", required=True, help="Why (kept in the log).")
@write_options
def amend_cmd(match_id, option, from_round, reason, as_json):
    """Amend a ruleset option from a given round on (recorded, never rewritten).

    \b
    Example (the lca card's own Amendment):
      matchledger amend m1 --option filming_lights_divisor=2 --from-round 3 --reason "card Amendment"
    """
    from matchledger.engine.commands import Amend

    [(key, value)] = key_values((option,), "--option").items()
    rows = app(write=True).execute(match_id, Amend(key, value, from_round, reason))
    report_written(match_id, rows, as_json, f"amended {key}={value} from round {from_round}; ")


@click.command("void")
@click.argument("match_id", metavar="MATCH")
@click.argument("seq", type=int)
@click.option("--reason", required=True, help="Why the submission no longer counts.")
@click.option("--reopen", is_flag=True, help="The submission's round is closed: reopen it (it must be closed again).")
@write_options
def void_cmd(match_id, seq, reason, reopen, as_json):
    """Void the submission recorded at event SEQ (it stays in the log, superseded).

    Only a submission of the open round, or with --reopen of the last closed round, can
    be voided; reopening supersedes that round's announcements.  In photographer, voiding
    the submission of the last turn takes that turn back: the match stands as if it had
    never been played, and the player plays it again.  The report says what else the
    void did: the earlier submission that counts again in its place ("hal's submission
    20 counts again"; --json: "counts_again": 20), the turn and outcome it took back
    ("takes_back": [41, 42]), as `log` and `audit` tell it.

    \b
    Examples:
      matchledger void m1 7 --reason "submitted for the wrong player"
      matchledger void m1 7 --reopen --reason "DM was for round 3, not 2"
      matchledger void m3 41 --reason "typo: ann meant row 2"   # photographer: the last turn
    """
    from matchledger.engine.commands import Void

    recorded = app(write=True).execute(match_id, Void(seq, reason, reopen))
    report_written(match_id, recorded, as_json, f"voided seq {seq}; ", voids=recorded.voids)


@click.command("correct", context_settings={"ignore_unknown_options": True})
@click.argument("match_id", metavar="MATCH")
@click.argument("seq", type=int)
@click.argument("tokens", nargs=-1, required=True)
@click.option("--reason", required=True, help="Why the submission is corrected.")
@click.option("--reopen", is_flag=True, help="The submission's round is closed: reopen it (it must be closed again).")
@write_options
def correct_cmd(match_id, seq, tokens, reason, reopen, as_json):
    """Supersede the submission at event SEQ with TOKENS (the original stays in the log).

    Only a submission of the open round, or with --reopen of the last closed round, can
    be corrected; reopening supersedes that round's announcements.

    \b
    Examples:
      matchledger correct m1 7 B2 C3 D4 E5 F7 --reason "typo: F6 was F7 in the DM"
      matchledger correct m1 7 B2 C3 D4 E5 F7 --reopen --reason "found after the close"
    """
    from matchledger.engine.commands import Correct

    rows = app(write=True).execute(match_id, Correct(seq, list(tokens), reason, reopen))
    report_written(match_id, rows, as_json, f"corrected seq {seq}; ")


@click.command("note")
@click.argument("match_id", metavar="MATCH")
@click.argument("text")
@write_options
def note_cmd(match_id, text, as_json):
    """Add a free-text host note to the log.

    \b
    Example:
      matchledger note m1 "bob's round 2 DM arrived 3 minutes late; accepted"
    """
    from matchledger.engine.commands import AddNote

    rows = app(write=True).execute(match_id, AddNote(text))
    report_written(match_id, rows, as_json)


@click.command("abandon")
@click.argument("match_id", metavar="MATCH")
@click.option("--reason", required=True, help="Why the match is given up (kept in the log).")
@write_options
def abandon_cmd(match_id, reason, as_json):
    """Mark MATCH abandoned: it takes no more events, and stays in the log and readable.

    Nothing is deleted: `list` and `verify --all` name the match as abandoned, and every
    read shows it as it stood.

    \b
    Example:
      matchledger abandon m9 --reason "created with the wrong players; replaced by m10"
    """
    from matchledger.engine.commands import Abandon

    rows = app(write=True).execute(match_id, Abandon(reason))
    report_written(match_id, rows, as_json, f"abandoned {match_id!r}; ")
