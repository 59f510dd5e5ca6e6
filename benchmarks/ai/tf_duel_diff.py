"""How often do settings of the 2-player Tiny Farms duel player choose differently, and where?

Plays seeded 2-player games with the duel player (``duel.choose`` without a budget, default
settings) in both seats, and at every ``--every``-th decision asks each setting for its choice
(``duel.choose`` with the setting's keyword arguments; no budget unless the setting names one,
e.g. ``budget=0.5``, Hard's cap: then the choice depends on the CPU clock). Prints,
per setting, the decisions that differ from the default's, by the game's round (early 1-4,
middle 5-7, late 8-10), and the CPU seconds per decision (p50 / max). A setting that almost never
chooses differently cannot be told apart from the default in a few dozen games.

Usage (from the repository root)::

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tf_duel_diff.py --games 2 --seed 2000 --every 2 \\
        --setting objective=win --setting depth=2 --setting milk=2
    PYTHONPATH=src nice -n 10 python benchmarks/ai/tf_duel_diff.py --games 2 --seed 2000 --every 2 --setting budget=0.5
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import farmtable
from farmtable.games.tiny_farms import duel
from farmtable.games.tiny_farms.rules import TinyFarmsState

PHASES = (("early 1-4", range(1, 5)), ("middle 5-7", range(5, 8)), ("late 8-10", range(8, 11)))


def parse_setting(text: str) -> dict[str, Any]:
    """``objective=win,depth=2`` -> keyword arguments of :func:`duel.choose` (values read as JSON, else text)."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or key not in {"keep", "milk", "depth", "objective", "budget", "reply", "spread"}:
            raise SystemExit(
                f"bad setting {item!r}: use keep=, milk=, depth=, objective=, reply=, spread= or budget= (CPU s)"
            )
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def main(argv: list[str] | None = None) -> int:
    """Print how often each setting differs from the default, by phase of the game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--every", type=int, default=2, help="ask at every N-th decision")
    parser.add_argument("--setting", action="append", required=True, help="keyword settings, e.g. objective=win")
    args = parser.parse_args(argv)
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be at least 1")
    settings = {text: parse_setting(text) for text in args.setting}
    differ: dict[str, dict[str, list[int]]] = {t: {name: [0, 0] for name, _ in PHASES} for t in settings}
    cpu: dict[str, list[float]] = {t: [] for t in ("default", *settings)}
    for g in range(args.games):
        state = farmtable.get_game("tiny-farms").new_game(players=2, seed=args.seed + g)
        assert isinstance(state, TinyFarmsState)
        decision = 0
        while not state.is_over():
            who = state.current
            legal = state.legal_actions(who)
            start = time.process_time()
            base = duel.choose(state.clone()).action if len(legal) > 1 else legal[0]
            cpu["default"].append(time.process_time() - start)
            if len(legal) > 1 and decision % args.every == 0:
                phase = next(name for name, rounds in PHASES if state.round in rounds)
                for text, kwargs in settings.items():
                    start = time.process_time()
                    other = duel.choose(state.clone(), **kwargs).action
                    cpu[text].append(time.process_time() - start)
                    differ[text][phase][0] += other != base
                    differ[text][phase][1] += 1
            decision += len(legal) > 1
            state.apply(who, base)
        print(f"game {args.seed + g}: totals {state.result().totals}", flush=True)
    print("| setting | " + " | ".join(f"differs {name}" for name, _ in PHASES) + " | all | CPU s p50 / max |")
    print("|---|" + "---|" * (len(PHASES) + 2))
    for text in settings:
        cells = [f"{d} of {n}" for d, n in differ[text].values()]
        total_d = sum(d for d, _ in differ[text].values())
        total_n = sum(n for _, n in differ[text].values())
        times = sorted(cpu[text])
        print(
            f"| `{text}` | " + " | ".join(cells) + f" | {total_d} of {total_n} | "
            f"{statistics.median(times):.3f} / {times[-1]:.3f} |"
        )
    times = sorted(cpu["default"])
    print(f"default: CPU s p50 {statistics.median(times):.3f} max {times[-1]:.3f} over {len(times)} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
