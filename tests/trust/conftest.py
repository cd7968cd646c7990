import pytest

from ..helpers import invoke


@pytest.fixture
def photographer_db_in_cwd(tmp_path, monkeypatch):
    """A database holding photographer match m1, in the current folder."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "m.db"
    invoke(path, "new", "photographer", "m1", "--players", "ann,bob", "--seed", "1")
    return path
