"""The duel player's equilibrium play in phase 1 (``duel.choose_pair`` with ``eq``/``nash``)."""

from __future__ import annotations

import random
import time
from itertools import combinations

import pytest

import farmtable.agents
from farmtable.agents.greedy import GreedyAgent
from farmtable.core import clock
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.equilibrium import equilibrium
from farmtable.games.farmerama.rules import CARD_ACTIONS, FarmeramaState
from tests.games.farmerama.positions import duel_position, greedy_round_start, new

PAIRS = list(combinations(range(len(CARDS)), 2))


def _table(state: FarmeramaState) -> list[list[float]]:
    base = duel._base(state.clone(), 1)
    return [[duel.payoff(base, 0, mine, theirs) for theirs in PAIRS] for mine in PAIRS]


def test_nash_play_draws_its_pair_from_the_tables_maximin_strategy() -> None:
    state = duel_position()
    x, _, _ = equilibrium(_table(state))
    support = {PAIRS[i] for i, w in enumerate(x) if w > 1e-9}
    drawn = {duel.choose_pair(state.clone(), 0, temp=0.5, nash=1.0, rng=random.Random(s)) for s in range(12)}
    assert drawn <= support
    assert None not in drawn


def test_a_full_equilibrium_model_is_answered_best() -> None:
    # eq=1: the other is modelled by its minimax strategy alone; the pair is a best answer to it.
    state = duel_position()
    table = _table(state)
    _, y, value = equilibrium(table)
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, eq=1.0)
    assert pair is not None
    against = {mine: sum(w * row[j] for j, w in enumerate(y)) for mine, row in zip(PAIRS, table, strict=True)}
    assert against[pair] == pytest.approx(max(against.values()))
    assert against[pair] == pytest.approx(value, abs=1e-6)  # the minimax strategy holds every pair to the value


def test_the_model_mixed_with_the_equilibrium_moves_the_answer_towards_it() -> None:
    # temp 0.01: the model is sure of the other's favourite pair; the best answer to it may lose to
    # the other's minimax strategy. With eq=1 the answer is never worse against that strategy.
    state = duel_position()
    table = _table(state)
    _, y, _ = equilibrium(table)

    def against_y(pair: tuple[int, ...] | None) -> float:
        assert pair is not None
        return sum(w * table[PAIRS.index(pair)][j] for j, w in enumerate(y))

    sharp = duel.choose_pair(state.clone(), 0, temp=0.01)
    robust = duel.choose_pair(state.clone(), 0, temp=0.01, eq=1.0)
    assert against_y(robust) >= against_y(sharp) - 1e-9


def test_nash_needs_an_rng() -> None:
    with pytest.raises(ValueError, match="rng"):
        duel.choose_pair(duel_position(), 0, nash=0.5)


def test_a_passed_deadline_leaves_no_rating_so_the_agent_falls_back() -> None:
    # Iteration-free: with the deadline already past nothing is rated (the agent then plays greedy's card).
    state = duel_position()
    assert duel.choose_pair(state, 0, eq=1.0, deadline=time.process_time() - 1.0) is None


def test_seeded_mixed_play_repeats() -> None:
    def cards(seed: int) -> list[str]:
        agent = duel.DuelAgent(seed=seed, time=None, temp=0.5, nash=0.5, eq=0.5)
        state = duel_position()
        first = agent.act(state, 0)
        state.apply(0, first)
        return [first, agent.act(state, 0)]

    assert cards(7) == cards(7)
    assert all(c in CARD_ACTIONS for c in cards(8))


def test_equilibrium_options_leave_solo_play_alone() -> None:
    state = new(players=1, seed=7)
    agent, greedy = duel.DuelAgent(seed=3, eq=0.5, nash=0.5), GreedyAgent(seed=3)
    for _ in range(30):
        if state.is_over():
            break
        action = agent.act(state, 0)
        assert action == greedy.act(state, 0)
        state.apply(0, action)


