"""``farmtable serve``: prints its address, serves, and refuses a bad database in one line."""

from __future__ import annotations

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
