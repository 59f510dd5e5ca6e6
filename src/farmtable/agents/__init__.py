"""Computer players. Most agents use only the game contract, so each serves all five games; the others
are a game's own player, imported when first asked for, that play like ``greedy`` (or the game's solo
player) anywhere else. Solo: ``farmerama-lookahead`` (counts the action cards),
``tiny-farms-expectimax`` (exact over the next roll) and ``tiny-towns-rollout`` (whole games played
ahead greedily). Two or more players: ``farmerama-duel``, ``farmini-duel``, ``tiny-farms-duel`` and
``tiny-towns-duel`` (see ``docs/agents.md``).

>>> import farmtable, farmtable.agents
>>> state = farmtable.get_game("farmers-finances").new_game(players=2, seed=1)
>>> agent = farmtable.agents.make("random", seed=1)
>>> agent.act(state, 0) in state.legal_actions(0)
True
"""

from importlib import import_module

from farmtable.agents import greedy as _greedy  # noqa: F401  (registers "greedy")
from farmtable.agents import ismcts as _ismcts  # noqa: F401  (registers "ismcts")
from farmtable.agents import mcts as _mcts  # noqa: F401  (registers "mcts")
from farmtable.agents import random_agent as _random_agent  # noqa: F401  (registers "random")
from farmtable.agents.base import Agent, AgentFactory, agent_names, make, parse_spec, register_agent

GAME_SOLO_PLAYERS = {
    "farmerama-lookahead": ("farmtable.games.farmerama.lookahead", "LookaheadAgent"),
    "farmerama-duel": ("farmtable.games.farmerama.duel", "DuelAgent"),
    "farmini-duel": ("farmtable.games.farmini.duel", "DuelAgent"),
    "farmers-finances-duel": ("farmtable.games.farmers_finances.duel", "DuelAgent"),
    "tiny-farms-expectimax": ("farmtable.games.tiny_farms.expectimax", "ExpectimaxAgent"),
    "tiny-farms-duel": ("farmtable.games.tiny_farms.duel", "DuelAgent"),
    "tiny-towns-rollout": ("farmtable.games.tiny_towns.rollout", "RolloutAgent"),
    "tiny-towns-duel": ("farmtable.games.tiny_towns.duel", "DuelAgent"),
}
"""The games' own solo players: agent name -> (module, class). Imported when first made, so that
importing the agents does not import the games' search code."""


def _imported_when_made(module: str, cls: str) -> AgentFactory:
    def factory(**params: object) -> Agent:
        agent_class = getattr(import_module(module), cls)
        return agent_class(**params)  # type: ignore[no-any-return]

    factory.__doc__ = f"Make a {cls} from {module} (imported on first use)."
    return factory


for _name, (_module, _cls) in GAME_SOLO_PLAYERS.items():
    register_agent(_name, _imported_when_made(_module, _cls))


__all__ = ["Agent", "agent_names", "make", "parse_spec", "register_agent"]
