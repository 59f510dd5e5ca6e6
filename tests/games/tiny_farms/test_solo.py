"""Scenario tests for the solo game against Farmer Emma: set-up, her choices, her card, crops."""

from __future__ import annotations

import random
from typing import Any

import pytest

import farmtable
from farmtable.core import IllegalAction
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms.rules import CROP, MOVE, OVER, TinyFarmsState
from tests.games.tiny_farms.builder import board, new, position

GAME = farmtable.get_game("tiny-farms")
# Rotation 0 shows: s0 P+S, s1 S+H, s2 Ch+FF-e, s3 C+Ch, s4 Ch+P, s5 cc+C, s6 FF-b+P, s7 C+FF-bu.
# Red on 0 and Blue on 4 with dice 1, 2, 3 reach: red s1 s2 s3, blue s5 s6 s7.


def emma_position(target: int, dice: list[int], **fields: Any) -> TinyFarmsState:
    """A solo position at rotation 0, Red on 0, Blue on 4, with Emma's target and the dice given."""
    return position(players=1, rotation=0, red=0, blue=4, dice=dice, emma_target=target, emma_filled=[0] * 7, **fields)


# --- Set-up and variants ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["emma-easy", "emma-medium", "emma-hard", "emma-epic", "emma-advanced"])
def test_emma_variants_are_solo_only(variant: str) -> None:
    with pytest.raises(ValueError, match="solo"):
        GAME.new_game(players=2, variants=(variant,))


def test_one_difficulty_at_a_time_and_no_options() -> None:
    with pytest.raises(ValueError, match="one Emma difficulty"):
        GAME.new_game(players=1, variants=("emma-easy", "emma-hard"))
    GAME.new_game(players=1, variants=("emma-hard", "emma-advanced"))
    with pytest.raises(ValueError, match="no options"):
        GAME.new_game(players=1, seed=1, rounds=3)


@pytest.mark.parametrize(
    ("variants", "filled"),
    [
        ((), {"horses": 1, "chickens": 1}),  # no difficulty named: Easy
        (("emma-easy",), {"horses": 1, "chickens": 1}),
        (("emma-medium",), {"horses": 1, "pigs": 1, "sheep": 1}),
        (("emma-hard",), {"horses": 2, "pigs": 1, "sheep": 1, "forest friends": 1}),
        (("emma-epic",), {name: 1 for name, _, _ in c.EMMA_TRACKS}),
    ],
)
def test_emma_starts_with_circles_filled(variants: tuple[str, ...], filled: dict[str, int]) -> None:
    state = new(1, seed=3, variants=variants)
    tracks = {name: state.emma_filled[t] for t, (name, _, _) in enumerate(c.EMMA_TRACKS)}
    assert {k: v for k, v in tracks.items() if v} == filled


def test_solo_setup_and_target_die_is_on_the_barn() -> None:
    for seed in range(20):
        state = new(1, seed=seed)
        assert len(state.dice) == 3 and state.milk == [3]
        assert 1 <= state.emma_target <= 6 and state.emma_target in state.dice
        assert state.order == [0, c.EMMA]  # round 1 is odd: you go first


def _finish_turn(state: TinyFarmsState) -> None:
    """Place animals until the player's move is over."""
    while state.phase == "place":
        state.apply(0, state.legal_actions(0)[0])


def test_odd_rounds_you_first_even_rounds_emma_first() -> None:
    state = new(1, seed=4)
    assert state.phase == MOVE and len(state.dice) == 3  # round 1: nobody moved yet
    state.apply(0, next(a for a in state.legal_actions(0) if a.startswith("die")))
    _finish_turn(state)
    # Emma moved right after you: one die is left, it turned the wheel, and now you plant a crop
    assert state.phase == CROP and state.dice == [] and state.crop_die >= 1
    state.apply(0, state.legal_actions(0)[0])
    assert state.round == 2 and state.order == [c.EMMA, 0]
    assert state.phase == MOVE and len(state.dice) == 2  # Emma already used one of the three dice
    assert state.events[-1].startswith("Emma:")


