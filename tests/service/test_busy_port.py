"""`serve` on a port another process listens on: one `Error:` line naming the address,
exit 1, as every command refuses, and no log record of the same failure before it."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.helpers import invoke


def test_serve_on_a_busy_port_says_so_in_one_error_line(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "toy", "m1", "--players", "a,b")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "matchledger", "--db", str(db), "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1, result
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: cannot listen on '127.0.0.1' port {port}: Address already in use"), line
