"""Gymnasium single-agent environments for every solo mode: ``farmtable/<Name>-solo-v0``.

    import gymnasium as gym
    import farmtable.rl.gymnasium  # registers the environments
    env = gym.make("farmtable/TinyFarms-solo-v0", variants=("emma-hard",), reward="win")
    obs, info = env.reset(seed=3)
    action = env.action_space.sample(info["action_mask"])

Without the import, ``gym.make("farmtable.rl.gymnasium:farmtable/TinyFarms-solo-v0")`` imports it first.

The observation is the float32 vector encoded from ``state.view(0)`` (index table in
``docs/rl.md``); the legal actions come as ``info["action_mask"]`` (int8) and from
``env.unwrapped.action_masks()`` (the method sb3-contrib's ``MaskablePPO`` calls).

Rewards (``reward=``): ``"score"`` and ``"win"`` are the game's solo measures paid at the end
(see each game module in :mod:`farmtable.rl`); ``"dense"`` pays the change of the solo score as
it stands after every decision, so an episode's rewards add up to the final solo score minus the
starting one. An illegal action ends the episode with ``illegal_reward``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import farmtable
from farmtable.rl.catalogue import rl_game, rl_games, spec

SOLO_REWARDS = ("score", "win", "dense")
"""The reward modes of the solo environments."""
ILLEGAL_REWARD = -1.0
"""The reward of an illegal action (which ends the episode)."""
_SEED_BOUND = 2**62


class FarmtableSoloEnv(gym.Env[np.ndarray, np.int64]):
    """One game's solo mode as a Gymnasium environment with action masks."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  (gymnasium reads it as a class attribute)

    def __init__(
        self,
        game_id: str,
        variants: Sequence[str] = (),
        reward: str = "score",
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
    ) -> None:
        if reward not in SOLO_REWARDS:
            raise ValueError(f"reward must be one of {', '.join(SOLO_REWARDS)}, not {reward!r}")
        self.spec_ = spec(game_id, 1, variants)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.observation_space = spaces.Box(low=self.spec_.low, high=self.spec_.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.spec_.num_actions)
        self.state: Any = None
        self._standing = 0.0
        self._legal_list: list[Any] = []
        """The engine's legal list now (its objects are played as they are: ``apply`` takes them unchecked)."""
        self._slots_now: dict[int, int] = {}
        """``{catalogue index: position in _legal_list}``, shared with the spec's cache (not changed here)."""
        self._mask_now = np.zeros(self.spec_.num_actions, dtype=np.int8)

    def _info(self) -> dict[str, Any]:
        legal = self._legal_list = self.state.legal_actions(0)
        self._slots_now, self._mask_now = self.spec_.legal_entry(legal)  # no per-step dict: the spec's cache
        return {"action_mask": self._mask_now.copy()}  # Gymnasium wants fresh info data each call

    def _solo_score_now(self) -> float:
        return float(self.spec_.rl.solo_score(self.state.result()))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new solo game; the same ``seed`` gives the same game."""
        super().reset(seed=seed)
        self.state = self.spec_.new_game(int(self.np_random.integers(_SEED_BOUND)))
        if self.reward_mode == "dense":
            self._standing = self._solo_score_now()
        return self.spec_.observe(self.state, 0), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play catalogue action ``action``."""
        index = int(action)
        slot = self._slots_now.get(index)
        if slot is None:
            info = self._info()
            info["illegal_action"] = index
            return self.spec_.observe(self.state, 0), self.illegal_reward, True, False, info
        self.state.apply(0, self._legal_list[slot])
        over = self.state.is_over()
        reward = 0.0
        if self.reward_mode == "dense":
            now = self._solo_score_now()
            reward, self._standing = now - self._standing, now
        elif over:
            reward = self.spec_.rewards(self.state, self.reward_mode)[0]
        return self.spec_.observe(self.state, 0), float(reward), over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._mask_now.astype(bool)

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        text: str = self.state.render_text(0)
        return text


def env_id(game_id: str) -> str:
    """The registered id of ``game_id``'s solo environment (``farmtable/TinyFarms-solo-v0``)."""
    return f"farmtable/{rl_game(game_id).name}-solo-v0"


def solo_games() -> list[str]:
    """The games that have solo rules and an RL description."""
    return [g for g in rl_games() if farmtable.get_game(g).min_players == 1]


def register_all() -> list[str]:
    """Register every solo environment with Gymnasium (done on import); returns their ids."""
    ids = []
    for game_id in solo_games():
        name = env_id(game_id)
        if name not in gym.registry:
            gym.register(id=name, entry_point=f"{__name__}:FarmtableSoloEnv", kwargs={"game_id": game_id})
        ids.append(name)
    return ids


ENV_IDS = register_all()
"""The ids registered on import."""
