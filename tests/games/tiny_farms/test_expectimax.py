"""The solo expectimax player (``expectimax.py``): the roll's chances, the exact chance node, the agent."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest

import farmtable.agents
from farmtable.agents.greedy import greedy_choice
from farmtable.core import Rng
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import evaluation, expectimax
from farmtable.games.tiny_farms.rules import CROP, MOVE, TinyFarmsState
from tests.agents.test_hidden_info import Guard
from tests.games.tiny_farms.builder import board, new

FACES = range(c.MIN_DIE_VALUE, c.DIE_FACES + 1)


def test_roll_outcomes_are_the_216_ordered_rolls_grouped() -> None:
    outcomes = expectimax.roll_outcomes()
    assert sum(w for _, w in outcomes) == pytest.approx(1.0, abs=1e-12)
    brute: Counter[tuple[int, int, int]] = Counter()
    for target, a, b in itertools.product(FACES, FACES, FACES):
        brute[(target, min(a, b), max(a, b))] += 1
    assert len(outcomes) == len(brute) == 126
    for roll, weight in outcomes:
        assert weight == pytest.approx(brute[roll] / 216)


def _greedy_positions(seed: int, variant: str, phase: str) -> list[TinyFarmsState]:
    """The positions of one greedy game in ``phase`` (the player to decide)."""
    rng = random.Random(seed)
    state = new(1, seed=seed, variants=(variant,))
    seen = []
    while not state.is_over():
        if state.phase == phase:
            seen.append(state.clone())
        state.apply(0, state.legal_actions(0)[greedy_choice(state, 0, rng)])
    return seen


def test_a_scripted_roll_is_the_rules_roll() -> None:
    crop = _greedy_positions(3, "emma-hard", CROP)[2]
    action = crop.legal_actions(0)[0]
    rolled = expectimax.play_with_roll(crop, action, (4, 6, 1))
    assert rolled.round == crop.round + 1 and rolled.emma_target == 4
    # an even round: Emma moved first with one of the dice rolled, two are left for the player
    assert rolled.phase == MOVE and len(rolled.dice) == 2
    assert Counter(rolled.dice) <= Counter([1, 4, 6])


@pytest.mark.parametrize("seed", [1, 2])
def test_the_pre_roll_estimate_agrees_with_the_evaluation_of_the_crop(seed: int) -> None:
    """The best crop action's pre-roll estimate is the crop position's own estimate (no roll read)."""
    for state in _greedy_positions(seed, "emma-easy", CROP)[:-1]:
        values = [expectimax.pre_roll_estimate(state, a) for a in state.legal_actions(0)]
        assert max(values) == pytest.approx(evaluation.solo_estimate(state), abs=1e-9)
        other = state.determinize(0, Rng(77))
        assert [expectimax.pre_roll_estimate(other, a) for a in other.legal_actions(0)] == values


def _brute_start(state: TinyFarmsState) -> float:
    """The best evaluation after every legal line of milk (at most one token) and a die."""
    best = -float("inf")
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        if action.startswith("milk"):
            for die in child.legal_actions(0):
                if die.startswith("die"):
                    after = child.clone()
                    after.apply(0, die)
                    best = max(best, evaluation.solo_estimate(after))
        else:
            best = max(best, evaluation.solo_estimate(child))
    return best


def _brute_chance(state: TinyFarmsState, action: str) -> float:
    """The mean over all 216 ordered rolls, each played through the rules' own generator calls."""
    total = 0.0
    for target, a, b in itertools.product(FACES, FACES, FACES):
        rolled = expectimax.play_with_roll(state, action, (target, a, b))
        total += _brute_start(rolled)
    return total / 216


