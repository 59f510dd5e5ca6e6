"""Several ``farmtable serve`` processes on one PostgreSQL database: the notification listener.

Every stored change of a table is announced by the writing transaction with ``pg_notify`` on
:data:`farmtable.server.store.CHANNEL` (payload ``"<table id> <version> <kind> <origin> <unix time>"``,
delivered when it commits). Each process listens on its own connection (psycopg's async
``notifies()``) and hands each notification to :meth:`Hub.notified`, which brings the table up to
date if it is in memory here and pushes it to this process's sockets. When the connection drops, the
listener reconnects (with a growing pause) and tells the hub that notifications may have been
missed: every table in memory then catches up from the log.

The one writer per version is not decided here but by the database (see ``Store.record_decision``);
the AI-seat leases are rows of ``ai_leases`` (see ``Store.take_lease``). Nothing here is needed with
SQLite (one process).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import psycopg
from sqlalchemy.engine import URL

from farmtable.server.store import CHANNEL

if TYPE_CHECKING:
    from farmtable.server.hub import Hub

log = logging.getLogger("farmtable.server")

RECONNECT_FIRST = 0.2
RECONNECT_MOST = 5.0
"""Seconds between attempts to get the notification connection back: doubling from the first to the most."""


def conninfo(url: URL) -> str:
    """A libpq connection string (``postgresql://…``) for a SQLAlchemy URL of any PostgreSQL driver."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def parse(payload: str) -> tuple[str, int, str, str, float] | None:
    """The parts of a notification payload; None for one this version does not understand."""
    parts = payload.split(" ")
    if len(parts) != 5:
        return None
    table_id, version, kind, origin, sent = parts
    try:
        return table_id, int(version), kind, origin, float(sent)
    except ValueError:
        return None


class Listener:
    """The ``LISTEN`` connection of one process, kept open for as long as the server runs."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.dsn = conninfo(hub.store.engine.url)
        self.connected = asyncio.Event()
        """Set while notifications arrive (the readiness check looks at it)."""
        self._conn: psycopg.AsyncConnection[object] | None = None

    async def run(self) -> None:
        """Listen until cancelled, reconnecting after any failure (then every table catches up)."""
        pause = RECONNECT_FIRST
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    self._conn = conn
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    pause = RECONNECT_FIRST
                    if not first:
                        self.hub.missed_notifications()
                    first = False
                    async for note in conn.notifies():
                        parsed = parse(note.payload)
                        if parsed is not None:
                            self.hub.notified(*parsed)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: try again, and catch up then
                log.warning("notification connection lost (%s); reconnecting in %.1f s", exc, pause)
            finally:
                self.connected.clear()
                self._conn = None
            first = False
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_MOST)
