"""Fit the Tiny Towns evaluation weights from self-play, and measure agents on fixed solo deals.

The evaluation (``src/farmtable/games/tiny_towns/evaluation.py``) is linear in per-town features;
this script makes the weights in ``weights.json`` beside it:

1. ``collect``: play games with the greedy agent on the current weights (a share ``--epsilon`` of
   moves random, for variety), record the feature row of every town at every decision and the
   final score that town reached;
2. ``fit``: least squares (a little ridge) of final score on the features, scored on games held
   out; ``--write`` stores the weights with how they were made;
3. ``play`` / ``compare``: score an agent on fixed solo deals (the arena's seeds, so ``farmtable
   solo --seed S`` plays the same deals), then pair two runs on the same deals with a 95% interval
   of the mean difference. ``play`` only uses the public arena API, so it also measures the main
   checkout (``PYTHONPATH=/work/main/src``) for a before/after comparison.

Commands used for the shipped weights (2-core machine, run under ``nice``; results in
``docs/games/tiny-towns-ai.md``)::

    export PYTHONPATH=src
    python benchmarks/fit/tiny_towns.py collect --games 400 --seed 1000 --weights hand --out /tmp/tt_hand.npz
    python benchmarks/fit/tiny_towns.py fit --solo /tmp/tt_hand.npz --simple --write
    python benchmarks/fit/tiny_towns.py play --agent greedy --games 200 --seed 1 --out /tmp/after.json
    PYTHONPATH=/work/main/src python benchmarks/fit/tiny_towns.py play --agent greedy --games 200 --seed 1 \\
        --out /tmp/before.json
    python benchmarks/fit/tiny_towns.py compare /tmp/before.json /tmp/after.json

A candidate set of weights is tried with ``play --weights FILE`` before it replaces the shipped one.

Tried in the second session (``docs/games/tiny-towns-ai.md``, "Search-era work"; nothing shipped)::

    python benchmarks/fit/tiny_towns.py collect --agent "mcts:iters=100" --games 48 --seed 7000 --epsilon 0.05 \
        --weights benchmarks/ai/out/tt-weights-hand.json --out /tmp/mcts_hand.npz   # positions of the search's games
    python benchmarks/fit/tiny_towns.py fit --solo /tmp/mcts_hand.npz --out /tmp/fit_mcts.json
    python benchmarks/fit/tiny_towns.py tune --start benchmarks/ai/out/tt-weights-future.json --generations 4 \
        --population 10 --elite 3 --deals 30 --sigma 0.3 --out /tmp/tune.json   # weights for play strength
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

GAME = "tiny-towns"
RIDGE = 1e-3
"""Ridge penalty (times the number of rows) that keeps rarely-seen features from running away."""
HOLD_OUT = 0.2
"""Share of games kept out of the fit to score it."""
Z95 = 1.959963984540054
HAND_START: dict[str, float] = {
    "score": 1.0,
    "unfed_feedable": 2.0,
    "unfed_stuck": 0.5,
    "food_ready": 0.7,
    "food_missing1": 0.4,
    "food_missing2": 0.2,
    "food_missing3": 0.05,
    "ready": 0.7,
    "missing1": 0.4,
    "missing2": 0.2,
    "missing3": 0.05,
    "stranded": -0.7,
}
"""The hand-set weights the first self-play uses (``--weights hand``); every other weight is 0."""
WEIGHTS_PATH = Path(__file__).resolve().parents[2] / "src/farmtable/games/tiny_towns/weights.json"


def load_models(weights: str) -> dict[str, list[float]]:
    """Weight vectors from a weights.json file, or the hand-set start (``hand``)."""
    if weights == "hand":
        from farmtable.games.tiny_towns.evaluation import FEATURES

        return {"solo": [HAND_START.get(name, 0.0) for name in FEATURES]}
    models: dict[str, list[float]] = json.loads(Path(weights).read_text())["weights"]
    return models


def _games(players: int, games: int, seed: int) -> list[Any]:
    from farmtable.arena.jobs import schedule

    return schedule(GAME, ["greedy"] * players, games, players=players, seed=seed)


def collect(
    players: int, games: int, seed: int, epsilon: float, weights: str | None, out: str, agent: str = "greedy"
) -> None:
    """Self-play with ``agent`` (greedy, or a search spec) on the current weights; save features, targets
    and game ids."""
    import farmtable
    import farmtable.agents
    from farmtable.games.tiny_towns import evaluation as E

    if weights:
        E.set_weights(load_models(weights))
    rows: list[np.ndarray[Any, Any]] = []
    owners: list[tuple[int, int]] = []
    finals: dict[tuple[int, int], int] = {}
    start = time.process_time()
    for g, job in enumerate(_games(players, games, seed)):
        state = farmtable.get_game(GAME).new_game(players=players, seed=job.seed)
        agents = [farmtable.agents.make(agent, seed=s) for s in job.agent_seeds]
        rng = random.Random(job.seed)
        while not state.is_over():
            for p, town in enumerate(state.towns):
                if not town.complete:
                    rows.append(E.town_features(state, p).copy())
                    owners.append((g, p))
            player = state.actors()[0]
            legal = state.legal_actions(player)
            action = rng.choice(legal) if rng.random() < epsilon else agents[player].act(state, player)
            state.apply(player, action)
        totals = state.result().totals
        for p in range(players):
            finals[(g, p)] = totals[p]
        if (g + 1) % 50 == 0:
            print(f"{g + 1}/{games} games, {len(rows)} rows, {time.process_time() - start:.0f} CPU s", file=sys.stderr)
    x = np.array(rows)
    y = np.array([finals[o] for o in owners], dtype=np.float64)
    ids = np.array([o[0] for o in owners])
    np.savez_compressed(out, x=x, y=y, game=ids, players=players, epsilon=epsilon, seed=seed, games=games)
    print(f"saved {len(y)} rows from {games} games to {out}; final score mean {statistics.mean(finals.values()):.2f}")


def simple_model(width: int) -> np.ndarray[Any, Any]:
    """The map from the simple model's weights to the full vector: one potential weight per level for
    food and other buildings alike, no ``*filled`` terms (fewer free weights, a steadier policy)."""
    from farmtable.games.tiny_towns.evaluation import BASE_FEATURES, FEATURES

    if width != len(FEATURES):
        raise SystemExit(f"the data has {width} features, the evaluation {len(FEATURES)}: collect again")
    kept = [n for n in BASE_FEATURES if not n.startswith("food_")]
    expand = np.zeros((len(FEATURES), len(kept)))
    for j, name in enumerate(kept):
        expand[FEATURES.index(name), j] = 1.0
        if f"food_{name}" in FEATURES:
            expand[FEATURES.index(f"food_{name}"), j] = 1.0
    return expand


def fit_one(
    path: str, prior: np.ndarray[Any, Any] | None = None, pull: float = 0.0, simple: bool = False
) -> tuple[list[float], dict[str, Any]]:
    """Least squares of final score on the features of one data file; weights and fit statistics.

    With ``prior`` the ridge pulls the weights towards it (strength ``pull`` x rows) instead of
    towards zero: rule knowledge the self-play data cannot show (a policy that rarely feeds its
    cottages says nothing of what a fed cottage is worth) is kept unless the data overrules it.
    """
    data = np.load(path)
    x, y, ids = data["x"], data["y"], data["game"]
    expand = np.eye(x.shape[1])
    if simple:
        expand = simple_model(x.shape[1])
        x = x @ expand
        if prior is not None:
            prior = np.linalg.lstsq(expand, prior, rcond=None)[0]
    games = int(ids.max()) + 1
    held = ids >= int(games * (1 - HOLD_OUT))

    def solve(xs: np.ndarray[Any, Any], ys: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        penalty = np.full(xs.shape[1], RIDGE + pull) * len(ys)
        penalty[0] = pull * len(ys)  # the bias is pulled only towards a prior
        centre = np.zeros(xs.shape[1]) if prior is None else prior
        gram = xs.T @ xs + np.diag(penalty)
        return np.linalg.solve(gram, xs.T @ ys + penalty * centre)

    w_train = solve(x[~held], y[~held])
    pred = x[held] @ w_train
    rmse = float(np.sqrt(np.mean((pred - y[held]) ** 2)))
    r2 = 1 - float(np.sum((pred - y[held]) ** 2) / np.sum((y[held] - y[held].mean()) ** 2))
    w = expand @ solve(x, y)
    stats = {
        "data": Path(path).name,
        "rows": len(y),
        "games": games,
        "players": int(data["players"]),
        "epsilon": float(data["epsilon"]),
        "collected_with": f"collect --players {int(data['players'])} --games {games} --seed {int(data['seed'])}",
        "held_out_games": int(held.sum() and games - int(games * (1 - HOLD_OUT))),
        "held_out_rmse": round(rmse, 3),
        "held_out_r2": round(r2, 3),
        "pull_to_prior": pull if prior is not None else 0.0,
        "model": "simple" if simple else "full",
    }
    return [round(float(v), 4) for v in w], stats


def fit(
    solo: str, multi: str | None, write: bool, prior_path: str | None, pull: float, out: str | None, simple: bool
) -> None:
    """Fit the solo (and multi-player) model; print them; ``write`` stores them in weights.json, ``out``
    in another file."""
    from farmtable.games.tiny_towns.evaluation import FEATURES

    priors = load_models(prior_path) if prior_path else {}
    models: dict[str, list[float]] = {}
    stats: dict[str, Any] = {}
    for name, path in (("solo", solo), ("multi", multi)):
        if path is None:
            continue
        prior = np.array(priors[name if name in priors else "solo"]) if priors else None
        models[name], stats[name] = fit_one(path, prior, pull, simple)
        print(name, stats[name])
        for feature, w in zip(FEATURES, models[name], strict=True):
            print(f"  {feature:16s} {w:8.3f}")
    if write or out:
        doc = {
            "made_by": (
                "benchmarks/fit/tiny_towns.py fit: ridge least squares (penalty "
                f"{RIDGE} x rows) of each town's final score on its features at every decision of "
                "greedy self-play (epsilon-greedy; the data: collect as in the docstring of "
                "benchmarks/fit/tiny_towns.py, "
                "starting from --weights hand), features as in evaluation.FEATURES"
            ),
            "date": datetime.date.today().isoformat(),
            "command": "python benchmarks/fit/tiny_towns.py " + " ".join(sys.argv[1:]),
            "fit": stats,
            "features": list(FEATURES),
            "weights": models,
        }
        if prior_path:
            doc["prior"] = {"from": prior_path, "weights": priors}
        target = Path(out) if out else WEIGHTS_PATH
        target.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"wrote {target}")


def play(agent: str, games: int, seed: int, out: str, weights: str | None) -> None:
    """Play ``agent`` on the arena's fixed solo deals; save the scores and CPU seconds per decision."""
    import farmtable
    import farmtable.agents
    from farmtable.arena.jobs import schedule

    if weights:
        from farmtable.games.tiny_towns import evaluation as E

        E.set_weights(load_models(weights))
    scores: list[int] = []
    per_decision: list[float] = []
    for job in schedule(GAME, [agent], games, players=1, seed=seed):
        state = farmtable.get_game(GAME).new_game(players=1, seed=job.seed)
        player_agent = farmtable.agents.make(agent, seed=job.agent_seeds[0])
        while not state.is_over():
            t = time.process_time()
            action = player_agent.act(state, 0)
            per_decision.append(time.process_time() - t)
            state.apply(0, action)
        scores.append(state.result().totals[0])
    per_decision.sort()
    summary = {
        "agent": agent,
        "games": games,
        "seed": seed,
        "mean": statistics.mean(scores),
        "share_25": sum(s >= 25 for s in scores) / games,
        "max": max(scores),
        "cpu_p50": per_decision[len(per_decision) // 2],
        "cpu_p99": per_decision[int(len(per_decision) * 0.99)],
        "scores": scores,
    }
    Path(out).write_text(json.dumps(summary) + "\n")
    low, high = wilson(sum(s >= 25 for s in scores), games)
    print(
        f"{agent}: mean {summary['mean']:.2f}, >=25 {summary['share_25']:.1%} [{low:.1%}, {high:.1%}], "
        f"max {summary['max']}, CPU s/decision p50 {summary['cpu_p50']:.4f} p99 {summary['cpu_p99']:.4f}"
    )


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a share k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def compare(before: str, after: str) -> None:
    """Paired mean difference (after - before) on the same deals, with a 95% normal interval."""
    a = json.loads(Path(before).read_text())
    b = json.loads(Path(after).read_text())
    if (a["seed"], a["games"]) != (b["seed"], b["games"]):
        raise SystemExit("the two runs must use the same --seed and --games (the same deals)")
    diff = [y - x for x, y in zip(a["scores"], b["scores"], strict=True)]
    mean = statistics.mean(diff)
    half = Z95 * statistics.stdev(diff) / math.sqrt(len(diff))
    print(
        f"{b['agent']} ({after}) - {a['agent']} ({before}) on {len(diff)} deals (seed {a['seed']}): "
        f"mean {a['mean']:.2f} -> {b['mean']:.2f}, difference {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"
    )


TUNE_SEED = 5000
"""Game seeds of the tuning deals (``TUNE_SEED + i``): apart from the arena's ``--seed 1`` deals used to check."""


def _score_weights(args: tuple[list[float], int, int]) -> list[int]:
    """Final scores of the greedy agent with weight vector ``w`` on deals ``seed .. seed + deals - 1``."""
    import farmtable
    from farmtable.agents.greedy import GreedyAgent
    from farmtable.games.tiny_towns import evaluation as E

    w, seed, deals = args
    E.set_weights({"solo": w})
    scores = []
    for i in range(deals):
        state = farmtable.get_game(GAME).new_game(players=1, seed=seed + i)
        agent = GreedyAgent(seed=seed + i)
        while not state.is_over():
            state.apply(0, agent.act(state, 0))
        scores.append(state.result().totals[0])
    return scores


def tune(start: str, generations: int, population: int, elite: int, deals: int, sigma: float, out: str) -> None:
    """Cross-entropy search of the weights for play strength: each generation samples ``population``
    weight vectors around the mean, plays each with the greedy agent on the same ``deals`` tuning deals,
    and moves the mean (and spread) to the ``elite`` best. Only the base weights (not the bias, which
    does not change a decision, nor the ``*filled`` terms) are searched; ``calibrate`` then puts the
    result back on the final-score scale."""
    from concurrent.futures import ProcessPoolExecutor

    from farmtable.games.tiny_towns.evaluation import BASE_FEATURES, FEATURES

    w0 = np.array(load_models(start)["solo"], dtype=np.float64)
    free = [FEATURES.index(n) for n in BASE_FEATURES if n != "bias"]
    mean = w0[free].copy()
    spread = np.maximum(np.abs(mean) * sigma, 0.1)
    rng = np.random.default_rng(TUNE_SEED)
    cpu = time.process_time()
    best: tuple[float, list[float]] = (-math.inf, list(w0))
    with ProcessPoolExecutor(2) as pool:
        base_scores = pool.submit(_score_weights, (list(w0), TUNE_SEED, deals)).result()
        print(f"start: mean {statistics.mean(base_scores):.2f} on {deals} tuning deals", flush=True)
        for gen in range(generations):
            samples = [mean + spread * rng.standard_normal(len(free)) for _ in range(population - 1)] + [mean]
            vectors = []
            for x in samples:
                w = w0.copy()
                w[free] = x
                vectors.append(list(w))
            results = list(pool.map(_score_weights, [(v, TUNE_SEED, deals) for v in vectors]))
            means = [statistics.mean(r) for r in results]
            order = np.argsort(means)[::-1]
            top = np.array([samples[i] for i in order[:elite]])
            mean = top.mean(axis=0)
            spread = np.maximum(0.7 * spread + 0.3 * top.std(axis=0), 0.02)
            if means[order[0]] > best[0]:
                best = (means[order[0]], vectors[order[0]])
            elite_mean = np.mean([means[i] for i in order[:elite]])
            print(
                f"generation {gen + 1}: best {means[order[0]]:.2f}, elite mean {elite_mean:.2f},"
                f" centre {means[-1]:.2f}, {time.process_time() - cpu:.0f} s (main)",
                flush=True,
            )
    w = w0.copy()
    w[free] = mean
    doc = {
        "tuned": {
            "start": start,
            "generations": generations,
            "population": population,
            "deals": deals,
            "best_tuning_mean": best[0],
        },
        "features": list(FEATURES),
        "weights": {"solo": [round(float(v), 4) for v in w]},
        "best": {"solo": [round(float(v), 4) for v in best[1]]},
    }
    Path(out).write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {out}")


def main() -> None:
    """Command line: collect, fit, play, compare."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--players", type=int, default=1)
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--seed", type=int, default=1000)
    c.add_argument("--epsilon", type=float, default=0.1)
    c.add_argument("--weights", help="a weights.json to play with instead of the shipped one")
    c.add_argument("--out", required=True)
    c.add_argument("--agent", default="greedy", help="the agent that plays the games (e.g. mcts:iters=100)")
    f = sub.add_parser("fit")
    f.add_argument("--solo", required=True)
    f.add_argument("--multi")
    f.add_argument("--write", action="store_true", help="store the weights in the package's weights.json")
    f.add_argument("--out", help="store the weights in this file instead")
    f.add_argument("--prior", help="a weights.json to pull the fit towards")
    f.add_argument("--simple", action="store_true", help="fit the simple model (see simple_model)")
    f.add_argument("--pull", type=float, default=0.0, help="strength of the pull (times the number of rows)")
    p = sub.add_parser("play")
    p.add_argument("--agent", default="greedy")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--weights")
    p.add_argument("--out", required=True)
    m = sub.add_parser("compare")
    m.add_argument("before")
    m.add_argument("after")
    t = sub.add_parser("tune")
    t.add_argument("--start", default=str(WEIGHTS_PATH))
    t.add_argument("--generations", type=int, default=6)
    t.add_argument("--population", type=int, default=14)
    t.add_argument("--elite", type=int, default=4)
    t.add_argument("--deals", type=int, default=40)
    t.add_argument("--sigma", type=float, default=0.4)
    t.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.players, args.games, args.seed, args.epsilon, args.weights, args.out, args.agent)
    elif args.command == "fit":
        fit(args.solo, args.multi, args.write, args.prior, args.pull, args.out, args.simple)
    elif args.command == "play":
        play(args.agent, args.games, args.seed, args.out, args.weights)
    elif args.command == "tune":
        tune(args.start, args.generations, args.population, args.elite, args.deals, args.sigma, args.out)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
