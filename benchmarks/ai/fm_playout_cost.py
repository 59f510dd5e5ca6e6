"""What a playout costs in two-player Farmini: the greedy model against the cached fast turn.

For each game seed, a greedy-against-greedy game (``duel.greedy_take`` + ``duel.finish_turn``) is
played; at the take decisions of turns ``--at`` (default 0, 10, 20, 30) the script

1. plays the rest of the game in one sampled world (``determinize``) by the greedy model and by
   :func:`playout.fast_turn` (a fresh cache) and reports CPU ms a turn for each;
2. tells whether the fast rule takes the same card as the greedy model there (agreement);
3. times one decision of ``farmini-duel:playout=N`` (no time cap, ``--worlds`` worlds) for each
   ``--plies`` N: CPU s, worlds a second and the cache's hit share.

CPU seconds by ``time.process_time``. Example (about 1 CPU minute)::

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_playout_cost.py --deals 3 --seed 2000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import farmtable
from farmtable.games.farmini import playout as fast
from farmtable.games.farmini.duel import DuelAgent, finish_turn, greedy_take
from farmtable.games.farmini.rules import FarminiState


def _greedy_turn(sim: FarminiState, player: int) -> None:
    if sim.pending is None:
        greedy_take(sim, player)
    finish_turn(sim, player)


def _per_turn(world: FarminiState, fast_rule: bool) -> float:
    """CPU ms a turn of playing ``world`` to the end by one rule."""
    sim = world.clone()
    cache = fast.PlanCache()
    turns = 0
    start = time.process_time()
    while not sim.is_over():
        if fast_rule:
            fast.fast_turn(sim, sim.current, cache)
        else:
            _greedy_turn(sim, sim.current)
        turns += 1
    return 1000.0 * (time.process_time() - start) / max(1, turns)


def _taken(state: FarminiState, player: int, fast_rule: bool) -> str:
    """The card the rule takes (or discards) at ``state``."""
    if fast_rule:
        action, _ = fast.fast_choice(state, player, fast.PlanCache())
        return state.table[action.slot - 1]
    sim = state.clone()
    greedy_take(sim, player)
    return sim.pending or sim.discard[-1]


def main() -> None:
    """Run the probe and print a table per position and a summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--at", type=int, nargs="+", default=[0, 10, 20, 30])
    ap.add_argument("--plies", type=int, nargs="+", default=[2, 6, 99])
    ap.add_argument("--worlds", type=int, default=8)
    args = ap.parse_args()
    game = farmtable.get_game("farmini")
    greedy_ms: list[float] = []
    fast_ms: list[float] = []
    agree = total = 0
    per_plies: dict[int, list[float]] = {n: [] for n in args.plies}
    print("seed turn | greedy ms/turn  fast ms/turn | same card | " + "  ".join(f"N={n}: s/world" for n in args.plies))
    for deal in range(args.deals):
        state = game.new_game(players=2, seed=args.seed + deal)
        assert isinstance(state, FarminiState)
        while not state.is_over():
            p = state.current
            if state.pending is None and state.turn in args.at:
                world = state.determinize(p, random.Random(deal * 1000 + state.turn))
                g = _per_turn(world, fast_rule=False)
                f = _per_turn(world, fast_rule=True)
                greedy_ms.append(g)
                fast_ms.append(f)
                same = _taken(state, p, False) == _taken(state, p, True)
                agree += same
                total += 1
                row = []
                for n in args.plies:
                    agent = DuelAgent(seed=deal, time=None, worlds=args.worlds, playout=n)
                    start = time.process_time()
                    agent.act(state, p)
                    spent = time.process_time() - start
                    per_world = spent / max(1, agent.last_worlds)
                    per_plies[n].append(per_world)
                    row.append(f"{per_world:.3f}")
                print(f"{args.seed + deal} {state.turn:4d} | {g:14.2f} {f:12.2f} | {same!s:9} | " + "  ".join(row))
            _greedy_turn(state, p)
    print(
        f"\n{total} positions; greedy model {statistics.mean(greedy_ms):.2f} ms a turn (mean), fast "
        f"{statistics.mean(fast_ms):.2f} ms a turn (fresh cache); fast rule takes greedy's card at {agree}/{total}"
    )
    for n in args.plies:
        mean = statistics.mean(per_plies[n])
        print(
            f"playout={n}: {mean:.3f} CPU s a world (mean of {len(per_plies[n])} decisions, {args.worlds} worlds "
            f"each) -> about {1.0 / mean:.0f} worlds in 1 CPU s, {0.5 / mean:.0f} in 0.5 s"
        )


if __name__ == "__main__":
    main()
