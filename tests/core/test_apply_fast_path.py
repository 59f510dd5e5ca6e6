"""``apply`` takes an action object straight from the current legal list without checking it again,
and still checks everything else in full (issue 16): stale lists, edited lists, other states, typed text.
"""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable.core import IllegalAction, State
from farmtable.core import game as core_game


class CountingState:
    """Counts the full checks a state makes (wraps ``check_action`` on the instance's class)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type[State[str]]) -> None:
        self.calls = 0
        original = cls.check_action

        def counting(state: State[str], player: int, action: str) -> None:
            self.calls += 1
            original(state, player, action)

        monkeypatch.setattr(cls, "check_action", counting)


def _ff(seed: int = 3) -> State[str]:
    state: State[str] = farmtable.get_game("farmers-finances").new_game(players=2, seed=seed)
    return state


def test_an_action_from_the_legal_list_skips_the_check_and_plays_like_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _ff(), _ff()
    counter = CountingState(monkeypatch, type(fast))
    rng = random.Random(5)
    moves = 0
    while not fast.is_over() and moves < 200:
        player = fast.actors()[0]
        action = rng.choice(fast.legal_actions(player))
        fast.apply(player, action)
        slow.apply(player, "  " + str(action).upper() + " ")  # typed text: parsed and checked in full
        assert fast.to_json() == slow.to_json()
        moves += 1
    assert moves > 10
    assert counter.calls == moves  # only the typed moves were checked


def test_a_stale_list_is_checked_in_full_and_refused_with_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _ff()
    legal = state.legal_actions(0)
    assert "buy animal" in legal
    buy_animal = legal[legal.index("buy animal")]
    state.apply(0, buy_animal)
    state.apply(0, state.legal_actions(0)[-1])  # the market change: player 1's turn
    state.legal_actions(1)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="not player 0's decision"):
        state.apply(0, buy_animal)  # the same object, from a list of an earlier position
    assert state.to_json() == before


def test_an_edited_list_or_another_states_list_gives_no_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _ff()
    legal = state.legal_actions(0)
    legal.append("move 5")  # not legal in the action phase
    before = state.to_json()
    with pytest.raises(IllegalAction, match="first take this turn's action"):
        state.apply(0, legal[-1])
    assert state.to_json() == before
    other = _ff(seed=4)
    other_legal = other.legal_actions(0)
    counter = CountingState(monkeypatch, type(state))
    state.apply(0, other_legal[0])  # legal here too, but it came from another state's list: checked
    assert counter.calls == 1


def test_a_direct_change_forgets_the_list() -> None:
    state = _ff()
    legal = state.legal_actions(0)
    buy = legal[0]
    state._do(0, buy)  # the way search agents play: the list handed out before is now stale
    assert core_game._memo is None
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(0, buy)
    assert state.to_json() == before


def test_an_equal_but_not_identical_object_is_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _ff()
    legal = state.legal_actions(0)
    copy = "".join(list(str(legal[0])))  # equal text, another object
    assert copy == legal[0] and copy is not legal[0]
    counter = CountingState(monkeypatch, type(state))
    state.apply(0, copy)
    assert counter.calls == 1


def test_a_player_who_is_not_to_act_is_refused_even_with_an_identical_object() -> None:
    state = _ff()
    legal = state.legal_actions(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="not player 1's decision"):
        state.apply(1, legal[0])
    with pytest.raises(IllegalAction):
        state.apply(True, legal[0])  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize("game_id", farmtable.list_games())
def test_every_game_plays_the_same_through_the_fast_path(game_id: str) -> None:
    """Random games: object moves (fast path) and notation moves (full path) give the same saves."""
    game = farmtable.get_game(game_id)
    fast = game.new_game(players=2, seed=11)
    slow = game.new_game(players=2, seed=11)
    rng = random.Random(11)
    for _ in range(60):
        if fast.is_over():
            break
        player = fast.actors()[0]
        action = rng.choice(fast.legal_actions(player))
        fast.apply(player, action)
        slow.apply(player, str(action))
        assert fast.to_json() == slow.to_json()
