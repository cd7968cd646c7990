"""The one-line summary of an event that `log` lists and the replay page shows beside
each step: what the event says, and why for amendments and corrections.  It is given
what the view may see of the event (``projections.views.event_view``), never more.

Values are written in the notation a host types on the command line (docs/design.md), never
as Python writes them: ``true``/``false``, ``row_points=1:1,2:3,…``, tokens separated by
spaces.  An event kind without a summary of its own (one added later) is shown as its
fields, ``key=value``, in the same notation."""

from __future__ import annotations

from ..deadlines import period_text
from .printable import printable
from .wording import notation

#: Fields of a body that say nothing about what happened (the tag, the schema version,
#: the host's salt).
_BOOKKEEPING = ("type", "v", "salt")


def _tokens(body: dict, key: str = "tokens") -> str:
    tokens = body.get(key, [])
    if isinstance(tokens, str):  # a version 1 submission's body, as the host's log shows it
        tokens = tokens.split()
    return " ".join(notation(token) for token in tokens)


def _why(body: dict) -> str:
    return f" — {body['reason']}" if body.get("reason") else ""


def _fields(body: dict) -> str:
    return " ".join(f"{key}={notation(value)}" for key, value in body.items() if key not in _BOOKKEEPING)


_SUMMARIES = {
    "MatchCreated": lambda b: f"{b['game']} with {', '.join(b['players'])}",
    # (a version 1 body names the submitter `player`: ledger/upcasters.py)
    "SubmissionRecorded": lambda b: f"{b.get('participant', b.get('player'))} round {b['round']}: {_tokens(b)}",
    "ContractRecorded": lambda b: f"{b['participant']}: {_tokens(b, 'contracts')}",
    "RoundClosed": lambda b: (
        f"round {b['round']} closed ({b.get('source', 'computed')} announcement)"
        + (f", forced without {', '.join(b.get('missing', []))}{_why(b)}" if "reason" in b else "")
    ),
    "TurnResolved": lambda b: f"turn {b['turn']} by {b['participant']}",
    "OutcomeAnnounced": lambda b: f"final outcome ({b.get('source', 'computed')})",
    "RuleAmended": lambda b: f"{b['option']}={notation(b['value'])} from round {b['from_round']}{_why(b)}",
    "SubmissionVoided": lambda b: f"voids seq {b['target_seq']}{_why(b)}",
    "SubmissionCorrected": lambda b: f"corrects seq {b['target_seq']} to {_tokens(b)}{_why(b)}",
    "RoundReopened": lambda b: f"round {b['round']} reopened{_why(b)}",
    "NoteAdded": lambda b: b["text"],
    "MatchAbandoned": lambda b: f"match abandoned{_why(b)}",
    "DeadlineSet": lambda b: (
        ", ".join(
            part
            for part in (
                f"deadline of round {b['round']}: {b['at']}" if "at" in b else "",
                f"every later round {period_text(b['each'])} after it opens" if "each" in b else "",
                f"a reminder {period_text(b['remind'])} before each deadline" if "remind" in b else "",
            )
            if part
        )
        + _why(b)
    ),
    "DeadlineCleared": lambda b: f"deadline of round {b['round']} cleared{_why(b)}",
    "StateCheckpointed": lambda b: f"state after seq {b['seq']} stored as a snapshot",
}


def event_summary(body: dict) -> str:
    """One line about an event from its JSON body (what it says, and why for
    corrections), its unprintable characters escaped."""
    describe = _SUMMARIES.get(body.get("type", ""), _fields)
    return printable(describe(body))
