"""Farmers Finances, 2 players: the duel search's CPU cost per depth on fixed positions, both engines.

Collects the decisions of seeded games played by two ``farmers-finances-duel:depth=1`` players (game
seeds ``--seed`` .. ``--seed + --games - 1``; every ``--every``-th decision with more than one legal
action), then values every legal action of each position at each ``--depths`` with
:class:`duel.Search` (the session-12 engine, ``--old``) and :class:`deep.Deep` (tuples; ``--keep``: each
search starting from the previous one's memories, as the agent does), checks that the engines choose the
same action (and reports the largest value difference from the old engine),
and prints CPU s a decision (``time.process_time``) p50 / p90 / p99 / max per engine and depth.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/ff_depth_cost.py --games 4 --seed 5000 --depths 1 2 3 --old
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import farmtable
from farmtable.games.farmers_finances import deep, duel, race
from farmtable.games.farmers_finances.rules import FarmersFinancesState


def positions(games: int, seed: int, every: int) -> list[FarmersFinancesState]:
    """Decisions of seeded depth-1 duel games, every ``every``-th with a choice."""
    game = farmtable.get_game("farmers-finances")
    out: list[FarmersFinancesState] = []
    count = 0
    for deal in range(seed, seed + games):
        state = game.new_game(players=2, seed=deal)
        agents = [farmtable.agents.make("farmers-finances-duel:depth=1", seed=deal * 2 + p) for p in range(2)]
        while not state.is_over():
            p = state.current
            if len(state.legal_actions(p)) > 1:
                count += 1
                if count % every == 0:
                    assert isinstance(state, FarmersFinancesState)
                    out.append(state.clone())
            state.apply(p, agents[p].act(state, p))
    return out


def old_values(state: FarmersFinancesState, depth: int, spread: float) -> list[float]:
    """Every legal action's value by the session-12 engine."""
    search = duel.Search(race.solve(), None, spread)
    return [search.action_value(state, state.current, a, depth) for a in state.legal_actions(state.current)]


KEPT: list[deep.Deep] = []


def new_values(state: FarmersFinancesState, depth: int, spread: float, keep: bool = False) -> list[float]:
    """Every legal action's value by the tuple engine (``keep``: starting from the last search's memories)."""
    search = deep.Deep(race.solve(), None, spread, KEPT[-1] if keep and KEPT else None)
    KEPT[:] = [search]
    values = []
    for level in range(1, depth + 1):  # iterative deepening, as the agent does
        values = deep.root_values(search, state, level)
    return values


def main() -> None:
    """Print the cost table and the agreement of the engines."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--spread", type=float, default=3.0)
    ap.add_argument("--old", action="store_true", help="also time the session-12 engine and compare values")
    ap.add_argument("--keep", action="store_true", help="also time the tuple engine keeping its memories")
    ap.add_argument("--limit", type=float, default=30.0, help="stop an engine's depth after this many CPU s")
    args = ap.parse_args()
    race.solve()
    states = positions(args.games, args.seed, args.every)
    print(f"{len(states)} positions from seeds {args.seed}-{args.seed + args.games - 1}, spread={args.spread}")
    engines = ["tuple"] + (["old"] if args.old else []) + (["kept"] if args.keep else [])
    for depth in args.depths:
        choices: dict[str, list[int]] = {}
        values: dict[str, list[list[float]]] = {}
        for engine in engines:
            costs: list[float] = []
            picked: list[int] = []
            valued: list[list[float]] = []
            spent = 0.0
            for state in states:
                start = time.process_time()
                if engine == "old":
                    got = old_values(state, depth, args.spread)
                else:
                    got = new_values(state, depth, args.spread, engine == "kept")
                cost = time.process_time() - start
                costs.append(cost)
                spent += cost
                picked.append(got.index(max(got)))
                valued.append(got)
                if spent > args.limit:
                    break
            choices[engine], values[engine] = picked, valued
            q = np.quantile(costs, [0.5, 0.9, 0.99])
            print(
                f"depth {depth} {engine:>6}: {len(costs)} decisions, CPU s p50 {q[0]:.4f} p90 {q[1]:.4f} "
                f"p99 {q[2]:.4f} max {max(costs):.4f} total {spent:.1f}"
            )
        for engine in engines[1:]:
            n = min(len(choices[engine]), len(choices["tuple"]))
            same = sum(choices[engine][i] == choices["tuple"][i] for i in range(n))
            line = f"depth {depth} {engine} vs tuple: same choice {same} of {n}"
            if engine == "old":
                diff = max(
                    max(abs(x - y) for x, y in zip(values["old"][i], values["tuple"][i], strict=True)) for i in range(n)
                )
                line += f", largest value difference {diff:.2e}"
            print(line)


if __name__ == "__main__":
    main()
