"""Farmini, 2 players: where greedy's take differs from the duel player's, and why.

Plays greedy (Easy) against greedy on fixed deals. At every take decision (either seat) it rates
each face-up card the way ``farmini-duel`` does (``time`` off, ``--worlds`` sampled worlds, the
same worlds for every card) and prints the decisions where the duel's card is not greedy's: the
table, both cards, each card's mean margin against the other's greedy reply, and what the other
then took in the first sampled world. At the end: how often they differ and the mean gain in
rated margin (the duel's card minus greedy's, same worlds). CPU seconds are ``process_time``.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_duel_diag.py --deals 2 --seed 2000 --worlds 24
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import farmtable
from farmtable.agents import make
from farmtable.games.farmini.duel import DuelAgent, finish_turn, greedy_take
from farmtable.games.farmini.render import card_text
from farmtable.games.farmini.rules import FarminiState, Take


def _reply(world: FarminiState, me: int, take: Take) -> str:
    """What the other takes after ``me`` takes ``take`` in ``world`` and finishes its turn."""
    sim = world.clone()
    sim.apply(me, take)
    finish_turn(sim, me)
    if sim.is_over():
        return "game over"
    table = list(sim.table)
    greedy_take(sim, 1 - me)
    return f"other takes {sim.pending or '(discard)'} from {table}; events: {'; '.join(sim.events) or '-'}"


def main() -> None:
    """Print the differing decisions and the summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--worlds", type=int, default=24)
    ap.add_argument("--plies", type=int, default=1)
    args = ap.parse_args()
    game = farmtable.get_game("farmini")
    takes = differ = 0
    gains: list[float] = []
    cpu: list[float] = []
    for deal in range(args.deals):
        state = game.new_game(players=2, seed=args.seed + deal)
        players = [make("greedy", seed=deal * 2 + i) for i in range(2)]
        while not state.is_over():
            p = state.actors()[0]
            legal = state.legal_actions(p)
            action = players[p].act(state, p)
            if len(legal) > 1 and isinstance(legal[0], Take):
                duel = DuelAgent(seed=deal * 100 + state.turn, time=None, worlds=args.worlds, plies=args.plies)
                start = time.process_time()
                pick = duel.act(state, p)
                cpu.append(time.process_time() - start)
                takes += 1
                rated = duel.last_rated
                if pick != action and rated:
                    differ += 1
                    gains.append(rated[pick] - rated[action])
                    world = state.determinize(p, random.Random(7))
                    print(f"deal {args.seed + deal} turn {state.turn} seat {p}: scores {state.result().totals}")
                    for slot, cid in enumerate(state.table, 1):
                        mark = " <- greedy" if Take(slot) == action else (" <- duel" if Take(slot) == pick else "")
                        value = rated.get(Take(slot))
                        shown = "-" if value is None else f"{value:+.2f}"
                        print(f"  {slot}. {card_text(cid, state.faces):70s} margin {shown}{mark}")
                    print(f"  farmyard {state.farmyard}; deck {len(state.deck)} cards")
                    print(f"  after greedy's card: {_reply(world, p, action)}")
                    print(f"  after duel's card:   {_reply(world, p, pick)}")
            state.apply(p, action)
        print(f"deal {args.seed + deal}: final {state.result().totals}")
    print(f"take decisions {takes}; duel differs from greedy in {differ}")
    if gains:
        print(f"rated margin gain where they differ: mean {statistics.fmean(gains):+.2f}, min {min(gains):+.2f}")
    if cpu:
        print(
            f"duel CPU s/decision (time off, {args.worlds} worlds): p50 {statistics.median(cpu):.3f} max {max(cpu):.3f}"
        )


if __name__ == "__main__":
    main()
