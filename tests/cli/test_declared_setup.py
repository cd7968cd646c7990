"""`new` is built from the games' declarations (engine/declaration.py): each declared
setup parameter is a flag of `new`, read by its kind and passed in the match's setup;
`new --help` lists every installed game with its parameters and examples, `new GAME
--help` that game's only; `list --games` and completion name the games.  The command
forms hosts' scripts use stay as they were."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.shell_completion import ShellComplete

from matchledger import engine
from matchledger.commands.cli import cli
from matchledger.engine.lca.spec import STUDIO_FILE_MAX_BYTES
from tests.cli import declaredgame
from tests.cli.support import contents, run
from tests.helpers import REPO, invoke

STUDIO = REPO / "fixtures" / "lca" / "studio-14x13.txt"
DECK = REPO / "fixtures" / "photographer" / "deck-dry.txt"


@pytest.fixture
def declared():
    """The test game that declares one parameter of each kind, registered for one test."""
    engine.register_spec(declaredgame.SPEC)
    yield declaredgame.SPEC
    engine.unregister(declaredgame.SPEC.name)


def created_setup(db, match_id: str) -> dict:
    return json.loads(invoke(db, "log", match_id, "--json").stdout)[0]["event"]["setup"]


def offered(args: list[str], incomplete: str) -> list[tuple[str, str | None]]:
    found = ShellComplete(cli, {}, "matchledger", "_MATCHLEDGER_COMPLETE").get_completions(args, incomplete)
    return [(item.value, item.help) for item in found]


def unwrapped(text: str) -> str:
    """Help text with its lines joined: click wraps the descriptions to the terminal."""
    return " ".join(text.split())


def every_declared_flag() -> set[str]:
    return {parameter.flag for spec in engine.specs() for parameter in spec.setup}


# --------------------------------------------------------------------------- the registry


def test_register_spec_makes_a_game_available_by_its_declaration_and_unregister_forgets_it():
    assert "declared" not in engine.names()
    engine.register_spec(declaredgame.SPEC)
    try:
        assert engine.names()[-1] == "declared"
        assert engine.spec("declared") is declaredgame.SPEC
        assert engine.get("declared") is declaredgame.GAME
    finally:
        engine.unregister("declared")
    assert "declared" not in engine.names()
    with pytest.raises(Exception, match="unknown game 'declared'"):
        engine.spec("declared")


# --------------------------------------------------------------------------- help


def test_new_help_lists_every_installed_game_with_its_parameters_and_examples(declared):
    text = run("new", "--help").stdout
    for spec in engine.specs():
        assert f"\n  {spec.name}  " in text
        assert f"Setup of {spec.name}" in text or not spec.setup
        assert spec.title in unwrapped(text) and spec.summary in unwrapped(text)
        for parameter in spec.setup:
            assert f"{parameter.flag} {parameter.metavar}" in text
            assert parameter.help in unwrapped(text)
            assert f"matchledger new {spec.name} " in text and f"--players ann,bob {parameter.example}\n" in text
    assert "\n  toy  " in text  # a game registered by its rules is listed too, with no setup


@pytest.mark.parametrize("game", ["lca", "pw", "photographer", "declared"])
def test_new_game_help_lists_that_games_parameters_only(declared, game):
    text = run("new", game, "--help").stdout
    spec = engine.spec(game)
    for parameter in spec.setup:
        assert f"{parameter.flag} {parameter.metavar}" in text and parameter.help in unwrapped(text)
        assert f"matchledger new {game} m" in text and f"{parameter.example}\n" in text
    for flag in every_declared_flag() - {parameter.flag for parameter in spec.setup}:
        assert f"{flag} " not in text, flag
    assert "--players" in text and "--option" in text and "--json" in text
    other_games = [name for name in engine.names() if name != game]
    assert not [name for name in other_games if f"matchledger new {name} " in text]


@pytest.mark.parametrize("game", ["lca", "photographer", "toy"])
def test_new_game_help_lists_that_games_ruleset_options_at_their_defaults(game):
    text = unwrapped(run("new", game, "--help").stdout)
    options = engine.get(game).OPTIONS
    assert f"Ruleset options of {game}" in text
    for name, option in options.items():
        assert f"{name}={option.text(option.default)}" in text and option.help in text


def test_new_help_for_every_game_lists_no_ruleset_options():
    # naming every game's options would load every game's rules: one game's help does
    assert "Ruleset options" not in run("new", "--help").stdout


def test_new_game_help_finds_the_game_wherever_the_options_stand(declared):
    text = run("new", "--players", "ann,bob", "declared", "--help").stdout
    assert "--team PLAYER=TEAM" in text and "--studio" not in text


def test_a_game_registered_by_its_rules_declares_nothing_and_its_help_says_so():
    text = run("new", "toy", "--help").stdout
    assert "toy takes no setup parameters" in text
    assert not [flag for flag in every_declared_flag() if f"{flag} " in text]
    assert "matchledger new toy m1 --players ann,bob\n" in text


def test_asking_for_new_help_imports_the_games_declarations_and_none_of_their_rules():
    """`new --help` reads every declaration and no game's rules; `new lca --help`
    loads lca's rules (for its ruleset options), and no other game's."""
    probe = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from matchledger.commands.cli import cli\n"
        "def games():\n"
        "    return sorted(m for m in sys.modules if m.startswith('matchledger.engine.') and m.count('.') > 2)\n"
        "CliRunner().invoke(cli, ['submit', '--help'])\n"
        "print(games())\n"
        "CliRunner().invoke(cli, ['new', '--help'])\n"
        "print(games())\n"
        "CliRunner().invoke(cli, ['new', 'lca', '--help'])\n"
        "print(games())\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    on_submit, on_new, on_new_lca = (eval(line) for line in result.stdout.strip().splitlines()[-3:])
    assert on_submit == []  # `submit` shares new's module: the declarations are read on first use only
    assert {f"matchledger.engine.{name}.spec" for name in ("lca", "pw", "photographer")} <= set(on_new)
    assert [m for m in on_new if not m.endswith(".spec")] == []
    assert "matchledger.engine.lca.game" in on_new_lca
    assert [m for m in on_new_lca if not m.endswith(".spec") and not m.startswith("matchledger.engine.lca.")] == []


# --------------------------------------------------------------------------- reading the values


def test_each_declared_parameter_is_read_by_its_kind_and_reaches_the_games_setup(tmp_path, empty_db_path, declared):
    board = tmp_path / "board.txt"
    board.write_text("a board\n")
    result = invoke(
        empty_db_path,
        "new",
        "--team",
        "ann=red",
        "declared",
        "--players",
        "ann,bob",
        "d1",
        "--board",
        board,
        "--length",
        "4",
        "--team",
        "bob=blue",
        "--motto",
        "fair play",
        "--key",
        str(2**50),
    )
    assert result.stderr == ""  # a key past 2**40 is not guessable: no warning
    assert created_setup(empty_db_path, "d1") == {
        "board": "a board\n",
        "length": 4,
        "teams": {"ann": "red", "bob": "blue"},
        "motto": "fair play",
        "key": 2**50,
    }
    invoke(empty_db_path, "new", "declared", "d2", "--players", "ann,bob")
    assert created_setup(empty_db_path, "d2") == {}  # a parameter left out is not in the setup


def test_a_guessable_seed_of_any_game_is_warned_of_in_its_declared_words(empty_db_path, declared):
    result = invoke(empty_db_path, "new", "declared", "d1", "--players", "ann,bob", "--key", "7")
    assert "warning: key 7 can be found by trying every smaller key" in result.stderr
    assert "leave --key out to have a secret one drawn" in result.stderr
    assert created_setup(empty_db_path, "d1") == {"key": 7}


@pytest.mark.parametrize(
    "args, exit_code, message",
    [
        (["--length", "0"], 2, "Invalid value for '--length': '0' is not a whole number from 1 to 9"),
        (["--length", "10"], 2, "Invalid value for '--length': '10' is not a whole number from 1 to 9"),
        (["--length", "four"], 2, "Invalid value for '--length': 'four' is not a valid integer"),
        (["--key", "x"], 2, "Invalid value for '--key': 'x' is not a valid integer"),
        (["--team", "ann"], 2, "--team takes KEY=VALUE, got 'ann'"),
        (["--team", "ann=red", "--team", "ann=blue"], 2, "--team 'ann' is given twice"),
        (["--motto", "m" * (declaredgame.MOTTO_MAX_BYTES + 1)], 1, f"--motto {'m' * 13!r}: at most 12 bytes"),
        (["--motto", "é" * 7], 1, "at most 12 bytes"),  # bytes, not characters
        (["--motto", "two\nlines"], 1, "--motto 'two\\nlines': one line of printable text"),
        (
            ["--board", "big.txt"],
            1,
            f"board file 'big.txt' is larger than the limit of {declaredgame.BOARD_MAX_BYTES} bytes",
        ),
        (["--board", "missing.txt"], 1, "cannot read board file 'missing.txt'"),
    ],
)
def test_a_declared_limit_is_enforced_naming_the_flag_and_nothing_is_written(
    tmp_path, empty_db_path, declared, monkeypatch, args, exit_code, message
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.txt").write_text("b" * (declaredgame.BOARD_MAX_BYTES + 1))
    result = invoke(empty_db_path, "new", "declared", "d1", "--players", "ann,bob", *args, expect=exit_code)
    assert message in result.stderr
    assert contents(empty_db_path) is None


def test_a_value_within_the_declared_limits_is_taken(tmp_path, empty_db_path, declared):
    board = tmp_path / "board.txt"
    board.write_text("b" * declaredgame.BOARD_MAX_BYTES)
    invoke(
        empty_db_path,
        "new",
        "declared",
        "d1",
        "--players",
        "ann,bob",
        "--board",
        board,
        "--length",
        "9",
        "--motto",
        "m" * declaredgame.MOTTO_MAX_BYTES,
    )
    assert created_setup(empty_db_path, "d1") == {"board": "b" * 64, "length": 9, "motto": "m" * 12}


@pytest.mark.parametrize(
    "args, flag, game",
    [
        (["pw", "p1", "--pair", "ann=zed", "--pair", "bob=yan", "--studio", str(STUDIO)], "--studio", "pw"),
        (["lca", "l1", "--studio", str(STUDIO), "--seed", "42"], "--seed", "lca"),
        (["photographer", "f1", "--pair", "ann=zed"], "--pair", "photographer"),
        (["toy", "t1", "--deck", str(DECK)], "--deck", "toy"),
    ],
)
def test_a_parameter_the_game_does_not_declare_is_a_usage_error_naming_the_flag_and_the_game(
    empty_db_path, args, flag, game
):
    result = invoke(empty_db_path, "new", *args, "--players", "ann,bob", expect=2)
    assert f"{flag} is not a setup parameter of game {game!r}" in result.stderr
    assert f"see `matchledger new {game} --help`" in result.stderr
    assert contents(empty_db_path) is None


def test_an_unknown_game_is_still_the_engines_error_naming_the_games(empty_db_path):
    result = invoke(empty_db_path, "new", "chess", "c1", "--players", "ann,bob", "--seed", "3", expect=1)
    assert "unknown game 'chess' (games: " in result.stderr and "photographer" in result.stderr


# --------------------------------------------------------------------------- today's forms


def test_every_form_of_the_three_games_works_as_before(tmp_path, empty_db_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.txt").write_bytes(STUDIO.read_bytes())
    (tmp_path / "deck.txt").write_bytes(DECK.read_bytes())
    invoke(empty_db_path, "new", "lca", "m1", "--players", "a,b", "--studio", "s.txt")
    assert created_setup(empty_db_path, "m1")["studio"][0] == STUDIO.read_text().splitlines()[0]
    invoke(
        empty_db_path,
        "new",
        "--studio",
        "s.txt",
        "--players",
        "a,b",
        "lca",
        "m1b",
        "--option",
        "filming_lights_divisor=1",
    )
    written = json.loads(
        invoke(empty_db_path, "new", "lca", "m1c", "--players", "a,b", "--studio", "s.txt", "--json").stdout
    )
    assert written["match"] == "m1c" and written["events"][0]["kind"] == "MatchCreated"
    invoke(empty_db_path, "new", "pw", "m2", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    assert created_setup(empty_db_path, "m2") == {"pairs": {"ann": "zed", "bob": "yan"}}
    seeded = invoke(empty_db_path, "new", "photographer", "m3", "--players", "ann,bob", "--seed", "42")
    assert "warning: seed 42 can be found by trying every smaller seed" in seeded.stderr
    assert "leave --seed out to have a secret one drawn" in seeded.stderr
    assert created_setup(empty_db_path, "m3")["seed"] == 42
    invoke(empty_db_path, "new", "photographer", "m4", "--players", "ann,bob", "--deck", "deck.txt")
    assert "seed" not in created_setup(empty_db_path, "m4")
    invoke(
        empty_db_path,
        "new",
        "photographer",
        "m4b",
        "--players",
        "ann,bob",
        "--option",
        "end_trigger=sunset",
        "--seed",
        str(2**62),
    )
    both = invoke(
        empty_db_path,
        "new",
        "photographer",
        "m5",
        "--players",
        "ann,bob",
        "--seed",
        "1",
        "--deck",
        "deck.txt",
        expect=1,
    )
    assert "give either --seed or --deck, not both" in both.stderr
    assert invoke(empty_db_path, "new", "pw", "m6", "--players", "a,b", "--pair", "a", expect=2).stderr.endswith(
        "Error: --pair takes KEY=VALUE, got 'a'\n"
    )
    big = tmp_path / "big.txt"
    big.write_bytes(b"." * (STUDIO_FILE_MAX_BYTES + 1))
    refused = invoke(empty_db_path, "new", "lca", "m7", "--players", "a,b", "--studio", "big.txt", expect=1)
    assert f"studio file 'big.txt' is larger than the limit of {STUDIO_FILE_MAX_BYTES} bytes" in refused.stderr


def test_a_script_line_creates_a_match_with_declared_setup(tmp_path, empty_db_path, declared):
    (tmp_path / "board.txt").write_text("the board\n")
    script = tmp_path / "play.txt"
    script.write_text("new declared d1 --players ann,bob --board board.txt --team ann=red --team bob=blue\n")
    invoke(empty_db_path, "script", script)
    assert created_setup(empty_db_path, "d1") == {"board": "the board\n", "teams": {"ann": "red", "bob": "blue"}}


# --------------------------------------------------------------------------- list --games and completion


def test_list_games_names_every_installed_game_and_its_setup(empty_db_path, declared):
    described = json.loads(invoke(empty_db_path, "list", "--games", "--json").stdout)
    assert [game["name"] for game in described] == engine.names()
    by_name = {game["name"]: game for game in described}
    assert by_name["declared"] == {
        "name": "declared",
        "title": "Declared Setup",
        "kind": "rounds",
        "summary": declaredgame.SPEC.summary,
        "setup": [
            {"name": p.name, "flag": p.flag, "kind": p.kind, "help": p.help, "example": p.example}
            for p in declaredgame.SPEC.setup
        ],
    }
    assert by_name["photographer"]["kind"] == "turns"
    assert [p["flag"] for p in by_name["photographer"]["setup"]] == ["--seed", "--deck"]
    assert by_name["toy"]["setup"] == []
    lines = invoke(empty_db_path, "list", "--games").stdout.splitlines()
    assert lines[0].split() == ["game", "kind", "title", "setup"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert list(rows) == engine.names()
    assert rows["declared"].split() == [
        "declared",
        "rounds",
        "Declared",
        "Setup",
        "--board",
        "--length",
        "--team",
        "--motto",
        "--key",
    ]
    assert rows["pw"].split()[-1] == "--pair"
    assert not empty_db_path.exists()  # no database is read, none is made


def test_list_without_games_lists_the_matches_as_before(empty_db_path):
    invoke(empty_db_path, "new", "toy", "t1", "--players", "ann,bob")
    assert json.loads(invoke(empty_db_path, "list", "--json").stdout)[0]["match"] == "t1"
    assert invoke(empty_db_path, "list").stdout.splitlines()[0].split() == [
        "match",
        "game",
        "players",
        "at",
        "state",
        "head",
    ]
    assert "list --games" in run("list", "--help").stdout


def test_completion_offers_the_games_with_their_titles_and_a_typed_games_flags_only(declared):
    games = offered(["new"], "")
    assert [name for name, _title in games] == engine.names()
    assert ("declared", "Declared Setup") in games and ("photographer", "Фотограф") in games
    flags = [flag for flag, _help in offered(["new", "declared", "d1"], "--")]
    assert {"--board", "--length", "--team", "--motto", "--key", "--players", "--option"} <= set(flags)
    assert not {"--studio", "--pair", "--seed", "--deck"} & set(flags)
    assert [flag for flag, _help in offered(["new", "pw", "p1"], "--")].count("--pair") == 1
    assert "--board" not in [flag for flag, _help in offered(["new", "pw", "p1"], "--")]
    assert every_declared_flag() <= {flag for flag, _help in offered(["new"], "--")}  # no game typed yet: all


# --------------------------------------------------------------------------- declarations that meet


@pytest.fixture
def registered():
    """Register games for one test: ``registered(spec)`` by declaration, or
    ``registered(name, module)`` by rules."""
    names = []

    def register(spec_or_name, module=None):
        if module is None:
            engine.register_spec(spec_or_name)
            names.append(spec_or_name.name)
        else:
            engine.register(spec_or_name, module)
            names.append(spec_or_name)

    yield register
    for name in names:
        engine.unregister(name)


def test_a_flag_two_games_declare_is_read_by_the_kind_of_the_matchs_game(empty_db_path, registered):
    registered(declaredgame.SHARED_SPEC)
    quiet = invoke(empty_db_path, "new", "shared", "s1", "--players", "ann,bob", "--seed", "3")
    assert quiet.stderr == ""  # a plain number: no warning of a guessable seed
    assert created_setup(empty_db_path, "s1") == {"seed": 3}
    refused = invoke(empty_db_path, "new", "shared", "s2", "--players", "ann,bob", "--seed", "42", expect=2)
    assert "Invalid value for '--seed': '42' is not a whole number from 1 to 5" in refused.stderr
    warned = invoke(empty_db_path, "new", "photographer", "p1", "--players", "ann,bob", "--seed", "42")
    assert "warning: seed 42 can be found" in warned.stderr and created_setup(empty_db_path, "p1")["seed"] == 42
    text = run("new", "--help").stdout
    assert "Setup of shared (Shared Flag)" in text and "Setup of photographer" in text


def test_a_declared_flag_that_new_has_itself_is_refused_for_that_game_only(empty_db_path, registered):
    registered(declaredgame.CLASHING_SPEC)
    result = invoke(empty_db_path, "new", "clashing", "c1", "--players", "ann,bob", expect=2)
    assert "game 'clashing' declares the setup parameter 'json' as '--json', which `new` cannot take" in result.stderr
    written = json.loads(invoke(empty_db_path, "new", "toy", "t1", "--players", "ann,bob", "--json").stdout)
    assert written["match"] == "t1"  # --json is still new's own


def test_a_game_whose_declaration_cannot_be_read_leaves_new_to_the_other_games(tmp_path, empty_db_path, registered):
    registered("ghost", "tests.cli.no_such_module")
    text = run("new", "--help").stdout
    assert "ghost" in text and "its declaration cannot be read: ModuleNotFoundError" in unwrapped(text)
    invoke(empty_db_path, "new", "lca", "l1", "--players", "ann,bob", "--studio", STUDIO)
    assert "ghost" in [name for name, _title in offered(["new"], "")]
    listed = invoke(empty_db_path, "list", "--games", "--json")
    assert "ghost" not in [game["name"] for game in json.loads(listed.stdout)] and "lca" in listed.stdout
    assert (
        "warning: game 'ghost' is installed, but its declaration cannot be read: ModuleNotFoundError" in listed.stderr
    )
