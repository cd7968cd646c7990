"""After a close, the host is told what to send, in the words the README uses: the
`messages` command (the public post and each participant's message), not the read
models it is made from."""

from __future__ import annotations

import re

from tests.helpers import REPO, invoke

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"


def test_close_points_to_messages_and_the_command_it_names_prints_the_post(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    for name in ("ann", "bob", "cat"):
        invoke(db, "submit", "m1", name, "G4", "A1", "B1", "C1", "D1")
    said = invoke(db, "close", "m1").stdout
    [hint] = [line for line in said.splitlines() if line.startswith("to send:")]
    assert hint.startswith("to send: matchledger messages m1 "), hint
    assert "reveals" not in said and "knowledge" not in said, said
    command = re.match(r"to send: matchledger (messages m1)", hint).group(1).split()
    sent = invoke(db, *command).stdout
    assert "ann" in sent and "bob" in sent and "cat" in sent  # the post, then a message for each
