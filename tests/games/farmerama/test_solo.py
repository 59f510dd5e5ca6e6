"""The solo game: action and supply stacks, special action tokens, 4 water, 42 turns, 150 goal."""

from __future__ import annotations

import random

import pytest

from farmtable.core.errors import IllegalAction
from farmtable.games.farmerama.components import HARVEST, SOW, VARIANT_WHEEL_V1, WATER, WATER_CARD
from farmtable.games.farmerama.rules import ACT, SOLO_PICK
from tests.games.farmerama.positions import new, tile_totals


def _finish_turn(state) -> None:  # type: ignore[no-untyped-def]
    if state.phase == SOLO_PICK:
        state.apply(0, "card feed")
    state.apply(0, "done")


def test_solo_setup() -> None:
    state = new(1)
    assert state.supply[WATER] == 4 and state.box[WATER] == 32 - 4 - 3
    assert state.phase == SOLO_PICK and state.turn == 1
    assert state.revealed in (WATER_CARD, SOW, HARVEST)
    assert len(state.action_stack) == 2 and len(state.supply_stack) == 6
    assert state.tokens == 0 and state.display == [] and state.stack == []
    assert state.action_wheel == (1 if state.revealed == WATER_CARD else 0)
    assert tile_totals(state) == [32] * 5


def test_revealed_action_gets_the_higher_number_others_the_lower() -> None:
    state = new(1, variants=(VARIANT_WHEEL_V1,))
    state.revealed, state.action_wheel = SOW, 0
    state._legal = {}
    probe = state.clone()
    probe.apply(0, "card sow")
    assert probe.phase == ACT and probe.boards[0].remaining == 3  # Sow 3/2: the higher number
    probe = state.clone()
    probe.apply(0, "card harvest")
    assert probe.boards[0].remaining == 2  # Harvest 3/2: the lower number
    probe = state.clone()
    probe.apply(0, "card water")
    assert probe.boards[0].remaining == 1  # Water 2/1 (DA-FR1, wheel-v1): the lower number


def test_water_is_limited_by_the_small_supply() -> None:
    state = new(1, variants=(VARIANT_WHEEL_V1,))
    state.revealed, state.action_wheel = WATER_CARD, 3  # water 4/2: 4 alone
    state.supply[WATER] -= 2
    state.box[WATER] += 2
    state._legal = {}
    state.apply(0, "card water")
    state.apply(0, "water")
    state.apply(0, "water")
    assert "water" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="no water left"):
        state.apply(0, "water")


def test_a_water_reveal_moves_the_action_wheel_one_section() -> None:
    state = new(1)
    state.revealed, state.action_stack, state.action_wheel = HARVEST, [SOW, WATER_CARD], 0
    state.revealed_from_shuffle = [HARVEST]
    _finish_turn(state)
    assert state.revealed == WATER_CARD and state.action_wheel == 1
    _finish_turn(state)
    assert state.revealed == SOW and state.action_wheel == 1  # other cards leave it


def test_tokens_come_with_each_new_stack_and_stop_at_three() -> None:
    state = new(1)
    for turn in range(1, 4):
        assert state.turn == turn and state.tokens == 0
        _finish_turn(state)
    assert state.turn == 4 and state.tokens == 1  # the first token after the third turn
    assert len(state.action_stack) == 3  # a 4-card stack, one revealed
    while state.turn < 42:
        _finish_turn(state)
        assert state.tokens <= 3
        if state.turn == 3 + 4 + 5 + 6 + 7 + 8 + 1:
            assert len(state.action_stack) == 9 - 1  # the last stack has 9 cards
    assert state.tokens == 3


def test_redraw_costs_a_token_and_puts_the_card_under_the_stack() -> None:
    state = new(1)
    assert "redraw" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="token"):
        state.apply(0, "redraw")
    state.tokens = 1
    state._legal = {}
    first = state.revealed
    height = len(state.action_stack)
    state.apply(0, "redraw")
    assert state.tokens == 0
    assert state.action_stack[0] == first and len(state.action_stack) == height
    assert state.phase == SOLO_PICK


def test_token_buys_any_good_at_any_time() -> None:
    state = new(1)
    state.tokens = 2
    state._legal = {}
    state.apply(0, "token corn")
    assert state.boards[0].barn[3] == 2 and state.tokens == 1
    state.apply(0, "card sow")
    assert "token water" in state.legal_actions(0)
    state.apply(0, "token water")
    assert state.boards[0].barn[WATER] == 4 and state.tokens == 0


def test_solo_game_lasts_exactly_42_turns_and_shows_the_goal() -> None:
    state = new(1, seed=5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(0, rng.choice(state.legal_actions(0)))
    assert state.turn == 42
    details = state.result().details
    assert details["solo_goal"] == 150 and details["solo_goal_reached"] == (state.result().totals[0] >= 150)


def test_solo_determinize_keeps_the_known_cards() -> None:
    state = new(1, seed=3)
    for _ in range(5):
        _finish_turn(state)
    for seed in range(10):
        det = state.determinize(0, seed)
        assert det.view(0) == state.view(0)
        all_cards = sorted(det.action_stack + det.supply_stack + det.discard + [det.revealed])
        assert all_cards == sorted([WATER_CARD, SOW, HARVEST] * 3)
        while not det.is_over():
            _finish_turn(det)
        assert det.turn == 42


def test_render_shows_the_solo_goal_with_the_score() -> None:
    text = new(1).render_text(0)
    assert "solo goal 150 stars: not reached" in text
    assert "Solo turn 1" in text
