"""The FastAPI application: JSON API, WebSocket updates and the pages.

``create_app(db_url)`` builds it. Every refused request answers with a 4xx status and
``{"error": "<a sentence saying why>"}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import farmtable
import farmtable.agents
from farmtable.core import BadInput
from farmtable.server import pages
from farmtable.server.hub import AI, HUMAN, ApiError, Hub, Subscriber, Table
from farmtable.server.render import render
from farmtable.server.store import SQLITE_SYNC_MODES, Store

log = logging.getLogger("farmtable.server")

STATIC = Path(__file__).parent / "static"
IDLE_SECONDS = 30 * 60
"""A table nobody watches or uses for this long leaves memory (it stays stored and loads again on use)."""
SWEEP_EVERY = 60
CHECKPOINT_EVERY = 2.0
"""Seconds between SQLite write-ahead-log checkpoints (made on a thread, off the event loop)."""
MAX_BODY = 64_000
"""Largest request body accepted (a scoring-helper position is the biggest thing anyone sends)."""


class SeatSpec(BaseModel):
    """One seat of a new table: ``you``, an ``invite``d friend, or an ``ai`` with an agent spec."""

    kind: Literal["you", "invite", "ai"]
    agent: str | None = Field(default=None, max_length=100)


class NewTable(BaseModel):
    """The body of ``POST /api/tables``."""

    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=8)
    variants: list[str] = Field(default_factory=list, max_length=16)
    seats: list[SeatSpec] = Field(max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**31)


class Move(BaseModel):
    """The body of ``POST /api/tables/{id}/moves``."""

    token: str = Field(max_length=200)
    action: str = Field(max_length=500)


class TokenBody(BaseModel):
    """The body of undo and rematch requests."""

    token: str = Field(max_length=200)


class ScoreBody(BaseModel):
    """The body of ``POST /api/score/{game}``."""

    text: str = Field(max_length=MAX_BODY)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _describe_validation(exc: RequestValidationError) -> str:
    problems = []
    for err in exc.errors():
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        if err.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        problems.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return "bad request: " + "; ".join(problems[:5])


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
                "variants": dict(game.variants),
                "scoring_helper": game.scoring_helper_format,
            }
        )
    return out


def ai_levels() -> list[dict[str, str]]:
    """The AI levels offered for a seat, weakest first (only the agents that exist)."""
    names = farmtable.agents.agent_names()
    wanted = [
        ("random", "random", "Random: any legal move"),
        ("greedy", "greedy", "Greedy: best-looking next move"),
        ("ismcts", "ismcts:iters=200", "ISMCTS (quick): 200 iterations"),
        ("ismcts", "ismcts:iters=1000", "ISMCTS (strong): 1000 iterations"),
    ]
    levels = [{"spec": spec, "label": label} for name, spec, label in wanted if name in names]
    known = {name for name, _, _ in wanted}
    levels += [{"spec": n, "label": n} for n in names if n not in known]
    return levels


def create_app(db_url: str, ai_delay: float = 0.0, ai_workers: int = 2, sqlite_sync: str = "NORMAL") -> FastAPI:
    """The web app on the database at ``db_url`` (``sqlite:///file.db`` or ``postgresql://...``).

    ``ai_delay`` is the pause (seconds) before each AI decision, so people can follow the play;
    ``sqlite_sync`` is ``NORMAL`` (survives a killed process) or ``FULL`` (survives power loss too).
    """

    if sqlite_sync.upper() not in SQLITE_SYNC_MODES:
        raise ValueError(f"sqlite sync mode must be one of {', '.join(SQLITE_SYNC_MODES)}, not {sqlite_sync!r}")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url, sqlite_sync)
        app.state.hub = hub = Hub(store, ai_delay=ai_delay, ai_workers=ai_workers)
        background = [
            asyncio.create_task(hub.sweep_forever(IDLE_SECONDS, SWEEP_EVERY)),
            asyncio.create_task(hub.checkpoint_forever(CHECKPOINT_EVERY)),
        ]
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await hub.close()
            store.dispose()

    app = FastAPI(title="farmtable", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, _describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.middleware("http")
    async def _limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_BODY:
            return _error(413, f"the request body is larger than {MAX_BODY} bytes")
        response: Response = await call_next(request)
        return response

    # --- API ------------------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        """The games, with summaries, player counts, variants and scoring-helper formats."""
        return games_info()

    @app.get("/api/agents")
    async def api_agents() -> list[dict[str, str]]:
        """The AI levels a seat may take."""
        return ai_levels()

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
        }

    @app.post("/api/tables", status_code=201)
    async def api_new_table(body: NewTable, request: Request) -> dict[str, Any]:
        """Open a table; answers its id, and a token and join link for every human seat."""
        if sum(1 for s in body.seats if s.kind == "you") > 1:
            raise ApiError(400, "only one seat can be 'you'; invite the others with their links")
        seats = [(AI, s.agent or "random") if s.kind == "ai" else (HUMAN, None) for s in body.seats]
        table_id, tokens = await hub_of(request).create(body.game, body.players, body.variants, seats, body.seed)
        you = next((i for i, s in enumerate(body.seats) if s.kind == "you"), None)
        return {
            "id": table_id,
            "you": you,
            "url": f"/t/{table_id}",
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "token": tokens.get(i),
                    "link": f"/t/{table_id}#token={tokens[i]}" if i in tokens else None,
                }
                for i, s in enumerate(body.seats)
            ],
        }

    async def _table_and_seat(request: Request, table_id: str, token: str | None) -> tuple[Table, int | None]:
        table = await hub_of(request).get(table_id)
        return table, table.seat_of(token)

    def _token(request: Request) -> str | None:
        return request.headers.get("x-seat-token") or request.query_params.get("token")

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str, request: Request) -> dict[str, Any]:
        """The table as the seat of the token (``X-Seat-Token`` header or ``?token=``) sees it; else as a spectator."""
        table, seat = await _table_and_seat(request, table_id, _token(request))
        return await hub_of(request).snapshot(table, seat)

    @app.get("/api/tables/{table_id}/log")
    async def api_log(table_id: str, request: Request) -> dict[str, Any]:
        """The whole game log as the token's seat (or a spectator) may read it."""
        table, seat = await _table_and_seat(request, table_id, _token(request))
        return {"table": table_id, "version": table.version, "log": hub_of(request).log_lines(table, seat)}

    async def _acting_seat(request: Request, table_id: str, token: str) -> tuple[Table, int]:
        table, seat = await _table_and_seat(request, table_id, token)
        if seat is None:
            raise ApiError(403, "acting at a table needs the secret token of your seat")
        return table, seat

    @app.post("/api/tables/{table_id}/moves")
    async def api_move(table_id: str, body: Move, request: Request) -> dict[str, Any]:
        """Make a decision for the token's seat; answers the table as that seat now sees it."""
        table, seat = await _acting_seat(request, table_id, body.token)
        await hub_of(request).act(table, seat, body.action)
        return await hub_of(request).snapshot(table, seat)

    @app.post("/api/tables/{table_id}/undo")
    async def api_undo(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        """Take back the seat's last decision when the undo policy allows it."""
        table, seat = await _acting_seat(request, table_id, body.token)
        await hub_of(request).undo(table, seat)
        return await hub_of(request).snapshot(table, seat)

    @app.post("/api/tables/{table_id}/rematch")
    async def api_rematch(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        """Start (or find) the rematch of a finished game: same seats and tokens, a new deal."""
        table, seat = await _acting_seat(request, table_id, body.token)
        new_id = await hub_of(request).rematch(table, seat)
        return {"id": new_id, "url": f"/t/{new_id}"}

    @app.get("/api/tables/{table_id}/replay")
    async def api_replay(table_id: str, request: Request) -> dict[str, Any]:
        """Every position of a finished game as a spectator sees it, with the log line that led there."""
        hub = hub_of(request)
        table = await hub.get(table_id)
        if not table.state.is_over():
            raise ApiError(409, "a replay is available once the game is over")
        states = await hub.replay_states(table)
        moves = [line for line in _standing(table)]
        frames = []
        for i, state in enumerate(states):
            view = state.view(None)
            frames.append(
                {
                    "step": i,
                    "text": "Start of the game" if i == 0 else moves[i - 1],
                    "svg": render(table.game, view, [], None),
                }
            )
        result = states[-1].result().to_dict()
        return {"table": table_id, "title": table.game.title, "frames": frames, "result": result}

    def _standing(table: Table) -> list[str]:
        stack: list[str] = []
        for line in table.lines:
            if line.kind == "undo":
                if stack:
                    stack.pop()
            else:
                stack.append(line.text_for(None))
        return stack

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
        return result.to_dict()

    # --- WebSocket ----------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        """Live updates of a table; a seat (``?token=``) may also send moves, undo and rematch."""
        await websocket.accept()
        hub = hub_of(websocket)
        try:
            table = await hub.get(table_id)
            seat = table.seat_of(websocket.query_params.get("token"))
        except ApiError as exc:
            await websocket.send_json({"type": "error", "status": exc.status, "error": exc.message})
            await websocket.close(code=4000 + exc.status)
            return
        sub = Subscriber(seat, lambda: hub.snapshot(table, seat), websocket.send_json)
        table.subscribers.add(sub)
        pump = asyncio.create_task(sub.pump())
        sub.offer()  # the table as it stands now: a page that reconnects catches up with this
        try:
            while True:
                raw = await websocket.receive_text()
                reply = await _ws_message(hub, table, seat, raw)
                await websocket.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            sub.closed = True
            sub.ready.set()
            table.subscribers.discard(sub)
            pump.cancel()

    async def _ws_message(hub: Hub, table: Table, seat: int | None, raw: str) -> dict[str, Any]:
        msg_id: Any = None
        try:
            try:
                msg = json.loads(raw)
            except ValueError:
                raise ApiError(400, "the message is not valid JSON") from None
            if not isinstance(msg, dict):
                raise ApiError(400, 'a message is a JSON object like {"type": "move", "action": "..."}')
            msg_id = msg.get("id")
            kind = msg.get("type")
            if kind == "ping":
                return {"type": "pong", "id": msg_id}
            if seat is None:
                raise ApiError(403, "spectators cannot act: open the table with your seat's link")
            if kind == "move":
                action = msg.get("action")
                if not isinstance(action, str) or len(action) > 500:
                    raise ApiError(400, "a move needs an 'action': the notation of a legal move")
                version = await hub.act(table, seat, action)
            elif kind == "undo":
                version = await hub.undo(table, seat)
            elif kind == "rematch":
                new_id = await hub.rematch(table, seat)
                return {"type": "rematch", "id": msg_id, "table": new_id}
            else:
                raise ApiError(400, f"unknown message type {str(kind)[:40]!r}: use move, undo, rematch or ping")
        except ApiError as exc:
            return {"type": "error", "id": msg_id, "status": exc.status, "error": exc.message}
        return {"type": "ack", "id": msg_id, "version": version}

    # --- pages ------------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def home() -> str:
        return pages.home(games_info())

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
