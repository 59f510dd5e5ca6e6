"""Where a 2-player Tiny Towns duel agent spends its budget: one game against Easy, per stretch of 8 rounds.

For every decision the agent searched (``DuelAgent.last`` set): the worlds finished, the candidates rated,
and whether it played another move than the first candidate (greedy's one-step choice). The agent sits
in seat 0, Easy (greedy, seed 1) in seat 1; deal = game seed.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tt_duel_probe.py "tiny-towns-duel:time=0.2,k=4,worlds=4,rival=1" 2010
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import farmtable
import farmtable.agents
from farmtable.games.tiny_towns.duel import DuelAgent


def probe(spec: str, seed: int) -> str:
    """Play one game and describe the agent's searches by stretch of 8 rounds, as text."""
    game = farmtable.get_game("tiny-towns")
    state = game.new_game(players=2, seed=seed)
    agent = farmtable.agents.make(spec, seed=seed, game="tiny-towns", players=2)
    if not isinstance(agent, DuelAgent):
        raise SystemExit(f"tt_duel_probe: {spec!r} is not a tiny-towns-duel spec")
    easy = farmtable.agents.make("greedy", seed=1, game="tiny-towns", players=2)
    rows: list[tuple[int, int, int, int]] = []
    while not state.is_over():
        p = state.actors()[0]
        rnd = getattr(state, "round", 0)
        if p == 0:
            agent.last = {}
            action = agent.act(state, 0)
            if agent.last:
                rows.append((rnd, agent.last["worlds"], agent.last["rated"], agent.last["chosen"]))
        else:
            action = easy.act(state, 1)
        state.apply(p, action)
    result = state.result()
    lines = [
        f"{spec} deal {seed}: totals {result.totals}, winners {result.winners}, "
        f"complete in rounds {result.details['completed_round']}"
    ]
    by: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for rnd, worlds, rated, chosen in rows:
        by[rnd // 8].append((worlds, rated, chosen))
    for stretch, found in sorted(by.items()):
        n = len(found)
        lines.append(
            f"  rounds {8 * stretch}-{8 * stretch + 7}: {n} searches, worlds {sum(w for w, _, _ in found) / n:.2f}, "
            f"rated {sum(r for _, r, _ in found) / n:.2f}, not the first candidate {sum(1 for *_, c in found if c)}"
        )
    return "\n".join(lines)


def main() -> None:
    """Command line: ``SPEC SEED``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("seed", type=int)
    args = ap.parse_args()
    print(probe(args.spec, args.seed))


if __name__ == "__main__":
    main()
