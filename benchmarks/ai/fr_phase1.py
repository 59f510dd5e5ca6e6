"""Phase 1 of two-player Farmerama alone: how card-pair strategies fare against real opponents' pairs.

Plays ``--deals`` two-player games (``--mover`` in both seats, no time cap, deal i = game seed
``--seed + i``) and keeps every round's start (phase 1, no card chosen). At each kept position the
opponent agent(s) (``--opponent``, repeatable; seeded by deal and round) choose their pair as player
1 (player 0 has not chosen: its cards would be hidden from them anyway), and the duel player's table
(player 0's expected final margin for each of its pairs against each of player 1's, ``duel.payoff``)
rates what each phase-1 strategy of player 0 would get against the pair the opponent actually
chose: the expected margin of the strategy's pair (a mixed strategy: its expectation).

Strategies: ``model`` (the duel's best answer to its softmax model, temp 0.5: today's Normal),
``deep`` (the same with ``deep=1``: the session-9 Hard), ``nash`` (the table's maximin mixed
strategy), ``eq=s`` (the best answer to the model mixed with weight s with the other's minimax
strategy), ``alone`` (the pair best played alone: greedy-like), ``oracle`` (the best answer to the
pair actually chosen: an upper bound). Paired differences against ``model`` over the same
positions (normal 95%, ``farmtable.arena.stats.mean_ci``). The measure is the evaluation's margin
after the round, not a game result: it screens phase-1 strategies cheaply before games are played.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fr_phase1.py --deals 10 --seed 2000 \
        --opponent "ismcts:iters=200,depth=5" --opponent normal --opponent greedy
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations

import farmtable
import farmtable.agents
from farmtable.agents.levels import is_level, level_spec
from farmtable.arena.stats import mean_ci
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.equilibrium import equilibrium
from farmtable.games.farmerama.rules import CHOOSE, FarmeramaState

PAIRS: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))
EQ_SHARES = (0.25, 0.5, 1.0)


def positions(deals: int, seed: int, mover: str) -> list[tuple[int, FarmeramaState]]:
    """(deal, position) at every round's start of ``deals`` games played by ``mover`` in both seats."""
    found: list[tuple[int, FarmeramaState]] = []
    for i in range(deals):
        deal = seed + i
        state = farmtable.get_game("farmerama").new_game(players=2, seed=deal)
        assert isinstance(state, FarmeramaState)
        agents = [farmtable.agents.make(mover, seed=deal * 10 + p) for p in range(2)]
        while not state.is_over():
            if state.phase == CHOOSE and not any(b.cards for b in state.boards):
                found.append((deal, state.clone()))
            p = state.actors()[0]
            state.apply(p, agents[p].act(state, p))
    return found


def opponent_pair(state: FarmeramaState, spec: str, seed: int) -> tuple[tuple[int, ...], list[float]]:
    """The pair ``spec`` chooses as player 1 at ``state`` and the CPU seconds of its two decisions."""
    agent = farmtable.agents.make(level_spec(spec, "farmerama", 2) if is_level(spec) else spec, seed=seed)
    sim = state.clone()
    cpu = []
    for _ in range(2):
        start = time.process_time()
        action = agent.act(sim, 1)
        cpu.append(time.process_time() - start)
        sim.apply(1, action)
    return tuple(sorted(sim.boards[1].cards)), cpu


def strategies(state: FarmeramaState) -> tuple[dict[str, list[float]], list[list[float]]]:
    """Player 0's phase-1 strategies at ``state`` (name -> a distribution over PAIRS) and its table."""
    base = duel._base(state.clone(), 1)
    table = [[duel.payoff(base, 0, mine, theirs) for theirs in PAIRS] for mine in PAIRS]
    x, y, _ = equilibrium(table)

    def pure(pair: tuple[int, ...] | None) -> list[float]:
        assert pair is not None
        return [1.0 if q == pair else 0.0 for q in PAIRS]

    out = {
        "model": pure(duel.choose_pair(state.clone(), 0, temp=0.5)),
        "deep": pure(duel.choose_pair(state.clone(), 0, temp=0.5, deep=1.0)),
        "nash": [float(v) for v in x],
        "alone": pure(max(PAIRS, key=lambda q: duel.pair_value(base, 0, q))),
    }
    model = duel.opponent_model(base, 1, 0.5)
    for share in EQ_SHARES:
        mixed = [(1 - share) * w + share * y[j] for j, (_, w) in enumerate(model)]
        best = max(range(len(PAIRS)), key=lambda i: sum(m * table[i][j] for j, m in enumerate(mixed)))
        out[f"eq={share:g}"] = pure(PAIRS[best])
    return out, table


def main() -> None:
    """Print, per opponent, each strategy's mean margin against the opponent's actual pairs."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--mover", default="farmerama-duel:temp=0.5", help="the agent that plays the games")
    ap.add_argument("--opponent", action="append", required=True)
    ap.add_argument("--out", default=None, help="write every position's rows as JSON lines")
    args = ap.parse_args()
    spots = positions(args.deals, args.seed, args.mover)
    print(f"{len(spots)} positions from deals {args.seed}-{args.seed + args.deals - 1}")
    results: dict[str, dict[str, list[float]]] = {spec: {} for spec in args.opponent}
    hits: dict[str, list[float]] = {spec: [] for spec in args.opponent}
    cpus: dict[str, list[float]] = {spec: [] for spec in args.opponent}
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    for n, (deal, state) in enumerate(spots):
        plays, table = strategies(state)
        model = dict(duel.opponent_model(duel._base(state.clone(), 1), 1, 0.5))
        for spec in args.opponent:
            pair, cpu = opponent_pair(state, spec, seed=deal * 100 + state.round)
            cpus[spec].extend(cpu)
            j = PAIRS.index(pair)
            hits[spec].append(model[pair])
            row = {name: sum(p * table[i][j] for i, p in enumerate(dist)) for name, dist in plays.items()}
            row["oracle"] = max(table[i][j] for i in range(len(PAIRS)))
            for name, value in row.items():
                results[spec].setdefault(name, []).append(value)
            if out:
                line = {"deal": deal, "round": state.round, "opponent": spec, "pair": pair, **row}
                out.write(json.dumps(line) + "\n")
        if (n + 1) % 20 == 0:
            print(f"  {n + 1} positions", flush=True)
    if out:
        out.close()
    for spec in args.opponent:
        rows = results[spec]
        print(
            f"\nopponent {spec}: {len(rows['model'])} positions; model's chance of the actual pair "
            f"mean {sum(hits[spec]) / len(hits[spec]):.3f}; CPU s/decision max {max(cpus[spec]):.3f}"
        )
        for name, values in rows.items():
            mean, lo, hi = mean_ci(values)
            diff = [v - m for v, m in zip(values, rows["model"], strict=True)]
            dm, dlo, dhi = mean_ci(diff)
            print(f"  {name:8s} margin {mean:+7.2f} [{lo:+.2f}, {hi:+.2f}]", end="")
            print(f"   vs model {dm:+6.2f} [{dlo:+.2f}, {dhi:+.2f}]")


if __name__ == "__main__":
    main()
