"""The screenshots command (``python -m tests.service.screenshots``, docs/service.md)
writes a PNG of the page asked for, as wide as asked, and refuses a state it does not
know, naming it.  Skipped, saying why, where the driver or the browser is missing."""

from __future__ import annotations

import pytest

from .chromium import requires_chromium
from .screenshots import main

pytestmark = requires_chromium
PNG = b"\x89PNG\r\n\x1a\n"


def test_the_command_writes_the_state_asked_for_at_the_width_asked_for(tmp_path, capsys):
    from PIL import Image

    assert main([str(tmp_path), "--width", "360", "--screen", "--only", "pw-participant-revoked-link"]) == 0
    [written] = tmp_path.iterdir()
    assert written.name == "pw-participant-revoked-link-360.png"
    assert written.read_bytes().startswith(PNG)
    with Image.open(written) as picture:
        assert picture.size == (360, 800)
    assert capsys.readouterr().out.strip() == str(written)


def test_a_state_it_does_not_know_is_refused_by_name(tmp_path):
    with pytest.raises(SystemExit, match="no state is named lca-nowhere"):
        main([str(tmp_path), "--only", "lca-nowhere"])
