"""The core speaks no front door's language: no text in ``engine/``, ``projections/`` or
``ledger/`` names a flag of the command line (``--at``, ``--reason``, a game's
``--studio``) or one of its commands (`` `void ...` ``, ``matchledger verify``).  An
error there carries fields (the parameter, the value, the match) and neutral words;
the command line words it with its flags (``commands/errors.py``), the service with
its query parameters (``commands/service/problems.py``).

Docstrings and comments may say how a door is used; the text a user can be shown may
not.  The flags and commands are read from the command line itself, so a new option
is checked from the day it is added."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest

from matchledger import engine
from matchledger.commands.cli import COMMANDS, cli
from tests.helpers import REPO

CORE = ("engine", "projections", "ledger")

#: (file, the call, the keyword) whose string values may name a flag: a game's
#: declaration states how `new` is typed for it (``SetupParameter``'s ``flag`` and
#: ``example``), which only the command line reads (``commands/declared_setup.py``).
ALLOWED_KEYWORDS = {("SetupParameter", "flag"), ("SetupParameter", "example")}

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _flags() -> set[str]:
    """Every long option of the command line: the root's, each command's, and each
    installed game's setup flags (which `new` takes)."""
    flags = {opt for param in cli.params for opt in (*param.opts, *param.secondary_opts)}
    with click.Context(cli) as ctx:
        for name in COMMANDS:
            command = cli.get_command(ctx, name)
            for param in command.params:
                flags.update(opt for opt in (*param.opts, *param.secondary_opts))
    for name in engine.names():
        flags.update(parameter.flag for parameter in engine.spec(name).setup)
    return {flag for flag in flags if flag.startswith("--")}


def _command_words() -> re.Pattern:
    names = "|".join(sorted(map(re.escape, COMMANDS), key=len, reverse=True))
    # `matchledger verify`, or a command quoted as typed: `void m1 SEQ ...`, `new`, `void`/`correct`
    return re.compile(rf"\bmatchledger ({names})\b|`({names})(?=[ `/])")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _allowed(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            for keyword in node.keywords:
                if (called, keyword.arg) in ALLOWED_KEYWORDS:
                    found.update(id(inner) for inner in ast.walk(keyword.value))
    return found


def cli_words(root: Path = REPO) -> list[str]:
    """``file:line: word in 'text'`` for every string of the core that names a flag or a
    command of the command line."""
    flags, commands = _flags(), _command_words()
    found = []
    for folder in CORE:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            skipped = _docstrings(tree) | _allowed(tree)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in skipped:
                    continue
                words = [flag for flag in _FLAG.findall(node.value) if flag in flags]
                words += [match.group(0) for match in commands.finditer(node.value)]
                if words:
                    where = path.relative_to(root)
                    found.append(f"{where}:{node.lineno}: {', '.join(words)} in {node.value[:80]!r}")
    return found


def test_no_string_of_the_core_names_a_flag_or_a_command_of_the_command_line():
    found = cli_words()
    assert not found, "the core speaks the command line's language:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "text, named",
    [
        ("f'--at {at} is outside'", True),
        ("'close it without --force'", True),
        ("'(`matchledger verify m1` tells more)'", True),
        ("'`void`/`correct` with it'", True),
        ("'give a reason'", False),
        ("'create it with `createdb --encoding=UTF8`'", False),  # another program's flag
        ("'matchledger database'", False),
    ],
)
def test_the_scan_tells_a_flag_or_a_command_from_other_words(tmp_path, text, named):
    (tmp_path / "engine").mkdir()
    (tmp_path / "projections").mkdir()
    (tmp_path / "ledger").mkdir()
    (tmp_path / "engine" / "x.py").write_text(f'"""A docstring may say --at and `void`."""\nMESSAGE = {text}\n')
    assert bool(cli_words(tmp_path)) is named
