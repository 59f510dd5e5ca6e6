"""The action wheel as a variant (issue 14): each wheel gives Water (and Sow, Harvest) its own numbers.

The expected numbers below are copied from the tables of ``docs/games/farmerama.md`` (the
specification), not read from ``components.py``: a changed wheel must change both.
"""

from __future__ import annotations

import json

import pytest

import farmtable
from farmtable.games.farmerama.components import (
    ACTION_WHEEL,
    ACTION_WHEEL_SECTIONS,
    ACTION_WHEEL_V1,
    ACTION_WHEELS,
    HARVEST,
    SOW,
    VARIANT_WHEEL_V1,
    WATER,
    WATER_CARD,
)
from farmtable.games.farmerama.rules import ACT, FarmeramaState

GAME = farmtable.get_game("farmerama")

WATER_NUMBERS: dict[str, tuple[tuple[int, int], ...]] = {
    "wheel-v1": ((2, 1), (3, 2), (3, 1), (4, 2), (2, 1), (3, 2), (2, 1), (4, 2)),
    "wheel-even": ((4, 2), (3, 2), (4, 3), (5, 3), (3, 1), (3, 2), (2, 1), (2, 1)),
    "wheel-water-2": ((3, 2), (4, 3), (4, 2), (5, 3), (3, 2), (4, 3), (3, 2), (5, 3)),
    "wheel-water-3": ((4, 3), (5, 3), (4, 3), (6, 4), (4, 3), (5, 3), (4, 3), (6, 4)),
}
"""Water alone/shared per section, by wheel variant (docs/games/farmerama.md)."""
SOW_NUMBERS = ((3, 2), (4, 2), (2, 1), (3, 1), (4, 3), (2, 1), (5, 3), (3, 2))
HARVEST_NUMBERS = ((3, 2), (2, 1), (4, 2), (3, 2), (2, 1), (4, 3), (3, 1), (5, 3))
"""Every wheel keeps DA-FR1's Sow and Harvest (3/2 at setup is FOUND, 4/2 from the Profi example)."""


def _solo(variant: str, section: int, revealed: int, spare_water: int = 6) -> FarmeramaState:
    """A solo turn at ``section`` with ``revealed`` face up; ``spare_water`` more water in the supply
    (from the box), so the supply never limits the count."""
    state = GAME.new_game(players=1, seed=5, variants=(variant,))
    assert isinstance(state, FarmeramaState)
    state.action_wheel, state.revealed = section, revealed
    state.box[WATER] -= spare_water
    state.supply[WATER] += spare_water
    state._legal = {}
    return state


def _waters_taken(state: FarmeramaState) -> int:
    """Choose Water and take water until the card allows no more; how many were taken."""
    state.apply(0, "card water")
    assert state.phase == ACT
    before = state.boards[0].barn[WATER]
    while "water" in state.legal_actions(0):
        state.apply(0, "water")
    return state.boards[0].barn[WATER] - before


def test_every_wheel_variant_has_its_numbers_tested() -> None:
    assert {v for v in ACTION_WHEELS if v} == set(WATER_NUMBERS)
    assert set(WATER_NUMBERS) <= set(GAME.variants)


@pytest.mark.parametrize("variant", sorted(WATER_NUMBERS))
@pytest.mark.parametrize("section", range(ACTION_WHEEL_SECTIONS))
def test_solo_water_takes_the_wheels_higher_number_when_revealed_else_the_lower(variant: str, section: int) -> None:
    alone, shared = WATER_NUMBERS[variant][section]
    assert _waters_taken(_solo(variant, section, WATER_CARD)) == alone
    assert _waters_taken(_solo(variant, section, SOW)) == shared


@pytest.mark.parametrize("variant", sorted(WATER_NUMBERS))
def test_every_wheel_keeps_the_sow_and_harvest_numbers(variant: str) -> None:
    for section in range(ACTION_WHEEL_SECTIONS):
        for card, numbers in ((SOW, SOW_NUMBERS), (HARVEST, HARVEST_NUMBERS)):
            name = "sow" if card == SOW else "harvest"
            for revealed, expected in ((card, numbers[section][0]), (WATER_CARD, numbers[section][1])):
                state = _solo(variant, section, revealed)
                state.apply(0, f"card {name}")
                assert state.boards[0].remaining == expected, (variant, section, name)


