"""What an agent is, and how a spec string like ``ismcts:iters=400`` becomes one."""

from __future__ import annotations

import gc
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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

    def warm_up(self, state: State[Any]) -> float:
        """Pay the game's one-off start-up (imports, tables) now, outside any decision's clock.

        A server or harness calls it once per game before the first decision; a search agent also
        calls it itself before its clock starts. Returns the CPU seconds it cost (0 when warm).
        """
        return warm_up(state)

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


def make(spec: str, seed: int | None = None, game: str | None = None, players: int | None = None) -> Agent:
    """Build an agent from its spec string or level name: ``make("random", seed=1)``, ``make("expert")``.

    A level name becomes that level's spec in ``game`` with ``players`` players (its per-game
    override, see :func:`farmtable.agents.levels.level_spec`); without a game, its general spec.
    Raises ``ValueError`` naming the known agents for an unknown name, or the bad parameter.
    """
    from farmtable.agents.levels import is_level, level_spec

    if is_level(spec):  # "easy", "normal", "hard", "expert": the named levels
        spec = level_spec(spec, game, players)
    name, params = parse_spec(spec)
    if name not in _REGISTRY:
        raise ValueError(f"no agent '{name}'; the agents are: {', '.join(agent_names())}")
    try:
        return _REGISTRY[name](seed=seed, **params)
    except TypeError as exc:
        raise ValueError(f"agent spec '{spec}': {exc}") from None


_WARM: dict[tuple[str, int, tuple[str, ...]], float] = {}
"""The games this process has warmed up (game id, players, variants) and what each cost."""


def _warm_key(state: State[Any]) -> tuple[str, int, tuple[str, ...]]:
    variants = getattr(state, "variants", ()) or ()
    return (state.game.id, state.players, tuple(sorted(str(v) for v in variants)))


def is_warm(state: State[Any]) -> bool:
    """True once this process has warmed up ``state``'s game (at its player count and variants)."""
    return _warm_key(state) in _WARM


def warm_up(state: State[Any]) -> float:
    """Evaluate a copy of ``state`` once per process, game, player count and variants; its CPU seconds.

    The first ``evaluate()`` of a process can cost far more than a decision's budget (Farmers
    Finances' solver builds its table: 0.25-2.7 CPU s; Farmerama, Tiny Farms, Farmini 0.3-0.4 s);
    later ones are cheap. A game whose state has ``warm_up_search()`` builds its search tables
    then too (Tiny Farms solo: the round table of every wheel position, ~2.7 CPU s). Call it with a
    position the caller may see in full (a search agent passes its own determinized world).
    Nothing about ``state`` changes; 0.0 when already warm.
    """
    key = _warm_key(state)
    if key in _WARM:
        return 0.0
    start = time.process_time()
    probe = state.clone()
    if not probe.is_over():
        probe.evaluate()
        for p in probe.actors():
            probe.heuristic(p)
    tables = getattr(probe, "warm_up_search", None)
    if callable(tables):  # a game's own one-off tables for search (Tiny Farms solo: every wheel position)
        tables()
    spent = time.process_time() - start
    _WARM[key] = spent
    return spent


def warm_up_game(game_id: str, players: int, variants: tuple[str, ...] = ()) -> float:
    """Warm up a game before any table of it exists (a server's worker at start): a fresh deal, seed 0."""
    import farmtable

    state = farmtable.get_game(game_id).new_game(players=players, seed=0, variants=variants)
    return warm_up(state)


def legal_actions_or_refuse(state: State[Any], player: int) -> list[Any]:
    """``player``'s legal actions now; a ``ValueError`` naming the player when there are none (an
    agent asked to move when it is not that player's turn)."""
    legal = state.legal_actions(player)
    if not legal:
        raise ValueError(f"player {player} has no legal action now")
    return legal


@contextmanager
def old_objects_set_aside() -> Iterator[None]:
    """Keep Python's cyclic garbage collector off the objects that existed before a decision.

    A full collection walks every object the process holds (a search's caches and trees: about
    50-65 ms in Farmini), and one that falls inside a timed search overruns its budget. Inside
    this block the older objects are frozen (``gc.freeze``), so the collections that do run walk
    only what the decision made; afterwards they are given back (``gc.unfreeze``) and collected as
    usual between decisions. Does nothing when something else froze objects already (a server that
    froze before forking keeps its own freeze).
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
