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
import base64
import contextlib
import ctypes
import hashlib
import hmac
import itertools
import json
import logging
import multiprocessing
import os
import random
import secrets
import socket
import sys
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from starlette.websockets import WebSocketDisconnect

import farmtable
import farmtable.agents
from farmtable.agents.levels import LEVELS, is_level
from farmtable.core import CorruptSave, Game, History, IllegalAction, State
from farmtable.core.history import Decision
from farmtable.core.rng import unpredictable_seed
from farmtable.server.limits import Limits, agent_spec_to_run
from farmtable.server.metrics import Metrics
from farmtable.server.narrate import events as narrate_events
from farmtable.server.narrate import log_text, table_extras
from farmtable.server.render import render, result_with_sheet
from farmtable.server.store import DecisionRecord, Seat, Store, TableRecord, VersionConflict, hash_token

log = logging.getLogger("farmtable.server")

T = TypeVar("T")

HUMAN = "human"
AI = "ai"
LOG_TAIL = 30
"""How many of the latest log lines each update carries (the page fetches older ones once)."""
TABLE_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_TABLE_ID = 32


STORAGE_THREADS = 8
"""Storage threads (and so connections in use at once) per process on PostgreSQL: a commit waits for the
database's disk, and different tables' commits may wait together."""

LIGHT_AGENTS = frozenset({"random", "greedy"})
"""Agents that decide at once (no search): they run in a thread pool. Every other agent (``mcts``,
``ismcts`` and the games' own searching players such as ``tiny-towns-rollout`` or ``farmerama-duel``)
thinks for up to its level's budget, so it runs in a worker process and its thinking never holds the
interpreter lock the server's event loop needs."""


def thinks_long(spec: str) -> bool:
    """True when the agent of ``spec`` searches, or may think up to a CPU budget (``time=``: a capped
    greedy level in Farmini can rate moves for a tenth of a second and more), so it runs in a worker
    process, not on the server's threads."""
    name, params = farmtable.agents.parse_spec(spec)
    return name not in LIGHT_AGENTS or "time" in params


def act_in_process(agent: farmtable.agents.Agent, state: State[Any], seat: int) -> tuple[str, farmtable.agents.Agent]:
    """Worker-process side of an AI decision: the seat's agent and the state arrive pickled; returns the
    notation and the agent after its decision (what it remembers between its moves, such as the second
    card of a chosen pair or a planned turn, goes back to the seat with it)."""
    action = agent.act(state, seat)
    return str(action), agent


PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Initializer of a search worker: it ends when the server process does, even on kill -9.

    On Linux the kernel sends the worker SIGKILL when its parent dies (``PR_SET_PDEATHSIG``);
    everywhere a watchdog thread also checks, twice a second, that the parent is still there.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the watchdog below still works
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="farmtable-watchdog", daemon=True).start()


def rematch_token(old_token: str, new_table: str) -> str:
    """The token of a seat at a rematch: a keyed hash of its old token, so only that seat can
    claim it, every claim gets the same one, and the old token does not act at the new table."""
    digest = hmac.new(old_token.encode("utf-8"), b"rematch:" + new_table.encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:18]).decode("ascii")


class ApiError(Exception):
    """A refused request: an HTTP status, a message for the person who sent it, and extra fields."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


class Stale(Exception):
    """The table in memory is behind the database (another process wrote): refresh it and try again."""


MAX_NAME = 24
NAME_MARKS = frozenset("-_.' ")
"""Besides letters (any script, with their accents) and digits, the only characters a name may hold."""


def check_name(raw: object) -> str:
    """A seat name as stored: trimmed, NFC-normalised, 1–24 characters of letters (any script, with
    their combining marks), digits, spaces and ``-_.'``. ``ApiError`` (400) names the problem otherwise."""
    if not isinstance(raw, str):
        raise ApiError(400, "a name is a string of 1 to 24 letters, digits, spaces or -_.'")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise ApiError(400, "a name needs at least one character that is not a space")
    if len(name) > MAX_NAME:
        raise ApiError(400, f"a name is at most {MAX_NAME} characters (this one has {len(name)})")
    for char in name:
        kind = unicodedata.category(char)
        if not (kind[0] in "LM" or kind == "Nd" or char in NAME_MARKS):
            shown = repr(char) if char.isprintable() else f"U+{ord(char):04X}"
            raise ApiError(400, f"a name may hold letters, digits, spaces and -_.' only, not {shown}")
    return name


def seat_name(seat: Seat) -> str | None:
    """The name shown for a seat: its chosen name; for an AI its level ("Normal AI") or its spec."""
    if seat.name:
        return seat.name
    if seat.kind == AI:
        spec = seat.agent or "random"
        return f"{LEVELS[spec.strip().lower()].title} AI" if is_level(spec) else spec
    return None


