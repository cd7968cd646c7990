"""Checks of what a host types or hands over, against the limits of :mod:`.limits`.

Each check raises :class:`MalformedInput` naming the rule and quoting the value (its
``repr``, so a control character shows as an escape); the engine and the application
call them where a value enters, before anything is written.  A check of what was given
for a parameter (``reason``, ``option``) names the parameter as a field, for each door
to word (:class:`InvalidParameter`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .codec import encode
from .errors import InvalidActor, InvalidParameter, InvalidToken, MalformedInput, TooManyTokens
from .limits import (
    ACTOR_MAX_LENGTH,
    JSON_MAX_DEPTH,
    MATCH_ID,
    NAME_MAX_LENGTH,
    PARTICIPANTS_MAX,
    RESERVED_NAMES,
    TEXT_MAX_LENGTH,
    TOKEN_MAX_LENGTH,
    TOKENS_MAX,
)

#: How much of an offending value a message quotes.
QUOTED_MAX = 80


def quoted(value: Any) -> str:
    """``repr`` of ``value``, cut short when it is long (the message stays one line)."""
    if isinstance(value, str) and len(value) > QUOTED_MAX:
        return f"{value[:QUOTED_MAX]!r}… ({len(value)} characters)"
    return repr(value)


def check_match_id(match_id: Any) -> str:
    """A match id: 1 to 64 letters, digits, ``.``, ``_`` or ``-``."""
    if not isinstance(match_id, str) or not MATCH_ID.match(match_id):
        raise MalformedInput(
            f"match id {quoted(match_id)}: a match id is 1 to 64 characters, each an ASCII letter, a digit, "
            "'.', '_' or '-'"
        )
    return match_id


def check_name(name: Any, what: str = "participant name") -> str:
    """A participant's name: letters, digits, ``-``, ``_`` and ``.``, at most
    NAME_MAX_LENGTH of them, not starting with ``-``, not a reserved word."""
    if not isinstance(name, str) or not name:
        raise MalformedInput(f"{what} {quoted(name)}: a name needs at least one letter or digit")
    if len(name) > NAME_MAX_LENGTH:
        raise MalformedInput(f"{what} {quoted(name)}: a name is at most {NAME_MAX_LENGTH} characters")
    if not name.isprintable():
        raise MalformedInput(f"{what} {quoted(name)}: a name holds no control or other unprintable characters")
    if not name.replace("-", "").replace("_", "").replace(".", "").isalnum():
        raise MalformedInput(f"{what} {quoted(name)}: a name is letters, digits, '-', '_' and '.' only")
    if name.startswith("-"):
        raise MalformedInput(f"{what} {quoted(name)}: a name may not start with '-' (it would read as an option)")
    if name.casefold() in RESERVED_NAMES:
        raise MalformedInput(f"{what} {quoted(name)}: {', '.join(sorted(RESERVED_NAMES))} are reserved for views")
    return name


def check_distinct_names(names: Iterable[str]) -> None:
    """Every participant of a match once, ignoring case, and at most PARTICIPANTS_MAX."""
    names = list(names)
    if len(names) > PARTICIPANTS_MAX:
        raise MalformedInput(f"{len(names)} participants: a match has at most {PARTICIPANTS_MAX}")
    seen: dict[str, str] = {}
    for name in names:
        folded = name.casefold()
        if folded in seen:
            first = seen[folded]
            if first == name:
                raise MalformedInput(f"participant {quoted(name)} is listed twice")
            raise MalformedInput(
                f"participants {quoted(first)} and {quoted(name)} differ only in case; names must differ ignoring case"
            )
        seen[folded] = name


def check_actor(actor: Any) -> str:
    """Who records events: 1 to ACTOR_MAX_LENGTH printable characters."""
    if not isinstance(actor, str) or not actor or len(actor) > ACTOR_MAX_LENGTH or not actor.isprintable():
        raise InvalidActor(actor, quoted(actor), ACTOR_MAX_LENGTH)
    return actor


def check_text(text: Any, what: str) -> str:
    """A note or a reason (``what``: the parameter that gives it): printable (no control
    characters, no line breaks), at most TEXT_MAX_LENGTH characters."""
    if not isinstance(text, str):
        raise InvalidParameter(what, text, "expected text", shown=quoted(text))
    if len(text) > TEXT_MAX_LENGTH:
        raise InvalidParameter(what, text, f"at most {TEXT_MAX_LENGTH} characters", shown=quoted(text))
    if not text.isprintable():
        raise InvalidParameter(what, text, "one line of printable text, with no control characters", shown=quoted(text))
    return text


def check_tokens(tokens: Iterable[Any], what: str = "submission") -> None:
    """At most TOKENS_MAX tokens, each printable and at most TOKEN_MAX_LENGTH characters
    (``what``: the parameter that gives them)."""
    tokens = list(tokens)
    if len(tokens) <= TOKENS_MAX:  # the common case, in one pass; anything else is worded below
        for token in tokens:
            if token.__class__ is not str or len(token) > TOKEN_MAX_LENGTH or not token.isprintable():
                break
        else:
            return
    if len(tokens) > TOKENS_MAX:
        raise TooManyTokens(what, len(tokens), TOKENS_MAX)
    for token in tokens:
        if not isinstance(token, str) or len(token) > TOKEN_MAX_LENGTH or not token.isprintable():
            raise InvalidToken(
                what, token, f"a token is at most {TOKEN_MAX_LENGTH} printable characters", shown=quoted(token)
            )


def json_depth(value: Any) -> int:
    """How deeply ``value`` (decoded JSON) nests: 0 for a scalar, 1 for a flat list or
    object, and so on (walked without recursion, so any depth can be measured)."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def check_json(value: Any, what: str, max_bytes: int) -> None:
    """JSON a host hands over: nested at most JSON_MAX_DEPTH deep, at most ``max_bytes``
    once encoded."""
    depth = json_depth(value)
    if depth > JSON_MAX_DEPTH:
        raise MalformedInput(f"{what} nests {depth} levels deep; at most {JSON_MAX_DEPTH}")
    size = len(encode(value))
    if size > max_bytes:
        raise MalformedInput(f"{what} is {size} bytes of JSON; at most {max_bytes}")
