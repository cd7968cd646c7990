"""The declaration of Lowest Unique (read at start-up: imports nothing of the rules)."""

from matchledger.engine.declaration import GameSpec

SPEC = GameSpec(
    name="lowest-unique",
    title="Lowest Unique",
    kind="rounds",
    summary="each round every player secretly names a number; the lowest one nobody else named wins",
    engine="matchledger_lowest_unique.game:GAME",
    min_players=3,  # U1
    rules="matchledger_lowest_unique:rules.md",
    code=("matchledger_lowest_unique",),
)
