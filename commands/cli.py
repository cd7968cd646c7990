"""`matchledger`: the entry point: global options, the command table, and turning every
error into one line on stderr and an exit code (1 for rules and input errors, 2 for usage
errors, 3 for findings), worded with the command line's flags and commands
(:mod:`.errors`); no traceback reaches a user, and no error message carries an
unprintable character (a stored name or a typed argument holding one is escaped)."""

from __future__ import annotations

import contextlib
import gc
import os
import shlex
import sys
from collections.abc import Iterator

import click

from matchledger.ledger.errors import MatchledgerError

from . import colour, errors, logs
from .lazy import LazyGroup
from .session import Session

#: Every command: name -> (module, attribute, the line `--help` lists).  The line is the
#: first of the command's own help (tests/cli/test_cli.py holds the two equal).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": (
        "host",
        "init_cmd",
        "Create the database file, or the tables of a PostgreSQL database (any command that writes does too).",
    ),
    "new": ("host", "new_cmd", "Create a match of GAME named MATCH, with the setup GAME declares."),
    "contract": ("host", "contract_cmd", "Record PLAYER's contracts (a later record replaces the earlier one)."),
    "submit": ("host", "submit_cmd", "Record PARTICIPANT's submission (or turn) in the game's own notation."),
    "close": ("host", "close_cmd", "Close the current round: resolve it and record its public and private reveals."),
    "reopen": ("host", "reopen_cmd", "Reopen the last closed round, with or without submissions in it."),
    "amend": ("host", "amend_cmd", "Amend a ruleset option from a given round on (recorded, never rewritten)."),
    "void": ("host", "void_cmd", "Void the submission recorded at event SEQ (it stays in the log, superseded)."),
    "correct": (
        "host",
        "correct_cmd",
        "Supersede the submission at event SEQ with TOKENS (the original stays in the log).",
    ),
    "note": ("host", "note_cmd", "Add a free-text host note to the log."),
    "deadline": ("deadline", "deadline_cmd", "Set or move the open round's deadline, or one for every later round."),
    "abandon": (
        "host",
        "abandon_cmd",
        "Mark MATCH abandoned: it takes no more events, and stays in the log and readable.",
    ),
    "list": ("listing", "list_cmd", "Every match: game, players, round or turn, finished or abandoned, head."),
    "status": ("read", "status_cmd", "Where the match stands: round, who has submitted, the board or table."),
    "scores": (
        "read",
        "scores_cmd",
        "Scores so far (the host sees everyone's; a participant only what they were told).",
    ),
    "outcome": (
        "read",
        "outcome_cmd",
        "Final standings and awards (ToLs, shards, marks, ECs); --public gives the announced subset.",
    ),
    "reveals": (
        "read",
        "reveals_cmd",
        "What was announced at each round's close (and, with --as, that participant's private notices).",
    ),
    "knowledge": (
        "read",
        "knowledge_cmd",
        "Everything PARTICIPANT may know: the public record, their own moves, their private notices.",
    ),
    "log": ("read", "log_cmd", "The match's events in order, with who recorded them and when."),
    "messages": (
        "messages",
        "messages_cmd",
        "Print the public post and each participant's message for a closed round or turn.",
    ),
    "head": ("read", "head_cmd", "The match's head (last seq and hash) to publish, so truncation can be caught later."),
    "verify": ("audit", "verify_cmd", "Check the hash chain, then replay and re-derive every announcement."),
    "audit": (
        "audit",
        "audit_cmd",
        "An auditor's report: the verdict of verify, every correction, amendment and host-entered announcement.",
    ),
    "diff": ("audit", "diff_cmd", "Compare two matches' logs (or one match in two database files)."),
    "rescore": ("audit", "rescore_cmd", "What the outcome would be under another ruling, beside the recorded one."),
    "explain": ("audit", "explain_cmd", "PARTICIPANT's score derived line by line, with the rule behind each point."),
    "export": ("transfer", "export_cmd", "A portable JSON Lines copy of the match's log: one event envelope per line."),
    "import": (
        "transfer",
        "import_cmd",
        "Import a match exported with `export`; the chain is verified before anything is written.",
    ),
    "checkpoint": (
        "checkpoint",
        "checkpoint_cmd",
        "Store a snapshot of MATCH (or of every match), replayed from its first event.",
    ),
    "script": ("script", "script_cmd", "Run FILE: one command per line as typed after `matchledger`."),
    "demo": (
        "script",
        "demo_cmd",
        "Record the embedded demo match into the database, verify it, and print its outcome.",
    ),
    "invite": (
        "access",
        "invite_cmd",
        "Issue a link to MATCH through `serve`: a participant's own page, or an auditor's.",
    ),
    "revoke": ("access", "revoke_cmd", "Withdraw a link issued by `invite`: its token no longer opens anything."),
    "hook": (
        "hooks",
        "hook_cmd",
        "Post each close to a chat channel: add, list and remove the hooks `serve` posts to.",
    ),
    "serve": ("serve", "serve_cmd", "Serve the database over HTTP: public pages, participants' links, the JSON API."),
    "render": ("pictures", "render_cmd", "Draw the board or table as an SVG or PNG picture in one view."),
    "report": ("pictures", "report_cmd", "Write a self-contained HTML page to step through the match event by event."),
}

