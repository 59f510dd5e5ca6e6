"""How well level-0 models of the other player foresee a real opponent's phase-1 pair (a screen, no games scored).

Plays ``--deals`` two-player games with ``--mover`` in both seats (deal i = game seed ``--seed + i``,
as ``fr_phase1.py``) and keeps every round's start. At each one the ``--opponent`` chooses its pair
as player 1 (seeded by deal and round), and each candidate model of player 1 (from player 0's side,
on the position with player 1's cards set aside, as the duel player sees it) gives that pair a
chance. Models: the duel player's level 0 (``duel.opponent_model``: a softmax of each pair's value
played alone) at several temperatures; ``seq`` (a first card by a softmax of the cards played
alone, then a second by a softmax of the pairs with it: how a one-card-at-a-time chooser picks);
the greedy agent's pair(s) (``duel.greedy_pairs``). Printed per model: the mean chance of the
actual pair, the share of positions where it was the model's likeliest pair, and the mean log
score with the chance mixed with 0.2 of an even spread (``duel.ADAPT_NOISE``, as ``adapt=1``
scores a level), with paired normal 95% intervals of the log score's difference from the
duel's level 0 at ``temp`` 0.5.

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fr_model0.py --deals 3 --seed 2000 \
        --opponent "ismcts:iters=200,depth=5"
"""

from __future__ import annotations

import argparse
import math
from itertools import combinations

from farmtable.arena.stats import mean_ci
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.rules import FarmeramaState

PAIRS: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))
TEMPS = (0.25, 0.5, 1.0, 2.0, 4.0)


def _softmax(values: list[float], temp: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temp) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def models(state: FarmeramaState) -> dict[str, dict[tuple[int, ...], float]]:
    """Each candidate model's chance per pair of player 1 at ``state`` (a round's start)."""
    base = duel._base(state.clone(), 1)
    pair_values = [duel.pair_value(base, 1, q) for q in PAIRS]
    singles = [duel.pair_value(base, 1, (c,)) for c in range(len(CARDS))]
    out: dict[str, dict[tuple[int, ...], float]] = {}
    for temp in TEMPS:
        out[f"softmax t={temp:g}"] = dict(zip(PAIRS, _softmax(pair_values, temp), strict=True))
        first = _softmax(singles, temp)
        seq = dict.fromkeys(PAIRS, 0.0)
        for a in range(len(CARDS)):
            others = [q for q in PAIRS if a in q]
            second = _softmax([pair_values[PAIRS.index(q)] for q in others], temp)
            for q, w in zip(others, second, strict=True):
                seq[q] += first[a] * w
        out[f"seq t={temp:g}"] = seq
    picks = duel.greedy_pairs(base, 1)
    out["greedy pairs"] = {q: (1.0 / len(picks) if q in picks else 0.0) for q in PAIRS}
    return out


def main() -> None:
    """Print each model's mean chance, top-1 share and log score of the opponent's actual pairs."""
    # imported here: fr_phase1 imports the equilibrium solver (scipy), only needed when this runs
    from fr_phase1 import opponent_pair, positions

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--mover", default="farmerama-duel:temp=0.5", help="the agent that plays the games")
    ap.add_argument("--opponent", default="ismcts:iters=200,depth=5")
    args = ap.parse_args()
    spots = positions(args.deals, args.seed, args.mover)
    noise = duel.ADAPT_NOISE / len(PAIRS)
    chance: dict[str, list[float]] = {}
    top1: dict[str, list[float]] = {}
    score: dict[str, list[float]] = {}
    for deal, state in spots:
        pair, _ = opponent_pair(state, args.opponent, seed=deal * 100 + state.round)
        for name, model in models(state).items():
            c = model[pair]
            chance.setdefault(name, []).append(c)
            top1.setdefault(name, []).append(1.0 if c >= max(model.values()) - 1e-12 else 0.0)
            score.setdefault(name, []).append(math.log((1.0 - duel.ADAPT_NOISE) * c + noise))
    ref = score["softmax t=0.5"]
    print(
        f"{len(spots)} positions (deals {args.seed}-{args.seed + args.deals - 1}, mover {args.mover}), "
        f"opponent {args.opponent}"
    )
    for name in chance:
        d, lo, hi = mean_ci([s - r for s, r in zip(score[name], ref, strict=True)])
        print(
            f"  {name:16s} mean chance {sum(chance[name]) / len(spots):.3f}, "
            f"likeliest {sum(top1[name]) / len(spots):.1%}, "
            f"log score {sum(score[name]) / len(spots):+.3f} (vs softmax t=0.5 {d:+.3f} [{lo:+.3f}, {hi:+.3f}])"
        )


if __name__ == "__main__":
    main()
