"""How a game's results read: the words a game declares (``GameSpec.words``) for what its
read models hold as codes, so that the command line's text, the pages, the pictures, the
replay page and the messages all say "ToL 3/4" and "successful shots" where the JSON
says ``tol`` and ``good_shots`` (the JSON keeps its codes: they are a contract).

The core names no game: it asks a game's declaration for these words, and shows a code
a game declares no words for as the code itself, its underscores as spaces."""

from __future__ import annotations

import string
from dataclasses import dataclass, field

#: The fields an award's words may name: ``{shards}`` its count of shards, and ``{s}``
#: the plural ending that count takes ("" for 1, else "s").
AWARD_FIELDS = ("shards", "s")


@dataclass(frozen=True)
class ResultWords:
    """A game's words for its results.

    - ``awards``: an award kind (``tol``) -> its words, a template that may name
      ``{shards}`` and ``{s}`` (``"ToL {shards}/4"``, ``"{shards} shard{s}"``);
    - ``scores``: a score's key (``good_shots``) -> a column's heading
      (``"successful shots"``);
    - ``contracts``: a contract as recorded (``supremacy``) -> its whole name
      (``"supremacy pact"``);
    - ``endings``: why a match ended, as its read models record it (``deck_empty``) ->
      words (``"the deck is empty"``).
    """

    awards: dict[str, str] = field(default_factory=dict)
    scores: dict[str, str] = field(default_factory=dict)
    contracts: dict[str, str] = field(default_factory=dict)
    endings: dict[str, str] = field(default_factory=dict)

    def __post_init__(self):
        # A template naming anything else would fail only when a result is shown: refuse
        # it where the game is declared.
        for kind, template in self.awards.items():
            named = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
            unknown = sorted(named - set(AWARD_FIELDS))
            if unknown:
                raise ValueError(
                    f"award {kind!r}: words {template!r} name {', '.join(unknown)}; "
                    f"they may name only {', '.join('{' + f + '}' for f in AWARD_FIELDS)}"
                )

    def award(self, kind: str, shards: int) -> str | None:
        """The words for an award of ``kind`` holding ``shards`` (None: none declared)."""
        template = self.awards.get(kind)
        return None if template is None else template.format(shards=shards, s="" if shards == 1 else "s")
