"""`hook`: posts to the channel.  A running `serve` posts the public post of each close
(or photographer turn, or the end of the match) to the hooks a host added (docs/service.md,
"Posts to the channel")."""

from __future__ import annotations

import click

from .output import emit_json, say
from .session import app

#: What `hook add` posts when not told (--on).
DEFAULT_KINDS = "close,finished"


def _kinds(text: str) -> list[str]:
    return [kind.strip() for kind in text.split(",") if kind.strip()]


@click.group("hook")
def hook_cmd():
    """Post each close to a chat channel: add, list and remove the hooks `serve` posts to.

    `hook add MATCH URL` makes a running `serve` POST the public post of `messages`
    (only what `reveals --public` holds) to URL after each later close of MATCH (a
    photographer turn too) and at its end, as Discord's webhook body or as JSON, signed
    with a secret shown once (X-Matchledger-Signature).  Failed posts are tried again a
    few times; `hook list` shows each delivery's outcome.  Hooks are kept beside the
    links, never in the event log or an export.

    \b
    Examples:
      matchledger hook add m1 https://discord.com/api/webhooks/ID/TOKEN
      matchledger hook add m1 https://bot.example.org/matchledger --on close,finished --format json
      matchledger hook list m1
      matchledger hook remove h0123456789abcdef
    """


@hook_cmd.command("add")
@click.argument("match_id", metavar="MATCH")
@click.argument("url", metavar="URL")
@click.option(
    "--on",
    "kinds",
    default=DEFAULT_KINDS,
    show_default=True,
    metavar="KINDS",
    help="What to post, comma-separated: close (a round closed, or a photographer turn), turn, finished "
    "(the end of the match, posted once in place of its last close), deadline, reminder.",
)
@click.option(
    "--format",
    "format_",
    type=click.Choice(["discord", "json"]),
    default="discord",
    show_default=True,
    help='discord: {"content": TEXT}, split at line ends into posts of at most 2000 characters; json: '
    "match, kind, seq, round, text and the post's parts.",
)
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def hook_add_cmd(match_id, url, kinds, format_, as_json):
    """Add a hook: `serve` posts MATCH's later public posts to URL (http or https).

    Prints the hook's id and its secret, shown only now: the receiver checks each
    post's signature with it (docs/service.md).  The database keeps the secret (it is
    needed to sign), as it keeps the links' token hashes.
    """
    hook = app(write=True).add_hook(match_id, url, _kinds(kinds), format_)
    if as_json:
        emit_json({**_hook_json(hook), "secret": hook.secret})
        return
    say(f"hook {hook.hook_id} on {match_id}: posts {', '.join(hook.kinds)} to {_printable(hook.url)} as {hook.format}")
    say(f"secret (shown once; the receiver checks X-Matchledger-Signature with it): {hook.secret}")


@hook_cmd.command("list")
@click.argument("match_id", metavar="MATCH", required=False)
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def hook_list_cmd(match_id, as_json):
    """List the hooks (of MATCH, or of every match) and each delivery's attempts; no secret."""
    standings = app().hooks(match_id)
    listed = [
        {**_hook_json(standing.hook), "deliveries": [_delivery_json(d) for d in standing.deliveries]}
        for standing in standings
    ]
    if as_json:
        emit_json(listed)
        return
    where = f" of {match_id}" if match_id is not None else ""
    active = sum(hook["removed_at"] is None for hook in listed)
    say(f"hooks{where}: {len(listed)}, {active} active")
    for hook in listed:
        removed = f", removed at {hook['removed_at']}" if hook["removed_at"] else ""
        say(
            f"{hook['id']} on {hook['match']}: {', '.join(hook['on'])} to {_printable(hook['url'])} as "
            f"{hook['format']} (added {hook['created_at']}{removed})"
        )
        for delivery in hook["deliveries"]:
            tries = "; ".join(_attempt_text(attempt) for attempt in delivery["attempts"]) or "not tried yet"
            say(f"  seq {delivery['seq']} {delivery['kind']}: {delivery['state']} ({tries})")


@hook_cmd.command("remove")
@click.argument("hook_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def hook_remove_cmd(hook_id, as_json):
    """Remove the hook ID (`hook list` shows the ids): nothing more is posted to it."""
    hook, was_active = app(write=True).remove_hook(hook_id)
    if as_json:
        emit_json({**_hook_json(hook), "was_active": was_active})
    elif was_active:
        say(f"hook {hook.hook_id} on {hook.match_id} removed: nothing more is posted to it")
    else:
        say(f"hook {hook.hook_id} on {hook.match_id} was already removed at {hook.removed_at}")


def _hook_json(hook) -> dict:
    return {
        "id": hook.hook_id,
        "match": hook.match_id,
        "url": _printable(hook.url),
        "on": list(hook.kinds),
        "format": hook.format,
        "created_at": _printable(hook.created_at),
        "removed_at": None if hook.removed_at is None else _printable(hook.removed_at),
    }


def _delivery_json(delivery) -> dict:
    return {
        "seq": delivery.seq,
        "kind": delivery.kind,
        "state": delivery.state,
        "claimed_at": _printable(delivery.claimed_at),
        "attempts": [
            {"at": _printable(a.at), "status": a.status, "error": None if a.error is None else _printable(a.error)}
            for a in delivery.attempts
        ],
    }


def _attempt_text(attempt: dict) -> str:
    outcome = f"HTTP {attempt['status']}" if attempt["status"] is not None else attempt["error"] or "no answer"
    return f"{attempt['at']} {outcome}"


def _printable(text: str) -> str:
    """Stored text (a database may hold anything) made safe for a terminal."""
    from matchledger.projections.presentation.printable import printable

    return printable(text)
