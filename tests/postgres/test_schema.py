"""The tables on PostgreSQL: the contract's events table, made by the first write in one
transaction, append-only by triggers (TRUNCATE too), a schema version checked on every
open, and nothing made or changed by a read or a refusal."""

from __future__ import annotations

import contextlib
import threading

import psycopg
import pytest

from matchledger.ledger.errors import CorruptLog, ForeignDatabase
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.postgres_database import SCHEMA_VERSION
from matchledger.ledger.stores import open_store
from tests.helpers import invoke

from .support import plain, relations

T = "2026-01-01T00:00:00.000000Z"
CREATED = MatchCreated(game="toy", players=["ann", "bob"])
OURS = [
    "capabilities",
    "capabilities_pkey",
    "events",
    "events_json",
    "events_pkey",
    "hook_deliveries",
    "hook_deliveries_pkey",
    "hooks",
    "hooks_pkey",
    "matchledger_append_only",
    "matchledger_notify",
    "matchledger_schema",
    "service_addresses",
    "service_addresses_pkey",
    "snapshots",
    "snapshots_pkey",
]


def recorded(url: str) -> list:
    store = open_store(url)
    try:
        return store.append("m1", 1, [CREATED, NoteAdded(text='é "quoted"')], actor="host", recorded_at=T)
    finally:
        store.close()


@pytest.mark.guarantee("postgres.schema")
def test_the_first_write_makes_the_contract_table_with_the_exact_hashed_bodies_as_text(postgres_url):
    rows = recorded(postgres_url)
    columns = plain(
        postgres_url,
        "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
        "WHERE table_name = 'events' AND table_schema = current_schema() ORDER BY ordinal_position",
    )
    assert columns == [
        ("match_id", "text", "NO"),
        ("seq", "bigint", "NO"),
        ("kind", "text", "NO"),
        ("body", "text", "NO"),
        ("recorded_at", "text", "NO"),
        ("actor", "text", "NO"),
        ("prev_hash", "text", "NO"),
        ("hash", "text", "NO"),
    ]
    key = plain(
        postgres_url,
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
        "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'events'::regclass AND i.indisprimary "
        "ORDER BY array_position(i.indkey, a.attnum)",
    )
    assert key == [("match_id",), ("seq",)]
    assert [row[0] for row in plain(postgres_url, "SELECT body FROM events ORDER BY seq")] == [r.body for r in rows]
    # a query over the bodies as jsonb, with no Python
    assert plain(postgres_url, "SELECT body->>'text' FROM events_json WHERE kind = 'NoteAdded'") == [('é "quoted"',)]
    assert plain(postgres_url, "SELECT version FROM matchledger_schema") == [(SCHEMA_VERSION,)]
    triggers = plain(
        postgres_url,
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass AND NOT tgisinternal ORDER BY tgname",
    )
    assert triggers == [("events_no_delete",), ("events_no_truncate",), ("events_no_update",), ("events_notify",)]
    assert relations(postgres_url) == OURS


@pytest.mark.parametrize(
    "statement",
    ["UPDATE events SET body = body", "DELETE FROM events WHERE seq = 2", "TRUNCATE events", "TRUNCATE events CASCADE"],
)
@pytest.mark.guarantee("postgres.append-only")
def test_update_delete_and_truncate_fail_from_any_client(postgres_url, statement, opened):
    rows = recorded(postgres_url)
    operation = statement.split()[0]
    with pytest.raises(psycopg.errors.RaiseException, match=f"events are append-only: {operation} is not allowed"):
        plain(postgres_url, statement)
    assert opened(postgres_url, read_only=True).rows("m1") == rows


@pytest.mark.parametrize("command", [["status", "m1"], ["verify", "--all"], ["note", "m1", "hello"]])
@pytest.mark.guarantee("postgres.schema")
def test_a_read_or_a_write_of_an_existing_match_on_a_database_without_tables_is_an_error_and_makes_nothing(
    postgres_url, command
):
    result = invoke(postgres_url, *command, expect=1)
    assert (
        result.output == f"Error: no matchledger tables in {postgres_url!r} (run `matchledger init` or `new` first)\n"
    )
    assert relations(postgres_url) == []


@pytest.mark.guarantee("postgres.schema")
def test_init_makes_the_tables_once_and_is_a_write(postgres_url):
    assert invoke(postgres_url, "init").output == f"database ready: {postgres_url} (0 matches)\n"
    assert invoke(postgres_url, "init").output == f"database ready: {postgres_url} (0 matches)\n"
    assert relations(postgres_url) == OURS


