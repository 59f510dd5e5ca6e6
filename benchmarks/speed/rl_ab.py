"""RL adapters before vs after: each column's share of native decisions/s, two source trees side by side.

    nice -n 10 .venv/bin/python benchmarks/speed/rl_ab.py --before /tmp/base/src --after src \\
        --games tiny-farms farmerama farmers-finances --pairs 4 --rounds 3 --seconds 0.5

Each *pair* runs one child process per tree (the order alternates from pair to pair), with that tree
first on ``PYTHONPATH``. A child measures every column of every game with ``farmtable.rl.bench``'s own
``paired`` (CPU time, the column against the native column on the same deals, the bench's masked sampler,
the bench's seeds per column) and reports the median share of native over its ``--rounds`` rounds. The
pair's ratio for a column is after-share / before-share: both shares come from the same deals, so the
ratio compares the adapters, not the machine's mood. Printed per game and column: the median share of
each tree over the pairs, and the median after/before ratio with a ~95% interval (``bench.median_ci``).
The load average is printed before and after each child.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, statistics, sys
import farmtable
from farmtable.rl import bench

games, columns, rounds, seconds = json.loads(sys.argv[1])
out = {"file": farmtable.__file__, "shares": {}}
for game_id in games:
    game = farmtable.get_game(game_id)
    players = max(2, game.min_players)
    for index, column in enumerate(columns):
        first_seed = (index + 1) * bench.COLUMN_SEEDS
        if column == "gym solo":
            if game.min_players != 1:
                continue
            play, base = bench.gym_solo(game_id), bench.native(game_id, 1, False)
        elif column == "native+obs+mask":
            play, base = bench.observed(game_id, players), bench.native(game_id, players, False)
        elif column in ("PZ AEC", "PZ AEC raw"):
            play = bench.aec(game_id, players, raw=column == "PZ AEC raw")
            base = bench.native(game_id, players, False)
        elif column == "OpenSpiel":
            play, base = bench.openspiel(game_id, players), bench.native(game_id, players, False)
        else:
            raise SystemExit(f"unknown column {column!r}")
        cell = bench.paired(play, base, rounds, seconds, first_seed)
        out["shares"][f"{game_id}|{column}"] = {
            "share": statistics.median(cell.ratios),
            "rate": statistics.median(cell.rates),
            "native": statistics.median(cell.native),
        }
print(json.dumps(out))
"""

COLUMNS = ("native+obs+mask", "PZ AEC", "PZ AEC raw", "gym solo")
"""The columns measured by default (the ones this session's adapters change)."""


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def child(tree: str, games: list[str], columns: list[str], rounds: int, seconds: float) -> dict[str, object]:
    """One child process's measurement with ``tree`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
    args = json.dumps([games, columns, rounds, seconds])
    cmd = ["nice", "-n", "10", sys.executable, "-W", "ignore", "-c", CHILD, args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Run the pairs and print the table (and the raw shares as JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, help="the 'before' tree's src directory")
    parser.add_argument("--after", required=True, help="the 'after' tree's src directory")
    parser.add_argument("--games", nargs="+", default=["tiny-farms", "farmerama", "farmers-finances"])
    parser.add_argument("--columns", nargs="+", default=list(COLUMNS))
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--json", help="write every child's raw result here")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.after).resolve()))
    from farmtable.rl.bench import median_ci

    runs: dict[str, list[dict[str, object]]] = {"before": [], "after": []}
    for pair in range(args.pairs):
        order = ("before", "after") if pair % 2 == 0 else ("after", "before")
        for which in order:
            tree = args.before if which == "before" else args.after
            before_load = load()
            result = child(tree, args.games, args.columns, args.rounds, args.seconds)
            result["load"] = [before_load, load()]
            runs[which].append(result)
            print(f"pair {pair} {which}: {result['file']} load {before_load} -> {load()}", flush=True)
    print()
    print("| game | column | before % of native | after % of native | after/before [~95%] |")
    print("|---|---|---|---|---|")
    keys = list(runs["after"][0]["shares"])  # type: ignore[call-overload]
    for key in keys:
        game_id, column = key.split("|")
        before = [r["shares"][key]["share"] for r in runs["before"]]  # type: ignore[index]
        after = [r["shares"][key]["share"] for r in runs["after"]]  # type: ignore[index]
        ratio, low, high = median_ci([a / b for a, b in zip(after, before, strict=True)])
        print(
            f"| {game_id} | {column} | {statistics.median(before):.1%} ({min(before):.1%}–{max(before):.1%}) "
            f"| {statistics.median(after):.1%} ({min(after):.1%}–{max(after):.1%}) "
            f"| {ratio:.3f} [{low:.3f}–{high:.3f}] |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
