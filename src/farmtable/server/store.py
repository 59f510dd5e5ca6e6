"""Persistence of tables: SQLAlchemy models and the storage calls the server makes.

Two tables. ``tables`` holds one row per game table: what game, which seats (their kind,
agent spec and the SHA-256 of their secret token, never the token itself), how the game
was started (seed, variants, options: enough to replay it from the start) and the state
as it stands (``to_json``). ``decisions`` is append-only: one row per accepted decision or
undo, with the state before it (for undo after a restart) and whether it was made in a
simultaneous step (then others only see "player N chose").

Every accepted decision is written in one transaction (log row + new state) before the
server acknowledges it or pushes it to anyone. SQLite by default, PostgreSQL by URL.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import operator
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool


def hash_token(token: str) -> str:
    """The SHA-256 hex digest under which a seat token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


class TableRow(Base):
    """One game table."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    """Legacy: seeds below 2**63 (tables made before seeds grew). New tables store 0 here."""
    seed_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The seed in decimal (128 secret bits, or a creator's explicit seed); read before ``seed``."""
    meta: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON: ``{"seeded": true}`` for a table whose seed its creator chose (shown to everyone)."""
    variants: Mapped[str] = mapped_column(Text, default="[]")
    options: Mapped[str] = mapped_column(Text, default="{}")
    seats: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=0)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class DecisionRow(Base):
    """One accepted decision (``kind="move"``) or taking one back (``kind="undo"``); never changed."""

    __tablename__ = "decisions"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    player: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    secret: Mapped[bool] = mapped_column(Boolean, default=False)
    epoch_before: Mapped[int] = mapped_column(Integer, default=0)
    before: Mapped[str] = mapped_column(Text, default="")
    reveals: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Set on the decision that closed a simultaneous step: JSON ``{"from": <seq of the step's first line>,
    "shown": [<seqs of its secret lines the game now shows everyone>]}``. The others stay secret for good."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class LeaseRow(Base):
    """Who runs a table's AI seats now (several server processes on one PostgreSQL database).

    A process holds the lease of a table while its AI seat thinks and renews it; when the process
    dies the lease expires (times are the database's clock, so machines need not agree) and any
    other process may take it."""

    __tablename__ = "ai_leases"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class JoinCodeRow(Base):
    """A short code a friend types to take an invited seat (issue 15 item 3). Only the SHA-256 of the
    code is stored; the seat's token is stored XOR-ed with a key drawn from the code, so the database
    alone does not give the token away. A code is used once and expires."""

    __tablename__ = "join_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    sealed: Mapped[str] = mapped_column(Text)
    """The seat token XOR-ed with the code's key stream, hex."""
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def _keystream(code: str, length: int) -> bytes:
    out = b""
    block = 0
    while len(out) < length:
        out += hashlib.sha256(f"farmtable-join:{block}:{code}".encode()).digest()
        block += 1
    return out[:length]


def seal_token(code: str, token: str) -> str:
    """The token hidden under the code (hex); :func:`unseal_token` with the same code gives it back."""
    data = token.encode("utf-8")
    return bytes(a ^ b for a, b in zip(data, _keystream(code, len(data)), strict=True)).hex()


def unseal_token(code: str, sealed: str) -> str:
    """The token :func:`seal_token` hid under ``code``."""
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _keystream(code, len(data)), strict=True)).decode("utf-8", "replace")


_TABLES = TableRow.__table__
_UPDATE_TABLE = (
    update(TableRow)
    .where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_prev"))
    .values(state=bindparam("state"), version=bindparam("version"), over=bindparam("over"), updated_at=bindparam("now"))
)
_INSERT_DECISION = insert(DecisionRow)


_DECISION_COLUMNS = (
    "table_id",
    "seq",
    "kind",
    "player",
    "notation",
    "secret",
    "epoch_before",
    "before",
    "reveals",
    "created_at",
)


