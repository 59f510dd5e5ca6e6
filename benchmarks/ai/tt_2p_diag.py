"""Why the 2-player search is no better than greedy in Tiny Towns (session 9 diagnosis).

Two measurements, both on fixed seeds and cheap (a few CPU minutes):

1. ``evaluate`` in 2 players: greedy self-play games (game seeds ``--seed`` ...); at every round start the
   evaluation of each town is recorded, and at the end compared with the town's final score (RMSE, R²,
   mean bias by stage of the game). The weights were fitted on solo games only (``weights.json`` has
   no ``multi`` model).
2. What Normal does differently: Normal (``mcts:iters=50,time=0.2``) against Easy; at each of Normal's
   decisions with a choice, greedy's choice in a determinization of the same position; the share of
   decisions where they differ, by phase.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tt_2p_diag.py --games 20 --seed 5000 --normal-games 2
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

import farmtable
import farmtable.agents
from farmtable.agents.greedy import GreedyAgent, greedy_choice
from farmtable.games.tiny_towns.evaluation import evaluate


def evaluation_quality(games: int, seed: int) -> None:
    """Print how well ``evaluate`` predicts each town's final score in greedy 2-player games."""
    game = farmtable.get_game("tiny-towns")
    rows: list[tuple[float, float, float]] = []  # (share filled, estimate, final)
    finals: list[int] = []
    for g in range(games):
        state = game.new_game(players=2, seed=seed + g)
        agents = [GreedyAgent(seed=2 * g), GreedyAgent(seed=2 * g + 1)]
        marks: list[tuple[float, list[float]]] = []
        last_round = -1
        while not state.is_over():
            if state.phase == "name" and state.round != last_round:
                last_round = state.round
                filled = sum(1 for v in state.towns[0].grid if v) / 16
                marks.append((filled, evaluate(state)))
            p = state.actors()[0]
            state.apply(p, agents[p].act(state, p))
        totals = state.result().totals
        finals += totals
        for filled, values in marks:
            for p in range(2):
                rows.append((filled, values[p], float(totals[p])))
    mean, sd = statistics.mean(finals), statistics.pstdev(finals)
    print(f"greedy 2-player games: {games}, final score mean {mean:.2f} (sd {sd:.2f})")
    for low, high in ((0.0, 0.34), (0.34, 0.67), (0.67, 1.01)):
        part = [(e, f) for s, e, f in rows if low <= s < high]
        if not part:
            continue
        err = [e - f for e, f in part]
        fin = [f for _, f in part]
        var = statistics.pvariance(fin) or 1.0
        rmse = (sum(x * x for x in err) / len(err)) ** 0.5
        r2 = 1 - (rmse**2) / var
        print(
            f"  own town filled {low:.0%}-{min(high, 1):.0%}: {len(part)} estimates, mean estimate "
            f"{statistics.mean(e for e, _ in part):.2f} vs final {statistics.mean(fin):.2f} "
            f"(bias {statistics.mean(err):+.2f}), RMSE {rmse:.2f}, R² {r2:.2f}"
        )


def normal_vs_greedy_moves(games: int, seed: int) -> None:
    """Print how often Normal's move differs from greedy's in the same position, by phase."""
    game = farmtable.get_game("tiny-towns")
    same: Counter[str] = Counter()
    total: Counter[str] = Counter()
    scores: list[tuple[int, int]] = []
    for g in range(games):
        for seat in (0, 1):
            state = game.new_game(players=2, seed=seed + g)
            agents = [
                farmtable.agents.make("normal", seed=g, game="tiny-towns", players=2),
                GreedyAgent(seed=g),
            ]
            if seat:
                agents.reverse()
            while not state.is_over():
                p = state.actors()[0]
                action = agents[p].act(state, p)
                if p == seat and len(state.legal_actions(p)) > 1:
                    world = state.determinize(p, random.Random(0))
                    mine = state.legal_actions(p)[greedy_choice(world, p, random.Random(0))]
                    total[state.phase] += 1
                    same[state.phase] += mine == action
                state.apply(p, action)
            totals = state.result().totals
            scores.append((totals[seat], totals[1 - seat]))
    for phase in total:
        print(f"  {phase}: Normal plays greedy's move in {same[phase]}/{total[phase]} decisions")
    normal, greedy = statistics.mean(s for s, _ in scores), statistics.mean(o for _, o in scores)
    print(f"  Normal's towns {normal:.2f}, greedy's {greedy:.2f}")


def main() -> None:
    """Run both measurements."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--normal-games", type=int, default=2)
    args = ap.parse_args()
    evaluation_quality(args.games, args.seed)
    normal_vs_greedy_moves(args.normal_games, args.seed)


if __name__ == "__main__":
    main()
