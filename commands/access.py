"""Links to the service: `invite` issues a capability token for one match and one role,
`revoke` withdraws one.  A token is printed once, here; the database keeps its hash."""

from __future__ import annotations

import os

import click

from matchledger.ledger.errors import CorruptLog, MalformedInput, UnwritableDatabase
from matchledger.ledger.service_addresses import BASE_URL_MAX_LENGTH, GIVEN, well_formed_base_url

from .options import usage_error
from .output import emit_json, say
from .session import app

#: Where `serve` is reached from outside, for the links `invite` prints.
BASE_URL_VARIABLE = "MATCHLEDGER_BASE_URL"
DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def service_address(value: str | None) -> str:
    """The service's address as participants reach it: http(s)://host[:port][/prefix]."""
    url = (value or os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL).rstrip("/")
    if not well_formed_base_url(url):
        too_long = len(url) > BASE_URL_MAX_LENGTH
        shown = repr(url[:80]) + "..." if too_long else repr(url)
        raise MalformedInput(
            f"--base-url {shown}: give the service's address as http(s)://HOST[:PORT][/PREFIX]"
            + (f", at most {BASE_URL_MAX_LENGTH} characters" if too_long else "")
        )
    return url


def recorded_address(application) -> tuple[str, str]:
    """Where links lead when the host did not say (no --base-url, no MATCHLEDGER_BASE_URL):
    the address `serve` recorded in the database, else the default; and a line saying so."""
    try:
        recorded = application.service_address()
    except CorruptLog as exc:
        raise MalformedInput(f"{exc}; give --base-url URL, or run serve to record its address again") from None
    except UnwritableDatabase as exc:  # a host role not granted the table (docs/deploy.md): links all the same
        return DEFAULT_BASE_URL, (
            f"links lead to {DEFAULT_BASE_URL}: the address serve recorded was not read ({exc}); give --base-url URL"
        )
    if recorded is None:
        return DEFAULT_BASE_URL, (
            f"links lead to {DEFAULT_BASE_URL}: no serve has recorded its address in {application.location!r} "
            "(run serve first, or give --base-url URL)"
        )
    how = "was given (--base-url)" if recorded.source == GIVEN else "listened on"
    return recorded.url, (
        f"links lead to {recorded.url}, the address serve {how} at {recorded.recorded_at} "
        "(--base-url URL gives another)"
    )


def link(base: str, role: str, token: str) -> str:
    return f"{base}/{'a' if role == 'auditor' else 'p'}/{token}"


#: Hex digits of a token's stored hash that name its link in `invite --list`: enough to
#: tell links apart, nothing to open one with (the hash of a token is no token).
LINK_ID_DIGITS = 12


