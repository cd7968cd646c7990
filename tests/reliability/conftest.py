"""Every test under tests/reliability/ carries the `reliability` marker, so
`pytest -m reliability` runs this suite alone and `-m "not reliability"` skips it.
The long suites kept beside their subject set the marker themselves (`pytestmark`): the
tamper matrices in tests/trust/tampering/ and the read-model privacy harness in
tests/trust/privacy/.

A longer soak of the crash and concurrency tests runs with MATCHLEDGER_SOAK=N
(N times the default number of kills / attempts)."""

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/reliability/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.reliability)
