"""The last takes of a two-player game solved exactly (``endgame.py``, ``farmini-duel:endgame=1``)."""

from __future__ import annotations

import time
from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.core import clock
from farmtable.games.farmini import duel, endgame, evaluation
from farmtable.games.farmini.rules import FarminiState


def _near_end(seed: int, deck: int, table: int) -> FarminiState:
    """A two-player position (greedy-ish play: the reply model; the first game seed from ``seed`` on
    that reaches one) at a take with ``deck`` cards in the deck and ``table`` face up."""
    for game_seed in range(seed, seed + 20):
        state = farmtable.get_game("farmini").new_game(players=2, seed=game_seed)
        assert isinstance(state, FarminiState)
        while not state.is_over():
            if state.pending is None and len(state.deck) == deck and len(state.table) == table:
                return state
            p = state.current
            if state.pending is None:
                duel.greedy_take(state, p)
            duel.finish_turn(state, p)
    raise AssertionError(f"seeds {seed}+: no take with {deck} in the deck and {table} face up")


def _after(state: FarminiState, p: int, action: Any) -> FarminiState:
    child = state.clone()
    child.apply(p, action)
    duel.finish_turn(child, p)
    return child


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_with_two_cards_left_each_take_is_rated_by_the_game_it_ends(seed: int) -> None:
    # deck empty, two cards face up: my take, then the other's forced take, then the game is over
    state = _near_end(seed, deck=0, table=2)
    p = state.current
    values = endgame.take_values(state, p)
    assert set(values) == set(state.legal_actions(p))
    for action, value in values.items():
        child = _after(state, p, action)
        last = child.legal_actions(child.current)
        assert len(last) == 1
        end = _after(child, child.current, last[0])
        assert end.is_over()
        totals, winners = end.result().totals, end.result().winners
        won = endgame.WIN * (1.0 / len(winners) if p in winners else 0.0)
        assert value == pytest.approx(won + totals[p] - totals[1 - p])
    assert values[endgame.best_take(state, p)] == max(values.values())


@pytest.mark.parametrize("seed", [2, 6])
def test_with_three_cards_left_the_other_answers_with_its_best(seed: int) -> None:
    # minimax: my take's value is the worst for me over the other's replies, each then forced
    state = _near_end(seed, deck=0, table=3)
    p = state.current
    values = endgame.take_values(state, p)
    for action, value in values.items():
        child = _after(state, p, action)
        other = child.current
        replies = []
        for reply in child.legal_actions(other):
            grand = _after(child, other, reply)
            last = grand.legal_actions(grand.current)[0]
            replies.append(endgame.final_value(_after(grand, grand.current, last), p))
        assert value == pytest.approx(min(replies))


def test_the_win_share_is_read_back_from_a_rating() -> None:
    assert endgame.win_share(endgame.WIN - 7) == 1.0
    assert endgame.win_share(endgame.WIN / 2) == 0.5
    assert endgame.win_share(-4.0) == 0.0
    assert endgame.win_share(0.0) == 0.0  # lost on the tiebreaker


def test_only_positions_with_nothing_hidden_are_solved() -> None:
    state = farmtable.get_game("farmini").new_game(players=2, seed=3)
    assert isinstance(state, FarminiState)
    assert not endgame.solvable(state)
    with pytest.raises(ValueError, match="at most one card in the deck"):
        endgame.take_values(state, state.current)
    assert endgame.solvable(_near_end(3, deck=1, table=4))


def test_a_passed_deadline_stops_the_solve() -> None:
    state = _near_end(5, deck=0, table=4)
    with clock.deadline_at(time.process_time() - 1.0), pytest.raises(clock.OutOfTime):
        endgame.take_values(state, state.current)


def test_the_duel_plays_the_exact_best_take_without_a_budget() -> None:
    for seed in (1, 7):
        state = _near_end(seed, deck=0, table=4)
        p = state.current
        values = endgame.take_values(state, p)
        pick = duel.DuelAgent(seed=1, time=None, worlds=2, endgame=1).act(state, p)
        assert values[pick] == max(values.values())


def test_a_spent_budget_gives_greedys_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # iteration-free: the clock reads 10 s after the decision's first reading, past the deadline
    state = _near_end(5, deck=1, table=4)
    p = state.current
    values = {}  # greedy's card: the first of best heuristic
    for action in state.legal_actions(p):
        child = state.clone()
        child.apply(p, action)
        values[action] = evaluation.heuristic(child, p)
    top = max(values.values())
    expected = next(a for a in state.legal_actions(p) if values[a] >= top)
    readings = iter([0.0])
    monkeypatch.setattr(time, "process_time", lambda: next(readings, 10.0))
    pick = duel.DuelAgent(seed=1, time=0.2, endgame=1).act(state, p)
    assert pick == expected


def test_endgame_is_a_spec_parameter_and_bad_values_are_refused() -> None:
    agent = farmtable.agents.make("farmini-duel:time=0.2,endgame=1", seed=1)
    assert isinstance(agent, duel.DuelAgent)
    assert agent.spec == "farmini-duel:endgame=1,time=0.2"
    for bad in (2, -1, True, 0.5):
        with pytest.raises(ValueError, match="endgame"):
            duel.DuelAgent(endgame=bad)  # type: ignore[arg-type]


def test_a_seeded_game_with_the_endgame_repeats_itself() -> None:
    def play() -> list[int]:
        state = farmtable.get_game("farmini").new_game(players=2, seed=11)
        agents = [duel.DuelAgent(seed=5, time=None, worlds=1, endgame=1), farmtable.agents.make("greedy", seed=6)]
        while not state.is_over():
            p = state.actors()[0]
            state.apply(p, agents[p].act(state, p))
        return list(state.result().totals)

    assert play() == play()
