"""The duel player's searched reply (``reply=search``) and the win objective's spread scale (``spread``)."""

from __future__ import annotations

import random

import pytest

import farmtable.agents
from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms import duel
from farmtable.games.tiny_farms.rules import MOVE, TinyFarmsState
from tests.games.tiny_farms.builder import new


def _moves(seed: int, first: bool) -> list[TinyFarmsState]:
    """The 2-player ``MOVE`` positions of one greedy game where the player to move is the round's
    first (``first``) or its last."""
    rng = random.Random(seed)
    state = new(2, seed=seed)
    seen = []
    while not state.is_over():
        p = state.current
        if state.phase == MOVE and state.modifier == 0 and (state.turn_index == 0) == first:
            seen.append(state.clone())
        state.apply(p, state.legal_actions(p)[greedy_choice(state, p, rng)])
    return seen


def test_the_searched_reply_is_the_choice_the_rival_s_own_duel_search_makes() -> None:
    """After the first player's turn, :meth:`Search.searched_turn` plays the die and farmer that
    ``duel.choose`` (the Hard player's choice, margin objective) makes for the rival there."""
    checked = differs = 0
    moves = _moves(22, first=True)
    for state in (moves[1], moves[2], moves[6]):
        mine = duel.best_turn(state, duel.TURN_MILK)
        assert mine.current != state.current and mine.epoch == state.epoch
        rival = mine.current
        replied = duel.Search(state.current).searched_turn(mine.clone(), mine.epoch)
        played = mine.clone()  # the rival's turn as the duel player plays it, one decision at a time
        while not played.is_over() and played.epoch == mine.epoch and played.current == rival:
            played.apply(rival, duel.choose(played.clone()).action)
        assert (replied.red, replied.blue, replied.milk[rival]) == (played.red, played.blue, played.milk[rival])
        assert replied.epoch != mine.epoch or replied.is_over()  # the rival's turn ended the round
        greedy = duel.best_turn(mine, duel.MILK_STEPS)
        differs += (greedy.red, greedy.blue, greedy.milk[rival]) != (played.red, played.blue, played.milk[rival])
        checked += 1
    assert checked == 3
    assert differs >= 1  # these positions tell the searched reply from the evaluation's greedy one


def test_the_searched_reply_changes_nothing_when_no_one_moves_after_the_player() -> None:
    """The last player of a round has no reply to model: ``reply=search`` chooses exactly as the default."""
    for state in _moves(22, first=False)[1:9:3]:
        base = duel.choose(state.clone())
        searched = duel.choose(state.clone(), reply="search")
        assert (searched.action, searched.value, searched.values) == (base.action, base.value, base.values)


def test_the_second_pass_values_only_the_first_pass_s_best_candidates() -> None:
    """With ``reply=search`` the player first of its round values :data:`duel.RESEARCHED`
    candidates again, and plays one of the first pass's best."""
    state = _moves(23, first=True)[3]
    base = duel.choose(state.clone())
    searched = duel.choose(state.clone(), reply="search")
    assert searched.valued == duel.RESEARCHED
    ranked = sorted(base.values, key=lambda a: -base.values[a])
    assert searched.action in ranked[: duel.RESEARCHED]
    assert searched.action in state.legal_actions(state.current)


def test_a_tiny_budget_still_gives_a_legal_move_with_the_searched_reply() -> None:
    """No candidate valued once the deadline has passed (counted, not timed): the one-step best is played."""
    state = _moves(24, first=True)[2]
    cut = duel.choose(state.clone(), budget=1e-9, reply="search")
    assert cut.valued == 0 and cut.action in state.legal_actions(state.current)


def test_a_narrower_spread_makes_the_win_chance_surer() -> None:
    """``spread`` < 1 narrows the fitted spreads: a leading player's chance rises, a trailing one's falls."""
    state = _moves(25, first=True)[4]
    values = state.evaluate()
    lead = [values[0] + 8.0, values[1]]
    trail = [values[0] - 8.0, values[1]]
    assert duel.win_chance(state, lead, 0, 0.5) > duel.win_chance(state, lead, 0)
    assert duel.win_chance(state, trail, 0, 0.5) < duel.win_chance(state, trail, 0)
    assert duel.win_chance(state, values, 0, 1.0) == duel.win_chance(state, values, 0)


@pytest.mark.parametrize(
    "spec", ["tiny-farms-duel:reply=rival", "tiny-farms-duel:spread=0", "tiny-farms-duel:spread=-1"]
)
def test_bad_reply_and_spread_are_refused_by_name(spec: str) -> None:
    name = spec.split(":")[1].split("=")[0]
    with pytest.raises(ValueError, match=name):
        farmtable.agents.make(spec, seed=1)


def test_the_new_parameters_are_in_the_agent_s_name_only_when_set() -> None:
    assert str(farmtable.agents.make("tiny-farms-duel:time=0.5", seed=1)).startswith("<agent tiny-farms-duel:time=0.5 ")
    agent = farmtable.agents.make("tiny-farms-duel:reply=search,time=1.0", seed=1)
    assert "reply=search" in str(agent)
