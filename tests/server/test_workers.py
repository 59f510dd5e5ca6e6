"""``farmtable serve --workers N``: refused with SQLite (saying why); with PostgreSQL N processes share
the port, and SIGTERM stops them all gracefully."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from farmtable.cli import main
from tests.server.live import ROOT, free_port

PG_URL = os.environ.get("FARMTABLE_TEST_POSTGRES", "")


def test_workers_with_sqlite_are_refused_saying_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--workers", "2", "--port", "0"]) == 1
    said = capsys.readouterr()
    text = said.out + said.err
    assert "--workers 2 needs PostgreSQL" in text and "SQLite" in text
    assert not (tmp_path / "x.db").exists()  # refused before anything was made


@pytest.mark.skipif(not PG_URL, reason="set FARMTABLE_TEST_POSTGRES to run the PostgreSQL tests")
def test_three_workers_share_one_port_and_stop_together() -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "farmtable", "serve", "--port", str(port), "--db", PG_URL, "--workers", "3"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen: set[str] = set()
        deadline = time.monotonic() + 60
        while len(seen) < 3:  # the kernel hands new connections to whichever worker accepts first
            assert time.monotonic() < deadline, f"saw only the workers {seen}"
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                with httpx.Client(timeout=2) as one_connection:
                    seen.add(one_connection.get(f"http://127.0.0.1:{port}/readyz").json()["process"])
            except (httpx.HTTPError, KeyError):
                time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0  # every worker drained and the parent ended
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
