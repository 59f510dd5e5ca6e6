"""Tiny Towns with 2 players: the completion race, and chunked runs merged without overlap (session 10).

``race``: in 2-player games (``compare.py --raw`` files), how often the player whose town is complete
first still wins (Wilson 95%), and for the first agent that is not Easy: how often its town is complete
first, level or last, and its win share in each case. The towns complete in the round recorded by the
game (``details.completed_round``); a shared win counts as a win here.

``pair``: two sets of runs against Easy on the same deals (``--a`` files, ``--b`` files): for each deal
played from both seats in both, the not-Easy agent's win share (a shared win counts half) and margin;
the mean difference (a minus b) with a Student-t 95% interval, deals as the pairs.

``keep``: copy the games of a ``--raw`` file whose deal lies in ``[--low, --high]`` (a chunk that was
split while it ran, so that every deal is counted once), to merge with ``compare.py --from-raw``.

    python benchmarks/ai/tt_race.py race benchmarks/ai/out/s8/ladder/tt-normal-vs-easy.jsonl
    python benchmarks/ai/tt_race.py pair --a benchmarks/ai/out/s10/tt/n-vs-easy-*.jsonl \
        --b benchmarks/ai/out/s9/tt-duel-n-vs-easy-20*.jsonl
    python benchmarks/ai/tt_race.py keep benchmarks/ai/out/s10/tt/n-vs-easy-2000.jsonl --low 2000 --high 2012 \
        --out benchmarks/ai/out/s10/tt/n-vs-easy-2000-2012.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
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


def per_deal(games: list[dict[str, Any]]) -> dict[int, tuple[float, float]]:
    """Deal -> (win share, mean margin) of the not-Easy agent, for the deals played from both seats."""
    seen: dict[int, dict[int, tuple[float, float]]] = {}
    for game in games:
        seats = [i for i, spec in enumerate(game["specs"]) if spec not in EASY]
        if len(seats) != 1 or len(game["totals"]) != 2:
            raise ValueError(f"deal {game['deal']}: pair needs 2-player games of one agent against Easy")
        me = seats[0]
        won = 0.0 if me not in game["winners"] else 1.0 / len(game["winners"])
        seen.setdefault(game["deal"], {})[me] = (won, float(game["totals"][me] - game["totals"][1 - me]))
    return {
        deal: (sum(w for w, _ in by.values()) / 2, sum(m for _, m in by.values()) / 2)
        for deal, by in seen.items()
        if len(by) == 2
    }


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean with a Student-t 95% interval (the normal quantile when scipy is missing)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    try:
        from scipy.stats import t

        quantile = float(t.ppf(0.975, n - 1))
    except ImportError:
        quantile = 1.959963984540054
    half = quantile * statistics.stdev(values) / n**0.5
    return mean, mean - half, mean + half


def pair(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    """The paired difference of win share and margin (a minus b) on the deals both played from both seats."""
    da, db = per_deal(a), per_deal(b)
    deals = sorted(set(da) & set(db))
    if not deals:
        return "no deal played from both seats in both sets"
    lines = [f"{len(deals)} deals ({2 * len(deals)} games each) in both sets"]
    for what, i in (("win share", 0), ("margin", 1)):
        mean_a = sum(da[d][i] for d in deals) / len(deals)
        mean_b = sum(db[d][i] for d in deals) / len(deals)
        mean, low, high = t_interval([da[d][i] - db[d][i] for d in deals])
        lines.append(f"  {what}: a {mean_a:.3f}, b {mean_b:.3f}, a - b {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
    return "\n".join(lines)


def main() -> None:
    """Command line: ``race FILES`` or ``keep FILE --low --high --out``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("race")
    r.add_argument("files", nargs="+")
    pr = sub.add_parser("pair")
    pr.add_argument("--a", nargs="+", required=True)
    pr.add_argument("--b", nargs="+", required=True)
    k = sub.add_parser("keep")
    k.add_argument("file")
    k.add_argument("--low", type=int, required=True)
    k.add_argument("--high", type=int, required=True)
    k.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.cmd == "race":
        print(race(load(args.files)))
        return
    if args.cmd == "pair":
        print(pair(load(args.a), load(args.b)))
        return
    if args.low > args.high:
        raise SystemExit(f"tt_race keep: --low {args.low} is above --high {args.high}")
    kept = [g for g in load([args.file]) if args.low <= g["deal"] <= args.high]
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(g) + "\n" for g in kept)
    print(f"kept {len(kept)} games of deals {args.low}-{args.high} in {args.out}")


if __name__ == "__main__":
    main()
