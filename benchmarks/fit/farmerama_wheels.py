"""Farmerama action-wheel candidates in the 2-4-player game: do scores stay near the rulebook's
example (153 stars for the winner of a 2-player game) and does no card take over?

For each wheel variant and player count, plays ``--games`` games of ``--agent`` in every seat
(game seed ``seed + i``, agent of seat ``p`` seeded ``(seed + i) * 7919 + p``) and prints, per
wheel: the mean winner's score and the mean score of every seat with 95% intervals, rounds
played, player-wheel turns and products per player, and the share of each action card among the
cards chosen (a card near 0% or far above the others would be a degenerate strategy).

    PYTHONPATH=src nice -n 10 python benchmarks/fit/farmerama_wheels.py --players 2 3 4 \\
        --games 10 --agent greedy --wheels wheel-v1 ""
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import farmtable
import farmtable.agents
from farmtable.arena.stats import mean_ci
from farmtable.games.farmerama.components import ACTION_WHEELS, CARDS


def play(players: int, wheel: str, spec: str, seed: int) -> tuple[list[int], int, list[int], list[int], Counter[str]]:
    """One game: totals, rounds, wheel turns and products per player, and the cards chosen."""
    variants = (wheel,) if wheel else ()
    state = farmtable.get_game("farmerama").new_game(players=players, seed=seed, variants=variants)
    agents = [farmtable.agents.make(spec, seed=seed * 7919 + p) for p in range(players)]
    cards: Counter[str] = Counter()
    turns = [0] * players
    while not state.is_over():
        player = state.actors()[0]
        action = agents[player].act(state, player)
        if str(action).startswith("card "):
            cards[str(action)[5:]] += 1
        if str(action) == "turn-wheel":
            turns[player] += 1
        state.apply(player, action)
    products = [sum(b.products) for b in state.boards]  # type: ignore[attr-defined]
    return state.result().totals, state.round, turns, products, cards  # type: ignore[attr-defined]


def main() -> None:
    """Command line: the table per player count and wheel."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--wheels", nargs="+", default=list(ACTION_WHEELS))
    args = ap.parse_args()
    for players in args.players:
        for wheel in args.wheels:
            start = time.process_time()
            winners: list[float] = []
            everyone: list[float] = []
            rounds: list[float] = []
            turns: list[float] = []
            products: list[float] = []
            cards: Counter[str] = Counter()
            for i in range(args.games):
                totals, played, wheel_turns, made, chosen = play(players, wheel, args.agent, args.seed + i)
                winners.append(float(max(totals)))
                everyone += [float(t) for t in totals]
                rounds.append(float(played))
                turns += [float(t) for t in wheel_turns]
                products += [float(m) for m in made]
                cards.update(chosen)
            m_win, lo_win, hi_win = mean_ci(winners)
            m_all, lo_all, hi_all = mean_ci(everyone)
            shown = sum(cards.values()) or 1
            share = "  ".join(f"{c} {100 * cards[c] / shown:.0f}%" for c in CARDS)
            print(
                f"{players}p {wheel or 'default'} ({args.games} games, {args.agent}): "
                f"winner {m_win:.1f} [{lo_win:.1f}, {hi_win:.1f}], everyone {m_all:.1f} [{lo_all:.1f}, {hi_all:.1f}], "
                f"rounds {sum(rounds) / len(rounds):.1f}, wheel turns {sum(turns) / len(turns):.1f}, "
                f"products {sum(products) / len(products):.1f}; cards: {share}; "
                f"CPU {time.process_time() - start:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
