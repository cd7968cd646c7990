"""Access: the links (capability tokens) a host issues, the service's address they lead
to, and what a participant may record through one.  Tokens are stored only as hashes,
beside the log, never in it; so is the address.

A submission made through a link is recorded under one policy, whichever door it came
in by (the service's pages and JSON API today):

- the link is checked as the submission is written, before and once more after the
  match's write lock is taken (``LinkClosed``): a request is let in when its headers
  arrive, and its body may come much later, after the host revoked the link;
- one participant makes at most ``SUBMISSIONS_PER_ROUND`` submissions in a round through
  links (each is a new event for ever, and every read of the match reads them);
- submissions that arrive together are decided in turn and written in one transaction
  (one sync to disk serves them all); a batch that loses the race for the log
  (``LogConflict``) is decided again, ``DECISION_ATTEMPTS`` times at most, after which
  each submitter is told to try again;
- a submission the rules refuse writes nothing and is answered on its own, but one that
  failed after writing part of its events undoes the whole batch, and each submission
  in it is then decided on its own;
- whatever another connection committed since the last batch (the host's command line,
  or a row edited behind the ledger's back) makes the matches be read afresh, chains
  checked, before anything is decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from matchledger.engine.commands import Submit
from matchledger.ledger.capabilities import AUDITOR, PARTICIPANT, Capability, new_token, token_hash, well_formed
from matchledger.ledger.errors import CorruptLog, LogConflict, MalformedInput, MatchledgerError
from matchledger.ledger.service_addresses import (
    BASE_URL_MAX_LENGTH,
    GIVEN,
    LISTENED,
    ServiceAddress,
    preferred,
    well_formed_base_url,
)

from ..deadlines import is_past
from ..views import resolve_view
from .queries import Queries
from .results import Recorded
from .wiring import Wiring, game_of
from .writes import DECISION_ATTEMPTS, Writes

#: Submissions one participant may have in one round through links (each a new event
#: for ever: the log is append-only, and every read of the match reads them).  The host
#: records more from the command line if a round ever needs it.
SUBMISSIONS_PER_ROUND = 20

#: The longest time an address may say it was recorded at (ours are 27 characters).
RECORDED_AT_MAX_LENGTH = 64


class LinkClosed(MatchledgerError, PermissionError):
    """The link a submission came through no longer lets it be recorded (revoked, most
    likely, while the request was under way)."""


class TooManySubmissions(MatchledgerError, RuntimeError):
    """A participant who already has ``SUBMISSIONS_PER_ROUND`` submissions in the round."""


class PastDeadline(MatchledgerError, PermissionError):
    """A submission through a link after the open round's deadline: refused, and nothing
    written (the host may still record one; it is marked late)."""

    def __init__(self, match: str, unit: str, round: int, deadline: str):
        self.match, self.round, self.deadline = match, round, deadline
        super().__init__(
            f"the deadline of {unit} {round} of {match!r} passed at {deadline} (UTC); nothing was recorded "
            "(the host can still record a late submission)"
        )


@dataclass(frozen=True)
class LinkSubmission:
    """A participant's own submission, made through the link ``link`` (its token: never
    in a repr, a log or a message; None: no link to check)."""

    match_id: str
    cmd: Submit
    link: str | None = field(default=None, repr=False)

    @property
    def participant(self) -> str:
        return self.cmd.participant


class Access:
    """Links to a match, and what is recorded through them (each method's contract is
    written on the facade, ``Application``)."""

    def __init__(self, wiring: Wiring, queries: Queries, writes: Writes):
        self._wiring = wiring
        self._queries = queries
        self._writes = writes
        self._version: object = None  # the change token when the matches were last read afresh

    # ------------------------------------------------------------------ links

    def invite(
        self, match_id: str, *, participant: str | None = None, auditor: bool = False, can_submit: bool = False
    ) -> tuple[str, Capability]:
        if auditor == (participant is not None):
            raise MalformedInput("a link is either a participant's or an auditor's: name one of the two")
        if auditor and can_submit:
            raise MalformedInput("an auditor's link reads only: only a participant's may submit")
        state = self._queries.state(match_id)
        if participant is not None:
            participant = resolve_view(state, participant=participant).participant
        token = new_token()
        capability = Capability(
            token_hash=token_hash(token),
            match_id=match_id,
            role=AUDITOR if auditor else PARTICIPANT,
            participant=participant,
            can_submit=can_submit,
            created_at=self._wiring.clock(),
        )
        self._wiring.store.save_capability(capability)
        return token, capability

    def revoke(self, token: str) -> tuple[Capability, bool]:
        store = self._wiring.store
        found = store.capability(token_hash(token)) if well_formed(token) else None
        if found is None:
            raise MalformedInput(f"no invitation in {store.location!r} was issued with this token; nothing revoked")
        if not found.active:
            return found, False
        store.revoke_capability(found.token_hash, self._wiring.clock())
        revoked = store.capability(found.token_hash)  # read back: what now stands
        if revoked is None or revoked.active:
            raise CorruptLog(
                f"the link was not revoked in {store.location!r}: read back after the write, it still opens the "
                "match (something in the database undoes the revocation)"
            )
        return revoked, True

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        store = self._wiring.store
        if match_id is not None and not store.has_match(match_id):
            raise store.unknown_match(match_id)  # an error, not an empty list
        return store.capabilities(match_id)

    def capability(self, token: str) -> Capability | None:
        if not well_formed(token):
            return None
        found = self._wiring.store.capability(token_hash(token))
        return found if found is not None and found.active else None

    # ------------------------------------------------------------------ the service's address

    def record_service_address(self, url: str, *, given: bool) -> ServiceAddress:
        url = url.rstrip("/")
        if not well_formed_base_url(url):
            raise MalformedInput(f"{_shown(url)} is not a service address: http(s)://HOST[:PORT][/PREFIX]")
        address = ServiceAddress(url=url, source=GIVEN if given else LISTENED, recorded_at=self._wiring.clock())
        self._wiring.store.save_service_address(address)
        return address

    def service_address(self) -> ServiceAddress | None:
        store = self._wiring.store
        address = preferred(store.service_addresses())
        # Checked as it is read: whoever handed us the database may have written anything
        # there, and it is shown to everyone the host gives a link (and the time, to the host).
        if address is None:
            return None
        if not well_formed_base_url(address.url):
            raise CorruptLog(
                f"the service address kept in {store.location!r} is not an http(s) address of at most "
                f"{BASE_URL_MAX_LENGTH} printable characters: {_shown(address.url)}"
            )
        if not (address.recorded_at.isprintable() and len(address.recorded_at) <= RECORDED_AT_MAX_LENGTH):
            raise CorruptLog(
                f"the service address kept in {store.location!r} was recorded at {_shown(address.recorded_at)}, "
                "which is no time"
            )
        return address

    # ------------------------------------------------------------------ submissions through links

    def submit_through_links(self, submissions: Sequence[LinkSubmission]) -> list[Recorded | Exception]:
        outcomes: list[Recorded | Exception] = []
        for _attempt in range(DECISION_ATTEMPTS):
            try:
                with self._writes.atomic():
                    self._read_afresh_if_moved()
                    outcomes = [self._decide(submission) for submission in submissions]
                return outcomes
            except LogConflict:
                continue  # the kept states were dropped: decide everything again
            except Exception as exc:
                if len(submissions) == 1:
                    return [exc]
                # find out whose submission it was: each on its own
                return [self.submit_through_links([submission])[0] for submission in submissions]
        return [
            LogConflict(
                f"match {submission.match_id!r} moved on {DECISION_ATTEMPTS} times while the submission was "
                "decided; try again"
            )
            for submission in submissions
        ]

    def _read_afresh_if_moved(self) -> None:
        """Drop the kept states if another connection committed since they were read
        (this connection's own commits do not move its change token)."""
        version = self._queries.change_token()
        if version != self._version:
            self._wiring.reader.forget()
            self._version = version

    def _decide(self, submission: LinkSubmission) -> Recorded | Exception:
        """The submission recorded, or why it is not (returned: the batch goes on); raises
        what must undo the whole batch."""
        match_id, participant, link = submission.match_id, submission.participant, submission.link
        if link is not None and not self._lets_submit(submission, link):
            return LinkClosed()
        store = self._wiring.store
        before = store.head(match_id)
        try:
            state = self._queries.state(match_id)
            deadline = state.deadline()
            # The time is read once, here, under the same lock and transaction as the
            # write, and recorded as the submission's: the deadline in force is the one
            # the log holds as it lands, and one accepted is never marked late.
            now = self._wiring.clock()
            if link is not None and deadline is not None and is_past(deadline, now):
                return PastDeadline(match_id, game_of(state).ROUND_WORD, state.round, deadline)
            made = len(state.submissions.get(state.round, {}).get(participant, []))
            if made >= SUBMISSIONS_PER_ROUND:
                return TooManySubmissions(
                    f"{participant} already has {made} submissions in round {state.round} of {match_id!r}, "
                    "as many as a link may make; the last one counts (the host can record another from the "
                    "command line)"
                )
            recorded = self._writes.execute(match_id, submission.cmd, actor=participant, now=now)
        except LogConflict:
            raise
        except MatchledgerError as exc:
            if store.head(match_id) != before:
                raise  # it failed after writing: the batch must not keep half of it
            return exc
        # Again, now that the match's lock is held (PostgreSQL takes it only to append, so
        # the submission may have waited for it while the host revoked): the batch is
        # rolled back, and each submission in it decided on its own.
        if link is not None and not self._lets_submit(submission, link):
            raise LinkClosed()
        return recorded

    def _lets_submit(self, submission: LinkSubmission, link: str) -> bool:
        capability = self.capability(link)  # None once revoked
        return (
            capability is not None
            and capability.can_submit
            and capability.match_id == submission.match_id
            and capability.participant == submission.participant
        )


def _shown(text: str, limit: int = 80) -> str:
    """``text`` quoted for a message, escaped and cut short (it may come from anywhere)."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")
