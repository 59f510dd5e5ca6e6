"""Replay check for the solo Tiny Towns rollout agent: two source trees, the same deals, the same decisions?

Plays each solo deal (game seed ``--seed + i``) once with the agent of a *before* tree (``--before``, a
``src`` folder, e.g. a snapshot of main) and once with the agent of the current tree (``--after``,
default this checkout's ``src``), each in its own Python process (``PYTHONPATH`` set to that tree), with a
fixed amount of work per decision: ``tries=N`` changes in the polish and a time budget so large
(``time=1000``) that no search is ever cut short, so both trees do exactly the same work if they are
faithful. The order of the two sides alternates from deal to deal.

It checks that every decision (the action played) and every final score is the same, and reports the CPU
seconds (``time.process_time`` around ``act``) per decision of each side and the paired ratio
before / after per deal: median and a ~95% interval (the order statistics of the ratios), and the ratio of
the total CPU seconds. Exit code 1 if any decision differs.

``--spec SPEC`` (e.g. Expert's ``tiny-towns-rollout:time=1.0,k=6,worlds=2,polish=0.8,near=3``) measures
*strength* instead: both trees play the deals with that spec (decisions may differ: a faster tree tries
more in its CPU budget), and the report gives the paired difference of the scores (after - before, mean
and Student-t 95% interval), each side's mean score, and CPU seconds a decision p50 / p99 / max with the
number of decisions over 1.0 s.

Example (from the repository root, on the shared machine)::

    git -C /work/main archive 5435969 src | tar -x -C /tmp/tt18-base
    nice -n 10 .venv/bin/python benchmarks/ai/tt_replay.py --before /tmp/tt18-base/src \\
        --deals 8 --seed 4600 --tries 40 --out benchmarks/out/s18/tt18/replay.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SPEC = "tiny-towns-rollout:time=1000,k=6,worlds=2,near=3,tries={tries}"
"""Expert's options (``levels.py``) with the polish bounded by changes tried, not by CPU seconds."""


def play_deal(seed: int, spec: str) -> dict[str, Any]:
    """Play the solo deal ``seed`` with the agent ``spec`` (seeded as ``compare.py`` seeds it); its moves,
    CPU seconds per decision and score."""
    import farmtable
    import farmtable.agents
    from farmtable.agents.base import warm_up

    game = farmtable.get_game("tiny-towns")
    state = game.new_game(players=1, seed=seed)
    agent = farmtable.agents.make(spec, seed=seed * 7919, game="tiny-towns", players=1)
    warm_up(state)
    moves: list[str] = []
    cpu: list[float] = []
    while not state.is_over():
        start = time.process_time()
        action = agent.act(state, 0)
        cpu.append(time.process_time() - start)
        moves.append(str(action))
        state.apply(0, action)
    return {
        "seed": seed,
        "moves": moves,
        "cpu": cpu,
        "score": int(state.result().solo_score),
        "module": farmtable.__file__,
    }


def run_side(src: str, seed: int, spec: str) -> dict[str, Any]:
    """Play one deal in a fresh Python process whose ``farmtable`` is imported from the tree ``src``."""
    env = dict(os.environ, PYTHONPATH=src)
    command = [sys.executable, __file__, "--child", "--seed", str(seed), "--spec", spec]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    played: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not played["module"].startswith(str(Path(src).resolve())):
        raise RuntimeError(f"the process for {src} imported farmtable from {played['module']}")
    return played