def _picker(keys: list[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """A function giving the values of ``keys``, in order, as a tuple (one C call per write, not a loop)."""
    if len(keys) == 1:  # itemgetter of one key gives the value itself, not a tuple of it
        key = keys[0]
        return lambda values: (values[key],)
    return operator.itemgetter(*keys)


class DecisionWriter:
    """The one write made per decision (:meth:`Store.record_decision`), as plain DBAPI calls.

    SQLAlchemy compiles, binds and wraps every ``execute`` anew: for this write that came to about three
    quarters of its CPU. Here the SQL text is made once, from the same Core statements and the engine's
    own dialect (quoting, parameter style), and runs on the DBAPI connection SQLAlchemy opened (so the
    SQLite pragmas of :func:`make_engine` apply: WAL, the chosen ``synchronous``, foreign keys). Values
    go through the column types' own bind processors (SQLite stores datetimes and booleans as SQLAlchemy
    does). Every call is one transaction, committed before it returns, or rolled back.

    - SQLite: two statements (an ``UPDATE`` checking the version, the log row's ``INSERT``) on one
      connection kept for these writes (no pool checkout per decision); a lock keeps callers on other
      threads one at a time.
    - PostgreSQL: one statement (the ``INSERT`` selects from the ``UPDATE ... RETURNING``, so the log row
      exists only when the version matched): one round trip; a pooled connection per call, as the
      storage threads write different tables at once.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self.single = dialect.name == "postgresql"
        """One statement (PostgreSQL) instead of two."""

        def processor(column: Any) -> Callable[[Any], Any]:
            made = column.type.dialect_impl(dialect).bind_processor(dialect)
            return made if made is not None else _same

        self._when = processor(_TABLES.c.updated_at)
        self._flag = processor(_TABLES.c.over)
        update_sql = _UPDATE_TABLE.compile(dialect=dialect)
        insert_sql = _INSERT_DECISION.compile(dialect=dialect, column_keys=list(_DECISION_COLUMNS))
        self._positional = bool(update_sql.positional)
        if self.single:
            columns = ", ".join(dialect.identifier_preparer.quote(c) for c in _DECISION_COLUMNS)
            casts = {"seq": "INTEGER", "player": "INTEGER", "epoch_before": "INTEGER", "secret": "BOOLEAN"}
            values = ", ".join(
                "moved.id"
                if c == "table_id"
                else f"CAST(%({c})s AS {casts.get(c, 'TEXT')})"
                if c != "created_at"
                else "CAST(%(created_at)s AS TIMESTAMP WITH TIME ZONE)"
                for c in _DECISION_COLUMNS
            )
            self._sql = (
                f"WITH moved AS ({update_sql.string} RETURNING tables.id) "
                f"INSERT INTO decisions ({columns}) SELECT {values} FROM moved"
            )
        else:
            self._update = update_sql.string
            self._update_order = list(update_sql.positiontup or ())
            self._update_values = _picker(self._update_order)
            """The UPDATE's parameters, in order, from the values of a write."""
            self._insert = insert_sql.string.removesuffix(" RETURNING decisions.id")
            self._insert_order = list(insert_sql.positiontup or ())
            self._insert_values = _picker(self._insert_order)
            if not self._positional:
                raise ValueError(
                    f"a two-statement decision write needs a positional parameter style, not {dialect.paramstyle}"
                )
        self._held: Any = None
        """The pool connection kept for these writes (SQLite), opened on first use."""
        self._lock = threading.Lock()

    def write(
        self,
        table_id: str,
        version: int,
        decision: DecisionRecord,
        reveals: str | None,
        state: str,
        over: bool,
        now: datetime,
    ) -> None:
        """Store the new state at ``version`` (if the table is at ``version - 1``) and its log row, in one
        committed transaction; :class:`VersionConflict` (and nothing stored) when the version moved."""
        when = self._when(now)
        values = {
            "b_id": table_id,
            "b_prev": version - 1,
            "state": state,
            "version": version,
            "over": self._flag(over),
            "now": when,
            "table_id": table_id,
            "seq": decision.seq,
            "kind": decision.kind,
            "player": decision.player,
            "notation": decision.notation,
            "secret": self._flag(decision.secret),
            "epoch_before": decision.epoch_before,
            "before": decision.before,
            "reveals": reveals,
            "created_at": when,
        }
        if self.single:
            self._write_one(values, table_id, version)
        else:
            with self._lock:
                self._write_two(values, table_id, version)

    def _write_one(self, values: dict[str, Any], table_id: str, version: int) -> None:
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            try:
                cursor.execute(self._sql, values)
                if cursor.rowcount != 1:
                    conn.rollback()
                    raise VersionConflict(f"table {table_id} changed under us (expected version {version - 1})")
                conn.commit()
            finally:
                cursor.close()
        finally:
            conn.close()  # back to the pool (which rolls back whatever was left open)

    def _write_two(self, values: dict[str, Any], table_id: str, version: int) -> None:
        if self._held is None:
            self._held = self.engine.raw_connection()
        dbapi = self._held.driver_connection
        try:
            done = dbapi.execute(self._update, self._update_values(values))
            if done.rowcount != 1:
                dbapi.rollback()
                raise VersionConflict(f"table {table_id} changed under us (expected version {version - 1})")
            dbapi.execute(self._insert, self._insert_values(values))
            dbapi.commit()
        except VersionConflict:
            raise
        except BaseException:
            self._drop_on_failure()
            raise

    def _drop_on_failure(self) -> None:
        """Roll back a failed write; a connection that cannot even do that is given up (a new one next time)."""
        held = self._held
        try:
            held.driver_connection.rollback()
        except Exception:
            self._held = None
            with contextlib.suppress(Exception):
                held.invalidate()

    def close(self) -> None:
        """Give the kept connection back to the pool (a later write opens one again)."""
        with self._lock:
            held, self._held = self._held, None
            if held is not None:
                held.close()


def _same(value: Any) -> Any:
    return value


@dataclass
class Seat:
    """A seat at a table: a person (``kind="human"``) or an AI (``kind="ai"`` with an agent spec)."""

    kind: str
    agent: str | None
    token_hash: str | None
    issued: float | None = None
    """When the seat's token was issued (Unix seconds); None for seats stored before tokens expired."""
    name: str | None = None
    """The name its player chose (checked by ``farmtable.server.hub.check_name``); None: unnamed."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for the ``seats`` column."""
        return {
            "kind": self.kind,
            "agent": self.agent,
            "token_hash": self.token_hash,
            "issued": self.issued,
            "name": self.name,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Seat:
        """Read a seat back from the ``seats`` column (rows stored before names load unnamed)."""
        issued = data.get("issued")
        name = data.get("name")
        return Seat(
            str(data["kind"]),
            data.get("agent"),
            data.get("token_hash"),
            None if issued is None else float(issued),
            None if name is None else str(name),
        )

    def copy(self) -> Seat:
        """An independent copy (seats are changed copy-then-store, never in place)."""
        return Seat(self.kind, self.agent, self.token_hash, self.issued, self.name)


@dataclass
class TableRecord:
    """A table as loaded from storage (plain data, detached from any session)."""

    id: str
    game: str
    players: int
    seed: int
    variants: list[str]
    options: dict[str, Any]
    seats: list[Seat]
    state: str
    version: int
    over: bool
    rematch_of: str | None
    rematch: str | None
    seeded: bool = False
    """The creator chose the seed (everyone at the table is told, with the seed)."""


@dataclass
class DecisionRecord:
    """A log row as loaded from storage."""

    seq: int
    kind: str
    player: int
    notation: str
    secret: bool
    epoch_before: int
    before: str
    reveals: tuple[int, ...] = ()
    """On the decision that closed a simultaneous step: the seqs of its lines everyone may now read."""
    closes: int | None = None
    """On the decision that closed a simultaneous step: the seq of that step's first line."""


class VersionConflict(RuntimeError):
    """The table's stored version is not the one a write expected: another process wrote first."""


CHANNEL = "farmtable_tables"
"""The PostgreSQL ``LISTEN/NOTIFY`` channel on which every change of a table is announced."""


def _decision(r: DecisionRow) -> DecisionRecord:
    closed = json.loads(r.reveals) if r.reveals else {}
    reveals = tuple(int(x) for x in closed.get("shown", ()))
    closes = None if closed.get("from") is None else int(closed["from"])
    return DecisionRecord(r.seq, r.kind, r.player, r.notation, r.secret, r.epoch_before, r.before, reveals, closes)


_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
MIGRATION_LOCK = 0x66617274  # "fart": the advisory lock key under which the schema is brought up to date
NOTIFY_TRIGGER = (
    f"""CREATE OR REPLACE FUNCTION farmtable_announce() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('{CHANNEL}', NEW.table_id || ' ' || NEW.seq || ' decision - '
                          || extract(epoch FROM clock_timestamp()));
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER farmtable_announce AFTER INSERT ON decisions FOR EACH ROW EXECUTE FUNCTION farmtable_announce()",
)
"""Every stored decision is announced by PostgreSQL itself (no extra round trip for the writer): the
payload is ``"<table> <seq> decision - <unix time>"``, sent when the writing transaction commits."""
_TAKE_LEASE = text(
    "INSERT INTO ai_leases (table_id, holder, expires) VALUES (:t, :h, now() + make_interval(secs => :s)) "
    "ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires "
    "WHERE ai_leases.holder = EXCLUDED.holder OR ai_leases.expires < now() RETURNING holder"
)
_LEASE_LEFT = text("SELECT EXTRACT(EPOCH FROM expires - now()) FROM ai_leases WHERE table_id = :t")
_RENEW_LEASES = text(
    "UPDATE ai_leases SET expires = now() + make_interval(secs => :s) "
    "WHERE holder = :h AND table_id = ANY(:ids) RETURNING table_id"
)
_RELEASE_LEASE = text("DELETE FROM ai_leases WHERE table_id = :t AND holder = :h")


def _record(row: TableRow) -> TableRecord:
    return TableRecord(
        id=row.id,
        game=row.game,
        players=row.players,
        seed=int(row.seed_text) if row.seed_text else row.seed,
        variants=list(json.loads(row.variants)),
        options=dict(json.loads(row.options)),
        seats=[Seat.from_dict(s) for s in json.loads(row.seats)],
        state=row.state,
        version=row.version,
        over=row.over,
        rematch_of=row.rematch_of,
        rematch=row.rematch,
        seeded=bool(json.loads(row.meta or "{}").get("seeded", False)),
    )


SQLITE_SYNC_MODES = ("NORMAL", "FULL")


def make_engine(url: str, sqlite_sync: str = "NORMAL") -> Engine:
    """An engine for ``url``. SQLite runs in WAL mode: a committed decision survives the process
    being killed at any moment. ``sqlite_sync="FULL"`` also fsyncs every commit, so it survives
    the machine losing power too (about 4 ms more per decision on an ordinary disk)."""
    if sqlite_sync.upper() not in SQLITE_SYNC_MODES:
        raise ValueError(f"sqlite sync mode must be one of {', '.join(SQLITE_SYNC_MODES)}, not {sqlite_sync!r}")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        in_memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if in_memory else None,  # one shared connection keeps a memory database alive
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")
            # No checkpoints inside a commit (they write and sync the whole WAL back into the database,
            # stalling whoever commits): the server runs them on a thread instead (Store.checkpoint).
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """Reads and writes tables and their logs. Every method is one short transaction (blocking)."""

    def __init__(self, url: str, sqlite_sync: str = "NORMAL") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_sync)
        self.inline = self.engine.dialect.name == "sqlite"
        """True when calls are cheap enough to make on the event loop (SQLite: a local file)."""
        self.shared = self.engine.dialect.name == "postgresql"
        """True when several server processes may use this database at once (PostgreSQL)."""
        self.announce = self.shared
        """Announce every change on :data:`CHANNEL` (what other processes listen to)."""
        with self.engine.begin() as conn:
            if self.shared:  # several processes may start at once: one at a time makes or updates the schema
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            Base.metadata.create_all(conn)
            self._migrate(conn)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._writer = DecisionWriter(self.engine)

    def _migrate(self, conn: Connection) -> None:
        """Add the columns newer versions need to a database made by an older one, and (PostgreSQL) the
        trigger that announces every decision (idempotent; run under the schema lock)."""
        present = {c["name"] for c in inspect(conn).get_columns("tables")}
        logged = {c["name"] for c in inspect(conn).get_columns("decisions")}
        for name in ("seed_text", "meta"):
            if name not in present:
                conn.exec_driver_sql(f"ALTER TABLE tables ADD COLUMN {name} TEXT")
        if "reveals" not in logged:
            conn.exec_driver_sql("ALTER TABLE decisions ADD COLUMN reveals TEXT")
        if self.shared:
            function, trigger = NOTIFY_TRIGGER
            conn.exec_driver_sql(function)
            found = conn.execute(text("SELECT 1 FROM pg_trigger WHERE tgname = 'farmtable_announce'")).first()
            if found is None:
                conn.exec_driver_sql(trigger)

    def _notify(self, conn: Connection, table_id: str, version: int, kind: str, origin: str) -> None:
        """Announce a change of a table to every process (PostgreSQL; sent when the transaction commits)."""
        if self.announce:
            conn.execute(
                _NOTIFY,
                {"channel": CHANNEL, "payload": f"{table_id} {version} {kind} {origin or '-'} {time.time():.6f}"},
            )

    def session(self) -> Session:
        """A new session (callers use it as a context manager)."""
        return self._sessions()

    def create_table(self, record: TableRecord, origin: str = "") -> str:
        """Store a new table (version 0, empty log). A rematch is stored only if its table has none yet
        (two processes may make it at once): returns the id of the rematch that stands."""
        with self.session() as s, s.begin():
            if record.rematch_of:
                row = s.get(TableRow, record.rematch_of, with_for_update=True)
                if row is not None and row.rematch:
                    return row.rematch
            s.add(
                TableRow(
                    id=record.id,
                    game=record.game,
                    players=record.players,
                    seed=0,
                    seed_text=str(record.seed),
                    meta=json.dumps({"seeded": record.seeded}),
                    variants=json.dumps(record.variants),
                    options=json.dumps(record.options),
                    seats=json.dumps([seat.to_dict() for seat in record.seats]),
                    state=record.state,
                    version=record.version,
                    over=record.over,
                    rematch_of=record.rematch_of,
                    rematch=None,
                )
            )
            if record.rematch_of:
                s.execute(update(TableRow).where(TableRow.id == record.rematch_of).values(rematch=record.id))
                source = s.get(TableRow, record.rematch_of)
                self._notify(s.connection(), record.rematch_of, source.version if source else 0, "meta", origin)
        return record.id

    def set_seats(self, table_id: str, seats: list[Seat]) -> None:
        """Store new seats for a table (a rematch seat claiming its fresh token)."""
        with self.session() as s, s.begin():
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(seats=json.dumps([seat.to_dict() for seat in seats]))
            )

    def update_seat(self, table_id: str, index: int, changes: dict[str, Any], origin: str = "") -> list[Seat]:
        """Change fields of one seat (``name``, ``token_hash``, ``issued``) under the table row's lock, so
        two processes changing two seats at once both stand; announces it. Returns the seats as stored."""
        with self.session() as s, s.begin():
            row = s.get(TableRow, table_id, with_for_update=True)
            if row is None:
                raise KeyError(table_id)
            seats = [Seat.from_dict(d) for d in json.loads(row.seats)]
            for key, value in changes.items():
                setattr(seats[index], key, value)
            row.seats = json.dumps([seat.to_dict() for seat in seats])
            self._notify(s.connection(), table_id, row.version, "seats", origin)
            return seats

    def add_join_code(self, code: str, table_id: str, seat: int, token: str, seconds: float) -> bool:
        """Store a join code for ``seat`` of ``table_id`` (valid ``seconds``); False if the code is taken."""
        with self.engine.begin() as conn:
            key = hash_token(code)
            if conn.execute(select(JoinCodeRow.code_hash).where(JoinCodeRow.code_hash == key)).first():
                return False
            expires = datetime.fromtimestamp(time.time() + seconds, UTC)
            conn.execute(
                insert(JoinCodeRow).values(
                    code_hash=key, table_id=table_id, seat=seat, sealed=seal_token(code, token), expires=expires
                )
            )
            return True

    def take_join_code(self, code: str) -> tuple[str, int, str] | None:
        """Use a join code once: ``(table id, seat, token)``, or None when it is unknown or expired (an
        expired code is removed too)."""
        key = hash_token(code)
        with self.engine.begin() as conn:
            row = conn.execute(select(JoinCodeRow).where(JoinCodeRow.code_hash == key)).first()
            if row is None:
                return None
            gone = conn.execute(delete(JoinCodeRow).where(JoinCodeRow.code_hash == key))
            if gone.rowcount != 1:  # another request used it first
                return None
            expires = row.expires if row.expires.tzinfo else row.expires.replace(tzinfo=UTC)
            if expires < _now():
                return None
            return row.table_id, row.seat, unseal_token(code, row.sealed)

    def load_table(self, table_id: str) -> TableRecord | None:
        """The table with this id, or None."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else _record(row)

    def load_log(self, table_id: str) -> list[DecisionRecord]:
        """Every log row of a table, in order."""
        with self.session() as s:
            rows = s.scalars(select(DecisionRow).where(DecisionRow.table_id == table_id).order_by(DecisionRow.seq))
            return [_decision(r) for r in rows]

    def load_since(self, table_id: str, version: int) -> tuple[TableRecord, list[DecisionRecord]] | None:
        """The table as stored now and its log rows after ``version`` (how a process catches up with
        decisions other processes made); None if there is no such table."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            record = _record(row)
            rows = s.scalars(
                select(DecisionRow)
                .where(DecisionRow.table_id == table_id, DecisionRow.seq > version, DecisionRow.seq <= record.version)
                .order_by(DecisionRow.seq)
            )
            return record, [_decision(r) for r in rows]

    def version_of(self, table_id: str) -> int | None:
        """The stored version of a table (one indexed read); None if there is no such table."""
        with self.engine.connect() as conn:
            found = conn.execute(select(_TABLES.c.version).where(_TABLES.c.id == table_id)).scalar_one_or_none()
            return None if found is None else int(found)

    def record_decision(
        self, table_id: str, version: int, decision: DecisionRecord, state: str, over: bool, origin: str = ""
    ) -> None:
        """Append a log row and store the new state, atomically; ``version`` is the new version.

        The conditional update takes the table row's lock and checks the version in one statement: of two
        processes writing the same version, the second waits for the first to commit, then finds the
        version moved and raises :class:`VersionConflict` (nothing of it is stored). On PostgreSQL the
        change is announced on :data:`CHANNEL` when the transaction commits.

        It runs once per decision, so it skips SQLAlchemy's per-call work: the SQL is built once
        (:class:`DecisionWriter`) and runs on the DBAPI connection SQLAlchemy opened (with its pragmas),
        committed before this returns, exactly as durable as a Core ``engine.begin()`` block.
        """
        reveals = (
            None if decision.closes is None else json.dumps({"from": decision.closes, "shown": list(decision.reveals)})
        )
        self._writer.write(table_id, version, decision, reveals, state, over, _now())

    # --- AI-seat leases (PostgreSQL: several processes) ------------------------------------

    def take_lease(self, table_id: str, holder: str, seconds: float) -> float | None:
        """Take (or renew) the lease of a table's AI seats for ``seconds``: None when ``holder`` has it
        now, else the seconds left on another holder's lease. Only for a shared database."""
        with self.engine.begin() as conn:
            got = conn.execute(_TAKE_LEASE, {"t": table_id, "h": holder, "s": seconds}).first()
            if got is not None:
                return None
            left = conn.execute(_LEASE_LEFT, {"t": table_id}).scalar_one_or_none()
            return max(0.0, float(left)) if left is not None else 0.0

    def renew_leases(self, holder: str, table_ids: list[str], seconds: float) -> set[str]:
        """Extend every lease ``holder`` still has among ``table_ids``; returns those it still holds."""
        if not table_ids:
            return set()
        with self.engine.begin() as conn:
            rows = conn.execute(_RENEW_LEASES, {"h": holder, "ids": table_ids, "s": seconds})
            return {str(r[0]) for r in rows}

    def release_lease(self, table_id: str, holder: str) -> None:
        """Give up a lease (the AI has nothing to do, or the process is stopping)."""
        with self.engine.begin() as conn:
            conn.execute(_RELEASE_LEASE, {"t": table_id, "h": holder})

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log back into the database file (PASSIVE: never blocks writers).

        Called on a thread every few seconds by the server; a no-op for other databases."""
        if self.engine.dialect.name == "sqlite" and self.engine.url.database not in (None, "", ":memory:"):
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def count_tables(self) -> int:
        """How many tables are stored."""
        with self.session() as s:
            return len(list(s.scalars(select(TableRow.id))))

    def dispose(self) -> None:
        """Close every pooled connection."""
        self._writer.close()
        self.engine.dispose()
