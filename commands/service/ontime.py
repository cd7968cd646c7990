"""Closing on time (issue 28, part 3; docs/service.md, "Deadlines"): the loop of a
running `serve` that closes each round at its deadline where the rules let it, and
tells the host, through the hooks, where they do not, and before a deadline.

Every few seconds a thread reads the clock once and takes a :meth:`OnTime.step` at that
time (a test calls ``step`` itself with the time it chooses; no test waits for a
deadline):

- each match past its open round's deadline (``Application.due``, read from kept
  states: cheap) whose rules let the round close is closed through the application
  (``close_when_due``), decided again under the match's lock, recorded with actor
  ``deadline`` at the time read here; the hooks' scanner then posts the close as it
  posts a host's (it is woken at once);
- one whose rules do not (pw, ruling W5: everyone must submit), or whose close the rules
  refused, is left open, and each hook asking for ``deadline`` is sent a post saying so;
- each match whose reminder time (``deadline --remind``) has come is sent a
  ``reminder`` post.

A post is claimed in the database like every delivery (hook, match, the seq that set
the deadline, kind), so two `serve` processes post it once.  Its words are public: the
deadline, the round, that it passed; never who is missing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from matchledger.ledger.errors import IllegalMove, MatchledgerError
from matchledger.ledger.hooks import DEADLINE, REMINDER
from matchledger.projections.application import Application, DuePost, Notice, Recorded, utc_now

from .deliveries import Deliveries

#: Seconds between two steps: a round closes within this of its deadline.
EVERY_SECONDS = 5.0

log = logging.getLogger("matchledger.ontime")


def notice_post(notice: Notice) -> tuple[str, dict]:
    """The public words of a notice, and its parts (a JSON post's ``post``)."""
    unit = notice.round_word
    where = f"{unit.capitalize()} {notice.round} of {notice.match}"
    if notice.kind == REMINDER:
        text = f"Reminder: {where} is due at its deadline, {notice.at} (UTC)."
    else:
        text = f"{where}: the deadline, {notice.at} (UTC), has passed. The {unit} stays open until the host acts."
    return text, {"deadline": notice.at, "unit": unit, "round": notice.round, "passed": notice.kind != REMINDER}


class OnTime:
    """The deadline loop of one `serve` (see the module)."""

    def __init__(
        self,
        open_application: Callable[[], Application],
        deliveries: Deliveries,
        *,
        every: float = EVERY_SECONDS,
        clock: Callable[[], str] = utc_now,
    ):
        self.open_application = open_application
        self.deliveries = deliveries
        self.every, self.clock = every, clock
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="deadlines", daemon=True)
        # What was acted on already, and the database's change token then: tried again
        # only once the database moved (a close the rules refused may be allowed after
        # the host records what was missing), never every step.
        self._done: dict[tuple, object] = {}

    def start(self) -> OnTime:
        self.thread.start()
        return self

    def stop(self, wait: float = 5.0) -> None:
        self.stopping.set()
        self.thread.join(wait)

    def _run(self) -> None:
        application = None
        told = None  # the last problem logged: said once, not every step
        while not self.stopping.is_set():
            try:
                if application is None:
                    application = self.open_application()
                self.step(application, self.clock())
                told = None
            except MatchledgerError as exc:  # the database refused or went away: try again later
                if str(exc) != told:
                    told = str(exc)
                    log.warning("closing on time waits: %s", exc)
                if application is not None:
                    application.close()
                application = None
            self.stopping.wait(self.every)
        if application is not None:
            application.close()

    def step(self, application: Application, now: str) -> list[Recorded]:
        """Act on every deadline passed, and every reminder come, at ``now``: what was
        closed (the hooks are told of the rest)."""
        token = application.change_token()
        closed = []
        for due in application.due(now):
            key = ("close", due.match, due.round, due.deadline)
            if self._done.get(key) == token:
                continue
            self._done[key] = token
            refused = False
            if due.closable:
                try:
                    recorded = application.close_when_due(due.match, now, round=due.round, deadline=due.deadline)
                except IllegalMove as exc:  # the game's own refusal: the host is told, as for pw
                    log.warning("%s: round %s was not closed at its deadline: %s", due.match, due.round, exc)
                    recorded, refused = None, True
                if recorded is not None:
                    closed.append(recorded)
                    self.deliveries.wake.set()  # the close is posted as a host's is
                    continue
            if not due.closable or refused:
                self._tell(application, DEADLINE, due.match, due.round, due.deadline)
        for upcoming in application.reminders_due(now):
            self._tell(application, REMINDER, upcoming.match, upcoming.round, upcoming.deadline)
        return closed

    def _tell(self, application: Application, kind: str, match_id: str, round_no: int, deadline: str) -> None:
        """Post the notice of ``kind`` to each active hook of the match that asks for it
        (claimed once in the database; a hook that got it already is not posted again)."""
        key = (kind, match_id, round_no, deadline)
        if key in self._done:
            return
        notice = application.deadline_notice(match_id, kind, round=round_no, deadline=deadline)
        self._done[key] = None
        if notice is None:
            return
        text, parts = notice_post(notice)
        for standing in application.hooks(match_id):
            hook = standing.hook
            if hook.active and kind in hook.kinds:
                post = DuePost(match=match_id, kind=kind, seq=notice.seq, round=round_no)
                self.deliveries.post(application, hook, post, text, parts, game=notice.game)


def serve_deadlines(open_application: Callable[[], Application], deliveries: Deliveries) -> OnTime:
    """The loop a `serve` runs beside its hooks' deliveries, started."""
    return OnTime(open_application, deliveries).start()
