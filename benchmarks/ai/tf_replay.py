"""Record or check every decision of a Tiny Farms agent on fixed deals (solo, or two players with
``--opponent``); optionally profile it.

A spec without ``time=`` replays exactly, so two trees (or two settings) that must make the same
decisions can be compared choice by choice: record the decisions of one, then check the other
against the file. Also reports the CPU seconds per decision (``time.process_time``).

Usage (from the repository root, ``PYTHONPATH=src``)::

    # record the decisions of a tree on deals 1000-1002 (game seed = deal), Emma easy
    nice -n 10 python benchmarks/ai/tf_replay.py --spec "tiny-farms-expectimax:keep=4" \\
        --variant emma-easy --seed 1000 --deals 3 --record /tmp/tf8/base_keep4.jsonl
    # check another tree (or setting) against it: every decision must be the same
    nice -n 10 python benchmarks/ai/tf_replay.py --spec "tiny-farms-expectimax:keep=4" \\
        --variant emma-easy --seed 1000 --deals 3 --check /tmp/tf8/base_keep4.jsonl
    # where the CPU goes (cProfile, the 25 heaviest functions by own time)
    nice -n 10 python benchmarks/ai/tf_replay.py --spec "tiny-farms-expectimax:keep=4" --deals 1 --profile

The agent is seeded as ``compare.py`` seeds it (``(seed + deal) * 7919``), so a recorded game is
the game ``compare.py`` plays with the same spec, seed and variant (without ``time=``).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from typing import Any

import farmtable
import farmtable.agents


def play_decisions(spec: str, variant: str, deal: int, opponent: str | None = None) -> dict[str, Any]:
    """Play one deal (game seed ``deal``): solo, or with ``opponent`` two players (``spec`` in seat
    ``deal % 2``); its decisions (every player's), final margin of ``spec``'s seat and CPU s per
    decision of ``spec``."""
    from farmtable.agents.base import warm_up

    players = 1 if opponent is None else 2
    variants = (variant,) if variant and players == 1 else ()
    state = farmtable.get_game("tiny-farms").new_game(players=players, seed=deal, variants=variants)
    agent = farmtable.agents.make(spec, seed=deal * 7919, game="tiny-farms", players=players)
    seat = deal % 2 if players == 2 else 0
    seats = {seat: agent}
    if opponent is not None:
        seats[1 - seat] = farmtable.agents.make(opponent, seed=deal * 7919 + 1, game="tiny-farms", players=2)
    warm_up(state)
    actions: list[str] = []
    cpu: list[float] = []
    while not state.is_over():
        player = state.actors()[0]
        start = time.process_time()
        action = seats[player].act(state, player)
        if player == seat:
            cpu.append(time.process_time() - start)
        actions.append(str(action))
        state.apply(player, action)
    result = state.result()
    score = result.solo_score if players == 1 else result.totals[seat] - result.totals[1 - seat]
    return {"deal": deal, "spec": spec, "variant": variant, "actions": actions, "margin": score, "cpu": cpu}


def main(argv: list[str] | None = None) -> int:
    """Record, check or profile the decisions; exit status 1 if a checked decision differs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", required=True, help="agent spec (without time= to replay exactly)")
    parser.add_argument("--variant", default="emma-easy")
    parser.add_argument("--seed", type=int, default=1000, help="first deal (game seed)")
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--record", help="write the decisions to this JSON-lines file")
    parser.add_argument("--check", help="compare the decisions with this recorded file")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    parser.add_argument("--opponent", help="two players: this spec in the other seat (the variant is ignored)")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=JSON")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    if "time=" in args.spec:
        print("warning: a time= budget does not replay exactly", file=sys.stderr)
    for item in args.set:
        import importlib

        target, _, value = item.partition("=")
        module_name, _, attr = target.rpartition(".")
        setattr(importlib.import_module(module_name), attr, json.loads(value))
    expected: dict[int, dict[str, Any]] = {}
    if args.check:
        with open(args.check, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    game = json.loads(line)
                    expected[game["deal"]] = game
    profiler = cProfile.Profile() if args.profile else None
    out = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115
    differ = 0
    cpu_all: list[float] = []
    for deal in range(args.seed, args.seed + args.deals):
        if profiler is not None:
            profiler.enable()
        game = play_decisions(args.spec, args.variant, deal, args.opponent)
        if profiler is not None:
            profiler.disable()
        cpu_all += game["cpu"]
        decisions = len(game["actions"])
        line = f"deal {deal}: margin {game['margin']:+d}, {decisions} decisions, CPU {sum(game['cpu']):.1f} s"
        if out is not None:
            out.write(json.dumps(game) + "\n")
            out.flush()
        if args.check:
            if deal not in expected:
                line += " (not in the checked file)"
            else:
                want = expected[deal]["actions"]
                same = sum(1 for a, b in zip(game["actions"], want, strict=False) if a == b)
                first = next((i for i, (a, b) in enumerate(zip(game["actions"], want, strict=False)) if a != b), None)
                if first is None and len(want) == len(game["actions"]):
                    line += f"; all {len(want)} decisions the same (recorded CPU {sum(expected[deal]['cpu']):.1f} s)"
                else:
                    differ += 1
                    line += f"; DIFFERENT from decision {first} ({same} of {len(want)} equal)"
        print(line, flush=True)
    cpu_all.sort()
    print(
        f"CPU s/decision p50 {statistics.median(cpu_all):.3f} p99 {cpu_all[int(0.99 * (len(cpu_all) - 1))]:.3f} "
        f"max {cpu_all[-1]:.3f}; total {sum(cpu_all):.1f}"
    )
    if out is not None:
        out.close()
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
