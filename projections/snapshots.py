"""State snapshots: the fold's result after some event, stored so a read can start there.

A snapshot is a cache, never a source of truth.  It is used only when all of these hold,
and otherwise ignored (the match is replayed from its first event):

- the event it was taken after is still in the log with the same hash (so any change to
  the log, even a consistent rewrite, makes it stale);
- it was written by the same revision of the code its game's fold runs (a hash of the
  core's engine modules, the event types, this module, and the game's own code wherever
  it is installed: :func:`revision`), so a rules fix never reads results the old code
  computed, and a fix to one game leaves the other games' snapshots in use;
- it decodes into the game's exactly-typed state (``Game.STATE_TYPE``).

``verify`` never starts from a snapshot, and reports one that differs from the state the
log gives.  Tests hold snapshot + tail equal to a full rebuild, state and read models.

Encoding: MessagePack through msgspec, typed on decode (tuple keys, frozensets and
dataclasses come back as themselves); fractions as [numerator, denominator].  Nothing in
a snapshot is executed: unlike a pickle, a snapshot from someone else's file cannot run
code on the reader's machine.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec

from matchledger import engine
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import MalformedInput, MatchledgerError

FORMAT = 1

#: The core's code that decides what any game's fold computes: the modules of the engine
#: package itself (not its games' packages), the event types and their upcasters, the
#: fold, and this module (the snapshot format).
_CORE_PACKAGE = "matchledger.engine"
_CORE_MODULES = ("matchledger.ledger.events", "matchledger.ledger.upcasters", "matchledger.projections.fold", __name__)


class SnapshotUnusable(MatchledgerError, RuntimeError):
    """A stored snapshot cannot be used (the caller replays from the start instead)."""


class _Envelope(msgspec.Struct, array_like=True, frozen=True):
    format: int
    game: str
    state: msgspec.Raw  # the MatchState without its game part
    game_state: msgspec.Raw  # state.g, typed by the game's STATE_TYPE


_INT64 = range(-(2**63), 2**63)


def _enc_hook(value: Any) -> Any:
    if isinstance(value, Fraction):
        if value.numerator in _INT64 and value.denominator in _INT64:
            return (value.numerator, value.denominator)
        return str(value)  # MessagePack integers stop at 64 bits; text has no limit
    raise NotImplementedError(f"a snapshot cannot hold {type(value).__name__}")


def _dec_hook(kind: type, value: Any) -> Any:
    if kind is Fraction:
        if type(value) is str:
            return Fraction(value)
        numerator, denominator = value
        return Fraction(numerator, denominator)  # normalizes; raises on a zero denominator
    raise NotImplementedError(f"a snapshot cannot hold {kind!r}")


_encoder = msgspec.msgpack.Encoder(enc_hook=_enc_hook)
_envelope_decoder = msgspec.msgpack.Decoder(_Envelope)
_state_decoder = msgspec.msgpack.Decoder(MatchState, dec_hook=_dec_hook)


@functools.cache
def _game_state_decoder(state_type: type) -> msgspec.msgpack.Decoder:
    return msgspec.msgpack.Decoder(state_type, dec_hook=_dec_hook)


def revision(game: str) -> str | None:
    """A digest of everything that decides what a fold of ``game`` computes: the core's
    code (:data:`_CORE_MODULES`, the engine package's own modules), the snapshot format,
    and the game's own code, each package or module its declaration names
    (``GameSpec.code``), found where it is installed.  Snapshots of another revision are
    ignored.  None when some of that source cannot be read (an install without .py
    files), or for a game that is not installed: snapshots are then neither written nor
    used, as a change of rules could not be told apart."""
    try:
        code = tuple(engine.spec(game).code)
    except MalformedInput:
        return None
    return _revision(code)


@functools.cache
def _revision(code: tuple[str, ...]) -> str | None:
    core = _core_files()
    own = _every_file([_source_files(name, every_level=True) for name in code])
    if core is None or not own:  # empty only when the declaration names no code
        return None
    digest = hashlib.sha256(f"matchledger snapshot format {FORMAT}\n".encode())
    try:
        for label, path in [*core, *own]:
            digest.update(label.encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()[:32]


@functools.cache
def _core_files() -> list[tuple[str, Path]] | None:
    parts = [_source_files(_CORE_PACKAGE, every_level=False), *(_source_files(name) for name in _CORE_MODULES)]
    return _every_file(parts)


def _every_file(parts: list[list[tuple[str, Path]] | None]) -> list[tuple[str, Path]] | None:
    """The files of every part, in order; None when the source of one cannot be read."""
    files: list[tuple[str, Path]] = []
    for part in parts:
        if part is None:
            return None
        files += part
    return files


def _source_files(name: str, every_level: bool = True) -> list[tuple[str, Path]] | None:
    """(label, path) of each source file of the module or package ``name`` where it is
    installed: a module's file; a package's ``.py`` files, in its subpackages too unless
    ``every_level`` is false, sorted.  A label is the file's place inside the package,
    never where it is installed, so the same code gives the same revision on every
    machine (an exported checkpoint is taken up by the importer's).  None when there is
    no source to read."""
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if found is None:
        return None
    if found.submodule_search_locations is not None:  # a package
        files = []
        for folder in found.submodule_search_locations:
            root = Path(folder)
            paths = root.rglob("*.py") if every_level else root.glob("*.py")
            files += [(f"{name}/{path.relative_to(root).as_posix()}", path) for path in sorted(paths)]
        return files or None
    if not found.origin or not found.origin.endswith(".py"):
        return None  # built in, compiled, or bytecode only
    return [(name, Path(found.origin))]


def can_snapshot(state: MatchState) -> bool:
    return revision(state.game) is not None and engine.get(state.game).STATE_TYPE is not None


def encode_state(state: MatchState) -> bytes:
    """The snapshot bytes of ``state`` (which is not changed)."""
    if not can_snapshot(state):
        raise SnapshotUnusable(f"game {state.game!r} declares no STATE_TYPE")
    without_game = dataclasses.replace(state, g=None)
    try:
        return _encoder.encode(
            _Envelope(
                FORMAT,
                state.game,
                msgspec.Raw(_encoder.encode(_fields(without_game))),
                msgspec.Raw(_encoder.encode(state.g)),
            )
        )
    except (msgspec.EncodeError, OverflowError, TypeError, NotImplementedError) as exc:
        raise SnapshotUnusable(f"the state of {state.match_id!r} cannot be stored as a snapshot: {exc}") from None


#: Fields of the state added after snapshots were first stored, left out while they hold
#: their default: the state of a match that never used them encodes to the very bytes it
#: did before they existed (the decoder fills the default back in).
_LEFT_OUT_AT_DEFAULT = {"deadlines": {}, "deadline_each": 0, "deadline_remind": 0}


def _fields(state: MatchState) -> dict[str, Any]:
    """``state``'s fields in their declared order, as the encoder writes a dataclass, but
    for those of :data:`_LEFT_OUT_AT_DEFAULT` at their default."""
    return {
        field.name: value
        for field in dataclasses.fields(state)
        if (value := getattr(state, field.name)) != _LEFT_OUT_AT_DEFAULT.get(field.name, _ABSENT)
    }


_ABSENT = object()


def digest(body: bytes) -> str:
    """What a ``StateCheckpointed`` event records of a snapshot's bytes (sha256, hex)."""
    return hashlib.sha256(body).hexdigest()


def encode_if_possible(state: MatchState) -> bytes | None:
    """``encode_state``, or None when ``state`` cannot be stored (a cache: the command is
    recorded all the same, and reads replay from the first event)."""
    if not can_snapshot(state):
        return None
    try:
        return encode_state(state)
    except SnapshotUnusable:
        return None


def decode_state(body: bytes) -> MatchState:
    """The state a snapshot holds; raises :class:`SnapshotUnusable` when it cannot be
    read back exactly (another format, an unknown game, bytes that do not fit the types)."""
    try:
        envelope = _envelope_decoder.decode(body)
        if envelope.format != FORMAT:
            raise SnapshotUnusable(f"snapshot format {envelope.format}, this version reads {FORMAT}")
        try:
            game = engine.get(envelope.game)
        except MalformedInput:
            raise SnapshotUnusable(f"snapshot of unknown game {envelope.game!r}") from None
        state_type = game.STATE_TYPE
        if state_type is None:
            raise SnapshotUnusable(f"game {envelope.game!r} takes no snapshots")
        state = _state_decoder.decode(envelope.state)
        state.g = _game_state_decoder(state_type).decode(envelope.game_state)
    except (
        msgspec.DecodeError,
        msgspec.ValidationError,
        ValueError,
        TypeError,
        ZeroDivisionError,
        IndexError,
        KeyError,
        AttributeError,
    ) as exc:
        raise SnapshotUnusable(f"snapshot does not decode: {exc}") from None
    if state.game != envelope.game:
        raise SnapshotUnusable(f"snapshot says game {envelope.game!r} but holds a {state.game!r} state")
    return state


def holds_another_state(body: bytes, state: MatchState) -> bool:
    """Whether the snapshot ``body`` holds a state other than ``state`` (the rebuild at
    the same event): what verify reports.  One that cannot be read is not reported, as
    reads ignore it too."""
    try:
        if encode_state(state) == body:  # the common case: the same bytes
            return False
        # Equal states may still encode differently (a set's iteration order depends on
        # how it was built), so only a decoded comparison can say they differ.
        return decode_state(body) != state
    except SnapshotUnusable:
        return False
