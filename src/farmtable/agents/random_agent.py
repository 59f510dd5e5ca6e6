"""The random agent: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

from farmtable.agents.base import Agent, legal_actions_or_refuse, register_agent
from farmtable.core import State


class RandomAgent(Agent):
    """Picks uniformly among the legal actions; the same seed gives the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)

    def act(self, state: State[Any], player: int) -> Any:
        """A uniformly random legal action of ``player``."""
        legal = legal_actions_or_refuse(state, player)
        return self.rng.choice(legal)


register_agent("random", RandomAgent)
