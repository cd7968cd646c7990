"""`new`'s setup parameters, made from the games' declarations (engine/declaration.py).

Each installed game declares the parameters a match of it is created with (a studio
file, secret pairs, a seed, ...); `new` takes each declared flag once, whichever games
declare it, and reads a value by the kind its game declares (:func:`read_setup`).  No
game and no parameter is named here: a game installed later gets its flags, its help
and its examples the same way.

The flags are made on first use, not when the command's module is imported: the module
of `new` is also the module of `submit` and `close`, which need no declaration but their
own game's.  Reading the declarations imports only each game's small spec module, never
its rules.
"""

from __future__ import annotations

import re

import click

#: A flag a command line can spell and click can name a value after: two dashes, then
#: ASCII letters, digits, '-' and '_' (a game declaring another is refused alone).
_FLAG = re.compile(r"--[A-Za-z0-9][A-Za-z0-9_-]*\Z")
#: Seeds below this can be tried one by one on a laptop in hours.
GUESSABLE_SEEDS = 2**40
#: Where `parse_args` leaves the game typed on the command line, for `--help` to show.
_TYPED_GAME = "matchledger.new.game"
#: The players the examples name, as many as a game needs at least (the built-in games'
#: examples pair the first two: ann=zed).
EXAMPLE_PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")


def installed() -> tuple[list, dict[str, str]]:
    """The declarations of the installed games, and {name: why not} of those whose
    declaration cannot be read (a distribution half removed, a module that fails): one
    broken game does not take `new` away from the others."""
    from matchledger import engine  # the layers load only when `new` needs them

    specs, broken = [], {}
    for name in engine.names():
        try:
            specs.append(engine.spec(name))
        except Exception as exc:  # whatever a foreign package raises on import
            broken[name] = f"{type(exc).__name__}: {exc}"
    return specs, broken


def _specs() -> list:
    return installed()[0]


def _dest(flag: str) -> str:
    """The name a declared flag's value is passed under: never one of `new`'s own."""
    return "setup_" + flag.lstrip("-").replace("-", "_")


def _complete_file(ctx: click.Context, param: click.Parameter, incomplete: str):
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type="file")]


def declared_options(specs: list, taken: set[str]) -> list[click.Option]:
    """One option per flag some game declares (``taken``: the flags `new` has itself,
    which no game can have).  Values are kept as typed: they are read by the kind the
    game of the match declares, once the game is known (:func:`read_setup`)."""
    by_flag: dict[str, list] = {}
    for spec in specs:
        for parameter in spec.setup:
            if _FLAG.match(parameter.flag) and parameter.flag not in taken:
                by_flag.setdefault(parameter.flag, []).append((spec, parameter))
    options = []
    for flag, declared in by_flag.items():
        first = declared[0][1]
        options.append(
            click.Option(
                [flag, _dest(flag)],
                multiple=any(parameter.kind == "pairs" for _spec, parameter in declared),
                metavar=first.metavar,
                help="; ".join(f"{spec.name}: {parameter.help}" for spec, parameter in declared),
                shell_complete=_complete_file if first.kind == "file" else None,
            )
        )
    return options