#: How `--help` groups the commands, by who needs them; each section lists its commands
#: in this order.  A command of the table that no section names is listed under "Other
#: commands"; a name here that the table lacks is skipped.
HELP_SECTIONS: dict[str, tuple[str, ...]] = {
    "Commands for hosts (recording a match)": (
        "init",
        "new",
        "contract",
        "submit",
        "close",
        "reopen",
        "amend",
        "void",
        "correct",
        "note",
        "deadline",
        "abandon",
        "script",
        "demo",
        "serve",
        "invite",
        "revoke",
        "hook",
    ),
    "Commands for everyone (reading a match)": (
        "status",
        "scores",
        "outcome",
        "reveals",
        "knowledge",
        "log",
        "messages",
        "render",
        "report",
    ),
    "Commands for auditors (checking and moving matches)": (
        "list",
        "head",
        "verify",
        "audit",
        "explain",
        "diff",
        "rescore",
        "export",
        "import",
        "checkpoint",
    ),
}

#: The root group's options (name -> whether a value follows it): they go before the
#: command (`matchledger --db x.db status m1`).
GLOBAL_OPTIONS = {"--db": True, "--actor": True, "--log-json": False, "--color": False, "--no-color": False}

#: The cyclic garbage collector's generation thresholds for a command.  A command is a
#: short process that allocates many small objects (decoded events, folded states) and
#: frees them by reference counting (they form no cycles), so scanning the youngest
#: generation every 700 allocations (Python's default) only costs time: 10-20% of
#: replaying a large file.  Cycles, if any, are still collected.
GC_THRESHOLDS = (50_000, 10, 10)


