"""Shared self-play and least-squares fitting for the Farmini and Farmerama evaluations.

A game's fitting script (``farmini.py``, ``farmerama.py`` beside this file) gives the game id,
its feature function and where its ``weights.json`` lives; this module plays the self-play
games, records ``(features, final score - score now)`` for every player at every decision, fits
the weights with numpy least squares (a small ridge keeps rare features tame) and reports the
fit on held-out games.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import lsq_linear

import farmtable
from farmtable.agents.greedy import greedy_choice

FeatureFn = Callable[[Any, int], list[float]]
ScoreFn = Callable[[Any, int], float]


@dataclass
class Data:
    """Self-play positions: one row per (position, player); ``game`` groups rows of one game."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray


def play(
    game_id: str,
    players: int,
    games: int,
    seed: int,
    epsilon: float,
    features: FeatureFn,
    score_now: ScoreFn,
    every: int = 1,
) -> Data:
    """Play ``games`` self-play games (epsilon-greedy on the game's current heuristic) and record
    every ``every``-th decision: each player's features and the final score minus the score then."""
    game = farmtable.get_game(game_id)
    rows: list[list[float]] = []
    targets: list[float] = []
    groups: list[int] = []
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_game(players=players, seed=seed * 100_003 + g)
        pending: list[tuple[list[float], int, float]] = []
        step = 0
        while not state.is_over():
            actor = state.actors()[0]
            if step % every == 0:
                for p in range(players):
                    pending.append((features(state, p), p, score_now(state, p)))
            step += 1
            legal = state.legal_actions(actor)
            if len(legal) == 1:
                choice = 0
            elif rng.random() < epsilon:
                choice = rng.randrange(len(legal))
            else:
                world = state.determinize(actor, random.Random(rng.getrandbits(64)))
                choice = greedy_choice(world, actor, rng)
            state.apply(actor, legal[choice])
        final = state.result().totals
        for feats, p, now in pending:
            rows.append(feats)
            targets.append(final[p] - now)
            groups.append(g)
    return Data(np.array(rows, dtype=float), np.array(targets, dtype=float), np.array(groups))


def merge(parts: Sequence[Data]) -> Data:
    """One data set from several rounds (game numbers kept apart, later rounds after earlier ones)."""
    xs, ys, gs = [], [], []
    offset = 0
    for part in parts:
        xs.append(part.x)
        ys.append(part.y)
        gs.append(part.game + offset)
        offset += int(part.game.max()) + 1
    return Data(np.concatenate(xs), np.concatenate(ys), np.concatenate(gs))


def fit(
    data: Data, ridge: float = 1.0, holdout: float = 0.2, signs: Sequence[int] | None = None
) -> tuple[np.ndarray, dict[str, float]]:
    """Least-squares weights on all rows, plus R^2 and mean absolute error on held-out games.

    ``signs`` (one per feature: +1, -1 or 0 for free) bounds the sign of each weight: the game's
    rules say which way a feature must push (an animal nearer the pacifier is never worth less),
    while self-play data, where features move together, may say otherwise.
    """
    n_games = int(data.game.max()) + 1
    test = data.game >= int(n_games * (1 - holdout))

    def solve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        # ridge on standardised columns (not the bias, column 0), growing with the rows, so that
        # features that move together in self-play cannot take huge opposite weights
        scale = x.std(axis=0)
        scale[scale == 0] = 1.0
        scale[0] = 1.0
        z = x / scale
        penalty = ridge * len(y) / 1000 * np.eye(x.shape[1])
        penalty[0, 0] = 0.0
        if signs is None:
            return np.linalg.solve(z.T @ z + penalty, z.T @ y) / scale
        lower = np.array([0.0 if s > 0 else -np.inf for s in signs])
        upper = np.array([0.0 if s < 0 else np.inf for s in signs])
        # the normal equations as a small bounded least-squares problem (k x k, fast)
        gram = z.T @ z + penalty
        root = np.linalg.cholesky(gram)
        rhs = np.linalg.solve(root, z.T @ y)
        return np.asarray(lsq_linear(root.T, rhs, bounds=(lower, upper)).x) / scale

    w_train = solve(data.x[~test], data.y[~test])
    pred = data.x[test] @ w_train
    resid = data.y[test] - pred
    base = data.y[test] - data.y[test].mean()
    stats = {
        "rows": float(len(data.y)),
        "heldout_rows": float(test.sum()),
        "heldout_r2": float(1 - (resid @ resid) / max(1e-9, base @ base)),
        "heldout_mae": float(np.abs(resid).mean()),
        "heldout_mae_score_now_only": float(np.abs(data.y[test]).mean()),
    }
    return solve(data.x, data.y), stats


def write_weights(path: Path, names: Sequence[str], models: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Write ``weights.json``: the feature names, one weight vector per model, how they were made."""
    payload: dict[str, Any] = {"features": list(names)}
    for name, w in models.items():
        payload[name] = [round(float(v), 5) for v in w]
    payload["meta"] = meta
    path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


def cpu() -> float:
    """CPU seconds of this process."""
    return time.process_time()


def fitting_parser(doc: str) -> argparse.ArgumentParser:
    """The command line both fitting scripts share (rounds, games per model, exploration, ridge, seed)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--solo-games", type=int, default=300)
    parser.add_argument("--multi-games", type=int, default=150)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def run_rounds(game_id: str, evaluation: Any, args: argparse.Namespace, signs: Sequence[int] | None = None) -> None:
    """Self-play and fit ``args.rounds`` times, writing the game's ``weights.json`` after each round.

    ``evaluation`` is the game's evaluation module (``features``, ``_score_now``, ``FEATURES``,
    ``SOLO_MODEL``, ``MULTI_MODEL``, ``WEIGHTS_FILE``, ``weights``); ``signs`` optionally bounds
    the weights' signs (see :func:`fit`).
    """
    target = Path(evaluation.__file__).with_name(evaluation.WEIGHTS_FILE)
    seen: dict[str, list[Data]] = {evaluation.SOLO_MODEL: [], evaluation.MULTI_MODEL: []}
    for r in range(args.rounds):
        start = cpu()
        models = {}
        meta: dict[str, object] = {
            "script": f"benchmarks/fit/{game_id}.py",
            "args": vars(args),
            "round": r + 1,
            "target": "final score minus score now, per player and decision",
        }
        for name, players, games in (
            (evaluation.SOLO_MODEL, 1, args.solo_games),
            (evaluation.MULTI_MODEL, 2, args.multi_games),
        ):
            data = play(
                game_id, players, games, args.seed * 1000 + r, args.epsilon, evaluation.features, evaluation._score_now
            )
            seen[name].append(data)  # every round's positions are kept: the fit does not swing
            w, stats = fit(merge(seen[name]), args.ridge, signs=signs)
            models[name] = w
            meta[name] = stats
            print(f"round {r + 1} {name}: {stats}", flush=True)
        write_weights(target, evaluation.FEATURES, models, meta)
        evaluation.weights.cache_clear()
        print(f"round {r + 1} done in {cpu() - start:.0f} CPU s", flush=True)
