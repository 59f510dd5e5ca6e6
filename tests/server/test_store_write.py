"""The per-decision write (``Store.record_decision`` through ``DecisionWriter``): as durable and as atomic as
the SQLAlchemy Core transaction it replaces, storing the same values; on SQLite and, when
FARMTABLE_TEST_POSTGRES is set, on PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, insert, select, text

from farmtable.server.store import (
    _UPDATE_TABLE,
    DecisionRecord,
    DecisionRow,
    Seat,
    Store,
    TableRecord,
    TableRow,
    VersionConflict,
    _now,
)

PG_URL = os.environ.get("FARMTABLE_TEST_POSTGRES", "")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL: a fresh SQLite file, or the PostgreSQL test database (skipped when not set)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'write.db'}"
    if not PG_URL:
        pytest.skip("set FARMTABLE_TEST_POSTGRES=postgresql://user@host/db to run the PostgreSQL tests")
    return PG_URL


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    """A store on ``url``."""
    s = Store(url)
    yield s
    s.dispose()


def new_table(store: Store, state: str = '{"n": 0}') -> str:
    """A fresh table at version 0; returns its id (unique, so a shared PostgreSQL database is fine)."""
    tid = uuid.uuid4().hex
    store.create_table(
        TableRecord(tid, "race", 2, 7, [], {}, [Seat("human", None, None)] * 2, state, 0, False, None, None)
    )
    return tid


def decision(seq: int, secret: bool = False, closes: int | None = None) -> DecisionRecord:
    """A log row with distinct values in every column."""
    return DecisionRecord(
        seq, "move", seq % 2, f"add {seq}", secret, 40 + seq, f'{{"n": {seq - 1}}}', (seq - 1,), closes
    )


def fresh_rows(url: str, table_id: str) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The table's row (state, version, over) and its log rows as a fresh engine reads them from disk."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            t = TableRow.__table__
            d = DecisionRow.__table__
            table = conn.execute(select(t.c.state, t.c.version, t.c.over).where(t.c.id == table_id)).one()
            cols = [d.c.seq, d.c.kind, d.c.player, d.c.notation, d.c.secret, d.c.epoch_before, d.c.before, d.c.reveals]
            log = conn.execute(select(*cols).where(d.c.table_id == table_id).order_by(d.c.seq)).all()
            return tuple(table), [tuple(r) for r in log]
    finally:
        engine.dispose()


def test_a_decision_is_on_disk_when_the_call_returns(url: str, store: Store) -> None:
    tid = new_table(store)
    store.record_decision(tid, 1, decision(1), '{"n": 1}', False)
    store.record_decision(tid, 2, decision(2, secret=True, closes=1), '{"n": 2}', True)
    table, log = fresh_rows(url, tid)  # a new engine, a new connection: only what was committed
    assert table == ('{"n": 2}', 2, True)
    assert log == [
        (1, "move", 1, "add 1", False, 41, '{"n": 0}', None),
        (2, "move", 0, "add 2", True, 42, '{"n": 1}', '{"from": 1, "shown": [1]}'),
    ]
    reread = Store(url)
    try:
        rows = reread.load_log(tid)
        assert [(r.seq, r.notation, r.secret, r.reveals, r.closes) for r in rows] == [
            (1, "add 1", False, (), None),
            (2, "add 2", True, (1,), 1),
        ]
    finally:
        reread.dispose()


def test_the_write_stores_what_sqlalchemy_core_stored(url: str, store: Store) -> None:
    """Every column as the Core statements the writer replaced store it (types, datetimes, booleans)."""
    ours, theirs = new_table(store), new_table(store)
    store.record_decision(ours, 1, decision(1, secret=True), '{"n": 1}', True)
    now = _now()
    with store.engine.begin() as conn:  # the old write, verbatim
        conn.execute(
            _UPDATE_TABLE, {"b_id": theirs, "b_prev": 0, "state": '{"n": 1}', "version": 1, "over": True, "now": now}
        )
        row = decision(1, secret=True)
        conn.execute(
            insert(DecisionRow),
            {
                "table_id": theirs,
                "seq": 1,
                "kind": row.kind,
                "player": row.player,
                "notation": row.notation,
                "secret": row.secret,
                "epoch_before": row.epoch_before,
                "before": row.before,
                "reveals": None,
                "created_at": now,
            },
        )
    assert fresh_rows(url, ours) == fresh_rows(url, theirs)
    with store.engine.connect() as conn:  # the raw column values too (SQLite keeps what it was given)
        raw = [
            conn.execute(text("SELECT secret, created_at FROM decisions WHERE table_id = :t"), {"t": tid}).one()
            for tid in (ours, theirs)
        ]
        updated = [
            conn.execute(text('SELECT "over", updated_at FROM tables WHERE id = :t'), {"t": tid}).one()
            for tid in (ours, theirs)
        ]
    assert type(raw[0][0]) is type(raw[1][0]) and raw[0][0] == raw[1][0]
    assert type(raw[0][1]) is type(raw[1][1]) and len(str(raw[0][1])) == len(str(raw[1][1]))
    assert type(updated[0][1]) is type(updated[1][1]) and updated[0][0] == updated[1][0]
    # and the ORM reads our datetimes back like its own
    assert store.load_table(ours) is not None
    with store.session() as s:
        a, b = (s.get(TableRow, tid) for tid in (ours, theirs))
        assert a is not None and b is not None
        assert type(a.updated_at) is type(b.updated_at)
        assert abs((a.updated_at - b.updated_at).total_seconds()) < 3600


def test_a_stale_version_stores_nothing_and_the_next_write_works(url: str, store: Store) -> None:
    tid = new_table(store)
    store.record_decision(tid, 1, decision(1), '{"n": 1}', False)
    with pytest.raises(VersionConflict, match="expected version 2"):
        store.record_decision(tid, 3, decision(3), '{"n": 3}', False)
    with pytest.raises(VersionConflict):
        store.record_decision(tid, 1, decision(1), '{"n": 9}', False)  # the same version twice
    with pytest.raises(VersionConflict):
        store.record_decision("no-such-table", 1, decision(1), "{}", False)
    assert fresh_rows(url, tid) == (('{"n": 1}', 1, False), [(1, "move", 1, "add 1", False, 41, '{"n": 0}', None)])
    store.record_decision(tid, 2, decision(2), '{"n": 2}', False)
    assert fresh_rows(url, tid)[0] == ('{"n": 2}', 2, False)


def test_a_failing_log_row_leaves_the_table_as_it_was(url: str, store: Store) -> None:
    """The state update and the log row are one transaction: when the row cannot be stored (its seq is
    taken), the table's new state is not kept either, and the writer goes on working."""
    tid = new_table(store)
    with store.engine.begin() as conn:  # a log row for seq 1 already there (cannot happen in the server)
        conn.execute(
            insert(DecisionRow).values(
                table_id=tid, seq=1, kind="move", player=0, notation="x", secret=False, epoch_before=0, before=""
            )
        )
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        store.record_decision(tid, 1, decision(1), '{"n": 1}', False)
    assert fresh_rows(url, tid)[0] == ('{"n": 0}', 0, False)
    with store.engine.begin() as conn:
        conn.execute(DecisionRow.__table__.delete().where(DecisionRow.__table__.c.table_id == tid))
    store.record_decision(tid, 1, decision(1), '{"n": 1}', False)
    assert fresh_rows(url, tid)[0] == ('{"n": 1}', 1, False)