def ratio_interval(ratios: list[float]) -> tuple[float, float, float]:
    """Median of ``ratios`` and a ~95% distribution-free interval for it (order statistics of the sorted
    ratios at n/2 ± 1.96·√n/2); the extremes when there are too few values."""
    ordered = sorted(ratios)
    n = len(ordered)
    half = 1.96 * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half))
    high = min(n - 1, math.ceil(n / 2 + half) - 1)
    return statistics.median(ordered), ordered[low], ordered[high]


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def strength_report(scores: dict[str, list[int]], cpu: dict[str, list[float]]) -> int:
    """Print the paired score difference (after - before) and each side's scores and CPU per decision."""
    from compare import paired_ci  # benchmarks/ai/compare.py: Student-t interval of paired differences

    diff = [float(a - b) for a, b in zip(scores["after"], scores["before"], strict=True)]
    mean, low, high = paired_ci(diff)
    print(f"score after - before: {mean:+.2f} [{low:+.2f}, {high:+.2f}] (95%, Student t) over {len(diff)} deals")
    for side in ("before", "after"):
        values = cpu[side]
        points = scores[side]
        print(
            f"{side}: mean score {statistics.fmean(points):.2f}, >= 25 on {sum(p >= 25 for p in points)} of "
            f"{len(points)}, max {max(points)}; CPU s a decision p50 {_quantile(values, 0.5):.3f}, "
            f"p99 {_quantile(values, 0.99):.3f}, max {max(values):.3f}, over 1.0 s: {sum(v > 1.0 for v in values)} "
            f"of {len(values)}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Replay the deals with both trees, check the decisions, print the report; 1 if a decision differs."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", help="the src folder of the tree to compare with (e.g. a snapshot of main)")
    ap.add_argument("--after", default=str(Path(__file__).resolve().parents[2] / "src"))
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--seed", type=int, default=4600)
    ap.add_argument("--tries", type=int, default=40, help="polish changes per decision once the deck is known")
    ap.add_argument("--spec", help="measure strength with this agent spec instead (decisions may differ)")
    ap.add_argument("--out", help="write each deal's two games as a JSON line to this file")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    spec = args.spec or SPEC.format(tries=args.tries)
    if args.child:
        print(json.dumps(play_deal(args.seed, spec)))
        return 0
    if not args.before:
        ap.error("--before is required")
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115 (kept open for the run)
    ratios: list[float] = []
    cpu = {"before": [], "after": []}  # type: dict[str, list[float]]
    scores = {"before": [], "after": []}  # type: dict[str, list[int]]
    differ = 0
    decisions = 0
    print(f"spec {spec}; load {os.getloadavg()[0]:.2f}", flush=True)
    for i in range(args.deals):
        seed = args.seed + i
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        games = {side: run_side(args.before if side == "before" else args.after, seed, spec) for side in order}
        old, new = games["before"], games["after"]
        same = old["moves"] == new["moves"] and old["score"] == new["score"]
        first_diff = next((j for j, (a, b) in enumerate(zip(old["moves"], new["moves"], strict=False)) if a != b), None)
        differ += not same
        scores["before"].append(old["score"])
        scores["after"].append(new["score"])
        decisions += len(old["moves"])
        cpu["before"] += old["cpu"]
        cpu["after"] += new["cpu"]
        ratio = sum(old["cpu"]) / sum(new["cpu"])
        ratios.append(ratio)
        print(
            f"deal {seed}: {len(old['moves'])} decisions, score {old['score']} / {new['score']}, "
            f"{'same' if same else f'DIFFERENT from decision {first_diff}'}; CPU s {sum(old['cpu']):.2f} / "
            f"{sum(new['cpu']):.2f} (x{ratio:.3f}); load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        if out is not None:
            out.write(json.dumps({"seed": seed, "order": order, "before": old, "after": new}) + "\n")
            out.flush()
    if out is not None:
        out.close()
    if args.spec:
        return strength_report(scores, cpu)
    median, low, high = ratio_interval(ratios)
    print(f"decisions compared: {decisions}; deals with any difference: {differ} of {args.deals}")
    for side in ("before", "after"):
        values = cpu[side]
        print(
            f"{side}: CPU s a decision mean {statistics.fmean(values):.4f}, p50 {_quantile(values, 0.5):.4f}, "
            f"p99 {_quantile(values, 0.99):.4f}, max {max(values):.4f}; total {sum(values):.1f}"
        )
    print(
        f"speed-up before/after per deal: median x{median:.3f} [~95% x{low:.3f}, x{high:.3f}] "
        f"over {len(ratios)} deals; "
        f"total x{sum(cpu['before']) / sum(cpu['after']):.3f}"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
