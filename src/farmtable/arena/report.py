"""``farmtable report``: one HTML page with plots (matplotlib PNGs) and the tables behind them.

For every set of comparable games in the database (same game, player count and
variants): score distributions per agent, the head-to-head win-rate matrix, win rate
per seat (first-player advantage) with 95% intervals, and game lengths; for solo games,
the score distribution and the rulebook's tiers.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from farmtable.arena import solo, stats
from farmtable.arena.jobs import GameRecord
from farmtable.arena.store import ResultStore


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ImportError("the report's plots need matplotlib: pip install 'farmtable[arena]'") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _plt().close(fig)
    return path.name


def plot_scores(records: list[GameRecord], path: Path, title: str) -> str:
    """Box plot of final totals per agent (every seat it took); returns the file name."""
    plt = _plt()
    by_agent: dict[str, list[int]] = {}
    for r in records:
        for seat, agent in enumerate(r.agents):
            by_agent.setdefault(agent, []).append(r.totals[seat])
    names = sorted(by_agent)
    fig, ax = plt.subplots(figsize=(max(4.5, 1.6 * len(names)), 3.6))
    ax.boxplot([by_agent[a] for a in names], showmeans=True)
    ax.set_xticks(range(1, len(names) + 1), names, rotation=15)
    ax.set_ylabel("final score")
    ax.set_title(f"Scores per agent — {title}", fontsize=10)
    return _save(fig, path)


def plot_matrix(records: list[GameRecord], path: Path, title: str) -> str | None:
    """Heat map: row agent finishes ahead of column agent (share of meetings); None with one agent."""
    pairs = stats.head_to_head(records)
    names = sorted({a for pair in pairs for a in pair})
    if len(names) < 2:
        return None
    plt = _plt()
    grid = [[pairs[a, b].value if (a, b) in pairs else float("nan") for b in names] for a in names]
    fig, ax = plt.subplots(figsize=(1.3 * len(names) + 2.5, 1.1 * len(names) + 1.5))
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(names)), names, rotation=20)
    ax.set_yticks(range(len(names)), names)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if (a, b) in pairs:
                ax.text(
                    j,
                    i,
                    f"{100 * pairs[a, b].value:.0f}%\n±{50 * (pairs[a, b].high - pairs[a, b].low):.0f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                )
    fig.colorbar(image, ax=ax, label="row ahead of column")
    ax.set_title(f"Head to head — {title}", fontsize=10)
    return _save(fig, path)


def plot_seats(records: list[GameRecord], path: Path, title: str) -> str:
    """Win rate per seat with 95% intervals, against the fair share ``1/players``."""
    plt = _plt()
    rates = stats.seat_rates(records)
    fig, ax = plt.subplots(figsize=(4.5, 3.4))
    xs = list(range(len(rates)))
    ax.bar(
        xs,
        [r.value for r in rates],
        color="#6a9f58",
        yerr=[[r.value - r.low for r in rates], [r.high - r.value for r in rates]],
        capsize=6,
    )
    ax.axhline(1 / records[0].players, color="grey", linestyle="--", label="fair share")
    ax.set_xticks(xs, [f"seat {s}" for s in xs])
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title(f"First-player advantage — {title}", fontsize=10)
    return _save(fig, path)


def plot_lengths(records: list[GameRecord], path: Path, title: str) -> str:
    """Histogram of decisions per game."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(4.5, 3.4))
    ax.hist(stats.lengths(records), bins=20, color="#c98b3a")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title(f"Game length — {title}", fontsize=10)
    return _save(fig, path)


