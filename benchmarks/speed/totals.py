"""Totals-only scoring for search (issue 16, target 5): ``result()`` vs ``result_totals()``, side by side.

    nice -n 10 .venv/bin/python benchmarks/speed/totals.py --rounds 7

A search scores every finished rollout; it needs the totals, the ranking and a solo player's
objective, not the score sheet. For each game (2 players, and solo where the game has it) the same
finished random games (seeds ``0 .. --games-1``) are scored by both in alternating rounds in this
process, in CPU time (``time.process_time``), each on a freshly loaded copy; per round the ratio of
the two costs is taken and its median and ~95% interval printed. Games that do not override
``result_totals`` fall back on ``result()`` (ratio ~1).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from common import fmt, median_ci

import farmtable


def finished(game_id: str, players: int, games: int) -> list[Any]:
    """``games`` random games of ``game_id`` played to the end."""
    game = farmtable.get_game(game_id)
    out = []
    for seed in range(games):
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
        out.append(state)
    return out


def cost(states: list[Any], score: Callable[[Any], Any], repeat: int) -> float:
    """CPU seconds per scored state, each scored fresh: reloaded from its save (untimed), so no cache
    a game keeps on its state (Farmini's regions) is warm, as after a rollout's last move."""
    game = states[0].game
    fresh = [game.from_json(state.to_json()) for _ in range(repeat) for state in states]
    start = time.process_time()
    for state in fresh:
        score(state)
    return (time.process_time() - start) / len(fresh)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"finished random games, CPU time, {args.rounds} alternating rounds\n")
    print("| game | players | result() µs | result_totals() µs | result / result_totals (paired) |")
    print("|---|---:|---:|---:|---:|")
    for game_id in farmtable.list_games():
        game = farmtable.get_game(game_id)
        for players in sorted({2, game.min_players}):
            states = finished(game_id, players, args.games)
            full: list[float] = []
            quick: list[float] = []
            for r in range(args.rounds):
                pair = [
                    (full, lambda s: s.result()),
                    (quick, lambda s: s.result_totals()),
                ]
                for out, score in pair if r % 2 == 0 else pair[::-1]:
                    out.append(cost(states, score, args.repeat) * 1e6)
            ratios = [f / q for f, q in zip(full, quick, strict=True) if q > 0]
            cells = [fmt(median_ci(full), ",.1f"), fmt(median_ci(quick), ",.1f"), fmt(median_ci(ratios), ".2f")]
            print(f"| {game_id} | {players} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
