"""Parallel Worlds: the per-round action totals as a picture (``picture``); its terminal
text is the generic one."""
