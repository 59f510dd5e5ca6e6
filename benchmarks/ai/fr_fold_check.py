"""Seeded Farmerama games whose every decision is printed, to show that a refactoring keeps play.

Plays two-player games between duel players with no time budget (so a seeded game replays exactly)
and, optionally, solo games of the greedy agent, and prints every decision (deal, seat, action)
and a digest of each game's decisions. Run it in two trees (before and after a change) and diff
the outputs: identical outputs mean identical seeded decisions.

    PYTHONPATH=src python benchmarks/ai/fr_fold_check.py --deals 2 --seed 2000 > after.txt
"""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

import farmtable
import farmtable.agents
from farmtable.games.farmerama.duel import DuelAgent

PAIRS: tuple[tuple[dict[str, Any], dict[str, Any]], ...] = (
    ({"temp": 0.5}, {"temp": 0.5, "deep": 1.0}),  # the Normal and Hard plays, without their clocks
    ({"temp": 0.5, "refine": 3}, {"temp": 2.0}),
)
"""The duel players' options per seat, each pair played on every deal."""


def play_duel(deal: int, options: tuple[dict[str, Any], dict[str, Any]]) -> list[str]:
    """One seeded two-player game (game seed ``deal``) between duel players without a clock: its decisions."""
    game = farmtable.get_game("farmerama")
    state = game.new_game(players=2, seed=deal)
    agents = [DuelAgent(seed=deal * 10 + seat, time=None, **options[seat]) for seat in range(2)]
    lines: list[str] = []
    while not state.is_over():
        for seat in state.actors():
            action = agents[seat].act(state, seat)
            lines.append(f"{deal} {seat} {action}")
            state.apply(seat, action)
            break
    lines.append(f"{deal} totals {state.result().totals}")
    return lines


def play_solo(deal: int) -> list[str]:
    """One seeded solo game (game seed ``deal``) of the greedy agent: its decisions."""
    game = farmtable.get_game("farmerama")
    state = game.new_game(players=1, seed=deal)
    agent = farmtable.agents.make("greedy", seed=deal)
    lines: list[str] = []
    while not state.is_over():
        action = agent.act(state, 0)
        lines.append(f"{deal} solo {action}")
        state.apply(0, action)
    lines.append(f"{deal} solo score {state.result().solo_score}")
    return lines


def main() -> None:
    """Print every decision and a digest per game."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--solo", type=int, default=1, help="solo greedy games too (their count)")
    args = ap.parse_args()
    for deal in range(args.seed, args.seed + args.deals):
        for options in PAIRS:
            lines = play_duel(deal, options)
            print("\n".join(lines))
            digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
            print(f"digest duel {deal} {options} {len(lines)} decisions {digest}")
    for deal in range(args.seed, args.seed + args.solo):
        lines = play_solo(deal)
        print("\n".join(lines))
        print(f"digest solo {deal} {len(lines)} {hashlib.sha256(chr(10).join(lines).encode()).hexdigest()[:16]}")


if __name__ == "__main__":
    main()
