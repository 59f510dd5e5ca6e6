"""The FastAPI application: JSON API, WebSocket updates and the pages.

``create_app(db_url)`` builds it. Every refused request answers with a 4xx status and
``{"error": "<a sentence saying why>"}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal, cast

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

import farmtable
from farmtable.agents.levels import LEVELS
from farmtable.core import BadInput, CorruptSave
from farmtable.server import guide, narrate, pages
from farmtable.server.collector import quiet_collector
from farmtable.server.guard import Guard
from farmtable.server.hub import AI, CONNECTION_GONE, HUMAN, ApiError, Hub, Subscriber, Table
from farmtable.server.limits import (
    CLOSE_BAD_HELLO,
    CLOSE_EXPIRED,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    Buckets,
    Limits,
    Rate,
    excerpt,
    json_too_deep,
)
from farmtable.server.metrics import CONTENT_TYPE
from farmtable.server.render import result_with_sheet
from farmtable.server.store import SQLITE_SYNC_MODES, Store

log = logging.getLogger("farmtable.server")

STATIC = Path(__file__).parent / "static"
IDLE_SECONDS = 30 * 60
"""A table nobody watches or uses for this long leaves memory (it stays stored and loads again on use)."""
SWEEP_EVERY = 60
CHECKPOINT_EVERY = 2.0
"""Seconds between SQLite write-ahead-log checkpoints (made on a thread, off the event loop)."""
MAX_BODY = Limits().max_body
"""Largest request body accepted by default (a scoring-helper position is the biggest thing anyone sends)."""
MAX_ERROR = 300
"""Longest error message sent back: never more than a short excerpt of what a client sent."""
LEASE_SECONDS = 10.0
"""How long an AI-seat lease lasts without renewal (several processes on PostgreSQL)."""
DRAIN_SECONDS = 10.0
"""At shutdown, the longest wait for the decisions being stored to finish."""


class SeatSpec(BaseModel):
    """One seat of a new table: ``you``, an ``invite``d friend, or an ``ai`` with an agent spec."""

    kind: Literal["you", "invite", "ai"]
    agent: str | None = Field(default=None, max_length=100)


class NewTable(BaseModel):
    """The body of ``POST /api/tables``. A ``seed`` makes a *seeded game*: everyone at it is told."""

    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=8, strict=True)
    variants: list[str] = Field(default_factory=list, max_length=16)
    seats: list[SeatSpec] = Field(max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**64, strict=True)
    name: str | None = Field(default=None, max_length=200)
    """The name of the creator's seat (``you``): 1–24 letters, digits, spaces or -_.'"""


class JoinBody(BaseModel):
    """The body of ``POST /api/join``: a join code, as the friend typed it (``K7P-3QX``, any case)."""

    code: str = Field(max_length=40)


class NameBody(BaseModel):
    """The body of ``POST /api/tables/{id}/name``: the new name of the seat of the X-Seat-Token."""

    name: str = Field(max_length=200)


class Move(BaseModel):
    """The body of ``POST /api/tables/{id}/moves``: the move and the table version it was made at."""

    token: str = Field(max_length=200)
    action: str = Field(max_length=500)
    version: int = Field(ge=0, strict=True)


class TokenBody(BaseModel):
    """The body of rematch requests."""

    token: str = Field(max_length=200)


class UndoBody(BaseModel):
    """The body of undo requests: the token and the table version the undo was asked at."""

    token: str = Field(max_length=200)
    version: int = Field(ge=0, strict=True)


class ScoreBody(BaseModel):
    """The body of ``POST /api/score/{game}``."""

    text: str = Field(max_length=MAX_BODY)


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    if len(message) > MAX_ERROR:
        message = message[: MAX_ERROR - 1] + "…"
    return JSONResponse({"error": message, **extra}, status_code=status)


def _describe_validation(exc: RequestValidationError) -> str:
    problems = []
    for err in exc.errors():
        where = ".".join(str(x)[:20] for x in err.get("loc", ()) if x != "body")
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        problems.append(f"{where[:60] or 'body'}: {str(err.get('msg', 'invalid'))[:80]}")
    return "bad request: " + "; ".join(problems[:5])


JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Letters and digits of join codes: none that read alike (no 0/O, 1/I/L)."""
JOIN_LENGTH = 6
JOIN_SECONDS = 7 * 24 * 3600.0
"""A join code works for a week, once."""
JOINS_PER_MINUTE = 20
"""Join-code tries one address may make a minute (codes are short: guessing must stay slow)."""