def _hand_built_crop() -> TinyFarmsState:
    """Round 6 of 8, the crop of row 3 (three spaces left in it), one milk: a small, fixed position."""
    state = new(1, seed=11, variants=("emma-hard",))
    rows = """
    pig pig sheep . | cow calves . horse
    sheep sheep . chicken | . raccoon . .
    . cow . horse | pig bunny chicken .
    . . . . | . . . .
    """
    state.boards[0] = board(rows)
    state.round = 6
    state.order = [c.EMMA, 0]
    state.turn_index = len(state.order)
    state.dice = []
    state.phase = CROP
    state.current = 0
    state.crop_die = 3
    state.modifier = 0
    state.milk[0] = 1
    state.rotation, state.red, state.blue = 5, 2, 6
    state.emma_filled[0] += 2
    state._legal = None
    return state


def test_the_chance_node_is_a_brute_force_expectimax_over_the_216_rolls() -> None:
    state = _hand_built_crop()
    plants = [a for a in state.legal_actions(0) if a.startswith("plant")]
    assert len(plants) == 3
    action = plants[0]  # with milk: the next round's milk changes enumerated too
    got = expectimax.chance_value(state, action, milk_steps=1, width=None)
    assert got == pytest.approx(_brute_chance(state, action), abs=1e-9)
    # pruning the next round's moves can only miss a better one
    assert expectimax.chance_value(state, action, milk_steps=1, width=2) <= got + 1e-9
    # with nothing to spend milk on, the crop decision is the brute-force expectimax's choice
    no_milk = state.clone()
    no_milk.milk[0] = 0
    no_milk._legal = None
    assert no_milk.legal_actions(0) == plants
    brute = {a: _brute_chance(no_milk, a) for a in plants}
    choice = expectimax.choose(no_milk, keep=len(plants), width=None)
    assert choice.action == max(plants, key=lambda a: brute[a])
    assert choice.value == pytest.approx(max(brute.values()), abs=1e-9)


def test_the_last_round_crop_is_valued_by_the_final_margin() -> None:
    state = _hand_built_crop()
    state.round = state.rounds
    state.order = [0, c.EMMA]
    state._legal = None
    for action in state.legal_actions(0):
        if action.startswith("milk"):
            continue
        child = state.clone()
        child.apply(0, action)
        assert child.is_over()
        assert expectimax.chance_value(state, action) == child.result().objective


def _play(agent_spec: str, seed: int, steps: int | None = None) -> list[str]:
    agent = farmtable.agents.make(agent_spec, seed=seed)
    state = new(1, seed=seed, variants=("emma-medium",))
    actions = []
    while not state.is_over() and (steps is None or len(actions) < steps):
        legal = state.legal_actions(0)
        action = agent.act(state, 0)
        assert action in legal
        state.apply(0, action)
        actions.append(action)
    return actions


def test_the_agent_plays_a_whole_game_legally_and_a_seeded_game_replays() -> None:
    whole = _play("tiny-farms-expectimax:keep=1,width=1", seed=5)
    assert len(whole) > 8 * 3
    first = _play("tiny-farms-expectimax:keep=2,width=1", seed=6, steps=8)
    assert _play("tiny-farms-expectimax:keep=2,width=1", seed=6, steps=8) == first


def test_the_agent_reads_only_what_is_safe_and_ignores_the_hidden_rolls() -> None:
    for state in _greedy_positions(7, "emma-hard", MOVE)[1:4]:
        action = farmtable.agents.make("tiny-farms-expectimax:keep=2", seed=3).act(Guard(state), 0)  # type: ignore[arg-type]
        assert action in state.legal_actions(0)
        other = state.determinize(0, Rng(12345))
        assert farmtable.agents.make("tiny-farms-expectimax:keep=2", seed=3).act(other, 0) == action


def test_out_of_time_it_plays_the_evaluations_best() -> None:
    state = _greedy_positions(4, "emma-hard", MOVE)[3]
    legal = state.legal_actions(0)
    values = [expectimax.child_estimate(state, a) for a in legal]
    # a budget already spent when the choice starts: no chance node is valued
    choice = expectimax.choose(state, keep=4, budget=0.5, start=time.process_time() - 10.0)
    assert choice.valued == 0
    assert choice.action == legal[values.index(max(values))]
    full = expectimax.choose(state, keep=4)
    assert full.valued == min(4, len(legal))


