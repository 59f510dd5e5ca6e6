"""Do Hard and Expert choose differently in Farmers Finances, 2 players? (session 5 diagnosis)

Positions from six greedy-vs-greedy games (game seeds 2000-2005); at a quarter of the decisions
with three or more moves, Hard's iterations (``mcts:iters=200``) and Expert's (``mcts:iters=800``)
each search three times (agent seeds 0-2). Prints how often their majority moves agree, how often
each is consistent over its seeds, and every position. Run from the repository root:
``PYTHONPATH=src python benchmarks/ai/out/s5/ff_agreement.py``.
"""

from __future__ import annotations

import collections
import random

import farmtable
import farmtable.agents


def _majority(moves: list[str]) -> str:
    return collections.Counter(moves).most_common(1)[0][0]


def main() -> None:
    """Print the agreement counts and the positions."""
    game = farmtable.get_game("farmers-finances")
    rows = []
    for deal in range(6):
        state = game.new_game(players=2, seed=2000 + deal)
        greedy = farmtable.agents.make("greedy", seed=deal)
        rng = random.Random(deal)
        step = 0
        while not state.is_over():
            p = state.actors()[0]
            if len(state.legal_actions(p)) > 2 and rng.random() < 0.25:
                hard = [str(farmtable.agents.make("mcts:iters=200", seed=s).act(state, p)) for s in range(3)]
                expert = [str(farmtable.agents.make("mcts:iters=800", seed=s).act(state, p)) for s in range(3)]
                rows.append((deal, step, len(state.legal_actions(p)), str(greedy.act(state, p)), hard, expert))
            state.apply(p, greedy.act(state, p))
            step += 1
    agree = sum(_majority(r[4]) == _majority(r[5]) for r in rows)
    print(len(rows), "positions; hard-majority == expert-majority:", agree)
    print("hard self-consistent", sum(len(set(r[4])) == 1 for r in rows), end=" ")
    print("expert self-consistent", sum(len(set(r[5])) == 1 for r in rows))
    print("greedy == expert majority", sum(r[3] == _majority(r[5]) for r in rows))
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
