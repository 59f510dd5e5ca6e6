"""Fit the 2-player Tiny Towns race model (``src/farmtable/games/tiny_towns/race.py``) on self-play (session 15).

Plays ``--games`` 2-player games (game seeds ``--seed`` onwards: not the ladder's deals 2000+) between two
greedy agents that play a random legal move with probability ``--epsilon`` (variety); at every name step
and at the first placement after it, records the race features of the position (``race.race_row``, seat 0
less seat 1) and the label: seat 0's win share (a shared win counts half). Every row is also used mirrored
(features negated, label 1 - y), so the model has no bias and is the same from either seat.

Fit: logistic regression by Newton's method with a ridge penalty ``--ridge`` × rows on every weight. The last
``--holdout`` share of the games is held out: printed are its log-loss and accuracy for the full model and for
the estimate-only model (the evaluation's estimated margin alone, what the general search goes by).

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tt_race_fit.py --games 240 --seed 5000 \\
        --write src/farmtable/games/tiny_towns/race_weights.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import time
from typing import Any

import numpy as np
import numpy.typing as npt

import farmtable
import farmtable.agents
from farmtable.games.tiny_towns.race import RACE_FEATURES, race_row
from farmtable.games.tiny_towns.rules import NAME_PHASE, PLACE_PHASE, TinyTownsState


def play_rows(seed: int, epsilon: float) -> tuple[list[npt.NDArray[np.float64]], float, dict[str, Any]]:
    """One self-play game (game seed ``seed``): its rows, seat 0's win share, and its result details."""
    game = farmtable.get_game("tiny-towns")
    state = game.new_game(players=2, seed=seed, variants=())
    if not isinstance(state, TinyTownsState):
        raise TypeError("not a Tiny Towns state")
    agents = [farmtable.agents.make("greedy", seed=seed * 7919 + i) for i in range(2)]
    rng = random.Random(seed)
    rows: list[npt.NDArray[np.float64]] = []
    seen_round = -1
    while not state.is_over():
        if state.phase == NAME_PHASE or (state.phase == PLACE_PHASE and state.round != seen_round):
            rows.append(race_row(state))
            if state.phase == PLACE_PHASE:
                seen_round = state.round
        p = state.actors()[0]
        legal = state.legal_actions(p)
        action = rng.choice(legal) if len(legal) > 1 and rng.random() < epsilon else agents[p].act(state, p)
        state.apply(p, action)
    result = state.result()
    y = 1.0 / len(result.winners) if 0 in result.winners else 0.0
    return rows, y, dict(result.details)


def fit_logistic(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], ridge: float) -> npt.NDArray[np.float64]:
    """Weights of a logistic regression without bias (Newton's method, ridge penalty ``ridge`` × rows)."""
    n, d = x.shape
    w = np.zeros(d)
    lam = ridge * n
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + lam * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + lam * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return w


def scores(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], w: npt.NDArray[np.float64]) -> tuple[float, float]:
    """Log-loss and accuracy (a shared win counts as either) of weights ``w`` on rows ``x``."""
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    acc = float(np.mean(np.where(y == 0.5, 1.0, (p > 0.5) == (y > 0.5))))
    return loss, acc


def mirrored(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> tuple[Any, Any]:
    """Rows and labels with every row's mirror (seat 1's view) added."""
    return np.vstack([x, -x]), np.concatenate([y, 1.0 - y])


def main() -> None:
    """Play, fit, print the held-out scores, and write the weights if asked."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=240)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--write", help="write the weights (JSON) here")
    args = ap.parse_args()
    start = time.process_time()
    per_game: list[tuple[npt.NDArray[np.float64], float]] = []
    last_wins = 0
    decided = 0
    for g in range(args.games):
        rows, y, details = play_rows(args.seed + g, args.epsilon)
        per_game.append((np.array(rows), y))
        done = details["completed_round"]
        if done[0] != done[1] and y != 0.5:
            decided += 1
            last = 0 if done[0] > done[1] else 1
            last_wins += int((y == 1.0) == (last == 0))
    cut = round(len(per_game) * (1 - args.holdout))
    train, test = per_game[:cut], per_game[cut:]

    def stack(part: list[tuple[npt.NDArray[np.float64], float]]) -> tuple[Any, Any]:
        x = np.vstack([r for r, _ in part])
        y = np.concatenate([np.full(len(r), yy) for r, yy in part])
        return mirrored(x, y)

    xtr, ytr = stack(train)
    xte, yte = stack(test)
    w = fit_logistic(xtr, ytr, args.ridge)
    est_only = np.zeros_like(w)
    est_cols = [RACE_FEATURES.index("estimate"), RACE_FEATURES.index("estimate*filled")]
    est_only[est_cols] = fit_logistic(xtr[:, est_cols], ytr, args.ridge)
    cpu = time.process_time() - start
    print(f"games {len(per_game)} (train {len(train)}, held out {len(test)}), rows {len(xtr) // 2} + {len(xte) // 2}")
    print(f"town complete last won {last_wins} of {decided} games with one town complete last and a winner")
    for label, weights in (("race model", w), ("estimate only", est_only)):
        tl, ta = scores(xtr, ytr, weights)
        hl, ha = scores(xte, yte, weights)
        print(f"{label:14s} train log-loss {tl:.4f} acc {ta:.3f} | held out log-loss {hl:.4f} acc {ha:.3f}")
    for name, value in zip(RACE_FEATURES, w, strict=True):
        print(f"  {name:18s} {value:+.4f}")
    print(f"CPU s {cpu:.1f}")
    if args.write:
        w_all = fit_logistic(*stack(per_game), args.ridge)
        data = {
            "made_by": "benchmarks/ai/tt_race_fit.py",
            "date": datetime.date.today().isoformat(),
            "command": (
                f"tt_race_fit.py --games {args.games} --seed {args.seed} --epsilon {args.epsilon} "
                f"--ridge {args.ridge} --holdout {args.holdout}"
            ),
            "fit": {
                "held_out_log_loss": scores(xte, yte, w)[0],
                "held_out_accuracy": scores(xte, yte, w)[1],
                "estimate_only_held_out_log_loss": scores(xte, yte, est_only)[0],
                "note": "written weights refitted on every game (train and held out)",
            },
            "features": list(RACE_FEATURES),
            "weights": [round(float(v), 6) for v in w_all],
        }
        with open(args.write, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
            fh.write("\n")
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