def plot_solo(records: list[GameRecord], path: Path, title: str) -> str:
    """Histogram of solo totals, one colour per agent."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    for agent in sorted({r.agents[0] for r in records}):
        ax.hist([r.totals[0] for r in records if r.agents[0] == agent], bins=20, alpha=0.6, label=agent)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    ax.set_title(f"Solo scores — {title}", fontsize=10)
    return _save(fig, path)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _pct(r: stats.Rate) -> str:
    return str(r)


def _section(key: tuple[str, int, tuple[str, ...]], records: list[GameRecord], out: Path) -> str:
    game, players, variants = key
    title = f"{game}, {players} player{'s' if players > 1 else ''}" + (f", {'+'.join(variants)}" if variants else "")
    stem = _slug(title)
    parts = [f"<h2>{html.escape(title)} — {len(records)} games</h2>"]
    images: list[str | None] = []
    if players == 1:
        images.append(plot_solo(records, out / f"{stem}-solo.png", title))
        for agent in sorted({r.agents[0] for r in records}):
            summary = solo.summarize([r for r in records if r.agents[0] == agent])
            q = solo.quantiles(summary.totals)
            parts.append(f"<h3>{html.escape(agent)}</h3>")
            parts.append(
                _table(
                    ["games", "min", "p10", "p25", "median", "p75", "p90", "max"],
                    [[str(summary.games), *(f"{v:g}" for v in q)]],
                )
            )
            if summary.tiers:
                parts.append(
                    _table(
                        ["tier (or better)", "share of games [95% CI]"], [[name, _pct(r)] for name, r in summary.tiers]
                    )
                )
    else:
        images += [
            plot_scores(records, out / f"{stem}-scores.png", title),
            plot_matrix(records, out / f"{stem}-matrix.png", title),
            plot_seats(records, out / f"{stem}-seats.png", title),
        ]
        parts.append(
            _table(
                ["agent", "seats", "win rate [95% CI]", "mean score [95% CI]", "mean place"],
                [
                    [
                        s.agent,
                        str(s.seats),
                        _pct(s.wins),
                        f"{s.score[0]:.1f} [{s.score[1]:.1f}, {s.score[2]:.1f}]",
                        f"{s.place:.2f}",
                    ]
                    for s in stats.agent_summaries(records)
                ],
            )
        )
        seat_scores = stats.seat_scores(records)
        parts.append(
            _table(
                ["seat", "win rate [95% CI]", "mean score"],
                [[str(i), _pct(r), f"{seat_scores[i][0]:.1f}"] for i, r in enumerate(stats.seat_rates(records))],
            )
        )
        rated = stats.ratings(records)
        if rated:
            parts.append(
                _table(
                    ["agent", "openskill mu", "sigma", "ordinal (mu−3σ)", "games"],
                    [[r.agent, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.games)] for r in rated],
                )
            )
    images.append(plot_lengths(records, out / f"{stem}-length.png", title))
    parts.append(
        '<div class="plots">' + "".join(f'<img src="{name}" alt="{name}">' for name in images if name) + "</div>"
    )
    return "\n".join(parts)


STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#eef3ea}td:first-child{text-align:left}.plots img{max-width:49%;margin:.2em}"""


def write_report(db: Path | str, out: Path | str) -> Path:
    """Write ``index.html`` and its PNG plots into ``out`` from the games in ``db``; returns the page."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    store = ResultStore(db)
    try:
        records = store.records()
    finally:
        store.close()
    if not records:
        raise ValueError(f"{db} holds no games: run `farmtable arena` or `farmtable solo` with --db first")
    sections = [_section(key, recs, out) for key, recs in sorted(stats.group(records).items())]
    page = (
        "<!doctype html><html><head><meta charset='utf-8'><title>farmtable arena report</title>"
        f"<style>{STYLE}</style></head><body><h1>farmtable arena report</h1>"
        f"<p>{len(records)} games from <code>{html.escape(str(db))}</code>. Win rates count a shared win as a "
        "split share; intervals are 95% (Wilson for rates, normal for means). The matrix shows how often the "
        "row agent finished ahead of the column agent, ± half the interval width.</p>"
        + "\n".join(sections)
        + "</body></html>"
    )
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
