"""Performance benchmark of matchledger (issue 8): ``python -m bench [--quick]``.

See :mod:`bench.run` and docs/performance.md.
"""
