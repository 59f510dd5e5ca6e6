"""Farmerama solo: the card-counting lookahead player against the fair turn planner, paired by deal.

Every player plays the same deals (deal ``i`` = game seed ``seed + i``, default components unless
``--variant``). Players: ``turn`` (the fair turn planner: each turn the end-of-turn position with
the best ``planner.plan_value``; what the greedy agent plays), ``look:K`` (``lookahead.lookahead_turn``
rating the K best turns two turns deep, exact chances of the next card; ``look:K:R`` rates a
redraw too, R turns after each card it may reveal), ``agent:SPEC`` (an agent
step by step: ``agent:greedy``, ``agent:farmerama-lookahead:keep=8``). Prints, per player, the
mean [95% CI], median, the share reaching 150 (Wilson), CPU seconds per decision (one whole turn)
p50 / p99 / max, and the paired difference to the first player (95% t interval).

    PYTHONPATH=src nice -n 10 python benchmarks/fit/farmerama_lookahead.py --deals 40 \\
        --player turn --player look:6 --out run.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import farmtable
from farmtable.agents import Agent, make, parse_spec
from farmtable.arena.stats import mean_ci, wilson
from farmtable.games.farmerama import lookahead, planner
from farmtable.games.farmerama.components import SOLO_GOAL
from farmtable.games.farmerama.rules import FarmeramaState


def turn_line(state: FarmeramaState, seed: int) -> list[str]:
    """The fair turn planner's turn: the outcome with the best plan value (no redraws)."""
    del seed
    outcomes = [(planner.plan_value(c), line) for line, c in planner.turn_outcomes(state) if "redraw" not in line]
    return max(outcomes, key=lambda item: item[0])[1]


def player_of(spec: str) -> Callable[[FarmeramaState, int], list[str]]:
    """The turn chooser named by ``spec`` (``turn`` or ``look:K``); ValueError for another name."""
    if spec == "turn":
        return turn_line
    if spec.startswith("look:"):
        numbers = [int(n) for n in spec.split(":")[1:]]
        keep, redraw = numbers[0], (numbers[1] if len(numbers) > 1 else None)
        return lambda state, seed: lookahead.lookahead_turn(state, seed=seed, keep=keep, redraw_keep=redraw).line
    raise ValueError(f"unknown player {spec!r} (turn, look:K[:R], agent:SPEC)")


def agent_of(spec: str, seed: int) -> Agent:
    """``agent:greedy`` (any registered spec) or ``agent:farmerama-lookahead[:keep=K,time=S]``."""
    text = spec.split(":", 1)[1]
    name, params = parse_spec(text)
    if name == lookahead.LookaheadAgent.name:
        return lookahead.LookaheadAgent(seed=seed, **params)
    return make(text, seed=seed, game="farmerama", players=1)


def play(spec: str, state: FarmeramaState, seed: int, times: list[float]) -> None:
    """Play ``state`` to its end with the player ``spec``, appending each decision's CPU seconds
    (a whole turn for ``turn`` and ``look:K``, one step for an agent) to ``times``."""
    if spec.startswith("agent:"):
        agent = agent_of(spec, seed)
        while not state.is_over():
            start = time.process_time()
            action = agent.act(state, 0)
            times.append(time.process_time() - start)
            state.apply(0, action)
        return
    choose = player_of(spec)
    turn = 0
    while not state.is_over():
        start = time.process_time()
        line = choose(state, seed * 1000 + turn)
        times.append(time.process_time() - start)
        for action in line:
            state.apply(0, action)
        turn += 1


def main() -> None:
    """Command line: play every player on the same deals and print the paired summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="the first deal index (deal i = seed + i)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--player", action="append", default=[], help="turn | look:K (repeatable; first = reference)")
    ap.add_argument("--out", help="write the per-deal stars and decision times as JSON here")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE: a planner or lookahead constant")
    args = ap.parse_args()
    for text in args.set:
        name, _, value = text.partition("=")
        module = planner if hasattr(planner, name) else lookahead
        if not hasattr(module, name):
            raise SystemExit(f"no planner or lookahead constant {name!r}")
        current = getattr(module, name)
        setattr(module, name, int(value) if current is None else type(current)(value))
    specs = args.player or ["turn", f"look:{lookahead.KEEP}"]
    game = farmtable.get_game("farmerama")
    runs: dict[str, dict[str, list[float]]] = {}
    for spec in specs:
        stars: list[float] = []
        times: list[float] = []
        for deal in range(args.first, args.first + args.deals):
            state = game.new_game(players=1, seed=args.seed + deal, variants=tuple(args.variant))
            play(spec, state, args.seed + deal, times)
            stars.append(float(state.result().totals[0]))
        runs[spec] = {"stars": stars, "cpu": times}
        mean, low, high = mean_ci(stars)
        hits = sum(s >= SOLO_GOAL for s in stars)
        lo, hi = wilson(hits, len(stars))
        cpu = sorted(times)
        p99 = cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))]
        line = f"[{spec}] mean {mean:.1f} [{low:.1f}, {high:.1f}] median {statistics.median(stars)}"
        line += f" max {max(stars):.0f}"
        line += f" 150+: {hits}/{len(stars)} [{100 * lo:.1f}, {100 * hi:.1f}]%"
        line += f" cpu/decision p50 {statistics.median(cpu):.3f} p99 {p99:.3f} max {cpu[-1]:.3f}"
        line += f" total {sum(cpu):.0f}s"
        if spec != specs[0]:
            d, dlo, dhi = mean_ci([a - b for a, b in zip(stars, runs[specs[0]]["stars"], strict=True)])
            line += f"  vs {specs[0]} {d:+.2f} [{dlo:+.2f}, {dhi:+.2f}]"
        print(line, flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(runs, handle)


if __name__ == "__main__":
    main()
