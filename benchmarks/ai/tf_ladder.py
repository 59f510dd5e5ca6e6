"""The 2-player ladder read from raw games: each pair's win share, by seat, its margin and its logit.

Reads ``compare.py --players 2 --raw`` files (any number, any pairs), groups the games by the pair
of specs (the first named is the one whose share is reported: the order given by ``--pair``, else
the order of the first game), and prints per pair: games, the first spec's win share (a shared win
counts half) with its Wilson 95% interval, the share as first and as second player, the mean margin
(normal 95%), and the share's logit ``ln(p / (1 - p))`` — the Bradley–Terry reading in which the
rungs of a ladder add up (a reading, not a law: ``--chain`` prints the sum over consecutive pairs).
A rung of ≥ 60% on 200 games needs about 67% observed (logit 0.71). ``--paired A B C D`` also
prints, per deal played from both seats in both pairs, A's win share against B minus C's against D
(how much wider a rung got where its agents changed, on the same deals), with a normal 95% interval.

    python benchmarks/ai/tf_ladder.py RAW1.jsonl RAW2.jsonl ... \\
        --pair "mcts:iters=50,time=0.2" greedy --pair "tiny-farms-duel:time=0.5" "mcts:iters=50,time=0.2"
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict

from farmtable.arena.stats import mean_ci, wilson


def load(paths: list[str]) -> dict[frozenset[str], list[dict[str, object]]]:
    """The games of every file, by the unordered pair of specs (a deal and seat seen twice keeps the last)."""
    seen: dict[tuple[frozenset[str], int, tuple[str, ...]], dict[str, object]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    game = json.loads(line)
                    specs = tuple(game["specs"])
                    seen[(frozenset(specs), int(game["deal"]), specs)] = game
    out: dict[frozenset[str], list[dict[str, object]]] = defaultdict(list)
    for (pair, _, _), game in seen.items():
        out[pair].append(game)
    return out


def share(game: dict[str, object], spec: str) -> tuple[float, float, int]:
    """``spec``'s win share (1, 1/2 shared, 0), margin and seat in ``game``."""
    specs = list(game["specs"])  # type: ignore[call-overload]
    seat = specs.index(spec)
    winners = list(game["winners"])  # type: ignore[call-overload]
    totals = list(game["totals"])  # type: ignore[call-overload]
    won = 1.0 / len(winners) if seat in winners else 0.0
    return won, float(totals[seat] - totals[1 - seat]), seat


def logit(p: float) -> float:
    """``ln(p / (1 - p))``, clipped to ±5 at a share of 0 or 1."""
    if p <= 0.0 or p >= 1.0:
        return 5.0 if p >= 1.0 else -5.0
    return math.log(p / (1.0 - p))


def row(first: str, games: list[dict[str, object]]) -> tuple[str, float]:
    """A table row for ``first`` against the other spec of ``games``, and the share's logit."""
    wins = [share(g, first) for g in games]
    n = len(wins)
    total = sum(w for w, _, _ in wins)
    low, high = wilson(total, n)
    by_seat = []
    for seat in (0, 1):
        mine = [w for w, _, s in wins if s == seat]
        by_seat.append(f"{100 * sum(mine) / len(mine):.1f}% of {len(mine)}" if mine else "—")
    m, ml, mh = mean_ci([mg for _, mg, _ in wins])
    lg = logit(total / n)
    other = next(s for s in games[0]["specs"] if s != first)  # type: ignore[attr-defined]
    text = (
        f"| `{first}` vs `{other}` | {n} | {100 * total / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}] | "
        f"{by_seat[0]} / {by_seat[1]} | {m:+.2f} [{ml:+.2f}, {mh:+.2f}] | {lg:+.2f} |"
    )
    return text, lg


def per_deal(games: list[dict[str, object]], first: str) -> dict[int, float]:
    """``first``'s mean win share per deal over the deals it played from both seats."""
    seats: dict[int, dict[int, float]] = defaultdict(dict)
    for game in games:
        won, _, seat = share(game, first)
        seats[int(game["deal"])][seat] = won  # type: ignore[call-overload]
    return {deal: (s[0] + s[1]) / 2 for deal, s in seats.items() if len(s) == 2}


def main(argv: list[str] | None = None) -> int:
    """Print the ladder table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw", nargs="+")
    ap.add_argument("--pair", nargs=2, action="append", default=[], metavar=("FIRST", "SECOND"))
    ap.add_argument("--first", type=int, default=None, help="first game seed kept")
    ap.add_argument("--last", type=int, default=None, help="last game seed kept")
    ap.add_argument("--chain", action="store_true", help="also print the sum of the listed pairs' logits")
    ap.add_argument("--paired", nargs=4, metavar=("A", "B", "C", "D"), help="per deal: A's share vs B minus C's vs D")
    args = ap.parse_args(argv)
    games = load(args.raw)
    keep = {
        pair: [
            g
            for g in rows
            if (args.first is None or int(g["deal"]) >= args.first)  # type: ignore[call-overload]
            and (args.last is None or int(g["deal"]) <= args.last)  # type: ignore[call-overload]
        ]
        for pair, rows in games.items()
    }
    order = [(a, b) for a, b in args.pair] or [tuple(next(iter(rows))["specs"]) for rows in keep.values() if rows]
    head = "| pair (first's share) | games | win share [Wilson 95%] | as first / as second | margin [95%] | logit |"
    print(head)
    print("|---|---|---|---|---|---|")
    total = 0.0
    for first, second in order:
        rows = keep.get(frozenset((first, second)), [])
        if not rows:
            print(f"| `{first}` vs `{second}` | 0 | — | — | — | — |")
            continue
        text, lg = row(first, rows)
        total += lg
        print(text)
    if args.chain:
        added = 100 / (1 + math.exp(-total))
        print(f"\nsum of the logits above: {total:+.2f} (a share of {added:.1f}% if they add up)")
    if args.paired:
        a, b, c, d = args.paired
        new = per_deal(keep.get(frozenset((a, b)), []), a)
        old = per_deal(keep.get(frozenset((c, d)), []), c)
        deals = sorted(set(new) & set(old))
        if not deals:
            print("\nno deal played from both seats in both pairs")
            return 0
        m, lo, hi = mean_ci([new[x] - old[x] for x in deals])
        print(
            f"\npaired on {len(deals)} deals ({deals[0]}-{deals[-1]}): `{a}` vs `{b}` minus `{c}` vs `{d}`, "
            f"win share a deal {m:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
