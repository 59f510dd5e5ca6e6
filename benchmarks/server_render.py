"""The board pictures' CPU cost, before vs after, side by side in one run: every game's renderer on the same
seeded positions (``tests/server/data/render_golden.json.gz``: 444 views of the five games, each seat's and a
spectator's, at six moments of seeded games), drawn by an older commit's renderers and by this checkout's.

Each round runs one fresh child process per side (ABBA order), which draws every position once, in the
fixture's order (seat 0, seat 1, spectator of one moment, then the next moment: what a server draws after a
decision), so what the renderers remember is only what earlier positions left, as in a server. CPU time
(``time.process_time``) per picture per game; then the before/after ratios paired per round with a 95% t
interval on the log ratios, and the median of the paired ratios. Every picture's digest is checked against
the fixture on both sides. The 1-minute load average is printed before and after the rounds.

    nice -n 10 .venv/bin/python benchmarks/server_render.py --rounds 6 [--before COMMIT] [--after COMMIT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_push_ab import export_sides, ratio_interval, run_child

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "server" / "data" / "render_golden.json.gz"
MAX_ROUNDS = 12

CHILD = """
import gzip, hashlib, json, sys, time
from farmtable.core.registry import get_game
from farmtable.server.render import find_renderer
with gzip.open(sys.argv[1], "rt", encoding="utf-8") as f:
    items = json.load(f)
renderers = {g: find_renderer(get_game(g)) for g in {it["game"] for it in items}}
cpu, count, wrong = {}, {}, 0
for it in items:
    draw = renderers[it["game"]]
    c0 = time.process_time()
    svg = draw(it["view"], it["legal"], it["seat"])
    cpu[it["game"]] = cpu.get(it["game"], 0.0) + time.process_time() - c0
    count[it["game"]] = count.get(it["game"], 0) + 1
    wrong += hashlib.sha256(svg.encode("utf-8")).hexdigest() != it["sha256"]
print(json.dumps({"us": {g: cpu[g] / count[g] * 1e6 for g in cpu}, "wrong": wrong}))
"""


def one_run(src: Path) -> dict[str, Any]:
    """One child process drawing every position with the sources in ``src``."""
    got: dict[str, Any] = run_child(src, CHILD, str(FIXTURE), what="drawing", env={"PATH": "/usr/bin:/bin"})
    return got


def main() -> None:
    """Export the older renderers, run the rounds, print the CPU per picture and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="5435969", help="the older commit (default: main before session 18)")
    parser.add_argument("--after", help="a commit to compare instead of this checkout's working tree")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise SystemExit(f"--rounds is 1 to {MAX_ROUNDS} (bounded on purpose)")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        old, new, sides = export_sides(args.before, args.after, Path(tmp))
        runs: list[dict[str, Any]] = []
        for r in range(args.rounds):
            for side in ["before", "after"] if r % 2 == 0 else ["after", "before"]:
                runs.append({"round": r + 1, "side": side, **one_run(sides[side])})
    games = sorted(runs[0]["us"])
    for x in runs:  # the mean over the five games, each weighted alike
        x["us"]["all"] = sum(x["us"][g] for g in games) / len(games)
    by = {(x["round"], x["side"]): x for x in runs}
    pairs = [(by[(r, "before")], by[(r, "after")]) for r in range(1, args.rounds + 1)]
    summary = {
        "before": old,
        "after": new,
        "load_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "pictures_not_as_in_the_fixture": {s: sum(x["wrong"] for x in runs if x["side"] == s) for s in sides},
        "ratio_before_over_after": {
            g: ratio_interval([(b["us"][g], a["us"][g]) for b, a in pairs]) for g in [*games, "all"]
        },
        "median_ratio_before_over_after": {
            g: round(statistics.median(b["us"][g] / a["us"][g] for b, a in pairs), 3) for g in [*games, "all"]
        },
        "runs": runs,
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(f"before = {old[:10]}, after = {new[:13]}; CPU us per picture (mean over the positions of a game)\n")
    print(f"{'round':>5} {'side':>7} " + " ".join(f"{g[:12]:>12}" for g in [*games, "all"]) + "  wrong")
    for x in runs:
        cells = " ".join(f"{x['us'][g]:>12.0f}" for g in [*games, "all"])
        print(f"{x['round']:>5} {x['side']:>7} {cells}  {x['wrong']}")
    medians = summary["median_ratio_before_over_after"]
    for g, ci in summary["ratio_before_over_after"].items():
        print(
            f"before/after {g}: {ci['ratio']:.3f} (95% CI {ci['low']:.3f} .. {ci['high']:.3f}, {ci['n']} rounds; "
            f"median of the paired ratios {medians[g]:.3f})"
        )
    print(f"load average (1 min) before and after the rounds: {summary['load_1min']}")


if __name__ == "__main__":
    main()
