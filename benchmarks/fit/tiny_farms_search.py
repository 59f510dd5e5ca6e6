"""Where a Tiny Farms solo search leaves greedy's move, and whether it was right to (one deal, printed).

Plays one solo deal the way ``benchmarks/ai/compare.py`` does (game seed ``seed + deal``, the agent
seeded ``(seed + deal) * 7919``) with a search agent (``mcts:...``), and at every decision with a
choice asks what greedy (Easy) would have played there: the move the evaluation rates best one move
ahead. Where the two differ it prints the round and phase, both moves with the evaluation's estimate
after them (the final margin over Emma), the search's visits and mean reward, and, with
``--rollouts R``, each move's value when greedy plays the rest of the game from it, averaged over
``R`` futures (the same ``R`` dice sequences for both moves: common random numbers, so the difference
is paired). At the end: the final margin, how many decisions differed, the evaluation's total
"regret" of the search's moves (estimate after greedy's move minus after the search's), and the
paired rollout difference summed over the differing decisions (positive: the search's deviations
were worth it under greedy play).

    PYTHONPATH=src nice -n 10 python benchmarks/fit/tiny_farms_search.py --variant emma-hard \
        --deal 3 --spec normal --rollouts 8
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

import farmtable
import farmtable.agents
from farmtable.agents.greedy import greedy_choice
from farmtable.agents.mcts import MctsAgent
from farmtable.games.tiny_farms.evaluation import evaluate


def rollout_value(state: Any, action: str, seeds: list[int]) -> list[float]:
    """The final margin after ``action`` with greedy playing on, one per future (``seeds`` fix the dice)."""
    out = []
    for s in seeds:
        world = state.determinize(0, random.Random(s))
        world.apply(0, action)
        rng = random.Random(s)
        while not world.is_over():
            legal = world.legal_actions(0)
            world.apply(0, legal[0] if len(legal) == 1 else legal[greedy_choice(world, 0, rng)])
        out.append(float(world.result().solo_score))
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the deal and print where the search and greedy part ways."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="emma-easy")
    ap.add_argument("--deal", type=int, required=True, help="deal number (game seed = seed + deal)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--spec", default="normal", help="the search agent (a level name or an mcts spec)")
    ap.add_argument("--rollouts", type=int, default=0, help="greedy playouts per differing move (0: none)")
    args = ap.parse_args(argv)
    game = farmtable.get_game("tiny-farms")
    state = game.new_game(players=1, seed=args.seed + args.deal, variants=(args.variant,))
    agent = farmtable.agents.make(args.spec, seed=(args.seed + args.deal) * 7919, game="tiny-farms", players=1)
    if not isinstance(agent, MctsAgent):
        raise SystemExit(f"--spec must be an mcts search, got {args.spec!r}")
    differ = 0
    regret = 0.0
    paired: list[float] = []
    decisions = 0
    while not state.is_over():
        legal = state.legal_actions(0)
        if len(legal) == 1:
            state.apply(0, legal[0])
            continue
        decisions += 1
        after = {}
        for a in legal:
            child = state.clone()
            child.apply(0, a)
            after[str(a)] = evaluate(child)[0]
        greedy = max(after, key=lambda k: after[k])
        stats = agent.analyze(state, 0)
        chosen = stats[0].notation
        if chosen != greedy and after[chosen] < after[greedy]:
            differ += 1
            regret += after[greedy] - after[chosen]
            by = {s.notation: s for s in stats}
            line = (
                f"round {state.round} {state.phase:5} ({agent.last_iterations} iters): search {chosen!r} "
                f"est {after[chosen]:+.2f} visits {by[chosen].visits} value {by[chosen].value:.3f} | greedy "
                f"{greedy!r} est {after[greedy]:+.2f} visits {by[greedy].visits} value {by[greedy].value:.3f}"
            )
            if args.rollouts:
                seeds = [args.seed * 100_003 + args.deal * 1009 + decisions * 31 + r for r in range(args.rollouts)]
                mine = rollout_value(state, chosen, seeds)
                theirs = rollout_value(state, greedy, seeds)
                d = [m - t for m, t in zip(mine, theirs, strict=True)]
                paired.append(statistics.fmean(d))
                line += f" | greedy playouts search−greedy {statistics.fmean(d):+.2f}"
            print(line)
        state.apply(0, chosen)
    r = state.result()
    print(
        f"deal {args.deal} {args.variant} {args.spec}: margin {r.solo_score:+d} ({r.details.get('outcome')}); "
        f"{differ} of {decisions} decisions left greedy's move; evaluation regret {regret:.2f}"
        + (f"; playouts, search − greedy, summed {sum(paired):+.2f}" if paired else "")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
