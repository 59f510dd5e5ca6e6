"""Test-suite wide settings: which tests must share one pytest-xdist worker.

``./scripts/test`` runs the suite on several workers (``pytest -n ... --dist loadgroup``). Tests that
share an outside resource run on one worker, one after another, as they would in a serial run:

- the PostgreSQL tests use one database (``FARMTABLE_TEST_POSTGRES``) and start server processes that
  take over AI seats of any table in it;
- the Ray tests start a local Ray cluster.

A plain ``pytest`` (no ``-n``) ignores the groups.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("RAY_raylet_start_wait_time_s", "180")
"""Ray gives a starting node 30 s by default, too little on a loaded 2-core machine running several
test workers (a hang guard, not a timing)."""

SHARED_RESOURCE_GROUPS = {
    "tests/server/test_postgres.py": "postgres",
    "tests/server/test_cluster.py": "postgres",
    "tests/server/test_workers.py": "postgres",
    "tests/arena/test_arena.py": "ray",
}
"""Test file (relative to the project root) → the xdist group its tests run in."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put every test of a file in :data:`SHARED_RESOURCE_GROUPS` in that file's group."""
    root = config.rootpath
    for item in items:
        group = SHARED_RESOURCE_GROUPS.get(item.path.relative_to(root).as_posix())
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
