"""Realistic matches for the benchmark, played by the engines themselves.

The corpus holds, for each game in the registry (``engine.names()``), templates from two
sources:

- every recorded fixture (``fixtures/<game>/*.txt``; not the hand-scored audit fixtures
  ``disputed-*``), parsed with :mod:`shlex` the way ``matchledger script`` splits its
  lines, its set-up read by the game's declared setup parameters, turned into engine
  commands and played with :class:`projections.fold.InMemoryMatch` (the built-in games:
  3 lca, 3 pw and 4 photographer matches);
- four random legal matches per game from the game's own sampler, reached through the
  registry (``engine.get(game).sample``) with the seeds 1 to 4 and the sampler's knob
  ``scale`` 1 to 4, the four sizes the game declares for the benchmark
  (:mod:`matchledger.engine.sample`; the built-in games: lca with 3, 5, 8 and 11
  players on random studios, pw with 4 to 7 pairs, photographer with 2 to 4 players).

A database of N matches cycles through the templates game by game in the registry's
order under fresh match ids; the events of each match are appended with
:meth:`ledger.store.Store.append`, one call (one transaction) per host command, exactly
as the CLI writes them.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from matchledger import engine
from matchledger.engine.commands import AddNote, Amend, CloseRound, Correct, CreateMatch, RecordContract, Submit, Void
from matchledger.ledger.events import Event
from matchledger.projections.fold import InMemoryMatch, play

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RECORDED_AT = "2024-05-01T12:00:00.000000Z"


@dataclass
class Template:
    """One match: its game, its commands (as engine commands and as script lines) and
    the events each command produced."""

    name: str
    game: str
    create: CreateMatch
    commands: list = field(default_factory=list)
    groups: list[list[Event]] = field(default_factory=list)  # groups[0] is [MatchCreated]
    create_line: str = ""
    lines: list[str] = field(default_factory=list)  # one per command, with MATCH as a placeholder

    @property
    def events(self) -> list[Event]:
        return [event for group in self.groups for event in group]

    def script(self, match_id: str, files: dict[str, str]) -> str:
        """The match as a ``matchledger script`` file (set-up files already written:
        ``files`` as :meth:`write_setup_files` gives them)."""
        head = self.create_line.format(match=match_id, **files)
        return "\n".join([head] + [line.format(match=match_id) for line in self.lines]) + "\n"

    def setup_files(self) -> dict[str, str]:
        """{placeholder of the ``new`` line: the text of the file} of each set-up
        parameter the game reads from a file."""
        return {
            _placeholder(parameter): self.create.setup[parameter.name]
            for parameter in engine.spec(self.game).setup
            if parameter.kind == "file" and parameter.name in self.create.setup
        }

    def write_setup_files(self, folder: Path, match_id: str) -> dict[str, str]:
        """The set-up files written into ``folder``: what :meth:`script` takes."""
        written = {}
        for placeholder, text in self.setup_files().items():
            path = Path(folder) / f"{match_id}.{placeholder}.txt"
            path.write_text(text, encoding="utf-8")
            written[placeholder] = str(path)
        return written


def _placeholder(parameter) -> str:
    return f"setup_{parameter.name}"


def _play(template: Template) -> Template:
    m = InMemoryMatch(template.create)
    template.groups = [list(m.events)]
    for cmd in template.commands:
        template.groups.append(list(m.do(cmd)))
    return template


def _quote(tokens) -> str:
    return " ".join(shlex.quote(t) for t in tokens)


# --------------------------------------------------------------------------- fixtures


def _options(args: list[str], flag: str) -> list[str]:
    return [args[i + 1] for i, a in enumerate(args) if a == flag]


def _setup(game: str, args: list[str], create_args: list[str]) -> dict:
    """The set-up a fixture's ``new`` line gives, read by the game's declared setup
    parameters; each one also added to ``create_args`` (a file as its placeholder)."""
    setup: dict = {}
    for parameter in engine.spec(game).setup:
        values = _options(args, parameter.flag)
        if not values:
            continue
        if parameter.kind == "file":
            setup[parameter.name] = (ROOT / values[0]).read_text(encoding="utf-8")
            create_args += [parameter.flag, f"{{{_placeholder(parameter)}}}"]
        elif parameter.kind == "pairs":
            setup[parameter.name] = dict(value.split("=", 1) for value in values)
            for value in values:
                create_args += [parameter.flag, value]
        else:
            setup[parameter.name] = int(values[0]) if parameter.kind in ("integer", "seed") else values[0]
            create_args += [parameter.flag, values[0]]
    return setup


def parse_fixture(path: Path) -> Template:
    """A fixture script as engine commands (new, contract, submit, close, amend)."""
    template = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        args = shlex.split(line, comments=True)
        verb, rest = args[0], args[1:]
        if verb == "new":
            game, match_id = rest[0], rest[1]
            players = _options(rest, "--players")[0].split(",")
            options = dict(o.split("=", 1) for o in _options(rest, "--option"))
            create_args = ["new", game, "{match}", "--players", ",".join(players)]
            for o in _options(rest, "--option"):
                create_args += ["--option", o]
            setup = _setup(game, rest, create_args)
            create = CreateMatch(match_id=match_id, game=game, players=players, options=options, setup=setup)
            template = Template(f"{game}:{path.stem}", game, create, create_line=" ".join(create_args))
            continue
        assert template is not None, f"{path}: commands before `new`"
        assert rest[0] == template.create.match_id, f"{path}: {line!r} names another match"
        if verb == "contract":
            cmd = RecordContract(rest[1], rest[2:])
        elif verb == "submit":
            cmd = Submit(rest[1], rest[2:])
        elif verb == "close":
            cmd = CloseRound(force="--force" in rest, reason=" ".join(_options(rest, "--reason")))
        elif verb == "amend":
            cmd = Amend(
                option=_options(rest, "--option")[0].split("=", 1)[0],
                value=_options(rest, "--option")[0].split("=", 1)[1],
                from_round=int(_options(rest, "--from-round")[0]),
                reason=_options(rest, "--reason")[0],
            )
        else:
            raise ValueError(f"{path}: the benchmark does not translate {verb!r}")
        template.commands.append(cmd)
        template.lines.append(
            " ".join([verb, "{match}", _quote(rest[1:]).replace("{", "{{").replace("}", "}}")]).strip()
        )
    assert template is not None, f"{path}: no `new` line"
    return _play(template)


def _lines_for(commands) -> list[str]:
    lines = []
    for cmd in commands:
        if isinstance(cmd, Submit):
            lines.append(f"submit {{match}} {cmd.participant} {_quote(cmd.tokens)}")
        elif isinstance(cmd, RecordContract):
            lines.append(f"contract {{match}} {cmd.participant} {_quote(cmd.names)}")
        elif isinstance(cmd, CloseRound):
            lines.append("close {match}" + (f" --force --reason {shlex.quote(cmd.reason)}" if cmd.force else ""))
        elif isinstance(cmd, Amend):
            lines.append(
                f"amend {{match}} --option {cmd.option}={cmd.value} --from-round {cmd.from_round} "
                f"--reason {shlex.quote(cmd.reason)}"
            )
        elif isinstance(cmd, (Void, Correct)):
            verb, tokens = ("void", []) if isinstance(cmd, Void) else ("correct", cmd.tokens)
            reopen = " --reopen" if cmd.reopen else ""
            lines.append(
                f"{verb} {{match}} {_quote([str(cmd.seq), *tokens])} --reason {shlex.quote(cmd.reason)}{reopen}"
            )
        elif isinstance(cmd, AddNote):
            lines.append(f"note {{match}} {shlex.quote(cmd.text)}")
        else:
            raise ValueError(f"no script line for {cmd!r}")
    return lines


def _create_line(create: CreateMatch) -> str:
    """The ``new`` line of a script for ``create`` (a set-up file as its placeholder)."""
    args = ["new", create.game, "{match}", "--players", ",".join(create.players)]
    for key, value in create.options.items():
        args += ["--option", f"{key}={value}"]
    for parameter in engine.spec(create.game).setup:
        if parameter.name not in create.setup:
            continue
        value = create.setup[parameter.name]
        if parameter.kind == "file":
            args += [parameter.flag, f"{{{_placeholder(parameter)}}}"]
        elif parameter.kind == "pairs":
            for key, paired in value.items():
                args += [parameter.flag, f"{key}={paired}"]
        else:
            args += [parameter.flag, shlex.quote(str(value))]
    return " ".join(args)


# --------------------------------------------------------------------------- generated

#: The corpus's generated matches of each game: (seed, the sampler's ``scale``).
GENERATED = [(seed, seed) for seed in (1, 2, 3, 4)]


def sample_at(game: str, seed: int, match_id: str, scale):
    """The random legal match the game's sampler draws from ``seed`` at ``scale``; None
    where the sampler takes no ``scale`` (a game that declares no sizes)."""
    try:
        return engine.get(game).sample(random.Random(seed), match_id, scale=scale)
    except TypeError as exc:
        if "scale" not in str(exc):
            raise
        return None


def generated(game: str, seed: int, scale) -> Template:
    """The random legal match the game's sampler draws from ``seed`` at ``scale`` (with
    its default knobs where it takes no ``scale``)."""
    sample = sample_at(game, seed, "g", scale) or engine.get(game).sample(random.Random(seed), "g")
    commands = play(sample).commands
    template = Template(
        f"{game}:gen{seed}x{len(sample.create.players)}",
        game,
        sample.create,
        commands,
        create_line=_create_line(sample.create),
        lines=_lines_for(commands),
    )
    return _play(template)


def fixture_paths(game: str) -> list[Path]:
    """The game's recorded fixtures that are played matches (not set-up files, not the
    hand-scored audit fixtures)."""
    paths = []
    for path in sorted((FIXTURES / game).glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if not any(line.startswith("new ") for line in text.splitlines()):
            continue  # a set-up file (a studio or a deck), not a script
        if path.stem.startswith("disputed-"):
            continue  # hand-scored on purpose wrong: an audit fixture, not a played match
        paths.append(path)
    return paths


def templates() -> dict[str, list[Template]]:
    """Every template, by game, for every game in the registry that has fixtures or a
    sampler."""
    by_game: dict[str, list[Template]] = {}
    for game in engine.names():
        found = [parse_fixture(path) for path in fixture_paths(game)]
        if hasattr(engine.get(game), "sample"):
            found += [generated(game, seed, scale) for seed, scale in GENERATED]
        if found:
            by_game[game] = found
    return by_game


def long_match() -> Template:
    """The match the latency and service benchmarks repeat: the recorded fixture with
    the most players among the games whose rounds the host closes (the built-in games:
    lca's eleven-player card)."""
    fixtures = [
        template
        for game, found in templates().items()
        if engine.spec(game).kind == "rounds"
        for template in found
        if ":gen" not in template.name
    ]
    return max(fixtures, key=lambda template: len(template.create.players))


def mix(by_game: dict[str, list[Template]], n: int) -> list[Template]:
    """``n`` templates: the games in turn, each game cycling through its templates."""
    games = list(by_game)
    return [by_game[games[i % len(games)]][(i // len(games)) % len(by_game[games[i % len(games)]])] for i in range(n)]


def match_id(index: int, template: Template) -> str:
    return f"{template.game}-{index:05d}"


def play_as(template: Template, mid: str) -> list[list[Event]]:
    """The template's events per command, played again under match id ``mid`` (the
    outcome names its match, so every match is played by the engine under its own id)."""
    return play_with_state(template, mid)[0]


def play_with_state(template: Template, mid: str):
    """``play_as`` and the state the match ends in."""
    m = InMemoryMatch(_renamed(template.create, mid))
    groups = [list(m.events)]
    for cmd in template.commands:
        groups.append(list(m.do(cmd)))
    return groups, m.state


def _renamed(create: CreateMatch, mid: str) -> CreateMatch:
    return CreateMatch(
        match_id=mid, game=create.game, players=create.players, options=create.options, setup=create.setup
    )


def append_matches(store, matches) -> None:
    """Append each match's commands' event groups, one ``append`` per command, in order."""
    for mid, groups in matches:
        seq = 1
        for group in groups:
            store.append(mid, seq, group, actor="bench", recorded_at=RECORDED_AT)
            seq += len(group)


def build_db(path: str, chosen: list[Template], snapshots: bool = True) -> int:
    """A fresh database holding ``chosen`` (one Store.append per command); the event count.

    With ``snapshots`` each finished match also gets the checkpoint the CLI records when
    a match finishes (``Application.execute``): its snapshot, and the event that vouches
    for it."""
    from matchledger.ledger.stores import open_store
    from matchledger.projections.application import Application

    store = open_store(str(path))
    app = Application(store, actor="bench", clock=lambda: RECORDED_AT)
    count = 0
    try:
        with store.transaction():
            for index, template in enumerate(chosen):
                mid = match_id(index, template)
                seq = 1
                groups, state = play_with_state(template, mid)
                for group in groups:
                    store.append(mid, seq, group, actor="bench", recorded_at=RECORDED_AT)
                    seq += len(group)
                if snapshots and state.finished:
                    app.checkpoint(mid)
                    app.forget(mid)  # a database of many matches: keep none of them in memory
                    seq += 1
                count += seq - 1
    finally:
        store.close()
    return count
