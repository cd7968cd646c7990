"""Shell completion: command names from the command table, match ids and participant
names from the database, game names (and, once a game is typed, its setup flags), and file names where a file is taken.

Enabled with click's own mechanism (README, "Shell completion"): the shell runs
`matchledger` with `_MATCHLEDGER_COMPLETE` set on every Tab.  Completion runs at the
host's own terminal, and the host may see every name, so offering them is no leak.  But
it runs often and unasked, so it only ever reads: the database named by `--db` (or
`MATCHLEDGER_DB`) is opened read-only, as any read command opens it, a missing one is
never created, and any error (no database, a foreign file, a broken chain, a busy lock)
offers nothing rather than a message.

Which values a parameter takes is read from its name, the same in every command
(``match_id``, ``participant``, ``--as``, ``game``, a FILE): commands need not declare
completion themselves, and a command added later with the same names gets it too.
"""

from __future__ import annotations

from collections.abc import Callable

import click
from click.shell_completion import CompletionItem

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def _reading(ctx: click.Context, read: Callable) -> list[str]:
    """What ``read(application)`` gives on the command line's database, opened for
    reading only; [] on any error."""
    db = ctx.find_root().params.get("db")
    if not db:
        return []
    try:
        from .session import Session  # the layers load only when a completion needs them

        application = Session(db, actor="host", log_json=False).application()
    except Exception:
        return []
    try:
        return list(read(application))
    except Exception:
        return []
    finally:
        application.close()


def _offered(names: list[str], incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def match_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return _offered(_reading(ctx, lambda application: application.match_ids()), incomplete)


_COMMAND_ARGS = "matchledger.completion.command_args"


def remember_command_args(ctx: click.Context, args: list[str]) -> None:
    """Keep the words typed after the command (``ctx.meta`` is shared with the
    command's context)."""
    ctx.meta[_COMMAND_ARGS] = list(args)


def _match_of(ctx: click.Context) -> str | None:
    """The match the command names.  While an option's value is completed (`status m1
    --as <Tab>`), click's parse stops at the option that lacks it and sets no argument,
    so the words before that option are parsed again."""
    found = ctx.params.get("match_id") or ctx.params.get("match_a")
    typed = ctx.meta.get(_COMMAND_ARGS)
    if found or not typed or not typed[-1].startswith("-"):
        return found
    with ctx.command.make_context(ctx.info_name, typed[:-1], parent=ctx.parent, resilient_parsing=True) as again:
        return again.params.get("match_id") or again.params.get("match_a")


def participants(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    match_id = _match_of(ctx)
    if not match_id:
        return []
    return _offered(_reading(ctx, lambda application: application.state(match_id).participants), incomplete)


def players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    match_id = _match_of(ctx)
    if not match_id:
        return []
    return _offered(_reading(ctx, lambda application: application.state(match_id).players), incomplete)


def games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Every installed game, its title as the help a shell may show beside it (`new`
    then offers that game's own setup flags only: commands/declared_setup.py)."""
    from .declared_setup import installed

    specs, broken = installed()  # a game whose declaration cannot be read is still offered, by name
    titles = {**{spec.name: spec.title for spec in specs}, **dict.fromkeys(broken)}
    return [CompletionItem(name, help=title) for name, title in titles.items() if name.startswith(incomplete)]


def files(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(incomplete, type="file")]


def folders(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(incomplete, type="dir")]


#: Parameter name -> what it takes.
BY_NAME: dict[str, Completer] = {
    "match_id": match_ids,
    "match_a": match_ids,
    "match_b": match_ids,
    "participant": participants,
    "as_participant": participants,
    "player": players,
    "game": games,
    "db": files,
    "db_b": files,
}


def completer_of(param: click.Parameter) -> Completer | None:
    """What ``param`` is completed with: by its name, else by a metavar naming a FILE
    or a DIR (`FILE`, `FILE.svg|FILE.png`, `-o DIR`)."""
    if param.name in BY_NAME:
        return BY_NAME[param.name]
    metavar = param.metavar or ""
    if "DIR" in metavar:
        return folders
    if "FILE" in metavar:
        return files
    return None


def attach(command: click.Command) -> click.Command:
    """Give each parameter of ``command`` its completion, unless it declares its own."""
    for param in command.params:
        # the attribute click's ``shell_complete=`` argument sets where a parameter is declared
        if param._custom_shell_complete is None:
            param._custom_shell_complete = completer_of(param)
    return command
