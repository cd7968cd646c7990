"""What a host sends when a round closes (or after a photographer turn): the public post
and one message per participant, ready to paste into a chat.

Each message is built from one read model only: the public post from `reveals --public`,
a participant's message from their `knowledge --as` (as both stood once the close was
recorded), by the game's ``messages`` module (:mod:`.games`), or for a game without
one by the generic messages (:mod:`.generic_messages`); the text is then written from
that message alone.  So no message can say more than its read model, which is
allow-listed for its viewer.

The JSON form (`messages --json`)::

    {"match": "m1", "game": "lca", "round": 1, "seq": 18,
     "public": {...},                    # not with --as
     "corrects": {"seq": 12, "public": {...}},  # a round closed again: the post it replaces
     "participants": {"ann": {...}, …}}  # not with --public; players, then guests, each sorted

A round reopened and closed again (or a photographer turn played again) is announced
anew, so its public post begins by saying that it corrects the earlier one and which of
its lines changed: nobody reading the channel takes it for a new round.
"""

from __future__ import annotations

import difflib
import functools
from typing import NamedTuple

from matchledger import engine

from . import generic_messages
from .games import presentation_module
from .printable import printable, printable_data


class Message(NamedTuple):
    """One message's text (printable); ``recipient``: the participant's name as stored,
    None for the public post."""

    recipient: str | None
    text: str

    @property
    def heading(self) -> str:
        return "public post" if self.recipient is None else f"to {printable(self.recipient)}"


class _Generic:
    """The generic messages in the words of ``game`` (a round, or a turn)."""

    def __init__(self, word: str):
        self.word = word
        self.public_message = generic_messages.public_message
        self.participant_message = generic_messages.participant_message

    def public_lines(self, match: str, message: dict) -> list[str]:
        return generic_messages.public_lines(match, message, self.word)

    def participant_lines(self, match: str, name: str, message: dict) -> list[str]:
        return generic_messages.participant_lines(match, name, message, self.word)


@functools.cache
def _generic(word: str) -> _Generic:
    return _Generic(word)


def messages_of(game: str):
    """``game``'s messages module: its own, else the generic messages."""
    return presentation_module(game, "messages") or _generic(engine.get(game).ROUND_WORD)


def compose(
    match: str,
    game: str,
    round_no: int,
    seq: int,
    public: dict | None,
    knowledge: dict[str, dict],
    earlier: tuple[int, dict] | None = None,
    deadline: dict | None = None,
) -> dict:
    """The messages of round (or turn) ``round_no``, as JSON: the public post from
    ``public`` (`reveals --public`; None: not asked for) and each participant's message
    from their ``knowledge``, in the order given; ``earlier``: the seq and `reveals
    --public` of the close this one replaces (a round closed again); ``deadline``: the
    next round's, set with the close (public: every message says it)."""
    own = messages_of(game)
    data: dict = {"match": match, "game": game, "round": round_no, "seq": seq}
    if deadline is not None and deadline.get("at"):
        data["deadline"] = deadline
    if public is not None:
        data["public"] = own.public_message(public, round_no)
        if earlier is not None:
            data["corrects"] = {"seq": earlier[0], "public": own.public_message(earlier[1], round_no)}
    if knowledge:
        data["participants"] = {name: own.participant_message(known, round_no) for name, known in knowledge.items()}
    return data


def messages(data: dict) -> list[Message]:
    """Each message of :func:`compose`'s ``data`` as text, its stored names escaped."""
    own = messages_of(data["game"])
    match = printable(data["match"])
    out = []
    due = _deadline_lines(data)
    if "public" in data:
        public = printable_data(data["public"])
        body = own.public_lines(match, public)
        if "corrects" in data:
            before = own.public_lines(match, printable_data(data["corrects"]["public"]))
            body = correction_lines(data, before, body) + body
        body += due
        out.append(Message(None, "\n".join(body)))
    for name, message in data.get("participants", {}).items():
        message = printable_data(message)
        body = own.participant_lines(match, printable(name), message) + due
        out.append(Message(name, "\n".join(body)))
    return out


def correction_lines(data: dict, before: list[str], after: list[str]) -> list[str]:
    """What a post that replaces an earlier one says first: which post it corrects, and
    each line that changed (was, now), or that none did."""
    word = engine.get(data["game"]).ROUND_WORD
    said = [f"Correction: this replaces the post of {word} {data['round']} (after event {data['corrects']['seq']})."]
    changed = [
        ("was: " if line[0] == "-" else "now: ") + line[2:]
        for line in difflib.ndiff(before, after)
        if line[:2] in ("- ", "+ ")
    ]
    said += ["What changed:", *(f"  {line}" for line in changed)] if changed else ["Nothing in the post changed."]
    return [*said, ""]


def _deadline_lines(data: dict) -> list[str]:
    """The line every message ends with when the next round has a deadline."""
    deadline = data.get("deadline")
    if not deadline:
        return []
    deadline = printable_data(deadline)
    return [f"Deadline for {deadline.get('unit', 'round')} {deadline.get('round')}: {deadline.get('at')} (UTC)"]


def messages_text(data: dict) -> str:
    """Every message under a heading of its own (``=== to ann ===``), a blank line between."""
    return "\n\n".join(f"=== {message.heading} ===\n{message.text}" for message in messages(data))
