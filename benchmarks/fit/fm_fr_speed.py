"""CPU microseconds per ``evaluate()`` and per ``heuristic(p)`` call on fixed positions.

The positions are every decision of seeded random games (solo and two players); each call is
timed on a fresh clone (cold: nothing computed yet for the position; warm: after ``result()``, so
what the game caches per position, Farmini's pen regions, is there as in a search).
Run once per code version (``PYTHONPATH`` picks it):

    PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python benchmarks/fit/fm_fr_speed.py farmini
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import farmtable


def main() -> None:
    """Print the median and mean CPU microseconds per call."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    game = farmtable.get_game(args.game)
    for players in (1, 2):
        states = []
        for seed in range(args.games):
            state = game.new_game(players=players, seed=seed)
            rng = random.Random(seed)
            while not state.is_over():
                states.append(state.clone())
                p = state.actors()[0]
                state.apply(p, rng.choice(state.legal_actions(p)))
        for warm in (False, True):
            if warm:
                for state in states:
                    state.result()  # what the game computes once per position (Farmini: its regions)
            for name, call in (("evaluate", lambda s: s.evaluate()), ("heuristic", lambda s: s.heuristic(0))):
                times = []
                for state in states:
                    copy = state.clone()
                    start = time.process_time()
                    call(copy)
                    times.append(time.process_time() - start)
                print(
                    f"{args.game} players={players} {'warm' if warm else 'cold'} {name}: "
                    f"median {1e6 * statistics.median(times):.0f} us, "
                    f"mean {1e6 * statistics.fmean(times):.0f} us over {len(times)} positions"
                )


if __name__ == "__main__":
    main()
