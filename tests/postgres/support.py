"""What the PostgreSQL tests share: a plain connection, as any client's, and the
tables a database holds."""

from __future__ import annotations

import psycopg


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
