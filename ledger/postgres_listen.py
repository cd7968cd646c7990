"""Changes pushed from PostgreSQL: one connection that LISTENs on the channel our
triggers notify (``postgres_schema.NOTIFY``), on a thread of its own, so that a
long-running reader (``serve``) re-reads only the matches that moved, at once.

- Each notification names a table and a match; one of another schema of the same
  database is not ours and is passed over.  A commit to another database of the
  cluster notifies nothing here.
- Notifications sent while the connection is down are lost (PostgreSQL keeps none for
  a listener that is not there).  So the listener is told ``lost`` when the connection
  goes, and ``listening`` only once LISTEN holds again, after which the receiver
  forgets everything it kept: what was committed meanwhile is read afresh.
- Tables of a schema version before the triggers, or whose triggers are missing, notify
  nothing: the listener says ``lost`` and looks again every ``fallback`` seconds (the
  first write migrates them).
- A safety net: every ``fallback`` seconds, if the server's snapshot moved since the
  last look, the heads of the watched matches are read and handed over; a kept head
  that differs is re-read, the others stay.  A failed look (a lock held for longer than
  the lock timeout) is tried again at the next one.
"""

from __future__ import annotations

import json
import threading
import time

import psycopg

from .change_feed import FALLBACK_SECONDS, Head, Listener, Subscription
from .errors import MatchledgerError
from .postgres_database import Database
from .postgres_schema import CHANNEL, NOTIFY_TRIGGERS

#: Seconds between two attempts to connect again after the connection was lost.
RECONNECT_SECONDS = 1.0
#: The listening connection's name in ``pg_stat_activity`` (docs/deploy.md).
APPLICATION_NAME = "matchledger-listen"
#: Seconds the thread waits for a notification before it looks whether to stop.
WAKE_SECONDS = 0.5

# Our notifying triggers, present and enabled, on our tables of this schema.
_TRIGGERS_THERE = (
    "SELECT count(*) FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid "
    "WHERE c.relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema()) "
    "AND t.tgname = ANY(%s) AND t.tgenabled = 'O'"
)
_HEADS = (
    "SELECT m.id, e.seq, e.hash FROM unnest(%s::text[]) AS m(id) LEFT JOIN LATERAL "
    "(SELECT seq, hash FROM events WHERE match_id = m.id ORDER BY seq DESC LIMIT 1) AS e ON true"
)


class PostgresListener(Subscription):
    """The thread and its connection (started at once; ``close`` stops both)."""

    def __init__(self, database: Database, listener: Listener, *, fallback: float = FALLBACK_SECONDS):
        self.database = database
        self.listener = listener
        self.fallback = fallback
        self._stop = threading.Event()
        self._pushing = False
        self._schema: str | None = None
        self._thread = threading.Thread(target=self._run, name="matchledger-listen", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(WAKE_SECONDS * 4 + 1)

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except (psycopg.Error, MatchledgerError):
                pass  # connecting failed, or the connection was lost: told below, tried again
            self._lost()
            self._stop.wait(RECONNECT_SECONDS)

    def _listen(self) -> None:
        conn = self.database.connect()  # DatabaseUnavailable while the server is away
        try:
            self.database.set_for_session(conn)  # a session of its own (LISTEN): never a pooled one
            conn.execute(f"SET application_name = '{APPLICATION_NAME}'")  # as pg_stat_activity shows it
            schema = conn.execute("SELECT current_schema()").fetchone()
            self._schema = schema[0] if schema else None
            conn.execute(f"LISTEN {CHANNEL}")
            position = self._position(conn)
            next_look = time.monotonic() + self.fallback
            look_for_triggers = True
            while not self._stop.is_set():
                if look_for_triggers and not self._pushing and self._triggers_there(conn):
                    self._pushing = True
                    self.listener.listening()  # after LISTEN holds: nothing committed from now on is missed
                look_for_triggers = False
                for notification in conn.notifies(timeout=WAKE_SECONDS):
                    self._notified(notification.payload)
                if time.monotonic() >= next_look:
                    next_look = time.monotonic() + self.fallback
                    if not self._pushing:
                        look_for_triggers = True  # the first write may have migrated the tables since
                        continue
                    if not self._triggers_there(conn):
                        self._lost()
                        continue
                    position = self._safety_net(conn, position)
        finally:
            conn.close()

    def _lost(self) -> None:
        """The receiver polls from now on (it polls until told ``listening`` first)."""
        if self._pushing:
            self._pushing = False
            self.listener.lost()

    def _triggers_there(self, conn: psycopg.Connection) -> bool:
        row = conn.execute(_TRIGGERS_THERE, (list(NOTIFY_TRIGGERS),)).fetchone()
        return row is not None and row[0] == len(NOTIFY_TRIGGERS)

    def _notified(self, payload: str) -> None:
        try:
            table, schema, match_id = json.loads(payload)
        except (ValueError, TypeError):
            return  # someone else's NOTIFY on our channel: nothing of ours
        if schema != self._schema or not isinstance(match_id, str):
            return
        if table == "events":
            self.listener.match_moved(match_id)
        elif table == "capabilities":
            self.listener.links_changed(match_id)

    # ------------------------------------------------------------------ the safety net

    @staticmethod
    def _position(conn: psycopg.Connection) -> str | None:
        row = conn.execute("SELECT pg_current_snapshot()::text").fetchone()
        return row[0] if row else None

    def _safety_net(self, conn: psycopg.Connection, position: str | None) -> str | None:
        """The heads of the watched matches, handed over, if the server's snapshot moved
        since ``position``; the position looked at (the old one if the look failed)."""
        try:
            now = self._position(conn)
            if now == position:
                return position
            watched = list(self.listener.watched())
            if watched:
                heads: dict[str, Head] = {
                    match_id: (seq, digest) if seq is not None else None
                    for match_id, seq, digest in conn.execute(_HEADS, (watched,)).fetchall()
                }
                self.listener.heads_seen(heads)
            return now
        except psycopg.OperationalError as exc:
            if exc.sqlstate is None or conn.broken:
                raise  # the connection itself was lost
            return position  # a lock held past the timeout, a statement cancelled: next time
