"""Tiny Towns with 2 players: the completion race, and chunked runs merged without overlap (session 10).

``race``: in 2-player games (``compare.py --raw`` files), how often the player whose town is complete
first still wins (Wilson 95%), and for the first agent that is not Easy: how often its town is complete
first, level or last, and its win share in each case. The towns complete in the round recorded by the
game (``details.completed_round``); a shared win counts as a win here.

``keep``: copy the games of a ``--raw`` file whose deal lies in ``[--low, --high]`` (a chunk that was
split while it ran, so that every deal is counted once), to merge with ``compare.py --from-raw``.

    python benchmarks/ai/tt_race.py race benchmarks/ai/out/s8/ladder/tt-normal-vs-easy.jsonl
    python benchmarks/ai/tt_race.py keep benchmarks/ai/out/s10/tt/n-vs-easy-2000.jsonl --low 2000 --high 2012 \
        --out benchmarks/ai/out/s10/tt/n-vs-easy-2000-2012.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from farmtable.arena.stats import wilson

EASY = ("greedy", "easy")


def load(paths: list[str]) -> list[dict[str, Any]]:
    """Every game (one JSON object a line) of the ``--raw`` files ``paths``."""
    games: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            games.extend(json.loads(line) for line in fh if line.strip())
    return games


def race(games: list[dict[str, Any]]) -> str:
    """The completion race in ``games``, as text lines."""
    first: Counter[bool] = Counter()
    searcher: Counter[tuple[str, bool]] = Counter()
    for game in games:
        done = game["details"]["completed_round"]
        if len(done) != 2:
            raise ValueError(f"deal {game['deal']}: the race is measured in 2-player games, not {len(done)}")
        for p in (0, 1):
            if done[p] < done[1 - p]:
                first[p in game["winners"]] += 1
        seats = [i for i, spec in enumerate(game["specs"]) if spec not in EASY]
        if seats:
            me = seats[0]
            where = "first" if done[me] < done[1 - me] else "level" if done[me] == done[1 - me] else "last"
            searcher[(where, me in game["winners"])] += 1
    n = first[True] + first[False]
    low, high = wilson(first[True], n)
    lines = [
        f"{len(games)} games; the town complete first wins {first[True]}/{n} = "
        f"{100 * first[True] / max(n, 1):.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
    ]
    for where in ("first", "level", "last"):
        won, lost = searcher[(where, True)], searcher[(where, False)]
        if won + lost:
            lines.append(f"  not-Easy player's town complete {where}: {won + lost} games, won {won}")
    return "\n".join(lines)


def main() -> None:
    """Command line: ``race FILES`` or ``keep FILE --low --high --out``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("race")
    r.add_argument("files", nargs="+")
    k = sub.add_parser("keep")
    k.add_argument("file")
    k.add_argument("--low", type=int, required=True)
    k.add_argument("--high", type=int, required=True)
    k.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.cmd == "race":
        print(race(load(args.files)))
        return
    if args.low > args.high:
        raise SystemExit(f"tt_race keep: --low {args.low} is above --high {args.high}")
    kept = [g for g in load([args.file]) if args.low <= g["deal"] <= args.high]
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(g) + "\n" for g in kept)
    print(f"kept {len(kept)} games of deals {args.low}-{args.high} in {args.out}")


if __name__ == "__main__":
    main()