class DeclaredSetupCommand(click.Command):
    """`new`: its own options, then every flag an installed game declares.  Its help
    lists every game and each game's parameters, or with GAME typed (`new lca --help`)
    that game's only; completion offers a typed game's flags only."""

    def __init__(self, *args, **kwargs):
        self._all_params: list[click.Parameter] = []
        self._declared: list[click.Option] = []
        self._made_from: tuple | None = None  # the specs the declared options were made from
        super().__init__(*args, **kwargs)

    # ----------------------------------------------------------------- the parameters

    @property
    def params(self) -> list[click.Parameter]:
        specs = _specs()
        made_from = tuple(map(id, specs))  # made again only if a game is registered meanwhile (a test's)
        if made_from != self._made_from:
            taken = {opt for param in self._own for opt in param.opts}
            self._declared = declared_options(specs, taken | {"--help", "-h"})
            self._all_params = [*self._own, *self._declared]
            self._made_from = made_from
        return self._all_params

    @params.setter
    def params(self, value: list[click.Parameter]) -> None:
        self._own = list(value)
        self._made_from = None

    def declared_options(self) -> dict[str, click.Option]:
        """{flag: its option} of every flag a game declares."""
        self.params  # noqa: B018 -- made on first use
        return {option.opts[0]: option for option in self._declared}

    # ----------------------------------------------------------------- the game typed

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_TYPED_GAME] = self._typed_game(ctx, args)
        return super().parse_args(ctx, args)

    def _typed_game(self, ctx: click.Context, args: list[str]) -> str | None:
        """GAME as typed, wherever the options stand (`new --players a,b lca m1 --help`);
        None when it is not there yet or the line does not parse."""
        try:
            opts, _rest, _order = self.make_parser(ctx).parse_args(args=list(args))
        except click.ClickException:
            return None
        game = opts.get("game")
        return game if isinstance(game, str) else None

    def _typed_spec(self, ctx: click.Context):
        name = ctx.meta.get(_TYPED_GAME) or ctx.params.get("game")
        return next((spec for spec in _specs() if spec.name == name), None)

    # ----------------------------------------------------------------- help

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        declared = set(map(id, self._declared))
        own = [
            param.get_help_record(ctx)
            for param in self.get_params(ctx)
            if isinstance(param, click.Option) and id(param) not in declared
        ]
        with formatter.section("Options"):
            formatter.write_dl([record for record in own if record is not None])
        typed = self._typed_spec(ctx)
        specs = [typed] if typed is not None else _specs()
        if typed is None:
            broken = installed()[1]
            asked = ctx.meta.get(_TYPED_GAME)
            if asked and asked not in broken:  # a typo: say so, rather than help as if none was typed
                with formatter.section("Unknown game"):
                    formatter.write_text(f"no game {asked!r} is installed here; the installed games are listed below")
            with formatter.section("Games (`matchledger new GAME --help` lists one game's setup)"):
                formatter.write_dl(
                    [(spec.name, _described(spec)) for spec in specs]
                    + [(name, f"(its declaration cannot be read: {why})") for name, why in broken.items()]
                )
        for spec in specs:
            if not spec.setup and typed is None:
                continue
            with formatter.section(f"Setup of {spec.name}" + (f" ({spec.title})" if spec.title != spec.name else "")):
                if typed is not None and spec.summary:
                    formatter.write_text(spec.summary)
                    formatter.write_paragraph()
                if spec.setup:
                    formatter.write_dl([_parameter_row(parameter) for parameter in spec.setup])
                else:
                    formatter.write_text(f"{spec.name} takes no setup parameters: only --players and --option.")
        if typed is not None:
            _write_ruleset_options(formatter, typed)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        typed = self._typed_spec(ctx)
        lines = example_lines([typed] if typed is not None else _specs())
        with formatter.section("Examples"):
            for line in lines:  # unwrapped, to be copied as they stand
                formatter.write(f"{'':>{formatter.current_indent}}{line}\n")
        super().format_epilog(ctx, formatter)

    # ----------------------------------------------------------------- completion

    def shell_complete(self, ctx: click.Context, incomplete: str):
        """As click's, but once GAME is typed only that game's flags are offered."""
        items = super().shell_complete(ctx, incomplete)
        typed = self._typed_spec(ctx)
        if typed is None:
            return items
        others = set(self.declared_options()) - {parameter.flag for parameter in typed.setup}
        return [item for item in items if item.value not in others]


def _write_ruleset_options(formatter: click.HelpFormatter, spec) -> None:
    """The ruleset options of one game (``--option KEY=VALUE``), from its rules: asked
    for one game, `new GAME --help` loads that game's rules, and no other's."""
    failed: str | None
    try:
        options = spec.game().OPTIONS
    except Exception as exc:  # whatever a foreign package raises on import
        options, failed = {}, f"{type(exc).__name__}: {exc}"
    else:
        failed = None
    with formatter.section(f"Ruleset options of {spec.name} (--option KEY=VALUE; shown at their defaults)"):
        if failed is not None:
            formatter.write_text(f"(its rules cannot be read: {failed})")
        elif not options:
            formatter.write_text(f"{spec.name} has no ruleset options.")
        else:
            formatter.write_dl(
                [(f"{name}={option.text(option.default)}", option.help or "") for name, option in options.items()]
            )


def _described(spec) -> str:
    """A game's line in `new --help`: its title, what it is, and its flags."""
    said = f"{spec.title}: {spec.summary}" if spec.summary else spec.title
    flags = " ".join(parameter.flag for parameter in spec.setup)
    return f"{said} [{flags or 'no setup'}]"


def _parameter_row(parameter) -> tuple[str, str]:
    return f"{parameter.flag} {parameter.metavar}", f"{parameter.help}; for example {parameter.example}"


