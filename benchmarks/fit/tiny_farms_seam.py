"""How the Tiny Farms solo estimate moves across a new roll: the crop position's estimate against the
estimates after the crop, one per sampled roll of the next round.

Plays greedy games (Emma easy, game seeds ``5000 + deal``); at each crop before the last round it
takes greedy's crop (or the first one when greedy spends milk), estimates the position before it
(the next round in expectation) and after it under ``--rolls`` sampled rolls, and prints the mean
and spread of the latter. With ``ROUND_START_BEFORE_ROLL`` on, the rounds the player starts show no
spread and no gap (the rounds Emma starts keep theirs).

    PYTHONPATH=src nice -n 10 python benchmarks/fit/tiny_farms_seam.py --deals 0 4
    PYTHONPATH=src python benchmarks/fit/tiny_farms_seam.py --deals 0 4 --before-roll false   # session 6's start
"""

from __future__ import annotations

import argparse
import random
import statistics

import farmtable
from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms import evaluation
from farmtable.games.tiny_farms.rules import CROP


def main(argv: list[str] | None = None) -> int:
    """Print each crop position's estimate before and after the roll; the mean gap and spreads at the end."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, nargs=2, default=(0, 4), metavar=("FIRST", "END"))
    ap.add_argument("--rolls", type=int, default=60)
    ap.add_argument("--before-roll", choices=("true", "false"), default="true")
    args = ap.parse_args(argv)
    evaluation.ROUND_START_BEFORE_ROLL = args.before_roll == "true"
    game = farmtable.get_game("tiny-farms")
    gaps: list[float] = []
    spreads: list[float] = []
    for deal in range(*args.deals):
        state = game.new_game(players=1, seed=5000 + deal, variants=("emma-easy",))
        rng = random.Random(deal)
        while not state.is_over():
            legal = state.legal_actions(0)
            action = legal[0] if len(legal) == 1 else legal[greedy_choice(state, 0, rng)]
            if state.phase == CROP and state.round < state.rounds and state.modifier == 0:
                before = evaluation.evaluate(state)[0]
                crops = [a for a in legal if a.startswith(("plant", "cross"))]
                crop = action if action in crops else crops[0]
                after = []
                for roll in range(args.rolls):
                    world = state.determinize(0, random.Random(roll))
                    world.apply(0, crop)
                    after.append(evaluation.evaluate(world)[0])
                mean = statistics.fmean(after)
                gaps.append(mean - before)
                spreads.append(statistics.pstdev(after))
                print(
                    f"deal {deal} round {state.round} {crop}: before {before:+.2f}, "
                    f"after the roll mean {mean:+.2f} sd {spreads[-1]:.2f}"
                )
            state.apply(0, action)
    print(
        f"{len(gaps)} crops: gap after − before {statistics.fmean(gaps):+.2f} (sd {statistics.pstdev(gaps):.2f}), "
        f"mean sd over the rolls {statistics.fmean(spreads):.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