def test_outside_solo_tiny_farms_it_plays_like_greedy() -> None:
    state = new(2, seed=3)
    agent = farmtable.agents.make("tiny-farms-expectimax", seed=1)
    assert agent.act(state, 0) in state.legal_actions(0)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("tiny-farms-expectimax:keep=0", "keep must be"),
        ("tiny-farms-expectimax:width=-1", "width must be"),
        ("tiny-farms-expectimax:milk=3", "milk must be"),
        ("tiny-farms-expectimax:time=0", "time must be a positive"),
        ("tiny-farms-expectimax:time=fast", "time must be a positive"),
    ],
)
def test_bad_parameters_are_refused_with_a_clear_message(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        farmtable.agents.make(spec)


def test_choose_refuses_a_position_that_is_not_the_solo_players() -> None:
    with pytest.raises(ValueError, match="solo Tiny Farms position"):
        expectimax.choose(new(2, seed=1))
    with pytest.raises(ValueError, match="keep must be"):
        expectimax.choose(new(1, seed=1, variants=("emma-easy",)), keep=0)


def test_the_margin_objective_is_the_margin_and_the_win_objective_a_calibrated_chance() -> None:
    assert expectimax.utility(3.25, 2, "margin") == 3.25
    assert expectimax.utility(-7.0, None, "margin") == -7.0
    # exact final margins: a win, a tie (half) and a loss, told apart by the margin among equals
    win, tie, loss = (expectimax.utility(m, None, "win") for m in (4.0, 0.0, -1.0))
    assert win > expectimax.utility(1.0, None, "win") > tie > loss > expectimax.utility(-5.0, None, "win")
    assert round(win) == 1 and tie == 0.5 and round(loss) == 0
    bias, sd = expectimax.win_model()
    assert len(bias) == len(sd) >= 8 and min(sd) >= expectimax.MIN_SD
    # an estimate: the chance grows with the margin, a lead is surer with fewer rounds left
    chances = [expectimax.utility(m, 3, "win") for m in (-6.0, -2.0, 0.0, 2.0, 6.0)]
    assert chances == sorted(chances) and chances[0] > 0.0 and chances[-1] < 1.01
    assert expectimax.utility(4.0, 0, "win") > expectimax.utility(4.0, 6, "win")
    # the margin at which a position is a coin toss is -(bias + 1/2)
    even = -(bias[2] + 0.5)
    assert expectimax.utility(even, 2, "win") == pytest.approx(0.5 + expectimax.WIN_TIE_BREAK * even)


def test_the_win_objective_averages_the_chance_over_the_216_rolls() -> None:
    state = _hand_built_crop()
    state.milk[0] = 0
    state._legal = None
    action = state.legal_actions(0)[0]
    rounds_left = state.rounds - state.round - 1
    brute = 0.0
    for target, a, b in itertools.product(FACES, FACES, FACES):
        rolled = expectimax.play_with_roll(state, action, (target, a, b))
        brute += expectimax.utility(_brute_start(rolled), rounds_left, "win") / 216
    got = expectimax.chance_value(state, action, milk_steps=1, width=None, objective="win")
    assert got == pytest.approx(brute, abs=1e-9)
    # remembered apart from the margin's value of the same position
    assert expectimax.chance_value(state, action, milk_steps=1, width=None) != pytest.approx(got)


def test_a_win_objective_game_replays_and_bad_objectives_are_refused() -> None:
    first = _play("tiny-farms-expectimax:keep=2,width=1,objective=win", seed=6, steps=8)
    assert _play("tiny-farms-expectimax:keep=2,width=1,objective=win", seed=6, steps=8) == first
    with pytest.raises(ValueError, match="objective must be one of margin, win"):
        farmtable.agents.make("tiny-farms-expectimax:objective=score")
    with pytest.raises(ValueError, match="objective must be one of"):
        expectimax.choose(new(1, seed=1, variants=("emma-easy",)), objective="points")
    with pytest.raises(ValueError, match="objective must be one of"):
        expectimax.utility(1.0, 2, "most")