def example_lines(specs: list) -> list[str]:
    """`new`'s examples, from the declarations: for each game, a match created with each
    of its parameters (or with none, when it declares none); then the common options."""
    lines: list[str] = []
    for spec in specs:
        for example in [parameter.example for parameter in spec.setup] or [""]:
            words = ["matchledger new", spec.name, f"m{len(lines) + 1}", "--players", _example_players(spec), example]
            lines.append(" ".join(word for word in words if word))
    if lines:
        lines.append(f"{lines[0]} --option KEY=VALUE   # a ruleset option; repeat for more")
        lines.append(f"{lines[0]} --json   # prints the recorded seq and hash")
    return lines


# --------------------------------------------------------------------------- reading the values


def read_setup(command: DeclaredSetupCommand, game: str, given: dict) -> tuple[dict, list[str]]:
    """The ``setup`` of a new match of ``game`` from the declared options' values as
    typed (``given``: name -> value), read by the kinds ``game`` declares; and the
    warnings to print once the match is created.  A flag ``game`` does not declare is a
    usage error naming the flag and the game."""
    from matchledger import engine

    spec = engine.spec(game)  # an unknown game, or one that cannot be read: the engine's error
    options = command.declared_options()
    own = {parameter.flag for parameter in spec.setup}
    for flag, declared in options.items():
        if flag not in own and given.get(declared.name) not in (None, ()):
            raise _not_declared(flag, spec)
    setup: dict = {}
    warnings: list[str] = []
    ctx = click.get_current_context()
    for parameter in spec.setup:
        option = options.get(parameter.flag)
        if option is None:
            raise _unusable(parameter, spec)
        raw = given.get(option.name)
        if raw in (None, ()):
            continue
        setup[parameter.name] = _read(parameter, raw, option, ctx)
        if parameter.kind == "seed" and 0 <= setup[parameter.name] < GUESSABLE_SEEDS:
            warnings.append(_guessable_seed_warning(parameter, setup[parameter.name]))
    return setup, warnings


def _read(parameter, raw, option: click.Option, ctx: click.Context):
    from .files import read_text
    from .options import key_values

    if parameter.kind == "pairs":
        return key_values(tuple(raw), parameter.flag)
    value = raw[-1] if isinstance(raw, tuple) else raw  # given twice: the last, as for any option
    if parameter.kind == "file":
        return read_text(value, f"{parameter.name} file", parameter.max_bytes)
    if parameter.kind in ("integer", "seed"):
        number = click.INT.convert(value, option, ctx)  # "Invalid value for '--seed': 'x' is not a valid integer."
        low, high = parameter.minimum, parameter.maximum
        if (low is not None and number < low) or (high is not None and number > high):
            if low is not None and high is not None:
                bounds = f"from {low} to {high}"
            else:
                bounds = f"at least {low}" if high is None else f"at most {high}"
            raise click.BadParameter(f"{value!r} is not a whole number {bounds}", ctx, option)
        return number
    return _text(parameter, value)


def _text(parameter, value: str) -> str:
    """One line of printable text of at most the declared bytes."""
    from matchledger.ledger.errors import MalformedInput
    from matchledger.ledger.validation import quoted

    if len(value.encode("utf-8")) > parameter.max_bytes:
        raise MalformedInput(f"{parameter.flag} {quoted(value)}: at most {parameter.max_bytes} bytes")
    if not value.isprintable():
        raise MalformedInput(
            f"{parameter.flag} {quoted(value)}: one line of printable text, with no control characters"
        )
    return value


def _not_declared(flag: str, spec) -> click.UsageError:
    from .options import usage_error

    takes = ", ".join(f"{parameter.flag} {parameter.metavar}" for parameter in spec.setup)
    offered = f"it takes {takes}" if takes else "it takes no setup parameters"
    return usage_error(
        f"{flag} is not a setup parameter of game {spec.name!r} ({offered}; see `matchledger new {spec.name} --help`)"
    )


def _unusable(parameter, spec) -> click.UsageError:
    from .options import usage_error

    return usage_error(
        f"game {spec.name!r} declares the setup parameter {parameter.name!r} as {parameter.flag!r}, "
        "which `new` cannot take (a flag is -- then letters, digits, '-' and '_', and is not one of new's "
        "own options)"
    )


def _example_players(spec) -> str:
    count = max(2, min(spec.min_players, len(EXAMPLE_PLAYERS)))
    return ",".join(EXAMPLE_PLAYERS[:count])


def _guessable_seed_warning(parameter, value: int) -> str:
    return (
        f"warning: {parameter.name} {value} can be found by trying every smaller {parameter.name}, and {parameter.reveals}; "
        f"leave {parameter.flag} out to have a secret one drawn"
    )
