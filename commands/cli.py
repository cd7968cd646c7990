"""`matchledger`: the entry point, global options, error handling and logging set-up.

Every domain error becomes one line on stderr and an exit code (1 for rules and input
errors, 3 for verify findings); no traceback reaches a user.
"""

from __future__ import annotations

import os
import sys

import click

from . import audit, checkpoint, host, pictures, read, script


class LedgerClickError(click.ClickException):
    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code


class LedgerGroup(click.Group):
    """Turns domain errors raised by any subcommand into clean CLI errors."""

    def invoke(self, ctx):
        from matchledger.ledger.errors import MatchledgerError

        try:
            return super().invoke(ctx)
        except MatchledgerError as exc:
            _log().info("command_failed", error=type(exc).__name__, message=str(exc))
            raise LedgerClickError(str(exc), exc.exit_code) from None


class Settings:
    """What the group's options decided; shared by every subcommand (and `script` lines)."""

    def __init__(self, db: str, actor: str, log_json: bool):
        self.db = db
        self.actor = actor
        self.log_json = log_json
        self._ledger = None

    def ledger_for(self, create: bool):
        if self._ledger is None:
            from matchledger.ledger.store import Store
            from matchledger.projections.app import Ledger

            self._ledger = Ledger(Store(self.db, create=create), actor=self.actor)
        return self._ledger


_LOG_JSON: bool | None = None  # set by configure_logging; structlog is set up on first use


def _log():
    import structlog

    global _LOG_JSON
    if _LOG_JSON is not None:
        _configure_structlog(_LOG_JSON)
        _LOG_JSON = None
    return structlog.get_logger("matchledger")


def configure_logging(log_json: bool) -> None:
    """structlog, configured on first use (importing it costs ~30 ms of start-up):
    JSON lines with --log-json, else quiet human output."""
    global _LOG_JSON
    _LOG_JSON = log_json


def _configure_structlog(log_json: bool) -> None:
    import logging

    import structlog

    processors = [structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso", utc=True)]
    if log_json:
        processors.append(structlog.processors.JSONRenderer())
        level = logging.INFO
    else:
        processors.append(structlog.dev.ConsoleRenderer(colors=False))
        level = logging.WARNING
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


#: The cyclic garbage collector's generation thresholds for a command.  A command is a
#: short process that allocates many small objects (decoded events, folded states) and
#: frees them by reference counting (they form no cycles), so scanning the youngest
#: generation every 700 allocations (Python's default) only costs time: 10-20% of
#: replaying a large file.  Cycles, if any, are still collected.
GC_THRESHOLDS = (50_000, 10, 10)


def tune_gc() -> None:
    import gc

    gc.set_threshold(*GC_THRESHOLDS)


def _default_actor() -> str:
    return os.environ.get("MATCHLEDGER_ACTOR") or os.environ.get("USER") or "host"


@click.group(cls=LedgerGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    default="matches.db",
    envvar="MATCHLEDGER_DB",
    show_default=True,
    help="SQLite database file (env MATCHLEDGER_DB).",
)
@click.option("--actor", default=None, help="Who records the events (env MATCHLEDGER_ACTOR, else $USER).")
@click.option("--log-json", is_flag=True, help="Log as JSON lines on stderr.")
@click.version_option(package_name="matchledger")
@click.pass_context
def cli(ctx, db, actor, log_json):
    """An event-sourced, tamper-evident ledger for hosted games.

    Every move is an append-only, hash-chained event in SQLite; scores, outcomes,
    reveals and each participant's knowledge are rebuilt by replaying the log.

    \b
    Example — a host's first steps:
      matchledger new lca m1 --players ann,bob,cat --studio studio.txt
      matchledger submit m1 ann B2 C3 D4 E5 F6
      matchledger close m1
      matchledger reveals m1 --public
      matchledger verify m1
    """
    if isinstance(ctx.obj, Settings):  # a `script` line: keep the outer settings
        return
    tune_gc()
    configure_logging(log_json)
    ctx.obj = Settings(db, actor or _default_actor(), log_json)


for module in (host, read, audit, checkpoint, script, pictures):
    for command in module.COMMANDS:
        cli.add_command(command)


def main() -> None:
    try:
        cli(prog_name="matchledger")
    except SystemExit:
        raise
    except Exception as exc:  # a bug, not a user error: still no traceback on the terminal
        if os.environ.get("MATCHLEDGER_DEBUG"):
            raise
        click.echo(f"Error: internal error: {type(exc).__name__}: {exc} (set MATCHLEDGER_DEBUG=1 for a traceback)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    # Run the package's module, not this __main__ copy, so that `script` lines share the
    # settings object with the group they belong to.
    from matchledger.commands.cli import main as package_main

    package_main()
