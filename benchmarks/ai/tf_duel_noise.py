"""How noisy is a 2-player Tiny Farms decision? The same positions searched with several seeds.

Positions: every ``--every``-th decision of greedy-vs-greedy games on deals ``--seed ..``. Each
agent spec decides each position once per seed (seeds 0..``--seeds``-1); the report lists, per
spec, how many distinct actions the seeds chose (1 = no noise) and how often the majority choice
agrees with each other spec's, plus CPU s per decision and the mean regret of the choices as the
duel player judges them (its best value minus the value of the action chosen, in points).
``--show`` prints, for each position where the first spec's seeds disagree, the choices with
their counts and the duel player's value of each (``duel.choose``: the player's expected total
minus the rival's after the turn, the rival's reply and the next roll).

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tf_duel_noise.py --deals 2 --every 6 --seeds 6 \
        --specs "mcts:iters=50" "mcts:iters=200" "mcts:iters=800" "tiny-farms-duel"
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from typing import Any

import farmtable
import farmtable.agents as agents
from farmtable.agents.base import warm_up


def positions(deals: int, seed: int, every: int) -> list[Any]:
    """Every ``every``-th decision position of greedy self-play on deals ``seed .. seed + deals - 1``."""
    out = []
    for deal in range(deals):
        state = farmtable.get_game("tiny-farms").new_game(players=2, seed=seed + deal)
        players = [agents.make("greedy", seed=deal), agents.make("greedy", seed=deal + 100)]
        k = 0
        while not state.is_over():
            p = state.actors()[0]
            if len(state.legal_actions(p)) > 1:
                if k % every == 0:
                    out.append(state.clone())
                k += 1
            state.apply(p, players[p].act(state, p))
    return out


def show(n: int, state: Any, counts: Counter[str]) -> None:
    """One position where the seeds disagree: the choices, their counts and the duel's values."""
    from farmtable.games.tiny_farms import duel

    values = duel.choose(state.clone()).values
    best = max(values.values())
    told = ", ".join(f"{a!r} x{k} ({values.get(a, float('nan')) - best:+.2f})" for a, k in counts.most_common())
    top = max(values, key=values.__getitem__)
    print(f"  position {n} (round {state.round}, {state.phase}, dice {state.dice}): {told}; duel's best {top!r}")


def main() -> None:
    """Decide each position with each spec and seed; print the spread of choices."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--specs", nargs="+", required=True)
    parser.add_argument("--show", action="store_true", help="print the first spec's disagreements")
    args = parser.parse_args()
    found = positions(args.deals, args.seed, args.every)
    warm_up(found[0])
    from farmtable.games.tiny_farms import duel

    judged = [duel.choose(state.clone()).values for state in found]
    majority: dict[str, list[str]] = {}
    for spec in args.specs:
        distinct, cpu, majors, regret = [], [], [], []
        for n, state in enumerate(found):
            p = state.actors()[0]
            picks = []
            for s in range(args.seeds):
                agent = agents.make(spec, seed=s, game="tiny-farms", players=2)
                t = time.process_time()
                picks.append(agent.act(state.clone(), p))
                cpu.append(time.process_time() - t)
            counts = Counter(picks)
            best = max(judged[n].values())
            regret += [best - judged[n][pick] for pick in picks]
            if args.show and spec == args.specs[0] and len(counts) > 1:
                show(n, state, counts)
            distinct.append(len(counts))
            majors.append(counts.most_common(1)[0][0])
        majority[spec] = majors
        same = sum(1 for d in distinct if d == 1)
        print(
            f"{spec:40s} positions {len(found)}  distinct choices mean {statistics.mean(distinct):.2f} "
            f"max {max(distinct)}  all seeds agree {same}/{len(found)}  CPU s p50 {statistics.median(cpu):.3f}  "
            f"duel-judged regret mean {statistics.mean(regret):.3f} (choices with regret > 0.5: "
            f"{sum(1 for r in regret if r > 0.5)}/{len(regret)})"
        )
    names = list(majority)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            agree = sum(1 for x, y in zip(majority[a], majority[b], strict=True) if x == y)
            print(f"majority choice agrees: {a} / {b}: {agree}/{len(found)}")


if __name__ == "__main__":
    main()
