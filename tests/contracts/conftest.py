"""Fixtures of the contract suites: one run per back end in ``backends.BACKENDS``."""

import pytest

from .backends import BACKENDS


@pytest.fixture(params=BACKENDS, ids=lambda backend: backend.name)
def backend(request, tmp_path):
    return request.param.for_test(request, tmp_path)


@pytest.fixture
def store(backend):
    store = backend.open()
    yield store
    store.close()
