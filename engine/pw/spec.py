"""The declaration of Parallel Worlds (read at start-up: imports nothing of the rules)."""

from matchledger.engine.declaration import GameSpec, SetupParameter
from matchledger.engine.words import ResultWords

SPEC = GameSpec(
    name="pw",
    title="Parallel Worlds",
    kind="rounds",
    summary="three simultaneous rounds of actions between players and their secret guest partners",
    engine="matchledger.engine.pw.game:GAME",
    setup=(
        SetupParameter(
            "pairs",
            "pairs",
            help="a secret pair of a player and their guest; one per player",
            example="--pair ann=zed --pair bob=yan",
            flag="--pair",
            metavar="PLAYER=GUEST",
        ),
    ),
    presentation="matchledger.projections.presentation.games.pw",
    rules="matchledger.engine.pw:rules.md",
    code=("matchledger.engine.pw",),
    words=ResultWords(
        awards={
            "tol": "ToL {shards}/4",
            "tol_shard": "+{shards} ToL bonus shard{s}",
            "shards": "{shards} shard{s}",
            "ec": "EC",
        },
        contracts={"sabotage": "sabotage pact"},
    ),
)
