"""The shipped game contract (:mod:`matchledger.testing.game_contract`), run on every
game in the registry that offers ``sample``: one ``Test<Game>`` class a game, made
from ``engine.names()`` so that an installed game is checked with no edit here.

Among lca's matches of the default seeds are voids, corrections, reopened rounds, notes
and amendments; among photographer's, optional winding, the Sunset ending and 2 to 4
players.
"""

from matchledger.testing.game_contract import GameContract
from tests.helpers import sampled_games


def _class_name(game: str) -> str:
    return "Test" + "".join(part.capitalize() for part in game.replace("-", "_").split("_") if part)


for _game in sampled_games():
    globals()[_class_name(_game)] = type(_class_name(_game), (GameContract,), {"game": _game, "__module__": __name__})
