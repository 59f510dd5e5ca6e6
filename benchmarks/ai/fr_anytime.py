"""Does the anytime refinement recover the full refinement's pair when the clock stops it? (decisions, no games)

Plays ``--deals`` two-player games with ``--mover`` in both seats (as ``fr_phase1.py``) and keeps
every round's start. At each one, player 0 decides its pair as the candidate would
(``duel.choose_pair`` with ``deep=1``, ``level=2``, ``refine=10``, the adaptive belief ``--belief``
over the other's levels 0/1/2, ``anytime=True``) under the Expert's clock (1.0 s budget: rows
until 0.9, the refinement until 0.8 of it, CPU s by ``time.process_time``); then, without a
clock, the full refinement of the same table (every planned column). Over the positions where the
clock stopped the refinement, it compares three choices with the full refinement's: the anytime
pair, the table's best pair (what a stopped refinement played before session 14) and, as a
yardstick, the value lost against the full refinement's rating (the table's rating with the
planned columns' entries replaced by best-line values; 0 when the same pair is chosen), with
normal 95% intervals. Positions whose full refinement takes over ``--cap`` CPU s are skipped
(round 1 can take ~10 s).

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fr_anytime.py --deals 2 --seed 2000
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from farmtable.arena.stats import mean_ci
from farmtable.core import clock
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.rules import FarmeramaState


def full_values(state: FarmeramaState, captured: dict[str, Any], cap: float) -> dict[tuple[int, ...], float] | None:
    """The full refinement's rating of the table's 10 best pairs (``captured``: what ``_refine`` was
    given), or None when it takes over ``cap`` CPU s."""
    base = duel._base(state.clone(), 1)
    rated, model, keep, table = captured["rated"], captured["model"], captured["keep"], captured["table"]
    top = sorted(rated, key=lambda pair: -rated[pair])[:keep]
    columns = duel.refine_columns(model)
    lines: dict[tuple[object, ...], float] = {}
    try:
        with clock.deadline_at(time.process_time() + cap):
            return {
                pair: rated[pair]
                + sum(w * (duel.payoff(base, 0, pair, q, lines=lines) - table(pair, q)) for q, w in columns)
                for pair in top
            }
    except clock.OutOfTime:
        return None


def main() -> None:
    """Print how often each choice matches the full refinement's, and its loss, on the stopped positions."""
    from fr_phase1 import positions  # benchmarks/ai is the script's directory

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--mover", default="farmerama-duel:temp=0.5")
    ap.add_argument("--belief", type=float, nargs=3, default=[0.835, 0.083, 0.083])
    ap.add_argument("--cap", type=float, default=4.0)
    args = ap.parse_args()
    spots = positions(args.deals, args.seed, args.mover)
    real = duel._refine
    captured: dict[str, Any] = {}

    def spy(*a: Any, **k: Any) -> tuple[int, ...]:
        names = ("base", "me", "rated", "model", "keep", "table", "report", "width")
        captured.update(dict(zip(names, a, strict=False)), **k)
        return real(*a, **k)

    duel._refine = spy
    stopped = skipped = 0
    same_any: list[float] = []
    same_table: list[float] = []
    loss_any: list[float] = []
    loss_table: list[float] = []
    for _, state in spots:
        captured.clear()
        report: dict[str, Any] = {}
        start = time.process_time()
        with clock.deadline_at(start + 1.0):
            pair = duel.choose_pair(
                state.clone(), 0, 0.5, start + 0.9, deep=1.0, stop=start + 0.97, refine=10,
                refine_by=start + 0.8, level=2, belief=list(args.belief), anytime=True, report=report,
            )  # fmt: skip
        if not report.get("stopped") or "rated" not in captured:
            continue
        stopped += 1
        values = full_values(state, captured, args.cap)
        if values is None:
            skipped += 1
            continue
        best = max(values.values())
        full = next(p for p in values if values[p] >= best - 1e-9)
        table_best = max(captured["rated"], key=lambda p: captured["rated"][p])
        same_any.append(1.0 if pair == full else 0.0)
        same_table.append(1.0 if table_best == full else 0.0)
        loss_any.append(best - values.get(pair, min(values.values())) if pair is not None else 0.0)
        loss_table.append(best - values[table_best])
    duel._refine = real
    print(f"{len(spots)} positions, refinement stopped by the clock in {stopped}, {skipped} skipped (full > cap)")
    for name, same, loss in (("anytime", same_any, loss_any), ("table's best", same_table, loss_table)):
        m, lo, hi = mean_ci(loss)
        print(
            f"  {name:13s} the full refinement's pair in {sum(same):.0f} of {len(same)}; "
            f"loss by its rating {m:.2f} [{lo:.2f}, {hi:.2f}] stars"
        )
    d, lo, hi = mean_ci([t - a for a, t in zip(loss_any, loss_table, strict=True)])
    print(f"  loss, table's best − anytime, paired: {d:+.2f} [{lo:+.2f}, {hi:+.2f}] stars")


if __name__ == "__main__":
    main()
