"""Tiny Towns: greedy solo play with variants of a weights file, paired on the same deals.

A cheap proxy for trying evaluation weights (a greedy game costs about 0.2 CPU s): every variant
changes some weights of the base file, plays the same deals (game seeds ``--seed`` + i, greedy
seeded by i) and is compared deal by deal with the base (Student-t 95% interval).

A variant may also set constants of ``evaluation.py`` or ``planner.py`` (upper-case names, e.g.
``{"plan": {"SOLO_PLAN_WEIGHT": 1.0}}``, ``{"x": {"planner.LOOSE_CUBE": 1.0}}``); they are put
back after the variant. The town-plan runs of ``benchmarks/ai/tiny-towns.md``::

    PYTHONPATH=src python benchmarks/ai/tt_greedy_variants.py --base src/farmtable/games/tiny_towns/weights.json \
        --deals 200 --seed 3000 --variants '{"plan": {"SOLO_PLAN_WEIGHT": 1.0}}'

Example (the run in ``benchmarks/ai/out/tt-greedy-variants.txt``)::

    PYTHONPATH=src python benchmarks/ai/tt_greedy_variants.py --base benchmarks/ai/out/tt-weights-future.json \\
        --deals 50 --variants '{"fed3": {"unfed_feedable": 3.0, "unfed_stuck": -1.0},
        "food_up": {"food_missing1": 0.6, "food_missing2": 0.4, "food_missing3": 0.2},
        "empty2": {"empty": 2.0, "cubes": 2.0, "empty*filled": -2.0, "cubes*filled": -2.0},
        "empty4": {"empty": 4.0, "cubes": 4.0, "empty*filled": -4.0, "cubes*filled": -4.0}}'
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.tiny_towns import evaluation as E
from farmtable.games.tiny_towns import planner as P


def _constant(name: str) -> tuple[object, str]:
    """The module and attribute of a constant (``planner.X``, ``evaluation.X``; bare: evaluation, then planner)."""
    module_name, _, attr = name.rpartition(".")
    modules = {"planner": P, "evaluation": E}
    if module_name:
        if module_name not in modules or not hasattr(modules[module_name], attr):
            raise SystemExit(f"no constant {name}")
        return modules[module_name], attr
    for module in (E, P):
        if hasattr(module, attr):
            return module, attr
    raise SystemExit(f"no constant {name}")


def play(weights: list[float], seed: int, deals: int) -> list[int]:
    """Greedy's final scores with these solo weights on deals ``seed .. seed + deals - 1``."""
    E.set_weights({"solo": weights})
    scores = []
    for i in range(deals):
        state = farmtable.get_game("tiny-towns").new_game(players=1, seed=seed + i)
        agent = GreedyAgent(seed=i)
        while not state.is_over():
            state.apply(0, agent.act(state, 0))
        scores.append(state.result().totals[0])
    return scores


def main() -> None:
    """Play the base and every variant; print mean, deals ≥ 25, max and the paired difference."""
    from scipy.stats import t

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="a weights file (evaluation.FEATURES layout)")
    ap.add_argument("--variants", default="{}", help='JSON: {"name": {"feature": weight, ...}, ...}')
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=3000)
    args = ap.parse_args()
    with open(args.base, encoding="utf-8") as fh:
        base = dict(zip(E.FEATURES, json.load(fh)["weights"]["solo"], strict=True))
    variants: dict[str, dict[str, float]] = {"base": {}, **json.loads(args.variants)}
    for name, change in variants.items():
        unknown = {k for k in change if k not in E.FEATURES and not k.split(".")[-1].isupper()}
        if unknown:
            raise SystemExit(f"variant {name}: no feature {', '.join(sorted(unknown))}")
        for key in change:
            if key not in E.FEATURES:
                _constant(key)
    first: list[int] = []
    for name, change in variants.items():
        start = time.process_time()
        saved = []
        for key, value in change.items():
            if key not in E.FEATURES:
                module, attr = _constant(key)
                saved.append((module, attr, getattr(module, attr)))
                setattr(module, attr, tuple(value) if isinstance(value, list) else value)
        P.clear_caches()
        weights = {**base, **{k: v for k, v in change.items() if k in E.FEATURES}}
        scores = play([weights[f] for f in E.FEATURES], args.seed, args.deals)
        for module, attr, old in saved:
            setattr(module, attr, old)
        first = first or scores
        diff = [a - b for a, b in zip(scores, first, strict=True)]
        mean = statistics.mean(diff)
        half = float(t.ppf(0.975, len(diff) - 1)) * statistics.stdev(diff) / len(diff) ** 0.5 if any(diff) else 0.0
        print(
            f"{name}: mean {statistics.mean(scores):.2f} >=25 {sum(s >= 25 for s in scores)} max {max(scores)} "
            f"diff {mean:+.2f} [{mean - half:+.2f},{mean + half:+.2f}] cpu {time.process_time() - start:.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
