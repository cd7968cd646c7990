"""Small helpers shared by the command modules: settings, views, output."""

from __future__ import annotations

import json
from pathlib import Path

import click


def settings():
    return click.get_current_context().find_root().obj


def ledger(create: bool = False):
    """The application on the --db file; only commands that may start a file (init, new,
    import, script, demo) pass ``create``: a read never leaves an empty file behind."""
    return settings().ledger_for(create)


def resolve_path(text: str) -> Path:
    """A file named on a command line.  Inside `script FILE`, a relative name that does
    not exist from the current directory is looked up beside the script, then in the
    folders above it (so a fixture naming `fixtures/lca/studio.txt` runs from anywhere)."""
    path = Path(text)
    if path.exists() or path.is_absolute():
        return path
    base = getattr(settings(), "script_dir", None)
    if base is not None:
        for folder in (base, *base.parents):
            if (folder / path).exists():
                return folder / path
    return path


def read_text(text: str, what: str) -> str:
    from matchledger.ledger.errors import MalformedInput

    path = resolve_path(text)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MalformedInput(f"cannot read {what} {text!r}: {exc.strerror or exc}") from None


def load_json_object(text: str, what: str) -> dict:
    from matchledger.ledger.codec import decode_json
    from matchledger.ledger.errors import MalformedInput

    try:
        payload = decode_json(read_text(text, what))
    except ValueError as exc:
        raise MalformedInput(f"{what} {text!r} is not valid JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise MalformedInput(f"{what} {text!r} must hold a JSON object")
    return payload


def key_values(pairs: tuple[str, ...], flag: str) -> dict[str, str]:
    from matchledger.ledger.errors import MalformedInput

    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise MalformedInput(f"{flag} takes KEY=VALUE, got {pair!r}")
        if key.strip() in result:
            raise MalformedInput(f"{flag} {key.strip()!r} is given twice")
        result[key.strip()] = value.strip()
    return result


def view_for(public: bool, as_participant: str | None, state):
    from matchledger.engine.base import HOST, PUBLIC
    from matchledger.engine.base import as_participant as participant_view
    from matchledger.ledger.errors import MalformedInput

    if public and as_participant:
        raise MalformedInput("give either --public or --as PARTICIPANT, not both")
    if public:
        return PUBLIC
    if as_participant:
        if as_participant not in state.participants:
            raise MalformedInput(
                f"--as {as_participant!r}: not a participant of {state.match_id!r} "
                f"(participants: {', '.join(state.participants)})"
            )
        return participant_view(as_participant)
    return HOST


def emit_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def describe_rows(rows) -> str:
    """One line for the terminal; with --log-json also a structured log record."""
    if rows and settings().log_json:
        from .cli import _log

        _log().info("events_appended", match=rows[0].match_id, seqs=[r.seq for r in rows],
                    kinds=[r.kind for r in rows], actor=rows[0].actor, head=rows[-1].hash)
    if not rows:
        return "nothing recorded"
    if len(rows) == 1:
        return f"recorded seq {rows[0].seq} ({rows[0].kind})"
    kinds = ", ".join(row.kind for row in rows)
    return f"recorded seq {rows[0].seq}–{rows[-1].seq} ({kinds})"


def view_options(fn):
    fn = click.option("--as", "as_participant", metavar="PARTICIPANT", help="That participant's view.")(fn)
    fn = click.option("--public", is_flag=True, help="Only what has been announced publicly.")(fn)
    return fn


def read_options(fn):
    fn = click.option("--at", "at", type=int, metavar="SEQ", help="The match as it stood after event SEQ.")(fn)
    fn = click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")(fn)
    return fn
