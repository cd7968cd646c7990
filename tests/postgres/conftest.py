"""The PostgreSQL suite: every test here runs on the session's throwaway server
(``postgres_server``, ``postgres_databases`` and ``postgres_url`` in tests/conftest.py)
and skips, saying why, where none can be started."""
