"""A game that exists only in tests and declares one setup parameter of each kind
`new` reads: the toy game's rules, with whatever setup it is given recorded as given.
Registered by its declaration (``engine.register_spec(SPEC)``), as an installed game's."""

from __future__ import annotations

from matchledger.engine.declaration import GameSpec, SetupParameter
from tests.toygame import ToyGame

BOARD_MAX_BYTES = 64
MOTTO_MAX_BYTES = 12

SPEC = GameSpec(
    name="declared",
    title="Declared Setup",
    kind="rounds",
    summary="the toy game's rounds, created with one setup parameter of each kind",
    engine="tests.cli.declaredgame:GAME",
    setup=(
        SetupParameter(
            "board", "file", help="the board to play on", example="--board board.txt", max_bytes=BOARD_MAX_BYTES
        ),
        SetupParameter("length", "integer", help="how many rounds", example="--length 4", minimum=1, maximum=9),
        SetupParameter(
            "teams",
            "pairs",
            help="a player's team; one per player",
            example="--team ann=red --team bob=blue",
            flag="--team",
            metavar="PLAYER=TEAM",
        ),
        SetupParameter("motto", "text", help="the match's motto", example="--motto fair", max_bytes=MOTTO_MAX_BYTES),
        SetupParameter("key", "seed", help="the key the match's draws come from", example="--key 42"),
    ),
)


class DeclaredGame(ToyGame):
    name = "declared"

    def build_setup(self, cmd, options):
        return list(cmd.players), dict(cmd.setup)


GAME = DeclaredGame()


#: A game declaring a flag another game declares too, with another kind (photographer's
#: --seed is a secret seed; this one is a plain number from 1 to 5).
SHARED_SPEC = GameSpec(
    name="shared",
    title="Shared Flag",
    kind="rounds",
    engine="tests.cli.declaredgame:SHARED_GAME",
    setup=(SetupParameter("seed", "integer", help="a number", example="--seed 3", minimum=1, maximum=5),),
)
#: A game declaring a flag `new` has itself: it cannot be given one.
CLASHING_SPEC = GameSpec(
    name="clashing",
    title="Clashing Flag",
    kind="rounds",
    engine="tests.cli.declaredgame:CLASHING_GAME",
    setup=(SetupParameter("json", "text", help="some text", example="--json x", flag="--json", max_bytes=9),),
)


class SharedGame(DeclaredGame):
    name = "shared"


class ClashingGame(DeclaredGame):
    name = "clashing"


SHARED_GAME = SharedGame()
CLASHING_GAME = ClashingGame()
