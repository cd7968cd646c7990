"""Realistic matches for the benchmark, played by the engines themselves.

The corpus holds, for each game, templates from two sources:

- every recorded fixture (``fixtures/<game>/*.txt``; not the hand-scored audit fixtures
  ``disputed-*``), parsed with :mod:`shlex` the way ``matchledger script`` splits its
  lines, turned into engine commands and played with
  :class:`projections.fold.InMemoryMatch`: 3 lca, 3 pw and 4 photographer matches;
- four random legal matches per game from the game's own sampler, reached through the
  registry (``engine.get(game).sample``) with fixed seeds and sizes like the fixtures':
  lca with 3, 5, 8 and 11 players on random studios (contracts, amendments, voids,
  corrections, reopened rounds and notes as the sampler draws them), pw with 4 to 7
  pairs, photographer with 2 to 4 players.

A database of N matches cycles through the templates game by game (lca, pw,
photographer, lca, ...) under fresh match ids; the events of each match are appended with
:meth:`ledger.store.Store.append`, one call (one transaction) per host command, exactly
as the CLI writes them.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from matchledger.engine.commands import AddNote, Amend, CloseRound, Correct, CreateMatch, RecordContract, Submit, Void
from matchledger.ledger.events import Event
from matchledger.projections.fold import InMemoryMatch, play

from matchledger import engine

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
        """The match as a ``matchledger script`` file (set-up files already written)."""
        head = self.create_line.format(match=match_id, **files)
        return "\n".join([head] + [line.format(match=match_id) for line in self.lines]) + "\n"


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
            setup: dict = {}
            create_args = ["new", game, "{match}", "--players", ",".join(players)]
            for o in _options(rest, "--option"):
                create_args += ["--option", o]
            if _options(rest, "--studio"):
                setup["studio"] = (ROOT / _options(rest, "--studio")[0]).read_text(encoding="utf-8")
                create_args += ["--studio", "{setup_file}"]
            if _options(rest, "--deck"):
                setup["deck"] = (ROOT / _options(rest, "--deck")[0]).read_text(encoding="utf-8")
                create_args += ["--deck", "{setup_file}"]
            if _options(rest, "--seed"):
                setup["seed"] = int(_options(rest, "--seed")[0])
                create_args += ["--seed", _options(rest, "--seed")[0]]
            if _options(rest, "--pair"):
                setup["pairs"] = dict(p.split("=", 1) for p in _options(rest, "--pair"))
                for p in _options(rest, "--pair"):
                    create_args += ["--pair", p]
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
        template.lines.append(" ".join([verb, "{match}", _quote(rest[1:]).replace("{", "{{").replace("}", "}}")]).strip())
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
            lines.append(f"amend {{match}} --option {cmd.option}={cmd.value} --from-round {cmd.from_round} "
                         f"--reason {shlex.quote(cmd.reason)}")
        elif isinstance(cmd, (Void, Correct)):
            verb, tokens = ("void", []) if isinstance(cmd, Void) else ("correct", cmd.tokens)
            reopen = " --reopen" if cmd.reopen else ""
            lines.append(f"{verb} {{match}} {_quote([str(cmd.seq), *tokens])} --reason {shlex.quote(cmd.reason)}{reopen}")
        elif isinstance(cmd, AddNote):
            lines.append(f"note {{match}} {shlex.quote(cmd.text)}")
        else:
            raise ValueError(f"no script line for {cmd!r}")
    return lines


def _create_line(create: CreateMatch) -> str:
    """The ``new`` line of a script for ``create`` (a studio or deck in ``{setup_file}``)."""
    args = ["new", create.game, "{match}", "--players", ",".join(create.players)]
    for key, value in create.options.items():
        args += ["--option", f"{key}={value}"]
    for flag in ("studio", "deck"):
        if flag in create.setup:
            args += [f"--{flag}", "{setup_file}"]
    if "seed" in create.setup:
        args += ["--seed", str(create.setup["seed"])]
    for player, guest in create.setup.get("pairs", {}).items():
        args += ["--pair", f"{player}={guest}"]
    return " ".join(args)


# --------------------------------------------------------------------------- generated

#: game -> (seed, the sampler's knobs) of each generated match
GENERATED = {
    # seeds 27 and 6 draw a void, a correction and a reopened round among other extras
    "lca": [(1, {"n_players": 3}), (27, {"n_players": 5}), (3, {"n_players": 8}), (6, {"n_players": 11})],
    "pw": [(1, {"n": 4}), (2, {"n": 5}), (3, {"n": 6}), (4, {"n": 7})],
    # each deck shuffled from the seed of its moves, under the default rules
    "photographer": [(seed, {"n_players": n, "seed": seed, "options": {}}) for seed, n in ((1, 2), (2, 3), (3, 4), (4, 2))],
}


def generated(game: str, seed: int, knobs: dict) -> Template:
    """The random legal match the game's sampler draws from ``seed`` with ``knobs``."""
    sample = engine.get(game).sample(random.Random(seed), "g", **knobs)
    commands = play(sample).commands
    size = knobs.get("n_players", knobs.get("n"))
    template = Template(f"{game}:gen{seed}x{size}", game, sample.create, commands,
                        create_line=_create_line(sample.create), lines=_lines_for(commands))
    return _play(template)


def templates() -> dict[str, list[Template]]:
    """Every template, by game."""
    by_game: dict[str, list[Template]] = {"lca": [], "pw": [], "photographer": []}
    for game in by_game:
        for path in sorted((FIXTURES / game).glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            if not any(line.startswith("new ") for line in text.splitlines()):
                continue  # a set-up file (a studio or a deck), not a script
            if path.stem.startswith("disputed-"):
                continue  # hand-scored on purpose wrong: an audit fixture, not a played match
            by_game[game].append(parse_fixture(path))
    for game, drawn in GENERATED.items():
        by_game[game] += [generated(game, seed, knobs) for seed, knobs in drawn]
    return by_game


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
    return CreateMatch(match_id=mid, game=create.game, players=create.players, options=create.options, setup=create.setup)


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
