"""Show recorded solo Tiny Farms games (``tf_replay.py --record``): final farms and sheets, and where two records part.

Usage (from the repository root, ``PYTHONPATH=src``)::

    python benchmarks/ai/tf_lost.py /tmp/tf8/lost_margin.jsonl                       # each game's end
    python benchmarks/ai/tf_lost.py /tmp/tf8/lost_margin.jsonl /tmp/tf8/lost_win.jsonl  # and the first
                                                                                       # decision that differs

Each recorded game is replayed from its deal (game seed) and variant with its recorded actions
(nothing is searched: instant). Printed: the margin, both score sheets line by line, the final
farms; with a second file, the first decision where the two records of a deal differ (round,
phase, both actions) and both final margins.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import farmtable
from farmtable.games.tiny_farms.render import render_text
from farmtable.games.tiny_farms.rules import TinyFarmsState


def load(path: str) -> dict[int, dict[str, Any]]:
    """The recorded games of a file, keyed by deal (a later line wins)."""
    games: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                game = json.loads(line)
                games[game["deal"]] = game
    return games


def replay(game: dict[str, Any], steps: int | None = None) -> TinyFarmsState:
    """The position after the first ``steps`` recorded actions of ``game`` (all: the end)."""
    variants = (game["variant"],) if game["variant"] else ()
    state = farmtable.get_game("tiny-farms").new_game(players=1, seed=game["deal"], variants=variants)
    assert isinstance(state, TinyFarmsState)
    for action in game["actions"][:steps]:
        state.apply(0, action)
    return state


def describe(game: dict[str, Any]) -> str:
    """A recorded game's end: margin, the two sheets and the final farms."""
    state = replay(game)
    result = state.result()
    mine = result.breakdown[0]
    lines = [
        f"deal {game['deal']} ({game['variant']}, {game['spec']}): margin {result.objective:+}, "
        f"outcome {result.details['outcome']}, horses {result.details['horse_counts']}",
        f"  you:  {json.dumps(mine)}",
        f"  Emma: {json.dumps(result.details['emma_breakdown'])} = {result.details['emma_total']}",
        render_text(state, 0),
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print every game of the first file, and where it parts from the second file's game of the same deal."""
    if not argv or len(argv) > 2:
        print(__doc__)
        return 2
    first = load(argv[0])
    second = load(argv[1]) if len(argv) == 2 else {}
    for deal, game in sorted(first.items()):
        print(describe(game))
        other = second.get(deal)
        if other is None:
            continue
        split = next(
            (i for i, (a, b) in enumerate(zip(game["actions"], other["actions"], strict=False)) if a != b), None
        )
        if split is None:
            print(f"  the second record plays the same game (margin {other['margin']:+})")
            continue
        at = replay(game, split)
        print(
            f"  parts at decision {split} (round {at.round}, {at.phase}): {game['actions'][split]} here, "
            f"{other['actions'][split]} in the second record; final margins {game['margin']:+} / {other['margin']:+}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
