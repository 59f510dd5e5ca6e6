"""The solo round options: Emma's pick as the rules make it, options as the moves play, rolls averaged right."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import evaluation, lookahead
from farmtable.games.tiny_farms.rules import MOVE, TinyFarmsState
from tests.games.tiny_farms.builder import new


def round_starts(seed: int, variant: str = "emma-hard") -> list[TinyFarmsState]:
    """The positions where the player chooses a die (no milk spent yet) in one greedy game."""
    rng = random.Random(seed)
    state = new(1, seed=seed, variants=(variant,))
    seen = []
    while not state.is_over():
        if state.phase == MOVE and state.modifier == 0:
            seen.append(state.clone())
        state.apply(0, state.legal_actions(0)[greedy_choice(state, 0, rng)])
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_emma_pick_is_the_rules_choice(seed: int) -> None:
    for state in round_starts(seed):
        value, farm, space, _ = state.emma_choice()
        assert lookahead.emma_pick(state.rotation, state.red, state.blue, tuple(state.dice), state.emma_target) == (
            value,
            farm,
            space,
        )


def decode(index: int) -> tuple[int, int, int, int]:
    """(farm, space, Emma's space, milk) of an option index."""
    rest, milk = divmod(index, lookahead.MILK_STEPS)
    rest, emma_space = divmod(rest, lookahead.SPACES + 1)
    farm, space = divmod(rest, lookahead.SPACES)
    return farm, space, emma_space, milk


@pytest.mark.parametrize("seed", [4, 5])
def test_known_options_are_what_the_moves_do(seed: int) -> None:
    """Every die, farmer and milk change played in the real game lands where its option says, Emma too."""
    for state in round_starts(seed):
        emma_after = c.EMMA in state.order[state.turn_index + 1 :]
        options = lookahead.known_options(
            state.rotation, state.red, state.blue, tuple(state.dice), state.emma_target, emma_after, True
        )
        played = set()
        for change in (0, 1, -1):
            for value in sorted(set(state.dice)):
                if value + change < c.MIN_DIE_VALUE:
                    continue
                for farm, name in ((c.RED, "red"), (c.BLUE, "blue")):
                    child = state.clone()
                    child.milk[0] = c.START_MILK
                    if change:
                        child.apply(0, "milk +1" if change > 0 else "milk -1")
                    child.apply(0, f"die {value} {name}")
                    space = child.red if farm == c.RED else child.blue
                    emma_space = lookahead.NO_EMMA
                    if emma_after:
                        _, _, emma_space, _ = child.emma_choice()
                    played.add(lookahead.option_index(farm, space, emma_space, abs(change)))
        assert played == set(options)


@pytest.mark.parametrize("emma_first", [False, True])
def test_the_table_averages_the_best_option_over_all_216_rolls(emma_first: bool) -> None:
    rotation, red, blue = 3, 1, 6
    index, counts = lookahead.round_table(rotation, red, blue, emma_first)
    assert counts.sum() == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    gain = rng.normal(size=(2, lookahead.SPACES))
    emma = np.append(rng.normal(size=lookahead.SPACES), 0.0)
    for milk in (False, True):
        values = lookahead.option_values(gain, emma, 1.0, milk)
        total = 0.0
        for target, a, b in itertools.product(range(1, 7), repeat=3):
            dice = tuple(sorted((target, a, b)))
            if emma_first:
                value, farm, space = lookahead.emma_pick(rotation, red, blue, dice, target)
                r, bl = (space, blue) if farm == c.RED else (red, space)
                rest = list(dice)
                rest.remove(value)
                mine = lookahead.known_options(rotation, r, bl, tuple(rest), target, False, milk)
                shift = (space - lookahead.NO_EMMA) * lookahead.MILK_STEPS  # Emma's space in the option
                best = max(values[i + shift] for i in mine)
            else:
                best = lookahead.best_known(
                    lookahead.known_options(rotation, red, blue, dice, target, True, milk), values
                )
            total += best
        assert lookahead.expected_best((index, counts), values) == pytest.approx(total / lookahead.ROLLS)


def test_next_gain_is_zero_in_the_last_round_and_positive_with_room() -> None:
    state = new(1, seed=9, variants=("emma-easy",))
    state.apply(0, state.legal_actions(0)[0])  # round 1: a die taken, animals to write
    _, feats = evaluation.solo_parts(state)
    assert feats["next_gain"] > 0  # an empty board: the next round always brings something
    assert feats["round_gain"] == 0.0
    last = new(1, seed=9, variants=("emma-easy",))
    last.round = last.rounds
    last.apply(0, last.legal_actions(0)[0])
    _, end = evaluation.solo_parts(last)
    assert end["next_gain"] == 0.0


@pytest.mark.parametrize(("seed", "before_roll"), [(10, False), (11, False), (10, True), (11, True)])
def test_a_round_start_is_worth_its_best_die(seed: int, before_roll: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A die still to choose: the estimate is the best of the die moves' estimates (no milk spent); with
    ``ROUND_START_BEFORE_ROLL`` only in the rounds Emma starts (the player's are valued before the roll)."""
    monkeypatch.setattr(evaluation, "ROUND_START_BEFORE_ROLL", before_roll)
    starts = round_starts(seed, "emma-medium")
    if before_roll:
        starts = [s for s in starts if s.order[0] == c.EMMA]
    assert len(starts) >= 4
    for state in starts[:4]:
        dice_moves = [a for a in state.legal_actions(0) if a.startswith("die ")]
        children = []
        for action in dice_moves:
            child = state.clone()
            child.apply(0, action)
            children.append(child.evaluate()[0])
        assert state.evaluate()[0] == pytest.approx(max(children))
        _, feats = evaluation.solo_parts(state)
        assert feats["round_gain"] == 0.0 and feats["to_move"] == 0.0


def test_option_indices_decode() -> None:
    assert decode(lookahead.option_index(1, 7, 8, 1)) == (1, 7, 8, 1)
    assert decode(lookahead.option_index(0, 0, 0, 0)) == (0, 0, 0, 0)
    assert lookahead.option_index(1, 7, 8, 1) + 1 == lookahead.OPTION_COUNT


def test_warm_up_builds_every_table_of_a_rotation_and_refuses_a_bad_one() -> None:
    assert lookahead.warm_up((3,)) == lookahead.SPACES * (lookahead.SPACES - 1) * 2
    before = lookahead.round_table.cache_info()
    lookahead.round_table(3, 0, 1, True)
    assert lookahead.round_table.cache_info().hits == before.hits + 1
    with pytest.raises(ValueError, match="wheel rotation"):
        lookahead.warm_up((8,))