def test_the_write_survives_dispose(url: str, store: Store) -> None:
    tid = new_table(store)
    store.record_decision(tid, 1, decision(1), '{"n": 1}', False)
    store.dispose()  # gives the kept connection back; the next write opens another
    store.record_decision(tid, 2, decision(2), '{"n": 2}', False)
    assert fresh_rows(url, tid)[0] == ('{"n": 2}', 2, False)


@pytest.mark.parametrize("sync, level", [("NORMAL", 1), ("FULL", 2)])
def test_sqlite_writes_keep_the_pragmas(tmp_path: Path, sync: str, level: int) -> None:
    """The connection the decisions go through is in WAL mode with the chosen ``synchronous``."""
    store = Store(f"sqlite:///{tmp_path / 'p.db'}", sqlite_sync=sync)
    try:
        tid = new_table(store)
        store.record_decision(tid, 1, decision(1), '{"n": 1}', False)
        held = store._writer._held
        assert held is not None
        conn = held.driver_connection
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == level
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        store.dispose()


CHILD = textwrap.dedent(
    """
    import sys
    from farmtable.server.store import DecisionRecord, Seat, Store, TableRecord
    store = Store(sys.argv[1])
    seats = [Seat("human", None, None)] * 2
    store.create_table(TableRecord("t", "race", 2, 7, [], {}, seats, "{}", 0, False, None, None))
    for v in range(1, 100_000):
        row = DecisionRecord(v, "move", 0, f"add {v}", False, 0, "x" * 500)
        store.record_decision("t", v, row, f'{{"n": {v}}}', False)
        print(v, flush=True)  # the ack: only after the call returned
    """
)


def test_a_killed_process_loses_no_acknowledged_decision(tmp_path: Path) -> None:
    """SIGKILL a process that writes decisions as fast as it can: every decision it acknowledged is in the
    file afterwards, the log has no gap and the table's state is the one of its last stored decision."""
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, url], stdout=subprocess.PIPE, env=env, text=True)
    assert proc.stdout is not None
    acked = 0
    try:
        for line in proc.stdout:
            acked = int(line)
            if acked >= 200:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert acked >= 200
    table, log = fresh_rows(url, "t")
    assert table[1] >= acked
    assert [row[0] for row in log] == list(range(1, table[1] + 1))
    assert table[0] == f'{{"n": {table[1]}}}'
