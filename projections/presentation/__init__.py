"""Presentation: everything a person reads or looks at, made from read-model dicts and
event bodies (no I/O, no clock).  Only :func:`.picture.read_models` touches a match
state, and only to ask the game for one view's read models.

Shared modules, each with one job:

- ``text``: the terminal text of a read model (the game's own, else the generic text
  of any dict) and aligned tables;
- ``layout``: the layout of ``outcome`` and ``reveals`` text that every game shares;
- ``wording``: counts with their plural, and values as a host types them (never a
  Python repr);
- ``events``: the one-line summary of an event (``log`` and the replay page);
- ``explanation``: the terminal text of ``explain``;
- ``svg``: a deterministic SVG writer;
- ``panels``: titled text tables beside a picture (and in the replay page), with the
  score and outcome panels the games share;
- ``picture``: a view's read models, and the whole picture of a match drawn from them;
- ``generic_picture`` / ``generic_messages``: the picture and the messages of a game
  without its own;
- ``png``: SVG to PNG;
- ``report``: the self-contained HTML replay page.

Each game's own presentation is the package its declaration names
(``GameSpec.presentation``, installed anywhere; the built-in games keep theirs in
``games/<name>/``), found through the engine's registry (see :mod:`.games`); a game
without one, or without one of its modules, gets the generic text, picture and messages.
"""
