"""Fit the solo Tiny Towns evaluation to the *rollout's* choices: one round of policy iteration.

``benchmarks/fit/tiny_towns.py`` regresses each town's final score on its features: most of that
score's spread is the deal (held-out R² 0.24), and a second round of it (self-play with the fitted
weights, refitted) plays *worse* (``benchmarks/ai/tiny-towns.md``, session 11). The greedy agent
needs only the order of the moves of one position, so this script fits that order directly:

1. ``collect``: greedy self-play (a share ``--epsilon`` of moves random, for variety); at a share
   ``--sample`` of the solo card picks and build steps, the best ``--k`` moves by greedy's one-step
   value (the rollout player's candidates, ``rollout.name_candidates`` / ``move_candidates``) are each
   played to the end of the game by the base policy (``rollout.play_out``) in one determinization
   (``state.determinize``: the hidden top of the deck re-dealt), as the rollout player rates them. Kept:
   the feature row of each candidate's board and its rolled-out final score, by position.
2. ``fit``: ridge least squares of the rolled-out scores *centred within each position* on the
   candidates' features centred the same way (the deal's worth cancels: common random numbers), so
   the weights rank moves as the rollout does (a classifier of the improved policy's moves: Lagoudakis
   and Parr, "Reinforcement learning as classification", ICML 2003). The bias and the score scale
   cannot be seen that way; the bias is set so the estimate's mean over the positions' own boards
   equals their mean rolled-out score (``evaluate`` stays on the final-score scale).

Commands (session 11; ``PYTHONPATH=src``, run under ``nice``; data and fits in
``benchmarks/ai/out/s11/tt11/``, results in ``benchmarks/ai/tiny-towns.md``, "Session 11")::

    python benchmarks/fit/tiny_towns_rank.py collect --games 40 --seed 12000 --out rank_12000.npz
    python benchmarks/fit/tiny_towns_rank.py collect --games 40 --seed 12500 --out rank_12500.npz
    python benchmarks/fit/tiny_towns_rank.py fit rank_12000.npz rank_12500.npz --simple --out fit_rank_simple.json
    python benchmarks/fit/tiny_towns_rank.py fit rank_12000.npz rank_12500.npz --simple --pull 0.1 \
        --out fit_rank_simple_0.1.json
    python benchmarks/fit/tiny_towns_rank.py fit rank_12000.npz rank_12500.npz --pull 1 --out fit_rank_full_1.json
    cd benchmarks/ai && PYTHONPATH=../../src:. python tt_weights_paired.py \
        ../../src/farmtable/games/tiny_towns/weights.json fit_rank_simple.json fit_rank_full_1.json \
        fit_rank_simple_0.1.json --deals 100 --seed 3000

None of the fits made greedy stronger (the shipped weights stay).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

GAME = "tiny-towns"
RIDGE = 1e-3
"""Ridge penalty (times the number of candidate rows)."""
HOLD_OUT = 0.2
"""Share of the games (the last ones) kept out of the fit to score it."""


def collect(games: int, seed: int, epsilon: float, sample: float, k: int, out: str) -> None:
    """Greedy self-play; at sampled card picks and build steps, the ``k`` best moves rolled out (above)."""
    import farmtable
    from farmtable.agents.greedy import GreedyAgent
    from farmtable.games.tiny_towns import evaluation as E
    from farmtable.games.tiny_towns.rollout import _listed, move_candidates, name_candidates, play_out
    from farmtable.games.tiny_towns.rules import BUILD_PHASE, NAME_PHASE

    rows: list[np.ndarray[Any, Any]] = []
    scores: list[float] = []
    groups: list[int] = []
    game_of: list[int] = []
    start = time.process_time()
    group = 0
    for g in range(games):
        state = farmtable.get_game(GAME).new_game(players=1, seed=seed + g)
        agent = GreedyAgent(seed=seed + g)
        rng = random.Random(seed + g)
        while not state.is_over():
            legal = state.legal_actions(0)
            phase = state.phase
            if len(legal) > 1 and phase in (NAME_PHASE, BUILD_PHASE) and rng.random() < sample:
                world = state.determinize(0, random.Random(rng.getrandbits(64)))
                naming = phase == NAME_PHASE
                cands = (name_candidates(world, True) if naming else move_candidates(world))[:k]
                if len(cands) > 1:
                    for cand in cands:
                        copy = world.clone()
                        copy.apply(0, _listed(copy, cand.action))
                        if naming and cand.square >= 0:
                            grid = world.towns[0].grid[:]
                            grid[cand.square] = cand.action.what
                            row = E.town_features(world, 0, grid)
                        else:
                            row = E.town_features(copy, 0)
                        rows.append(row.copy())
                        scores.append(float(play_out(copy, None, cand.square)))
                        groups.append(group)
                        game_of.append(g)
                    group += 1
            action = rng.choice(legal) if rng.random() < epsilon else agent.act(state, 0)
            state.apply(0, action)
        if (g + 1) % 10 == 0:
            cpu = time.process_time() - start
            print(f"{g + 1}/{games} games, {group} positions, {len(rows)} rows, {cpu:.0f} CPU s", file=sys.stderr)
    np.savez_compressed(
        out,
        x=np.array(rows),
        y=np.array(scores),
        group=np.array(groups),
        game=np.array(game_of),
        seed=seed,
        games=games,
        epsilon=epsilon,
        sample=sample,
        k=k,
    )
    print(f"saved {len(rows)} rows, {group} positions from {games} games to {out}")


def _centred(x: np.ndarray[Any, Any], groups: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``x`` less its mean within each group (rows of one position)."""
    sums = np.zeros((int(groups.max()) + 1, *x.shape[1:]))
    np.add.at(sums, groups, x)
    counts = np.bincount(groups).astype(float)
    means = sums / counts.reshape(-1, *([1] * (x.ndim - 1)))
    return x - means[groups]


