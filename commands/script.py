"""`script FILE`: run a file of commands, one per line, exactly as typed after
`matchledger`; and `demo`: the embedded demo match."""

from __future__ import annotations

import contextlib
import io
import shlex
from importlib import resources
from pathlib import Path

import click

from matchledger.ledger.limits import SCRIPT_FILE_MAX_BYTES
from matchledger.projections.presentation.wording import plural

from .files import read_text
from .session import app, session


def _root() -> click.Command:
    """The `matchledger` group itself, which runs each line as if it were typed."""
    return click.get_current_context().find_root().command


def _global_options(root: click.Command) -> set[str]:
    """The options of `matchledger` itself (--db, --actor, ...): a script runs on the
    database and as the actor it was started with, so a line cannot name others."""
    return {name for param in root.params for name in (*param.opts, *param.secondary_opts)}


def _refuse_global_options(args: list[str], names: set[str], where: str, unwritten: str) -> None:
    for arg in args:
        name = arg.partition("=")[0]
        if name in names:
            error = click.ClickException(
                f"{where}: {name} is an option of `matchledger` itself and cannot be given on a script line; "
                f"give it before `script` (matchledger {name} ... script FILE){unwritten}"
            )
            error.exit_code = click.UsageError.exit_code
            raise error


def run_script_lines(lines: list[str], source: str, *, atomic: bool, quiet: bool = False) -> int:
    """Run each line through the CLI group in-process; stop at the first failure.  With
    ``atomic``, what the lines print is held back until every line has been written
    together (so nothing reports a write that is then rolled back)."""
    root = _root()
    global_options = _global_options(root)
    application = app(create=True)
    executed = 0
    held_out, held_err = io.StringIO(), io.StringIO()
    unwritten = "; nothing was written (--atomic)" if atomic else ""

    def run_all():
        nonlocal executed
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                args = shlex.split(line, comments=True)
            except ValueError as exc:
                raise click.ClickException(f"{source} line {number}: cannot split {line!r}: {exc}{unwritten}") from None
            if args and args[0] == "matchledger":
                args = args[1:]
            if args and args[0] in ("script", "demo"):
                raise click.ClickException(f"{source} line {number}: scripts cannot run {args[0]!r}{unwritten}")
            _refuse_global_options(args, global_options, f"{source} line {number} ({line})", unwritten)
            try:
                with _held(held_out, held_err) if atomic or quiet else contextlib.nullcontext():
                    root.main(args=args, prog_name="matchledger", standalone_mode=False, obj=session())
            except click.ClickException as exc:
                error = click.ClickException(f"{source} line {number} ({line}): {exc.format_message()}{unwritten}")
                error.exit_code = exc.exit_code
                raise error from None
            except click.exceptions.Exit as exc:
                if exc.exit_code:
                    raise click.ClickException(
                        f"{source} line {number} ({line}): exit code {exc.exit_code}{unwritten}"
                    ) from None
            executed += 1

    with application.atomic() if atomic else contextlib.nullcontext():
        run_all()
    if not quiet:  # the lines are written: now say what they recorded
        click.echo(held_out.getvalue(), nl=False)
        click.echo(held_err.getvalue(), nl=False, err=True)
    return executed


@contextlib.contextmanager
def _held(out: io.StringIO, err: io.StringIO):
    """What a line prints, kept in ``out`` and ``err`` instead."""
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield


@click.command("script")
@click.argument("file", metavar="FILE")
@click.option("--atomic", is_flag=True, help="Write nothing unless every line succeeds.")
def script_cmd(file, atomic):
    """Run FILE: one command per line as typed after `matchledger`.

    Blank lines and `#` comments are ignored; the first failing line stops the run and
    is named with its number.  Relative file names inside the script (a studio, a
    deck) are looked up from the current directory, then beside the script; a script
    reads and writes files only within its own folder and the current directory.

    \b
    Example file:
      new lca m1 --players ann,bob --studio studio.txt
      submit m1 ann B2 C3 D4 E5 F6
      close m1
    \b
    Run it:
      matchledger script m1.txt --atomic
    """
    text = read_text(file, "script", SCRIPT_FILE_MAX_BYTES)
    with session().running_script(Path(file).resolve().parent):
        count = run_script_lines(text.splitlines(), file, atomic=atomic)
    click.echo(f"{file}: {plural(count, 'command')} ran")


@click.command("demo")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
def demo_cmd(as_json):
    """Record the embedded demo match into the database, verify it, and print its outcome.

    The demo is an 11-player Lights, Camera, Action! match (fixtures/lca/card-11-players.txt).

    \b
    Example:
      matchledger --db demo.db demo
    """
    folder = resources.files("matchledger.commands") / "demo"
    script_text = (folder / "demo.txt").read_text(encoding="utf-8")
    match_id = _demo_match_id(script_text)
    application = app(create=True)
    if match_id in application.match_ids():
        click.echo(f"demo match {match_id!r} is already in {application.location}; showing it again", err=True)
    else:
        with resources.as_file(folder) as path, session().running_script(Path(path)):
            run_script_lines(script_text.splitlines(), "demo", atomic=True, quiet=True)
        click.echo(f"recorded demo match {match_id!r} into {application.location}", err=True)
    root = _root()
    args = ["outcome", match_id] + (["--json"] if as_json else [])
    root.main(args=args, prog_name="matchledger", standalone_mode=False, obj=session())
    if not as_json:
        root.main(args=["verify", match_id], prog_name="matchledger", standalone_mode=False, obj=session())


def _demo_match_id(text: str) -> str:
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "new":
            return words[2]
    raise click.ClickException("the embedded demo script has no `new` line")
