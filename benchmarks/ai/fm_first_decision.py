"""Why a game's first take decision of the many-world player runs over its budget: a probe.

Plays deal ``--warm`` in full (the duel against ``--opponent``, as compare.py would, one process),
then the first ``--decisions`` take decisions of the duel in deal ``--deal`` (new agents, the same
process: the heap the first game left), and prints per take decision its CPU seconds, the reserve it
kept for its collection (:meth:`DuelAgent._collect_reserve`), the collection's own CPU seconds and the
worlds rated. No assertion; CPU by ``time.process_time``::

    PYTHONPATH=src python benchmarks/ai/fm_first_decision.py --spec "farmini-duel:time=1.0,playout=4"
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import farmtable
import farmtable.agents
from farmtable.agents.base import warm_up
from farmtable.games.farmini import duel
from farmtable.games.farmini.rules import Take


def play(spec: str, opponent: str, deal: int, seat: int, decisions: int | None) -> None:
    """Play ``deal`` with the duel in ``seat``; print its take decisions (all, or the first ``decisions``)."""
    game = farmtable.get_game("farmini")
    state: Any = game.new_game(players=2, seed=deal, variants=())
    specs = [opponent, opponent]
    specs[seat] = spec
    agents = [farmtable.agents.make(s, seed=deal * 7919 + i, game="farmini", players=2) for i, s in enumerate(specs)]
    warm_up(state)
    seen = 0
    while not state.is_over():
        p = state.actors()[0]
        take = p == seat and isinstance(state.legal_actions(p)[0], Take) and len(state.legal_actions(p)) > 1
        reserve = agents[p]._collect_reserve()[0] if take else 0.0
        start = time.process_time()
        action = agents[p].act(state, p)
        spent = time.process_time() - start
        if take:
            seen += 1
            if decisions is None or seen <= decisions:
                a = agents[p]
                collected = a.last_collect if a.last_collect is not None else float("nan")
                print(
                    f"deal {deal} take {seen:2d}: {spent:.3f} CPU s, reserve {reserve:.3f}, "
                    f"collection {collected:.3f}, worlds {a.last_worlds}"
                )
            elif decisions is not None:
                return
        state.apply(p, action)


def main() -> None:
    """Parse the arguments and run the probe."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="farmini-duel:time=1.0,playout=4")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--warm", type=int, default=2000, help="deal played in full first")
    ap.add_argument("--deal", type=int, default=2001, help="deal whose first take decisions are printed")
    ap.add_argument("--decisions", type=int, default=3)
    args = ap.parse_args()
    play(args.spec, args.opponent, args.warm, 0, None)
    print(f"measured before deal {args.deal}: {duel.MEASURED}")
    play(args.spec, args.opponent, args.deal, 0, args.decisions)


if __name__ == "__main__":
    main()
