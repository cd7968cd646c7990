"""A careless host removes a hook while a post to it is queued or being tried again:
what `hook remove` promises ("stop the hook posting") holds from then on."""

from __future__ import annotations

from matchledger.commands.service.deliveries import Deliveries
from matchledger.projections.application import Application
from tests.helpers import invoke

from .hook_support import Receiver, add_hook, close_round_one, lca_match


def test_a_hook_removed_while_its_post_is_queued_is_posted_nothing_more(tmp_path):
    receiver = Receiver(statuses=[500])  # every try fails: the post would be tried again
    db = tmp_path / "m.db"
    lca_match(db)
    hook = add_hook(db, receiver.url)
    close_round_one(db)
    deliveries = Deliveries(lambda: Application.open(str(db)), backoff=0.0, timeout=0.5, total=2.0, attempts=3)
    application = Application.open(str(db))
    try:
        assert deliveries.scan_once(application) == 1  # claimed and queued before the removal
        invoke(db, "hook", "remove", hook["id"])
        deliveries.deliver(application, deliveries.jobs.get())
    finally:
        application.close()
        receiver.close()
    assert receiver.requests == []
