"""The search core (``mcts``): its reward scale, budget, leaf evaluation, subtree reuse and the levels."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.agents import levels
from farmtable.agents import mcts as mcts_module
from farmtable.agents.mcts import MctsAgent, RewardScale
from farmtable.core.result import Result
from tests.agents import toy
from tests.agents.helpers import mid_game, play


def _result(totals: list[int], ranking: list[list[int]], objective: int | None = None) -> Result:
    return Result(totals=totals, breakdown=[{} for _ in totals], ranking=ranking, objective=objective)


def test_rewards_grow_with_the_margin_and_stay_in_range() -> None:
    scale = RewardScale(players=3, centre=0.0, width=4.0)
    low = scale.of_values([10.0, 12.0, 5.0])
    high = scale.of_values([15.0, 12.0, 5.0])
    assert high[0] > low[0]
    assert all(0.0 < r < 1.0 for r in low + high)
    assert low[1] > 0.5 > low[0] > low[2]


def test_a_finished_win_outweighs_an_estimate_with_the_same_margin() -> None:
    scale = RewardScale(players=2, centre=0.0, width=4.0)
    final = scale.of_result(_result([20, 18], [[0], [1]]))
    estimate = scale.of_values([20.0, 18.0])
    assert final[0] > estimate[0] and final[1] < estimate[1]
    tied = scale.of_result(_result([20, 20], [[0, 1]]))
    assert tied == pytest.approx([0.5, 0.5])
    # a win by tie-break with fewer points is still a win, a loss with more points still a loss
    upset = scale.of_result(_result([17, 18], [[0], [1]]))
    assert upset[0] > 0.5 > upset[1]


def test_solo_rewards_follow_the_games_objective_not_the_total() -> None:
    scale = RewardScale(players=1, centre=-15.0, width=2.0)
    fewer_turns = scale.of_result(_result([70], [[0]], objective=-12))
    more_turns = scale.of_result(_result([95], [[0]], objective=-18))
    assert fewer_turns[0] > 0.5 > more_turns[0]


def test_the_scale_is_fixed_for_a_search() -> None:
    with pytest.raises(ValueError):
        RewardScale(players=1, centre=0.0, width=0.0)


def test_spec_strings_and_defaults() -> None:
    agent = farmtable.agents.make("mcts:iters=50,depth=3,rollout=random,widen=0", seed=1)
    assert isinstance(agent, MctsAgent)
    assert (agent.iters, agent.depth, agent.rollout, agent.widen, agent.time) == (50, 3, "random", 0.0, None)
    assert agent.spec == "mcts:depth=3,iters=50,rollout=random,widen=0"
    assert farmtable.agents.make("mcts").spec == "mcts"
    assert farmtable.agents.make("mcts:depth=end").depth == mcts_module.ROLLOUT_STEP_CAP
    assert farmtable.agents.make("mcts:time=0.5").time == pytest.approx(0.5)


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:iters=0",
        "mcts:time=0",
        "mcts:c=-1",
        "mcts:depth=-2",
        "mcts:depth=forever",
        "mcts:rollout=smart",
        "mcts:k=0",
        "mcts:reuse=2",
        "mcts:value=score",
        "mcts:planets=3",
        "mcts:virtual=-2",
    ],
)
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError):
        farmtable.agents.make(spec)


def test_cpu_budget_stops_before_overrunning(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake CPU clock that moves 10 ms per reading: the search must stop within its 0.25 s."""
    ticks = itertools.count()
    monkeypatch.setattr(mcts_module._time, "process_time", lambda: next(ticks) * 0.01)
    state = mid_game(toy.GAME_ID, 2, seed=1, steps=1)
    agent = MctsAgent(seed=1, time=0.25)
    agent.act(state, state.actors()[0])
    assert agent.last_iterations >= 1
    assert agent.last_cpu <= 0.25 + 0.01  # the closing reading of the clock is one more tick
    unbounded = MctsAgent(seed=1, iters=agent.last_iterations + 5)
    unbounded.act(state, state.actors()[0])
    assert unbounded.last_iterations > agent.last_iterations  # the clock, not the count, stopped it


