"""The solo turn planner (``planner.py``): whole turns, their plan value, the beam search."""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable.games.farmerama import planner
from farmtable.games.farmerama.components import ANIMALS, BEDS_OF_AREA, HEAD_SECTOR, PACIFIER_SECTOR, SOLO_TURNS
from farmtable.games.farmerama.rules import ACT, SOLO_PICK, FarmeramaState, area_of_sector
from tests.games.farmerama.positions import move_good, new, sow_directly

HORSE = ANIMALS.index("horse")
SHEEP = ANIMALS.index("sheep")


def _replay(state: FarmeramaState, line: list[str]) -> FarmeramaState:
    probe = state.clone()
    for action in line:
        probe.apply(0, action)
    return probe


def _random_solo(seed: int, turns: int) -> FarmeramaState:
    state = new(players=1, seed=seed)
    rng = random.Random(seed)
    while not state.is_over() and state.turn <= turns:
        state.apply(0, rng.choice(state.legal_actions(0)))
    while not state.is_over() and state.phase != SOLO_PICK:
        state.apply(0, "done" if "done" in state.legal_actions(0) else rng.choice(state.legal_actions(0)))
    return state


def test_turn_outcomes_are_distinct_whole_turns_whose_lines_replay() -> None:
    state = new(players=1, seed=3)
    outcomes = planner.turn_outcomes(state)
    assert len(outcomes) > 10
    keys = set()
    for line, child in outcomes:
        assert child.phase == SOLO_PICK and child.turn == state.turn + 1
        replayed = _replay(state, line)
        assert planner._key(replayed) == planner._key(child)
        keys.add(planner._key(child))
    assert len(keys) == len(outcomes)
    assert state.turn == 1 and state.phase == SOLO_PICK  # the position searched is unchanged


def test_turn_outcomes_merge_turns_that_end_alike() -> None:
    """At the start nothing can be harvested or fed: those turns end like an empty one, kept once."""
    lines = [line for line, _ in planner.turn_outcomes(new(players=1, seed=3))]
    cards = {next(a for a in line if a.startswith("card")) for line in lines}
    assert {"card sow", "card water", "card seed-store"} <= cards
    do_nothing = [line for line in lines if len(line) == 2 and line[1] == "done"]
    assert len(do_nothing) == 1


def test_turn_outcomes_refuse_a_position_that_is_not_a_solo_turn_start() -> None:
    with pytest.raises(ValueError, match="solo"):
        planner.turn_outcomes(new(players=2))
    state = new(players=1)
    state.apply(0, "card water")
    with pytest.raises(ValueError, match="solo-pick"):
        planner.turn_outcomes(state)


def test_best_completion_finds_the_best_outcome_of_the_turn() -> None:
    """With 3 water the wheel-turn cap of the enumeration never binds: both searches agree on the
    best turn without tokens or redraws (those change the position's key, so they are apart)."""
    state = new(players=1, seed=5)
    expected = max(
        planner.plan_value(child)
        for line, child in planner.turn_outcomes(state)
        if not any(a.startswith(("token", "redraw")) for a in line)
    )
    best = float("-inf")
    for card in ("card sow", "card harvest", "card water", "card feed", "card seed-store"):
        mid = state.clone()
        mid.apply(0, card)
        assert mid.phase == ACT
        best = max(best, planner.best_completion(mid))
    assert best == pytest.approx(expected)


def test_best_completion_refuses_a_turn_start() -> None:
    with pytest.raises(ValueError, match="phase 3"):
        planner.best_completion(new(players=1))


def _horse_on_pasture(blocked: bool) -> FarmeramaState:
    """A solo start with the horse fed onto its pasture, 6 water, and (optionally) a stack of hay
    under the bar's path, so the wheel cannot bring the horse home without a harvest first."""
    state = new(players=1, seed=2)
    board = state.boards[0]
    board.pasture[HORSE] = area_of_sector(board.wheel, HEAD_SECTOR[HORSE])
    move_good(state, 0, "water", 6)
    if blocked:
        bar_area = area_of_sector(board.wheel, PACIFIER_SECTOR)
        sow_directly(state, 0, BEDS_OF_AREA[bar_area][0], "hay")
        move_good(state, 0, "hay", 0)  # the same number of feed tiles in both positions
    return state


def test_an_animal_the_wheel_can_bring_home_now_is_worth_more_than_a_blocked_one() -> None:
    free, blocked = _horse_on_pasture(False), _horse_on_pasture(True)
    assert planner.free_wheel_turns(free.boards[0]) == 6
    assert planner.free_wheel_turns(blocked.boards[0]) == 0
    assert planner.plan_value(free) > planner.plan_value(blocked)


def test_a_finished_game_has_its_final_stars_as_plan_value() -> None:
    state = _random_solo(seed=8, turns=50)
    assert state.is_over()
    assert planner.plan_value(state) == state.result().totals[0]


def test_beam_plan_line_is_legal_and_scores_what_it_promises() -> None:
    state = _random_solo(seed=4, turns=38)
    assert not state.is_over()
    plan = planner.beam_plan(state, width=2)
    finished = _replay(state, plan.line)
    assert finished.is_over()
    assert finished.result().totals[0] == plan.stars


def test_beam_width_must_be_positive() -> None:
    with pytest.raises(ValueError, match="width"):
        planner.beam_plan(new(players=1), width=0)


def test_plan_turn_reads_only_what_the_player_sees() -> None:
    """Two positions that differ only in the hidden card order get the same planned turn."""
    state = _random_solo(seed=6, turns=39)
    other = state.clone()
    other.action_stack.reverse()
    assert planner.plan_turn(state, samples=2, width=1, seed=1) == planner.plan_turn(other, samples=2, width=1, seed=1)


def test_best_completion_is_shared_by_every_determinization_and_kept_apart_by_variant() -> None:
    state = _random_solo(seed=12, turns=20)
    state.apply(0, "card harvest")
    values = {planner.best_completion(state.determinize(0, random.Random(s))) for s in range(4)}
    assert values == {planner.best_completion(state)}
    first = farmtable.get_game("farmerama").new_game(players=1, seed=12, variants=("products-3-5-7-9",))
    default = new(players=1, seed=12)
    for probe in (first, default):
        probe.boards[0].pasture[HORSE] = area_of_sector(probe.boards[0].wheel, PACIFIER_SECTOR - 1)
        probe.apply(0, "card water")
    assert planner.best_completion(first) < planner.best_completion(default)


def _sheep_with_water(water: int) -> FarmeramaState:
    """A solo start with the sheep just fed (3 wheel turns from the pacifier) and ``water`` in the barn."""
    state = new(players=1, seed=2)
    board = state.boards[0]
    board.pasture[SHEEP] = area_of_sector(board.wheel, HEAD_SECTOR[SHEEP])
    move_good(state, 0, "water", water)
    return state


def test_plan_value_is_the_board_value_with_the_solo_turns_and_tokens_left() -> None:
    state = _random_solo(seed=4, turns=10)
    assert not state.is_over()
    expected = planner.board_value(state.boards[0], SOLO_TURNS - state.turn, state.tokens)
    assert planner.plan_value(state) == expected


def test_missing_cost_makes_partial_water_worth_something(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``MISSING_COST`` at 0 (shipped) water short of the animal's whole need adds nothing;
    with a cost per missing wheel turn, each water towards it does."""
    partial, dry = _sheep_with_water(2), _sheep_with_water(0)
    assert planner.plan_value(partial) == planner.plan_value(dry)
    monkeypatch.setattr(planner, "MISSING_COST", 0.05)
    assert planner.plan_value(partial) > planner.plan_value(dry)
