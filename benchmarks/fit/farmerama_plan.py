"""Farmerama solo: how many stars a planner reaches, for the product-value analysis (issue 14).

Two planners from ``farmtable.games.farmerama.planner``:

- ``clairvoyant``: a beam search over whole turns on the *real* deal (it knows the order of the
  action cards): an optimistic reference, not a fair player;
- ``turn-greedy``: a fair player that plays, every turn, the distinct end-of-turn position with the
  best plan value (no redraws: their card is hidden); it reads nothing hidden;
- ``replan``: a fair player that plans the rest of the game with the beam on a fresh
  determinization every turn and plays the plan's first turn (dear: about 15 CPU s a deal at
  width 2).

Deal ``i`` is game seed ``seed + i`` (as in ``benchmarks/ai/compare.py``). Prints one line per deal
and a summary: mean [95% CI], median, the share reaching each goal with its Wilson interval, and
CPU seconds per deal (``time.process_time``). ``--out`` writes the per-deal stars as JSON, for a
paired comparison of two runs on the same deals.

    PYTHONPATH=src nice -n 10 python benchmarks/fit/farmerama_plan.py --planner clairvoyant \\
        --width 8 --deals 30 [--variant products-3-5-7-9] [--out run.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import farmtable
from farmtable.arena.stats import mean_ci, wilson
from farmtable.games.farmerama.components import SOLO_GOAL
from farmtable.games.farmerama.planner import beam_plan, plan_value, turn_outcomes
from farmtable.games.farmerama.rules import FarmeramaState


def turn_greedy(state: FarmeramaState) -> None:
    """Play ``state`` to the end, each turn the outcome with the best plan value (no redraws)."""
    while not state.is_over():
        outcomes = [(plan_value(child), line) for line, child in turn_outcomes(state) if "redraw" not in line]
        _, line = max(outcomes, key=lambda item: item[0])
        for action in line:
            state.apply(0, action)


def replan(state: FarmeramaState, width: int, seed: int) -> None:
    """Play ``state`` to the end fairly: every turn, plan the rest of the game with the beam on a
    fresh determinization (the unseen card order re-sampled) and play that plan's first turn
    (up to a redraw, whose new card is then seen before planning again)."""
    rng = random.Random(seed)
    while not state.is_over():
        world = state.determinize(0, rng.getrandbits(31))
        turn = state.turn
        for action in beam_plan(world, width).line:
            state.apply(0, action)
            if action == "redraw" or state.turn != turn or state.is_over():
                break


def main() -> None:
    """Command line: play the deals with one planner and print the summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--planner", choices=("clairvoyant", "turn-greedy", "replan"), default="turn-greedy")
    ap.add_argument("--width", type=int, default=8, help="beam width of the clairvoyant planner")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--goals", type=int, nargs="+", default=[90, 120, SOLO_GOAL])
    ap.add_argument("--out", help="write the per-deal stars as JSON here")
    args = ap.parse_args()
    game = farmtable.get_game("farmerama")
    stars: list[int] = []
    cpu: list[float] = []
    for deal in range(args.deals):
        state = game.new_game(players=1, seed=args.seed + deal, variants=tuple(args.variant))
        start = time.process_time()
        if args.planner == "clairvoyant":
            plan = beam_plan(state, args.width)
            for action in plan.line:  # replayed through the rules: the line is legal and scores this
                state.apply(0, action)
        elif args.planner == "replan":
            replan(state, args.width, args.seed + deal)
        else:
            turn_greedy(state)
        cpu.append(time.process_time() - start)
        result = state.result()
        stars.append(result.totals[0])
        print(deal, result.totals[0], json.dumps(result.breakdown[0]), f"{cpu[-1]:.1f}s", flush=True)
    mean, low, high = mean_ci([float(s) for s in stars])
    variants = args.variant or "default"
    print(f"\n{args.planner} (width {args.width}) variants {variants}: {len(stars)} deals from seed {args.seed}")
    print(f"mean {mean:.1f} [{low:.1f}, {high:.1f}]  median {statistics.median(stars)}", end="")
    print(f"  min {min(stars)}  max {max(stars)}")
    for goal in args.goals:
        hits = sum(s >= goal for s in stars)
        lo, hi = wilson(hits, len(stars))
        print(f"reached {goal}: {hits}/{len(stars)} = {100 * hits / len(stars):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    print(f"CPU s per deal: median {statistics.median(cpu):.1f}, max {max(cpu):.1f}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump({"planner": args.planner, "width": args.width, "seed": args.seed, "stars": stars}, handle)


if __name__ == "__main__":
    main()
