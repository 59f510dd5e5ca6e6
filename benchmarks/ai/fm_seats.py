"""How far a two-player Farmini player is from a win share, deal by deal: won from both seats, split, lost from both.

In a seat-balanced run each deal is played twice, seats swapped. With ``W2`` deals won from both
seats, ``L2`` lost from both and the rest split one game each (a tie counts half), the win share is
``1/2 + (W2 - L2) / (2 N)`` over ``N`` deals: a share of 75% needs ``W2 - L2 >= N / 2``, i.e. half
the deals turned into wins from *both* seats beyond those lost from both. A split deal is "the seat
decides" when the same seat won both games.

Reads ``compare.py --players 2 --raw`` files (one candidate against ``--opponent``) and prints per
file the counts, the share and the deals where the seat decided; with several files, the deals
every file played where the seat decided in all of them (whatever the candidate did). No games
are played (no CPU beyond reading the files)::

    PYTHONPATH=src python benchmarks/ai/fm_seats.py benchmarks/ai/out/s10/fm/n200_2000.jsonl \\
        benchmarks/ai/out/s14/fm14/pw4_vs_easy_2000.jsonl --opponent greedy
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict


def deal_games(path: str, opponent: str) -> dict[int, list[tuple[int, float]]]:
    """Deal -> [(the candidate's seat, its win share in that game)] for the games in ``path``."""
    out: dict[int, list[tuple[int, float]]] = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            game = json.loads(line)
            specs, winners = game["specs"], game["winners"]
            mine = 1 if specs[0] == opponent else 0
            if specs[1 - mine] != opponent:
                raise ValueError(f"{path}: a game without the opponent {opponent!r}: {specs}")
            share = 1.0 / len(winners) if mine in winners else 0.0
            out[int(game["deal"])].append((mine, share))
    return out


def classify(games: list[tuple[int, float]]) -> str:
    """A deal's two games (the candidate's seat, its share): ``both`` (won from both seats), ``none``
    (lost from both), ``seat0`` / ``seat1`` (split: the first / second seat won both games), ``tie``
    (a shared win in either game)."""
    shares = {seat: share for seat, share in games}
    if any(s not in (0.0, 1.0) for s in shares.values()):
        return "tie"
    if shares[0] == shares[1]:
        return "both" if shares[0] == 1.0 else "none"
    return "seat0" if shares[0] == 1.0 else "seat1"


def summary(path: str, opponent: str) -> dict[int, str]:
    """Print one file's counts and return deal -> class for the deals played from both seats."""
    games = deal_games(path, opponent)
    kinds = {deal: classify(rows) for deal, rows in sorted(games.items()) if len({s for s, _ in rows}) == 2}
    n = len(kinds)
    count = {k: sum(1 for v in kinds.values() if v == k) for k in ("both", "none", "seat0", "seat1", "tie")}
    share = sum(sum(s for _, s in games[d]) for d in kinds) / (2 * n) if n else float("nan")
    need = max(0.0, n / 2 - (count["both"] - count["none"]))
    print(
        f"{path}: {n} deals: won from both seats {count['both']}, lost from both {count['none']}, "
        f"split {count['seat0'] + count['seat1']} (first seat won {count['seat0']}, second {count['seat1']}), "
        f"with a shared win {count['tie']}; win share {share:.3f}; "
        f"to reach 75%: {need:.1f} more deals won from both seats (net)"
    )
    return kinds


def main() -> None:
    """Summarise each raw file and the deals where the seat decided in all of them."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="+")
    ap.add_argument("--opponent", required=True, help="the opponent's spec as written in the raw files")
    args = ap.parse_args()
    tables = [summary(path, args.opponent) for path in args.raw]
    if len(tables) > 1:
        common = sorted(set.intersection(*(set(t) for t in tables)))
        decided = [d for d in common if len({t[d] for t in tables}) == 1 and tables[0][d] in ("seat0", "seat1")]
        print(
            f"deals in every file: {len(common)}; the same seat won both games in every file: {len(decided)} "
            f"{decided}; per deal: " + ", ".join(f"{d}:" + "/".join(t[d] for t in tables) for d in common)
        )


if __name__ == "__main__":
    main()
