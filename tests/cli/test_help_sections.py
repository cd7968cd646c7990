"""`--help` lists the commands by who needs them; a command of the table that no section
names is listed under "Other commands", and a name no command has is not listed."""

from __future__ import annotations

import re

from matchledger.commands.cli import COMMANDS, HELP_SECTIONS
from matchledger.commands.lazy import OTHER_SECTION
from tests.cli.support import run

HOSTS, EVERYONE, AUDITORS = HELP_SECTIONS


def listed_sections(help_text: str) -> dict[str, list[str]]:
    """Section title -> the command names it lists, as `--help` prints them."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in help_text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            current = line[:-1]
            sections[current] = []
        elif current and (found := re.match(r"^  (\S+)  ", line)):
            sections[current].append(found.group(1))
    return sections


def test_help_lists_each_command_once_in_its_section_in_the_tables_order():
    sections = listed_sections(run("--help").stdout)
    commands = {title: names for title, names in sections.items() if title.startswith("Commands for")}
    assert list(commands) == list(HELP_SECTIONS)
    for title, names in commands.items():
        assert names == [name for name in HELP_SECTIONS[title] if name in COMMANDS]
    assert sorted(name for names in commands.values() for name in names) == sorted(COMMANDS)
    assert {"new", "submit", "close"} <= set(commands[HOSTS])
    assert {"status", "knowledge", "reveals"} <= set(commands[EVERYONE])
    assert {"verify", "export", "import"} <= set(commands[AUDITORS])


def test_the_commands_other_branches_add_have_their_sections_already():
    assert {"reopen", "abandon"} <= set(HELP_SECTIONS[HOSTS])
    assert "messages" in HELP_SECTIONS[EVERYONE]
    assert "list" in HELP_SECTIONS[AUDITORS]
    placed = [name for names in HELP_SECTIONS.values() for name in names]
    assert len(placed) == len(set(placed))


def test_a_command_no_section_names_is_listed_under_other_commands(monkeypatch):
    monkeypatch.setitem(COMMANDS, "zebra", ("host", "note_cmd", "A command no section names."))
    sections = listed_sections(run("--help").stdout)
    assert sections[OTHER_SECTION] == ["zebra"]
    assert "zebra" not in [name for title, names in sections.items() if title != OTHER_SECTION for name in names]


def test_without_such_a_command_there_is_no_other_section_and_a_name_without_a_command_is_not_listed(monkeypatch):
    monkeypatch.setitem(HELP_SECTIONS, AUDITORS, (*HELP_SECTIONS[AUDITORS], "nothing-here"))
    text = run("--help").stdout
    assert OTHER_SECTION not in text and "nothing-here" not in text


def test_a_mistyped_command_is_matched_against_every_command_of_the_table(monkeypatch):
    from matchledger.commands.cli import cli

    monkeypatch.setattr(cli, "commands", {})  # as in a new process: no command imported yet
    result = run("verfy", "m1")
    assert result.exit_code == 2
    assert "No such command 'verfy'. Did you mean 'verify'?" in result.stderr
