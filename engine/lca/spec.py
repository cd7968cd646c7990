"""The declaration of Lights, Camera, Action! (read at start-up: imports nothing of the rules)."""

from matchledger.engine.declaration import GameSpec, SetupParameter
from matchledger.engine.words import ResultWords

#: Bytes of a studio file at most.
STUDIO_FILE_MAX_BYTES = 64 * 1024
#: A studio's width and height (cells), at least so that a 3x3 camera fits.
STUDIO_MIN_SIDE = 3
STUDIO_MAX_SIDE = 40

SPEC = GameSpec(
    name="lca",
    title="Lights, Camera, Action!",
    kind="rounds",
    summary="three simultaneous rounds on a studio map: lights, cameras, actions",
    engine="matchledger.engine.lca.game:GAME",
    setup=(
        SetupParameter(
            "studio",
            "file",
            help="the studio map, one line per row: '.' floor, '#' wall",
            example="--studio studio.txt",
            max_bytes=STUDIO_FILE_MAX_BYTES,
        ),
    ),
    presentation="matchledger.projections.presentation.games.lca",
    rules="matchledger.engine.lca:rules.md",
    code=("matchledger.engine.lca",),
    words=ResultWords(
        awards={
            "tol": "ToL {shards}/4",
            "tol_shard": "+{shards} ToL bonus shard{s}",
            "shards": "{shards} shard{s}",
            "mark": "Mark of Elimination",
            "ec": "EC",
        },
        contracts={"supremacy": "supremacy pact"},
    ),
)
