"""Fit the Farmini evaluation weights (``src/farmtable/games/farmini/weights.json``) from self-play.

Each round plays epsilon-greedy self-play games with the current weights (solo and 2 players),
records every player's features at every decision and the final score minus the score then,
fits both models by numpy least squares on the positions of all rounds so far and writes the
weights; the next round plays with them.

    cd /work/wt/ai-eval-fm-fr && PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python \
        benchmarks/fit/farmini.py --rounds 3 --solo-games 300 --multi-games 150 --seed 1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fm_fr_common import Data, cpu, fit, merge, play, write_weights

from farmtable.games.farmini import evaluation

WEIGHTS = Path(evaluation.__file__).with_name(evaluation.WEIGHTS_FILE)


def main() -> None:
    """Run the fitting rounds and write ``weights.json`` after each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--solo-games", type=int, default=300)
    parser.add_argument("--multi-games", type=int, default=150)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seen: dict[str, list[Data]] = {evaluation.SOLO_MODEL: [], evaluation.MULTI_MODEL: []}
    for r in range(args.rounds):
        start = cpu()
        models = {}
        meta: dict[str, object] = {
            "script": "benchmarks/fit/farmini.py",
            "args": vars(args),
            "round": r + 1,
            "target": "final score minus score now, per player and decision",
        }
        for name, players, games in (
            (evaluation.SOLO_MODEL, 1, args.solo_games),
            (evaluation.MULTI_MODEL, 2, args.multi_games),
        ):
            data = play(
                "farmini",
                players,
                games,
                args.seed * 1000 + r,
                args.epsilon,
                evaluation.features,
                evaluation._score_now,
            )
            seen[name].append(data)  # every round's positions are kept: the fit does not swing
            w, stats = fit(merge(seen[name]), args.ridge)
            models[name] = w
            meta[name] = stats
            print(f"round {r + 1} {name}: {stats}", flush=True)
        write_weights(WEIGHTS, evaluation.FEATURES, models, meta)
        evaluation.weights.cache_clear()
        print(f"round {r + 1} done in {cpu() - start:.0f} CPU s", flush=True)


if __name__ == "__main__":
    main()
