"""CPU cost of the Farmini estimate with and without the turn lookahead (``evaluation.LOOKAHEAD``).

Plays ``--games`` seeded random solo games, keeps every position, and prints the mean CPU
milliseconds of ``evaluation.estimate`` over the positions where a card is taken (the lookahead
values its placements) and the others, with the lookahead off and on::

    PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python benchmarks/fit/farmini_speed.py --games 3
"""

from __future__ import annotations

import argparse
import random
import time

import farmtable
from farmtable.core import State
from farmtable.games.farmini import evaluation
from farmtable.games.farmini.rules import FarminiState


def positions(games: int) -> tuple[list[FarminiState], list[FarminiState]]:
    """Every position of ``games`` seeded random solo games: (a card taken, none taken)."""
    taken: list[FarminiState] = []
    other: list[FarminiState] = []
    for seed in range(games):
        state: State[object] = farmtable.get_game("farmini").new_game(players=1, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            assert isinstance(state, FarminiState)
            (taken if state.pending else other).append(state.clone())
            state.apply(0, rng.choice(state.legal_actions(0)))
    return taken, other


def main() -> None:
    """Print the mean CPU ms per estimate for each kind of position, lookahead off and on."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    taken, other = positions(args.games)
    for name, states in (("a card taken", taken), ("no card taken", other)):
        for lookahead in (False, True):
            evaluation.LOOKAHEAD = lookahead
            start = time.process_time()
            for state in states:
                evaluation.estimate(state, 0)
            ms = (time.process_time() - start) / len(states) * 1e3
            print(f"{name}: {len(states)} positions, LOOKAHEAD={lookahead}: {ms:.3f} ms")


if __name__ == "__main__":
    main()
