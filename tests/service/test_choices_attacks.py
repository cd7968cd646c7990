"""The service attacked through what the plugins brought: a match of a game the server
does not have installed, and forms drawn from descriptions whose part names collide
with the form's own field names."""

from __future__ import annotations

import random
import re

import pytest

from matchledger import engine
from matchledger.commands.service.forms import form_html
from matchledger.engine import choices
from matchledger.ledger.errors import MalformedInput
from matchledger.projections.fold import InMemoryMatch
from tests.helpers import sampled_games

from ..trust.test_plugin_attacks import uninstalled_game_db
from .support import Server


@pytest.mark.guarantee("service.game-not-installed")
def test_a_match_of_a_game_not_installed_is_a_clear_answer_not_a_500(tmp_path):
    """The host removed a plugin (or serves from an environment without it): its
    matches' pages answer that the game is not installed here (a 503, as a missing
    system library is answered), not an internal error; the other matches still work."""
    db = uninstalled_game_db(tmp_path / "m.db")
    with Server(db) as server:
        assert server.client.get("/m/m1").status_code == 200
        for path in ("/m/gone", "/api/v1/matches/gone/public"):
            answer = server.client.get(path)
            assert answer.status_code != 500, (path, answer.text[-200:])
            assert "not installed" in answer.text, (path, answer.text[-200:])


def part(name, options, low=0, high=1, ordered=False):
    return {
        "name": name,
        "label": name,
        "min": low,
        "max": high,
        "ordered": ordered,
        "options": [{"tokens": [o], "label": o} for o in options],
    }


def described(*parts):
    return {"prompt": "Choose", "parts": list(parts), "constraints": [], "typed": ""}


def test_a_part_named_like_the_typed_field_is_refused_by_the_description_check():
    """A game may call a part anything ``engine.choices.check`` allows, but not what
    the typed notation is posted as: the form could not tell the two apart, so the
    description is refused (and the game contract, which checks every description,
    fails the game that gives it)."""
    with pytest.raises(MalformedInput, match="'tokens'"):
        choices.check(described(part("tokens", ["a", "b"]), part("extra", ["c", "d"])))


def test_the_places_of_one_part_never_share_a_field_with_another_part():
    """A part of several places posts PART_1, PART_2...: a part named 'x_1' beside a
    part 'x' of two places would share the field 'x_1', so the description is refused."""
    with pytest.raises(MalformedInput, match="'x_1'"):
        choices.check(described(part("x", ["a", "b"], high=2, ordered=True), part("x_1", ["c", "d"])))


@pytest.mark.parametrize("game", sampled_games())
def test_the_fields_a_form_posts_are_the_ones_the_check_counts(game):
    """``engine.choices.form_names`` (what ``check`` holds apart) names exactly the
    fields the page's form is drawn with, for every description a sampled match gives."""
    rules = engine.get(game)
    sample = rules.sample(random.Random(2), "m")
    match = InMemoryMatch(sample.create)
    seen = 0
    while (command := sample.next_command(match.state)) is not None:
        for who in match.state.participants:
            description = rules.choices(match.state, who)
            if description is None or choices.is_nothing(description):
                continue
            drawn = set(re.findall(r'name="([^"]+)"', form_html(description))) - {choices.TYPED_FIELD}
            named = {name for p in description["parts"] for name in choices.form_names(p)}
            sole_grid = len(description["parts"]) == 1 and drawn == set()
            assert drawn == named or sole_grid, (game, drawn, named)
            seen += 1
        match.do(command)
    assert seen
