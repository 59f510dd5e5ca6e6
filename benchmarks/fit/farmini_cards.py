"""Compare candidate Farmini card faces (issue 14 item 2) by playing one agent on the same deals.

Each candidate is a set of face changes over the ``cards-v1`` faces (card id -> arms, quarters).
Every candidate plays the same deals (deal ``i`` = game seed ``seed + i``, agent seed from the
deal) with the same agent; the report gives per candidate the median, the mean with a 95%
interval, the rulebook's solo tiers with Wilson 95% intervals, the paired difference of the
score against the first candidate (Student t 95%) and the CPU seconds per decision.

    cd WT && PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python benchmarks/fit/farmini_cards.py \\
        --agent greedy --deals 200 --candidates cards-v1 revised corn2 corner

The candidate ``revised`` is whatever ``components.REVISIONS`` holds (the default faces).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ai"))

from compare import paired_ci

import farmtable
import farmtable.agents
from farmtable.arena.stats import mean_ci, wilson
from farmtable.games.farmini import components
from farmtable.games.farmini.farm import Faces

BLANK = ("D5", "D7", "E1", "E2", "F1", "F3", "F4")
"""The seven cards that show nothing under cards-v1 (plain pasture, 0-1 arm)."""

CANDIDATES: dict[str, dict[str, tuple[str, str]]] = {
    "cards-v1": {},
    "revised": dict(components.REVISIONS),
    # one cornfield on each blank card, arms kept
    "corn1": {
        "D5": ("N S", "C G G G"),
        "D7": ("N S", "G G C G"),
        "E1": ("N", "C G G G"),
        "E2": ("N", "G G G C"),
        "F1": ("", "C G G G"),
        "F3": ("", "C G G G"),
        "F4": ("", "C G G G"),
    },
    # two cornfields on each blank card, arms kept
    "corn2": {
        "D5": ("N S", "C G C G"),
        "D7": ("N S", "G C G C"),
        "E1": ("N", "C G G C"),
        "E2": ("N", "C G G C"),
        "F1": ("", "C G C G"),
        "F3": ("", "C G C G"),
        "F4": ("", "C C G G"),
    },
    # the trial: corn and a corner fence on each blank card
    "corner": {card: ("N E", "C G G G") for card in BLANK},
    # every fence card shows a fence: E and F cards get one arm (E: a second arm), one cornfield each
    "fenced": {
        "D5": ("N S", "C G G G"),
        "D7": ("N S", "G G C G"),
        "E1": ("N E", "C G G G"),
        "E2": ("N E", "G G C G"),
        "F1": ("N", "C G G G"),
        "F3": ("N", "G G C G"),
        "F4": ("N", "C G G G"),
    },
}
"""Candidate face changes over cards-v1 (card id -> (arms, quarters NE SE SW NW))."""


def faces_of(name: str) -> Faces:
    """The face set of candidate ``name``."""
    changes = CANDIDATES[name]
    cards = []
    for card in (*components.FARM_CARDS, *components.FENCE_CARDS_V1):
        cards.append(components.with_face(card, *changes[card.id]) if card.id in changes else card)
    return Faces(name, cards)


def play(faces: Faces, spec: str, seed: int, deal: int) -> tuple[int, list[float]]:
    """One solo game of deal ``deal`` on ``faces``: the score and the CPU seconds of each decision."""
    state = farmtable.get_game("farmini").new_game(players=1, seed=seed + deal)
    state.faces = faces  # type: ignore[attr-defined]
    for farm in state.farms:  # type: ignore[attr-defined]
        farm.faces = faces  # the farm card is the same in every face set
    agent = farmtable.agents.make(spec, seed=(seed + deal) * 7919)
    cpu = []
    while not state.is_over():
        start = time.process_time()
        action = agent.act(state, 0)
        cpu.append(time.process_time() - start)
        state.apply(0, action)
    return state.result().totals[0], cpu


def main() -> None:
    """Play every candidate on the same deals and print a Markdown report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--candidates", nargs="+", default=list(CANDIDATES), choices=list(CANDIDATES))
    args = ap.parse_args()
    scores: dict[str, list[int]] = {}
    cpus: dict[str, list[float]] = {}
    for name in args.candidates:
        faces = faces_of(name)
        scores[name], cpus[name] = [], []
        for deal in range(args.deals):
            score, cpu = play(faces, args.agent, args.seed, deal)
            scores[name].append(score)
            cpus[name].extend(cpu)
    print(f"## Farmini solo card candidates — `{args.agent}`, {args.deals} deals (seeds {args.seed}+)\n")
    bands = [(35, "won 35+"), (30, "podium 30+"), (20, "ponies 20+"), (10, "almost 10+")]
    head = ["candidate", "median", "mean [95%]"] + [b[1] for b in bands] + ["CPU s/decision p50 / p99"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in args.candidates:
        s = scores[name]
        mean, low, high = mean_ci([float(v) for v in s])
        row = [name, f"{statistics.median(s):g}", f"{mean:.2f} [{low:.2f}, {high:.2f}]"]
        for threshold, _ in bands:
            hits = sum(v >= threshold for v in s)
            lo, hi = wilson(hits, len(s))
            row.append(f"{hits / len(s):.1%} [{lo:.1%}, {hi:.1%}]")
        c = sorted(cpus[name])
        row.append(f"{c[len(c) // 2]:.4f} / {c[min(len(c) - 1, int(0.99 * len(c)))]:.4f}")
        print("| " + " | ".join(row) + " |")
    base = args.candidates[0]
    for name in args.candidates[1:]:
        diff = [float(a - b) for a, b in zip(scores[name], scores[base], strict=True)]
        mean, low, high = paired_ci(diff)
        print(f"\npaired difference {name} − {base}: {mean:+.2f} [{low:+.2f}, {high:+.2f}]")


if __name__ == "__main__":
    main()
