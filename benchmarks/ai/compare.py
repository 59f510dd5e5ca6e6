"""Paired comparison of agents on fixed deals: solo scores and tiers, or seat-balanced 2-player wins.

Every agent plays the *same* deals (deal i = game seed ``seed + i``), so differences are paired.

Solo (``--players 1``): per agent the mean objective (``Result.solo_score``) and total with 95%
intervals, the rulebook's tier table (``farmtable.arena.solo.tiers``) with Wilson intervals, and for
each agent after the first the paired difference of the objective against the first agent (mean
and 95% interval: accept a change only when it excludes 0).

Two players (``--players 2``, exactly two agents A,B): each deal is played twice with the seats
swapped; A's win share (a shared win counts half) with its Wilson interval, and the paired
per-deal difference.

Every agent's CPU seconds per decision (``time.process_time`` around ``act``) are reported as
p50 / p99 / max. Run it with ``nice -n 10``; ``--workers 2`` at most on the shared machine.

Examples::

    PYTHONPATH=src python benchmarks/ai/compare.py --game tiny-towns --players 1 --deals 40 \\
        --agents "ismcts:iters=200,depth=5" "mcts:iters=200" --workers 2
    PYTHONPATH=src python benchmarks/ai/compare.py --game farmini --players 2 --deals 20 \\
        --agents "mcts:iters=200" "ismcts:iters=200,depth=5"
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import farmtable
import farmtable.agents
from farmtable.arena.jobs import GameRecord
from farmtable.arena.solo import tiers
from farmtable.arena.stats import mean_ci, wilson


@dataclass
class Played:
    """One finished game: who sat where, the result, and each seat's CPU seconds per decision."""

    deal: int  # the game seed (``--seed`` + the deal's index), so chunks of a run can be merged
    specs: list[str]
    totals: list[int]
    winners: list[int]
    solo_score: int
    details: dict[str, Any]
    ranking: list[list[int]]
    cpu: list[list[float]] = field(default_factory=list)


def play(game_id: str, specs: list[str], variants: tuple[str, ...], seed: int, deal: int) -> Played:
    """Play deal ``deal`` (game seed ``seed + deal``) with one agent per seat; agents seeded per deal and seat."""
    game = farmtable.get_game(game_id)
    state = game.new_game(players=len(specs), seed=seed + deal, variants=variants)
    agents = [
        farmtable.agents.make(s, seed=(seed + deal) * 7919 + i, game=game_id, players=len(specs))
        for i, s in enumerate(specs)
    ]
    warm_up(state)
    cpu: list[list[float]] = [[] for _ in specs]
    steps = 0
    while not state.is_over():
        p = state.actors()[0]
        start = time.process_time()
        action = agents[p].act(state, p)
        cpu[p].append(time.process_time() - start)
        state.apply(p, action)
        steps += 1
        if steps > 100_000:
            raise RuntimeError(f"{game_id} deal {deal}: no end after {steps} decisions")
    r = state.result()
    return Played(seed + deal, list(specs), list(r.totals), r.winners, r.solo_score, dict(r.details), r.ranking, cpu)


def warm_up(state: Any) -> float:
    """Warm the game up once per process, untimed (``farmtable.agents.base.warm_up``): the one-off
    imports and tables of a game's evaluation (Farmers Finances' solver: 0.25-2.7 CPU s) are the
    process's start-up, not a decision's thinking; a server pays them once per worker process."""
    from farmtable.agents.base import warm_up as warm

    return warm(state)


def _written(raw: Any, game: Played) -> Played:
    """Append one finished game to the ``--raw`` file at once (a run cut short keeps its games)."""
    if raw is not None:
        raw.write(json.dumps(game.__dict__) + "\n")
        raw.flush()
    return game


def _task(args: tuple[str, list[str], tuple[str, ...], int, int]) -> Played:
    return play(*args)


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_line(values: list[float]) -> str:
    """``p50 / p99 / max`` CPU seconds per decision."""
    return f"{_quantile(values, 0.5):.3f} / {_quantile(values, 0.99):.3f} / {max(values, default=float('nan')):.3f}"


def paired_ci(diff: list[float]) -> tuple[float, float, float]:
    """Mean of paired differences with a Student-t 95% interval (honest for a handful of deals)."""
    n = len(diff)
    mean = sum(diff) / n if n else float("nan")
    if n < 2:
        return mean, mean, mean
    try:
        from scipy.stats import t

        quantile = float(t.ppf(0.975, n - 1))
    except ImportError:  # scipy is not a farmtable dependency: fall back to the normal quantile
        quantile = 1.959963984540054
    sd = statistics.stdev(diff)
    half = quantile * sd / n**0.5
    return mean, mean - half, mean + half


def _fmt_ci(mean: float, low: float, high: float) -> str:
    return f"{mean:.2f} [{low:.2f}, {high:.2f}]"