@click.command("invite")
@click.argument("match_id", metavar="MATCH", required=False)
@click.option(
    "--list",
    "listing",
    is_flag=True,
    help="List the links issued (of MATCH, or of every match), revoked or not; no token is shown.",
)
@click.option("--as", "as_participant", metavar="PARTICIPANT", help="A participant's link: their own view.")
@click.option(
    "--submit",
    "can_submit",
    is_flag=True,
    help="With --as: the link may also record the participant's own submissions.",
)
@click.option("--auditor", is_flag=True, help="An auditor's link: the whole log (export), nothing written.")
@click.option(
    "--base-url",
    metavar="URL",
    help=f"The service's address as others reach it (env {BASE_URL_VARIABLE}; default: the one `serve` "
    f"recorded in the database, else {DEFAULT_BASE_URL}).",
)
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def invite_cmd(match_id, listing, as_participant, can_submit, auditor, base_url, as_json):
    """Issue a link to MATCH through `serve`: a participant's own page, or an auditor's.

    The link leads to --base-url, else to MATCHLEDGER_BASE_URL, else to the address the
    last `serve` on this database recorded (the --base-url it was given, or the port it
    listens on), else to http://127.0.0.1:8000; invite says which when not told.

    The token in the link is shown only now: the database keeps its sha256, never the
    token, and never in the event log or an export.  Each link is for one match and one
    role; `revoke TOKEN` withdraws it.  `--list` shows every link issued (match, role,
    participant, whether it may submit, when issued and revoked, and an id: the first
    digits of its token's stored hash), so that a link nobody issued here is seen.

    \b
    Examples:
      matchledger invite m1 --as ann --submit      # ann reads her view and submits
      matchledger invite m1 --as bob               # bob reads only
      matchledger invite m1 --auditor --json
      matchledger invite m1 --as ann --base-url https://games.example.org
      matchledger invite --list                    # every link issued, no token
      matchledger invite m1 --list --json
    """
    if listing:
        if as_participant is not None or auditor or can_submit or base_url is not None:
            raise usage_error("--list lists the links issued; it takes no --as, --auditor, --submit or --base-url")
        _list_links(match_id, as_json)
        return
    if match_id is None:
        raise usage_error("invite needs the MATCH to issue a link to (or --list)")
    if auditor == (as_participant is not None):
        raise usage_error("invite either a participant (--as NAME) or an auditor (--auditor)")
    if auditor and can_submit:
        raise usage_error("--submit is for a participant; an auditor reads only")
    told = base_url or os.environ.get(BASE_URL_VARIABLE)
    how = None  # what invite says of the address when the host did not give it
    if told:
        try:
            base = service_address(base_url)
        except MalformedInput as exc:
            raise usage_error(str(exc)) from None
    application = app(write=True)
    if not told:
        base, how = recorded_address(application)  # read before the link is issued: a refusal issues none
    token, capability = application.invite(match_id, participant=as_participant, auditor=auditor, can_submit=can_submit)
    url = link(base, capability.role, token)
    if as_json:
        emit_json(
            {
                "match": match_id,
                "role": capability.role,
                "participant": capability.participant,
                "can_submit": capability.can_submit,
                "url": url,
                "token": token,
            }
        )
        if how is not None:
            say(how, err=True)
        return
    if capability.participant is None:  # an auditor's link: invite refuses one naming both or neither
        who = "auditor"
    else:
        who = capability.participant + (" (read and submit)" if can_submit else " (read only)")
    say(f"link for {who} in {match_id}: {url}")
    if how is not None:
        say(how, err=True)


def _list_links(match_id: str | None, as_json: bool) -> None:
    from matchledger.projections.presentation.text import table
    from matchledger.projections.presentation.wording import plural

    links = [
        {
            "id": capability.token_hash[:LINK_ID_DIGITS],
            "match": capability.match_id,
            "role": capability.role,
            "participant": capability.participant,
            "can_submit": capability.can_submit,
            "issued_at": capability.created_at,
            "revoked_at": capability.revoked_at,
        }
        for capability in app().capabilities(match_id)
    ]
    if as_json:
        emit_json(links)
        return
    where = f" of {match_id}" if match_id is not None else ""
    say(
        f"links issued{where}: {plural(len(links), 'link')}, {sum(link['revoked_at'] is None for link in links)} active"
    )
    if links:
        rows = [
            {
                **link,
                "participant": link["participant"] or "-",
                "can_submit": "yes" if link["can_submit"] else "no",
                "revoked_at": link["revoked_at"] or "-",
            }
            for link in links
        ]
        click.echo("\n".join(table(rows)))


@click.command("revoke")
@click.argument("token")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def revoke_cmd(token, as_json):
    """Withdraw a link issued by `invite`: its token no longer opens anything.

    TOKEN is the token `invite` printed, or the whole link.

    \b
    Example:
      matchledger revoke Zq3…   # the token, as `invite` printed it
      matchledger revoke http://127.0.0.1:8000/p/Zq3…   # or the whole link
    """
    capability, was_active = app(write=True).revoke(token.rpartition("/")[2])
    if as_json:
        emit_json(
            {
                "match": capability.match_id,
                "role": capability.role,
                "participant": capability.participant,
                "revoked_at": capability.revoked_at,
                "was_active": was_active,
            }
        )
        return
    who = capability.participant or "auditor"
    state = "revoked" if was_active else f"was already revoked at {capability.revoked_at}"
    say(f"link for {who} in {capability.match_id} {state}")