def new_join_code() -> str:
    """A fresh random join code (6 characters of :data:`JOIN_ALPHABET`, about 30 bits)."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))


def show_join_code(code: str) -> str:
    """A code as people read it: ``K7P-3QX``."""
    return code[:3] + "-" + code[3:]


def read_join_code(typed: str) -> str:
    """The code in a friend's typing (case, spaces and dashes ignored); ``ApiError`` 400 saying what a
    code looks like when it is not one."""
    code = "".join(ch for ch in typed.upper() if ch not in " -")
    if len(code) != JOIN_LENGTH or any(ch not in JOIN_ALPHABET for ch in code):
        raise ApiError(400, "a join code is 6 letters and digits, like K7P-3QX (the table's creator has it)")
    return code


EVENTS_PAGE = 80
"""At most this many decisions' automatic events per request (the newest)."""
EVENT_CACHE = 20_000
"""Decisions whose events are remembered (a decision's events never change)."""


def _standing(lines: list[Any]) -> list[Any]:
    """The log's decisions that stand once every undo line has taken back the one before it."""
    stack: list[Any] = []
    for line in lines:
        if line.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(line)
    return stack


def games_info() -> list[dict[str, Any]]:
    """Every registered game with what the pages show about it."""
    out = []
    for game_id in farmtable.list_games():
        game = farmtable.get_game(game_id)
        out.append(
            {
                "id": game.id,
                "title": game.title,
                "summary": game.summary,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "variants": {name: guide.plain_variant(text) for name, text in game.variants.items()},
                "scoring_helper": game.scoring_helper_format,
            }
        )
    return out


def ai_levels() -> list[dict[str, str]]:
    """The AI levels offered for a seat, weakest first: ``random``, then the named levels."""
    levels = [{"spec": "random", "label": "Random", "description": "any legal move"}]
    levels += [{"spec": lv.name, "label": lv.title, "description": lv.description} for lv in LEVELS.values()]
    return levels