@pytest.mark.guarantee("postgres.schema")
def test_writers_making_the_tables_at_once_make_them_once(postgres_url, opened):
    errors = []

    def first_write(n: int) -> None:
        try:
            with contextlib.closing(open_store(postgres_url)) as store:
                store.append(f"m{n}", 1, [CREATED], actor="host", recorded_at=T)
        except Exception as exc:  # any failure of the guarantee
            errors.append(exc)

    threads = [threading.Thread(target=first_write, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert plain(postgres_url, "SELECT version FROM matchledger_schema") == [(SCHEMA_VERSION,)]
    assert opened(postgres_url, read_only=True).match_ids() == [f"m{n}" for n in range(6)]


@pytest.mark.parametrize(
    "version, words",
    [
        (SCHEMA_VERSION + 1, f"newer than the version this matchledger reads ({SCHEMA_VERSION}); upgrade matchledger"),
        (0, f"not the version this matchledger reads ({SCHEMA_VERSION}); nothing was changed"),  # below the first
    ],
)
@pytest.mark.guarantee("postgres.schema-version")
def test_tables_of_another_schema_version_are_refused_by_reads_and_writes_naming_both(postgres_url, version, words):
    rows = recorded(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        conn.execute("UPDATE matchledger_schema SET version = %s", (version,))
    message = f"its tables are of matchledger schema version {version}, {words}"
    for read_only in (True, False):
        with pytest.raises(ForeignDatabase, match=message.replace("(", r"\(").replace(")", r"\)")):
            open_store(postgres_url, read_only=read_only)
    result = invoke(postgres_url, "note", "m1", "late", expect=1)
    assert result.output.count("\n") == 1 and message in result.output
    assert plain(postgres_url, "SELECT count(*) FROM events") == [(len(rows),)]


@pytest.mark.guarantee("postgres.schema-version")
def test_tables_that_record_no_schema_version_are_refused_saying_so(postgres_url):
    rows = recorded(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        conn.execute("DELETE FROM matchledger_schema")
    message = "its tables record no schema version, not the version this matchledger reads"
    for read_only in (True, False):
        with pytest.raises(ForeignDatabase, match=message):
            open_store(postgres_url, read_only=read_only)
    assert plain(postgres_url, "SELECT count(*) FROM events") == [(len(rows),)]


@pytest.mark.guarantee("postgres.schema-version")
def test_an_events_table_that_is_not_ours_is_refused_and_left_alone(postgres_url):
    plain(postgres_url, "CREATE TABLE events (id integer)")
    with pytest.raises(ForeignDatabase, match="its events table is not matchledger's"):
        open_store(postgres_url)
    assert relations(postgres_url) == ["events"]


@pytest.mark.guarantee("postgres.schema")
def test_a_database_not_encoded_in_utf8_is_refused(postgres_server):
    name = postgres_server.create_database(encoding="SQL_ASCII")
    try:
        url = postgres_server.url(name)
        with pytest.raises(ForeignDatabase, match="encoded in SQL_ASCII, and matchledger needs UTF8"):
            open_store(url)
        assert relations(url) == []
    finally:
        postgres_server.drop_database(name)


def test_a_read_only_store_cannot_write(postgres_url, opened):
    recorded(postgres_url)
    store = opened(postgres_url, read_only=True)
    with pytest.raises(Exception, match="cannot write to .*read-only transaction"):
        store.append("m1", 3, [NoteAdded(text="x")], actor="host", recorded_at=T)
    with pytest.raises(CorruptLog, match="no matchledger tables"):
        open_store(postgres_url.split("?")[0].rsplit("/", 1)[0] + "/postgres", read_only=True)


PLANTED_ON_POSTGRES = {
    "trigger 'plant' on table 'events'": [
        "CREATE FUNCTION plant() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
        "CREATE TRIGGER plant AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION plant()",
    ],
    "trigger 'unrevoke' on table 'capabilities'": [
        "CREATE FUNCTION unrevoke() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.revoked_at := NULL; RETURN NEW; END $$",
        "CREATE TRIGGER unrevoke BEFORE UPDATE ON capabilities FOR EACH ROW EXECUTE FUNCTION unrevoke()",
    ],
    "trigger 'events_no_update' on table 'events'": [
        "DROP TRIGGER events_no_update ON events",
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW WHEN (false) "
        "EXECUTE FUNCTION matchledger_append_only()",
    ],
    "trigger 'events_no_delete' on table 'events'": ["ALTER TABLE events DISABLE TRIGGER events_no_delete"],
    "function 'matchledger_append_only'": [
        "CREATE OR REPLACE FUNCTION matchledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$"
    ],
    "rule 'spy' on table 'events'": ["CREATE RULE spy AS ON INSERT TO events DO ALSO NOTIFY spy"],
    "function 'matchledger_notify'": [
        "CREATE OR REPLACE FUNCTION matchledger_notify() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN PERFORM pg_notify('spy', NEW.body); RETURN NULL; END $$"
    ],
    "trigger 'capabilities_notify' on table 'capabilities'": [
        "DROP TRIGGER capabilities_notify ON capabilities",
        "CREATE TRIGGER capabilities_notify AFTER INSERT OR UPDATE ON capabilities FOR EACH ROW "
        "EXECUTE FUNCTION matchledger_append_only()",
    ],
    "trigger 'events_notify' on table 'events'": ["ALTER TABLE events DISABLE TRIGGER events_notify"],
}


@pytest.mark.parametrize("named", list(PLANTED_ON_POSTGRES))
@pytest.mark.guarantee("postgres.schema-exact")
def test_a_trigger_rule_or_function_of_someone_elses_on_our_tables_is_refused(postgres_url, named):
    recorded(postgres_url)
    for statement in PLANTED_ON_POSTGRES[named]:
        plain(postgres_url, statement)
    for read_only in (True, False):
        with pytest.raises(ForeignDatabase, match=named):
            open_store(postgres_url, read_only=read_only)
    assert "which matchledger does not make" in invoke(postgres_url, "note", "m1", "x", expect=1).output
    assert len(plain(postgres_url, "SELECT seq FROM events")) == 2  # nothing written
