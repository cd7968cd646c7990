"""The core names no game (issue 25, item 1): a game is one plugin, so nothing outside the
games' own folders may know one by name or restate its notation.

What counts as naming a game, read with :mod:`ast` from the code of ``ledger/``,
``projections/`` (but not ``projections/presentation/games/``, the built-in games' own
presentation), ``commands/``, ``src/matchledger/`` and ``bench/``:

- **a game's name** (every name in ``engine.names()``: the installed games and a test's
  registered toy) or **a setup word** (the name and the flag of every setup parameter an
  installed game's spec declares: ``studio``, ``--studio``, ``--pair``, ``deck``, ...) as
  a word of a string constant (``"lca"``, ``"--studio FILE"``, ``"lca:card"``) or as a
  part of an identifier (``lca_sample``, ``STUDIO_MAX_SIDE``, the module path of an
  import).  The words that are the core's own vocabulary for reading any game's setup,
  the parameter kinds of ``engine.declaration.PARAMETER_KINDS`` (``seed``, ``pairs``,
  ``file``, ...) and their default flags, are no game's: a random ``seed`` is not
  photographer's.
- **a game's token word** (a word of the submissions the game's own sampler makes,
  participants' names aside: ``gift``, ``predict``, ``supremacy``, ``wind``) as a whole
  string constant: a door that spells one (``if kind != "predict"``) is restating a rule.
  Only a whole constant counts: these are everyday words (``left``, ``take``), and an
  identifier or a sentence holding one is no rule.

Not counted: docstrings, comments (``ast`` drops them), and help texts -- the string
given as a ``help=``, ``short_help=``, ``epilog=`` or ``example=`` argument (a command's
help may show a game as its example; the game's own help comes from its spec).
"""

from __future__ import annotations

import ast
import functools
import random
import re
from dataclasses import dataclass
from pathlib import Path

from matchledger import engine
from matchledger.engine.commands import RecordContract, Submit
from matchledger.engine.declaration import PARAMETER_KINDS
from matchledger.projections.fold import play
from tests.helpers import REPO, installed_games

#: Where the core's code is, and what inside it belongs to the built-in games.
CORE = ["ledger", "projections", "commands", "src/matchledger", "bench"]
GAMES_OWN = ["projections/presentation/games"]
#: Keyword arguments whose text is help, shown to people, not read by code.
HELP_ARGUMENTS = {"help", "short_help", "epilog", "example"}
#: Identifiers that hold a game's name by chance: (file, identifier) -> why it is no game's.
BY_CHANCE = {
    ("src/matchledger/testing/postgres_server.py", "pw_uid"): "a field of the password database (pwd)",
    ("src/matchledger/testing/postgres_server.py", "pw_gid"): "a field of the password database (pwd)",
}
#: What still names a game (none: every part of the core reads the games' declarations).
REMAINING: dict[str, str] = {}


def _remaining(relative: str) -> bool:
    return any(relative == name or name.endswith("/") and relative.startswith(name) for name in REMAINING)


@dataclass(frozen=True)
class Words:
    """What names a game: whole words of strings and identifiers, and whole string constants."""

    names: frozenset[str]  # game names and setup words, matched as words
    tokens: frozenset[str]  # token words, matched as a whole string constant

    @classmethod
    @functools.cache
    def of_the_registry(cls) -> Words:
        vocabulary = set(PARAMETER_KINDS) | {f"--{kind}" for kind in PARAMETER_KINDS}
        names = set(engine.names())
        for game in installed_games():
            for parameter in engine.spec(game).setup:
                names |= {parameter.name, parameter.flag} - vocabulary
        tokens = set()
        for game in engine.names():
            tokens |= token_words(game)
        return cls(frozenset(names), frozenset(tokens - names))


def token_words(game: str, seeds=range(1, 9)) -> set[str]:
    """The words of the tokens the game's sampler submits and contracts it records, but
    the participants' names."""
    rules = engine.get(game)
    if not hasattr(rules, "sample"):
        return set()
    words: set[str] = set()
    for seed in seeds:
        match = play(rules.sample(random.Random(seed), "m1"))
        people = {name.lower() for name in match.state.participants}
        for command in match.commands:
            tokens = (
                command.tokens
                if isinstance(command, Submit)
                else command.names
                if isinstance(command, RecordContract)
                else []
            )
            for token in tokens:
                words |= {word.lower() for word in re.findall(r"[A-Za-z]{3,}", token)} - people
    return words


def _runs(parts: list[str]) -> set[str]:
    """Every run of consecutive parts joined by ``-``: a hyphenated game name
    (``lowest-unique``) is a word of ``lowest_unique_rounds`` and of ``"a lowest-unique match"``."""
    return {"-".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)}


def _words_of_text(text: str) -> set[str]:
    """``"--studio FILE"`` -> {"--studio", "studio", "file"}; ``"lca:card-11"`` -> {"lca", "card", "11", "card-11", ...}."""
    lowered = text.lower()
    words = set(re.findall(r"--[a-z0-9][a-z0-9-]*", lowered))
    for run in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", lowered):
        words |= _runs(run.split("-"))
    return words


def _words_of_identifier(name: str) -> set[str]:
    """``STUDIO_MAX_SIDE`` -> {"studio", "max", "side", "studio-max", ...}; ``lcaSample`` is one word."""
    return _runs([part for part in name.lower().split("_") if part])


