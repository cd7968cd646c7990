"""The declaration of Фотограф (read at start-up: imports nothing of the rules)."""

from matchledger.engine.declaration import GameSpec, SetupParameter
from matchledger.engine.words import ResultWords

#: Bytes of a deck file at most.
DECK_FILE_MAX_BYTES = 64 * 1024

SPEC = GameSpec(
    name="photographer",
    title="Фотограф",
    kind="turns",
    summary="turn-based card drafting from a shared table into hidden hands",
    engine="matchledger.engine.photographer.game:GAME",
    setup=(
        SetupParameter(
            "seed",
            "seed",
            help="shuffle the deck from this seed (left out: a secret 64-bit seed is drawn and recorded)",
            example="--seed 42",
            reveals="whoever sees one deal could then know every card",
        ),
        SetupParameter(
            "deck",
            "file",
            help="the whole deck, top card first",
            example="--deck deck.txt",
            max_bytes=DECK_FILE_MAX_BYTES,
        ),
    ),
    presentation="matchledger.projections.presentation.games.photographer",
    rules="matchledger.engine.photographer:rules.md",
    code=("matchledger.engine.photographer",),
    # P8: a colour with no face-up card costs 3; each successful-shot card scores 5
    words=ResultWords(
        scores={"missing": "missing colours", "good_shots": "successful shots"},
        endings={"deck_empty": "the deck is empty", "sunset": "the sunset card came up"},
    ),
)
