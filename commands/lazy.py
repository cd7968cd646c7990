"""A click group whose subcommands are imported only when one runs.

The group holds a table of its commands (name -> module, attribute and the one line
that `--help` lists), so listing them imports nothing and running one imports only its
own module: a host types many commands in a row, and start-up is most of each.

`--help` lists the commands in sections (who needs them), each in the order its table
gives; a command no section names is listed under "Other commands", so a command added
to the table is never left out of the help.
"""

from __future__ import annotations

import difflib
import importlib

import click

OTHER_SECTION = "Other commands"


class LazyGroup(click.Group):
    def __init__(
        self,
        *args,
        lazy_commands: dict[str, tuple[str, str, str]],
        sections: dict[str, tuple[str, ...]] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        #: name -> (module, attribute, summary); the module is relative to this package
        self.lazy_commands = lazy_commands
        #: section title -> the names it lists, in that order (names not in the table are skipped)
        self.sections = sections or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands or name not in self.lazy_commands:
            return super().get_command(ctx, name)
        module, attribute, _summary = self.lazy_commands[name]
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        self.add_command(command, name)
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """As click's, but a mistyped name is matched against every command of the table
        ("Did you mean 'status'?"), not only against those imported so far."""
        name = args[0]
        if name in self.lazy_commands or name in self.commands or name.startswith("-") or ctx.resilient_parsing:
            return super().resolve_command(ctx, args)
        close = difflib.get_close_matches(name, self.list_commands(ctx))
        hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
        raise click.UsageError(f"No such command {name!r}.{hint}", ctx)

    def shell_complete(self, ctx: click.Context, incomplete: str):
        """The commands of the table (from the table: none is imported) and the group's
        options, that start with ``incomplete``."""
        from click.shell_completion import CompletionItem

        names = [name for name in self.list_commands(ctx) if name in self.lazy_commands and name.startswith(incomplete)]
        return [
            CompletionItem(name, help=self.lazy_commands[name][2]) for name in names
        ] + click.Command.shell_complete(self, ctx, incomplete)

    def sectioned(self, ctx: click.Context) -> list[tuple[str, list[str]]]:
        """(title, names) for each section that lists a command of the table, then the
        commands no section names."""
        table = [name for name in self.list_commands(ctx) if name in self.lazy_commands]
        placed = {name for names in self.sections.values() for name in names}
        result = [(title, [name for name in names if name in table]) for title, names in self.sections.items()]
        result.append((OTHER_SECTION, [name for name in table if name not in placed]))
        return [(title, names) for title, names in result if names]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for title, names in self.sectioned(ctx):
            with formatter.section(title):
                formatter.write_dl([(name, self.lazy_commands[name][2]) for name in names])
