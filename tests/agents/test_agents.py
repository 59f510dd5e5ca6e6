"""Every agent on every game: a full game ends with legal moves, and a seeded run repeats exactly."""

from __future__ import annotations

import pytest

import farmtable.agents
from farmtable.agents.ismcts import IsmctsAgent
from tests.agents import toy
from tests.agents.helpers import game_ids, mid_game, play, players_for

AGENTS = ["random", "greedy", "ismcts:iters=4", "ismcts:iters=3,rollout=greedy", "mcts:iters=4", "mcts:iters=3,depth=2"]
GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("spec", AGENTS)
def test_agent_plays_a_full_game_and_repeats_with_its_seed(game_id: str, spec: str) -> None:
    if "rollout=greedy" in spec and game_id != toy.GAME_ID:
        pytest.skip("greedy rollouts are slow on the real games: checked on the toy game")
    n = players_for(game_id)
    specs = [spec] + ["random"] * (n - 1)
    log, totals = play(game_id, specs, seed=3)
    again = play(game_id, specs, seed=3)
    assert (log, totals) == again, "the same seeds gave another game"
    assert len(totals) == n


def test_seeds_matter() -> None:
    logs = {tuple(play(toy.GAME_ID, ["ismcts:iters=8", "random"], seed=s)[0]) for s in range(4)}
    assert len(logs) > 1


def test_spec_strings() -> None:
    agent = farmtable.agents.make("ismcts:iters=50,c=1.2,rollout=greedy", seed=2)
    assert isinstance(agent, IsmctsAgent)
    assert (agent.iters, agent.c, agent.rollout, agent.time) == (50, 1.2, "greedy", None)
    assert agent.spec == "ismcts:c=1.2,iters=50,rollout=greedy"
    assert farmtable.agents.make("ismcts:time=0.01").time == pytest.approx(0.01)
    assert farmtable.agents.make("greedy").spec == "greedy"
    assert {"random", "greedy", "ismcts"} <= set(farmtable.agents.agent_names())


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iters=0",
        "ismcts:iters=x",
        "ismcts:rollout=smart",
        "ismcts:time=-1",
        "ismcts:depth=-3",
        "ismcts:prior=-1",
        "greedy:iters=3",
        "nobody",
    ],
)
def test_bad_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError):
        farmtable.agents.make(spec)


def test_time_budget_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake CPU clock that moves 10 ms per reading (no wall-clock timing: a busy machine must not
    fail it): the search stops at its 0.05 s budget, after more than one iteration."""
    import itertools

    from farmtable.agents import ismcts as ismcts_module

    ticks = itertools.count()
    monkeypatch.setattr(ismcts_module._time, "process_time", lambda: next(ticks) * 0.01)
    state = mid_game(toy.GAME_ID, 2, seed=1, steps=1)
    agent = IsmctsAgent(seed=1, time=0.05)
    agent.act(state, state.actors()[0])
    assert 1 < agent.last_iterations <= 5  # one clock reading per iteration: 0.05 s = 5 readings
    unbounded = IsmctsAgent(seed=1, iters=agent.last_iterations + 5)
    unbounded.act(state, state.actors()[0])
    assert unbounded.last_iterations > agent.last_iterations  # the clock, not the count, stopped it


def test_analyze_lists_every_root_move_with_values_in_range() -> None:
    state = mid_game(toy.GAME_ID, 2, seed=4, steps=1)
    p = state.actors()[0]
    stats = IsmctsAgent(seed=0, iters=200).analyze(state, p)
    assert {s.notation for s in stats} == {str(a) for a in state.legal_actions(p)}
    assert sum(s.visits for s in stats) == 200
    assert all(0.0 <= s.value <= 1.0 for s in stats)
    assert stats == sorted(stats, key=lambda s: (-s.visits, -s.value))


def _win_rate(specs: tuple[str, str], games: int) -> float:
    score = 0.0
    for i in range(games):
        flip = i % 2
        seats = list(specs[::-1] if flip else specs)
        _, totals = play(toy.GAME_ID, seats, seed=1000 + i // 2)
        me = 1 if flip else 0
        best = max(totals)
        if totals[me] == best:
            score += 1 / totals.count(best)
    return score / games


def test_greedy_beats_random_on_the_toy_game() -> None:
    assert _win_rate(("greedy", "random"), 60) > 0.55


def test_ismcts_beats_random_on_the_toy_game() -> None:
    assert _win_rate(("ismcts:iters=60", "random"), 30) > 0.6
