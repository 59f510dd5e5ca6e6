"""The duel player keeps its budget by construction (session 15): the garbage collector is paused
during a budgeted take decision and paid for at its end within a reserve; worlds rated by result."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from farmtable.games.farmini import duel, playout
from farmtable.games.farmini.rules import FarminiState, Take
from tests.games.farmini.positions import take_decision


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_in_the_block_and_restored_after_it(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with duel.collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(RuntimeError), duel.collector_paused():
            raise RuntimeError("boom")
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


class FakeClock:
    """A CPU clock that moves by ``step`` at every reading and by ``pause`` at every full collection."""

    def __init__(self, step: float, pause: float) -> None:
        self.now = 100.0
        self.step = step
        self.pause = pause
        self.collections: list[int] = []

    def read(self) -> float:
        self.now += self.step
        return self.now

    def collect(self, generation: int = 2) -> int:
        self.collections.append(generation)
        self.now += self.pause if generation == 2 else self.pause / 20  # young: a twentieth
        return 0


def _search_with(
    monkeypatch: pytest.MonkeyPatch, budget: float, pause: float, decisions: int
) -> tuple[list[float], FakeClock, list[bool]]:
    """Run ``decisions`` take decisions of ``playout=2,time=budget`` on a fake CPU clock (each reading
    advances it, each full collection pauses it by ``pause``); the decisions' clock times, the clock
    and the collector's state seen inside each rollout."""
    fake = FakeClock(step=0.004, pause=pause)
    monkeypatch.setattr(duel, "MEASURED", {})
    monkeypatch.setattr(duel.time, "process_time", fake.read)
    monkeypatch.setattr(duel.gc, "collect", fake.collect)
    seen: list[bool] = []
    real_rollout = playout.rollout

    def rollout(*args: Any, **kwargs: Any) -> FarminiState:
        seen.append(gc.isenabled())
        return real_rollout(*args, **kwargs)

    monkeypatch.setattr(duel.fast, "rollout", rollout)
    agent = duel.DuelAgent(seed=3, time=budget, playout=2)
    spent = []
    for seed in range(decisions):
        state, p = take_decision(20 + seed, 10)
        assert isinstance(state.legal_actions(p)[0], Take)
        began = fake.now
        agent.act(state, p)
        spent.append(fake.now - began)
    return spent, fake, seen


def test_an_expert_decision_makes_its_collection_inside_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    was = gc.isenabled()
    gc.enable()
    try:
        # young collections of 0.03 CPU s each: the reserve follows the first one measured
        spent, fake, seen = _search_with(monkeypatch, budget=1.0, pause=0.6, decisions=3)
        assert gc.isenabled()  # restored
    finally:
        gc.enable() if was else gc.disable()
    assert seen and not any(seen)  # no automatic collection could run inside the search
    assert fake.collections == [1, 1, 1]  # young generations only, one a decision
    assert all(s <= 1.0 for s in spent)  # the clock readings and the collections fit in the budget
    assert max(spent) > 0.8  # and the search used most of it


def test_a_small_budget_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    was = gc.isenabled()
    gc.enable()
    try:
        spent, fake, seen = _search_with(monkeypatch, budget=0.2, pause=0.15, decisions=1)
    finally:
        gc.enable() if was else gc.disable()
    assert fake.collections == [] and seen and all(seen)
    assert spent[0] <= 0.2 + 0.01  # one clock step past the 95% stop at most


def test_the_reserve_follows_the_processs_last_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: dict[int, float] = {}
    monkeypatch.setattr(duel, "MEASURED", measured)
    agent = duel.DuelAgent(seed=1, time=1.0, playout=4)
    assert agent._collect_reserve() == (pytest.approx(0.05), 1)
    measured[1] = 0.08
    assert agent._collect_reserve() == (pytest.approx(0.12), 1)
    # a new agent (a new game in the same process) starts from the process's measurement
    assert duel.DuelAgent(seed=2, time=1.0, playout=4)._collect_reserve() == (pytest.approx(0.12), 1)
    # a game's last decisions collect almost nothing: the reserve keeps a tenth of the budget
    measured[1] = 0.001
    assert duel.DuelAgent(seed=3, time=1.0, playout=4)._collect_reserve() == (pytest.approx(0.1), 1)
    assert duel.DuelAgent(seed=3, time=0.5, playout=4)._collect_reserve() == (pytest.approx(0.05), 1)
    measured[1] = 0.5  # at most 30% of the budget
    assert agent._collect_reserve() == (pytest.approx(0.3), 1)
    assert duel.DuelAgent(seed=1, time=0.2)._collect_reserve() == (0.0, 0)
    assert duel.DuelAgent(seed=1, time=None)._collect_reserve() == (0.0, 0)


def test_a_finished_world_counts_its_result_and_an_open_one_its_win_chance() -> None:
    state, p = take_decision(8, 12)
    assert duel.world_value(state, p, 0.0) == pytest.approx(duel.margin(state, p))
    assert duel.world_value(state, p, 3.0) == pytest.approx(duel.win_chance(duel.margin(state, p), 3.0))
    end = state.clone()
    while not end.is_over():
        q = end.actors()[0]
        end.apply(q, end.legal_actions(q)[0])
    winners = end.result().winners
    for who in (0, 1):
        expected = 1.0 / len(winners) if who in winners else 0.0
        assert duel.world_value(end, who, 3.0) == expected
    assert duel.world_value(end, 0, 3.0) + duel.world_value(end, 1, 3.0) == pytest.approx(1.0)


def test_a_seeded_win_rated_playout_duel_repeats() -> None:
    state, p = take_decision(4, 10)
    picks, rated = [], []
    for _ in range(2):
        agent = duel.DuelAgent(seed=9, time=None, worlds=3, playout=4, width=3.0)
        picks.append(agent.act(state, p))
        rated.append(agent.last_rated)
    assert picks[0] == picks[1] and rated[0] == rated[1]
    assert all(0.0 <= v <= 1.0 for v in rated[0].values())
    assert rated[0][picks[0]] == max(rated[0].values())
