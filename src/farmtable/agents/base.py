"""What an agent is, and how a spec string like ``ismcts:iters=400`` becomes one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from farmtable.core import State


class Agent(ABC):
    """A computer player: ``act(state, player)`` returns one of ``state.legal_actions(player)``.

    Agents use only the game contract and only what ``player`` may see: anything that
    needs the hidden parts of the state plans on ``state.determinize(player, rng)``.
    """

    name: str = "agent"

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        self.seed = seed
        self.params = params

    @abstractmethod
    def act(self, state: State[Any], player: int) -> Any:
        """Choose an action for ``player`` (who must be an actor of ``state``)."""

    @property
    def spec(self) -> str:
        """The spec string that makes this agent again (without its seed)."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))

    def __repr__(self) -> str:
        return f"<agent {self.spec} seed={self.seed}>"


AgentFactory = Callable[..., Agent]
_REGISTRY: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make an agent available to :func:`make` under ``name``."""
    _REGISTRY[name] = factory


def agent_names() -> list[str]:
    """The names of every agent :func:`make` knows."""
    return sorted(_REGISTRY)


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"ismcts:iters=400,rollout=greedy"`` into ``("ismcts", {"iters": 400, "rollout": "greedy"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent spec '{spec}': parameter '{part}' should look like name=value")
        params[key.strip()] = _parse_value(value.strip())
    return name, params


def make(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec string or level name: ``make("random", seed=1)``, ``make("expert")``.

    Raises ``ValueError`` naming the known agents for an unknown name, or the bad parameter.
    """
    from farmtable.agents.levels import is_level, level_spec

    if is_level(spec):  # "easy", "normal", "hard", "expert": the named levels
        spec = level_spec(spec)
    name, params = parse_spec(spec)
    if name not in _REGISTRY:
        raise ValueError(f"no agent '{name}'; the agents are: {', '.join(agent_names())}")
    try:
        return _REGISTRY[name](seed=seed, **params)
    except TypeError as exc:
        raise ValueError(f"agent spec '{spec}': {exc}") from None
