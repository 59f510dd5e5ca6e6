"""The board pictures of one position for every seat, before vs after, side by side in one run: how much of
a decision's drawing the seats share.

After every decision of seeded two-player games of the five games (the same random decisions on both
sides), each side draws the picture of seat 0, seat 1 and a spectator, in that order, as a server does for
the updates of one position; each picture's CPU time (``time.process_time``) is booked by the seat's role:
``actor`` (it has legal moves: its clickable parts), ``waiting`` (a seat without a decision now) and
``spectator``. Pictures are drawn from each side's own views with each side's own renderers, in a fresh child
process per side and round (ABBA order). What a role costs depends on what the seats drawn before it left in
the renderers' memories: the first seat drawn pays for the parts the decision changed, later seats reuse
them. ``per decision`` is the sum of the three. Ratios before/after per role and per decision, paired per
round, with a 95% t interval on the log ratios.

    nice -n 10 .venv/bin/python benchmarks/server_seats.py --rounds 4 [--before 0092a8a] [--after COMMIT]

What a shared board would save (issue 16 item 3, design (a): one board per position for every seat and
watcher, the actor's clickable parts as an overlay): after the three pictures each side also draws the actor's
picture without its legal moves (``actor board``, not counted in ``per decision``), and ``shared (est.)`` is
per decision the spectator's picture plus the actor's clickable parts estimated as ``actor - actor board``.
It is an estimate from today's renderers (their layouts are per seat, so none of them can share a board
as they are): what drawing one board and one overlay would cost if they cost what these parts cost now.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_push_ab import export_sides, ratio_interval, run_child

MAX_ROUNDS = 8
GAMES = ["tiny-farms", "farmini", "farmerama", "tiny-towns", "farmers-finances"]
ROLES = ["actor", "waiting", "spectator", "per decision", "actor board", "shared (est.)"]

CHILD = """
import json, random, sys, time
from farmtable.core.registry import get_game
from farmtable.server.render import render
games, tables, decisions = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
out = {}
for g in games:
    game = get_game(g)
    cpu, count, positions, shared = {}, {}, 0, 0.0
    for t in [-1] + list(range(tables)):  # t = -1: a warm-up table (imports, first drawings), not counted
        state = game.new_game(players=2, seed=1000 + t)
        rng = random.Random(f"{g}:{t}")
        for _ in range(3 if t < 0 else decisions):
            if state.is_over():
                break
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            spent = {}
            for who in (0, 1, None):
                moves = [str(a) for a in state.legal_actions(who)] if who is not None and who in state.actors() else []
                view = state.view(who)
                role = "spectator" if who is None else "actor" if moves else "waiting"
                c0 = time.process_time()
                render(game, view, moves, who)
                spent[role] = time.process_time() - c0
                if moves:  # after the three: the same seat's picture without its clickable parts
                    actor_view, actor = view, who
            if "actor" in spent:
                c0 = time.process_time()
                render(game, actor_view, [], actor)
                spent["actor board"] = time.process_time() - c0
            if t >= 0:
                for role, took in spent.items():
                    cpu[role] = cpu.get(role, 0.0) + took
                    count[role] = count.get(role, 0) + 1
                shared += spent["spectator"] + spent.get("actor", 0.0) - spent.get("actor board", 0.0)
                positions += 1
    row = {role: cpu[role] / count[role] * 1e6 for role in cpu}
    row["per decision"] = sum(v for k, v in cpu.items() if k != "actor board") / positions * 1e6
    row["shared (est.)"] = shared / positions * 1e6
    out[g] = row
print(json.dumps(out))
"""


def one_run(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One child process drawing every position with the sources in ``src``."""
    got: dict[str, Any] = run_child(
        src, CHILD, ",".join(args.games), str(args.tables), str(args.decisions), what="drawing"
    )
    return got


def main() -> None:
    """Export the older side, run the rounds, print CPU per picture by role and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="0092a8a", help="the older commit (default: main before this work)")
    parser.add_argument("--after", help="a commit to compare instead of this checkout's working tree")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tables", type=int, default=2, help="seeded games per game (1 to 10)")
    parser.add_argument("--decisions", type=int, default=60, help="decisions per game (1 to 400)")
    parser.add_argument("--games", nargs="*", default=GAMES)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise SystemExit(f"--rounds is 1 to {MAX_ROUNDS} (bounded on purpose)")
    if not (1 <= args.tables <= 10 and 1 <= args.decisions <= 400):
        raise SystemExit("--tables is 1 to 10 and --decisions 1 to 400 (bounded on purpose)")
    with tempfile.TemporaryDirectory() as tmp:
        old, new, sides = export_sides(args.before, args.after, Path(tmp))
        runs: list[dict[str, Any]] = []
        for r in range(args.rounds):
            for side in ["before", "after"] if r % 2 == 0 else ["after", "before"]:
                runs.append({"round": r + 1, "side": side, "us": one_run(sides[side], args)})
    by = {(x["round"], x["side"]): x["us"] for x in runs}
    pairs = [(by[(r, "before")], by[(r, "after")]) for r in range(1, args.rounds + 1)]
    ratios = {
        g: {
            role: ratio_interval([(b[g][role], a[g][role]) for b, a in pairs])
            for role in ROLES
            if all(role in b[g] and role in a[g] for b, a in pairs)
        }
        for g in args.games
    }
    ratios["all games"] = {
        "per decision": ratio_interval(
            [
                (sum(b[g]["per decision"] for g in args.games), sum(a[g]["per decision"] for g in args.games))
                for b, a in pairs
            ]
        )
    }
    ratios["all games"]["today / shared (est.), after side"] = ratio_interval(
        [
            (sum(a[g]["per decision"] for g in args.games), sum(a[g]["shared (est.)"] for g in args.games))
            for _, a in pairs
        ]
    )
    if args.json:
        print(json.dumps({"before": old, "after": new, "ratio_before_over_after": ratios, "runs": runs}))
        return
    print(f"before = {old[:10]}, after = {new[:13]}; CPU us per picture by role, and per decision (three pictures)\n")
    for g in args.games:
        print(g)
        for side in ("before", "after"):
            cells = "  ".join(
                f"{role} {sum(by[(r, side)][g].get(role, 0.0) for r in range(1, args.rounds + 1)) / args.rounds:6.0f}"
                for role in ROLES
            )
            print(f"  {side:>6}: {cells}")
        for role, ci in ratios[g].items():
            print(f"  before/after {role}: {ci['ratio']:.3f} (95% CI {ci['low']:.3f} .. {ci['high']:.3f})")
    ci = ratios["all games"]["per decision"]
    print(f"all games, per decision: before/after {ci['ratio']:.3f} (95% CI {ci['low']:.3f} .. {ci['high']:.3f})")
    ci = ratios["all games"]["today / shared (est.), after side"]
    print(
        f"all games, after side: today's three pictures / a shared board and overlay (est.) {ci['ratio']:.3f} "
        f"(95% CI {ci['low']:.3f} .. {ci['high']:.3f})"
    )


if __name__ == "__main__":
    main()
