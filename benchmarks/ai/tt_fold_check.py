"""Tiny Towns: print a few seeded decisions of the rollout players, to show that a refactor left them alone.

With a budget no decision reaches (``time=1000``) the rollout players are pure functions of their seed
and the position, so two code versions that print the same lines decide alike. Session 11 folded the
parameter checks of ``duel.py`` into ``rollout.py``; the check was (the code before it, commit
``e37e50a``, from ``git archive``; outputs in ``benchmarks/ai/out/s11/tt11/fold-*.txt``)::

    git archive e37e50a src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python benchmarks/ai/tt_fold_check.py > /tmp/before.txt
    PYTHONPATH=src python benchmarks/ai/tt_fold_check.py > /tmp/after.txt
    diff /tmp/before.txt /tmp/after.txt && echo same
"""

from __future__ import annotations

import argparse

import farmtable
import farmtable.agents


def decisions(spec: str, players: int, seed: int, count: int) -> list[str]:
    """The first ``count`` decisions with a choice of ``spec`` in every seat of game ``seed``, with what
    the agent's last search saw, one line each."""
    state = farmtable.get_game("tiny-towns").new_game(players=players, seed=seed)
    agents = [farmtable.agents.make(spec, seed=seed + p) for p in range(players)]
    lines: list[str] = []
    while not state.is_over() and len(lines) < count:
        player = state.actors()[0]
        many = len(state.legal_actions(player)) > 1
        action = agents[player].act(state, player)
        if many:
            last = getattr(agents[player], "last", {})
            lines.append(f"{spec} seat {player} round {state.round} {state.phase}: {action} {sorted(last.items())}")
        state.apply(player, action)
    return lines


def main() -> None:
    """Print the decisions of the solo rollout player and the 2-player duel (rival and own-town modes)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--count", type=int, default=8)
    args = ap.parse_args()
    runs = [
        ("tiny-towns-rollout:time=1000,k=2,worlds=1", 1),
        ("tiny-towns-duel:time=1000,k=2,worlds=1,rival=1,names=0", 2),
        ("tiny-towns-duel:time=1000,k=2,worlds=2", 2),
    ]
    for spec, players in runs:
        for line in decisions(spec, players, args.seed, args.count):
            print(line)


if __name__ == "__main__":
    main()
