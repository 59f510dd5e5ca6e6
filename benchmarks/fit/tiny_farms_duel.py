"""Two Tiny Farms evaluations head to head in two players: the same agent spec, one seat on each evaluation.

The other evaluation is loaded from another code tree's ``evaluation.py`` (with that tree's
``weights.json``); while a seat decides, ``TinyFarmsState.evaluate``/``heuristic`` point to its
evaluation, so any agent spec (``greedy``, ``mcts:iters=200``) plays on it. Each deal is played twice
with the seats swapped (deal ``i`` = game seed ``seed + i``)::

    git archive <commit> src | tar -x -C /tmp/old
    PYTHONPATH=src python benchmarks/fit/tiny_farms_duel.py --other /tmp/old/src --agent greedy --deals 100

Prints the win share of *this* tree's evaluation (a tie counts half; Wilson 95%) and the mean
margin per game (Student-t 95%).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scipy.stats import t as student_t

import farmtable
import farmtable.agents
from farmtable.games.tiny_farms import evaluation
from farmtable.games.tiny_farms.rules import TinyFarmsState


def load_other(src: str) -> Any:
    """The ``evaluation`` module of another tree (``src`` is that tree's ``src`` folder)."""
    path = Path(src) / "farmtable" / "games" / "tiny_farms" / "evaluation.py"
    spec = importlib.util.spec_from_file_location("tiny_farms_other_evaluation", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _with(module: Any, act: Callable[[], Any]) -> Any:
    """Run ``act`` with ``TinyFarmsState`` judged by ``module``'s evaluation."""
    saved = TinyFarmsState.evaluate, TinyFarmsState.heuristic
    TinyFarmsState.evaluate = lambda self: module.evaluate(self)  # type: ignore[method-assign]
    TinyFarmsState.heuristic = lambda self, p: module.heuristic(self, p)  # type: ignore[method-assign]
    try:
        return act()
    finally:
        TinyFarmsState.evaluate, TinyFarmsState.heuristic = saved  # type: ignore[method-assign]


def duel(other: Any, spec: str, seed: int, deals: int) -> list[tuple[float, float]]:
    """(this evaluation's win, its margin) of every game."""
    out = []
    for d in range(deals):
        for mine in (0, 1):
            state = farmtable.get_game("tiny-farms").new_game(players=2, seed=seed + d, variants=())
            agents = [farmtable.agents.make(spec, seed=(seed + d) * 7919 + i) for i in range(2)]
            modules = [evaluation, evaluation]
            modules[1 - mine] = other
            while not state.is_over():
                (p,) = state.actors()
                agent, module, now = agents[p], modules[p], state
                action = _with(module, lambda agent=agent, now=now, p=p: agent.act(now, p))
                state.apply(p, action)
            totals = state.result().totals
            winners = state.result().winners
            win = 0.5 if len(winners) > 1 else float(winners == [mine])
            out.append((win, float(totals[mine] - totals[1 - mine])))
    return out


def main() -> None:
    """Play the duel and print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="the other tree's src folder")
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    games = duel(load_other(args.other), args.agent, args.seed, args.deals)
    n = len(games)
    wins = sum(w for w, _ in games)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    margins = [m for _, m in games]
    mean = statistics.fmean(margins)
    mhalf = float(student_t.ppf(0.975, n - 1)) * statistics.stdev(margins) / math.sqrt(n)
    print(
        f"{args.agent}, this tree's evaluation vs {args.other}: {n} games ({args.deals} deals x 2 seats, seed "
        f"{args.seed}); wins {p:.1%} [{max(0.0, centre - half):.1%}, {min(1.0, centre + half):.1%}]; "
        f"margin {mean:+.2f} [{mean - mhalf:+.2f}, {mean + mhalf:+.2f}]"
    )


if __name__ == "__main__":
    main()
