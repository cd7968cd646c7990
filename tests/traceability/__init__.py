"""Traceability: every numbered ruling of the rules and every row of docs/guarantees.md
is named by a test that decides it (docs/testing.md)."""
