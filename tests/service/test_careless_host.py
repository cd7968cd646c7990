"""A careless host: `serve --host 0.0.0.0` (every interface, so that participants on
other machines reach it) without ``--base-url``, then `invite`.  The address listened on
is a wildcard, which no browser can go to: a link ``http://0.0.0.0:PORT/p/TOKEN`` is dead
on every participant's machine (and refused by current browsers even on the host's own).
`invite` must not hand it out as if it led anywhere: it names the problem and asks for
``--base-url``, as it does when no address was recorded."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .support import STUDIO, Server


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_links_never_lead_to_a_wildcard_address_serve_listened_on(tmp_path, host):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    try:
        server = Server(db, "--host", host)
    except AssertionError as exc:  # no IPv6 here
        pytest.skip(f"serve --host {host} did not start: {exc}")
    with server:
        assert server.announced.startswith("serving ")
        assert "recorded no address" in server.log("recorded no address"), "serve tells the host what invite needs"
    result = invoke(db, "invite", "m1", "--as", "ann")
    assert "0.0.0.0" not in result.stdout and "[::]" not in result.stdout, result.stdout
