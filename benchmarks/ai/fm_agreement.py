"""Farmini, 2 players: where the Normal level (``mcts:iters=50,time=0.2``) and greedy (Easy) differ.

Plays greedy against greedy on fixed deals; at each of seat 0's decisions with a choice it asks
greedy and the search (three agent seeds: the search's own noise) and reports how often the
search's seeds agree with each other and with greedy, and the one-move-ahead rating (the evaluation's
margin for seat 0) of the moves they pick. CPU seconds are ``time.process_time``.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_agreement.py --deals 1 --seed 2000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

import farmtable
from farmtable.agents import make


def margin_after(state, player: int, action) -> float:  # type: ignore[no-untyped-def]
    """Seat ``player``'s evaluated margin after ``action`` (one determinization, seeded)."""
    world = state.determinize(player, random.Random(0))
    world.apply(player, action)
    values = world.evaluate()
    return values[player] - max(v for q, v in enumerate(values) if q != player)


def main() -> None:
    """Print the agreement table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--game", default="farmini")
    ap.add_argument("--deals", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--search", default="mcts:iters=50,time=0.2")
    args = ap.parse_args()
    game = farmtable.get_game(args.game)
    positions = same_seeds = with_greedy = 0
    gaps: list[float] = []
    cpu: list[float] = []
    for deal in range(args.deals):
        state = game.new_game(players=2, seed=args.seed + deal)
        players = [make("greedy", seed=deal * 2 + i) for i in range(2)]
        while not state.is_over():
            p = state.actors()[0]
            action = players[p].act(state, p)
            if p == 0 and len(state.legal_actions(0)) > 1:
                picks = []
                for s in range(3):
                    agent = make(args.search, seed=1000 + s, game=args.game, players=2)
                    start = time.process_time()
                    picks.append(agent.act(state, 0))
                    cpu.append(time.process_time() - start)
                counts = Counter(str(a) for a in picks)
                top, n = counts.most_common(1)[0]
                positions += 1
                same_seeds += n == 3
                with_greedy += top == str(action)
                if top != str(action):
                    chosen = next(a for a in picks if str(a) == top)
                    gaps.append(margin_after(state, 0, chosen) - margin_after(state, 0, action))
            state.apply(p, action)
    print(f"{positions} positions of seat 0 with a choice ({args.deals} deals from seed {args.seed})")
    print(f"the search's three seeds agree: {same_seeds}/{positions}")
    print(f"the search's majority move is greedy's: {with_greedy}/{positions}")
    if gaps:
        print(
            f"where they differ ({len(gaps)}), one-move margin of the search's move minus greedy's: "
            f"mean {statistics.mean(gaps):+.2f}, min {min(gaps):+.2f}, max {max(gaps):+.2f}"
        )
    cpu.sort()
    print(f"search CPU s/decision p50 {cpu[len(cpu) // 2]:.3f} max {cpu[-1]:.3f}")


if __name__ == "__main__":
    main()
