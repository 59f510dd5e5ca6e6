"""Fit the Farmini evaluation weights (``src/farmtable/games/farmini/weights.json``) from self-play.

Each round plays epsilon-greedy self-play games with the current weights (solo and 2 players),
records every player's features at every decision and the final score minus the score then,
fits both models by numpy least squares on the positions of all rounds so far and writes the
weights; the next round plays with them.

    cd /work/wt/ai-eval-fm-fr && PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python \
        benchmarks/fit/farmini.py --rounds 3 --solo-games 300 --multi-games 150 --seed 1
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fm_fr_common import fitting_parser, run_rounds

from farmtable.games.farmini import evaluation


def main() -> None:
    """Run the fitting rounds and write ``weights.json`` after each."""
    run_rounds("farmini", evaluation, fitting_parser(__doc__ or "").parse_args())


if __name__ == "__main__":
    main()
