"""The live tables: game states in memory, seat tokens, the AI seat runner and the WebSocket hub.

The server owns every state. A person acts for a seat only with that seat's token; what
anyone receives is built from ``state.view(seat)`` (``None`` for spectators), the seat's own
legal moves, and a game log in which choices made in a simultaneous step stay "player N
chose" for everyone but the chooser. Each accepted decision is written to storage before it
is acknowledged or pushed. AI seats think in a thread pool, so one table's thinking never
stalls another table or the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import farmtable
import farmtable.agents
from farmtable.core import CorruptSave, Game, History, IllegalAction, State
from farmtable.core.history import Decision
from farmtable.server.render import render
from farmtable.server.store import DecisionRecord, Seat, Store, TableRecord, hash_token

log = logging.getLogger("farmtable.server")

T = TypeVar("T")

HUMAN = "human"
AI = "ai"
LOG_TAIL = 30
"""How many of the latest log lines each update carries (the page fetches older ones once)."""
SEED_LIMIT = 2**31


HEAVY_AGENTS = frozenset({"ismcts"})
"""Agents that think for long (search): they run in worker processes, so their thinking never
holds the interpreter lock the server's event loop needs. Light agents run in a thread pool."""


def act_in_process(spec: str, seed: int, state: State[Any], seat: int) -> str:
    """Worker-process side of an AI decision (the state arrives pickled): returns the notation."""
    return str(farmtable.agents.make(spec, seed=seed).act(state, seat))


