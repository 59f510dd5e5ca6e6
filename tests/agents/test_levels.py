"""The named AI levels reach every place a person picks an opponent."""

from __future__ import annotations

import pytest

import farmtable.agents
from farmtable.agents import base, levels
from farmtable.agents import mcts as mcts_module
from farmtable.agents.levels import DEFAULT_LEVEL, HINT_LEVEL, LEVELS
from farmtable.agents.mcts import MctsAgent
from farmtable.cli.play import DEFAULT_OPPONENT, parse_seats
from tests.agents import toy
from tests.agents.helpers import mid_game


@pytest.mark.parametrize("name", [*LEVELS, "Expert", " HARD "])
def test_make_takes_a_level_name(name: str) -> None:
    agent = farmtable.agents.make(name, seed=1)
    assert agent.spec == farmtable.agents.make(LEVELS[name.strip().lower()].spec).spec


def test_an_unknown_name_lists_the_agents() -> None:
    with pytest.raises(ValueError, match="no agent 'grandmaster'"):
        farmtable.agents.make("grandmaster")


def test_the_terminal_default_is_the_default_level() -> None:
    assert DEFAULT_OPPONENT == DEFAULT_LEVEL
    assert parse_seats(2, []) == {0: "human", 1: DEFAULT_LEVEL}
    assert parse_seats(3, ["2=expert"])[2] == "expert"
    assert HINT_LEVEL in LEVELS


# --- per-game level specs ----------------------------------------------------------------------

_ROWS = (
    levels.Override("expert", "toy-bids", "mcts:iters=800,time=1.0,depth=3", "test row"),
    levels.Override("expert", "toy-bids", "mcts:iters=800,time=1.0,c=0.2", "test row, solo", players=1),
)


def test_a_game_override_wins_over_the_general_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "OVERRIDES", _ROWS)
    assert levels.level_spec("Expert", "toy-bids") == "mcts:iters=800,time=1.0,depth=3"
    assert levels.level_spec("expert", "toy-bids", 2) == "mcts:iters=800,time=1.0,depth=3"
    assert levels.level_spec("expert", "toy-bids", 1) == "mcts:iters=800,time=1.0,c=0.2"
    assert levels.level_spec("expert") == LEVELS["expert"].spec  # no game: the general spec
    assert levels.level_spec("hard", "toy-bids") == LEVELS["hard"].spec  # no row for Hard
    assert levels.level_spec("expert", "tiny-towns", 1) == LEVELS["expert"].spec


def test_make_and_the_server_pass_the_game_to_a_level(monkeypatch: pytest.MonkeyPatch) -> None:
    from farmtable.server.limits import agent_spec_to_run

    monkeypatch.setattr(levels, "OVERRIDES", _ROWS)
    agent = farmtable.agents.make("expert", seed=1, game="toy-bids", players=2)
    assert isinstance(agent, MctsAgent) and agent.depth == 3
    assert farmtable.agents.make("expert", seed=1).spec == farmtable.agents.make(LEVELS["expert"].spec).spec
    assert agent_spec_to_run("Expert", "toy-bids", 1) == "mcts:iters=800,time=1.0,c=0.2"
    assert agent_spec_to_run("mcts:iters=7", "toy-bids") == "mcts:iters=7"  # a raw spec runs as stored


