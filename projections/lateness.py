"""Which submissions came after their round's deadline: a projection over the envelopes.

A submission is late when the time recorded with it is later than the deadline in force
for its round just before it (the state the fold reached then).  Only recorded times are
read, never a clock, so `log`, `audit`, a replay and `verify` all agree.  A submission's
time is its participant's and the host's to know: a view marks only what it may see.
"""

from __future__ import annotations

from matchledger.engine.state import MatchState
from matchledger.ledger.events import Event, SubmissionRecorded
from matchledger.ledger.log_store import StoredEvent

from . import deadlines


def is_late(row: StoredEvent, event: Event, before: MatchState | None) -> bool:
    """Whether ``event`` (stored as ``row``) is a submission recorded after the deadline
    its round had in ``before``, the match just before it."""
    if type(event) is not SubmissionRecorded or before is None or not before.deadlines:
        return False
    deadline = before.deadlines.get(event.round)
    return deadline is not None and deadlines.is_past(deadline, row.recorded_at)
