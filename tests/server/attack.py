"""Helpers of the attack suite: raw HTTP and WebSocket clients aimed at a live server on 127.0.0.1.

Every helper is bounded (counts, sizes and socket timeouts), so each attack stops by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.server.live import LiveServer

TIMEOUT = 20.0


def post(server: LiveServer, path: str, body: Any, **kwargs: Any) -> httpx.Response:
    """POST JSON to the server."""
    return httpx.post(server.url + path, json=body, timeout=TIMEOUT, **kwargs)


def get(server: LiveServer, path: str, **kwargs: Any) -> httpx.Response:
    """GET from the server."""
    return httpx.get(server.url + path, timeout=TIMEOUT, **kwargs)


def open_table(server: LiveServer, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Open a table; fails the test unless it is created."""
    response = post(server, "/api/tables", {"game": game, "players": len(seats), "seats": seats, **extra})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def table_as(server: LiveServer, tid: str, tok: str | None = None) -> dict[str, Any]:
    """The table as a seat (header token) or a spectator sees it."""
    response = get(server, f"/api/tables/{tid}", headers={"X-Seat-Token": tok} if tok else {})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def ws_url(server: LiveServer, tid: str, query: str = "") -> str:
    """The WebSocket address of a table."""
    return f"ws://127.0.0.1:{server.port}/ws/tables/{tid}{query}"


@contextlib.contextmanager
def ws(server: LiveServer, tid: str, tok: str | None = None, hello: bool = True, **kwargs: Any) -> Iterator[Any]:
    """A WebSocket on a table (hello sent with the token unless ``hello=False``)."""
    with connect(ws_url(server, tid), open_timeout=TIMEOUT, close_timeout=2, **kwargs) as conn:
        if hello:
            with contextlib.suppress(ConnectionClosed):  # a refused socket may be closed already
                conn.send(json.dumps({"type": "hello", "token": tok}))
        yield conn


def recv(conn: ClientConnection, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next message, parsed."""
    data: dict[str, Any] = json.loads(conn.recv(timeout=timeout))
    return data


def recv_until(conn: ClientConnection, kind: str, limit: int = 50) -> dict[str, Any]:
    """Skip messages until one of type ``kind`` (at most ``limit`` messages)."""
    for _ in range(limit):
        message = recv(conn)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message in {limit}")


def close_code(conn: Any, limit: int = 10_000) -> int | None:
    """Read until the server closes the socket (at most ``limit`` messages); its close code."""
    try:
        for _ in range(limit):
            conn.recv(timeout=TIMEOUT)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None
    return None


def handshake_refused(server: LiveServer, tid: str, **kwargs: Any) -> int | None:
    """The HTTP status that refused a WebSocket handshake, or None if it was accepted."""
    try:
        with connect(ws_url(server, tid), open_timeout=TIMEOUT, **kwargs):
            return None
    except InvalidStatus as exc:
        return int(exc.response.status_code)


def rss_kb(pid: int) -> int:
    """Resident memory of a process in kB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def children(pid: int) -> list[tuple[int, str]]:
    """The live child processes of ``pid``: (pid, command line)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        ppid = next((int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("PPid:")), -1)
        state = next((ln.split()[1] for ln in status.splitlines() if ln.startswith("State:")), "?")
        if ppid == pid and state != "Z":
            found.append((int(entry), cmdline))
    return found


def alive(pid: int) -> bool:
    """True while a process exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


def chunked_post(server: LiveServer, path: str, total: int, chunk: int = 65_536) -> tuple[int, bytes]:
    """POST ``total`` bytes with chunked transfer encoding (no Content-Length) over a raw socket.

    Stops sending as soon as the server answers or closes; returns (status, whole answer bytes).
    """
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    answer = b""
    try:
        sock.sendall(head.encode())
        piece = b'{"a": "' + b"x" * (chunk - 7)
        sent = 0
        sock.setblocking(False)
        while sent < total:
            with contextlib.suppress(BlockingIOError):
                answer += sock.recv(65_536)
                if answer:
                    break
            sock.setblocking(True)
            sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            sock.setblocking(False)
            sent += len(piece)
        sock.setblocking(True)
        with contextlib.suppress(OSError):
            sock.sendall(b"0\r\n\r\n")
    except OSError:  # the server stopped reading and closed: what it answered is in the buffer
        sock.setblocking(True)
    with contextlib.suppress(OSError):
        while len(answer) < 50_000_000:
            data = sock.recv(65_536)
            if not data:
                break
            answer += data
    sock.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, answer


def raw_get(server: LiveServer, path: str, host: str) -> tuple[int, bytes]:
    """A GET with a forged ``Host`` header (as a DNS-rebinding page would send); (status, answer)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while len(answer) < 5_000_000:
            data = sock.recv(65_536)
            if not data:
                break
            answer += data
    return int(answer.split(b" ", 2)[1]), answer
