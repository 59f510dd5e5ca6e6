"""Two-player Farmerama games that also record what the duel player's level models foresaw.

Plays the games ``compare.py --players 2`` plays (deal d = game seed d, each deal from both seats,
agents seeded ``d * 7919 + seat``, the game warmed up untimed, CPU s per decision by
``time.process_time`` around ``act``) and writes them in ``compare.py``'s ``--raw`` format, so
``compare.py --from-raw`` and ``fr_paired.py`` read them. For every seat played by a
``farmerama-duel`` agent with ``adapt=1`` it also writes, to ``--log``, the agent's per-round
``history`` (:meth:`farmtable.games.farmerama.duel.DuelAgent.observe`: the other's revealed pair,
the chance each level's model gave it, the belief after), and every game's evaluation margin
credited to phase 1+2 (cards and awards) and phase 3 (carrying out), as ``fr_trace.py`` does. The
evaluation reads the whole state, so the phase credits are a diagnostic only (no agent sees them).

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fr_adapt.py --seed 2000 --deals 10 \
        --agents "farmerama-duel:time=1.0,temp=0.5,deep=1,level=2,refine=10,adapt=1" \
        "ismcts:iters=200,depth=5" --raw out.jsonl --log log.jsonl
    python benchmarks/ai/fr_adapt.py --summarise log.jsonl
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from typing import Any

import farmtable
import farmtable.agents
from farmtable.agents.base import warm_up
from farmtable.games.farmerama.rules import ACT, CHOOSE, FarmeramaState


def _tables(agent: object) -> list[dict[str, Any]] | None:
    """A duel agent's per-table reports (``DuelAgent.tables``) without the absolute clock readings."""
    tables = getattr(agent, "tables", None)
    if tables is None:
        return None
    return [
        {
            k: ([round(x, 3) for x in v] if k == "spent" else round(v, 3) if isinstance(v, float) else v)
            for k, v in t.items()
            if k != "at"
        }
        for t in tables
    ]


