"""How far the 2-player Tiny Farms evaluation is from the final margin, horse race aside: the spread
the duel player's win objective (``tiny-farms-duel:objective=win``) reads.

The duel player (``src/farmtable/games/tiny_farms/duel.py``, :func:`~farmtable.games.tiny_farms.duel.win_chance`)
can value a leaf by its chance of winning instead of its expected margin. The horse race is a
10-point swing in two players (most horses or a tie: 10; fewer: 0), so it is modelled on its own
(lead / tie / behind, by the evaluation's random walk of the horse difference) and the rest of the
margin as normal around the evaluation's estimate of it, with spread ``sd[r]`` by whole rounds
``r`` left after the leaf's round::

    P(win) ≈ Σ_o P(o) · Φ((m_rest + h_o) / sd[r]),  o ∈ {lead, tie, behind}, h_o = +10, 0, −10

where ``m_rest`` is the estimated margin minus the expected horse-point difference. This script
measures ``sd[r]``: it plays seeded 2-player games (an agent spec in both seats, default
``greedy``), and at every ``PLACE`` position (a die just taken, as at the duel player's leaves)
records player 0's estimated rest-of-margin and, at the end, the final margin minus the final
horse-point difference. Seat 1's view is the same numbers negated, so only player 0's is kept;
the mean residual is printed as a check (the model uses no bias).

Usage (from the repository root)::

    PYTHONPATH=src nice -n 10 python benchmarks/fit/tiny_farms_duel_winprob.py --games 100 --seed 0 \\
        --write src/farmtable/games/tiny_farms/winprob_duel.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import farmtable
import farmtable.agents as agents
from farmtable.games.tiny_farms import duel, evaluation, scoring
from farmtable.games.tiny_farms.rules import PLACE, TinyFarmsState


def rest_margin_estimate(state: TinyFarmsState) -> float:
    """Player 0's estimated margin minus the expected horse-point difference (the evaluation's)."""
    values = state.evaluate()
    return duel.margin(values, 0) - duel.expected_horse_difference(state, 0)


def collect(games: int, seed: int, spec: str) -> tuple[dict[int, list[float]], float, int]:
    """Residuals (final − estimated rest-of-margin) keyed by whole rounds left after the
    position's round; also the CPU seconds spent and the decisions made."""
    game = farmtable.get_game("tiny-farms")
    residuals: dict[int, list[float]] = {}
    cpu = 0.0
    decisions = 0
    for g in range(games):
        state = game.new_game(players=2, seed=seed + g)
        assert isinstance(state, TinyFarmsState)
        seats = [agents.make(spec, seed=seed + g + 1000 * k, game="tiny-farms", players=2) for k in range(2)]
        seen: list[tuple[int, float]] = []
        while not state.is_over():
            if state.phase == PLACE:
                seen.append((state.rounds - state.round, rest_margin_estimate(state)))
            who = state.current
            start = time.process_time()
            action = seats[who].act(state, who)
            cpu += time.process_time() - start
            decisions += 1
            state.apply(who, action)
        result = state.result()
        horses = [scoring.horse_count(b) for b in state.boards]
        points = scoring.horse_points(horses, two_player_rules=True, min_horses=evaluation.least_horses(state))
        final = float(result.totals[0] - result.totals[1] - (points[0] - points[1]))
        for left, estimate in seen:
            residuals.setdefault(left, []).append(final - estimate)
    return residuals, cpu, decisions


def main(argv: list[str] | None = None) -> int:
    """Print the spread by rounds left; write it as JSON with ``--write``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="greedy", help="the agent spec playing both seats")
    parser.add_argument("--write", help="write {sd} by whole rounds left (0 = last round) to this JSON file")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error(f"--games must be at least 2, got {args.games}")
    residuals, cpu, decisions = collect(args.games, args.seed, args.agent)
    rounds = max(residuals) + 1
    sd = [statistics.pstdev(residuals[r]) if len(residuals.get(r, [])) > 1 else 0.0 for r in range(rounds)]
    print(f"{args.games} games of {args.agent!r}, {decisions} decisions, {cpu:.1f} CPU s")
    print("rounds left | positions | mean (final − estimate) | sd")
    for r in range(rounds):
        values = residuals.get(r, [0.0])
        print(f"{r} | {len(residuals.get(r, []))} | {statistics.fmean(values):+.2f} | {sd[r]:.2f}")
    if args.write:
        data = {
            "source": f"benchmarks/fit/tiny_farms_duel_winprob.py --games {args.games} --seed {args.seed} "
            f"--agent {args.agent}",
            "sd": [round(s, 3) for s in sd],
        }
        with open(args.write, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
