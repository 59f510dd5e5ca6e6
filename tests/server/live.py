"""A real ``farmtable serve`` in a subprocess on a free loopback port (127.0.0.1 only).

Run as ``python -m tests.server.live [--no-toy] -- <farmtable serve options>``: it registers the toy
game "race" beside the real games (unless ``--no-toy``) and runs the real ``farmtable serve``
command (every limit option included), with AI seats moving without delay unless told otherwise.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """A server subprocess on a database; ``kill()`` is SIGKILL, ``start()`` starts it again."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        ai_delay: float = 0.0,
        toy: bool = True,
        args: list[str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.toy = toy
        self.args = list(args or [])
        self.port = port or free_port()
        self.ai_delay = ai_delay
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base address, e.g. ``http://127.0.0.1:40123``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> None:
        """Start the server and wait until it answers (``timeout`` is a hang guard: a loaded machine
        running the suite on several workers can take tens of seconds to import and open a server)."""
        cmd = [sys.executable, "-m", "tests.server.live"] + ([] if self.toy else ["--no-toy"])
        cmd += ["serve", "--host", "127.0.0.1", "--db", self.db_url, "--port", str(self.port)]
        cmd += ["--ai-delay", str(self.ai_delay), *self.args]
        path = os.pathsep.join([str(ROOT), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": path}, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/games", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not answer in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush — as if the power went."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        """Stop it politely (tests' clean-up)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None


@contextlib.contextmanager
def live_server(db_url: str, ai_delay: float = 0.0, **kwargs: Any) -> Iterator[LiveServer]:
    """A started :class:`LiveServer`, stopped at the end."""
    server = LiveServer(db_url, ai_delay=ai_delay, **kwargs)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def main() -> None:
    """Register the toy game (unless ``--no-toy``) and run ``farmtable serve`` (the subprocess side)."""
    argv = sys.argv[1:]
    toy = "--no-toy" not in argv
    argv = [a for a in argv if a != "--no-toy"]
    import farmtable.core.registry as registry
    from farmtable.cli import main as cli_main
    from tests.toygame import RACE

    registry.list_games()
    if toy:
        registry._GAMES.setdefault("race", RACE)
    sys.exit(cli_main(argv))


if __name__ == "__main__":
    main()
