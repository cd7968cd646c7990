"""Mutation check: plant realistic one-line bugs, one at a time, in a copy of the tree
and see whether the tests meant to decide each one fail (docs/testing.md).

``python -m tests.mutation`` runs it; ``mutants.py`` lists the bugs.  Not part of the
suite: it runs pytest once per bug.
"""
