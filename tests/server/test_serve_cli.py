"""``farmtable serve``: prints its address, serves, and refuses a bad database in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from farmtable.cli import main
from tests.server.live import ROOT, free_port


def test_serve_prints_the_address_and_serves(tmp_path: Path) -> None:
    port = free_port()
    env = {"FARMTABLE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "farmtable", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == f"farmtable is serving on http://localhost:{port}/"
        assert "farmtable.db" in proc.stdout.readline()
        deadline = time.monotonic() + 20
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert (tmp_path / "farmtable.db").exists()  # the default: a SQLite file in the data folder
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_refuses_a_bad_sync_mode(capsys: object) -> None:
    assert main(["serve", "--db", "sqlite://", "--sqlite-sync", "sometimes"]) == 1


def test_serve_on_a_busy_port_says_so_in_one_line_before_any_address(tmp_path: Path) -> None:
    """Issue 15 item 7: a port someone already listens on gives one clear line with a ``--port`` hint
    and a non-zero exit, and no "serving on" address is printed first."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        env = {"FARMTABLE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")}
        done = subprocess.run(
            [sys.executable, "-m", "farmtable", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert "serving on" not in done.stdout + done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert f"port {port}" in lines[0] and "already in use" in lines[0] and "--port" in lines[0]
