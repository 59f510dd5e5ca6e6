"""PettingZoo environments for every farmtable game: ``env(...)`` (AEC) and ``parallel_env(...)``.

    from farmtable.rl.pettingzoo import env, parallel_env
    e = env("farmerama", players=3, variants=("profi",), reward="win")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Every observation is a dict:
``observation`` (float32 vector encoded from ``state.view(agent)`` only, index table in
``docs/rl.md``) and ``action_mask`` (int8, one per catalogue action). Rewards are paid at the
end (``reward="score"`` or ``"win"``, see :mod:`farmtable.rl.catalogue`).

AEC: ``agent_selection`` is the lowest seat among the game's actors. In a simultaneous step the
actors decide one after the other, and each decision goes into the game at once: the game keeps
it face down until the step resolves, and observations are built from views, so a later actor
never sees an earlier one's choice.

Parallel: every actor of the current step sends its action in the same ``step``; seats that are
not to act send anything (it is ignored) and see an all-zero mask. An illegal action ends the
episode, the offender getting ``illegal_reward`` (PettingZoo's usual convention); ``env()``
does the same through PettingZoo's ``TerminateIllegalWrapper``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from farmtable.rl.catalogue import REWARDS, Spec, spec

ILLEGAL_REWARD = -1.0
"""The reward of a seat whose illegal action ends the episode."""
_SEED_BOUND = 2**62


def _agent(seat: int) -> str:
    return f"player_{seat}"


def _name(game_id: str) -> str:
    return f"farmtable_{game_id.replace('-', '_')}_v0"


def _spaces(sp: Spec) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(low=sp.low, high=sp.high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(sp.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(sp.num_actions)


class _Common:
    """What both environments share: the spec, the spaces, the game and its seeding."""

    spec: Spec
    reward_mode: str

    def _setup(self, game_id: str, players: int, variants: Sequence[str], reward: str) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.spec = spec(game_id, players, variants)
        self.reward_mode = reward
        self.possible_agents = [_agent(p) for p in range(players)]
        self.agent_seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs, act = _spaces(self.spec)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.state: Any = None

    def _new_state(self, seed: int | None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.state = self.spec.new_game(int(self._seed_rng.integers(_SEED_BOUND)))
        self._cache: dict[tuple[str, int], Any] = {}

    def _legal(self, seat: int) -> dict[int, Any]:
        """``{index: action}`` of ``seat`` now (cached until the next move)."""
        key = ("legal", seat)
        if key not in self._cache:
            self._cache[key] = self.spec.legal(self.state, seat)
        legal: dict[int, Any] = self._cache[key]
        return legal

    def _apply(self, seat: int, action: Any) -> None:
        self.state.apply(seat, action)
        self._cache.clear()

    def _observe_seat(self, seat: int) -> dict[str, np.ndarray]:
        """The observation dict of ``seat`` (cached until the next move: wrappers observe twice per step)."""
        key = ("obs", seat)
        if key not in self._cache:
            mask = np.zeros(self.spec.num_actions, dtype=np.int8)
            mask[list(self._legal(seat))] = 1
            self._cache[key] = {"observation": self.spec.observe(self.state, seat), "action_mask": mask}
        obs: dict[str, np.ndarray] = self._cache[key]
        return obs

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The discrete action space of ``agent``: indices into the game's catalogue."""
        return self.action_spaces[agent]

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``), as a spectator sees it."""
        if self.state is None or getattr(self, "render_mode", None) != "ansi":
            return None
        text: str = self.state.render_text(None)
        return text


class FarmtableAEC(_Common, AECEnv):  # type: ignore[misc]
    """The AEC environment of one game/player-count/variant set (use :func:`env`)."""

    def __init__(
        self,
        game_id: str,
        players: int = 2,
        variants: Sequence[str] = (),
        reward: str = "score",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._setup(game_id, players, variants, reward)
        self.metadata = {"render_modes": ["ansi"], "name": _name(game_id), "is_parallelizable": True}
        self.render_mode = render_mode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same ``seed`` gives the same game."""
        self._new_state(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = _agent(self.state.actors()[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its view encoded, and its action mask."""
        return self._observe_seat(self.agent_seat[agent])

    def step(self, action: Any) -> None:
        """Play catalogue action ``action`` for ``agent_selection`` (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        legal = self._legal(seat)
        if action is None or int(action) not in legal:
            raise ValueError(f"{agent}: action {action!r} is not legal now (see the action mask)")
        self._apply(seat, legal[int(action)])
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_over():
            final = self.spec.rewards(self.state, self.reward_mode)
            for a in self.agents:
                self.rewards[a] = final[self.agent_seat[a]]
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = _agent(self.state.actors()[0])
        self._accumulate_rewards()

    def close(self) -> None:
        """Nothing to release."""


class FarmtableParallel(_Common, ParallelEnv):  # type: ignore[misc]
    """The Parallel environment of one game/player-count/variant set (use :func:`parallel_env`)."""

    def __init__(
        self,
        game_id: str,
        players: int = 2,
        variants: Sequence[str] = (),
        reward: str = "score",
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
    ) -> None:
        self._setup(game_id, players, variants, reward)
        self.metadata = {"render_modes": ["ansi"], "name": _name(game_id)}
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start a new game; returns every seat's observation and info."""
        self._new_state(seed)
        self.agents = list(self.possible_agents)
        return {a: self._observe_seat(self.agent_seat[a]) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Every seat to act plays its action (in seat order); others' actions are ignored."""
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        over = False
        for seat in list(self.state.actors()):
            if seat not in self.state.actors():
                continue
            agent = _agent(seat)
            action = actions.get(agent)
            legal = self._legal(seat)
            if action is None or int(action) not in legal:
                rewards[agent] = self.illegal_reward
                infos[agent] = {"illegal_action": action}
                over = True
                break
            self._apply(seat, legal[int(action)])
        if not over and self.state.is_over():
            final = self.spec.rewards(self.state, self.reward_mode)
            rewards = {a: final[self.agent_seat[a]] for a in self.agents}
            over = True
        observations = {a: self._observe_seat(self.agent_seat[a]) for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    game_id: str, players: int = 2, variants: Sequence[str] = (), reward: str = "score", render_mode: str | None = None
) -> FarmtableAEC:
    """The unwrapped AEC environment (illegal actions raise ``ValueError``)."""
    return FarmtableAEC(game_id, players, variants, reward, render_mode)


def env(
    game_id: str, players: int = 2, variants: Sequence[str] = (), reward: str = "score", render_mode: str | None = None
) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's classic games are (an illegal action ends the game at −1)."""
    wrapped: AECEnv = raw_env(game_id, players, variants, reward, render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(
    game_id: str,
    players: int = 2,
    variants: Sequence[str] = (),
    reward: str = "score",
    render_mode: str | None = None,
) -> FarmtableParallel:
    """The Parallel environment: all actors of a (simultaneous) step act in one ``step``."""
    return FarmtableParallel(game_id, players, variants, reward, render_mode)
