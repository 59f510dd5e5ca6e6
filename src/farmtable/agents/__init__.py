"""Computer players. Every agent uses only the game contract, so each serves all five games.

>>> import farmtable, farmtable.agents
>>> state = farmtable.get_game("farmers-finances").new_game(players=2, seed=1)
>>> agent = farmtable.agents.make("random", seed=1)
>>> agent.act(state, 0) in state.legal_actions(0)
True
"""

from farmtable.agents import greedy as _greedy  # noqa: F401  (registers "greedy")
from farmtable.agents import ismcts as _ismcts  # noqa: F401  (registers "ismcts")
from farmtable.agents import mcts as _mcts  # noqa: F401  (registers "mcts")
from farmtable.agents import random_agent as _random_agent  # noqa: F401  (registers "random")
from farmtable.agents.base import Agent, agent_names, make, parse_spec, register_agent

__all__ = ["Agent", "agent_names", "make", "parse_spec", "register_agent"]
