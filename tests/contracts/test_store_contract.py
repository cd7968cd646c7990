"""The shipped store contract (:mod:`matchledger.testing.store_contract`), run
unchanged against each back end of ``backends.BACKENDS``."""

import pytest

from matchledger.testing.store_contract import StoreContract

from .backends import BACKENDS


class TestStoreContract(StoreContract):
    @pytest.fixture(params=BACKENDS, ids=lambda make: make.__name__)
    def backend(self, request, tmp_path):
        return request.param(request, tmp_path)