def play(specs: list[str], deal: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play ``deal`` with ``specs`` in seat order: the ``--raw`` line and the log line."""
    state = farmtable.get_game("farmerama").new_game(players=2, seed=deal)
    assert isinstance(state, FarmeramaState)
    agents = [farmtable.agents.make(s, seed=deal * 7919 + i, game="farmerama", players=2) for i, s in enumerate(specs)]
    warm_up(state)
    cpu: list[list[float]] = [[], []]
    credit: dict[str, float] = defaultdict(float)

    def margin() -> float:
        values = state.evaluate()
        return values[0] - values[1]

    last, phase_name = margin(), "choose+award"
    while not state.is_over():
        p = state.actors()[0]
        before = state.phase
        start = time.process_time()
        action = agents[p].act(state, p)
        cpu[p].append(time.process_time() - start)
        state.apply(p, action)
        if state.is_over():
            break
        entered_act = before != ACT and state.phase == ACT
        new_round = state.phase == CHOOSE and before != CHOOSE
        if entered_act or new_round:
            value = margin()
            credit[phase_name] += value - last
            last = value
            phase_name = "act" if entered_act else "choose+award"
    r = state.result()
    credit["end"] += (r.totals[0] - r.totals[1]) - last
    raw = {
        "deal": deal,
        "specs": list(specs),
        "totals": list(r.totals),
        "winners": r.winners,
        "solo_score": r.solo_score,
        "details": dict(r.details),
        "ranking": r.ranking,
        "cpu": cpu,
    }
    log = {
        "deal": deal,
        "specs": list(specs),
        "totals": list(r.totals),
        "credit_seat0": {k: round(v, 2) for k, v in credit.items()},
        "history": [getattr(a, "history", None) for a in agents],
        "tables": [_tables(a) for a in agents],
    }
    return raw, log


def summarise(paths: list[str]) -> None:
    """Print, over the ``--log`` files' rounds, how well each level's model foresaw the other's
    revealed pair (mean chance given to it, share of rounds it was among the level's picks), the
    belief after the game, and the adaptive player's evaluation credit per phase (its side)."""
    chances: dict[int, list[float]] = defaultdict(list)
    final: list[list[float]] = []
    credit: dict[str, list[float]] = defaultdict(list)
    games = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                game = json.loads(line)
                for seat, history in enumerate(game["history"]):
                    if not history:
                        continue
                    games += 1
                    for h in history:
                        for k, c in enumerate(h["chances"]):
                            chances[k].append(c)
                    final.append(history[-1]["belief"])
                    sign = 1.0 if seat == 0 else -1.0
                    for k, v in game["credit_seat0"].items():
                        credit[k].append(sign * v)
    rounds = len(chances[0])
    print(f"{games} games, {rounds} rounds observed")
    for k in sorted(chances):
        got = chances[k]
        line = f"level {k}: mean chance of the revealed pair {sum(got) / len(got):.3f}"
        if k > 0:  # level 0 is a softmax: every pair has some chance
            line += f", among its picks {sum(1 for c in got if c > 0) / len(got):.1%}"
        print(line)
    for k in range(len(final[0]) if final else 0):
        print(f"final belief in level {k}: mean {sum(b[k] for b in final) / len(final):.3f}")
    for phase, v in sorted(credit.items()):
        print(f"credit {phase}: mean {sum(v) / len(v):+.2f} stars a game (the adaptive player's side)")
    summarise_tables(paths)


def summarise_tables(paths: list[str]) -> None:
    """Print, per duel spec and opponent in the ``--log`` files (those that log ``tables``), how its phase-1 tables
    ended: refinement run, stopped by the clock (anywhere: table rows or refinement), stopped with
    no refinement column finished (its work thrown away), and the refinement's columns finished."""
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                game = json.loads(line)
                specs = game["specs"]
                for seat, tables in enumerate(game.get("tables", [None, None])):
                    if tables:
                        per[f"{specs[seat]} (against {specs[1 - seat]})"].extend(tables)
    for spec, tables in per.items():
        n = len(tables)
        refined = [t for t in tables if t.get("refine")]
        stopped = sum(1 for t in tables if t.get("stopped"))
        anytime = "anytime=1" in spec  # otherwise a refinement cut short is thrown away whole
        wasted = sum(
            1 for t in tables if t.get("stopped") and (not anytime or (t.get("done", 0) == 0 and t.get("rows", 0) < 2))
        )
        done = sum(t.get("done", 0) for t in refined)
        planned = sum(t.get("columns", 0) for t in refined)
        print(
            f"{spec}: {n} tables, refined {len(refined)}, stopped by the clock {stopped} ({stopped / n:.1%}), "
            f"refinement thrown away (or never reached) {wasted} ({wasted / n:.1%}); "
            f"columns finished {done} of {planned} planned"
        )


def main() -> None:
    """Play the deals from both seats; append each game to ``--raw`` and ``--log`` as it ends."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--agents", nargs=2)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--raw")
    ap.add_argument("--log")
    ap.add_argument("--summarise", nargs="+", metavar="LOG", help="play nothing: summarise these --log files")
    args = ap.parse_args()
    if args.summarise:
        summarise(args.summarise)
        return
    if not (args.agents and args.raw and args.log):
        ap.error("--agents, --raw and --log are needed to play")
    with open(args.raw, "a", encoding="utf-8") as raw, open(args.log, "a", encoding="utf-8") as log:
        for deal in range(args.seed, args.seed + args.deals):
            for specs in (list(args.agents), list(reversed(args.agents))):
                game, notes = play(specs, deal)
                raw.write(json.dumps(game) + "\n")
                raw.flush()
                log.write(json.dumps(notes) + "\n")
                log.flush()
                print(deal, specs[0][:40], game["totals"], flush=True)


if __name__ == "__main__":
    main()