class LogItem(dict[str, Any]):
    """A log line as pushed (a plain dict to everyone), knowing its own JSON text (``encoded``): an
    update's log is spliced from these instead of being encoded again. Read-only once encoded."""

    __slots__ = ("encoded",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.encoded: str | None = None


@dataclass
class LogLine:
    """One line of the game log. A ``secret`` line (a choice in a simultaneous step) shows its notation
    only to its player until the step closes (``revealed``): then everyone reads it."""

    seq: int
    kind: str
    player: int
    notation: str
    secret: bool
    revealed: bool = False
    """Its step closed and the game shows this choice to everyone: the line reads like any other."""
    closed: bool = False
    """Its step closed (revealed or not: a choice the game never shows stays secret for good)."""
    events: list[str] | None = None
    """What happened by itself right after it (``narrate.events`` of the public views around it), when
    this process stored it: pushed with the update's log lines. None: not known here (a line read
    from storage or another process's); the page then asks ``GET /api/tables/{id}/events``."""

    @property
    def hidden(self) -> bool:
        """True while the line's notation is for its player's eyes only."""
        return self.secret and not self.revealed

    @property
    def open(self) -> bool:
        """A secret line of the simultaneous step still open."""
        return self.secret and not self.closed

    _items: dict[bool, LogItem] = field(default_factory=dict, repr=False, compare=False)
    """The log item as pushed, by whether its notation is hidden to the reader (see :meth:`item_for`)."""

    def text_for(self, seat: int | None) -> str:
        """The line as ``seat`` may read it."""
        return log_text(self.kind, self.player, self.notation, self.hidden and seat != self.player)

    def item_for(self, seat: int | None) -> LogItem:
        """The line as pushed to ``seat``: ``seq``, ``player``, ``text`` and, when known, ``events``;
        made (and JSON-encoded) once per way of reading it and shared by every update (read-only)."""
        hidden = self.secret and not self.revealed and seat != self.player
        item = self._items.get(hidden)
        if item is None or item.get("events") is not self.events:
            item = LogItem(seq=self.seq, player=self.player, text=self.text_for(seat))
            if self.events is not None:
                item["events"] = self.events
            item.encoded = _dumps(item)
            self._items[hidden] = item
        return item


@dataclass
class Step:
    """The simultaneous step now open at a table: the seq of its first line, the players who have
    not finished their choice yet, the kinds of decision made in it (first word of the notation) and
    the information epoch it began in."""

    start: int
    pending: set[int]
    verbs: set[str]
    epoch: int


def mark_revealed(lines: Sequence[LogLine], rows: Sequence[DecisionRecord]) -> None:
    """Mark the lines of every step a row closed: ``closed``, and ``revealed`` for those it shows."""
    closing = [row for row in rows if row.closes is not None]
    if not closing:
        return
    for line in lines:
        for row in closing:
            if row.closes is not None and row.closes <= line.seq <= row.seq:
                line.closed = True
                line.revealed = line.revealed or line.seq in row.reveals


COUNTERFACTUALS = 3
"""How many other legal choices :func:`shown_choices` tries per decision (a bound on its work)."""


def _one_encoder(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """``encoder.encode`` without its per-call set-up: ``JSONEncoder.encode`` makes a new C encoder (and a
    dict to find reference cycles in) on every call, about a third of the time of encoding a small update
    part. This makes the C encoder once, with the same options, so the text is the same.

    What it gives up: a reference cycle is not told by name (``ValueError``) but ends in ``RecursionError``;
    what the hub encodes is plain data made for JSON (views, updates, log items), with no cycles. Without
    CPython's C encoder (another interpreter), ``encoder.encode`` itself."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None or encoder.indent is not None or not encoder.ensure_ascii:
        return encoder.encode
    c_encode = make(
        None,  # no cycle check (see above)
        encoder.default,
        json.encoder.encode_basestring_ascii,
        encoder.indent,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )
    join = "".join

    def encode(value: Any) -> str:
        return join(c_encode(value, 0))

    return encode


_SORTED = _one_encoder(json.JSONEncoder(sort_keys=True, default=str))
"""``json.dumps(value, sort_keys=True, default=str)`` with one encoder made once (the same text)."""


class _Step:
    """A simultaneous step as it was played, from one decision on (for :func:`shown_choices`): what each
    seat sees after that decision and the first ``j`` later ones, worked out once per ``(j, seat)`` and
    shared by every alternative tried in its place.

    ``along``: what was seen along the same line of play by the steps of earlier decisions, by the index of
    the decision after which it was seen (``at`` is this decision's) and the seat: the same positions (the
    decisions applied in order to the same first state) are not seen again for each decision of the step."""

    def __init__(
        self,
        before: State[Any],
        player: int,
        notation: str,
        rest: Sequence[Decision],
        seen: Callable[[State[Any], int | None], str],
        along: dict[tuple[int, int | None], str] | None = None,
        at: int = 0,
    ) -> None:
        self.rest = rest
        self._see = seen
        first = before.clone()
        first.apply(player, notation)  # raises as the apply did when it is not legal
        self.first = first
        """The state right after the decision (read only: later states are clones of it)."""
        self._states: dict[int, State[Any]] = {0: first}
        self._seen: dict[tuple[int, int | None], str] = {} if along is None else along
        self._at = at

    def seen(self, j: int, seat: int | None) -> str:
        """What ``seat`` sees after the decision and the first ``j`` later decisions of the step."""
        key = (self._at + j, seat)
        if key not in self._seen:
            if j not in self._states:
                state = self._states[0].clone()
                for later in self.rest[:j]:
                    state.apply(later.player, later.notation)
                self._states[j] = state
            self._seen[key] = self._see(self._states[j], seat)
        return self._seen[key]


def shown_choices(
    game: Game[Any],
    players: int,
    decisions: Sequence[Decision],
    seqs: Sequence[int],
    known: tuple[str, State[Any]] | None = None,
) -> list[int]:
    """Of the decisions of a simultaneous step that just closed (``decisions``: the step's first decision
    through the one that closed it, standing, with their ``seqs``), the seqs of those the game now shows
    to every other seat and to spectators.

    Asked of the game through its views only: a choice is shown when, had its player chosen otherwise
    (up to :data:`COUNTERFACTUALS` other legal choices, the rest of the step as it was, as far as it stays
    legal), what each other seat and a spectator sees would differ. A Tiny Towns placement is shown that
    way; a monument kept and not built is not (the views hide it), so its line stays secret. A forced
    choice hides nothing.

    ``known``: a decision's ``before`` text (that very string object) and a copy of the state it was written
    from, kept by the hub when the step opened: that position is not read again from its JSON. Read only."""
    shown: list[int] = []

    def seen(state: State[Any], seat: int | None) -> str:
        return _SORTED(state.view(seat))

    carried: State[Any] | None = None
    """The state after the previous decision as the real step played it: the next decision's ``before``
    (the decisions are consecutive), so it need not be read again from its JSON (a save resumes exactly)."""
    along: dict[tuple[int, int | None], str] = {}
    """What each seat saw after each decision of the line of play from ``carried`` on (see :class:`_Step`)."""
    for k, (decision, seq) in enumerate(zip(decisions, seqs, strict=True)):
        before = carried
        carried = None
        if before is None:  # a new line of play (read from a save): nothing seen along another is reused
            along = {}
        if before is None and known is not None and decision.before is known[0]:
            before = known[1]
        if before is None:
            try:
                before = game.from_json(decision.before)
            except CorruptSave:
                continue
        player = decision.player
        others_legal = (a for a in before.legal_actions(player) if str(a) != decision.notation)
        alternatives = list(itertools.islice(others_legal, COUNTERFACTUALS))  # the first ones, no more named
        try:
            real: _Step | None = _Step(before, player, decision.notation, decisions[k + 1 :], seen, along, k)
        except (IllegalAction, ValueError):
            real = None
        carried = None if real is None else real.first
        if not alternatives:
            shown.append(seq)
            continue
        if real is None:
            continue
        others: list[int | None] = [q for q in range(players) if q != player]
        others.append(None)
        differs = dict.fromkeys(others, False)
        for alternative in alternatives:
            world = before.clone()
            try:
                world.apply(player, alternative)
            except (IllegalAction, ValueError):
                continue
            j = 0
            for later in real.rest:
                try:  # the rest of the step as it was, while it stays legal in the other world
                    world.apply(later.player, later.notation)
                except (IllegalAction, ValueError):
                    break
                j += 1
            for q in others:
                differs[q] = differs[q] or seen(world, q) != real.seen(j, q)
            if all(differs.values()):
                break  # every other seat already sees this choice: more alternatives cannot change that
        if all(differs.values()):
            shown.append(seq)
    return shown


@dataclass(slots=True)
class Drawn:
    """A board picture and what it was drawn from; ``encoded`` is the picture as a JSON string (made once,
    when first sent: the update of every later version that shows the same picture reuses it)."""

    view: dict[str, Any]
    legal: list[str]
    svg: str
    encoded: str | None = None


_COMPACT = _one_encoder(json.JSONEncoder(separators=(",", ":")))
"""``json.dumps(value, separators=(",", ":"))`` without making a new encoder for every call (``json.dumps``
makes one whenever an option differs from its defaults, and ``JSONEncoder.encode`` a C encoder): the same
text."""


def _dumps(value: Any) -> str:
    """Compact JSON in ASCII (``\\uXXXX`` for the rest: the same object once decoded). An ASCII text is
    cheaper to make than one keeping a picture's few "—", "▶" or "★" as they are, and then nearly free
    to send: a WebSocket encodes every text it sends to UTF-8, and an ASCII ``str`` is already that."""
    return _COMPACT(value)


def _tail_of(lines: Sequence[LogLine], seat: int | None) -> LogTail:
    """``LogTail([line.item_for(seat) for line in lines])`` with its JSON text made at once, reading the
    items each line keeps without a call per line (an update's tail is thirty lines, most of them made
    already)."""
    items: list[LogItem] = []
    texts: list[str | None] = []
    for line in lines:
        item = line._items.get(line.secret and not line.revealed and seat != line.player)
        if item is None or item.get("events") is not line.events:
            item = line.item_for(seat)
        items.append(item)
        texts.append(item.encoded)
    tail = LogTail(items)
    if texts and None not in texts:  # (item_for encodes every item it makes)
        tail.encoded = "[" + ",".join(cast(list[str], texts)) + "]"
    return tail


class LogTail(list[LogItem]):
    """An update's log as the hub makes it (shared by the seats that read it alike), knowing its own JSON
    text once made (``encoded``). Read-only once made."""

    __slots__ = ("encoded",)

    def __init__(self, items: Iterable[LogItem] = ()) -> None:
        super().__init__(items)
        self.encoded: str | None = None


def _log_json(value: Any) -> str | None:
    """The JSON text of an update's ``log`` made of :class:`LogItem` s that know theirs (else None); a
    :class:`LogTail` keeps it for the next update that shares it."""
    if not isinstance(value, list) or not value:
        return None
    if type(value) is LogTail and value.encoded is not None:
        return value.encoded
    texts = []
    for item in value:
        if type(item) is not LogItem or item.encoded is None:
            return None
        texts.append(item.encoded)
    text = "[" + ",".join(texts) + "]"
    if type(value) is LogTail:
        value.encoded = text
    return text


_SPLICE_MARKS = {"svg": "\x00farmtable svg\x00", "log": "\x00farmtable log\x00"}
"""What :func:`encode_update` puts in place of a part it splices in: strings no update holds (a NUL character
in each), so their JSON text (``"\\u0000farmtable svg\\u0000"``) shows where the part goes."""
_SPLICE_MARK_TEXTS = {key: _dumps(mark) for key, mark in _SPLICE_MARKS.items()}


def encode_update(payload: dict[str, Any], svg_json: str | None = None) -> str:
    """``payload`` as compact ASCII JSON, the very text ``json.dumps(payload, separators=(",", ":"))``
    gives, with the parts already encoded spliced in instead of being encoded
    again: ``svg_json`` (``payload["svg"]`` encoded; a picture is ~60% of an update) and the log's
    items (each encoded once, when the line was first pushed).

    The rest is encoded in one call, with a mark (:data:`_SPLICE_MARKS`) in place of each spliced part, and
    each mark's text is then replaced by the part's. Should a mark's text be found more than once (a value
    of the update holding it), the update is encoded in runs between the spliced parts instead: the same
    text either way."""
    parts: dict[str, str] = {}
    if svg_json is not None and "svg" in payload:
        parts["svg"] = svg_json
    if "log" in payload:
        log_json = _log_json(payload["log"])
        if log_json is not None:
            parts["log"] = log_json
    if not parts:
        return _dumps(payload)
    marked = dict(payload)
    for key in parts:
        marked[key] = _SPLICE_MARKS[key]
    text = _dumps(marked)
    spots: list[tuple[int, int, str]] = []
    for key, part in parts.items():
        mark = _SPLICE_MARK_TEXTS[key]
        if text.count(mark) != 1:
            return _encode_in_runs(payload, parts)
        at = text.index(mark)
        spots.append((at, at + len(mark), part))
    spots.sort()
    pieces: list[str] = []
    done = 0
    for start, end, part in spots:  # the text between the marks, and each part where its mark was
        pieces += (text[done:start], part)
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _encode_in_runs(payload: dict[str, Any], parts: dict[str, str]) -> str:
    """:func:`encode_update` the long way: each run of keys between the spliced ``parts`` encoded apart."""
    out: list[str] = []
    run: dict[str, Any] = {}
    for key, value in payload.items():
        text = parts.get(key)
        if text is None:
            run[key] = value
            continue
        if run:
            out.append(_dumps(run)[1:-1])
            run = {}
        out.append(_dumps(key) + ":" + text)
    if run:
        out.append(_dumps(run)[1:-1])
    return "{" + ",".join(out) + "}"


class Wire:
    """One update as it goes out on WebSockets, encoded once per (table, version, seat) and shared by
    every connection of that seat. Each text is made only when a connection first needs it:

    - ``full``: the whole update, picture included (``"svg"``, JSON-escaped);
    - ``lite``: the update with ``"svg_same": true`` instead of the picture, for connections that already
      show this very SVG;
    - ``framed``: the update with ``"svg_frame": true`` instead of the picture, then a newline, then the
      picture as drawn (never JSON-escaped), in one text frame, for connections that asked for pictures
      that way (``"svg_frames": true`` in their hello: the table page does). Compact JSON holds no raw
      newline, so the first one ends the update.

    A connection that does not read the seat's view (``"view": false`` in its hello: the table page draws
    the picture and reads the rest) is sent ``lite``/``framed`` without ``"view"`` (:meth:`texts`): the
    same update less the one part the page never reads, its largest after the picture.
    """

    __slots__ = ("_framed", "_full", "_lite", "_rest", "_viewless", "drawn", "payload", "svg")

    def __init__(self, payload: dict[str, Any], drawn: Drawn | None = None) -> None:
        """``drawn``: the seat's picture as the hub keeps it; when it is this update's, its JSON text is
        made once there and reused by every later update showing the same picture."""
        self.payload = payload
        self.svg: str = payload["svg"]
        self.drawn = drawn if drawn is not None and drawn.svg is self.svg else None
        self._full: str | None = None
        self._rest: str | None = None
        self._lite: str | None = None
        self._framed: str | None = None
        self._viewless: dict[str, str] = {}

    @property
    def full(self) -> str:
        """The whole update as compact ASCII JSON (the picture's JSON made once per drawn picture)."""
        if self._full is None:
            svg_json: str | None = None
            if self.drawn is not None:
                if self.drawn.encoded is None:
                    self.drawn.encoded = _dumps(self.svg)
                svg_json = self.drawn.encoded
            self._full = encode_update(self.payload, svg_json)
        return self._full

    def _without_svg(self, flag: str) -> str:
        """The update without ``"svg"``, with ``flag: true`` as its last key (the rest encoded once)."""
        if self._rest is None:
            self._rest = encode_update({k: v for k, v in self.payload.items() if k != "svg"})
        return self._rest[:-1] + f',"{flag}":true}}'

    @property
    def lite(self) -> str:
        """The update with ``"svg_same": true`` instead of ``"svg"`` (the page keeps its board)."""
        if self._lite is None:
            self._lite = self._without_svg("svg_same")
        return self._lite

    @property
    def framed(self) -> str:
        """The update with ``"svg_frame": true`` instead of ``"svg"``, a newline, and the picture as drawn."""
        if self._framed is None:
            self._framed = self._with_picture(self._without_svg("svg_frame"))
        return self._framed

    def _with_picture(self, update: str) -> str:
        """``update``, a newline and the picture as drawn, copied once (a picture is tens of kilobytes)."""
        return "".join((update, "\n", self.svg))

    def texts(self, *, same: bool, view: bool = True) -> str:
        """The text for a connection that takes pictures unescaped: :attr:`lite` when it already shows this
        picture (``same``), else :attr:`framed`; without ``"view"`` when the connection does not read it."""
        if view:
            return self.lite if same else self.framed
        flag = "svg_same" if same else "svg_frame"
        text = self._viewless.get(flag)
        if text is None:
            rest = self._viewless.get("")
            if rest is None:
                rest = self._viewless[""] = encode_update(
                    {k: v for k, v in self.payload.items() if k != "svg" and k != "view"}
                )
            text = rest[:-1] + f',"{flag}":true}}'
            if not same:
                text = self._with_picture(text)
            self._viewless[flag] = text
        return text


CONNECTION_GONE: tuple[type[BaseException], ...] = (WebSocketDisconnect, RuntimeError, OSError)
"""What sending to a connection raises once it closed: Starlette's disconnect, its "send after close"
(a ``RuntimeError``) and the server's lost-client error (an ``OSError``)."""


class Subscriber:
    """One WebSocket connection: the seat it speaks for, and whether it is owed an update.

    Updates are built when they are sent, from the table as it then stands (a full snapshot),
    so a slow connection never queues stale ones: it simply gets the latest. The text is the
    seat's shared :class:`Wire`; the board picture is left out when this connection already
    shows the same one.
    """

    def __init__(
        self,
        seat: int | None,
        build: Callable[[], Awaitable[Wire]],
        send: Callable[[str], Awaitable[None]],
        observe: Callable[[float], None] | None = None,
        frames: bool = False,
        view: bool = True,
    ) -> None:
        self.seat = seat
        self.frames = frames
        """The connection takes a new picture after the update, unescaped (:attr:`Wire.framed`)."""
        self.view = view
        """The connection reads the seat's view (False: it is left out of what it is sent, see :class:`Wire`);
        only for connections that take pictures unescaped."""
        self.build = build
        self.send = send
        self.observe = observe
        """Told the seconds from an update being owed to it being written (the push-latency metric)."""
        self.owed_since: float | None = None
        self.ready = asyncio.Event()
        self.closed = False
        self.shown_svg: str | None = None
        """The board picture this connection was last sent (None: none yet)."""
        self.shown_legal: list[str] | None = None
        """The legal moves that board was sent with (the page made those parts buttons)."""

    def offer(self) -> None:
        """Mark the connection as owed the latest update."""
        if self.owed_since is None:
            self.owed_since = time.perf_counter()
        self.ready.set()

    def _shows(self, wire: Wire) -> bool:
        """Whether this connection already shows ``wire``'s board (the same picture and legal moves);
        from now on it shows it either way."""
        legal = wire.payload["legal"]
        same = (
            self.shown_svg is not None
            and (self.shown_svg is wire.svg or self.shown_svg == wire.svg)
            and self.shown_legal == legal
        )
        self.shown_svg, self.shown_legal = wire.svg, legal
        return same

    def text_of(self, wire: Wire) -> str:
        """The text to send this connection: without the board when it already shows that board."""
        return wire.lite if self._shows(wire) else wire.full

    def texts_of(self, wire: Wire) -> tuple[str, ...]:
        """The texts to send this connection, in order: as :meth:`text_of`, or for a connection that takes
        pictures unescaped (:attr:`frames`) :attr:`Wire.framed` when the picture is new to it."""
        if not self.frames:
            return (self.text_of(wire),)
        return (wire.texts(same=self._shows(wire), view=self.view),)

    async def pump(self) -> None:
        """Send the latest update whenever one is owed, until the connection closes."""
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            since, self.owed_since = self.owed_since, None
            if not self.closed:
                texts = self.texts_of(await self.build())
                try:
                    for text in texts:
                        await self.send(text)
                except CONNECTION_GONE:
                    self.closed = True  # the page went away (or was refused) while its update was on the way
                    return
                if self.observe is not None and since is not None:
                    self.observe(time.perf_counter() - since)


SeatParts = tuple[tuple[tuple[str, str | None, str | None], ...], list[dict[str, Any]], tuple[str, ...]]
"""What ``Hub._seats`` keeps per seat: the seats' (kind, agent, name), the update's ``seats`` and the labels."""


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
    wires: dict[int | None, Wire] = field(default_factory=dict)
    """The encoded update per seat; valid while its payload is the one in ``cache``."""
    secret_flags: list[bool] = field(default_factory=list)
    """For each standing decision (aligned with ``history.decisions``): was it a simultaneous-step secret."""
    step: Step | None = None
    """The simultaneous step still open (its lines are secret until it closes); None: none."""
    step_before: tuple[str, State[Any]] | None = None
    """The ``before`` text of the decision that opened the latest simultaneous step and a copy of the state
    it was written from (:func:`shown_choices`'s ``known``: the step's first position is not read again from
    its JSON when the step closes). Matched by that string object, so a stale one is never used."""
    stale: bool = False
    """Another process changed the table since it was read (a notification): catch up before use."""
    heard: int = 0
    """The newest version announced on the channel (a process hears its own decisions too)."""
    reseat: bool = False
    """Seats or the rematch link changed elsewhere (or notifications were missed): read the record again."""
    catching: asyncio.Task[None] | None = None
    public: tuple[int, dict[str, Any]] | None = None
    """The spectators' view and the version it is of (shared by the spectators' update and the events)."""
    drawn: dict[int | None, Drawn] = field(default_factory=dict)
    """Per seat, the last board picture drawn and the view and legal moves it was drawn from: a new version
    that leaves them as they were (another seat's hidden choice, a notice) reuses the picture."""
    log_memo: tuple[tuple[int, int, int, int], bool, dict[int | str | None, LogTail]] | None = None
    """The log tail of one version (see ``Hub.log_lines``): when it was made, whether a line is hidden from
    someone, and the items per reader (``"everyone"`` when none is)."""
    seat_parts: dict[int | None, SeatParts] = field(default_factory=dict)
    """Per seat, the ``seats`` of its update and its labels, with the seats' (kind, agent, name) they were made
    from (see ``Hub._seats``)."""
    extras_version: int = -1
    extras_made: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    """The page extras made at ``extras_version``, with the view each was made from (see ``Hub._extras``)."""
    extras_memo: dict[str, Any] = field(default_factory=dict)
    """What the extras of every seat share at ``extras_version`` (``narrate.live_score``'s ``memo``)."""

    @property
    def state(self) -> State[Any]:
        """The game as it stands."""
        return self.history.state

    @property
    def version(self) -> int:
        """How many log rows the table has (every accepted decision or undo adds one)."""
        return self.record.version

    token_seconds: float = 0.0
    """How long a seat token acts after it was issued (0: forever); set by the hub from its limits."""
    loaded_at: float = field(default_factory=time.time)
    """When the table came into memory: the issue time of tokens stored before tokens carried one."""

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token belongs to; None for no token. Raises 403 for a token of no seat and
        401 for the token of a seat that expired (issued more than ``token_seconds`` ago)."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for i, seat in enumerate(self.record.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                issued = self.loaded_at if seat.issued is None else seat.issued
                if self.token_seconds and time.time() - issued > self.token_seconds:
                    raise ApiError(
                        401,
                        f"this seat token of table {self.record.id} has expired: ask its creator for a new seat",
                    )
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


def seat_label(seat: Seat, index: int, me: int | None, seats: Sequence[Seat] = ()) -> str:
    """How a seat is named on the page: "Ada (you)", "Normal AI", "Player 1 (you)", "Player 2 (invited)".

    A name several seats share gets the seat number too ("Normal AI (player 2)")."""
    name = seat_name(seat)
    if name is None:
        who = "you" if index == me else "invited"
        return f"Player {index} ({who})"
    if sum(1 for other in seats if seat_name(other) == name) > 1:
        name = f"{name} (player {index})"
    return f"{name} (you)" if index == me else name


def next_step(
    step: Step | None,
    seq: int,
    seat: int,
    notation: str,
    actors: Sequence[int],
    epoch: int,
    after: State[Any],
) -> tuple[bool, int | None, Step | None]:
    """Where decision ``seq`` of ``seat`` (made with ``actors`` deciding, in info ``epoch``; ``after`` is
    the state it led to) stands among simultaneous steps: whether it is secret, the seq of the first line
    of the step it closes (None: it closes none; :func:`shown_choices` then says which of that step's lines
    everyone may read), and the step still open after it.

    A decision belongs to a simultaneous step when several players decide at once, or when it goes on
    a step its player has not finished, with a decision of a kind made in that step (the first word of
    the notation: a Farmerama player's second card). Anything else (naming a resource, a turn of one's
    own) is public and closes a step still open. A step closes once every player of it has finished
    (left the deciders), someone outside it must decide, or the information epoch moves (the game
    revealed the choices)."""
    verb = notation.split(" ", 1)[0]
    reveal: int | None = None
    if step is not None and step.epoch != epoch:
        reveal, step = step.start, None
    in_step = len(actors) > 1 or (step is not None and seat in step.pending and verb in step.verbs)
    if not in_step:
        if step is not None:
            reveal = step.start
        return False, reveal, None
    if step is None:
        step = Step(seq, set(actors), set(), epoch)
    else:
        step = Step(step.start, set(step.pending), set(step.verbs), step.epoch)
    step.verbs.add(verb)
    now = set(after.actors())
    step.pending &= now
    if after.info_epoch() != epoch or not step.pending or not now <= step.pending:
        return True, step.start if reveal is None else min(reveal, step.start), None
    return True, reveal, step


def rebuild_step(table: Table) -> None:
    """The open simultaneous step of a table read from storage: its unrevealed secret lines, if any."""
    open_lines = [line for line in table.lines if line.open]
    if not open_lines or table.state.is_over():
        table.step = None
        return
    table.step = Step(
        start=open_lines[0].seq,
        pending=set(table.state.actors()),
        verbs={line.notation.split(" ", 1)[0] for line in open_lines},
        epoch=table.state.info_epoch(),
    )


class Hub:
    """Every live table, the storage behind them and the executors they run on."""

    def __init__(
        self,
        store: Store,
        ai_delay: float = 0.0,
        ai_workers: int = 2,
        limits: Limits | None = None,
        lease_seconds: float = 10.0,
    ) -> None:
        self.store = store
        self.shared = store.shared
        """Several processes may serve these tables (PostgreSQL): caches are checked, AI seats leased."""
        self.origin = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process in notifications and AI-seat leases."""
        self.lease_seconds = lease_seconds
        self.leases: set[str] = set()
        """Tables whose AI-seat lease this process holds (renewed by :meth:`renew_forever`)."""
        self.metrics = Metrics(self)
        self.draining = False
        self.ai_delay = ai_delay
        self.limits = limits or Limits()
        self.sockets: dict[str, int] = {}
        """Open WebSockets per client address."""
        self._replays = ThreadPoolExecutor(max_workers=1, thread_name_prefix="farmtable-replay")
        self._replay_cache: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        self.tables: dict[str, Table] = {}
        self._db = ThreadPoolExecutor(
            max_workers=STORAGE_THREADS if store.shared else 1, thread_name_prefix="farmtable-db"
        )
        self._ai = ThreadPoolExecutor(max_workers=ai_workers, thread_name_prefix="farmtable-ai")
        self._ai_workers = ai_workers
        self._procs: ProcessPoolExecutor | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self.decisions = 0

    @property
    def loading(self) -> int:
        """How many table ids are being loaded right now (none stays once its load ends)."""
        return len(self._loading)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking storage call: inline for SQLite (a WAL commit takes well under a millisecond,
        cheaper than waking a thread on a busy machine), else on a storage thread (PostgreSQL: several, so
        the commits of different tables wait for the disk together; one table's stay in order under its
        lock)."""
        if self.store.inline:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def drain(self, seconds: float) -> None:
        """Graceful shutdown, first half: refuse new moves, wait (at most ``seconds``) for the decisions
        being stored to finish, stop the AI runners and hand their leases back, so another process takes
        the AI seats at once instead of when the leases expire."""
        self.draining = True
        for table in self.tables.values():
            if table.ai_task is not None:
                table.ai_task.cancel()
        deadline = time.monotonic() + seconds
        while any(t.lock.locked() for t in self.tables.values()) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        for table_id in list(self.leases):
            with contextlib.suppress(Exception):
                await self.db(self.store.release_lease, table_id, self.origin)
            self.leases.discard(table_id)

    async def close(self) -> None:
        """Stop the AI runners and the executors."""
        for table in self.tables.values():
            if table.ai_task is not None:
                table.ai_task.cancel()
            if table.catching is not None:
                table.catching.cancel()
            for sub in table.subscribers:
                sub.closed = True
                sub.ready.set()
        self._ai.shutdown(wait=False, cancel_futures=True)
        self._replays.shutdown(wait=False, cancel_futures=True)
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
        names: dict[int, str] | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Open a table; ``seats`` lists (``"human"``/``"ai"``, agent spec), ``names`` the chosen names of
        some human seats (checked by :func:`check_name`). Returns its id and the human tokens."""
        names = {i: check_name(n) for i, n in (names or {}).items()}
        try:
            game = farmtable.get_game(game_id)
        except KeyError as exc:
            raise ApiError(404, str(exc.args[0])) from None
        if len(seats) != players:
            raise ApiError(400, f"{players} players need {players} seats, got {len(seats)}")
        checked: list[tuple[str, str | None]] = []
        for kind, spec in seats:
            if kind == AI:
                try:
                    spec = self.limits.check_agent(spec or "random")
                except ValueError as exc:
                    raise ApiError(400, str(exc)[:300]) from None
            checked.append((kind, spec))
        seats = checked
        seeded = seed is not None
        seed = unpredictable_seed() if seed is None else seed
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
                seat_rows.append(Seat(HUMAN, None, hash_token(tokens[i]), time.time(), names.get(i)))
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
            seeded=seeded,
        )
        await self.db(self.store.create_table, record)
        return record.id, tokens

    async def get(self, table_id: str) -> Table:
        """The live table with this id, loading it from storage the first time; 404 if there is none."""
        table = self.tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        if not table_id or len(table_id) > MAX_TABLE_ID or not TABLE_ID_CHARS.issuperset(table_id):
            raise ApiError(404, f"no table {table_id[:MAX_TABLE_ID]!r}")
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is not None:
                    return table
                loaded = await self._load(table_id)
                table = self.tables.get(table_id)  # loaded meanwhile under another lock object
                if table is None:
                    self.make_room()
                    table = self.tables[table_id] = loaded
        finally:
            # never keep a lock for an id once nobody waits: unknown ids must not pile up (no leak)
            if self._loading.get(table_id) is lock and not lock.locked():
                del self._loading[table_id]
        self.kick_ai(table)
        return table

    def make_room(self) -> None:
        """Let the least recently used idle tables go until one more fits (``max_tables``); 503 if none can."""
        limit = self.limits.max_tables
        if not limit or len(self.tables) < limit:
            return
        idle = sorted((t for t in self.tables.values() if self._idle(t)), key=lambda t: t.last_used)
        for table in idle[: len(self.tables) - limit + 1]:
            del self.tables[table.record.id]
        if len(self.tables) >= limit:
            raise ApiError(503, "the server holds as many live tables as it may; please try again in a minute")

    @staticmethod
    def _idle(table: Table) -> bool:
        return not table.subscribers and not table.lock.locked() and (table.ai_task is None or table.ai_task.done())

    async def _load(self, table_id: str) -> Table:
        """Read a table and its log from storage; 404 if there is none."""
        record = await self.db(self.store.load_table, table_id)
        if record is None:
            raise ApiError(404, f"no table {table_id[:MAX_TABLE_ID]!r}")
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
                log.error("table %s cannot be restored: %s; replay: %s", table_id, exc, again)
                raise ApiError(500, f"table {table_id} cannot be restored from storage") from None
        history = History(state)
        history.decisions = [Decision(r.player, r.notation, r.before, r.epoch_before) for r in standing]
        lines = [LogLine(r.seq, r.kind, r.player, r.notation, r.secret) for r in rows]
        mark_revealed(lines, rows)
        table = Table(record, game, history, lines, secret_flags=[r.secret for r in _effective(rows)])
        table.token_seconds = self.limits.token_seconds
        rebuild_step(table)
        return table

    # --- several processes: caches are only caches ------------------------------------------

    async def refresh_locked(self, table: Table) -> None:
        """Bring a table in memory up to the stored one (call with its lock held): the new log rows of
        other processes are appended and the stored state taken; a log this process cannot simply extend
        (an undo, a gap) reloads the table whole. Seats, rematch link and version come from storage."""
        found = await self.db(self.store.load_since, table.record.id, table.version)
        if found is None:
            raise ApiError(404, f"no table {table.record.id!r}")
        record, rows = found
        self.metrics.refreshes.inc()
        simple = record.version >= table.version and all(r.kind == "move" for r in rows)
        simple = simple and [r.seq for r in rows] == list(range(table.version + 1, record.version + 1))
        if not simple:
            fresh = await self._load(table.record.id)
            table.record, table.history, table.lines = fresh.record, fresh.history, fresh.lines
            table.secret_flags, table.step = fresh.secret_flags, fresh.step
        elif rows:
            try:
                state = table.game.from_json(record.state)
            except CorruptSave:
                state = table.state.clone()
                for r in rows:
                    state.apply(r.player, r.notation)
            for r in rows:
                table.history.decisions.append(Decision(r.player, r.notation, r.before, r.epoch_before))
                table.secret_flags.append(r.secret)
                table.lines.append(LogLine(r.seq, r.kind, r.player, r.notation, r.secret))
            table.history.state = state
            table.record = record
            mark_revealed(table.lines, rows)
            rebuild_step(table)
        else:
            table.record = record
        table.cache.clear()
        table.stale = False

    async def fresh(self, table: Table) -> None:
        """Make sure a read serves the stored version (several processes: one cheap version read; a
        person who just moved through another process reads their own move)."""
        if not self.shared:
            return
        stored = await self.db(self.store.version_of, table.record.id)
        if stored is not None and (stored != table.version or table.stale):
            async with table.lock:
                await self.refresh_locked(table)
            self.push(table)
            self.kick_ai(table)

    def notified(self, table_id: str, version: int, kind: str, origin: str, sent: float) -> None:
        """A change of a table announced by a process (``LISTEN``): catch up if it is in memory here."""
        self.metrics.notifications.inc()
        if origin == self.origin:
            return
        table = self.tables.get(table_id)
        if table is None or (kind == "decision" and version <= table.version):
            return  # not here, or this process's own decision (or one it has caught up with already)
        table.heard = max(table.heard, version)
        if kind != "decision":
            table.reseat = True
        self.metrics.notify_delay.observe(max(0.0, time.time() - sent))
        self.catch_up(table)

    def catch_up(self, table: Table) -> None:
        """Refresh the table from storage in the background, then push it to its watchers here."""
        table.stale = True
        if table.catching is None or table.catching.done():
            table.catching = asyncio.get_running_loop().create_task(self._catch_up(table))

    async def _catch_up(self, table: Table) -> None:
        while table.stale:
            try:
                async with table.lock:
                    # its own decision may have been announced before this process took note of it
                    behind = table.reseat or table.version < table.heard
                    table.stale = table.reseat = False
                    if not behind:
                        continue
                    await self.refresh_locked(table)
            except Exception:
                log.exception("catching up table %s failed", table.record.id)
                table.stale = False
                return
            self.push(table)
        self.kick_ai(table)

    def missed_notifications(self) -> None:
        """The notification channel was down (reconnected now): every table here may have missed
        changes, so each catches up from the log."""
        for table in list(self.tables.values()):
            table.reseat = True
            self.catch_up(table)

    def sweep(self, idle_seconds: float) -> int:
        """Let go of tables nobody has used for ``idle_seconds`` (no watcher, no AI thinking, no decision
        being stored); they are stored, and load again on the next request. Returns how many went."""
        now = time.monotonic()
        idle = [tid for tid, t in self.tables.items() if self._idle(t) and now - t.last_used > idle_seconds]
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
        view = state.view(seat) if seat is not None else self.public_view(table)
        undo: str | None = None
        if seat is not None:
            undo = "the game is over" if over else table.history.why_no_undo(seat)
        seats, labels = self._seats(table, seat)
        payload: dict[str, Any] = {
            "type": "update",
            "table": table.record.id,
            "game": table.game.id,
            "title": table.game.title,
            "version": table.version,
            "players": table.record.players,
            "variants": table.record.variants,
            "seeded": str(table.record.seed) if table.record.seeded else None,
            "seat": seat,
            "seats": seats,
            "actors": actors,
            "legal": legal,
            "view": view,
            "svg": self._board(table, seat, view, legal),
            "log": self.log_lines(table, seat, LOG_TAIL),
            "log_total": len(table.lines),
            "over": over,
            "result": result_with_sheet(state.result(), list(labels)) if over else None,
            "can_undo": seat is not None and undo is None,
            "undo_reason": undo,
            "rematch": table.record.rematch,
            "notice": table.notice,
            "extras": self._extras(table, state, view, seat),
        }
        table.cache[seat] = payload
        return payload

    @staticmethod
    def _seats(table: Table, seat: int | None) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
        """The ``seats`` of ``seat``'s update and each seat's label as ``seat`` reads it (see :func:`seat_label`),
        made again only when what they are made of changed (a seat's kind, agent or name): an update per seat
        and version would otherwise build the same list. Shared by the updates of that seat (read-only)."""
        record_seats = table.record.seats
        key = tuple((s.kind, s.agent, s.name) for s in record_seats)
        made = table.seat_parts.get(seat)
        if made is not None and made[0] == key:
            return made[1], made[2]
        labels = tuple(seat_label(s, i, seat, record_seats) for i, s in enumerate(record_seats))
        seats = [
            {"seat": i, "kind": s.kind, "agent": s.agent, "name": seat_name(s), "label": labels[i]}
            for i, s in enumerate(record_seats)
        ]
        table.seat_parts[seat] = (key, seats, labels)
        return seats, labels

    @staticmethod
    def _extras(table: Table, state: State[Any], view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """:func:`narrate.table_extras` for ``seat``, made once per version for every seat that sees the
        same view (it is a function of the game, the state and the view; ``seat`` only says whose)."""
        if table.extras_version != table.version:
            table.extras_version = table.version
            table.extras_made.clear()
            table.extras_memo = {}
        for seen, extras in table.extras_made:
            if seen is view or seen == view:
                return extras
        extras = table_extras(table.game, state, view, seat, table.extras_memo)
        table.extras_made.append((view, extras))
        return extras

    @staticmethod
    def _board(table: Table, seat: int | None, view: dict[str, Any], legal: list[str]) -> str:
        """The board picture for ``seat``: drawn again only when its view or legal moves changed (a render
        is a pure function of them, and the most expensive part of an update)."""
        last = table.drawn.get(seat)
        if last is not None and last.legal == legal and last.view == view:
            return last.svg
        svg = render(table.game, view, legal, seat)
        table.drawn[seat] = Drawn(view, legal, svg)
        return svg

    def log_lines(self, table: Table, seat: int | None, last: int | None = None) -> list[LogItem]:
        """The game log as ``seat`` may read it (only the ``last`` lines if given); a line whose automatic
        events this process knows carries them (``events``: public, so the same for every seat).

        The tail is made once per version for every seat when none of its lines is hidden from anyone
        (else once per seat): the seats' updates of one position share it."""
        lines = table.lines if last is None else table.lines[-last:]
        if last is None:
            return [line.item_for(seat) for line in lines]
        at = (table.version, len(table.lines), id(table.lines), last)
        memo = table.log_memo
        if memo is None or memo[0] != at:
            memo = table.log_memo = (at, any(line.secret and not line.revealed for line in lines), {})
        reader = seat if memo[1] else "everyone"
        items = memo[2].get(reader)
        if items is None:
            items = memo[2][reader] = _tail_of(lines, seat)
        return items

    @staticmethod
    def public_view(table: Table) -> dict[str, Any]:
        """The spectators' view of the table as it stands, remembered per version (the same lock rule as
        :meth:`payload`; never between a decision applied in memory and stored)."""
        if table.public is None or table.public[0] != table.version:
            table.public = (table.version, table.state.view(None))
        return table.public[1]

    async def snapshot(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The update for ``seat``, taken between decisions: never a position not yet stored."""
        async with table.lock:
            return self.payload(table, seat)

    def wire(self, table: Table, seat: int | None) -> Wire:
        """The encoded update for ``seat``: built once per (table, version, seat) and shared by every
        connection of that seat (the same lock rule as :meth:`payload`)."""
        payload = self.payload(table, seat)
        wire = table.wires.get(seat)
        if wire is None or wire.payload is not payload:
            wire = table.wires[seat] = Wire(payload, table.drawn.get(seat))
        return wire

    async def wire_snapshot(self, table: Table, seat: int | None) -> Wire:
        """:meth:`wire` taken between decisions: never a position not yet stored."""
        async with table.lock:
            return self.wire(table, seat)

    def push(self, table: Table) -> None:
        """Tell every watcher of the table that a fresh update is owed (never blocks)."""
        for sub in list(table.subscribers):
            sub.offer()

    # --- decisions ---------------------------------------------------------------------------

    @staticmethod
    def check_version(table: Table, seat: int, made_at: int) -> None:
        """Refuse a decision made at an older version (409 with the current one), so a retry or the
        same move from a second tab never applies twice.

        A decision made at the current version is fresh; so is one made before only hidden choices of
        other seats in a simultaneous step (which this seat could not see, and which change nothing
        it may do). Anything else (its own decision since, an undo, a reveal) makes it stale.
        """
        now = table.version
        if made_at == now:
            return
        since = [line for line in table.lines if line.seq > made_at] if 0 <= made_at < now else None
        if since is not None and all(ln.kind == "move" and ln.open and ln.player != seat for ln in since):
            return
        raise ApiError(
            409,
            f"this decision was made at version {made_at} but the table is at version {now} "
            "(it changed meanwhile, or the decision was sent twice): look again and decide",
            version=now,
        )

    def _refuse_when_draining(self) -> None:
        if self.draining:
            raise ApiError(503, "this server is shutting down; nothing changed: send it again (another takes it)")

    async def act(self, table: Table, seat: int, action: str, made_at: int) -> int:
        """Apply ``seat``'s decision (notation) made at version ``made_at``; stored, then pushed.
        Returns the new version.

        With several processes the database decides who writes a version: a process whose copy was
        behind finds out when it stores (:class:`Stale`), reads what it missed, checks the version again
        (so the same move sent to two processes is applied once) and tries once more."""
        self._refuse_when_draining()
        async with table.lock:
            if self.shared and (table.stale or made_at > table.version):  # a newer table was seen elsewhere
                await self.refresh_locked(table)
            for attempt in range(3):
                self.check_version(table, seat, made_at)
                try:
                    version = await self._apply_locked(table, seat, action)
                    break
                except Stale:
                    await self.refresh_locked(table)
                    if attempt == 2:
                        raise ApiError(503, "the table is too busy right now; nothing changed, try again") from None
        self.kick_ai(table)
        return version

    async def _apply_locked(self, table: Table, seat: int, action: str) -> int:
        state = table.state
        actors = state.actors()
        epoch = state.info_epoch()
        before_public = self.public_view(table)  # taken before the decision changes the state in place
        # a decision that may open a simultaneous step (several deciding, no step of this epoch open): its
        # position is kept for the step's reveal (see ``Table.step_before``)
        opening = len(actors) > 1 and (table.step is None or table.step.epoch != epoch)
        start = state.clone() if opening else None
        try:
            notation = table.history.apply(seat, action)
        except IllegalAction as exc:
            raise ApiError(409, str(exc)) from None
        decision = table.history.decisions[-1]
        seq = table.version + 1
        secret, closes, step = next_step(table.step, seq, seat, notation, actors, epoch, table.state)
        if start is not None:
            table.step_before = (decision.before, start)
        reveals: tuple[int, ...] = ()
        if closes is not None:
            reveals = self._reveals(table, closes, seq, secret)
        table.secret_flags.append(secret)
        row = DecisionRecord(seq, "move", seat, notation, secret, epoch, decision.before, reveals, closes)
        old_step = table.step
        table.step = step

        def restore() -> None:
            table.history.decisions.pop()
            table.secret_flags.pop()
            table.step = old_step
            try:
                table.history.state = table.game.from_json(decision.before)
            except CorruptSave:
                table.history.state = replay(table.game, table.record, _effective(table.lines))[-1]

        await self._store_locked(table, row, restore, before_public)
        return table.version

    @staticmethod
    def _reveals(table: Table, closes: int, seq: int, secret: bool) -> tuple[int, ...]:
        """The seqs of the secret lines of the step that decision ``seq`` (just applied) closes which the
        game now shows everyone (see :func:`shown_choices`)."""
        standing = _effective(table.lines)  # aligned with every decision but the one just applied
        first = next((i for i, ln in enumerate(standing) if ln.seq >= closes), len(standing))
        lines = standing[first:]
        candidates = {ln.seq for ln in lines if ln.open} | ({seq} if secret else set())
        if not candidates:
            return ()
        decisions = table.history.decisions[first:]
        seqs = [ln.seq for ln in lines] + [seq]
        shown = shown_choices(table.game, table.record.players, decisions, seqs, table.step_before)
        return tuple(sorted(candidates.intersection(shown)))

    async def undo(self, table: Table, seat: int, made_at: int) -> int:
        """Take back ``seat``'s last decision under the terminal's undo policy; stored, then pushed."""
        self._refuse_when_draining()
        async with table.lock:
            if self.shared and (table.stale or made_at > table.version):
                await self.refresh_locked(table)
            try:
                version = await self._undo_locked(table, seat, made_at)
            except Stale:
                await self.refresh_locked(table)
                try:
                    version = await self._undo_locked(table, seat, made_at)
                except Stale:
                    raise ApiError(503, "the table is too busy right now; nothing changed, try again") from None
        self.kick_ai(table)
        return version

    async def _undo_locked(self, table: Table, seat: int, made_at: int) -> int:
        if made_at != table.version:
            raise ApiError(
                409,
                f"this undo was asked at version {made_at}, the table is at {table.version}: look again",
                version=table.version,
            )
        reason = "the game is over" if table.state.is_over() else table.history.why_no_undo(seat)
        if reason:
            raise ApiError(409, f"cannot undo: {reason}")
        last = table.history.decisions[-1]
        undone = _effective(table.lines)[-1]
        after = table.state.clone()
        try:
            table.history.undo(seat)
        except CorruptSave:  # the saved position before it is unreadable: replay up to it instead
            table.history.state = replay(table.game, table.record, _effective(table.lines)[:-1])[-1]
            table.history.decisions.pop()
        secret = table.secret_flags.pop()
        # the undo line is as secret as the decision it takes back, unless that one's step closed already
        row = DecisionRecord(table.version + 1, "undo", seat, last.notation, undone.hidden, last.epoch_before, "")
        old_step = table.step
        if old_step is not None and seat in table.state.actors():
            table.step = Step(old_step.start, old_step.pending | {seat}, set(old_step.verbs), old_step.epoch)

        def restore() -> None:
            table.history.state = after
            table.history.decisions.append(last)
            table.secret_flags.append(secret)
            table.step = old_step

        await self._store_locked(table, row, restore)
        return table.version

    async def _store_locked(
        self,
        table: Table,
        row: DecisionRecord,
        restore: Callable[[], None],
        before_public: dict[str, Any] | None = None,
    ) -> None:
        """Write the row and the new state; on a storage failure put the game back as it was.

        ``before_public``: the spectators' view before a move, to tell its automatic events (an undo
        has none)."""
        state = table.state
        try:
            await self.db(
                self.store.record_decision,
                table.record.id,
                row.seq,
                row,
                table.history.state_json(),  # the next decision's `before`, not written again
                state.is_over(),
                self.origin,
            )
        except VersionConflict:
            restore()
            self.metrics.conflicts.inc()
            raise Stale() from None
        except asyncio.CancelledError:  # the server is stopping: whatever the database kept, it tells
            restore()
            raise
        except BaseException:
            log.exception("storing decision %s of table %s failed", row.seq, table.record.id)
            restore()
            raise ApiError(503, "the decision could not be saved; nothing changed, please try again") from None
        table.record.version = row.seq
        table.last_used = time.monotonic()
        table.record.over = state.is_over()
        line = LogLine(row.seq, row.kind, row.player, row.notation, row.secret)
        line.events = self._events(table, row, before_public)
        table.lines.append(line)
        mark_revealed(table.lines, [row])
        table.cache.clear()
        self.decisions += 1
        self.metrics.decisions.inc()
        self.push(table)

    def _events(self, table: Table, row: DecisionRecord, before: dict[str, Any] | None) -> list[str] | None:
        """The automatic events of a decision just stored, as ``GET /events`` tells them (None: not known)."""
        if row.kind != "move":
            return []  # an undo line: nothing happened by itself
        if before is None:
            return None
        try:
            return narrate_events(table.game.id, before, self.public_view(table), row.player, row.notation)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):  # a view shaped otherwise
            log.warning("no events for decision %s of table %s", row.seq, table.record.id, exc_info=True)
            return None

    # --- AI seats ----------------------------------------------------------------------------

    def kick_ai(self, table: Table) -> None:
        """Start the table's AI runner if an AI seat must decide and none is running."""
        if self.draining or (table.ai_task is not None and not table.ai_task.done()):
            return
        if table.state.is_over() or table.ai_actor() is None or table.notice:
            return
        table.ai_task = asyncio.get_running_loop().create_task(self._run_ai(table))

    def _spec(self, table: Table, seat: int) -> str:
        """The spec an AI seat runs now; ``ValueError`` if it is over this server's budget (an old table)."""
        stored = table.record.seats[seat].agent or "random"
        self.limits.check_agent(stored)
        return agent_spec_to_run(stored, table.record.game, table.record.players)  # a level's per-game spec

    def _agent(self, table: Table, seat: int, spec: str) -> farmtable.agents.Agent:
        agent = table.agents.get(seat)
        if agent is None:
            # seeded from secrets: nothing public (not even a published table seed) predicts it
            agent = farmtable.agents.make(spec, seed=secrets.randbits(64))
            table.agents[seat] = agent
        return agent

    def _processes(self) -> ProcessPoolExecutor:
        """The worker processes of heavy agents (started on first use; spawned, not forked; each
        one dies with the server, even when the server is killed)."""
        if self._procs is None:
            context = multiprocessing.get_context("spawn")
            self._procs = ProcessPoolExecutor(
                max_workers=self._ai_workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
            )
        return self._procs

    async def _lease(self, table: Table) -> bool:
        """Several processes: take the lease of the table's AI seats (True), or wait until the holder's
        lease could have expired and say False (the caller looks at the table again)."""
        if not self.shared:
            return True
        table_id = table.record.id
        if table_id in self.leases:  # held already: renew_forever keeps it (and drops it if it was lost)
            return True
        left = await self.db(self.store.take_lease, table_id, self.origin, self.lease_seconds)
        if left is None:
            self.leases.add(table_id)
            return True
        self.leases.discard(table_id)
        await asyncio.sleep(min(left, self.lease_seconds) + 0.05 + random.random() * 0.1)
        return False

    async def _release(self, table: Table) -> None:
        if table.record.id in self.leases:
            self.leases.discard(table.record.id)
            await self.db(self.store.release_lease, table.record.id, self.origin)

    async def renew_forever(self) -> None:
        """Renew the AI-seat leases this process holds, three times a lease (the app runs this)."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            held = list(self.leases)
            try:
                kept = await self.db(self.store.renew_leases, self.origin, held, self.lease_seconds)
            except Exception:
                log.exception("renewing AI-seat leases failed")
                continue
            for table_id in set(held) - kept:
                self.leases.discard(table_id)

    async def _run_ai(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with table.lock:
                if table.stale and self.shared:
                    await self.refresh_locked(table)
                seat = None if table.state.is_over() else table.ai_actor()
                if seat is None:
                    await self._release(table)
                    return
            if not await self._lease(table):
                continue
            async with table.lock:
                seat = None if table.state.is_over() else table.ai_actor()
                if seat is None:
                    continue
                snapshot = table.state.clone()
                version = table.version
            try:
                spec = self._spec(table, seat)
                agent = self._agent(table, seat, spec)
                if self.ai_delay:
                    await asyncio.sleep(self.ai_delay)
                if thinks_long(spec):
                    action: Any
                    action, table.agents[seat] = await loop.run_in_executor(
                        self._processes(), act_in_process, agent, snapshot, seat
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
                except Stale:  # another process decided meanwhile: read it, think again
                    await self.refresh_locked(table)
                    continue
                except ApiError as exc:
                    table.notice = f"the AI of player {seat} chose an illegal move: {exc.message}"
                    table.cache.clear()
                    self.push(table)
                    return

    # --- rematch and replay --------------------------------------------------------------------

    async def rematch(self, table: Table, seat: int, token: str) -> tuple[str, str]:
        """The rematch of a finished table (created once: same game and seats, a new secret deal) and a
        fresh token of ``seat`` there (derived from its old ``token``: the old one does not act there)."""
        async with table.lock:
            if not table.state.is_over():
                raise ApiError(409, "a rematch can start only when the game is over")
            rec = table.record
            if not rec.rematch:
                new_seed = unpredictable_seed()
                state = table.game.new_game(
                    players=rec.players, seed=new_seed, variants=tuple(rec.variants), **rec.options
                )
                new = TableRecord(
                    id=secrets.token_urlsafe(9),
                    game=rec.game,
                    players=rec.players,
                    seed=new_seed,
                    variants=list(rec.variants),
                    options=dict(rec.options),
                    seats=[Seat(s.kind, s.agent, None, None, s.name) for s in rec.seats],
                    state=state.to_json(),
                    version=0,
                    over=state.is_over(),
                    rematch_of=rec.id,
                    rematch=None,
                )
                rec.rematch = await self.db(self.store.create_table, new, self.origin)
                table.cache.clear()
                self.push(table)
            new_id = rec.rematch
        new_table = await self.get(new_id)
        new_token = rematch_token(token, new_id)
        async with new_table.lock:
            seats = new_table.record.seats
            if seats[seat].kind == HUMAN and seats[seat].token_hash != hash_token(new_token):
                changed = await self.db(
                    self.store.update_seat,
                    new_id,
                    seat,
                    {"token_hash": hash_token(new_token), "issued": time.time()},
                    self.origin,
                )
                new_table.record.seats = changed
                new_table.cache.clear()
        return new_id, new_token

    async def rename(self, table: Table, seat: int, name: object) -> str:
        """Give ``seat`` a name (checked by :func:`check_name`); stored, then pushed. Returns the name."""
        checked = check_name(name)
        async with table.lock:
            table.record.seats = await self.db(
                self.store.update_seat, table.record.id, seat, {"name": checked}, self.origin
            )
            table.cache.clear()
        self.push(table)
        return checked

    async def replay_states(self, table: Table) -> list[State[Any]]:
        """Every state of a finished game, recomputed from its seed and new-game parameters by its log."""
        rows = await self.db(self.store.load_log, table.record.id)
        return replay(table.game, table.record, _effective(rows))

    async def replay_frames(self, table: Table, start: int, count: int) -> tuple[int, list[dict[str, Any]]]:
        """Frames ``start`` .. ``start+count-1`` of a finished game's replay (spectator's view, SVG and the
        log line that led there) and how many there are; built on the replay thread, off the event loop.

        The positions are computed once per table (a finished game never changes) and kept for the
        few most recent tables; only the requested page is drawn.
        """
        steps = self._replay_cache.get(table.record.id)
        if steps is None:
            rows = await self.db(self.store.load_log, table.record.id)
            loop = asyncio.get_running_loop()
            steps = await loop.run_in_executor(self._replays, _replay_views, table.game, table.record, rows)
            self._replay_cache[table.record.id] = steps
            while len(self._replay_cache) > 8:
                self._replay_cache.pop(next(iter(self._replay_cache)))
        page = steps[start : start + count]
        loop = asyncio.get_running_loop()
        frames = await loop.run_in_executor(self._replays, _draw_frames, table.game, page, start)
        return len(steps), frames


def _replay_views(game: Game[Any], record: TableRecord, rows: list[DecisionRecord]) -> list[tuple[str, dict[str, Any]]]:
    """(log line, spectator view) of every position of a finished game (runs on the replay thread)."""
    standing = _effective(rows)
    states = replay(game, record, standing)
    texts = ["Start of the game"] + [
        LogLine(r.seq, r.kind, r.player, r.notation, r.secret).text_for(None) for r in standing
    ]
    return [(text, state.view(None)) for text, state in zip(texts, states, strict=True)]


def _draw_frames(game: Game[Any], page: list[tuple[str, dict[str, Any]]], start: int) -> list[dict[str, Any]]:
    """The replay frames of one page (runs on the replay thread)."""
    return [
        {"step": start + i, "text": text, "svg": render(game, view, [], None)} for i, (text, view) in enumerate(page)
    ]