def _require_text(arg: str) -> None:
    """An argument is UTF-8 text without NUL: one holding bytes that are not UTF-8 (which
    Python hands over as lone surrogates) or a NUL (which a `script` line can) names no
    match, participant or file the ledger can keep."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        raise click.ClickException(f"argument {arg!r} is not UTF-8 text (it holds an undecodable byte)") from None
    if "\x00" in arg:
        raise click.ClickException(f"argument {arg!r} holds a NUL character")


@contextlib.contextmanager
def printable_errors() -> Iterator[None]:
    """Every error message raised inside made printable: the one place error text is
    escaped, whether click (a usage error quoting an argument) or matchledger made it."""
    try:
        yield
    except click.ClickException as exc:
        # imported here: `--help` loads nothing of the layers below the command line
        from matchledger.projections.presentation.printable import printable

        exc.message = printable(exc.message)
        colour.paint_errors_of(exc)
        raise


def _global_option_after_the_command(ctx: click.Context, args: list[str]) -> click.UsageError | None:
    """The error for a global option typed after the command (``args``: the command and
    what follows it), showing the line with it moved before the command."""
    for index, arg in enumerate(args[1:], start=1):
        if arg == "--":
            return None
        option = arg.partition("=")[0]
        if option not in GLOBAL_OPTIONS:
            continue
        taken = 2 if GLOBAL_OPTIONS[option] and "=" not in arg else 1
        moved = args[index : index + taken]
        line = shlex.join([ctx.command_path, *moved, *args[:index], *args[index + taken :]])
        return click.UsageError(
            f"{option} is a global option: it goes before the command, as in `{line}` "
            f"(global options: {', '.join(GLOBAL_OPTIONS)})",
            ctx,
        )
    return None


class CommandLine(LazyGroup):
    """The root group: every domain error a subcommand raises becomes a clean CLI error."""

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        if not isinstance(extra.get("obj"), Session):  # a new command line, not a `script` line
            colour.choose(None)
        if extra.get("resilient_parsing"):  # completing: only then is completion loaded
            from . import completion

            completion.attach(self)
        with printable_errors():  # the global options are parsed here
            for arg in args:
                _require_text(arg)
            return super().make_context(info_name, args, parent, **extra)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None and ctx.resilient_parsing:
            from . import completion

            completion.attach(command)
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]):
        if ctx.resilient_parsing:
            from . import completion

            completion.remember_command_args(ctx, args[1:])
        misplaced = None if ctx.resilient_parsing else _global_option_after_the_command(ctx, args)
        if misplaced is not None:
            raise misplaced
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context):
        with printable_errors():
            try:
                return super().invoke(ctx)
            except MatchledgerError as exc:
                text = errors.message(exc)
                logs.log().info("command_failed", error=type(exc).__name__, message=text)
                error = click.ClickException(text)
                error.exit_code = errors.exit_code(exc)
                raise error from None


DEFAULT_DATABASE = "matches.db"


def _database_file(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """--db must name a file: SQLite takes '' for a temporary database and ':memory:' for
    one in memory, and either would silently drop what a host records."""
    if value is None:  # read here, not by click: click versions differ on an empty variable
        value = os.environ.get("MATCHLEDGER_DB", DEFAULT_DATABASE)
        if value == "":
            raise click.BadParameter("MATCHLEDGER_DB is set but empty; it must name the database file", ctx, param)
    if value in ("", ":memory:"):
        raise click.BadParameter(f"{value!r} names no database file", ctx, param)
    return value


def _colour_choice(ctx: click.Context, param: click.Parameter, value: bool | None) -> bool | None:
    if not isinstance(ctx.obj, Session):  # a `script` line keeps the choice of the line that runs it
        colour.choose(value)
    ctx.color = colour.wanted()
    return value


def _default_actor() -> str:
    return os.environ.get("MATCHLEDGER_ACTOR") or os.environ.get("USER") or "host"


@click.group(
    cls=CommandLine,
    lazy_commands=COMMANDS,
    sections=HELP_SECTIONS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--db",
    default=None,
    callback=_database_file,
    help=f"SQLite database file, or a postgresql:// URL (env MATCHLEDGER_DB).  [default: {DEFAULT_DATABASE}]",
)
@click.option("--actor", default=None, help="Who records the events (env MATCHLEDGER_ACTOR, else $USER).")
@click.option("--log-json", is_flag=True, help="Log as JSON lines on stderr.")
@click.option(
    "--color/--no-color",
    "colour_flag",
    default=None,
    is_eager=True,
    expose_value=False,
    callback=_colour_choice,
    help="Colour findings and errors, or not.  [default: on a terminal, unless NO_COLOR is set]",
)
@click.version_option(package_name="matchledger")
@click.pass_context
def cli(ctx, db, actor, log_json):
    """An event-sourced, tamper-evident ledger for hosted games.

    Every move is an append-only, hash-chained event in SQLite (or PostgreSQL:
    --db postgresql://USER@HOST/DB); scores, outcomes, reveals and each
    participant's knowledge are rebuilt by replaying the log.

    \b
    Example — a host's first steps:
      matchledger new lca m1 --players ann,bob,cat --studio studio.txt
      matchledger submit m1 ann B2 C3 D4 E5 F6
      matchledger close m1
      matchledger reveals m1 --public
      matchledger verify m1
    """
    if isinstance(ctx.obj, Session):  # a `script` line: keep the outer session
        return
    gc.set_threshold(*GC_THRESHOLDS)
    logs.configure(log_json)
    ctx.obj = Session(db, actor or _default_actor(), log_json)
    ctx.call_on_close(ctx.obj.close)


def main() -> None:
    try:
        cli(prog_name="matchledger")
    except SystemExit:
        raise
    except Exception as exc:  # a bug, not a user error: still no traceback on the terminal
        if os.environ.get("MATCHLEDGER_DEBUG"):
            raise
        from matchledger.projections.presentation.printable import printable

        message = f"internal error: {type(exc).__name__}: {exc} (set MATCHLEDGER_DEBUG=1 for a traceback)"
        click.echo(f"{colour.paint('Error:', 'error')} {printable(message)}", err=True, color=colour.wanted())
        sys.exit(1)