def test_analyze_lists_every_root_move_with_values_in_range() -> None:
    state = mid_game(toy.GAME_ID, 2, seed=4, steps=1)
    p = state.actors()[0]
    stats = MctsAgent(seed=0, iters=150).analyze(state, p)
    assert {s.notation for s in stats} == {str(a) for a in state.legal_actions(p)}
    assert sum(s.visits for s in stats) == 150
    assert all(0.0 <= s.value <= 1.0 for s in stats)
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)


def test_leaf_evaluation_plays_no_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    """depth=0 judges each new leaf by evaluate() without playing on; depth=2 plays on."""
    state = mid_game(toy.GAME_ID, 2, seed=2, steps=1)
    p = state.actors()[0]
    moves: list[int] = []
    original = MctsAgent._rollout

    def counting(self: MctsAgent, world: Any, scale: RewardScale) -> None:
        before = world.to_json()
        original(self, world, scale)
        moves.append(int(world.to_json() != before))

    monkeypatch.setattr(MctsAgent, "_rollout", counting)
    MctsAgent(seed=0, iters=40).act(state, p)
    assert sum(moves) == 0
    moves.clear()
    MctsAgent(seed=0, iters=40, depth=2, rollout="random").act(state, p)
    assert sum(moves) > 0


def test_the_search_reuses_its_subtree_within_a_compound_turn() -> None:
    """Tiny Towns solo: after its own move the player often decides again with nothing revealed."""
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=5)
    agent = MctsAgent(seed=3, iters=30)
    reused = []
    for _ in range(30):
        if state.is_over():
            break
        action = agent.act(state, 0)
        if len(state.legal_actions(0)) > 1:
            reused.append(agent.last_reused)
        state.apply(0, action)
    assert any(r > 0 for r in reused)
    fresh = MctsAgent(seed=3, iters=30, reuse=0)
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=5)
    for _ in range(10):
        state.apply(0, fresh.act(state, 0))
        assert fresh.last_reused == 0


def test_reuse_does_not_change_a_repeatable_game() -> None:
    one = play("tiny-towns", ["mcts:iters=6"], seed=2)
    two = play("tiny-towns", ["mcts:iters=6"], seed=2)
    assert one == two


def _win_rate(specs: tuple[str, str], games: int) -> float:
    score = 0.0
    for i in range(games):
        flip = i % 2
        seats = list(specs[::-1] if flip else specs)
        _, totals = play(toy.GAME_ID, seats, seed=2000 + i // 2)
        me = 1 if flip else 0
        best = max(totals)
        if totals[me] == best:
            score += 1 / totals.count(best)
    return score / games


def test_mcts_beats_random_on_the_toy_game() -> None:
    assert _win_rate(("mcts:iters=40", "random"), 20) > 0.6


def test_every_level_is_a_working_agent_spec_weakest_first() -> None:
    names = list(levels.LEVELS)
    assert names == ["easy", "normal", "hard", "expert"]
    for name in names:
        agent = farmtable.agents.make(levels.level_spec(name), seed=1)
        state = mid_game(toy.GAME_ID, 2, seed=3, steps=1)
        if not isinstance(agent, MctsAgent) or agent.time is None:
            p = state.actors()[0]
            assert agent.act(state, p) in state.legal_actions(p)
    assert levels.is_level(levels.DEFAULT_LEVEL) and levels.is_level(levels.HINT_LEVEL)
    assert levels.level_spec(" EXPERT ") == levels.LEVELS["expert"].spec
    with pytest.raises(ValueError, match="easy, normal, hard, expert"):
        levels.level_spec("grandmaster")


def test_expert_keeps_to_one_cpu_second() -> None:
    agent = farmtable.agents.make(levels.level_spec("expert"), seed=1)
    assert isinstance(agent, MctsAgent)
    assert agent.time is not None and agent.time <= 1.0


def test_random_state_is_not_shared_between_agents() -> None:
    a, b = MctsAgent(seed=4, iters=5), MctsAgent(seed=4, iters=5)
    random.seed(0)
    state = mid_game(toy.GAME_ID, 2, seed=6, steps=1)
    p = state.actors()[0]
    assert str(a.act(state, p)) == str(b.act(state, p))


def test_rate_limits_how_many_moves_a_visit_rates() -> None:
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=5)
    while len(state.legal_actions(0)) < 6:
        state.apply(0, state.legal_actions(0)[0])
    wide = len(state.legal_actions(0))
    root, _ = MctsAgent(seed=0, iters=1, rate=2)._search(state, 0)
    assert root.priors is not None and len(root.priors) == 2
    root, _ = MctsAgent(seed=0, iters=2, rate=2)._search(state, 0)
    assert root.priors is not None and len(root.priors) == 4
    root, _ = MctsAgent(seed=0, iters=1)._search(state, 0)
    assert root.priors is not None and len(root.priors) == wide
    assert farmtable.agents.make("mcts:rate=4").spec == "mcts:rate=4"
    with pytest.raises(ValueError, match="rate"):
        farmtable.agents.make("mcts:rate=-1")