def load(paths: list[str]) -> tuple[Any, Any, Any, Any]:
    """Rows, rolled-out scores, position ids and game ids of several ``collect`` files (ids made distinct)."""
    parts: list[tuple[Any, Any, Any, Any]] = []
    group_base = game_base = 0
    for path in paths:
        data = np.load(path)
        parts.append((data["x"], data["y"], data["group"] + group_base, data["game"] + game_base))
        group_base += int(data["group"].max()) + 1
        game_base += int(data["games"])
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore[return-value]


def fit(paths: list[str], simple: bool, out: str | None, base: str, pull: float = 0.0) -> None:
    """Within-position ridge least squares (above); held-out agreement with the rollout's best move.

    ``pull`` > 0: the ridge pulls the weights towards ``base``'s solo weights (strength ``pull`` x rows)
    instead of towards 0, so a few hundred positions refine the shipped evaluation rather than replace it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from tiny_towns import WEIGHTS_PATH, simple_model

    from farmtable.games.tiny_towns.evaluation import FEATURES

    x, y, groups, games = load(paths)
    expand = simple_model(x.shape[1]) if simple else np.eye(x.shape[1])
    xs = x @ expand
    xc, yc = _centred(xs, groups), _centred(y, groups)
    held = games >= int((int(games.max()) + 1) * (1 - HOLD_OUT))

    base_w = np.array(json.loads(Path(base).read_text())["weights"]["solo"])
    centre = np.linalg.lstsq(expand, base_w, rcond=None)[0] if pull else np.zeros(xs.shape[1])

    def solve(mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        a, b = xc[mask], yc[mask]
        penalty = np.full(a.shape[1], RIDGE + pull) * len(b)
        penalty[0] = RIDGE * len(b)  # the bias cancels within a position
        return np.linalg.solve(a.T @ a + np.diag(penalty), a.T @ b + penalty * centre)

    w_train = expand @ solve(~held)
    stats: dict[str, Any] = {"data": [Path(p).name for p in paths], "rows": len(y), "positions": int(groups.max()) + 1}
    for name, w in (("fit", w_train), ("base", base_w)):
        pred = x[held] @ w
        hit = regret = 0.0
        kept = np.unique(groups[held])
        for gr in kept:
            rows = np.flatnonzero(groups == gr)
            choice = rows[int(np.argmax(pred[np.searchsorted(np.flatnonzero(held), rows)]))]
            hit += float(y[choice] == y[rows].max())
            regret += float(y[rows].max() - y[choice])
        stats[f"held_out_{name}_picks_a_best_move"] = round(hit / len(kept), 3)
        stats[f"held_out_{name}_regret"] = round(regret / len(kept), 3)
    w = expand @ solve(np.ones(len(y), dtype=bool))
    w[0] = 0.0
    w[0] = float(np.mean(y - x @ w))  # the bias: the estimate's mean on the final-score scale
    stats["model"] = "simple" if simple else "full"
    stats["pull_to_base"] = pull
    print(stats)
    for feature, value in zip(FEATURES, w, strict=True):
        print(f"  {feature:24s} {value:8.3f}")
    if out:
        doc = {
            "made_by": (
                "benchmarks/fit/tiny_towns_rank.py fit: ridge least squares (penalty "
                f"{RIDGE} x rows) of the rolled-out final scores of the best moves of sampled solo positions, "
                "centred within each position, on their boards' features centred likewise (policy iteration "
                "on the rollout's choices); bias set to the mean rolled-out score"
            ),
            "date": datetime.date.today().isoformat(),
            "command": "python benchmarks/fit/tiny_towns_rank.py " + " ".join(sys.argv[1:]),
            "fit": {"solo": stats},
            "features": list(FEATURES),
            "weights": {"solo": [round(float(v), 4) for v in w]},
        }
        Path(out).write_text(json.dumps(doc, indent=2) + "\n")
        print(f"wrote {out} (the shipped weights: {WEIGHTS_PATH})")


def main() -> None:
    """Command line: collect, fit."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=150)
    c.add_argument("--seed", type=int, default=12000)
    c.add_argument("--epsilon", type=float, default=0.1)
    c.add_argument("--sample", type=float, default=0.25, help="share of card picks and build steps rolled out")
    c.add_argument("--k", type=int, default=6)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--simple", action="store_true")
    f.add_argument("--out")
    f.add_argument("--base", default="src/farmtable/games/tiny_towns/weights.json", help="compared on held-out data")
    f.add_argument("--pull", type=float, default=0.0, help="pull towards the base weights (times the rows)")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.games, args.seed, args.epsilon, args.sample, args.k, args.out)
    else:
        fit(args.data, args.simple, args.out, args.base, args.pull)


if __name__ == "__main__":
    main()
