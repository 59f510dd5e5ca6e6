"""Fit the 2-player Tiny Towns race model (``src/farmtable/games/tiny_towns/race.py``) on self-play (session 15).

Plays ``--games`` 2-player games (game seeds ``--seed`` onwards: not the ladder's deals 2000+) between two
greedy agents that play a random legal move with probability ``--epsilon`` (variety); at every name step
and at the first placement after it, records the race features of the position (``race.race_row``, seat 0
less seat 1) and the label: seat 0's win share (a shared win counts half). Every row is also used mirrored
(features negated, label 1 - y), so the model has no bias and is the same from either seat.

Fit: two logistic regressions by Newton's method with a ridge penalty ``--ridge`` × rows on every weight: one
on the rows where both towns are building (every feature but ``complete``), one on the rows where one town is
complete (``race.ALONE_FEATURES`` only). The last
``--holdout`` share of the games is held out: printed are its log-loss and accuracy for the full model and for
the estimate-only model (the evaluation's estimated margin alone, what the general search goes by).

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tt_race_fit.py --games 80 --seed 5000 \\
        --rows benchmarks/ai/out/s15/tt15/race-rows-80.npz --write src/farmtable/games/tiny_towns/race_weights.json
    # refit on the saved rows (no game played):
    python benchmarks/ai/tt_race_fit.py --from-rows benchmarks/ai/out/s15/tt15/race-rows-80.npz --write ...
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
from farmtable.games.tiny_towns.race import ALONE_FEATURES, RACE_FEATURES, race_row
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


def scores(z: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> tuple[float, float]:
    """Log-loss and accuracy (a shared win counts as either) of log-odds ``z`` against labels ``y``."""
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
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
    ap.add_argument("--rows", help="save the games' rows (npz: x, y, game) here")
    ap.add_argument("--from-rows", help="fit on the rows saved by --rows instead of playing")
    args = ap.parse_args()
    start = time.process_time()
    per_game: list[tuple[npt.NDArray[np.float64], float]] = []
    last_wins = 0
    decided = 0
    if args.from_rows:
        saved = np.load(args.from_rows)
        for g in np.unique(saved["game"]):
            mask = saved["game"] == g
            per_game.append((saved["x"][mask].astype(np.float64), float(saved["y"][mask][0])))
    for g in range(0 if args.from_rows else args.games):
        rows, y, details = play_rows(args.seed + g, args.epsilon)
        per_game.append((np.array(rows), y))
        done = details["completed_round"]
        if done[0] != done[1] and y != 0.5:
            decided += 1
            last = 0 if done[0] > done[1] else 1
            last_wins += int((y == 1.0) == (last == 0))
    if args.rows:
        np.savez_compressed(
            args.rows,
            x=np.vstack([r for r, _ in per_game]).astype(np.float32),
            y=np.concatenate([np.full(len(r), yy) for r, yy in per_game]).astype(np.float32),
            game=np.concatenate([np.full(len(r), i) for i, (r, _) in enumerate(per_game)]),
        )
    cut = round(len(per_game) * (1 - args.holdout))
    train, test = per_game[:cut], per_game[cut:]

    def stack(part: list[tuple[npt.NDArray[np.float64], float]]) -> tuple[Any, Any]:
        x = np.vstack([r for r, _ in part])
        y = np.concatenate([np.full(len(r), yy) for r, yy in part])
        return mirrored(x, y)

    xtr, ytr = stack(train)
    xte, yte = stack(test)
    done_col = RACE_FEATURES.index("complete")
    alone_cols = [RACE_FEATURES.index(f) for f in ALONE_FEATURES]

    def fit_pair(x: Any, y: Any) -> tuple[Any, Any]:
        """The weights while both towns build (rows with none complete) and once one is complete."""
        racing = x[:, done_col] == 0
        w_race = fit_logistic(x[racing], y[racing], args.ridge)
        w_race[done_col] = 0.0
        w_alone = np.zeros(x.shape[1])
        w_alone[alone_cols] = fit_logistic(x[~racing][:, alone_cols], y[~racing], args.ridge)
        return w_race, w_alone

    w_race, w_alone = fit_pair(xtr, ytr)

    def logits(x: Any, pair: tuple[Any, Any]) -> Any:
        return np.where(x[:, done_col] == 0, x @ pair[0], x @ pair[1])

    est_only = np.zeros(xtr.shape[1])
    est_cols = [RACE_FEATURES.index("estimate"), RACE_FEATURES.index("estimate*filled")]
    est_only[est_cols] = fit_logistic(xtr[:, est_cols], ytr, args.ridge)
    cpu = time.process_time() - start
    print(f"games {len(per_game)} (train {len(train)}, held out {len(test)}), rows {len(xtr) // 2} + {len(xte) // 2}")
    if not args.from_rows:
        print(f"town complete last won {last_wins} of {decided} games with one town complete last and a winner")
    for label, ztr, zte in (
        ("race model", logits(xtr, (w_race, w_alone)), logits(xte, (w_race, w_alone))),
        ("estimate only", xtr @ est_only, xte @ est_only),
    ):
        tl, ta = scores(ztr, ytr)
        hl, ha = scores(zte, yte)
        print(f"{label:14s} train log-loss {tl:.4f} acc {ta:.3f} | held out log-loss {hl:.4f} acc {ha:.3f}")
    print(f"rows with one town complete: {int(np.sum(xtr[:, done_col] != 0)) // 2} (train)")
    for name, v_race, v_alone in zip(RACE_FEATURES, w_race, w_alone, strict=True):
        print(f"  {name:18s} {v_race:+.4f}  alone {v_alone:+.4f}")
    print(f"CPU s {cpu:.1f}")
    if args.write:
        all_race, all_alone = fit_pair(*stack(per_game))
        held = (scores(logits(xte, (w_race, w_alone)), yte), scores(xte @ est_only, yte))
        data = {
            "made_by": "benchmarks/ai/tt_race_fit.py",
            "date": datetime.date.today().isoformat(),
            "command": (
                f"tt_race_fit.py --from-rows {args.from_rows} --ridge {args.ridge} --holdout {args.holdout}"
                if args.from_rows
                else f"tt_race_fit.py --games {args.games} --seed {args.seed} --epsilon {args.epsilon} "
                f"--ridge {args.ridge} --holdout {args.holdout}"
            ),
            "rows": "80 games, seeds 5000-5079, greedy with epsilon 0.1 (benchmarks/ai/out/s15/tt15/race-rows-80.npz)",
            "fit": {
                "held_out_log_loss": held[0][0],
                "held_out_accuracy": held[0][1],
                "estimate_only_held_out_log_loss": held[1][0],
                "estimate_only_held_out_accuracy": held[1][1],
                "note": "written weights refitted on every game (train and held out)",
            },
            "features": list(RACE_FEATURES),
            "weights": [round(float(v), 6) for v in all_race],
            "alone_weights": [round(float(v), 6) for v in all_alone],
        }
        with open(args.write, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
            fh.write("\n")
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
