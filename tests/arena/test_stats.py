"""Statistics: Wilson intervals, win shares with ties, seat rates, head to head, ratings."""

from __future__ import annotations

import math

import pytest

from farmtable.arena import GameRecord, stats


def rec(agents: list[str], ranking: list[list[int]], totals: list[int], index: int = 0) -> GameRecord:
    return GameRecord("k", "g", len(agents), [], 1, index, agents, [0] * len(agents), [], totals, ranking, {}, 10)


def test_wilson_matches_known_values() -> None:
    low, high = stats.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert stats.wilson(0, 20)[0] == 0.0 and stats.wilson(0, 20)[1] == pytest.approx(0.1611, abs=1e-4)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_mean_ci() -> None:
    mean, low, high = stats.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low < 2.5 < high and high - 2.5 == pytest.approx(2.5 - low)
    assert all(math.isnan(x) for x in stats.mean_ci([]))


def test_shared_wins_are_split_and_places_shared() -> None:
    games = [rec(["a", "b"], [[0], [1]], [10, 5]), rec(["b", "a"], [[0, 1]], [7, 7])]
    summary = {s.agent: s for s in stats.agent_summaries(games)}
    assert summary["a"].wins.value == pytest.approx(0.75) and summary["b"].wins.value == pytest.approx(0.25)
    assert summary["a"].place == pytest.approx(1.25)
    assert summary["a"].score[0] == pytest.approx(8.5)
    seats = stats.seat_rates(games)
    assert [s.value for s in seats] == [0.75, 0.25]
    h2h = stats.head_to_head(games)
    assert h2h["a", "b"].value == pytest.approx(0.75) and h2h["b", "a"].value == pytest.approx(0.25)


def test_ratings_rank_the_better_agent_first() -> None:
    games = []
    for i in range(20):
        agents = ["a", "b"] if i % 2 else ["b", "a"]
        games.append(rec(agents, [[agents.index("a")], [agents.index("b")]], [1, 0], i))
    rated = stats.ratings(games)
    assert [r.agent for r in rated] == ["a", "b"] and rated[0].games == 20
    assert rated[0].mu > rated[1].mu
    assert stats.ratings([rec(["a", "a"], [[0], [1]], [1, 0])]) == []
