"""What a hook posts to the channel is what the public was told: two matches differing
only in a participant's secret (their contract) post the same bytes after a close."""

from __future__ import annotations

from tests.service.hook_support import Receiver, add_hook, close_round_one, deliver_all, lca_match


def test_a_participants_secret_changed_the_posted_bytes_are_the_same(tmp_path):
    posted = []
    for contract in ("lights", "camera"):
        receiver = Receiver()
        try:
            db = tmp_path / f"{contract}.db"
            lca_match(db, contract)
            add_hook(db, receiver.url, "--format", "json")
            close_round_one(db)
            deliver_all(db)
            posted.append([request.body for request in receiver.requests])
        finally:
            receiver.close()
    assert posted[0] == posted[1] and len(posted[0]) == 1
