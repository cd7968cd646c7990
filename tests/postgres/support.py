"""What the PostgreSQL tests share: a plain connection, as any client's, and the
tables a database holds."""

from __future__ import annotations

import time

import psycopg

from matchledger.ledger.postgres_listen import APPLICATION_NAME


def plain(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """``sql`` through a connection of its own, committed; the rows it returns."""
    with psycopg.connect(url) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def relations(url: str) -> list[str]:
    """Every table, index, view and function where the URL's tables are made."""
    return [
        name
        for (name,) in plain(
            url,
            "SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE nspname = current_schema() "
            "UNION SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE nspname = current_schema() "
            "ORDER BY 1",
        )
    ]


def listeners(postgres_server, database: str) -> list[int]:
    """The listening connections of `serve` processes (and stores) to ``database``."""
    with postgres_server.admin() as conn:
        return [
            pid
            for (pid,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
                (database, APPLICATION_NAME),
            ).fetchall()
        ]


def until(condition, timeout: float = 10.0) -> bool:
    """Whether ``condition()`` came true within ``timeout`` seconds (a guard against a hang)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
