"""Auditing matches: verification (one implementation, :mod:`..verification`), receipts,
the audit report, comparing two logs, rescoring, and the log to take elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

from matchledger.engine.state import HOST
from matchledger.ledger.portable import export_lines
from matchledger.ledger.stores import open_store
from matchledger.ledger.verify import verify_chain

from ..audit import audit_report
from ..comparison import Comparison, Side, compare
from ..fold import replay
from ..receipts import ReceiptCheck, check_receipt, submission_fates
from ..rescore import rescore
from ..verification import MatchReport, verify_stored
from .results import Audit, Rescored
from .wiring import Wiring, game_of


class Audits:
    """What an auditor checks, compares and takes away (each method's contract is
    written on the facade, ``Application``)."""

    def __init__(self, wiring: Wiring):
        self._wiring = wiring

    def verify(self, match_id: str, head: tuple[int, str] | None = None) -> MatchReport:
        store = self._wiring.store
        if store.head(match_id) is None:
            raise store.unknown_match(match_id)
        return verify_stored(store, match_id, head)

    def verify_all(self, jobs: int = 1) -> Iterator[MatchReport]:
        store = self._wiring.store
        match_ids = store.match_ids()
        if jobs > 1 and len(match_ids) >= 2 * jobs:
            # imported here: process pools cost every other command start-up time
            from ..parallel import verify_in_processes

            yield from verify_in_processes(store.address, match_ids, jobs)
            return
        for match_id in match_ids:
            yield verify_stored(store, match_id)

    def check_receipts(self, match_id: str, receipts: list[tuple[int, str]]) -> list[ReceiptCheck]:
        store = self._wiring.store
        rows = store.rows(match_id)
        if not rows:
            raise store.unknown_match(match_id)
        account = submission_fates(match_id, rows)
        return [check_receipt(match_id, rows, receipt, account) for receipt in receipts]

    def audit(self, match_id: str) -> Audit:
        report = self.verify(match_id)
        rows = self._wiring.store.rows(match_id)
        broken = verify_chain(match_id, rows) if report.findings else []
        shown = rows[: broken[0].seq - 1] if broken else rows
        return Audit(audit_report(match_id, shown, report.findings), report.findings)

    def diff(self, match_a: str, match_b: str, other_db: str | None = None) -> Comparison:
        here = self._wiring.store
        there = here if other_db is None else open_store(other_db, read_only=True)
        sides = []
        try:
            for store, match_id in ((here, match_a), (there, match_b)):
                rows = store.rows(match_id)
                if not rows:
                    raise store.unknown_match(match_id)
                sides.append(Side(match_id, store.location, rows, verify_chain(match_id, rows)))
        finally:
            if there is not here:  # the other database was opened for this comparison alone
                there.close()
        return compare(*sides)

    def rescore(self, match_id: str, options: dict[str, str]) -> Rescored:
        events = self._wiring.reader.checked(match_id)[1]
        state = replay(match_id, events)
        game = game_of(state)
        overrides = {key: game.parse_option(key, value) for key, value in options.items()}
        alternative = rescore(match_id, events, overrides)
        return Rescored(overrides, game.outcome(state, HOST), game.outcome(alternative, HOST))

    def export(self, match_id: str) -> tuple[bytes, int]:
        rows = self._wiring.reader.checked(match_id)[0]
        return export_lines(rows), len(rows)
