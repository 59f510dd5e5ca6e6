"""The per-decision write alone, before vs after (issue 16 item 3): the SQLAlchemy Core transaction the server
used (``_UPDATE_TABLE`` then ``_INSERT_DECISION`` in ``engine.begin()``) against ``Store.record_decision``
(``DecisionWriter``), alternating in 6 rounds of 200 writes on a fresh table each, ~900-byte states;
CPU time of this process (``time.process_time``; PostgreSQL's own CPU is not in it) and wall time.

    nice -n 10 .venv/bin/python benchmarks/server_store_write.py sqlite:////tmp/w.db
    nice -n 10 .venv/bin/python benchmarks/server_store_write.py "$FARMTABLE_TEST_POSTGRES"
"""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable

from farmtable.server.store import (
    _INSERT_DECISION,
    _UPDATE_TABLE,
    DecisionRecord,
    Seat,
    Store,
    TableRecord,
    _now,
)

STATE = "x" * 900


def main() -> None:
    """Run the rounds and print each side's CPU and wall µs per write (sorted, one per round)."""
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    store = Store(sys.argv[1])

    def table() -> str:
        tid = uuid.uuid4().hex
        seats = [Seat("human", None, None)] * 2
        store.create_table(TableRecord(tid, "race", 2, 7, [], {}, seats, STATE, 0, False, None, None))
        return tid

    def core(tid: str, v: int) -> None:
        now = _now()
        with store.engine.begin() as conn:
            conn.execute(
                _UPDATE_TABLE,
                {"b_id": tid, "b_prev": v - 1, "state": STATE, "version": v, "over": False, "now": now},
            )
            row = {"table_id": tid, "seq": v, "kind": "move", "player": 0, "notation": "add 1", "secret": False}
            row |= {"epoch_before": 0, "before": STATE, "reveals": None, "created_at": now}
            conn.execute(_INSERT_DECISION, row)

    def writer(tid: str, v: int) -> None:
        store.record_decision(tid, v, DecisionRecord(v, "move", 0, "add 1", False, 0, STATE), STATE, False)

    sides: dict[str, Callable[[str, int], None]] = {"core (before)": core, "DecisionWriter (after)": writer}
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    for r in range(6):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            tid = table()
            sides[name](tid, 1)
            cpu, wall = time.process_time(), time.perf_counter()
            for v in range(2, 202):
                sides[name](tid, v)
            got[name].append(((time.process_time() - cpu) / 200 * 1e6, (time.perf_counter() - wall) / 200 * 1e6))
    for name, runs in got.items():
        print(f"{name:<24} CPU µs {sorted(round(c) for c, _ in runs)}  wall µs {sorted(round(w) for _, w in runs)}")
    store.dispose()


if __name__ == "__main__":
    main()
