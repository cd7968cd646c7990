"""Several hosts on one PostgreSQL database: eight processes, each with a connection of
its own, record at once into one shared match and each into its own, half through the
store, half through whole CLI commands; checked afterwards as on SQLite
(tests/reliability/eight_writers.py): every match verifies, the events are exactly the
accepted commands', every loser was told (exit 1) and left nothing."""

from __future__ import annotations

import pytest

from tests.reliability.eight_writers import record_at_once

ATTEMPTS = 60


@pytest.mark.guarantee("postgres.multi-host")
def test_eight_processes_each_with_its_own_connection_record_at_once(postgres_url, tmp_path):
    record_at_once(postgres_url, tmp_path, ATTEMPTS)