def test_rating_a_wide_node_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first iteration rates every root move; with a fake clock of 10 ms a reading and a 50 ms
    budget it must stop rating at the deadline instead of rating all of a wide Tiny Towns node."""
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=5)
    while len(state.legal_actions(0)) < 12:
        state.apply(0, state.legal_actions(0)[0])
    ticks = itertools.count()
    monkeypatch.setattr(mcts_module._time, "process_time", lambda: next(ticks) * 0.01)
    agent = MctsAgent(seed=0, time=0.05)
    root, _ = agent._search(state, 0)
    assert root.priors is not None and 1 <= len(root.priors) < len(state.legal_actions(0))
    assert agent.last_iterations == 1
    assert str(agent.act(state, 0)) in {str(a) for a in state.legal_actions(0)}


def test_virtual_visits_hold_a_small_search_to_the_prior() -> None:
    """With the prior counted as a huge number of visits the search plays its best-rated move;
    without, the samples decide (here they pick another square)."""
    state = mid_game("tiny-towns", 2, seed=5, steps=14)
    p = state.actors()[0]
    root, _ = MctsAgent(seed=2, iters=20, virtual=1e9)._search(state, p)
    priors = root.priors
    assert priors is not None and len(priors) > 2
    best = max(priors, key=lambda key: priors[key])
    assert str(MctsAgent(seed=2, iters=20, virtual=1e9).act(state, p)) == best
    assert str(MctsAgent(seed=2, iters=20).act(state, p)) != best
    assert farmtable.agents.make("mcts:virtual=5").spec == "mcts:virtual=5"
    with pytest.raises(ValueError, match="virtual"):
        farmtable.agents.make("mcts:virtual=-1")


def test_closed_loop_chance_keys_the_subtree_by_what_the_searcher_sees() -> None:
    """``chance=1``: below a move, one subtree per view the searching player has after it; the
    moves' own statistics stay one per move, and the agent still plays a legal move."""
    state = mid_game(toy.GAME_ID, 2, seed=3, steps=1)
    p = state.actors()[0]
    agent = farmtable.agents.make("mcts:iters=60,chance=1", seed=2)
    assert isinstance(agent, MctsAgent) and agent.spec == "mcts:chance=1,iters=60"
    root, _ = agent._search(state, p)
    split = [child for child in root.children.values() if child.outcomes]
    assert split, "no move of the root was followed into a subtree"
    assert all(not child.children for child in split)  # the subtrees hang below the outcomes
    assert sum(len(child.outcomes or {}) for child in split) >= len(split)
    assert agent.act(state, p) in state.legal_actions(p)
    with pytest.raises(ValueError, match="chance"):
        farmtable.agents.make("mcts:chance=2")


def test_a_search_sets_the_older_objects_aside_from_the_collector_and_gives_them_back() -> None:
    import gc

    from farmtable.agents.base import old_objects_set_aside

    assert gc.get_freeze_count() == 0
    with old_objects_set_aside():
        assert gc.get_freeze_count() > 0  # the objects made before the search are not walked
    assert gc.get_freeze_count() == 0
    # a process that froze its own objects (a server before forking) keeps its freeze
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with old_objects_set_aside():
            pass
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