def _record(game_id: str, variants: tuple[str, ...], p: Played) -> GameRecord:
    return GameRecord(
        key="",
        game=game_id,
        players=1,
        variants=list(variants),
        seed=p.deal,
        index=p.deal,
        agents=p.specs,
        agent_seeds=[0],
        actions=[],
        totals=p.totals,
        ranking=p.ranking,
        details=p.details,
    )


def report_solo(game_id: str, variants: tuple[str, ...], specs: list[str], games: dict[str, list[Played]]) -> str:
    """The solo table: objective, total, tiers and CPU per agent; paired differences against the first agent."""
    lines = []
    n = len(next(iter(games.values())))
    lines.append(f"## {game_id} solo {' '.join(variants) or ''} — {n} deals\n")
    table = tiers(game_id, variants)
    head = ["agent", "objective mean [95%]", "total mean [95%]", "median total"]
    head += [t.name for t in table] + ["CPU s/decision p50 / p99 / max"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for spec in specs:
        played = sorted(games[spec], key=lambda g: g.deal)
        obj = [float(g.solo_score) for g in played]
        tot = [float(g.totals[0]) for g in played]
        row = [f"`{spec}`", _fmt_ci(*mean_ci(obj)), _fmt_ci(*mean_ci(tot)), f"{statistics.median(tot):g}"]
        for tier in table:
            hits = sum(1 for g in played if tier.reached(_record(game_id, variants, g)))
            low, high = wilson(hits, len(played))
            row.append(f"{hits / len(played):.0%} [{low:.0%}, {high:.0%}]")
        row.append(cpu_line([c for g in played for c in g.cpu[0]]))
        lines.append("| " + " | ".join(row) + " |")
    base = sorted(games[specs[0]], key=lambda g: g.deal)
    for spec in specs[1:]:
        other = sorted(games[spec], key=lambda g: g.deal)
        diff = [float(o.solo_score - b.solo_score) for o, b in zip(other, base, strict=True)]
        mean, low, high = paired_ci(diff)
        if len(diff) < 2:
            verdict = "one deal: no interval, no verdict"
        else:
            verdict = "better" if low > 0 else "worse" if high < 0 else "no significant difference"
        lines.append(
            f"\npaired objective difference `{spec}` − `{specs[0]}`: {_fmt_ci(mean, low, high)} "
            f"(Student t 95%; {verdict})"
        )
    return "\n".join(lines)


def report_duel(game_id: str, variants: tuple[str, ...], specs: list[str], played: list[Played]) -> str:
    """The 2-player table: A's seat-balanced win share with Wilson interval, and CPU per agent."""
    a, b = specs
    share: dict[int, float] = {}
    cpu: dict[str, list[float]] = {a: [], b: []}
    margins: list[float] = []
    for g in played:
        seat_a = g.specs.index(a) if g.specs[0] != g.specs[1] else 0
        won = 1.0 / len(g.winners) if seat_a in g.winners else 0.0
        share[g.deal] = share.get(g.deal, 0.0) + won / 2
        margins.append(float(g.totals[seat_a] - g.totals[1 - seat_a]))
        for seat, spec in enumerate(g.specs):
            cpu[spec].extend(g.cpu[seat])
    n = len(played)
    wins = sum(share.values()) * 2
    low, high = wilson(wins, n)
    per_deal = list(share.values())
    mean, dlow, dhigh = mean_ci(per_deal)
    lines = [
        f"## {game_id} 2 players {' '.join(variants)} — `{a}` vs `{b}`, {n // 2} deals × 2 seats\n",
        f"`{a}` win share: {wins / n:.1%} [{low:.1%}, {high:.1%}] over {n} games "
        f"(per-deal pair mean {mean:.2f} [{dlow:.2f}, {dhigh:.2f}]); "
        f"mean score margin {_fmt_ci(*mean_ci(margins))}",
        "",
        "| agent | CPU s/decision p50 / p99 / max |",
        "|---|---|",
        f"| `{a}` | {cpu_line(cpu[a])} |",
        f"| `{b}` | {cpu_line(cpu[b])} |",
    ]
    return "\n".join(lines)


def report(game_id: str, players: int, variants: tuple[str, ...], specs: list[str], played: list[Played]) -> str:
    """The solo or the 2-player report of ``played``."""
    if players == 1:
        games: dict[str, list[Played]] = {s: [] for s in specs}
        for g in played:
            games[g.specs[0]].append(g)
        return report_solo(game_id, variants, specs, games)
    return report_duel(game_id, variants, specs, played)


def load_raw(paths: list[str], game_id: str, specs: list[str]) -> list[Played]:
    """The games of ``--raw`` files whose agents are all among ``specs`` (a deal seen twice is kept once).

    Each game is keyed by its deal number (``seed + deal``, written as ``deal``) and seating, so
    chunks run with different ``--seed`` values must not overlap in game seeds to add up.
    """
    seen: dict[tuple[int, tuple[str, ...]], Played] = {}
    for path in paths:
        try:
            with open(path) as fh:
                lines = fh.read().splitlines()
        except OSError as exc:
            raise SystemExit(f"cannot read the --raw file {path}: {exc.strerror}") from exc
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                game = Played(**json.loads(line))
            except (ValueError, TypeError) as exc:
                raise SystemExit(f"{path}:{n}: not a game written by --raw ({exc})") from exc
            if set(game.specs) <= set(specs):
                seen[(game.deal, tuple(game.specs))] = game
    if not seen:
        raise SystemExit(f"no {game_id} game of {', '.join(specs)} in {', '.join(paths)}")
    return list(seen.values())


def _setup(item: str, call: bool) -> None:
    """Apply one ``--set MODULE.NAME=JSON`` or ``--call MODULE.FUNC=ARG`` (worker processes fork after it)."""
    import importlib

    target, sep, value = item.partition("=")
    module_name, dot, name = target.rpartition(".")
    if not sep or not dot:
        raise SystemExit(f"--set/--call wants MODULE.NAME=VALUE, got {item!r}")
    module = importlib.import_module(module_name)
    if not hasattr(module, name):
        raise SystemExit(f"{module_name} has no {name}")
    if call:
        getattr(module, name)(value)
    else:
        setattr(module, name, json.loads(value))


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print a Markdown report (and optionally the raw games as JSON lines)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True)
    ap.add_argument("--players", type=int, choices=(1, 2), default=1)
    ap.add_argument("--variant", action="append", default=[], help="a game variant (repeatable)")
    ap.add_argument("--agents", nargs="+", required=True, help="agent specs or level names (easy, normal, ...)")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--raw", help="write every game as a JSON line to this file")
    ap.add_argument(
        "--from-raw",
        nargs="+",
        metavar="FILE",
        help="play nothing: report the games of these --raw files (chunks of one comparison, e.g. "
        "--seed 1000 --deals 10 and --seed 1010 --deals 10); --agents names the agents to report",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="MODULE.NAME=JSON",
        help="before any game, set a module attribute (e.g. an evaluation switch) to a JSON value",
    )
    ap.add_argument(
        "--call",
        action="append",
        default=[],
        metavar="MODULE.FUNC=ARG",
        help="before any game, call a module function with one string argument (e.g. a weights file)",
    )
    args = ap.parse_args(argv)
    for item in args.set:
        _setup(item, call=False)
    for item in args.call:
        _setup(item, call=True)
    from farmtable.agents.levels import is_level, level_spec

    specs = [level_spec(s, args.game, args.players) if is_level(s) else s for s in args.agents]
    for s in specs:
        farmtable.agents.make(s)  # a bad spec fails before any game
    variants = tuple(args.variant)
    if args.players == 2 and len(specs) != 2:
        ap.error("--players 2 compares exactly two agents")
    if args.from_raw:
        played = load_raw(args.from_raw, args.game, specs)
        if args.players == 2:  # seat balance: only deals played from both seats (a cut-short chunk may end on one)
            seats: dict[int, int] = {}
            for g in played:
                seats[g.deal] = seats.get(g.deal, 0) + 1
            played = [g for g in played if seats[g.deal] == 2]
        else:  # paired: only the deals every agent played (runs cut short, or one run per agent)
            deals = [{g.deal for g in played if g.specs[0] == s} for s in specs]
            missing = [s for s, d in zip(specs, deals, strict=True) if not d]
            if missing:
                raise SystemExit(f"no game of {', '.join(missing)} in {', '.join(args.from_raw)}")
            common = set.intersection(*deals)
            dropped = sum(len(d - common) for d in deals)
            played = [g for g in played if g.deal in common]
            if dropped:
                print(f"({dropped} games left out: their deals were not played by every agent)\n")
        print(f"$ python benchmarks/ai/compare.py {' '.join(sys.argv[1:] if argv is None else argv)}\n")
        print(report(args.game, args.players, variants, specs, played))
        return 0
    tasks: list[tuple[str, list[str], tuple[str, ...], int, int]] = []
    for deal in range(args.deals):
        if args.players == 1:
            tasks += [(args.game, [s], variants, args.seed, deal) for s in specs]
        else:
            tasks += [(args.game, [specs[0], specs[1]], variants, args.seed, deal)]
            tasks += [(args.game, [specs[1], specs[0]], variants, args.seed, deal)]
    start = time.process_time()
    raw = open(args.raw, "w") if args.raw else None  # noqa: SIM115  (closed below; written game by game)
    played = []
    try:
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                for g in pool.map(_task, tasks, chunksize=1):
                    played.append(_written(raw, g))
        else:
            played = [_written(raw, _task(t)) for t in tasks]
    finally:
        if raw is not None:
            raw.close()
    cmd = "python benchmarks/ai/compare.py " + " ".join(
        f'"{a}"' if any(ch in a for ch in ",: ") else a for a in (argv if argv is not None else sys.argv[1:])
    )
    print(f"$ {cmd}\n")
    print(report(args.game, args.players, variants, specs, played))
    print(f"\n(main process CPU {time.process_time() - start:.0f} s; decisions timed inside the workers)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
