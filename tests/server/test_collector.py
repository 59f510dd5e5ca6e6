"""The server's collector settings (``farmtable.server.collector``): applied while an app serves, restored after."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from farmtable.server import create_app
from farmtable.server.collector import THRESHOLDS, quiet_collector
from tests.server.conftest import TEST_LIMITS


def test_quiet_collector_freezes_and_restores() -> None:
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with quiet_collector((12_345, 7, 9)):
        assert gc.get_threshold() == (12_345, 7, 9)
        assert gc.get_freeze_count() > frozen  # what was alive at the start is frozen
        with quiet_collector((1, 1, 1)):  # a second app in the same process changes nothing
            assert gc.get_threshold() == (12_345, 7, 9)
        assert gc.get_threshold() == (12_345, 7, 9)  # the inner one ending does not restore yet
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


def test_quiet_collector_restores_after_an_error() -> None:
    before = gc.get_threshold()
    try:
        with quiet_collector():
            assert gc.get_threshold() == THRESHOLDS
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before


def test_the_app_serves_with_the_quiet_collector(tmp_path) -> None:  # type: ignore[no-untyped-def]
    before = gc.get_threshold()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", limits=TEST_LIMITS)) as client:
        assert gc.get_threshold() == THRESHOLDS
        assert client.get("/api/games").status_code == 200
    assert gc.get_threshold() == before
