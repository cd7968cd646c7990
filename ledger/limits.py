"""Every limit on what matchledger accepts, named in one place.

Input is bounded and validated before anything is written (docs/design.md, "Trust
boundary"); each command's memory and time then stay bounded on the largest legal
input.  docs/guarantees.md lists each limit with the test that enforces it.  A game's
own limits (a studio's size, a deck file's) are the game's, kept with its declaration
(``engine/GAME/spec.py``).
"""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- names and text

#: A match id: letters, digits, ``.``, ``_`` and ``-``, 1 to 64 of them.
MATCH_ID = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
#: A participant's name: at most this many characters, printable, no control
#: characters, unique in a match ignoring case, not a reserved word, not starting with "-".
NAME_MAX_LENGTH = 40
RESERVED_NAMES = frozenset({"host", "public"})
#: Who records events (``--actor``): printable, at most this many characters.
ACTOR_MAX_LENGTH = 64
#: A note or a reason: printable (no control characters, no line breaks), at most this many.
TEXT_MAX_LENGTH = 2_000
#: Participants in one match (players and, in pw, guests).
PARTICIPANTS_MAX = 26
#: Tokens in one submission, and characters in one token: the longest legal token names
#: two participants (pw ``guess:PLAYER=GUEST``, 6 + 40 + 1 + 40 = 87 characters).
TOKENS_MAX = 32
TOKEN_MAX_LENGTH = 96

# --------------------------------------------------------------------------- files

#: Bytes read from a file named on a command line, by what it holds (a game's own
#: files, such as a studio or a deck, are bounded by the game's declaration).
SCRIPT_FILE_MAX_BYTES = 4 * 1024 * 1024
ANNOUNCED_FILE_MAX_BYTES = 1024 * 1024
EXPORT_FILE_MAX_BYTES = 64 * 1024 * 1024
#: How deeply JSON (an announced file, an imported body) may nest.
JSON_MAX_DEPTH = 32

# --------------------------------------------------------------------------- pictures and the database

#: Pixels of a picture: its SVG canvas, and so the PNG drawn from it; and either side
#: of a PNG (cairo draws no wider or higher).
PNG_MAX_PIXELS = 25_000_000
PNG_MAX_SIDE = 32_767
#: How long a command waits for another writer's lock before giving up, in seconds.
LOCK_TIMEOUT_SECONDS = 10
