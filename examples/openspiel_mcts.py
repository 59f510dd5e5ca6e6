"""OpenSpiel's own MCTS bot plays farmtable games through the pyspiel adapter.

    .venv/bin/python examples/openspiel_mcts.py                       # Farmers Finances, 2 players
    .venv/bin/python examples/openspiel_mcts.py --game tiny-farms --games 4 --simulations 20

Seat 0 is OpenSpiel's ``MCTSBot`` (random rollouts); the other seats play uniformly random legal
moves. Before every search the bot's state is replaced by ``resample_from_infostate`` (the game's
``determinize``): hidden cards and future dice are re-drawn, so the search never peeks (a plain
clone would carry the game's RNG and foresee the dice). Prints seat 0's result per game.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from farmtable.rl.openspiel import short_name


def main() -> None:
    """Play and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="farmers-finances")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--simulations", type=int, default=30)
    args = parser.parse_args()
    game = pyspiel.load_game(short_name(args.game), {"players": args.players, "seed": 1, "reward": "win"})
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(0),
    )
    rng = random.Random(0)
    total = 0.0
    for g in range(args.games):
        start = time.perf_counter()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state.resample_from_infostate(0, rng.random))
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        reward = state.returns()[0]
        total += reward
        print(f"game {g + 1}: MCTS seat 0 reward {reward:+.2f} ({time.perf_counter() - start:.1f}s)")
    print(f"mean reward of MCTS ({args.simulations} simulations) vs random: {total / args.games:+.2f}")


if __name__ == "__main__":
    main()
