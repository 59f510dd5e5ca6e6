"""Statistics over arena games: win rates with 95% confidence intervals, mean scores,
first-player advantage, head-to-head matrix, openskill ratings, game length.

Conventions: a shared first place counts as ``1/k`` of a win for each of the ``k``
players sharing it. Win-rate intervals are Wilson score intervals (good for small
samples and rates near 0 or 1); score intervals are mean ± 1.96 standard errors.
An agent that fills several seats of one game is counted once per seat.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from farmtable.arena.jobs import GameRecord

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a rate of ``successes`` in ``n`` trials (``(0, 1)`` when n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation 95% interval ``(mean, low, high)``."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def win_share(record: GameRecord, seat: int) -> float:
    """How much of a win ``seat`` took in this game: 1, a split share of a shared win, or 0."""
    winners = record.ranking[0] if record.ranking else []
    return 1.0 / len(winners) if seat in winners else 0.0


def place(record: GameRecord, seat: int) -> float:
    """The seat's finishing place (1 = first), tied players sharing the mean of their places."""
    position = 1
    for group in record.ranking:
        if seat in group:
            return position + (len(group) - 1) / 2
        position += len(group)
    return math.nan


@dataclass(frozen=True)
class Rate:
    """A rate with its 95% interval and sample size."""

    value: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{100 * self.value:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"


def rate(successes: float, n: int) -> Rate:
    """A :class:`Rate` from a count (fractional counts allowed for shared wins)."""
    low, high = wilson(successes, n)
    return Rate(successes / n if n else math.nan, low, high, n)


@dataclass(frozen=True)
class AgentSummary:
    """How one agent did: win rate, mean score and mean place, over its seats."""

    agent: str
    seats: int
    wins: Rate
    score: tuple[float, float, float]
    """Mean total with its 95% interval."""
    place: float


def agent_summaries(records: Iterable[GameRecord]) -> list[AgentSummary]:
    """One summary per agent spec, best win rate first."""
    shares: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    places: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for seat, agent in enumerate(r.agents):
            shares[agent].append(win_share(r, seat))
            scores[agent].append(float(r.totals[seat]))
            places[agent].append(place(r, seat))
    out = [
        AgentSummary(
            a, len(shares[a]), rate(sum(shares[a]), len(shares[a])), mean_ci(scores[a]), sum(places[a]) / len(places[a])
        )
        for a in shares
    ]
    out.sort(key=lambda s: (-s.wins.value if s.wins.n else 0.0, s.agent))
    return out


def seat_rates(records: Iterable[GameRecord]) -> list[Rate]:
    """Win rate per seat (seat 0 first): the first-player advantage; fair would be ``1/players``."""
    wins: dict[int, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    for r in records:
        for seat in range(r.players):
            wins[seat] += win_share(r, seat)
            count[seat] += 1
    return [rate(wins[s], count[s]) for s in sorted(count)]


def seat_scores(records: Iterable[GameRecord]) -> list[tuple[float, float, float]]:
    """Mean total per seat with its 95% interval."""
    by_seat: dict[int, list[float]] = defaultdict(list)
    for r in records:
        for seat in range(r.players):
            by_seat[seat].append(float(r.totals[seat]))
    return [mean_ci(by_seat[s]) for s in sorted(by_seat)]


def head_to_head(records: Iterable[GameRecord]) -> dict[tuple[str, str], Rate]:
    """``(a, b) -> `` how often agent a finished ahead of agent b in games both played (ties: half).

    Only pairs of different agents; every pair of seats in a game is one comparison.
    """
    wins: dict[tuple[str, str], float] = defaultdict(float)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for r in records:
        for s, a in enumerate(r.agents):
            for t, b in enumerate(r.agents):
                if s == t or a == b:
                    continue
                ps, pt = place(r, s), place(r, t)
                wins[a, b] += 1.0 if ps < pt else 0.5 if ps == pt else 0.0
                count[a, b] += 1
    return {pair: rate(wins[pair], count[pair]) for pair in count}


@dataclass(frozen=True)
class Rating:
    """An openskill (Plackett-Luce) rating: ``mu`` the skill estimate, ``sigma`` its uncertainty."""

    agent: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A conservative skill: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


def ratings(records: Iterable[GameRecord]) -> list[Rating]:
    """Openskill ratings from the games in order; best first. Empty without openskill installed.

    Games where one agent fills several seats are skipped (a player cannot meet itself).
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return []
    model = PlackettLuce()
    current: dict[str, object] = {}
    played: dict[str, int] = defaultdict(int)
    for r in sorted(records, key=lambda r: (r.game, r.players, r.index)):
        if r.players < 2 or len(set(r.agents)) != len(r.agents):
            continue
        teams = []
        for a in r.agents:
            if a not in current:
                current[a] = model.rating(name=a)
            teams.append([current[a]])
        ranks = [place(r, s) for s in range(r.players)]
        new = model.rate(teams, ranks=ranks)  # type: ignore[arg-type]
        for a, team in zip(r.agents, new, strict=True):
            current[a] = team[0]
            played[a] += 1
    out = [Rating(a, float(v.mu), float(v.sigma), played[a]) for a, v in current.items()]  # type: ignore[attr-defined]
    out.sort(key=lambda x: -x.ordinal)
    return out


def lengths(records: Iterable[GameRecord]) -> list[int]:
    """Decisions per game."""
    return [r.decisions for r in records]


def group(records: Iterable[GameRecord]) -> dict[tuple[str, int, tuple[str, ...]], list[GameRecord]]:
    """Games by (game, players, variants): the sets that make sense to compare."""
    out: dict[tuple[str, int, tuple[str, ...]], list[GameRecord]] = defaultdict(list)
    for r in records:
        out[r.game, r.players, tuple(r.variants)].append(r)
    return dict(out)