@pytest.mark.parametrize(
    ("spec", "word"),
    [
        ("farmerama-duel:eq=1.5", "eq"),
        ("farmerama-duel:eq=-0.1", "eq"),
        ("farmerama-duel:nash=2", "nash"),
        ("farmerama-duel:nash=often", "nash"),
    ],
)
def test_bad_equilibrium_parameters_are_refused_clearly(spec: str, word: str) -> None:
    with pytest.raises(ValueError, match=word):
        farmtable.agents.make(spec, seed=1)


def test_the_spec_names_the_options() -> None:
    agent = farmtable.agents.make("farmerama-duel:time=0.2,temp=0.5,eq=0.5,nash=0.25", seed=1)
    assert agent.spec == "farmerama-duel:eq=0.5,nash=0.25,temp=0.5,time=0.2"


def _phase_three_start(state: FarmeramaState, mine: tuple[int, ...], theirs: tuple[int, ...]) -> FarmeramaState:
    """``state`` after player 0 chose ``mine`` and player 1 ``theirs`` and the awards were settled."""
    sim = duel._base(state.clone(), 1)
    for card in mine:
        sim.apply(0, CARD_ACTIONS[card])
    for card in theirs:
        sim.apply(1, CARD_ACTIONS[card])
    duel._settle_awards(sim)
    return sim


@pytest.mark.parametrize(("mine", "theirs"), [((0, 2), (1, 3)), ((0, 1), (0, 4)), ((1, 2), (2, 3))])
def test_a_best_line_is_worth_at_least_the_step_by_step_carry_out(
    mine: tuple[int, ...], theirs: tuple[int, ...]
) -> None:
    sim = _phase_three_start(duel_position(), mine, theirs)
    for player in (0, 1):  # the second player too (rated as if it carried out its cards first)
        assert duel.line_value(sim, player) >= duel.own_value(sim, player) - 1e-9
    memo: dict[tuple[object, ...], float] = {}
    first = duel.line_value(sim, 1, memo)
    assert memo and duel.line_value(sim, 1, memo) == first


def test_line_value_refuses_a_position_outside_phase_three() -> None:
    with pytest.raises(ValueError, match="no cards to carry out"):
        duel.line_value(duel_position(), 0)


def test_refine_picks_among_the_best_pairs_by_their_best_lines() -> None:
    state = greedy_round_start(seed=2, round_no=4)  # here the refinement changes the table's choice
    base = duel._base(state.clone(), 1)
    model = duel.opponent_model(base, 1, 0.5)
    rated = {mine: sum(w * duel.payoff(base, 0, mine, theirs) for theirs, w in model) for mine in PAIRS}
    top = sorted(rated, key=lambda pair: -rated[pair])[:3]
    columns = duel.refine_columns(model)
    lines: dict[tuple[object, ...], float] = {}
    by_line = {mine: sum(w * duel.payoff(base, 0, mine, q, lines=lines) for q, w in columns) for mine in top}
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, refine=3)
    assert pair in top
    assert by_line[pair] == pytest.approx(max(by_line.values()))


def test_refine_out_of_time_plays_the_tables_best_pair() -> None:
    # Iteration-free: the decision's clock has already run out, so the refinement (which checks
    # it) stops at once and the plain table's choice stands.
    state = greedy_round_start(seed=2, round_no=4)
    assert duel.choose_pair(state.clone(), 0, temp=0.5, refine=3) != duel.choose_pair(state.clone(), 0, temp=0.5)
    with clock.deadline_at(time.process_time() - 1.0):
        plain = duel.choose_pair(state.clone(), 0, temp=0.5)
        refined = duel.choose_pair(state.clone(), 0, temp=0.5, refine=3)
    assert plain is not None and refined == plain


@pytest.mark.parametrize("spec", ["farmerama-duel:refine=-1", "farmerama-duel:refine=11", "farmerama-duel:refine=2.5"])
def test_bad_refine_is_refused_clearly(spec: str) -> None:
    with pytest.raises(ValueError, match="refine"):
        farmtable.agents.make(spec, seed=1)