def test_solo_lasts_eight_rounds() -> None:
    rng = random.Random(1)
    state = new(1, seed=8, variants=("emma-medium",))
    moves = crops = 0
    while not state.is_over():
        action = rng.choice(state.legal_actions(0))
        moves += action.startswith("die")
        crops += action.startswith(("plant", "cross", "pass"))
        state.apply(0, action)
    assert moves == 8 and crops == 8 and state.round == 8 and state.phase == OVER
    result = state.result()
    assert result.ranking == [[0]] and result.details["outcome"] in ("win", "loss", "tie")
    assert result.details["emma_total"] == sum(result.details["emma_breakdown"].values())


# --- Emma's choice of space ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "dice", "choice"),
    [
        (4, [1, 2, 3], (1, c.RED, 1)),  # horse: only space 1 shows one
        (2, [1, 2, 3], (1, c.RED, 1)),  # sheep: only space 1
        (3, [1, 2, 3], (2, c.BLUE, 6)),  # pig: only space 6
        (6, [1, 2, 3], (1, c.BLUE, 5)),  # calves: only space 5
        (5, [1, 2, 3], (1, c.BLUE, 5)),  # cow on 3, 5, 7: next on the list (6 calves) picks 5
        (1, [1, 2, 3], (2, c.BLUE, 6)),  # FF on 2, 6, 7: no sheep among them, pig (3) picks 6
        (4, [2, 3], (3, c.BLUE, 7)),  # no horse shown: cow on 3 and 7, no calves, FF (1) picks 7
    ],
)
def test_emma_takes_her_target_then_the_next_animal_on_the_list(
    target: int, dice: list[int], choice: tuple[int, int, int]
) -> None:
    state = emma_position(target, dice)
    die, farm, space, _ = state.emma_choice()
    assert (die, farm, space) == choice


def test_emma_choice_is_deterministic_when_spaces_tie() -> None:
    # Dice 1 and 1: only Red+1 (space 1) and Blue+1 (space 5). Target chickens is not a die target;
    # with target 2 (sheep): space 1 only. With equal options the lowest die and Red come first.
    state = emma_position(2, [1, 1])
    assert state.emma_choice()[:3] == (1, c.RED, 1)
    assert state.emma_choice() == state.clone().emma_choice()


def test_advanced_emma_takes_the_best_space_for_her() -> None:
    # Her horse track is full (5 horses, already 10 horse points). Target 4 (horse) would send her to
    # space 1 (sheep 0 points, horse -> chicken 2 points: +2). The best gain is space 2: chicken +2
    # and eagle (first Forest Friend) +1 = +3.
    filled = [0, 0, 0, 5, 0, 0, 0]
    basic = emma_position(4, [1, 2, 3])
    basic.emma_filled = filled
    assert basic.emma_choice()[:3] == (1, c.RED, 1)
    advanced = position(
        players=1, variants=("emma-advanced",), rotation=0, red=0, blue=4, dice=[1, 2, 3], emma_target=4
    )
    advanced.emma_filled = list(filled)
    assert advanced.emma_choice()[:3] == (2, c.RED, 2)


# --- Emma's card ------------------------------------------------------------------------------------


def test_emma_fills_the_next_circle_and_full_tracks_give_chickens() -> None:
    state = emma_position(4, [1, 2, 3])
    state.emma_filled = [0, 0, 0, 5, 0, 0, 0]
    state._emma_turn()
    # space 1: sheep + horse; the horse track is full, so she takes a chicken instead
    assert state.emma_filled == [0, 1, 0, 5, 0, 0, 1]
    assert state.red == 1 and state.dice == [2, 3]


def test_emma_calves_fill_two_circles_and_everything_full_is_lost() -> None:
    state = emma_position(6, [1, 2, 3])
    state._emma_turn()  # space 5: calves + cow
    assert state.emma_filled[c.EMMA_CALVES] == 2 and state.emma_filled[c.EMMA_COWS] == 1
    full = [cap for _, _, cap in c.EMMA_TRACKS]
    state = emma_position(6, [1, 2, 3])
    state.emma_filled = list(full)
    state._emma_turn()
    assert state.emma_filled == full and "lost" in state.events[-1]


# --- Crops at round end -----------------------------------------------------------------------------