@pytest.mark.parametrize("variant", sorted(WATER_NUMBERS))
def test_two_players_water_alone_gets_the_higher_number_shared_the_lower(variant: str) -> None:
    section = 3
    alone, shared = WATER_NUMBERS[variant][section]
    for cards, expected in (
        ((("water", "feed"), ("sow", "harvest")), alone),
        ((("water", "feed"), ("water", "sow")), shared),
    ):
        state = GAME.new_game(players=2, seed=2, variants=(variant,))
        assert isinstance(state, FarmeramaState)
        state.action_wheel = section
        for p, chosen in enumerate(cards):
            for card in chosen:
                state.apply(p, f"card {card}")
        while state.phase != ACT:  # a shared card awards a building first
            player = state.actors()[0]
            state.apply(player, state.legal_actions(player)[0])
        state.apply(0, "start water")
        before = state.boards[0].barn[WATER]
        while "water" in state.legal_actions(0):
            state.apply(0, "water")
        assert state.boards[0].barn[WATER] - before == expected


def test_the_default_wheel_is_a_named_wheel_and_the_first_one_is_kept() -> None:
    assert ACTION_WHEELS[""] is ACTION_WHEEL
    assert ACTION_WHEELS[VARIANT_WHEEL_V1] is ACTION_WHEEL_V1
    assert any(table is ACTION_WHEEL for name, table in ACTION_WHEELS.items() if name)
    state = GAME.new_game(players=1, seed=5)
    assert isinstance(state, FarmeramaState)
    assert state.wheel_values is ACTION_WHEEL and state.wheel_variant == ""


def test_two_wheels_at_once_are_refused_naming_both() -> None:
    with pytest.raises(ValueError, match="at most one action wheel, not wheel-even and wheel-v1"):
        GAME.new_game(players=1, seed=5, variants=("wheel-v1", "wheel-even"))


def test_the_view_and_the_text_show_the_wheel_played() -> None:
    state = _solo(VARIANT_WHEEL_V1, 3, SOW)
    water = state.view(0)["action_wheel"]["water"]
    assert water == list(WATER_NUMBERS[VARIANT_WHEEL_V1][3])
    assert state.view(0)["action_wheel"]["next"]["water"] == list(WATER_NUMBERS[VARIANT_WHEEL_V1][4])
    assert "Action wheel wheel-v1, section 3" in state.render_text(0)


def test_the_wheel_survives_a_save_and_old_saves_keep_the_first_wheel() -> None:
    state = GAME.new_game(players=1, seed=5, variants=("wheel-water-3",))
    assert isinstance(state, FarmeramaState)
    state.action_wheel = 3
    again = GAME.from_json(state.to_json())
    assert isinstance(again, FarmeramaState)
    alone, shared = WATER_NUMBERS["wheel-water-3"][3]
    expected = min(alone if again.revealed == WATER_CARD else shared, again.supply[WATER])
    assert again.wheel_variant == "wheel-water-3" and _waters_taken(again) == expected
    default = GAME.new_game(players=1, seed=5)
    data = json.loads(default.to_json())
    del data["state"]["wheel_variant"]  # a save made before the action wheel became a variant
    old = GAME.from_json(json.dumps(data))
    assert isinstance(old, FarmeramaState)
    assert old.wheel_variant == VARIANT_WHEEL_V1 and old.wheel_values is ACTION_WHEEL_V1


def test_a_save_with_an_unknown_wheel_is_refused() -> None:
    data = json.loads(GAME.new_game(players=1, seed=5).to_json())
    data["state"]["wheel_variant"] = "wheel-v9"
    with pytest.raises(ValueError, match="'wheel_variant' must be one of"):
        GAME.from_json(json.dumps(data))
