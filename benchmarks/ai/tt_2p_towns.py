"""Tiny Towns with 2 players: what each agent's towns look like in ``compare.py --raw`` files (session 14).

No game is played: the raw files' results are read. For each agent (its spec), over every game it played:
win share (a shared win counts half), mean score, its town complete first / level / last and its win share in
each case, monuments built, unfed Cottages (Cottages less fed squares: only Cottages are fed), empty squares,
Master Builder turns, and the completion round. The names each Master Builder chose are not in the raw files.

    python benchmarks/ai/tt_2p_towns.py benchmarks/ai/out/s13/lead/tt-expert-vs-base-200*.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from typing import Any


def load(paths: list[str]) -> list[dict[str, Any]]:
    """Every game (one JSON object a line) of the raw files ``paths``."""
    games: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            games.extend(json.loads(line) for line in fh if line.strip())
    return games


def rows(games: list[dict[str, Any]]) -> dict[str, list[dict[str, float]]]:
    """Spec -> one row a game it played: its result and its town's shape."""
    out: dict[str, list[dict[str, float]]] = defaultdict(list)
    for game in games:
        d = game["details"]
        done = d["completed_round"]
        if len(done) != 2:
            raise ValueError(f"deal {game['deal']}: 2-player games only")
        for p in (0, 1):
            o = 1 - p
            race = 0.0 if done[p] < done[o] else 1.0 if done[p] == done[o] else 2.0
            out[game["specs"][p]].append(
                {
                    "win": (1.0 / len(game["winners"])) if p in game["winners"] else 0.0,
                    "score": float(game["totals"][p]),
                    "margin": float(game["totals"][p] - game["totals"][o]),
                    "race": race,
                    "monument": 0.0 if d["monuments"][p] is None else 1.0,
                    "unfed": float(d["cottages"][p] - len(d["fed_squares"][p])),
                    "cottages": float(d["cottages"][p]),
                    "empty": float(d["empty_squares"][p]),
                    "mb": float(d["master_builder_turns"][p]),
                    "done": float(done[p]),
                }
            )
    return out


def report(games: list[dict[str, Any]]) -> str:
    """The table of :func:`rows`, as text."""
    lines = [
        "| agent | games | win | score | margin | first / level / last (won) | monument | cottages (unfed) "
        "| empty | MB turns | complete round |",
        "|---|---:|---|---|---|---|---|---|---|---|---|",
    ]
    for spec, rs in rows(games).items():
        n = len(rs)

        def m(key: str, rs: list[dict[str, float]] = rs) -> float:
            return statistics.fmean(r[key] for r in rs)

        race = []
        for where in (0.0, 1.0, 2.0):
            sub = [r for r in rs if r["race"] == where]
            race.append(f"{len(sub)} ({sum(r['win'] for r in sub):g})")
        lines.append(
            f"| `{spec}` | {n} | {m('win'):.3f} | {m('score'):.2f} | {m('margin'):+.2f} | {' / '.join(race)} "
            f"| {m('monument'):.2f} | {m('cottages'):.2f} ({m('unfed'):.2f}) | {m('empty'):.2f} | {m('mb'):.2f} "
            f"| {m('done'):.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Print the towns table of the raw files given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw", nargs="+", help="compare.py --raw files (2-player Tiny Towns)")
    args = parser.parse_args()
    print(report(load(args.raw)))


if __name__ == "__main__":
    main()
