"""Where a 2-player Tiny Farms candidate wins and loses against its opponent, from ``compare.py --raw`` files (no play).

Usage (from the repository root)::

    python benchmarks/ai/tf_s14_diag.py --agent "tiny-farms-duel:depth=2,reply=search,time=1.0" \\
        --opponent "tiny-farms-duel:time=0.5" RAW1.jsonl RAW2.jsonl ...

Prints the agent's win share (a tie half, Wilson 95%) by seat, by the horse race (won, tied, lost:
``details.horse_counts``, 2-player rules: most horses 10 points, a tie 10 each, at least one horse to
score), by margin band (close: |margin| <= 5), the unused milk (1 point a token), the margin's mean,
and how many of the agent's decisions ran to its deadline (CPU s over ``--cap``), by tenth of the game.
The raw files hold only totals and these details: the other scoring parts are not recorded.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from typing import Any


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``wins``/``n`` (as fractions)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def games(paths: list[str], agent: str, opponent: str) -> list[dict[str, Any]]:
    """Every game of ``agent`` against ``opponent`` in the files, with the agent's seat, margin,
    result (1, 1/2, 0), horse race outcome and both unused milk counts."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                g = json.loads(line)
                specs = g["specs"]
                if sorted(specs) != sorted([agent, opponent]):
                    continue
                me = specs.index(agent)
                you = 1 - me
                totals = g["totals"]
                win = 1.0 if g["winners"] == [me] else 0.5 if me in g["winners"] else 0.0
                horses = g["details"]["horse_counts"]
                race = "tied" if horses[me] == horses[you] else "won" if horses[me] > horses[you] else "lost"
                if horses[me] == horses[you] == 0:
                    race = "none"
                milk = g["details"]["unused_milk"]
                out.append(
                    {
                        "deal": g["deal"],
                        "seat": me,
                        "margin": totals[me] - totals[you],
                        "win": win,
                        "race": race,
                        "horses": (horses[me], horses[you]),
                        "milk": (milk[me], milk[you]),
                        "mine": totals[me],
                        "theirs": totals[you],
                    }
                )
    return out


def line(label: str, rows: list[dict[str, Any]]) -> str:
    """One table row: count, win share with interval, mean margin."""
    n = len(rows)
    if not n:
        return f"| {label} | 0 | – | – |"
    wins = sum(r["win"] for r in rows)
    lo, hi = wilson(wins, n)
    mean = statistics.fmean(r["margin"] for r in rows)
    return f"| {label} | {n} | {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | {mean:+.2f} |"


def main() -> None:
    """Print the breakdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("raw", nargs="+")
    parser.add_argument("--agent", required=True)
    parser.add_argument("--opponent", required=True)
    parser.add_argument("--cap", type=float, default=0.84, help="CPU s above which a decision hit its deadline")
    args = parser.parse_args()
    rows = games(args.raw, args.agent, args.opponent)
    print(f"{len(rows)} games, {len({r['deal'] for r in rows})} deals\n")
    print("| subset | games | agent win share [Wilson 95%] | mean margin |\n|---|---|---|---|")
    print(line("all", rows))
    for seat in (0, 1):
        name = f"seat {seat} ({'first' if seat == 0 else 'second'} player)"
        print(line(name, [r for r in rows if r["seat"] == seat]))
    for race in ("won", "tied", "lost", "none"):
        print(line(f"horse race {race}", [r for r in rows if r["race"] == race]))
    for lo, hi, label in (
        (-99, -11, "lost by > 10"),
        (-10, -6, "lost by 6-10"),
        (-5, 5, "close |m| <= 5"),
        (6, 10, "won by 6-10"),
        (11, 99, "won by > 10"),
    ):
        print(line(f"margin {label}", [r for r in rows if lo <= r["margin"] <= hi]))
    close = [r for r in rows if abs(r["margin"]) <= 5]
    print(line("close, horse race won", [r for r in close if r["race"] == "won"]))
    print(line("close, horse race lost", [r for r in close if r["race"] == "lost"]))
    print(line("close, horse race tied/none", [r for r in close if r["race"] in ("tied", "none")]))
    print()
    mm = statistics.fmean(r["milk"][0] for r in rows)
    mo = statistics.fmean(r["milk"][1] for r in rows)
    print(f"unused milk a game: agent {mm:.2f}, opponent {mo:.2f}")
    mine, theirs = statistics.fmean(r["mine"] for r in rows), statistics.fmean(r["theirs"] for r in rows)
    print(f"mean total: agent {mine:.2f}, opponent {theirs:.2f}")
    print(
        f"mean horses: agent {statistics.fmean(r['horses'][0] for r in rows):.2f}, "
        f"opponent {statistics.fmean(r['horses'][1] for r in rows):.2f}"
    )
    races: dict[str, int] = defaultdict(int)
    for r in rows:
        races[r["race"]] += 1
    print("horse race outcomes:", dict(races))

    # margin without the horse race: remove each side's horse points (10 to most horses or a tie, >= 1 horse)
    def horse_pts(h: tuple[int, int]) -> tuple[int, int]:
        top = max(h)
        return tuple(10 if x == top and x >= 1 else 0 for x in h)  # type: ignore[return-value]

    rest = [r["margin"] - (horse_pts(r["horses"])[0] - horse_pts(r["horses"])[1]) for r in rows]
    print(
        f"margin without the horse race: mean {statistics.fmean(rest):+.2f}, "
        f"share > 0 {sum(x > 0 for x in rest) / len(rest):.3f}, = 0 {sum(x == 0 for x in rest) / len(rest):.3f}"
    )
    print(f"margin sd {statistics.stdev(r['margin'] for r in rows):.2f}")
    bydeal: dict[int, float] = defaultdict(float)
    for r in rows:
        bydeal[r["deal"]] += r["win"]
    counts: dict[float, int] = defaultdict(int)
    for v in bydeal.values():
        counts[v] += 1
    print("per-deal wins of 2 (both seats):", dict(sorted(counts.items())))
    hit, seen = [0] * 10, [0] * 10
    for path in args.raw:
        with open(path, encoding="utf-8") as fh:
            for text in fh:
                g = json.loads(text)
                if sorted(g["specs"]) != sorted([args.agent, args.opponent]):
                    continue
                cpu = g["cpu"][g["specs"].index(args.agent)]
                for i, x in enumerate(cpu):
                    tenth = min(i * 10 // len(cpu), 9)
                    seen[tenth] += 1
                    hit[tenth] += x > args.cap
    print(f"agent decisions over {args.cap} CPU s (at its deadline): {sum(hit)} of {sum(seen)}; by tenth of the game:")
    print("   ", " ".join(f"{h}/{n}" for h, n in zip(hit, seen, strict=True)))


if __name__ == "__main__":
    main()
