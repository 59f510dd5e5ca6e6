"""The same storage on PostgreSQL: runs when FARMTABLE_TEST_POSTGRES holds a database URL."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.server.conftest import TEST_LIMITS, TestClient, create_app, move, new_table, seat_headers, token, undo

PG_URL = os.environ.get("FARMTABLE_TEST_POSTGRES", "")

pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set FARMTABLE_TEST_POSTGRES=postgresql://user@host/db to run the PostgreSQL tests"
)


@pytest.fixture
def pg_client(race: None) -> Iterator[TestClient]:
    """A client of the app on the PostgreSQL database of FARMTABLE_TEST_POSTGRES."""
    with TestClient(create_app(PG_URL, limits=TEST_LIMITS)) as c:
        yield c


def test_a_game_is_stored_and_read_back_on_postgres(race: None, pg_client: TestClient) -> None:
    table = new_table(pg_client)
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    move(pg_client, tid, tokens[0], "add 2")
    move(pg_client, tid, tokens[1], "add 1")
    undo(pg_client, tid, tokens[1])
    before = pg_client.get(f"/api/tables/{tid}", headers=seat_headers(tokens[1])).json()
    with TestClient(create_app(PG_URL, limits=TEST_LIMITS)) as fresh:  # a new process would see the same
        after = fresh.get(f"/api/tables/{tid}", headers=seat_headers(tokens[1])).json()
        assert after["version"] == before["version"] == 3
        assert after["view"] == before["view"]
        # a log line's pushed events are known only to the process that stored it (GET /events for the rest)
        assert [{k: v for k, v in line.items() if k != "events"} for line in after["log"]] == [
            {k: v for k, v in line.items() if k != "events"} for line in before["log"]
        ]
        assert after["can_undo"] is False
        while not (p := fresh.get(f"/api/tables/{tid}").json())["over"]:
            seat = p["actors"][0]
            move(fresh, tid, tokens[seat], "add 2")
        replay = fresh.get(f"/api/tables/{tid}/replay").json()
        assert replay["result"]["totals"] == p["result"]["totals"]


def test_an_ai_table_opens_on_postgres(race: None, pg_client: TestClient) -> None:
    table = new_table(pg_client, seats=[{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}])
    assert pg_client.get(f"/api/tables/{table['id']}").status_code == 200
