"""`script FILE`: run a file of commands, one per line, exactly as typed after
`matchledger`; and `demo`: the embedded demo match."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from .common import ledger, settings


def run_script_lines(lines: list[str], source: str, *, atomic: bool, quiet: bool = False) -> int:
    """Run each line through the CLI group in-process; stop at the first failure."""
    from .cli import cli

    app = ledger(create=True)
    executed = 0

    def run_all():
        nonlocal executed
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                args = shlex.split(line, comments=True)
            except ValueError as exc:
                raise click.ClickException(f"{source} line {number}: cannot split {line!r}: {exc}") from None
            if args and args[0] == "matchledger":
                args = args[1:]
            if args and args[0] in ("script", "demo"):
                raise click.ClickException(f"{source} line {number}: scripts cannot run {args[0]!r}")
            try:
                if quiet:
                    from contextlib import redirect_stdout
                    import io

                    with redirect_stdout(io.StringIO()):
                        cli.main(args=args, prog_name="matchledger", standalone_mode=False, obj=settings())
                else:
                    cli.main(args=args, prog_name="matchledger", standalone_mode=False, obj=settings())
            except click.ClickException as exc:
                error = click.ClickException(f"{source} line {number} ({line}): {exc.format_message()}")
                error.exit_code = exc.exit_code
                raise error from None
            except click.exceptions.Exit as exc:
                if exc.exit_code:
                    raise click.ClickException(f"{source} line {number} ({line}): exit code {exc.exit_code}") from None
            executed += 1

    if atomic:
        try:
            with app.store.transaction():
                run_all()
        except BaseException:
            app.forget()
            raise
    else:
        run_all()
    return executed


@click.command("script")
@click.argument("file", metavar="FILE")
@click.option("--atomic", is_flag=True, help="Write nothing unless every line succeeds.")
def script_cmd(file, atomic):
    """Run FILE: one command per line as typed after `matchledger`.

    Blank lines and `#` comments are ignored; the first failing line stops the run and
    is named with its number.  Relative file names inside the script (a studio, a
    deck) are looked up from the current directory, then beside the script.

    \b
    Example file:
      new lca m1 --players ann,bob --studio studio.txt
      submit m1 ann B2 C3 D4 E5 F6
      close m1
    \b
    Run it:
      matchledger script m1.txt --atomic
    """
    from .common import read_text

    text = read_text(file, "script")
    settings().script_dir = Path(file).resolve().parent
    count = run_script_lines(text.splitlines(), file, atomic=atomic)
    click.echo(f"{file}: {count} commands ran")


@click.command("demo")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
def demo_cmd(as_json):
    """Record the embedded demo match (an 11-player Lights, Camera, Action!) into the
    database, verify it, and print its outcome.

    \b
    Example:
      matchledger --db demo.db demo
    """
    from importlib import resources


    folder = resources.files("matchledger.commands") / "demo"
    script_text = (folder / "demo.txt").read_text(encoding="utf-8")
    match_id = _demo_match_id(script_text)
    app = ledger(create=True)
    if app.store.has_match(match_id):
        click.echo(f"demo match {match_id!r} is already in {app.store.path}; showing it again", err=True)
    else:
        with resources.as_file(folder) as path:
            settings().script_dir = Path(path)
            run_script_lines(script_text.splitlines(), "demo", atomic=True, quiet=True)
        click.echo(f"recorded demo match {match_id!r} into {app.store.path}", err=True)
    from .cli import cli

    args = ["outcome", match_id] + (["--json"] if as_json else [])
    cli.main(args=args, prog_name="matchledger", standalone_mode=False, obj=settings())
    if not as_json:
        cli.main(args=["verify", match_id], prog_name="matchledger", standalone_mode=False, obj=settings())


def _demo_match_id(text: str) -> str:
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "new":
            return words[2]
    raise click.ClickException("the embedded demo script has no `new` line")


COMMANDS = [script_cmd, demo_cmd]
