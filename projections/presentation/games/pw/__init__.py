"""Parallel Worlds: the per-round action totals as a picture (``picture``)."""
