"""farmtable for RL: PettingZoo, Gymnasium and OpenSpiel adapters over the game contract.

- :mod:`farmtable.rl.catalogue`: the fixed action catalogue and the observation encoder of every
  game (``spec(game_id, players, variants)``); the adapters share it.
- :mod:`farmtable.rl.pettingzoo`: ``env(...)`` (AEC) and ``parallel_env(...)``.
- :mod:`farmtable.rl.gymnasium`: ``farmtable/<Name>-solo-v0`` single-agent environments.
- :mod:`farmtable.rl.openspiel`: each game as a pyspiel Python game (``python_farmtable_<id>``).
- :mod:`farmtable.rl.vector`: ``gymnasium.vector`` envs on batched simulators (``FarmersFinancesVectorEnv``,
  ``TinyFarmsVectorEnv``).

The adapters only encode: the rules stay in the game packages. See ``docs/rl.md``.
"""

from farmtable.rl.catalogue import REWARDS, Spec, rl_game, rl_games, spec, variant_sets

__all__ = ["REWARDS", "Spec", "rl_game", "rl_games", "spec", "variant_sets"]
