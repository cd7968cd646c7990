"""verify's single pass (apply_and_rederive) finds a wrong announcement of every kind,
in every game, at its seq and field — and finds nothing in an honest log."""

import msgspec
import pytest

from matchledger.ledger.events import OutcomeAnnounced, RoundClosed, TurnResolved
from matchledger.projections.rederive import rederive
from tests.fixture_matches import played
from tests.helpers import REPO


@pytest.mark.parametrize("script", ["lca/amendment-example.txt", "pw/swap_one_member.txt", "photographer/g2-seed7.txt"])
def test_honest_log_has_no_finding_and_each_forged_announcement_is_found(script):
    match_id, pairs = played(REPO / "fixtures" / script)
    assert rederive(match_id, pairs) == []
    kinds = (RoundClosed, TurnResolved, OutcomeAnnounced)
    forged_seqs = [seq for seq, event in pairs if isinstance(event, kinds)]
    # the first, a middle and the last announcement, one at a time
    for seq in {forged_seqs[0], forged_seqs[len(forged_seqs) // 2], forged_seqs[-1]}:
        event = pairs[seq - 1][1]
        if isinstance(event, OutcomeAnnounced):
            forged = msgspec.structs.replace(event, outcome={**event.outcome, "finished": "forged"})
            field, recorded, recomputed = "outcome.finished", "forged", True
        else:
            forged = msgspec.structs.replace(event, public={**event.public, "forged": 1})
            field, recorded, recomputed = "public.forged", 1, None
        changed = [(s, forged if s == seq else e) for s, e in pairs]
        [finding] = rederive(match_id, changed)
        assert (finding.seq, finding.field) == (seq, field)
        assert (finding.recorded, finding.recomputed) == (recorded, recomputed)