def create_app(
    db_url: str,
    ai_delay: float = 0.0,
    ai_workers: int = 2,
    sqlite_sync: str = "NORMAL",
    limits: Limits | None = None,
    lease_seconds: float = LEASE_SECONDS,
    drain_seconds: float = DRAIN_SECONDS,
) -> FastAPI:
    """The web app on the database at ``db_url`` (``sqlite:///file.db`` or ``postgresql://...``).

    ``ai_delay`` is the pause (seconds) before each AI decision, so people can follow the play;
    ``sqlite_sync`` is ``NORMAL`` (survives a killed process) or ``FULL`` (survives power loss too);
    ``limits`` bounds what any one client can make the server hold or do (see :class:`Limits`).
    On PostgreSQL any number of these apps (processes, machines) may serve the same tables:
    ``lease_seconds`` is how long an AI-seat lease lasts without renewal (how soon another process
    takes over the AI seats of one that died); ``drain_seconds`` bounds the wait for decisions in
    flight at shutdown.
    """
    if lease_seconds <= 0:
        raise ValueError(f"the AI-seat lease must last more than 0 seconds, not {lease_seconds}")

    if sqlite_sync.upper() not in SQLITE_SYNC_MODES:
        raise ValueError(f"sqlite sync mode must be one of {', '.join(SQLITE_SYNC_MODES)}, not {sqlite_sync!r}")
    limits = limits or Limits()
    creations = Buckets(limits.tables_per_minute) if limits.tables_per_minute else None
    replaying: set[str] = set()
    joins = Buckets(JOINS_PER_MINUTE)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        with quiet_collector():  # no long collector pauses while serving (see farmtable.server.collector)
            async with serving(app):
                yield

    @contextlib.asynccontextmanager
    async def serving(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url, sqlite_sync)
        app.state.hub = hub = Hub(
            store, ai_delay=ai_delay, ai_workers=ai_workers, limits=limits, lease_seconds=lease_seconds
        )
        app.state.listener = None
        background = [
            asyncio.create_task(hub.sweep_forever(IDLE_SECONDS, SWEEP_EVERY)),
            asyncio.create_task(hub.checkpoint_forever(CHECKPOINT_EVERY)),
        ]
        if store.shared:
            from farmtable.server.cluster import Listener

            app.state.listener = listener = Listener(hub)
            background += [asyncio.create_task(listener.run()), asyncio.create_task(hub.renew_forever())]
            with contextlib.suppress(TimeoutError):  # ready once it listens; readiness says so until then
                await asyncio.wait_for(listener.connected.wait(), 5)
        try:
            yield
        finally:
            await hub.drain(drain_seconds)
            for task in background:
                task.cancel()
            await hub.close()
            store.dispose()

    app = FastAPI(title="farmtable", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guard, limits=limits)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    def client_of(request: Request | WebSocket) -> str:
        """Who is asking, for per-client limits: the peer's IP address."""
        return request.client.host if request.client is not None else "unknown"

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message, **exc.extra)

    @app.exception_handler(SQLAlchemyError)
    async def _storage_error(_request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error("storage failed: %s", exc)
        return _error(503, "the database cannot be used right now; nothing changed, please try again later")

    @app.exception_handler(OSError)
    async def _os_error(_request: Request, exc: OSError) -> JSONResponse:
        log.error("storage or system error: %s", exc)
        return _error(503, "the server cannot store or read data right now; nothing changed, please try again later")

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return _error(500, "internal error of the server (it is logged); nothing was shown to anyone")

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, _describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    # --- API ------------------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        """The games, with summaries, player counts, variants and scoring-helper formats."""
        return games_info()

    @app.get("/api/agents")
    async def api_agents() -> list[dict[str, str]]:
        """The AI levels a seat may take."""
        return ai_levels()

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """Liveness: the process answers (a load balancer restarts it when this fails)."""
        return {"ok": True}

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: 200 when this process can serve tables (database reachable, notifications
        arriving when several processes share it, not shutting down); 503 saying why otherwise."""
        hub = hub_of(request)
        problems = []
        if hub.draining:
            problems.append("shutting down")
        listener = request.app.state.listener
        if listener is not None and not listener.connected.is_set():
            problems.append("not listening for other processes' changes")
        try:
            await hub.db(hub.store.version_of, "")
        except Exception as exc:
            problems.append(f"database unreachable ({type(exc).__name__})")
        if problems:
            return _error(503, "not ready: " + "; ".join(problems))
        return JSONResponse({"ready": True, "shared": hub.shared, "process": hub.origin})

    @app.get("/metrics")
    async def metrics(request: Request) -> Response:
        """Counters and gauges of this process in the Prometheus text format (see ``server/metrics.py``)."""
        return Response(hub_of(request).metrics.text(), media_type=CONTENT_TYPE)

    @app.get("/api/stats")
    async def api_stats(request: Request) -> dict[str, Any]:
        """Counters for monitoring and the load benchmark: decisions stored, live tables, watchers."""
        hub = hub_of(request)
        live = list(hub.tables.values())
        return {
            "decisions": hub.decisions,
            "tables_in_memory": len(live),
            "tables_playing": sum(1 for t in live if not t.state.is_over()),
            "watchers": sum(len(t.subscribers) for t in live),
            "sockets": sum(hub.sockets.values()),
            "loading": hub.loading,
        }

    @app.post("/api/tables", status_code=201)
    async def api_new_table(body: NewTable, request: Request) -> dict[str, Any]:
        """Open a table; answers its id, and a token and join link for every human seat."""
        if creations is not None and not creations.take(client_of(request)):
            raise ApiError(
                429, f"at most {limits.tables_per_minute} new tables a minute from one address; wait a little"
            )
        if sum(1 for s in body.seats if s.kind == "you") > 1:
            raise ApiError(400, "only one seat can be 'you'; invite the others with their links")
        seats = [(AI, s.agent or "random") if s.kind == "ai" else (HUMAN, None) for s in body.seats]
        you = next((i for i, s in enumerate(body.seats) if s.kind == "you"), None)
        names: dict[int, str] = {}
        if body.name is not None:
            if you is None:
                raise ApiError(400, "a 'name' is the name of your seat: give one seat the kind 'you'")
            names[you] = body.name
        hub = hub_of(request)
        table_id, tokens = await hub.create(body.game, body.players, body.variants, seats, body.seed, names=names)
        codes: dict[int, str] = {}
        for i, s in enumerate(body.seats):
            if s.kind == "invite" and i in tokens:
                for _ in range(5):  # a taken code (about 1 in a billion) draws again
                    code = new_join_code()
                    if await hub.db(hub.store.add_join_code, code, table_id, i, tokens[i], JOIN_SECONDS):
                        codes[i] = show_join_code(code)
                        break
        return {
            "id": table_id,
            "you": you,
            "seeded": body.seed is not None,
            "url": f"/t/{table_id}",
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "token": tokens.get(i),
                    "link": f"/t/{table_id}#token={tokens[i]}" if i in tokens else None,
                    "code": codes.get(i),
                }
                for i, s in enumerate(body.seats)
            ],
        }

    @app.post("/api/join")
    async def api_join(body: JoinBody, request: Request) -> dict[str, Any]:
        """Take the invited seat of a join code (once; codes expire after a week): the table and the
        seat's link with its token."""
        if not joins.take(client_of(request)):
            raise ApiError(429, f"at most {JOINS_PER_MINUTE} join codes a minute from one address; wait a little")
        code = read_join_code(body.code)
        hub = hub_of(request)
        found = await hub.db(hub.store.take_join_code, code)
        if found is None:
            raise ApiError(404, "no open seat has this code: check it, or ask for a new invitation (a code works once)")
        table_id, seat, token = found
        return {"id": table_id, "seat": seat, "url": f"/t/{table_id}", "link": f"/t/{table_id}#token={token}"}

    async def _table_and_seat(request: Request, table_id: str, token: str | None) -> tuple[Table, int | None]:
        table = await hub_of(request).get(table_id)
        return table, table.seat_of(token)

    def _token(request: Request) -> str | None:
        if "token" in request.query_params:
            raise ApiError(400, "send the seat token in the X-Seat-Token header, never in the address (it gets logged)")
        return request.headers.get("x-seat-token")

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str, request: Request) -> dict[str, Any]:
        """The table as the seat of the token (``X-Seat-Token`` header) sees it; else as a spectator."""
        table, seat = await _table_and_seat(request, table_id, _token(request))
        await hub_of(request).fresh(table)
        return await hub_of(request).snapshot(table, seat)

    @app.post("/api/tables/{table_id}/name")
    async def api_name(table_id: str, body: NameBody, request: Request) -> dict[str, Any]:
        """Name the seat of the ``X-Seat-Token`` header (1–24 letters, digits, spaces or -_.'); the table
        as that seat now sees it (every watcher is sent the new name)."""
        token = _token(request)
        if not token:
            raise ApiError(403, "naming a seat needs its secret token in the X-Seat-Token header")
        table, seat = await _acting_seat(request, table_id, token)
        await hub_of(request).rename(table, seat, body.name)
        return await hub_of(request).snapshot(table, seat)

    @app.get("/api/tables/{table_id}/log")
    async def api_log(table_id: str, request: Request) -> dict[str, Any]:
        """The whole game log as the token's seat (or a spectator) may read it."""
        table, seat = await _table_and_seat(request, table_id, _token(request))
        await hub_of(request).fresh(table)
        return {"table": table_id, "version": table.version, "log": hub_of(request).log_lines(table, seat)}

    event_cache: OrderedDict[tuple[str, int], list[str]] = OrderedDict()

    @app.get("/api/tables/{table_id}/events")
    async def api_events(table_id: str, request: Request, since: int = 0) -> dict[str, Any]:
        """What happened by itself after each standing decision with a log number above ``since`` (the
        last :data:`EVENTS_PAGE` at most): rolls, an empty market's sale, wheel turns, wolves, reveals.
        Read from the public views before and after each decision (``narrate.events``), so it holds no
        secret: anyone who may read the table may read it."""
        hub = hub_of(request)
        table = await hub.get(table_id)
        await hub.fresh(table)
        async with table.lock:
            standing = _standing(table.lines)
            decisions = list(table.history.decisions)
            version = table.version
            if len(standing) != len(decisions):  # never expected; then say nothing rather than guess
                return {"table": table_id, "version": version, "events": []}
            wanted = [i for i, line in enumerate(standing) if line.seq > since][-EVENTS_PAGE:]
            todo = [i for i in wanted if (table_id, standing[i].seq) not in event_cache]
            after_last = table.state.to_json() if todo and todo[-1] == len(decisions) - 1 else None
        game = table.game

        def work() -> dict[int, list[str]]:
            found: dict[int, list[str]] = {}
            for i in todo:
                after_json = decisions[i + 1].before if i + 1 < len(decisions) else after_last
                if not decisions[i].before or not after_json:  # a decision stored without its position
                    continue
                try:
                    before = game.from_json(decisions[i].before).view(None)
                    after = game.from_json(after_json).view(None)
                except (CorruptSave, ValueError, KeyError):  # a position this version cannot read: no events
                    continue
                found[standing[i].seq] = narrate.events(
                    game.id, before, after, decisions[i].player, decisions[i].notation
                )
            return found

        if todo:
            for seq, lines in (await asyncio.to_thread(work)).items():
                event_cache[(table_id, seq)] = lines
                while len(event_cache) > EVENT_CACHE:
                    event_cache.popitem(last=False)
        out = []
        for i in wanted:
            said = event_cache.get((table_id, standing[i].seq))
            if said:
                out.append({"seq": standing[i].seq, "lines": said})
        return {"table": table_id, "version": version, "events": out}

    async def _acting_seat(request: Request, table_id: str, token: str) -> tuple[Table, int]:
        table, seat = await _table_and_seat(request, table_id, token)
        if seat is None:
            raise ApiError(403, "acting at a table needs the secret token of your seat")
        return table, seat

    @app.post("/api/tables/{table_id}/moves")
    async def api_move(table_id: str, body: Move, request: Request) -> dict[str, Any]:
        """Make a decision for the token's seat; answers the table as that seat now sees it."""
        table, seat = await _acting_seat(request, table_id, body.token)
        await hub_of(request).act(table, seat, body.action, body.version)
        return await hub_of(request).snapshot(table, seat)

    @app.post("/api/tables/{table_id}/undo")
    async def api_undo(table_id: str, body: UndoBody, request: Request) -> dict[str, Any]:
        """Take back the seat's last decision when the undo policy allows it."""
        table, seat = await _acting_seat(request, table_id, body.token)
        await hub_of(request).undo(table, seat, body.version)
        return await hub_of(request).snapshot(table, seat)

    @app.post("/api/tables/{table_id}/rematch")
    async def api_rematch(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        """Start (or find) the rematch of a finished game: same seats, a new deal, a new token for this seat."""
        table, seat = await _acting_seat(request, table_id, body.token)
        new_id, new_token = await hub_of(request).rematch(table, seat, body.token)
        return {"id": new_id, "url": f"/t/{new_id}", "token": new_token}

    @app.get("/api/tables/{table_id}/replay")
    async def api_replay(table_id: str, request: Request, start: int = 0, count: int = 0) -> Response:
        """A page of a finished game's replay: frames ``start`` .. ``start+count-1`` (spectator's view, SVG,
        the log line that led there), ``total`` frames and the result. Gzip-compressed when the client
        accepts it; built on the replay thread; one build at a time per client."""
        table, _seat = await _table_and_seat(request, table_id, _token(request))  # the same checks as any read
        if not table.state.is_over():
            raise ApiError(409, "a replay is available once the game is over")
        count = min(count or limits.replay_page, limits.replay_page)
        if start < 0 or count < 1:
            raise ApiError(400, "start must be 0 or more and count 1 or more")
        who = client_of(request)
        if who in replaying:
            raise ApiError(429, "one replay at a time per address: wait for the one you asked for")
        replaying.add(who)
        try:
            total, frames = await hub_of(request).replay_frames(table, start, count)
        finally:
            replaying.discard(who)
        data = {
            "table": table_id,
            "title": table.game.title,
            "total": total,
            "start": start,
            "frames": frames,
            "result": result_with_sheet(table.state.result()),
        }
        body = json.dumps(data, separators=(",", ":")).encode("utf-8")
        if "gzip" in request.headers.get("accept-encoding", "") and len(body) > 1024:
            packed = await asyncio.to_thread(gzip.compress, body, 6)
            return Response(
                packed, media_type="application/json", headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            )
        return Response(body, media_type="application/json")

    @app.post("/api/score/{game_id}")
    async def api_score(game_id: str, body: ScoreBody) -> dict[str, Any]:
        """Score a typed end position of a physical game (the game's scoring-helper format)."""
        try:
            game = farmtable.get_game(game_id)
        except KeyError as exc:
            raise ApiError(404, str(exc.args[0])) from None
        if game.scoring_helper_format is None:
            raise ApiError(404, f"{game.title} has no scoring helper")
        try:
            result = game.score_text(body.text)
        except (BadInput, ValueError) as exc:
            raise ApiError(422, str(exc)) from None
        return result_with_sheet(result)

    # --- WebSocket ----------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        """Live updates of a table. The first message is ``{"type": "hello", "token": ...}`` (no token: a
        spectator); a seat may then send moves, undo and rematch. Limits close the socket with a code.

        With ``"svg_frames": true`` in the hello, an update that brings a new board picture says
        ``"svg_frame": true`` instead of carrying ``"svg"``, and the picture follows in the same text frame
        after a newline, as drawn (no JSON escaping of it on either side; compact JSON has no raw newline);
        without it every update carries its picture as before. With ``"view": false`` as well, updates
        leave out ``"view"`` (the table page draws the picture and reads the rest, never the view)."""
        hub = hub_of(websocket)
        who = client_of(websocket)
        await websocket.accept()
        if "token" in websocket.query_params:
            await _refuse(
                websocket, 400, "send the seat token in the first message, never in the address", CLOSE_BAD_HELLO
            )
            return
        if limits.sockets_per_client and hub.sockets.get(who, 0) >= limits.sockets_per_client:
            await _refuse(
                websocket, 429, f"at most {limits.sockets_per_client} open connections per address", CLOSE_TOO_MANY
            )
            return
        hub.sockets[who] = hub.sockets.get(who, 0) + 1
        try:
            await _serve_socket(websocket, hub, table_id)
        finally:
            left = hub.sockets.get(who, 1) - 1
            if left > 0:
                hub.sockets[who] = left
            else:
                hub.sockets.pop(who, None)

    async def _refuse(websocket: WebSocket, status: int, message: str, code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "status": status, "error": message})
            await websocket.close(code=code, reason=message[:120])

    async def _serve_socket(websocket: WebSocket, hub: Hub, table_id: str) -> None:
        try:
            raw = await asyncio.wait_for(_receive(websocket), limits.hello_seconds)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            await _refuse(websocket, 408, 'no hello: the first message must be {"type": "hello"}', CLOSE_BAD_HELLO)
            return
        try:
            hello = _parse(raw)
        except ApiError:
            hello = None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await _refuse(
                websocket,
                400,
                'the first message must be {"type": "hello", "token": "<seat token or none>"}',
                CLOSE_BAD_HELLO,
            )
            return
        token = hello.get("token")
        try:
            if token is not None and (not isinstance(token, str) or len(token) > 200):
                raise ApiError(400, "the token is a string")
            table = await hub.get(table_id)
            seat = table.seat_of(token)
        except ApiError as exc:
            code = {404: CLOSE_NOT_FOUND, 403: CLOSE_FORBIDDEN, 401: CLOSE_EXPIRED}.get(exc.status, CLOSE_BAD_HELLO)
            await _refuse(websocket, exc.status, exc.message, code)
            return
        if limits.sockets_per_table and len(table.subscribers) >= limits.sockets_per_table:
            await _refuse(websocket, 429, f"at most {limits.sockets_per_table} connections per table", CLOSE_TOO_MANY)
            return
        sub = Subscriber(
            seat,
            lambda: hub.wire_snapshot(table, seat),
            websocket.send_text,
            hub.metrics.push_latency.observe,
            frames=hello.get("svg_frames") is True,
            view=hello.get("view") is not False,
        )
        table.subscribers.add(sub)
        pump = asyncio.create_task(sub.pump())
        sub.offer()  # the table as it stands now: a page that reconnects catches up with this
        rate = Rate(limits.messages_per_second) if limits.messages_per_second else None
        try:
            while True:
                raw = await _receive(websocket)
                if len(raw) > limits.max_message:
                    await _refuse(websocket, 413, f"a message is at most {limits.max_message} bytes", CLOSE_TOO_BIG)
                    return
                if rate is not None and not rate.take():
                    await _refuse(
                        websocket, 429, f"more than {limits.messages_per_second:g} messages a second", CLOSE_POLICY
                    )
                    return
                reply = await _ws_message(hub, table, seat, token, raw)
                try:
                    await websocket.send_json(reply)
                except CONNECTION_GONE:
                    return  # the page went away before its answer: nothing to answer
        except WebSocketDisconnect:
            pass
        finally:
            sub.closed = True
            sub.ready.set()
            table.subscribers.discard(sub)
            pump.cancel()

    async def _receive(websocket: WebSocket) -> str:
        """The next text message; a binary one becomes text that fails to parse (answered with an error)."""
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            return "\x00" * min(len(data), limits.max_message + 1)  # not JSON; as long as the frame (size check)
        return str(text)

    def _parse(raw: str) -> Any:
        """A message parsed; ``ApiError`` (400) when it is too big, nests too deep (checked before
        parsing, so the recursive parser never sees it) or is not JSON."""
        if len(raw) > limits.max_message:
            raise ApiError(400, f"a message is at most {limits.max_message} bytes")
        if json_too_deep(raw, limits.max_json_depth):
            raise ApiError(400, f"the message nests deeper than {limits.max_json_depth} levels")
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise ApiError(400, "the message is not valid JSON") from None

    async def _ws_message(hub: Hub, table: Table, seat: int | None, token: Any, raw: str) -> dict[str, Any]:
        msg_id: Any = None
        try:
            msg = _parse(raw)
            if not isinstance(msg, dict):
                raise ApiError(400, 'a message is a JSON object like {"type": "move", "action": "...", "version": 3}')
            msg_id = msg.get("id")
            if not isinstance(msg_id, int | str | None) or (isinstance(msg_id, str) and len(msg_id) > 40):
                msg_id = None
            kind = msg.get("type")
            if kind == "ping":
                return {"type": "pong", "id": msg_id}
            if seat is None:
                raise ApiError(403, "spectators cannot act: open the table with your seat's link")
            table.seat_of(token)  # a token that expired while its socket was open acts no more (401)
            made_at = msg.get("version")
            if kind in ("move", "undo") and (not isinstance(made_at, int) or isinstance(made_at, bool)):
                raise ApiError(
                    400, f"a {kind} needs 'version': the table version it was made at", version=table.version
                )
            if kind == "move":
                action = msg.get("action")
                if not isinstance(action, str) or len(action) > 500:
                    raise ApiError(400, "a move needs an 'action': the notation of a legal move")
                version = await hub.act(table, seat, action, cast(int, made_at))
            elif kind == "undo":
                version = await hub.undo(table, seat, cast(int, made_at))
            elif kind == "rematch":
                new_id, new_token = await hub.rematch(table, seat, str(token))
                return {"type": "rematch", "id": msg_id, "table": new_id, "token": new_token}
            elif kind == "name":
                name = await hub.rename(table, seat, msg.get("name"))
                return {"type": "ack", "id": msg_id, "version": table.version, "name": name}
            else:
                raise ApiError(400, f"unknown message type {excerpt(kind)}: use move, undo, name, rematch or ping")
        except ApiError as exc:
            return {"type": "error", "id": msg_id, "status": exc.status, "error": exc.message[:MAX_ERROR], **exc.extra}
        except SQLAlchemyError as exc:
            log.error("storage failed: %s", exc)
            return {"type": "error", "id": msg_id, "status": 503, "error": "the database cannot be used right now"}
        return {"type": "ack", "id": msg_id, "version": version}

    # --- pages ------------------------------------------------------------------------------------

    app.include_router(guide.router)

    @app.get("/", response_class=HTMLResponse)
    async def home() -> str:
        return pages.home(games_info())

    @app.get("/join", response_class=HTMLResponse)
    async def join_page() -> str:
        return pages.join()

    @app.get("/new", response_class=HTMLResponse)
    async def new_table_page() -> str:
        return pages.new_table(games_info(), ai_levels())

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        table = await _page_table(request, table_id)
        if isinstance(table, HTMLResponse):
            return table
        return HTMLResponse(pages.table(table.record.id, table.game.title))

    @app.get("/replay/{table_id}", response_class=HTMLResponse)
    async def replay_page(table_id: str, request: Request) -> HTMLResponse:
        table = await _page_table(request, table_id)
        if isinstance(table, HTMLResponse):
            return table
        return HTMLResponse(pages.replay(table.record.id, table.game.title))

    async def _page_table(request: Request, table_id: str) -> Table | HTMLResponse:
        try:
            return await hub_of(request).get(table_id)
        except ApiError as exc:
            return HTMLResponse(pages.error(exc.status, exc.message), status_code=exc.status)

    @app.get("/score", response_class=HTMLResponse)
    async def score_page() -> str:
        return pages.score([g for g in games_info() if g["scoring_helper"] is not None])

    return app
