"""Shared helpers of the issue-16 speed benchmarks: main's snapshot, CPU timing, intervals.

Every benchmark here runs *side by side in one run*: the code of this checkout and a snapshot of
another commit (``--base``, default ``/tmp/farmtable-base/src``, made with
``git -C /work/main archive HEAD src | tar -x -C /tmp/farmtable-base``), alternating rounds so a
change of machine load hits both alike, and reports CPU seconds (``time.process_time`` or the
children's rusage), never wall time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE_SRC = Path(__file__).resolve().parents[2] / "src"
DEFAULT_BASE = Path("/tmp/farmtable-base/src")
GAMES = ("farmers-finances", "tiny-farms", "farmerama", "tiny-towns", "farmini")
"""The games the engine benchmarks play, in their table order."""


RANDOM_GAMES = r"""
import json, random, sys
import farmtable
game_id, games, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = farmtable.get_game(game_id)
def play(seed):
    rng = random.Random(seed)
    state = game.new_game(players=2, seed=seed)
    n = 0
    while not state.is_over():
        player = state.actors()[0]
        legal = state.legal_actions(player)
        state.apply(player, legal[rng.randrange(len(legal))])
        n += 1
    return n
for seed in range(warm):
    play(10**6 + seed)
"""
"""A worker's start: ``argv`` game id, games, warm-up games; ``play(seed)`` plays one seeded random
2-player game and returns its decisions (after ``warm`` games played to warm the caches)."""


def add_sides(parser: argparse.ArgumentParser, measured: str) -> None:
    """The options every side-by-side engine benchmark takes: ``--games``, ``--base`` and ``--this``
    (``measured`` says what is done to the code: "measure", "count")."""
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--base", type=Path, default=DEFAULT_BASE)
    parser.add_argument(
        "--this", type=Path, default=HERE_SRC, help=f"src folder to {measured} (default: this checkout)"
    )


def run_worker(src: Path, worker: str, *args: object) -> Any:
    """Run the Python source ``worker`` in a fresh process on ``src`` with ``args`` as its
    ``sys.argv[1:]``, and return the JSON it prints."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, "-c", worker, *map(str, args)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def ensure_base(base: Path, commit: str = "HEAD", repo: Path = Path("/work/main")) -> Path:
    """Export ``commit``'s ``src`` of ``repo`` to ``base``'s parent unless it is there already."""
    if not (base / "farmtable" / "__init__.py").exists():
        base.parent.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(repo), "archive", commit, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(base.parent)], input=archive.stdout, check=True)
    return base


def median_ci(values: list[float]) -> tuple[float, float, float]:
    """The median and a distribution-free ~95% interval for it (binomial order statistics)."""
    xs = sorted(values)
    n = len(xs)
    med = statistics.median(xs)
    if n < 6:
        return med, xs[0], xs[-1]
    half = 1.96 * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half) - 1)
    hi = min(n - 1, math.ceil(n / 2 + half))
    return med, xs[lo], xs[hi]


def ratio_ci(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Median of the paired ratios a/b (same round, same seeds) with its ~95% interval."""
    return median_ci([a / b for a, b in pairs if b > 0])


def fmt(ci: tuple[float, float, float], spec: str = ",.0f") -> str:
    """``value [low, high]``."""
    return f"{ci[0]:{spec}} [{ci[1]:{spec}}, {ci[2]:{spec}}]"


def python() -> str:
    """The interpreter running the benchmark (the project's venv)."""
    return sys.executable
