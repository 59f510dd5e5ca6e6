"""The duel player's anytime refinement (``anytime=1``): a re-rating cut short still decides."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

import farmtable.agents
from farmtable.core import clock
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.rules import FarmeramaState
from tests.games.farmerama.positions import greedy_round_start

PAIRS: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))
KEEP = 3
PAYOFF = duel.payoff  # the real one (the tests' clock cut replaces duel.payoff)


def _position() -> FarmeramaState:
    return greedy_round_start(seed=3, round_no=5)  # here the first refined column changes the table's choice


def _parts(
    state: FarmeramaState,
) -> tuple[dict[tuple[int, ...], float], list[tuple[tuple[int, ...], float]], list[tuple[int, ...]]]:
    """The table's ratings (temp 0.5, no deep model), the model, and its ``KEEP`` best pairs."""
    base = duel._base(state.clone(), 1)
    model = duel.opponent_model(base, 1, 0.5)
    rated = {mine: sum(w * PAYOFF(base, 0, mine, theirs) for theirs, w in model if w > 0) for mine in PAIRS}
    return rated, model, sorted(rated, key=lambda pair: -rated[pair])[:KEEP]


def _substituted(state: FarmeramaState, done: int) -> dict[tuple[int, ...], float]:
    """Each of the ``KEEP`` pairs' table rating with the first ``done`` columns' entries replaced by
    their best-line values: what the anytime refinement rates after ``done`` columns."""
    base = duel._base(state.clone(), 1)
    rated, model, top = _parts(state)
    lines: dict[tuple[object, ...], float] = {}
    out = {}
    for mine in top:
        fix = sum(
            w * (PAYOFF(base, 0, mine, q, lines=lines) - PAYOFF(base, 0, mine, q))
            for q, w in duel.refine_columns(model)[:done]
        )
        out[mine] = rated[mine] + fix
    return out


@pytest.fixture
def cut_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Make the clock run out after the first ``limit[0]`` best-line payoffs (by construction: the
    counted payoff raises :class:`clock.OutOfTime` as :func:`clock.check` would)."""
    limit = [0]
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> float:
        lines = kwargs.get("lines", args[5] if len(args) > 5 else None)
        if lines is not None:
            if calls[0] >= limit[0]:
                raise clock.OutOfTime
            calls[0] += 1
        return PAYOFF(*args, **kwargs)

    monkeypatch.setattr(duel, "payoff", counted)
    yield limit


def test_a_finished_anytime_refinement_is_the_tables_rating_with_the_line_columns() -> None:
    state = _position()
    expected = _substituted(state, len(duel.refine_columns(_parts(state)[1])))
    report: dict[str, Any] = {}
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, refine=KEEP, anytime=True, report=report)
    assert pair == max(expected, key=lambda p: expected[p])
    assert report["refine"] and not report["stopped"]
    assert report["done"] == report["columns"] >= 1


def test_anytime_cut_after_one_column_decides_by_that_column(cut_after: list[int]) -> None:
    state = _position()
    expected = _substituted(state, 1)
    _, _, top = _parts(state)
    cut_after[0] = KEEP  # one column: a payoff for each of the KEEP pairs
    report: dict[str, Any] = {}
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, refine=KEEP, anytime=True, report=report)
    assert report["stopped"] and report["done"] == 1 < report["columns"]
    assert pair == max(expected, key=lambda p: expected[p])
    assert pair != top[0]  # here the first column alone already overturns the table's choice


def test_without_anytime_a_cut_refinement_is_thrown_away(cut_after: list[int]) -> None:
    state = _position()
    _, _, top = _parts(state)
    cut_after[0] = KEEP + 1  # the first column finished, the second cut
    report: dict[str, Any] = {}
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, refine=KEEP, report=report)
    assert report["stopped"] and report["done"] == 1
    assert pair == top[0]


def test_anytime_with_no_pair_re_rated_plays_the_tables_best_pair(cut_after: list[int]) -> None:
    state = _position()
    cut_after[0] = 0
    plain = duel.choose_pair(state.clone(), 0, temp=0.5)
    report: dict[str, Any] = {}
    refined = duel.choose_pair(state.clone(), 0, temp=0.5, refine=KEEP, anytime=True, report=report)
    assert report["stopped"] and report["done"] == 0 and report["rows"] == 0
    assert plain is not None and refined == plain


@pytest.mark.parametrize("rows", [1, 2])
def test_anytime_cut_in_the_first_column_keeps_the_best_pair_it_re_rated(cut_after: list[int], rows: int) -> None:
    state = _position()
    expected = _substituted(state, 1)
    _, _, top = _parts(state)
    cut_after[0] = rows  # the first column cut after the table's best `rows` pairs
    report: dict[str, Any] = {}
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, refine=KEEP, anytime=True, report=report)
    assert report["stopped"] and report["done"] == 0 and report["rows"] == rows
    assert pair == max(top[:rows], key=lambda p: expected[p])


def test_anytime_with_the_clock_already_out_plays_the_tables_best_pair() -> None:
    state = _position()
    with clock.deadline_at(time.process_time() - 1.0):
        plain = duel.choose_pair(state.clone(), 0, temp=0.5)
        refined = duel.choose_pair(state.clone(), 0, temp=0.5, refine=KEEP, anytime=True)
    assert plain is not None and refined == plain


def test_the_agent_keeps_a_report_per_table() -> None:
    agent = duel.DuelAgent(seed=3, time=None, temp=0.5, refine=3, anytime=1)
    state = _position()
    agent.act(state, 0)
    assert isinstance(agent, duel.DuelAgent) and agent.anytime
    assert len(agent.tables) == 1
    assert agent.tables[0]["round"] == state.round and agent.tables[0]["refine"]
    assert agent.params["anytime"] == 1


@pytest.mark.parametrize("spec", ["farmerama-duel:anytime=2", "farmerama-duel:anytime=0.5"])
def test_a_bad_anytime_is_refused_clearly(spec: str) -> None:
    with pytest.raises(ValueError, match="anytime"):
        farmtable.agents.make(spec, seed=1)
