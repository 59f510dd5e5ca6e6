"""Does a level stay within its CPU budget? Every decision of solo games on fixed deals, timed.

Prints how many decisions went over the budget and the CPU seconds per decision (p50 / p99 / max),
``time.process_time()`` around ``act`` after the game's one-off warm-up (as ``compare.py`` does).
Deal i is game seed ``--seed + i``. Run it with ``nice -n 10`` on a shared machine (CPU time is
what is counted, so the load does not change it much).

Example (the numbers in docs/agents.md)::

    PYTHONPATH=src python benchmarks/ai/budget.py --game farmini --level normal --deals 6
"""

from __future__ import annotations

import argparse
import time

import farmtable
import farmtable.agents
from farmtable.agents.base import warm_up
from farmtable.agents.levels import LEVELS


def decision_seconds(game_id: str, level: str, deals: int, seed: int, variants: tuple[str, ...]) -> list[float]:
    """CPU seconds of every decision of ``level`` in ``deals`` solo games, in play order."""
    game = farmtable.get_game(game_id)
    seconds: list[float] = []
    for deal in range(deals):
        state = game.new_game(players=1, seed=seed + deal, variants=variants)
        agent = farmtable.agents.make(level, seed=deal, game=game_id, players=1)
        warm_up(state)
        while not state.is_over():
            player = state.actors()[0]
            start = time.process_time()
            action = agent.act(state, player)
            seconds.append(time.process_time() - start)
            state.apply(player, action)
    return seconds


def main() -> None:
    """Parse the arguments, play the games, print the summary line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--level", required=True, choices=sorted(LEVELS))
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    spec = farmtable.agents.levels.level_spec(args.level, args.game, 1)
    budget = farmtable.agents.make(spec, seed=0).params.get("time")
    seconds = sorted(decision_seconds(args.game, args.level, args.deals, args.seed, tuple(args.variant)))

    def share(q: float) -> float:
        return seconds[min(len(seconds) - 1, int(q * len(seconds)))]

    over = sum(1 for s in seconds if budget is not None and s > float(budget))
    print(
        f"{args.game} {args.level} ({spec}), deals {args.seed}-{args.seed + args.deals - 1}: "
        f"{len(seconds)} decisions, {over} over the budget of {budget} s; "
        f"CPU s p50 {share(0.5):.3f} / p99 {share(0.99):.3f} / max {seconds[-1]:.3f}"
    )


if __name__ == "__main__":
    main()
