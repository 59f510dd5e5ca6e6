"""Farmerama solo: paired comparison of planner settings with the fair turn planner (issue 13/14).

Every setting plays the same deals (deal ``i`` = game seed ``seed + i``) with the fair turn planner
of ``farmerama_plan.py`` (each turn the distinct end-of-turn position with the best
``planner.plan_value``; no redraws, nothing hidden read). A setting is a list of
``NAME=VALUE`` assignments to constants of ``farmtable.games.farmerama.planner``; the first
setting is the reference. Prints, per setting, the mean [95% CI], median, the share reaching 150
(Wilson) and the paired difference to the reference with its 95% t interval.

    PYTHONPATH=src nice -n 10 python benchmarks/fit/farmerama_tune.py --deals 60 \\
        --setting "" --setting "WATER_VALUE=0.8" [--variant wheel-v1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import farmtable
from farmtable.arena.stats import mean_ci, wilson
from farmtable.games.farmerama import planner
from farmtable.games.farmerama.components import SOLO_GOAL
from farmtable.games.farmerama.rules import FarmeramaState


def turn_greedy(state: FarmeramaState) -> None:
    """Play ``state`` to the end, each turn the outcome with the best plan value (no redraws)."""
    while not state.is_over():
        outcomes = [
            (planner.plan_value(child), line) for line, child in planner.turn_outcomes(state) if "redraw" not in line
        ]
        _, line = max(outcomes, key=lambda item: item[0])
        for action in line:
            state.apply(0, action)


def parse_setting(text: str) -> dict[str, float]:
    """``"A=1,B=2"`` as a dict; every name must be an existing planner constant (ValueError otherwise)."""
    values: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if not hasattr(planner, name):
            raise ValueError(f"planner has no constant {name!r}")
        values[name] = float(value)
    return values


def main() -> None:
    """Command line: play every setting on the same deals and print the paired summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--setting", action="append", default=[], help="NAME=VALUE,... (repeatable; first = reference)")
    ap.add_argument("--out", help="write the per-deal stars per setting as JSON here")
    ap.add_argument("--variant", action="append", default=[], help="a game variant, e.g. wheel-v1 (repeatable)")
    args = ap.parse_args()
    settings = args.setting or [""]
    game = farmtable.get_game("farmerama")
    defaults = {name: getattr(planner, name) for text in settings for name in parse_setting(text)}
    runs: dict[str, list[int]] = {}
    for text in settings:
        for name, value in defaults.items():
            setattr(planner, name, value)
        for name, value in parse_setting(text).items():
            setattr(planner, name, value)
        stars: list[int] = []
        start = time.process_time()
        for deal in range(args.deals):
            state = game.new_game(players=1, seed=args.seed + deal, variants=tuple(args.variant))
            turn_greedy(state)
            stars.append(state.result().totals[0])
        cpu = time.process_time() - start
        runs[text] = stars
        mean, low, high = mean_ci([float(s) for s in stars])
        hits = sum(s >= SOLO_GOAL for s in stars)
        lo, hi = wilson(hits, len(stars))
        line = f"[{text or 'shipped'}] mean {mean:.1f} [{low:.1f}, {high:.1f}] median {statistics.median(stars)}"
        line += f" max {max(stars)} 150+: {hits}/{len(stars)} [{100 * lo:.1f}, {100 * hi:.1f}]%"
        if text != settings[0]:
            diffs = [float(a - b) for a, b in zip(stars, runs[settings[0]], strict=True)]
            d, dlo, dhi = mean_ci(diffs)
            line += f"  vs ref {d:+.2f} [{dlo:+.2f}, {dhi:+.2f}]"
        print(line + f"  cpu {cpu / args.deals:.2f}s/deal", flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(runs, handle)


if __name__ == "__main__":
    main()