def crop_position(die: int, boards: list[list[int]] | None = None, milk: int = 3) -> TinyFarmsState:
    """The solo round end of round 1: the leftover die is ``die``."""
    return position(
        players=1,
        phase=CROP,
        crop_die=die,
        dice=[],
        current=0,
        turn_index=2,
        milk=[milk],
        boards=boards or [board()],
    )


def test_crop_goes_in_the_row_the_leftover_die_names() -> None:
    state = crop_position(3)
    plants = [a for a in state.legal_actions(0) if a.startswith("plant")]
    assert plants == [f"plant {f}-{col}3" for f in "RB" for col in "ABCD"]
    with pytest.raises(IllegalAction, match="row 3"):
        state.apply(0, "plant R-A1")
    state.apply(0, "plant B-C3")
    assert state.boards[0][16 + 2 * 4 + 2] == c.CROP and state.round == 2


@pytest.mark.parametrize(("die", "farm"), [(5, "R"), (6, "B")])
def test_five_and_six_name_the_farms(die: int, farm: str) -> None:
    state = crop_position(die)
    plants = [a for a in state.legal_actions(0) if a.startswith("plant")]
    assert len(plants) == 16 and all(a.startswith(f"plant {farm}-") for a in plants)


def test_milk_changes_the_crop_die() -> None:
    state = crop_position(4)
    state.apply(0, "milk +1")  # 4 -> 5: the red farm
    assert state.milk == [2]
    state.apply(0, "plant R-A1")
    assert state.boards[0][0] == c.CROP
    top = crop_position(6)
    with pytest.raises(IllegalAction, match="rows 1-4 or farms 5-6"):
        top.apply(0, "milk +1")
    bottom = crop_position(1)
    with pytest.raises(IllegalAction, match="rows 1-4 or farms 5-6"):
        bottom.apply(0, "milk -1")
    dry = crop_position(3, milk=0)
    with pytest.raises(IllegalAction, match="no milk"):
        dry.apply(0, "milk +1")


def test_full_row_means_crossing_out_a_space() -> None:
    full_row_two = board("""
        .  .  .  .  | .  .  .  .
        P  S  Ch C  | H  P  S  Ch
        .  .  .  .  | .  .  .  .
        .  .  .  .  | .  .  .  .
    """)
    state = crop_position(2, boards=[full_row_two])
    crosses = [a for a in state.legal_actions(0) if not a.startswith("milk")]
    assert crosses == [f"cross {f}-{col}2" for f in "RB" for col in "ABCD"]
    state.apply(0, "cross B-A2")
    assert state.boards[0][16 + 4] == c.CROSSED
    # the crossed-out horse no longer counts: no horses, and the blue farm uses 3 spaces, not 4
    sheet = state.result().breakdown[0]
    assert sheet["horses"] == 0 and sheet["balance"] == -1


def test_crossing_out_is_refused_while_the_row_has_room() -> None:
    state = crop_position(2)
    with pytest.raises(IllegalAction, match="still has an empty space"):
        state.apply(0, "cross R-A2")


def test_milk_can_dodge_a_full_row() -> None:
    full_row_two = board("""
        .  .  .  .  | .  .  .  .
        P  S  Ch C  | H  P  S  Ch
        .  .  .  .  | .  .  .  .
        .  .  .  .  | .  .  .  .
    """)
    state = crop_position(2, boards=[full_row_two])
    state.apply(0, "milk +1")
    assert all(a.startswith(("plant", "milk")) for a in state.legal_actions(0))


@pytest.mark.parametrize(
    ("variant", "filled"),
    [
        # tracks: forest friends, sheep, pigs, horses, cows, calves, chickens
        ("emma-epic", [1, 1, 1, 1, 1, 1, 1]),  # the first circle of every track (default reading)
        ("emma-epic-rows", [2, 2, 3, 1, 1, 1, 1]),  # the first circle of every printed row: 5/5, 3/3, 2/2/2
    ],
)
def test_epic_readings_fill_emmas_first_circles(variant: str, filled: list[int]) -> None:
    state = GAME.new_game(players=1, seed=4, variants=(variant,))
    assert state.emma_filled == filled
