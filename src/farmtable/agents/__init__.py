"""Computer players. Every agent but one uses only the game contract, so each serves all five games;
``farmerama-lookahead`` is Farmerama's own solo player (it plays like ``greedy`` anywhere else).

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


def _farmerama_lookahead(**params: object) -> Agent:
    """Farmerama's card-counting solo player (imported when first asked for)."""
    from farmtable.games.farmerama.lookahead import LookaheadAgent

    return LookaheadAgent(**params)  # type: ignore[arg-type]


register_agent("farmerama-lookahead", _farmerama_lookahead)


def _tiny_towns_rollout(**params: object) -> Agent:
    """Tiny Towns' solo rollout player (imported when first asked for)."""
    from farmtable.games.tiny_towns.rollout import RolloutAgent

    return RolloutAgent(**params)  # type: ignore[arg-type]


register_agent("tiny-towns-rollout", _tiny_towns_rollout)

__all__ = ["Agent", "agent_names", "make", "parse_spec", "register_agent"]