class ApiError(Exception):
    """A refused request: an HTTP status and a message for the person who sent it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class LogLine:
    """One line of the game log; ``secret`` lines show their notation only to their player."""

    seq: int
    kind: str
    player: int
    notation: str
    secret: bool

    def text_for(self, seat: int | None) -> str:
        """The line as ``seat`` may read it."""
        hidden = self.secret and seat != self.player
        if self.kind == "undo":
            return f"Player {self.player} took back a decision" + ("" if hidden else f" ({self.notation})")
        return f"Player {self.player} chose (secret)" if hidden else f"Player {self.player}: {self.notation}"


class Subscriber:
    """One WebSocket connection: the seat it speaks for, and whether it is owed an update.

    Updates are built when they are sent, from the table as it then stands (a full snapshot),
    so a slow connection never queues stale ones: it simply gets the latest.
    """

    def __init__(
        self,
        seat: int | None,
        build: Callable[[], Awaitable[dict[str, Any]]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        self.seat = seat
        self.build = build
        self.send = send
        self.ready = asyncio.Event()
        self.closed = False

    def offer(self) -> None:
        """Mark the connection as owed the latest update."""
        self.ready.set()

    async def pump(self) -> None:
        """Send the latest update whenever one is owed, until the connection closes."""
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            if not self.closed:
                await self.send(await self.build())


@dataclass
class Table:
    """A table in memory: its stored record, the game history, the log and who is watching."""

    record: TableRecord
    game: Game[Any]
    history: History
    lines: list[LogLine]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    agents: dict[int, farmtable.agents.Agent] = field(default_factory=dict)
    ai_task: asyncio.Task[None] | None = None
    notice: str | None = None
    last_used: float = field(default_factory=time.monotonic)
    cache: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    secret_flags: list[bool] = field(default_factory=list)
    """For each standing decision (aligned with ``history.decisions``): was it a simultaneous-step secret."""

    @property
    def state(self) -> State[Any]:
        """The game as it stands."""
        return self.history.state

    @property
    def version(self) -> int:
        """How many log rows the table has (every accepted decision or undo adds one)."""
        return self.record.version

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token belongs to; None for no token. Raises 403 for a token of no seat."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.record.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return i
        raise ApiError(403, f"this seat token does not belong to any seat of table {self.record.id}")

    def ai_actor(self) -> int | None:
        """An AI seat that must decide now, if any."""
        for p in self.state.actors():
            if self.record.seats[p].kind == AI:
                return p
        return None


R = TypeVar("R", DecisionRecord, "LogLine")


def _effective(rows: Sequence[R]) -> list[R]:
    """The decisions that stand once every undo row has taken back the one before it."""
    stack: list[R] = []
    for row in rows:
        if row.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(row)
    return stack


def replay(game: Game[Any], record: TableRecord, standing: Sequence[DecisionRecord | LogLine]) -> list[State[Any]]:
    """Every position of a table from its start (seed, variants, options) through its standing decisions."""
    state = game.new_game(players=record.players, seed=record.seed, variants=tuple(record.variants), **record.options)
    states = [state.clone()]
    for row in standing:
        state.apply(row.player, row.notation)
        states.append(state.clone())
    return states


def seat_label(seat: Seat, index: int, me: int | None) -> str:
    """How a seat is named on the page: "Player 1 (you)", "Player 2 (greedy)"."""
    who = "you" if index == me else (seat.agent or "AI") if seat.kind == AI else "invited"
    return f"Player {index} ({who})"


class Hub:
    """Every live table, the storage behind them and the executors they run on."""

    def __init__(self, store: Store, ai_delay: float = 0.0, ai_workers: int = 2) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.tables: dict[str, Table] = {}
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="farmtable-db")
        self._ai = ThreadPoolExecutor(max_workers=ai_workers, thread_name_prefix="farmtable-ai")
        self._ai_workers = ai_workers
        self._procs: ProcessPoolExecutor | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self.decisions = 0

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking storage call: inline for SQLite (a WAL commit takes well under a millisecond,
        cheaper than waking a thread on a busy machine), else on the one storage thread."""
        if self.store.inline:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def close(self) -> None:
        """Stop the AI runners and the executors."""
        for table in self.tables.values():
            if table.ai_task is not None:
                table.ai_task.cancel()
            for sub in table.subscribers:
                sub.closed = True
                sub.ready.set()
        self._ai.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            workers = list(getattr(self._procs, "_processes", {}).values())
            self._procs.shutdown(wait=False, cancel_futures=True)
            for worker in workers:  # a search in progress is of no use any more: do not leave orphans
                worker.terminate()
        self._db.shutdown(wait=True)

    # --- creating and loading ------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        players: int,
        variants: list[str],
        seats: Sequence[tuple[str, str | None]],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Open a table; ``seats`` lists (``"human"``/``"ai"``, agent spec). Returns its id and the human tokens."""
        try:
            game = farmtable.get_game(game_id)
        except KeyError as exc:
            raise ApiError(404, str(exc.args[0])) from None
        if len(seats) != players:
            raise ApiError(400, f"{players} players need {players} seats, got {len(seats)}")
        for kind, spec in seats:
            if kind == AI:
                try:
                    farmtable.agents.make(spec or "")
                except ValueError as exc:
                    raise ApiError(400, str(exc)) from None
        seed = random.randrange(SEED_LIMIT) if seed is None else seed
        try:
            state = game.new_game(players=players, seed=seed, variants=tuple(variants), **(options or {}))
        except (ValueError, TypeError) as exc:
            raise ApiError(400, str(exc)) from None
        tokens: dict[int, str] = {}
        seat_rows: list[Seat] = []
        for i, (kind, spec) in enumerate(seats):
            if kind == AI:
                seat_rows.append(Seat(AI, spec, None))
            else:
                tokens[i] = secrets.token_urlsafe(18)
                seat_rows.append(Seat(HUMAN, None, hash_token(tokens[i])))
        record = TableRecord(
            id=secrets.token_urlsafe(9),
            game=game.id,
            players=players,
            seed=seed,
            variants=sorted(variants),
            options=dict(options or {}),
            seats=seat_rows,
            state=state.to_json(),
            version=0,
            over=state.is_over(),
            rematch_of=None,
            rematch=None,
        )
        await self.db(self.store.create_table, record)
        return record.id, tokens

    async def get(self, table_id: str) -> Table:
        """The live table with this id, loading it from storage the first time; 404 if there is none."""
        table = self.tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            record = await self.db(self.store.load_table, table_id)
            if record is None:
                raise ApiError(404, f"no table '{table_id[:40]}'")
            rows = await self.db(self.store.load_log, table_id)
            try:
                game = farmtable.get_game(record.game)
            except KeyError as exc:
                raise ApiError(404, f"table {table_id}: {exc.args[0]}") from None
            standing = _effective(rows)
            try:
                state = game.from_json(record.state)
            except CorruptSave as exc:  # the game cannot read its own save: rebuild it from its log
                log.error("table %s: stored state unreadable (%s); replaying its log instead", table_id, exc)
                try:
                    state = replay(game, record, standing)[-1]
                except (IllegalAction, ValueError) as again:
                    raise ApiError(500, f"table {table_id} cannot be restored: {exc}; replay: {again}") from None
            history = History(state)
            history.decisions = [Decision(r.player, r.notation, r.before, r.epoch_before) for r in standing]
            lines = [LogLine(r.seq, r.kind, r.player, r.notation, r.secret) for r in rows]
            table = Table(record, game, history, lines, secret_flags=[r.secret for r in _effective(rows)])
            self.tables[table_id] = table
            self._loading.pop(table_id, None)
        self.kick_ai(table)
        return table

    def sweep(self, idle_seconds: float) -> int:
        """Let go of tables nobody has used for ``idle_seconds`` (no watcher, no AI thinking, no decision
        being stored); they are stored, and load again on the next request. Returns how many went."""
        now = time.monotonic()
        idle = [
            tid
            for tid, t in self.tables.items()
            if not t.subscribers
            and not t.lock.locked()
            and (t.ai_task is None or t.ai_task.done())
            and now - t.last_used > idle_seconds
        ]
        for tid in idle:
            del self.tables[tid]
        return len(idle)

    async def sweep_forever(self, idle_seconds: float, every: float) -> None:
        """Sweep idle tables out of memory every ``every`` seconds (the app runs this in the background)."""
        while True:
            await asyncio.sleep(every)
            gone = self.sweep(idle_seconds)
            if gone:
                log.info("let go of %d idle tables (%d stay in memory)", gone, len(self.tables))

    async def checkpoint_forever(self, every: float) -> None:
        """Checkpoint SQLite's write-ahead log on a thread every ``every`` seconds (see Store.checkpoint)."""
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except Exception:  # a busy database: the next round will do it
                log.exception("checkpoint failed")

    # --- what a seat receives ---------------------------------------------------------------

    def payload(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The full update for ``seat`` (None: spectator), built from its view only; cached per version.

        Call it with the table's lock held (or use :meth:`snapshot`): a decision being stored
        has already changed the state in memory, and no one may see it before it is stored.
        """
        cached = table.cache.get(seat)
        if cached is not None and cached["version"] == table.version:
            return cached
        state = table.state
        over = state.is_over()
        actors = state.actors()
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None and seat in actors else []
        view = state.view(seat)
        undo: str | None = None
        if seat is not None:
            undo = "the game is over" if over else table.history.why_no_undo(seat)
        payload: dict[str, Any] = {
            "type": "update",
            "table": table.record.id,
            "game": table.game.id,
            "title": table.game.title,
            "version": table.version,
            "players": table.record.players,
            "variants": table.record.variants,
            "seat": seat,
            "seats": [
                {"seat": i, "kind": s.kind, "agent": s.agent, "label": seat_label(s, i, seat)}
                for i, s in enumerate(table.record.seats)
            ],
            "actors": actors,
            "legal": legal,
            "view": view,
            "svg": render(table.game, view, legal, seat),
            "log": self.log_lines(table, seat, LOG_TAIL),
            "log_total": len(table.lines),
            "over": over,
            "result": state.result().to_dict() if over else None,
            "can_undo": seat is not None and undo is None,
            "undo_reason": undo,
            "rematch": table.record.rematch,
            "notice": table.notice,
        }
        table.cache[seat] = payload
        return payload

    def log_lines(self, table: Table, seat: int | None, last: int | None = None) -> list[dict[str, Any]]:
        """The game log as ``seat`` may read it (only the ``last`` lines if given)."""
        lines = table.lines if last is None else table.lines[-last:]
        return [{"seq": line.seq, "player": line.player, "text": line.text_for(seat)} for line in lines]

    async def snapshot(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The update for ``seat``, taken between decisions: never a position not yet stored."""
        async with table.lock:
            return self.payload(table, seat)

    def push(self, table: Table) -> None:
        """Tell every watcher of the table that a fresh update is owed (never blocks)."""
        for sub in list(table.subscribers):
            sub.offer()

    # --- decisions ---------------------------------------------------------------------------

    async def act(self, table: Table, seat: int, action: str) -> int:
        """Apply ``seat``'s decision (notation); stored, then pushed. Returns the new version."""
        async with table.lock:
            version = await self._apply_locked(table, seat, action)
        self.kick_ai(table)
        return version

    async def _apply_locked(self, table: Table, seat: int, action: str) -> int:
        state = table.state
        actors = state.actors()
        epoch = state.info_epoch()
        previous = table.history.decisions[-1] if table.history.decisions else None
        try:
            notation = table.history.apply(seat, action)
        except IllegalAction as exc:
            raise ApiError(409, str(exc)) from None
        decision = table.history.decisions[-1]
        # A decision of a simultaneous step stays secret, and so does every later one until
        # something is revealed (the info epoch moves): the last chooser's too.
        secret = len(actors) > 1 or (previous is not None and table.secret_flags[-1] and previous.epoch_before == epoch)
        table.secret_flags.append(secret)
        row = DecisionRecord(table.version + 1, "move", seat, notation, secret, epoch, decision.before)

        def restore() -> None:
            table.history.decisions.pop()
            table.secret_flags.pop()
            try:
                table.history.state = table.game.from_json(decision.before)
            except CorruptSave:
                table.history.state = replay(table.game, table.record, _effective(table.lines))[-1]

        await self._store_locked(table, row, restore)
        return table.version

    async def undo(self, table: Table, seat: int) -> int:
        """Take back ``seat``'s last decision under the terminal's undo policy; stored, then pushed."""
        async with table.lock:
            reason = "the game is over" if table.state.is_over() else table.history.why_no_undo(seat)
            if reason:
                raise ApiError(409, f"cannot undo: {reason}")
            last = table.history.decisions[-1]
            after = table.state.clone()
            try:
                table.history.undo(seat)
            except CorruptSave:  # the saved position before it is unreadable: replay up to it instead
                table.history.state = replay(table.game, table.record, _effective(table.lines)[:-1])[-1]
                table.history.decisions.pop()
            secret = table.secret_flags.pop()
            row = DecisionRecord(table.version + 1, "undo", seat, last.notation, secret, last.epoch_before, "")

            def restore() -> None:
                table.history.state = after
                table.history.decisions.append(last)
                table.secret_flags.append(secret)

            await self._store_locked(table, row, restore)
        self.kick_ai(table)
        return table.version

    async def _store_locked(self, table: Table, row: DecisionRecord, restore: Callable[[], None]) -> None:
        """Write the row and the new state; on a storage failure put the game back as it was."""
        state = table.state
        try:
            await self.db(self.store.record_decision, table.record.id, row.seq, row, state.to_json(), state.is_over())
        except Exception:
            log.exception("storing decision %s of table %s failed", row.seq, table.record.id)
            restore()
            raise ApiError(503, "the decision could not be saved; nothing changed, please try again") from None
        table.record.version = row.seq
        table.last_used = time.monotonic()
        table.record.over = state.is_over()
        table.lines.append(LogLine(row.seq, row.kind, row.player, row.notation, row.secret))
        table.cache.clear()
        self.decisions += 1
        self.push(table)

    # --- AI seats ----------------------------------------------------------------------------

    def kick_ai(self, table: Table) -> None:
        """Start the table's AI runner if an AI seat must decide and none is running."""
        if table.ai_task is not None and not table.ai_task.done():
            return
        if table.state.is_over() or table.ai_actor() is None or table.notice:
            return
        table.ai_task = asyncio.get_running_loop().create_task(self._run_ai(table))

    def _agent(self, table: Table, seat: int) -> farmtable.agents.Agent:
        agent = table.agents.get(seat)
        if agent is None:
            spec = table.record.seats[seat].agent or "random"
            agent = farmtable.agents.make(
                spec, seed=(table.record.seed + 7919 * (seat + 1) + table.version) % SEED_LIMIT
            )
            table.agents[seat] = agent
        return agent

    def _processes(self) -> ProcessPoolExecutor:
        """The worker processes of heavy agents (started on first use; spawned, not forked)."""
        if self._procs is None:
            context = multiprocessing.get_context("spawn")
            self._procs = ProcessPoolExecutor(max_workers=self._ai_workers, mp_context=context)
        return self._procs

    async def _run_ai(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with table.lock:
                seat = None if table.state.is_over() else table.ai_actor()
                if seat is None:
                    return
                snapshot = table.state.clone()
                version = table.version
                agent = self._agent(table, seat)
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            spec = table.record.seats[seat].agent or "random"
            try:
                if farmtable.agents.parse_spec(spec)[0] in HEAVY_AGENTS:
                    seed = (table.record.seed + 7919 * (seat + 1) + version) % SEED_LIMIT
                    action: Any = await loop.run_in_executor(
                        self._processes(), act_in_process, spec, seed, snapshot, seat
                    )
                else:
                    action = await loop.run_in_executor(self._ai, agent.act, snapshot, seat)
            except Exception as exc:
                log.exception("AI seat %s of table %s failed", seat, table.record.id)
                async with table.lock:
                    table.notice = f"the AI of player {seat} failed ({type(exc).__name__}: {exc}); it stopped playing"
                    table.cache.clear()
                    self.push(table)
                return
            async with table.lock:
                if table.version != version:
                    continue  # someone decided meanwhile: think again on the new position
                try:
                    await self._apply_locked(table, seat, str(action))
                except ApiError as exc:
                    table.notice = f"the AI of player {seat} chose an illegal move: {exc.message}"
                    table.cache.clear()
                    self.push(table)
                    return

    # --- rematch and replay --------------------------------------------------------------------

    async def rematch(self, table: Table, seat: int) -> str:
        """The rematch of a finished table (created once, same seats and tokens, a new seed)."""
        async with table.lock:
            if not table.state.is_over():
                raise ApiError(409, "a rematch can start only when the game is over")
            if table.record.rematch:
                return table.record.rematch
            rec = table.record
            new_seed = random.randrange(SEED_LIMIT)
            state = table.game.new_game(players=rec.players, seed=new_seed, variants=tuple(rec.variants), **rec.options)
            new = TableRecord(
                id=secrets.token_urlsafe(9),
                game=rec.game,
                players=rec.players,
                seed=new_seed,
                variants=list(rec.variants),
                options=dict(rec.options),
                seats=[Seat(s.kind, s.agent, s.token_hash) for s in rec.seats],
                state=state.to_json(),
                version=0,
                over=state.is_over(),
                rematch_of=rec.id,
                rematch=None,
            )
            await self.db(self.store.create_table, new)
            rec.rematch = new.id
            table.cache.clear()
            self.push(table)
            return new.id

    async def replay_states(self, table: Table) -> list[State[Any]]:
        """Every state of a finished game, recomputed from its seed and new-game parameters by its log."""
        rows = await self.db(self.store.load_log, table.record.id)
        return replay(table.game, table.record, _effective(rows))
