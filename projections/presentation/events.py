"""The one-line summary of an event that `log` lists and the replay page shows beside
each step: what the event says, and why for amendments and corrections.  It is given
what the view may see of the event (``projections.views.event_view``), never more."""

from __future__ import annotations

from .printable import printable

_SUMMARIES = {
    "MatchCreated": lambda b: f"{b['game']} with {', '.join(b['players'])}",
    "SubmissionRecorded": lambda b: f"{b['participant']} round {b['round']}: {' '.join(b['tokens'])}",
    "ContractRecorded": lambda b: f"{b['participant']}: {' '.join(b['contracts'])}",
    "RoundClosed": lambda b: f"round {b['round']} closed ({b.get('source', 'computed')} announcement)"
    + (f", forced without {', '.join(b.get('missing', []))} — {b['reason']}" if "reason" in b else ""),
    "TurnResolved": lambda b: f"turn {b['turn']} by {b['participant']}",
    "OutcomeAnnounced": lambda b: f"final outcome ({b.get('source', 'computed')})",
    "RuleAmended": lambda b: f"{b['option']}={b['value']!r} from round {b['from_round']} — {b['reason']}",
    "SubmissionVoided": lambda b: f"voids seq {b['target_seq']}" + (f" — {b['reason']}" if "reason" in b else ""),
    "SubmissionCorrected": lambda b: f"corrects seq {b['target_seq']} to {' '.join(b['tokens'])} — {b['reason']}",
    "RoundReopened": lambda b: f"round {b['round']} reopened" + (f" — {b['reason']}" if "reason" in b else ""),
    "NoteAdded": lambda b: b["text"],
    "MatchAbandoned": lambda b: "match abandoned" + (f" — {b['reason']}" if "reason" in b else ""),
}


def event_summary(body: dict) -> str:
    """One line about an event from its JSON body (what it says, and why for
    corrections), its unprintable characters escaped."""
    describe = _SUMMARIES.get(body.get("type"))
    return printable(describe(body)) if describe else ""
