"""`messages`: what to send to whom after a close (or a photographer turn)."""

from __future__ import annotations

import json
import string

import click

from matchledger.ledger.errors import MalformedInput
from matchledger.projections.presentation.messages import compose, messages, messages_text
from matchledger.projections.presentation.printable import printable_json

from .files import write_outputs
from .options import read_options, view_options
from .output import emit_json, say
from .session import app

#: The characters a file name derived from a participant's name keeps as they are;
#: every other one (and a leading dot) is written as ``%XX`` of its UTF-8 bytes, so
#: that two names never give one file name and no name gives a path.
_KEPT = frozenset(string.ascii_letters + string.digits + "_-.")
#: The longest file name derived from a name (most file systems allow 255 bytes).
FILE_STEM_MAX = 200
PUBLIC_FILE = "public"


def file_stem(name: str) -> str:
    """The file name (without its suffix) of ``name``'s message: the name itself when it
    is made of letters, digits, ``_``, ``-`` and ``.`` (not leading), else escaped."""
    stem = "".join(
        ch
        if ch in _KEPT and not (index == 0 and ch == ".")
        else "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        for index, ch in enumerate(name)
    )
    if not stem or len(stem) > FILE_STEM_MAX:
        raise MalformedInput(f"participant {name!r} gives no usable file name (1 to {FILE_STEM_MAX} characters)")
    return stem


def _json_text(data: dict) -> bytes:
    return (printable_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n").encode("utf-8")


def message_files(data: dict, as_json: bool) -> dict[str, bytes]:
    """One file per message of ``data``: ``public.txt`` and ``NAME.txt`` (``.json``:
    what `messages --public --json` / `--as NAME --json` print)."""
    head = {key: data[key] for key in ("match", "game", "round", "seq", "deadline") if key in data}
    files: dict[str, bytes] = {}
    for message in messages(data):
        stem = PUBLIC_FILE if message.recipient is None else file_stem(message.recipient)
        if as_json:
            part = (
                {"public": data["public"]}
                if message.recipient is None
                else {"participants": {message.recipient: data["participants"][message.recipient]}}
            )
            body = _json_text({**head, **part})
        else:
            body = (message.text + "\n").encode("utf-8")
        name = f"{stem}.{'json' if as_json else 'txt'}"
        if name.lower() in {taken.lower() for taken in files}:
            raise MalformedInput(
                f"participant {message.recipient!r} would share the file {name!r}; nothing was written"
            )
        files[name] = body
    return files


@click.command("messages")
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--round", "round_no", type=int, metavar="N", help="Round N (photographer: turn N); default the last closed."
)
@view_options
@read_options
@click.option("-o", "--output", "folder", metavar="DIR", help="Write one file per message into DIR (made if missing).")
@click.option("--force", is_flag=True, help="With -o: replace files already in DIR.")
def messages_cmd(match_id, round_no, public, as_participant, at, as_json, folder, force):
    """Print the public post and each participant's message for a closed round or turn.

    Right after `close` (or a photographer turn): the public post, then one message
    per participant (players, then guests, each sorted by name), each under a heading
    of its own, ready to paste into a chat.  A participant's message says what their
    `knowledge` says of that round and nothing more; the public post what `reveals
    --public` says.  Both as they stood once the round was closed, whenever asked.
    --public prints only the public post, --as only that participant's message.

    -o DIR writes public.txt and NAME.txt for each participant (.json with --json)
    into DIR, each whole; a name that is not letters, digits, `_`, `-` and `.` is
    written escaped (%XX), so no file lands outside DIR.  A file already there is not
    replaced (and nothing is written) unless --force is given.

    \b
    Examples:
      matchledger messages m1
      matchledger messages m1 --as ann
      matchledger messages m1 --round 1 --json
      matchledger messages m1 -o round1/
    """
    if force and folder is None:
        raise click.UsageError("--force only applies with -o DIR")
    shown = app().announced(match_id, round_no, at, public=public, participant=as_participant)
    data = compose(
        shown.match, shown.game, shown.round, shown.seq, shown.public, shown.knowledge, shown.earlier, shown.deadline
    )
    if folder is not None:
        files = message_files(data, as_json)
        write_outputs(folder, files, replace=force)
        say(f"wrote {len(files)} file(s) into {folder}: {', '.join(files)}")
    elif as_json:
        emit_json(data)
    else:
        click.echo(messages_text(data))
