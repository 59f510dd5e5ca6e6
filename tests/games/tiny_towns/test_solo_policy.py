"""The solo build-script policy (``solo_policy.py``): scripts respect the board, the policy
finishes the nearest pattern first, plays whole games legally and repeatably, and the script
as an evaluation (``evaluation.SOLO_SCRIPT``) never rewards a build it did not plan.

The first-game set is in play: Cottage, Farm, Well, Theater, Chapel, Tavern, Factory.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import farmtable
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import evaluation as E
from farmtable.games.tiny_towns import planner as P
from farmtable.games.tiny_towns import solo_policy as S
from farmtable.games.tiny_towns.rules import TinyTownsState
from tests.games.tiny_towns.test_planner import NOTHING, SETTING


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    P.clear_caches()
    S.clear_memory()
    yield
    E.SOLO_SCRIPT = False
    S.clear_memory()


def _policy() -> S.SoloPolicy:
    policy = S.SoloPolicy(0)
    policy.setting = SETTING
    policy.plan = P.plan_for(NOTHING, SETTING)
    return policy


def test_a_script_avoids_buildings_and_wrong_cubes_and_builds_every_target_on_its_pattern() -> None:
    policy = _policy()
    assert policy.plan is not None
    board = [""] * C.SQUARES
    steps = S.script_for(policy.plan, board, SETTING)
    assert len(steps) == sum(1 for v in policy.plan.grid if v)
    first = steps[0]
    # a wrong cube on a square of the first step: the script moves or drops that step
    square, need = first.needs[0]
    wrong = next(r for r in C.RESOURCES if r != need)
    board[square] = wrong
    again = S.script_for(policy.plan, board, SETTING)
    claimed = 0
    for step in again:
        assert step.target in [sq for sq, _ in step.needs] or step.kind == "Shed"
        for sq, r in step.needs:
            if not claimed >> sq & 1 and board[sq]:
                assert board[sq] == r  # a cube no earlier step spends must be the one it needs
        claimed |= step.mask
    assert not any(s.mask == first.mask and s.target == first.target for s in again)


def test_the_policy_finishes_the_nearest_pattern_before_starting_another() -> None:
    policy = _policy()
    assert policy.plan is not None
    board = [""] * C.SQUARES
    steps = S.script_for(policy.plan, board, SETTING)
    first = steps[0]
    for sq, r in first.needs[:-1]:  # all but one cube of the first step
        board[sq] = r
    last_square, last_need = first.needs[-1]
    offered = [last_need, *[r for r in C.RESOURCES if r != last_need][:2]]
    resource, square, _steps, _plan = policy.choose_cube(board, offered)
    assert (resource, square) == (last_need, last_square)


def _play(seed: int) -> tuple[int, list[str]]:
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=seed)
    assert isinstance(state, TinyTownsState)
    policy = S.SoloPolicy(seed=1)
    moves = []
    while not state.is_over():
        action = policy.act(state)
        assert action in state.legal_actions(0)
        moves.append(str(action))
        state.apply(0, action)
    return state.result().totals[0], moves


def test_the_policy_plays_a_whole_solo_game_legally_and_repeats() -> None:
    score, moves = _play(3001)
    P.clear_caches()
    S.clear_memory()
    assert _play(3001) == (score, moves)
    assert any(m.startswith("build") for m in moves)


def test_as_an_evaluation_a_build_the_script_did_not_plan_is_worth_less_than_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=3001)
    assert isinstance(state, TinyTownsState)
    E.SOLO_SCRIPT = True
    while state.phase == "keep":
        state.apply(0, state.legal_actions(0)[0])
    board = list(state.towns[0].grid)
    waiting = S.script_estimate(state, board)
    entry = S._LAYOUTS[(E.plan_setting(state, 0), NOTHING)]
    assert entry is not None
    plan = entry[0]
    kind = next(k for k in state.buildings if k != plan.grid[0])  # not what the plan wants on A1
    board[0] = kind
    monkeypatch.setattr(S, "REPLAN_IN_EVAL", False)  # judged as a move considered, not a town that stands
    assert S.script_estimate(state, board) < waiting - 1
    monkeypatch.setattr(S, "REPLAN_IN_EVAL", True)  # a town that stands so at a round's start gets a plan
    assert S.script_estimate(state, board) > S.script_estimate(state, board[:1] + [""] * 15) - C.SQUARES
    assert S._LAYOUTS[(E.plan_setting(state, 0), S._layout(board))] is not None
