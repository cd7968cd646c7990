"""A click group whose subcommands are imported only when one runs.

The group holds a table of its commands (name -> module, attribute and the one line
that `--help` lists), so listing them imports nothing and running one imports only its
own module: a host types many commands in a row, and start-up is most of each.
"""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    def __init__(self, *args, lazy_commands: dict[str, tuple[str, str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        #: name -> (module, attribute, summary); the module is relative to this package
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands or name not in self.lazy_commands:
            return super().get_command(ctx, name)
        module, attribute, _summary = self.lazy_commands[name]
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        self.add_command(command, name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.lazy_commands[name][2]) for name in self.list_commands(ctx) if name in self.lazy_commands]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