def _skipped_inside(node: ast.AST) -> list[ast.AST]:
    """The string nodes that ``node`` makes a docstring or a help text (``ast.walk``
    meets ``node`` before them: parents come first)."""
    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            return [first.value]
    if isinstance(node, ast.keyword) and node.arg in HELP_ARGUMENTS:
        return list(ast.walk(node.value))
    return []


def offences(source: str, words: Words) -> list[tuple[int, str]]:
    """(line, what) for every place in ``source`` that names a game."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    found: list[tuple[int, str]] = []

    def identifier(node: ast.AST, name: str | None, what: str) -> None:
        for word in sorted(_words_of_identifier(name or "") & words.names):
            found.append((node.lineno, f"{word!r} in the {what} {name!r}"))

    for node in ast.walk(tree):
        skipped.update(id(inner) for inner in _skipped_inside(node))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            if node.value.lower() in words.tokens:
                found.append((node.lineno, f"the token word {node.value!r}"))
            for word in sorted(_words_of_text(node.value) & words.names):
                found.append((node.lineno, f"{word!r} in the string {node.value[:60]!r}"))
        elif isinstance(node, ast.Name):
            identifier(node, node.id, "name")
        elif isinstance(node, ast.Attribute):
            identifier(node, node.attr, "attribute")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            identifier(node, node.name, "definition")
        elif isinstance(node, ast.arg):
            identifier(node, node.arg, "argument")
        elif isinstance(node, ast.keyword) and node.arg:
            identifier(node.value, node.arg, "keyword")
        elif isinstance(node, ast.ImportFrom):
            for part in (node.module or "").split("."):
                identifier(node, part, "module")
            for alias in node.names:
                identifier(node, alias.name, "import")
                identifier(node, alias.asname, "import")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                for part in alias.name.split("."):
                    identifier(node, part, "module")
                identifier(node, alias.asname, "import")
    return sorted(set(found))


def core_files() -> list[Path]:
    files = []
    for folder in CORE:
        for path in sorted((REPO / folder).rglob("*.py")):
            relative = path.relative_to(REPO).as_posix()
            if not any(relative.startswith(own + "/") for own in GAMES_OWN):
                files.append(path)
    return files


@functools.cache
def report(words: Words) -> list[str]:
    found = []
    for path in core_files():
        relative = path.relative_to(REPO).as_posix()
        for line, what in offences(path.read_text(encoding="utf-8"), words):
            if not any(file == relative and what.endswith(f" {name!r}") for file, name in BY_CHANCE):
                found.append(f"{relative}:{line}: {what}")
    return found


def test_the_core_names_no_game():
    found = report(Words.of_the_registry())
    assert not found, f"{len(found)} places in the core name a game:\n" + "\n".join(found)


def test_the_core_but_what_remains_names_no_game():
    found = [line for line in report(Words.of_the_registry()) if not _remaining(line.split(":", 1)[0])]
    assert not found, f"{len(found)} places in the core name a game:\n" + "\n".join(found)


def test_the_words_come_from_the_registry():
    words = Words.of_the_registry()
    assert set(engine.names()) <= words.names
    for game in installed_games():
        for parameter in engine.spec(game).setup:
            if parameter.name not in PARAMETER_KINDS:
                assert {parameter.name, parameter.flag} <= words.names
    assert not words.names & set(PARAMETER_KINDS)  # the core's own vocabulary
    for game in engine.names():
        assert token_words(game) - words.names <= words.tokens


def test_a_hyphenated_game_name_is_found_in_strings_and_identifiers():
    words = Words(names=frozenset({"lowest-unique"}), tokens=frozenset())
    source = 'LOWEST_UNIQUE_ROUNDS = 3\nkind = "a lowest-unique match"\nlowest = unique = "lowest unique"\n'
    assert offences(source, words) == [
        (1, "'lowest-unique' in the name 'LOWEST_UNIQUE_ROUNDS'"),
        (2, "'lowest-unique' in the string 'a lowest-unique match'"),
    ]


def test_the_check_finds_a_game_in_code_and_not_in_docstrings_comments_or_help():
    words = Words(names=frozenset({"lca", "studio", "--studio"}), tokens=frozenset({"gift"}))
    source = '''
"""The module names lca in its docstring."""
import click
from matchledger.engine.lca import sample as lca_sample   # line 4
STUDIO_MAX_SIDE = 40                                      # line 5

def build(kind):
    """lca again, in a function's docstring."""
    # a comment: lca, --studio
    if kind == "gift":                                    # line 10
        return "lca:card-11"                              # line 11
    return click.option("--x", help="e.g. --studio studio.txt for lca")


@click.option("--studio", "setup_file")                   # line 15
def new(setup_file, seed):
    return f"{seed} gifts"
'''
    assert offences(source, words) == [
        (4, "'lca' in the import 'lca_sample'"),
        (4, "'lca' in the module 'lca'"),
        (5, "'studio' in the name 'STUDIO_MAX_SIDE'"),
        (10, "the token word 'gift'"),
        (11, "'lca' in the string 'lca:card-11'"),
        (15, "'--studio' in the string '--studio'"),
        (15, "'studio' in the string '--studio'"),
    ]
