"""The greedy agent's opt-in options (``slip``, ``time``): off by default, the plain agent unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.agents.greedy import GreedyAgent, greedy_choice, ranked_values, slipped_choice
from tests.agents import toy
from tests.agents.helpers import mid_game


def _moves(specs: list[str], game_id: str, seed: int, limit: int = 400) -> list[str]:
    """The notations of a game's decisions (at most ``limit``) with one agent per seat."""
    if game_id == toy.GAME_ID:
        state: Any = toy.ToyState.game.new_game(players=len(specs), seed=seed)
    else:
        state = farmtable.get_game(game_id).new_game(players=len(specs), seed=seed)
    agents = [farmtable.agents.make(s, seed=seed * 7919 + i) for i, s in enumerate(specs)]
    out: list[str] = []
    while not state.is_over() and len(out) < limit:
        p = state.actors()[0]
        action = agents[p].act(state, p)
        out.append(str(action))
        state.apply(p, action)
    return out


def test_the_options_are_off_by_default() -> None:
    agent = farmtable.agents.make("greedy", seed=3)
    assert isinstance(agent, GreedyAgent)
    assert (agent.slip, agent.time, agent.spec) == (0.0, None, "greedy")
    assert farmtable.agents.make("greedy:slip=0", seed=3).spec == "greedy"
    assert farmtable.agents.make("greedy:slip=0.3,time=0.2").spec == "greedy:slip=0.3,time=0.2"


@pytest.mark.parametrize("game_id", [toy.GAME_ID, "tiny-farms"])
def test_a_cap_that_never_binds_plays_exactly_the_plain_game(game_id: str) -> None:
    """``time=`` rates the same moves and breaks ties with the same draws as plain greedy."""
    plain = _moves(["greedy", "greedy"], game_id, seed=11, limit=60)
    capped = _moves(["greedy:time=1000", "greedy"], game_id, seed=11, limit=60)
    assert capped == plain


def test_the_plain_agent_chooses_as_greedy_choice() -> None:
    """Plain greedy's decision is :func:`greedy_choice` on its determinization, draw for draw."""
    state = mid_game("tiny-farms", 2, seed=5, steps=7)
    p = state.actors()[0]
    agent = GreedyAgent(seed=9)
    rng = random.Random(9)
    world = state.determinize(p, random.Random(rng.getrandbits(64)))
    expected = state.legal_actions(p)[greedy_choice(world, p, rng)]
    assert agent.act(state, p) == expected


def test_slipped_choice_takes_the_best_below_the_best() -> None:
    rng = random.Random(0)
    rated = [(3.0, 0), (5.0, 1), (4.0, 2), (5.0, 3), (4.5, 4)]
    assert slipped_choice(rated, False, rng) in {1, 3}
    assert slipped_choice(rated, True, rng) == 4
    level = [(2.0, 0), (2.0, 1)]
    assert slipped_choice(level, True, rng) in {0, 1}  # nothing below the best: the best


def test_slip_one_always_plays_the_second_best() -> None:
    for seed in range(4):
        state = mid_game("tiny-farms", 2, seed=seed, steps=3)
        p = state.actors()[0]
        legal = state.legal_actions(p)
        if len(legal) < 2:
            continue
        world = state.determinize(p, random.Random(0))  # Tiny Farms hides nothing but the dice to come
        rated = dict((i, v) for v, i in ranked_values(world, p))
        values = sorted(set(rated.values()), reverse=True)
        chosen = legal.index(GreedyAgent(seed=seed, slip=1.0).act(state, p))
        assert rated[chosen] == (values[1] if len(values) > 1 else values[0])


def test_slipping_makes_a_different_and_repeatable_game() -> None:
    plain = _moves(["greedy", "greedy"], "tiny-farms", seed=2)
    first = _moves(["greedy:slip=0.5", "greedy"], "tiny-farms", seed=2)
    again = _moves(["greedy:slip=0.5", "greedy"], "tiny-farms", seed=2)
    assert first == again
    assert first != plain


def test_the_cap_stops_rating(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake CPU clock 10 ms a reading: a deadline already passed rates only the first move."""
    import itertools
    import time

    state = mid_game("tiny-farms", 2, seed=1, steps=3)
    p = state.actors()[0]
    assert len(state.legal_actions(p)) > 1
    ticks = itertools.count()
    monkeypatch.setattr(time, "process_time", lambda: next(ticks) * 0.01)
    assert [i for _, i in ranked_values(state, p, deadline=-1.0)] == [0]
    assert len(ranked_values(state, p, deadline=None)) == len(state.legal_actions(p))


@pytest.mark.parametrize(
    "spec", ["greedy:slip=-0.1", "greedy:slip=1.5", "greedy:slip=x", "greedy:time=0", "greedy:time=-1"]
)
def test_bad_options_are_refused(spec: str) -> None:
    with pytest.raises(ValueError):
        farmtable.agents.make(spec)


def test_a_rating_that_would_pass_the_cap_is_not_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake CPU clock where every rating costs 0.1 s: with 0.25 s left, two ratings fit and the
    third (as slow as the slowest) would end after the deadline, so it is not started."""
    import time

    state = mid_game("tiny-farms", 2, seed=1, steps=3)
    p = state.actors()[0]
    assert len(state.legal_actions(p)) > 3
    clock = [0.0]

    def reading() -> float:
        return clock[0]

    real_clone = type(state).clone

    def slow_clone(self: Any) -> Any:
        clock[0] += 0.1  # each rating clones once: the clock moves a tenth of a second per rating
        return real_clone(self)

    monkeypatch.setattr(time, "process_time", reading)
    monkeypatch.setattr(type(state), "clone", slow_clone)
    assert [i for _, i in ranked_values(state, p, deadline=0.25)] == [0, 1]


def test_a_capped_decision_keeps_older_objects_from_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside a capped decision the objects made before it are frozen (no full collection walks
    them); the plain agent leaves the collector alone; both give the objects back afterwards."""
    import gc

    import farmtable.agents.greedy as greedy

    seen: list[int] = []
    real = greedy.ranked_values

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_freeze_count())
        return real(*args, **kwargs)

    monkeypatch.setattr(greedy, "ranked_values", spy)
    state = mid_game("tiny-farms", 2, seed=1, steps=3)
    p = state.actors()[0]
    GreedyAgent(seed=1, time=0.5).act(state, p)
    GreedyAgent(seed=1, slip=0.5).act(state, p)
    assert seen[0] > 0 and seen[1] == 0
    assert gc.get_freeze_count() == 0
