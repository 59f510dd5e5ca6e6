"""Fit the Tiny Farms evaluation weights (``src/farmtable/games/tiny_farms/weights.json``) from self-play.

Usage (from the repository root, sources first on the path)::

    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/fit/tiny_farms.py --games 600 --rounds 2 --seed 0
    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/fit/tiny_farms.py --only solo --games 200 --rounds 1
    # the solo weights in the file (third session, with the round options of lookahead.py):
    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/fit/tiny_farms.py --only solo --games 120 --rounds 1 --seed 0
    .venv/bin/python benchmarks/fit/tiny_farms.py --pair BEFORE.jsonl AFTER.jsonl   # compare.py --raw runs

Each fitting round plays ``--games`` two-player games and ``--games`` solo games (the four
difficulties in turn) with an epsilon-greedy player on the *current* evaluation (the first round
starts from all-zero weights: "the score as it stands"), records every decision position's
features (``evaluation.features``), the objective as it stands and the final objective, and fits

    final objective - objective now  ~  w · features   (scipy bounded least squares, small ridge)

separately for the two-player totals ("players") and the solo margin over Emma ("solo"). The
weights of the last round are written to weights.json together with the fit's data size and the
held-out R² (a fifth of the games, split by game, never fitted). Rerun to reproduce: seeded.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

import numpy as np
from scipy.optimize import lsq_linear
from scipy.stats import t as student_t

import farmtable
import farmtable.agents
from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import evaluation, scoring
from farmtable.games.tiny_farms.rules import PLACE, TinyFarmsState

DIFFICULTIES = ("emma-easy", "emma-medium", "emma-hard", "emma-epic")
RIDGE = 1e-3
BOUNDS: dict[str, tuple[float, float]] = {
    "pig_open": (0.0, 1.5),
    "sheep_open": (0.0, 3.0),
    "sheep_pair_open": (0.0, 6.0),
    "imbalance": (-np.inf, 1.0),
    "milk": (-1.0, np.inf),
}
SOLO_SIGNS: dict[str, tuple[float, float]] = {
    "empty": (0.0, np.inf),
    "cow_gain": (0.0, np.inf),
    "calf_gain": (0.0, np.inf),
    "ff_next": (0.0, np.inf),
    "horse_lead": (0.0, np.inf),
    "emma_gain": (-np.inf, 0.0),
    "round_gain": (0.0, np.inf),
    "next_gain": (0.0, np.inf),
}
"""Solo: the potential of the player's own sets and room never counts against them, nor Emma's
potential for her, and the best option of this round or the next never counts against the player.
Unsigned, least squares on policy-made positions gives some of them the wrong
sign (they stand in for the way the fitting player plays), and the search then steers by them."""
"""A lone pig with room is worth less than half a pair's bonus (4), a loose sheep less than a third of a
triple's (12): otherwise two lone pigs would look better than a pair. Least squares alone gives the
open pigs 3 (pigs with room mean a player who takes pigs), which ranks positions the wrong way.
Solo, balance and milk: an imbalance never helps (its weight is at most the 1 point it costs), and
unused milk is never worth less than nothing (weight at least -1), whatever the fitting games did.
Balance and milk are the same feature names in both models, so the bounds hold for both."""
HOLDOUT_EVERY = 5
"""Every fifth game is held out of the fit and used to measure R²."""


def play(
    seed: int, players: int, variants: tuple[str, ...], epsilon: float, agent: str = "greedy"
) -> list[tuple[list[float], float, float]]:
    """One self-play game: (features, objective now, final objective) for each player at each decision."""
    rng = random.Random(seed)
    state = farmtable.get_game("tiny-farms").new_game(players=players, seed=seed, variants=variants)
    assert isinstance(state, TinyFarmsState)
    names = evaluation.SOLO_FEATURES if state.solo else evaluation.PLAYER_FEATURES
    seen: list[tuple[int, list[float], float]] = []
    searcher = farmtable.agents.make(agent, seed=seed) if agent != "greedy" else None
    while not state.is_over():
        (player,) = state.actors()
        if state.solo:
            # Solo rows: the margin once this round's known rest is played out, and the features after it.
            base, solo_feats = evaluation.solo_parts(state)
            seen.append((0, [solo_feats[n] for n in names], base))
        else:
            # Two players: the total once the animals in hand are written, without the horse race
            # (added back in expectation by ``fit`` for each spread tried), and the horse counts.
            parts = evaluation.player_parts(state)
            horses, picks = _horse_race(state)
            least = evaluation.least_horses(state)
            race = evaluation.expected_horse_points(horses, picks, least, evaluation.horse_sd())
            for p, (now, feats) in enumerate(parts):
                race_inputs = [float(horses[p]), float(horses[1 - p]), float(picks)]
                seen.append((p, [feats[n] for n in names] + race_inputs, now - race[p]))
        legal = state.legal_actions(player)
        if rng.random() < epsilon:
            action = rng.choice(legal)
        elif searcher is not None:
            action = searcher.act(state, player)
        else:
            action = legal[greedy_choice(state, player, rng)]
        state.apply(player, action)
    final = evaluation.objective_now(state)
    return [(x, now, final[p]) for p, x, now in seen]


def _horse_race(state: TinyFarmsState) -> tuple[list[int], int]:
    """(Horse counts once the animals in hand are written, die picks still to come): what the race needs."""
    boards = [list(b) for b in state.boards]
    if state.phase == PLACE and state.pending:
        boards[state.current] += [a for a in state.pending if a == c.HORSE]
    return [scoring.horse_count(b) for b in boards], evaluation.picks_to_come(state)


HORSE_SDS = (0.3, 0.45, 0.6, 0.8, 1.0, 1.3)
"""Spreads of the horse difference per die pick tried by the two-player fit (the best held-out R² is kept)."""


def fit_players(rows: list[Row]) -> tuple[dict[str, float], dict[str, Any]]:
    """The two-player fit: for each spread in :data:`HORSE_SDS` add the horse race in expectation to
    the base and fit the weights; keep the spread with the best held-out R² (stored as ``horse_sd``)."""
    names = evaluation.PLAYER_FEATURES
    k = len(names)
    best: tuple[dict[str, float], dict[str, Any]] | None = None
    for sd in HORSE_SDS:
        shifted: list[Row] = []
        for game, x, now, final in rows:
            mine, theirs, picks = int(x[k]), int(x[k + 1]), int(x[k + 2])
            race = evaluation.expected_horse_points([mine, theirs], picks, 1, sd)[0]
            shifted.append((game, x[:k], now + race, final))
        w, stats = fit(shifted, names)
        stats[evaluation.HORSE_SD] = sd
        print(f"  horse_sd {sd}: held-out R² {stats['heldout_r2_final']}, RMSE {stats['heldout_rmse']}")
        if best is None or stats["heldout_r2_final"] > best[1]["heldout_r2_final"]:
            best = (w, stats)
    assert best is not None
    return best


Row = tuple[int, list[float], float, float]
"""(game number, features, objective now, final objective)."""


def fit(rows: list[Row], names: tuple[str, ...]) -> tuple[dict[str, float], dict[str, Any]]:
    """Least squares of (final - now) on the features; returns weights and fit statistics."""
    train = [r for r in rows if r[0] % HOLDOUT_EVERY]
    test = [r for r in rows if not r[0] % HOLDOUT_EVERY]
    x = np.array([r[1] for r in train])
    y = np.array([r[3] - r[2] for r in train])
    # Ridge as extra rows, and bounds that keep set potential below the set itself (see BOUNDS).
    ridge = np.sqrt(RIDGE * len(x)) * np.eye(x.shape[1])
    bounds = {**BOUNDS, **SOLO_SIGNS}
    low = [bounds.get(n, (-np.inf, np.inf))[0] for n in names]
    high = [bounds.get(n, (-np.inf, np.inf))[1] for n in names]
    w = lsq_linear(np.vstack([x, ridge]), np.concatenate([y, np.zeros(x.shape[1])]), bounds=(low, high)).x
    xt = np.array([r[1] for r in test])
    final_t = np.array([r[3] for r in test])
    now_t = np.array([r[2] for r in test])
    predicted = now_t + xt @ w
    total = float(((final_t - final_t.mean()) ** 2).sum())
    stats = {
        "positions": len(train),
        "heldout_positions": len(test),
        "heldout_r2_final": round(1 - float(((final_t - predicted) ** 2).sum()) / total, 4),
        "heldout_r2_score_as_it_stands": round(1 - float(((final_t - now_t) ** 2).sum()) / total, 4),
        "heldout_rmse": round(float(np.sqrt(((final_t - predicted) ** 2).mean())), 3),
    }
    return {n: round(float(v), 5) for n, v in zip(names, w, strict=True)}, stats


def write(models: dict[str, tuple[dict[str, float], dict[str, Any]]], args: argparse.Namespace) -> None:
    """Write weights.json (weights and how they were made)."""
    command = (
        "benchmarks/fit/tiny_farms.py "
        f"--games {args.games} --rounds {args.rounds} --seed {args.seed} --epsilon {args.epsilon}"
        + (f" --only {args.only}" if args.only else "")
        + (f" --agent {args.agent}" if args.agent != "greedy" else "")
    )
    kept = json.loads(evaluation.WEIGHTS_FILE.read_text(encoding="utf-8"))
    data: dict[str, Any] = {
        "meaning": "final objective ~ objective now + sum(weight * feature); see games/tiny_farms/evaluation.py",
    }
    for name, (w, stats) in models.items():
        refitted = args.only in (None, name)
        data[name] = {
            "made_by": command if refitted else kept.get(name, {}).get("made_by", kept.get("made_by", "")),
            "weights": w,
            "fit": stats,
        }
        if evaluation.HORSE_SD in stats:
            data[name][evaluation.HORSE_SD] = stats[evaluation.HORSE_SD]
    evaluation.horse_sd.cache_clear()
    evaluation.WEIGHTS_FILE.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    evaluation.weights.cache_clear()


def _student_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and Student-t 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    half = float(student_t.ppf(0.975, n - 1)) * statistics.stdev(values) / n**0.5
    return mean, mean - half, mean + half


def _wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95% interval of a share."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pair_runs(before: str, after: str) -> str:
    """Pair two solo runs of ``benchmarks/ai/compare.py --raw`` deal by deal (made by two code trees).

    For each run: the mean margin over Emma (Student-t 95%), the share of wins (a tie counts half;
    Wilson 95%), CPU s/decision p50 / p99; then the paired differences AFTER - BEFORE of the margin
    and of the win, with Student-t 95% intervals. Deals are matched by deal number.
    """

    def load(path: str) -> dict[int, dict[str, Any]]:
        with open(path, encoding="utf-8") as fh:
            return {g["deal"]: g for g in map(json.loads, fh) if g}

    def won(g: dict[str, Any]) -> float:
        return {"win": 1.0, "tie": 0.5}.get(g["details"]["outcome"], 0.0)

    runs = load(before), load(after)
    deals = sorted(set(runs[0]) & set(runs[1]))
    if not deals:
        raise SystemExit(f"no deal is in both {before} and {after}")
    lines = []
    for path, run in zip((before, after), runs, strict=True):
        games = [run[d] for d in deals]
        wins = sum(won(g) for g in games)
        low, high = _wilson(wins, len(games))
        cpu = sorted(x for g in games for x in g["cpu"][0])
        mean, mlow, mhigh = _student_ci([float(g["solo_score"]) for g in games])
        lines.append(
            f"{path} ({games[0]['specs'][0]}): {len(games)} deals, margin {mean:+.2f} [{mlow:+.2f}, {mhigh:+.2f}], "
            f"wins {wins / len(games):.1%} [{low:.1%}, {high:.1%}], CPU s/decision p50 {cpu[len(cpu) // 2]:.3f} "
            f"p99 {cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))]:.3f}"
        )
    margin = _student_ci([float(runs[1][d]["solo_score"] - runs[0][d]["solo_score"]) for d in deals])
    wins_diff = _student_ci([won(runs[1][d]) - won(runs[0][d]) for d in deals])
    lines.append(
        f"paired after - before: margin {margin[0]:+.2f} [{margin[1]:+.2f}, {margin[2]:+.2f}], "
        f"wins {wins_diff[0]:+.1%} [{wins_diff[1]:+.1%}, {wins_diff[2]:+.1%}]"
    )
    return "\n".join(lines)


def main() -> None:
    """Fit, round by round, and write the weights (or, with ``--pair``, compare two benchmark runs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", nargs=2, metavar=("BEFORE", "AFTER"), help="pair two compare.py --raw files")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--only", choices=("players", "solo"), help="refit one model, keep the other's weights")
    parser.add_argument("--agent", default="greedy", help="who plays the fitting games (an agent spec; greedy)")
    parser.add_argument("--fresh", action="store_true", help="start from all-zero weights (the score as it stands)")
    args = parser.parse_args()
    if args.pair:
        print(pair_runs(*args.pair))
        return
    kept = json.loads(evaluation.WEIGHTS_FILE.read_text(encoding="utf-8"))
    start_models: dict[str, tuple[dict[str, float], dict[str, Any]]] = {}
    for name, names in (("players", evaluation.PLAYER_FEATURES), ("solo", evaluation.SOLO_FEATURES)):
        old = kept.get(name, {}).get("weights", {})
        if args.fresh or set(old) != set(names):
            start_models[name] = (dict.fromkeys(names, 0.0), {})
        else:
            start_models[name] = (old, dict(kept[name].get("fit", {})))
            if evaluation.HORSE_SD in kept[name]:
                start_models[name][1][evaluation.HORSE_SD] = kept[name][evaluation.HORSE_SD]
    write(start_models, args)
    todo = [(n, p) for n, p in (("players", 2), ("solo", 1)) if args.only in (None, n)]
    for fitting_round in range(args.rounds):
        start = time.process_time()
        models = dict(start_models)
        for name, players in todo:
            rows: list[Row] = []
            for g in range(args.games):
                seed = args.seed + 100_000 * fitting_round + g
                variants = (DIFFICULTIES[g % len(DIFFICULTIES)],) if players == 1 else ()
                played = play(seed, players, variants, args.epsilon, args.agent)
                rows += [(g, x, now, final) for x, now, final in played]
            models[name] = fit(rows, evaluation.SOLO_FEATURES) if players == 1 else fit_players(rows)
        write(models, args)
        start_models = models
        print(f"round {fitting_round + 1}: {time.process_time() - start:.0f} CPU s")
        for name, (w, stats) in models.items():
            print(f"  {name}: {stats}")
            print("   ", ", ".join(f"{k}={v:+.2f}" for k, v in w.items()))


if __name__ == "__main__":
    main()
