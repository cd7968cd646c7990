"""A game's one declaration: what the core, the doors and the tests need to know of it.

A game is a distribution that names a :class:`GameSpec` under the entry-point group
``matchledger.games`` (the three built-in games are registered the same way, in this
project's ``pyproject.toml``).  The spec is read at start-up, so it imports nothing of
the game: its parts are named by import path and loaded when first asked for (a
command needs one game, and most need only its rules).

Parts a spec names:

- ``engine``: the rules, a :class:`matchledger.engine.game.Game` (its options, notation,
  read models, explanation, sampler and legal choices are the Game's);
- ``setup``: the creation parameters `new` takes for the game (:class:`SetupParameter`);
- ``presentation``: a package with any of ``text``, ``picture`` and ``messages``
  modules (see :mod:`matchledger.projections.presentation.games`); without one, or
  without one of those modules, the generic presentation is used;
- ``words``: how its results read where its read models hold codes (:mod:`.words`);
- ``rules``: the rules document with its numbered rulings, a file inside the package
  named by ``engine``;
- ``code``: the packages whose source decides what a replay computes, hashed into the
  snapshot revision wherever they are installed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from .words import ResultWords

#: The kinds of game the engine knows: simultaneous rounds the host closes
#: (:mod:`.rounds`), or sequential turns resolved as they are submitted (:mod:`.turns`).
KINDS = ("rounds", "turns")
#: The kinds of creation parameter `new` can read (see :class:`SetupParameter`).
PARAMETER_KINDS = ("file", "integer", "seed", "pairs", "text")


@dataclass(frozen=True)
class SetupParameter:
    """One creation parameter of a game: an option of `matchledger new GAME`.

    ``kind`` says how the command line reads it:

    - ``file``: a file named on the command line, read as UTF-8 text of at most
      ``max_bytes`` bytes (``--studio FILE``);
    - ``integer`` / ``seed``: a whole number from ``minimum`` to ``maximum`` (a seed is
      secret: left out, one is drawn and recorded where the game asks for one);
    - ``pairs``: ``KEY=VALUE``, given once per pair (``--pair ann=zed --pair bob=yan``),
      read into a mapping;
    - ``text``: one line of text of at most ``max_bytes`` bytes.

    The value reaches the game's ``build_setup`` under ``name`` in ``CreateMatch.setup``.
    """

    name: str
    kind: str
    help: str
    example: str
    flag: str = ""  # the option's spelling; by default --NAME
    metavar: str = ""
    max_bytes: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    #: A seed's: who could then know what, once a guessable seed is found, in the game's
    #: words (the warning `new` prints for a small one).
    reveals: str = "whoever sees what it decided could then know all of it"

    def __post_init__(self):
        if self.kind not in PARAMETER_KINDS:
            raise ValueError(
                f"setup parameter {self.name!r}: kind {self.kind!r} is not one of {', '.join(PARAMETER_KINDS)}"
            )
        if not self.flag:
            object.__setattr__(self, "flag", "--" + self.name.replace("_", "-"))
        if not self.metavar:
            default = {"file": "FILE", "integer": "N", "seed": "N", "pairs": "KEY=VALUE", "text": "TEXT"}[self.kind]
            object.__setattr__(self, "metavar", default)
        if self.kind in ("file", "text") and self.max_bytes is None:
            raise ValueError(f"setup parameter {self.name!r}: a {self.kind} needs max_bytes")


@dataclass(frozen=True)
class GameSpec:
    """The declaration of one game (see the module's docstring)."""

    name: str
    title: str
    kind: str
    engine: str  # "package.module:ATTRIBUTE" of the Game
    summary: str = ""  # one line: what the game is, for `new --help`
    min_players: int = 2  # how many players the examples of `new --help` name
    setup: tuple[SetupParameter, ...] = ()
    presentation: str | None = None  # a package name
    rules: str | None = None  # "package:file name" of the rules document
    code: tuple[str, ...] = ()  # module or package names; by default the engine's package
    words: ResultWords = field(default_factory=ResultWords, compare=False)  # how its results read (words.py)
    _loaded: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"game {self.name!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if ":" not in self.engine:
            raise ValueError(f"game {self.name!r}: engine {self.engine!r} is not MODULE:ATTRIBUTE")
        if not self.code:
            # The engine's whole package (as the built-in games declare theirs): its module
            # alone would leave out the modules it imports, so a fix to how a round is
            # resolved would not change the snapshot revision.
            module = self.engine.partition(":")[0]
            object.__setattr__(self, "code", (module.rpartition(".")[0] or module,))

    def game(self):
        """The Game object (imported on first use)."""
        if "game" not in self._loaded:
            module, _, attribute = self.engine.partition(":")
            game = getattr(importlib.import_module(module), attribute)
            if game.name != self.name:
                raise ValueError(f"the entry point for game {self.name!r} names a game called {game.name!r}")
            self._loaded["game"] = game
        return self._loaded["game"]

    def parameter(self, name: str) -> SetupParameter | None:
        return next((p for p in self.setup if p.name == name), None)
