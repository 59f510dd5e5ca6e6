"""Is the Tiny Farms two-player evaluation calibrated? Its estimates against the final totals, on fixed positions.

Two steps, so that two code trees (before / after a change) judge the *same* positions::

    # positions of self-play games (epsilon-greedy on the tree that plays them), with the final totals
    PYTHONPATH=<tree>/src python benchmarks/fit/tiny_farms_calibration.py --dump /tmp/pos.jsonl --games 40 --seed 5000
    # each tree's evaluation of those positions
    PYTHONPATH=<tree>/src python benchmarks/fit/tiny_farms_calibration.py --score /tmp/pos.jsonl

``--score`` prints, for the estimated totals and for the estimated margin (player 0 minus player 1,
what a two-player search is rewarded by): the RMSE against the final value, the calibration line
``final ≈ a + b · estimate`` (calibrated: b ≈ 1, a ≈ 0), and the RMSE by the round of the position.
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np

import farmtable
from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms.rules import TinyFarmsState


def dump(path: str, games: int, seed: int, epsilon: float) -> None:
    """Play ``games`` two-player games (epsilon-greedy) and write every decision position with the final totals."""
    game = farmtable.get_game("tiny-farms")
    with open(path, "w", encoding="utf-8") as fh:
        for g in range(games):
            rng = random.Random(seed + g)
            state = game.new_game(players=2, seed=seed + g, variants=())
            seen = []
            while not state.is_over():
                (player,) = state.actors()
                seen.append(state.to_dict())
                legal = state.legal_actions(player)
                pick = rng.randrange(len(legal)) if rng.random() < epsilon else greedy_choice(state, player, rng)
                state.apply(player, legal[pick])
            final = [float(t) for t in state.result().totals]
            for data in seen:
                fh.write(json.dumps({"game": seed + g, "state": data, "final": final}) + "\n")


def _line(estimate: np.ndarray, final: np.ndarray) -> str:
    """RMSE and calibration line of ``final`` on ``estimate``."""
    rmse = float(np.sqrt(((final - estimate) ** 2).mean()))
    b, a = np.polyfit(estimate, final, 1)
    return f"RMSE {rmse:.2f}, final ≈ {a:+.2f} + {b:.3f} · estimate"


def score(path: str) -> None:
    """Judge the dumped positions with this tree's evaluation; print calibration numbers."""
    game = farmtable.get_game("tiny-farms")
    estimates, finals, rounds = [], [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            state = game._from_dict(row["state"])
            assert isinstance(state, TinyFarmsState)
            estimates.append(state.evaluate())
            finals.append(row["final"])
            rounds.append(state.round)
    est = np.array(estimates)
    fin = np.array(finals)
    rnd = np.array(rounds)
    print(f"{len(est)} positions of {path}")
    print("totals:", _line(est.ravel(), fin.ravel()))
    margin_est = est[:, 0] - est[:, 1]
    margin_fin = fin[:, 0] - fin[:, 1]
    print("margin p0 - p1:", _line(margin_est, margin_fin))
    right = float(np.mean(np.sign(margin_est) == np.sign(margin_fin)))
    print(f"sign of the margin right in {right:.1%} of positions")
    for lo, hi in ((1, 3), (4, 6), (7, 8), (9, 10)):
        sel = (rnd >= lo) & (rnd <= hi)
        if sel.any():
            err = float(np.sqrt(((margin_fin[sel] - margin_est[sel]) ** 2).mean()))
            print(f"  rounds {lo}-{hi}: {int(sel.sum())} positions, margin RMSE {err:.2f}")


def main() -> None:
    """Dump positions or score them (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", help="write positions of self-play games to this file")
    parser.add_argument("--score", help="judge the positions in this file")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--epsilon", type=float, default=0.1)
    args = parser.parse_args()
    if args.dump:
        dump(args.dump, args.games, args.seed, args.epsilon)
    if args.score:
        score(args.score)
    if not args.dump and not args.score:
        parser.error("give --dump FILE or --score FILE")


if __name__ == "__main__":
    main()
