"""Which AI seats think in worker processes: every searching agent, so no level's search holds the
interpreter lock the server's event loop needs (the games' own players included), and every agent with
a CPU budget (a capped greedy: Normal in 2-player Tiny Farms and Tiny Towns, Normal and Hard in
2-player Farmini); an uncapped greedy (Easy) decides at once on the server's threads."""

from __future__ import annotations

import pytest

import farmtable
from farmtable.agents.levels import LEVELS, level_spec
from farmtable.core.registry import list_games
from farmtable.server.hub import LIGHT_AGENTS, thinks_long


@pytest.mark.parametrize("game_id", list_games())
def test_every_search_level_runs_in_a_worker_process(game_id: str) -> None:
    game = farmtable.get_game(game_id)
    for players in range(game.min_players, game.max_players + 1):
        for level in LEVELS:
            spec = level_spec(level, game_id, players)
            agent, params = farmtable.agents.parse_spec(spec)
            assert thinks_long(spec) == (agent not in LIGHT_AGENTS or "time" in params), spec
            if level in ("hard", "expert"):  # these always search or think up to a budget
                assert thinks_long(spec), f"{game_id} {players}p {level}: {spec} would search on the server's threads"


def test_the_games_own_players_and_the_quick_ones() -> None:
    for spec in ("tiny-towns-rollout:time=1.0", "farmerama-duel:time=0.2", "tiny-farms-expectimax", "mcts", "ismcts"):
        assert thinks_long(spec)
    for spec in ("greedy", "random", "greedy:slip=0.3"):
        assert not thinks_long(spec)
    assert thinks_long("greedy:slip=0.05,time=0.5")


@pytest.mark.parametrize("game_id", list_games())
def test_every_level_agent_goes_to_a_worker_and_back_with_its_memory(game_id: str) -> None:
    """The seat's agent is pickled to the worker process and back (``act_in_process``): every level's agent
    of the game (2 players, budgets cut to 0.02 s) pickles after a move, and what comes back still plays."""
    import pickle

    from farmtable.server.hub import act_in_process

    game = farmtable.get_game(game_id)
    players = max(2, game.min_players)
    for level in LEVELS:
        spec = level_spec(level, game_id, players)
        for budget in ("time=1.0", "time=0.5", "time=0.2"):
            spec = spec.replace(budget, "time=0.02")
        agent = farmtable.agents.make(spec, seed=5)
        state = game.new_game(players=players, seed=11)
        for _ in range(3):
            seat = state.actors()[0]
            notation, agent = pickle.loads(pickle.dumps(act_in_process(agent, state.clone(), seat)))
            state.apply(seat, notation)
            if state.is_over():
                break
