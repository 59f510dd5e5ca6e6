"""How far the solo Tiny Farms estimate is from the final margin, by rounds left: the win-probability model's spread.

The expectimax player (``src/farmtable/games/tiny_farms/expectimax.py``) can value a position by
its chance of beating Emma instead of its expected margin (``objective=win``): a leaf's estimated
margin ``m`` with ``r`` whole rounds still to play after it is read as

    P(win) ≈ Φ((m + bias[r] + 0.5) / sd[r])          (exact when r = 0: the margin itself decides)

This script measures ``bias[r]`` (mean of final − estimate) and ``sd[r]`` (its standard deviation):
it plays greedy solo games (the four Emmas in turn, seeded), and at every position where the
player has just taken a die (``PLACE``: the rest of the round is played out by the evaluation, as
at the expectimax player's leaves) records the estimate and, at the end, the final margin. Greedy
plays weaker than the expectimax player, so its spread is an upper bound of the expectimax's own.

Usage (from the repository root)::

    PYTHONPATH=src nice -n 10 python benchmarks/fit/tiny_farms_winprob.py --games 200 --seed 0 \\
        --write src/farmtable/games/tiny_farms/winprob.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

import farmtable
from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms import evaluation
from farmtable.games.tiny_farms.rules import PLACE, TinyFarmsState

DIFFICULTIES = ("emma-easy", "emma-medium", "emma-hard", "emma-epic")


def collect(games: int, seed: int) -> dict[int, list[float]]:
    """Residuals final margin − estimate at every ``PLACE`` position, keyed by whole rounds left after it."""
    game = farmtable.get_game("tiny-farms")
    residuals: dict[int, list[float]] = {}
    for g in range(games):
        variant = DIFFICULTIES[g % len(DIFFICULTIES)]
        state = game.new_game(players=1, seed=seed + g, variants=(variant,))
        assert isinstance(state, TinyFarmsState)
        rng = random.Random(seed + g)
        seen: list[tuple[int, float]] = []
        while not state.is_over():
            if state.phase == PLACE:
                seen.append((state.rounds - state.round, evaluation.solo_estimate(state)))
            legal = state.legal_actions(0)
            state.apply(0, legal[greedy_choice(state, 0, rng)])
        final = state.result().solo_score
        assert final is not None
        for left, estimate in seen:
            residuals.setdefault(left, []).append(final - estimate)
    return residuals


def main(argv: list[str] | None = None) -> int:
    """Print bias and spread by rounds left; write them as JSON with ``--write``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", help="write {bias, sd} by rounds left (0 = last round) to this JSON file")
    args = parser.parse_args(argv)
    if args.games < 4:
        parser.error(f"--games must be at least 4 (one per Emma), got {args.games}")
    residuals = collect(args.games, args.seed)
    rounds = max(residuals) + 1
    bias = [statistics.fmean(residuals.get(r, [0.0])) for r in range(rounds)]
    sd = [statistics.pstdev(residuals[r]) if len(residuals.get(r, [])) > 1 else 0.0 for r in range(rounds)]
    print("rounds left | positions | bias (final − estimate) | sd")
    for r in range(rounds):
        print(f"{r} | {len(residuals.get(r, []))} | {bias[r]:+.2f} | {sd[r]:.2f}")
    if args.write:
        data = {
            "source": f"benchmarks/fit/tiny_farms_winprob.py --games {args.games} --seed {args.seed}",
            "bias": [round(b, 3) for b in bias],
            "sd": [round(s, 3) for s in sd],
        }
        with open(args.write, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