def test_the_hint_uses_the_games_hint_level(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    hint_module = importlib.import_module("farmtable.arena.hint")
    seen: list[str] = []
    real_make = farmtable.agents.make

    def spy(spec: str, seed: int | None = None, **kw: object) -> farmtable.agents.Agent:
        seen.append(spec)
        return real_make(spec.replace("iters=800", "iters=5"), seed=seed)

    monkeypatch.setattr(levels, "OVERRIDES", _ROWS)
    monkeypatch.setattr(farmtable.agents, "make", spy)
    state = mid_game(toy.GAME_ID, 2, seed=2, steps=1)
    advice = hint_module.hint(state)
    assert seen == ["mcts:iters=800,time=1.0,depth=3"]
    assert advice.best.notation in {str(a) for a in state.legal_actions(advice.player)}


def test_the_shipped_overrides_keep_their_levels_budgets() -> None:
    assert levels.check_overrides() == []
    for row in levels.OVERRIDES:
        farmtable.agents.make(row.spec)  # a working spec


def test_a_bad_override_is_named() -> None:
    bad = (
        levels.Override("expert", "g", "mcts:iters=4000,time=1.0", "more budget"),
        levels.Override("expert", "g", "greedy", "another agent"),
        levels.Override("master", "g", "greedy", "no such level"),
        levels.Override("hard", "g", "mcts:iters=200,time=0.5", " "),
        levels.Override("normal", "g", "mcts:iters=50,time=0.3", "a longer cap"),
        levels.Override("hard", "g2", "mcts:iters=100,time=0.5,depth=3", "fewer, deeper iterations: allowed"),
    )
    problems = levels.check_overrides(bad)
    assert any("iters=4000" in p for p in problems)
    assert any("listed twice" in p for p in problems)
    assert any("agent 'greedy' without the level's cap" in p for p in problems)
    assert any("no level 'master'" in p for p in problems)
    assert any("no evidence" in p for p in problems)
    assert any("time=0.3" in p for p in problems)
    assert not any("hard/g2" in p for p in problems)


# --- warming a game up outside a decision's clock ----------------------------------------------


def test_warm_up_is_paid_once_per_process_and_game(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    state = mid_game(toy.GAME_ID, 2, seed=4, steps=1)
    real = type(state).evaluate

    def counting(self: object) -> list[float]:
        calls.append(1)
        return real(self)  # type: ignore[arg-type]

    monkeypatch.setattr(base, "_WARM", {})
    monkeypatch.setattr(type(state), "evaluate", counting)
    before = state.to_dict() if hasattr(state, "to_dict") else None
    assert not base.is_warm(state)
    assert base.warm_up(state) >= 0.0 and calls == [1]
    assert base.is_warm(state)
    assert base.warm_up(state) == 0.0 and calls == [1]  # warm: nothing evaluated again
    if before is not None:
        assert state.to_dict() == before  # the position itself is untouched


def test_the_search_warms_up_before_its_clock_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold start that costs 5 CPU s (a fake clock) must not eat a 0.3 s budget: the search still
    runs its iterations and its own CPU stays within the budget."""
    clock = [0.0]

    def tick() -> float:
        clock[0] += 0.001
        return clock[0]

    def slow_warm(state: object) -> float:
        clock[0] += 5.0
        return 5.0

    monkeypatch.setattr(mcts_module._time, "process_time", tick)
    monkeypatch.setattr(mcts_module, "warm_up", slow_warm)
    state = mid_game(toy.GAME_ID, 2, seed=1, steps=1)
    agent = MctsAgent(seed=1, time=0.3, iters=20)
    agent.act(state, state.actors()[0])
    assert agent.last_warm == 5.0
    assert agent.last_iterations == 20  # the cold start did not stop the search
    assert agent.last_cpu <= 0.3


def test_warm_up_builds_a_games_search_tables_too() -> None:
    """Tiny Farms solo: every wheel position's round table is built by the warm-up, so no search
    builds one inside its clock (several players: nothing to build)."""
    import farmtable
    from farmtable.agents import base
    from farmtable.games.tiny_farms import lookahead

    lookahead.round_table.cache_clear()
    base._WARM.clear()
    base.warm_up(farmtable.get_game("tiny-farms").new_game(players=2, seed=1))
    assert lookahead.round_table.cache_info().currsize == 0
    base.warm_up(farmtable.get_game("tiny-farms").new_game(players=1, seed=1))
    assert lookahead.round_table.cache_info().currsize == lookahead.warm_up()
