"""Notation: canonical strings, tolerant reading, and refusals that name the broken rule."""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable import IllegalAction
from farmtable.games.farmers_finances.rules import DECODE
from tests.games.farmers_finances.positions import position

GAME = farmtable.get_game("farmers-finances")


def test_every_legal_action_reads_back_from_its_notation() -> None:
    rng = random.Random(3)
    for players in (1, 2, 3, 4):
        state = GAME.new_game(players=players, seed=players)
        for _ in range(200):
            if state.is_over():
                break
            p = state.actors()[0]
            legal = state.legal_actions(p)
            assert len(set(legal)) == len(legal), "duplicates in the legal list"
            assert legal == state.legal_actions(p), "legal list order is not deterministic"
            for action in legal:
                assert state.parse_action(p, str(action)) == action
                assert state.parse_action(p, f"  {str(action).upper()}  ") == action
            state.apply(p, rng.choice(legal))


def test_extra_spaces_and_case_are_tolerated() -> None:
    state = position(farms=[(3, 0, 0), (0, 0, 0)], row=3)
    state.apply(0, "  SELL   Wheat    2 ")
    assert state.hands[0] == [1, 0, 0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("buy bread", "not Farmers Finances notation"),
        ("sell pig 1", "not Farmers Finances notation"),
        ("sell wheat", "not Farmers Finances notation"),
        ("sell wheat 0", "sell at least one card"),
        ("sell wheat 13", "you have 3 wheat; you cannot sell 13"),
        ("bake 0", "at least one wheat"),
        ("move 3", "first take this turn's action"),
        ("reroll", "first take this turn's action"),
        ("pick 2", "only after rolling a 6"),
        ("", "empty move"),
    ],
)
def test_refusals_name_the_rule_and_change_nothing(text: str, message: str) -> None:
    state = position(farms=[(3, 0, 0), (0, 0, 0)], row=3)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        state.apply(0, text)
    assert state.to_json() == before


def test_out_of_turn_is_refused() -> None:
    state = position()
    with pytest.raises(IllegalAction, match="not player 1's decision"):
        state.apply(1, "buy wheat")


def test_move_beyond_the_card_is_refused() -> None:
    state = position(row=5, farms=[(1, 0, 0), (0, 0, 0)])
    state.apply(0, "bake 1")
    with pytest.raises(IllegalAction, match="one row at a time"):
        state.apply(0, "move 3")
    with pytest.raises(IllegalAction):
        state.apply(0, "move 6")


def test_check_action_accepts_exactly_the_legal_actions() -> None:
    universe = sorted(DECODE)
    rng = random.Random(11)
    for players in (1, 2, 3, 4):
        for seed in range(6):
            state = GAME.new_game(players=players, seed=seed)
            while not state.is_over():
                p = state.actors()[0]
                legal = set(state.legal_actions(p))
                for action in universe:
                    try:
                        state.check_action(p, action)
                        accepted = True
                    except IllegalAction as exc:
                        accepted = False
                        assert str(exc).strip()
                    assert accepted == (action in legal), (action, legal)
                state.apply(p, rng.choice(sorted(legal)))


def test_documented_opening() -> None:
    # docs/games/farmers-finances.md, "Notation": the opening from row 3.
    state = position(row=3, money=[10, 10])
    for player, action in [(0, "buy wheat"), (0, "move 2"), (1, "buy animal"), (1, "move 1"), (0, "bake 1")]:
        state.apply(player, action)
    assert state.money == [8, 5]  # wheat 2 on row 3; animal 6 - 1 = 5 on row 2
    assert state.hands == [[0, 1, 0], [0, 0, 1]]
    assert state.legal_actions(0) == ["move 2", "reroll"]
