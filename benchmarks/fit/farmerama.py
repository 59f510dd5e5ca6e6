"""Fit the Farmerama evaluation weights (``src/farmtable/games/farmerama/weights.json``) from self-play.

Each round plays epsilon-greedy self-play games with the current weights (solo and 2 players),
records every player's features at every decision and the final score minus the score then,
fits both models by numpy least squares on the positions of all rounds so far and writes the
weights; the next round plays with them.

    cd /work/wt/ai-eval-fm-fr && PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python \
        benchmarks/fit/farmerama.py --rounds 4 --solo-games 120 --multi-games 50 --epsilon 0.25 --seed 3
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fm_fr_common import fitting_parser, run_rounds

from farmtable.games.farmerama import evaluation

SIGNS = {
    # the rules say which way these push (0 or absent: free)
    "game_left": 1,
    "pasture_gain": 1,
    "pasture_gain_x_progress": 1,
    "pasture_turns_needed": -1,
    "feed_ready_value": 1,
    "feed_coverage_value": 1,
    "feed_coverage_value_x_left": 1,
    "water_useful": 1,
    "water_useful_x_left": 1,
    "water_spare": 1,  # water never hurts: it need not be spent
    "water_short": -1,
    "empty_beds_x_left": 1,
    "harvestable": 1,
    "can_turn_wheel": 1,
    "sow_left": 1,
    "harvest_left": 1,
    "water_left": 1,
    "tokens": 1,
}
"""Sign bounds of the weights (see ``fm_fr_common.fit``)."""


def main() -> None:
    """Run the fitting rounds and write ``weights.json`` after each."""
    parser = fitting_parser(__doc__ or "")
    parser.add_argument(
        "--signs",
        action="store_true",
        help="bound the weight signs by SIGNS (sound marginal values, but greedy played worse; see the docs)",
    )
    args = parser.parse_args()
    signs = [SIGNS.get(f, 0) for f in evaluation.FEATURES] if args.signs else None
    run_rounds("farmerama", evaluation, args, signs)


if __name__ == "__main__":
    main()
