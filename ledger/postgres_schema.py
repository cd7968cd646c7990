"""What a matchledger PostgreSQL database holds: the same ``events`` table as SQLite's,
with triggers refusing UPDATE, DELETE and TRUNCATE, the snapshot cache, the service's
links and address, a ``jsonb`` view for queries, triggers that announce each commit on
the channel ``matchledger`` (:data:`NOTIFY`), and ``matchledger_schema``, the version of it all.

These texts are what a write makes (:mod:`.migrations` runs them) and what every open
checks our tables against (:mod:`.postgres_database`).  Plain text: importing it loads
no driver.
"""

from __future__ import annotations

#: Where the schema's version is kept: one row, one number (:mod:`.migrations`).
VERSION_TABLE = "CREATE TABLE matchledger_schema (version integer NOT NULL)"

#: The service's tokens, by hash (ledger/capabilities.py): made with the tables, so that
#: a host role granted rights on it (docs/deploy.md) can invite; a database made before
#: it existed gets it from its first invitation.
CAPABILITIES_TABLE = (
    "CREATE TABLE IF NOT EXISTS capabilities (token_hash text PRIMARY KEY, match_id text NOT NULL, "
    "role text NOT NULL, participant text, can_submit boolean NOT NULL, created_at text NOT NULL, revoked_at text)"
)

#: The service's address as `serve` recorded it for `invite` (ledger/service_addresses.py):
#: made by migration 2, one row per source.
SERVICE_ADDRESSES_TABLE = (
    "CREATE TABLE IF NOT EXISTS service_addresses (source text PRIMARY KEY, url text NOT NULL, "
    "recorded_at text NOT NULL)"
)

#: The hooks a host added and their deliveries (ledger/hooks.py): made by migration 3.
HOOKS_TABLES = (
    'CREATE TABLE IF NOT EXISTS hooks (hook_id text COLLATE "C" PRIMARY KEY, match_id text COLLATE "C" NOT NULL, '
    "url text NOT NULL, "
    "kinds text NOT NULL, format text NOT NULL, secret text NOT NULL, after_seq bigint NOT NULL, "
    "created_at text NOT NULL, removed_at text);\n"
    'CREATE TABLE IF NOT EXISTS hook_deliveries (hook_id text COLLATE "C" NOT NULL, '
    'match_id text COLLATE "C" NOT NULL, '
    "seq bigint NOT NULL, kind text NOT NULL, claimed_at text NOT NULL, state text NOT NULL, "
    "attempts text NOT NULL, PRIMARY KEY (hook_id, match_id, seq, kind))"
)

#: The tables, the trigger function and the view (the version table aside).
TABLES = f"""
CREATE TABLE events (
    match_id text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    kind text NOT NULL,
    body text NOT NULL,
    recorded_at text NOT NULL,
    actor text NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE FUNCTION matchledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP;
END
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION matchledger_append_only();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION matchledger_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION matchledger_append_only();
CREATE TABLE snapshots (
    match_id text COLLATE "C" PRIMARY KEY,
    seq bigint NOT NULL,
    hash text NOT NULL,
    revision text NOT NULL,
    body bytea NOT NULL
);
{CAPABILITIES_TABLE};
CREATE VIEW events_json AS
    SELECT match_id, seq, kind, body::jsonb AS body, recorded_at, actor, prev_hash, hash FROM events;
"""
# The jsonb form is a view, not a stored column or an index: casting to jsonb refuses
# some JSON that is valid text (a "\\u0000" escape), and a stored column would then make
# a valid log fail to import; it would also cost every append.

#: Where a commit is announced (LISTEN/NOTIFY), and what its payload says: a JSON array
#: ``[table, schema, match id]``, the table ``events`` (the match moved) or
#: ``capabilities`` (a link given or revoked).  JSON, because a schema's name may hold
#: any character; the schema, because one database may hold several ledgers.
CHANNEL = "matchledger"

#: The triggers that announce a commit to the ``serve`` processes listening (made by
#: migration 4).  A notification is sent when the transaction commits, never for one
#: rolled back, and the same payload twice in one transaction is sent once: a command's
#: events cost one notification per match.
NOTIFY = f"""
CREATE FUNCTION matchledger_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_catalog.pg_notify('{CHANNEL}', pg_catalog.json_build_array(TG_TABLE_NAME, TG_TABLE_SCHEMA, NEW.match_id)::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION matchledger_notify();
CREATE TRIGGER capabilities_notify AFTER INSERT OR UPDATE ON capabilities
    FOR EACH ROW EXECUTE FUNCTION matchledger_notify();
"""

#: The names of the notifying triggers, which a listener checks are there before it
#: counts on them (tables of an earlier version have none: their readers poll).
NOTIFY_TRIGGERS = ("events_notify", "capabilities_notify")


def _source(script: str, function: str) -> str:
    return script.split(f"FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$", 1)[1].split("$$", 1)[0]


#: The body of each of our trigger functions: one rewritten (to let UPDATE through, or
#: to run something else on every append) is refused.
FUNCTION_SOURCES = {
    "matchledger_append_only": _source(TABLES, "matchledger_append_only"),
    "matchledger_notify": _source(NOTIFY, "matchledger_notify"),
}
APPEND_ONLY_SOURCE = FUNCTION_SOURCES["matchledger_append_only"]
