"""Where a two-player Farmerama game is won or lost: the evaluation's margin, phase by phase.

Plays the games ``compare.py --players 2`` plays (same game seeds and agent seeds: deal d, seat i
seeded ``d * 7919 + i``), and reads the state's ``evaluate()`` (each player's expected final stars)
at every phase boundary. The change of the first agent's expected margin is credited to the phase
that ran: ``choose+award`` (phase 1 and 2: the cards revealed, shared numbers, the buildings
awarded: from the round's start to the first step of phase 3) and ``act`` (phase 3, carrying out
the cards, to the next round's start); the last step, the evaluation's error at the end, is
``end``. Diagnostic only: the evaluation reads the whole state (no agent does), and the phases'
sums are estimates, not results.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fr_trace.py --seed 2000 --deals 2 \
        --agents "farmerama-duel:time=0.2,temp=0.5" "ismcts:iters=200,depth=5"
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

import farmtable
import farmtable.agents
from farmtable.games.farmerama.rules import ACT, CHOOSE, FarmeramaState


def trace(specs: list[str], deal: int) -> tuple[dict[str, float], list[int]]:
    """Play ``deal`` with ``specs`` (seat order); the change of seat 0's expected margin per phase
    and the final totals."""
    state = farmtable.get_game("farmerama").new_game(players=2, seed=deal)
    assert isinstance(state, FarmeramaState)
    agents = [farmtable.agents.make(s, seed=deal * 7919 + i, game="farmerama", players=2) for i, s in enumerate(specs)]

    def margin() -> float:
        values = state.evaluate()
        return values[0] - values[1]

    credit: dict[str, float] = defaultdict(float)
    last, phase_name = margin(), "choose+award"
    while not state.is_over():
        p = state.actors()[0]
        before = (state.phase, state.round)
        state.apply(p, agents[p].act(state, p))
        now = (state.phase, state.round)
        if state.is_over():
            break
        entered_act = before[0] != ACT and now[0] == ACT
        new_round = now[0] == CHOOSE and before[0] != CHOOSE
        if entered_act or new_round:
            value = margin()
            credit[phase_name] += value - last
            last = value
            phase_name = "act" if entered_act else "choose+award"
    totals = list(state.result().totals)
    credit[phase_name] += margin() - last if not state.is_over() else 0.0
    credit["end"] += (totals[0] - totals[1]) - last
    credit["start"] = 0.0
    return dict(credit), totals


def main() -> None:
    """Print each game's credit per phase from the first agent's side, and the sums."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--agents", nargs=2, required=True)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    total: dict[str, float] = defaultdict(float)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    for deal in range(args.seed, args.seed + args.deals):
        for first in (0, 1):
            specs = list(args.agents) if first == 0 else list(reversed(args.agents))
            credit, totals = trace(specs, deal)
            sign = 1.0 if first == 0 else -1.0  # credit from the first agent's side
            mine = {k: sign * v for k, v in credit.items()}
            for k, v in mine.items():
                total[k] += v
            line = {"deal": deal, "seat": first, "totals": totals, **{k: round(v, 2) for k, v in mine.items()}}
            print(json.dumps(line), flush=True)
            if out:
                out.write(json.dumps(line) + "\n")
    if out:
        out.close()
    print("sum:", {k: round(v, 2) for k, v in total.items()})


if __name__ == "__main__":
    main()
