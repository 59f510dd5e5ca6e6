"""What decides a 2-player Farmini game? Margins, seats and the last cards (diagnosis, benchmark only).

Two parts:

1. ``--raw F ...``: finished games of ``compare.py --players 2 --raw`` files: how the final margin is
   spread (share decided by 0 / <= 1 / <= 2 points, ties on points), how often the first seat wins,
   and the mean totals.
2. ``--deals N --seed S``: plays N games greedy against greedy (game seed S + i, agents seeded as
   compare.py seeds them) and follows the evaluation's margin (``evaluate()``, seat 0 − seat 1) after
   every turn: with k cards left in the deck, how often the side the evaluation puts ahead is the
   final winner, and the turn of the last lead change. Ties on final points are left out there.
   At every take with at most one card left in the deck (nothing hidden: ``endgame.take_values``,
   the last takes solved exactly with the lookahead's placements) it also counts whether the
   mover's win can still change with its take, and whether greedy's take is an exact best.

    PYTHONPATH=src python benchmarks/ai/fm_decides.py --raw benchmarks/ai/out/s10/fm/n200_20*.jsonl
    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_decides.py --deals 40 --seed 2000
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

import farmtable
import farmtable.agents
from farmtable.arena.stats import wilson
from farmtable.games.farmini import endgame
from farmtable.games.farmini.evaluation import evaluate
from farmtable.games.farmini.rules import FarminiState

CHECKPOINTS = (40, 30, 20, 10, 6, 3, 1, 0)
"""Cards left in the deck at which the evaluation's leader is compared with the final winner."""


def share(hits: int, n: int) -> str:
    """``hits/n: p% [lo, hi]`` with a Wilson 95% interval."""
    if n == 0:
        return "0/0"
    low, high = wilson(hits, n)
    return f"{hits}/{n}: {100 * hits / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def raw_summary(paths: list[str]) -> None:
    """Margins and seats of the games in ``paths``."""
    games: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            games.extend(json.loads(line) for line in f)
    n = len(games)
    margins = [abs(g["totals"][0] - g["totals"][1]) for g in games]
    print(f"{n} games from {len(paths)} file(s)")
    for k in (0, 1, 2, 3):
        print(f"  |final margin| <= {k}: {share(sum(m <= k for m in margins), n)}")
    print(f"  |final margin| median {statistics.median(margins)}, mean {statistics.mean(margins):.2f}")
    first = sum(g["winners"] == [0] for g in games)
    second = sum(g["winners"] == [1] for g in games)
    print(f"  seat 0 (first player) wins {share(first, n)}; seat 1 wins {share(second, n)}")
    print(f"  mean total per player {statistics.mean(t for g in games for t in g['totals']):.2f}")


def traces(deals: int, seed: int) -> None:
    """Greedy against greedy: the evaluation's leader against the final winner, by cards left."""
    game = farmtable.get_game("farmini")
    right = dict.fromkeys(CHECKPOINTS, 0)
    seen = dict.fromkeys(CHECKPOINTS, 0)
    last_changes: list[int] = []
    decided = first_wins = 0
    margins: list[int] = []
    solved = open_win = greedy_best = greedy_lost_win = 0
    first_open = 0
    for i in range(deals):
        deal = seed + i
        state = game.new_game(players=2, seed=deal)
        assert isinstance(state, FarminiState)
        agents = [farmtable.agents.make("greedy", seed=deal * 7919 + s) for s in range(2)]
        leader_at: dict[int, float] = {}
        history: list[tuple[int, float]] = []  # (cards left, estimated margin) after each turn
        turn = -1
        first_seen = False
        while not state.is_over():
            p = state.actors()[0]
            action = agents[p].act(state, p)
            if endgame.solvable(state) and len(state.legal_actions(p)) > 1:
                rated = endgame.take_values(state, p)
                wins = {endgame.win_share(v) for v in rated.values()}
                top = max(rated.values())
                solved += 1
                open_win += len(wins) > 1
                greedy_best += rated[action] >= top
                greedy_lost_win += endgame.win_share(rated[action]) < endgame.win_share(top)
                if not first_seen:
                    first_seen = True
                    first_open += len(wins) > 1
            state.apply(p, action)
            if state.turn != turn and state.pending is None:
                turn = state.turn
                values = evaluate(state)
                history.append((len(state.deck), values[0] - values[1]))
        totals = state.result().totals
        final = totals[0] - totals[1]
        margins.append(abs(final))
        if final == 0:
            continue
        decided += 1
        first_wins += final > 0
        for left in CHECKPOINTS:  # the first position with at most `left` cards in the deck
            est = next((m for d, m in history if d <= left), None)
            if est is not None:
                leader_at[left] = est
                seen[left] += 1
                right[left] += (est > 0) == (final > 0) and est != 0
        change = 0
        for t in range(1, len(history)):
            if (history[t][1] > 0) != (history[t - 1][1] > 0):
                change = t
        last_changes.append(len(history) - change)
    print(f"greedy vs greedy, game seeds {seed}-{seed + deals - 1}: {deals} games, {decided} not tied on points")
    print(
        f"  |final margin| <= 1: {share(sum(m <= 1 for m in margins), deals)}; seat 0 wins {share(first_wins, decided)}"
    )
    for left in CHECKPOINTS:
        print(
            f"  {left:2d} cards left: the evaluation's leader is the final winner in {share(right[left], seen[left])}"
        )
    print(
        f"  takes with <= 1 card in the deck (solved exactly): {solved}; the mover's take can change "
        f"who wins in {share(open_win, solved)}; greedy's take is an exact best in {share(greedy_best, solved)}; "
        f"greedy's take gives up a win or tie it had in {share(greedy_lost_win, solved)}"
    )
    print(f"  games where the first such take can still change who wins: {share(first_open, deals)}")
    if last_changes:
        print(
            f"  turns from the last change of the evaluation's leader to the end: median "
            f"{statistics.median(last_changes)}, <= 4 in {share(sum(c <= 4 for c in last_changes), len(last_changes))}"
        )


def main() -> None:
    """Run the parts asked for."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--raw", nargs="*", default=[])
    ap.add_argument("--deals", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2000)
    args = ap.parse_args()
    if args.raw:
        raw_summary(args.raw)
    if args.deals:
        traces(args.deals, args.seed)


if __name__ == "__main__":
    main()
