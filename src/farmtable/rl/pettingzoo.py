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
does the same.

Speed (issue 16): ``env()`` gives the checks of PettingZoo's usual wrappers (``OrderEnforcingWrapper``,
``AssertOutOfBoundsWrapper``, ``TerminateIllegalWrapper``) written into one class,
:class:`FarmtableCheckedAEC`, instead of three wrapper layers whose attribute forwarding cost more
than the game itself. Observations come from the game's fast encoder; masks are cached read-only
arrays (see :meth:`farmtable.rl.catalogue.Spec.mask_of`); both are built at most once per seat and move.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env_logger import EnvLogger

from farmtable.rl.catalogue import REWARDS, Spec, spec

_INT_TYPES = (int, np.integer)
"""What an action index may be (built once: ``int | np.integer`` in a hot path builds a union each call)."""
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
        self._legal_cache: dict[int, tuple[dict[int, Any], np.ndarray]] = {}
        self._obs_cache: dict[int, dict[str, np.ndarray]] = {}
        self._now: tuple[int, list[Any], dict[int, int], dict[str, np.ndarray]] | None = None
        """The AEC fast path's cache for this move: (seat to act, its legal list, ``{catalogue index:
        position in that list}``, its observation), filled by ``last()`` and read by ``step()`` (one
        attribute instead of per-seat dicts, which stay for every other seat and caller)."""

    def _new_state(self, seed: int | None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.state = self.spec.new_game(int(self._seed_rng.integers(_SEED_BOUND)))
        self._legal_cache = {}
        self._obs_cache = {}
        self._now = None

    def _legal(self, seat: int) -> dict[int, Any]:
        """``{index: action}`` of ``seat`` now (cached until the next move)."""
        now = self._now
        if now is not None and now[0] == seat:
            return dict(zip(now[2], now[1], strict=True))
        known = self._legal_cache.get(seat)
        if known is None:
            known = self._legal_cache[seat] = self.spec.legal_and_mask(self.state, seat)
        return known[0]

    def _apply(self, seat: int, action: Any) -> None:
        self.state.apply(seat, action)
        self._legal_cache = {}
        self._obs_cache = {}
        self._now = None

    def _observe_seat(self, seat: int) -> dict[str, np.ndarray]:
        """The observation dict of ``seat`` (cached until the next move: loops often observe twice per step)."""
        now = self._now
        if now is not None and now[0] == seat:
            return now[3]
        obs = self._obs_cache.get(seat)
        if obs is None:
            sp, state = self.spec, self.state
            known = self._legal_cache.get(seat)
            if known is None:
                known = self._legal_cache[seat] = sp.legal_and_mask(state, seat)
            fresh = sp.fresh  # ``Spec.observe`` inlined: this runs once per decision
            vector = sp.observe(state, seat) if fresh is None else fresh(state, seat)
            obs = self._obs_cache[seat] = {"observation": vector, "action_mask": known[1]}
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
        self._names = list(self.possible_agents)
        self._seat_of = self.agent_seat

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """``AECEnv.agent_iter`` as a generator: the selected agent while any agent is left, at most
        ``max_iter`` times (PettingZoo's iterator object costs a Python method call per decision)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same ``seed`` gives the same game."""
        self._new_state(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._names[self.state.actors()[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its view encoded, and its action mask."""
        return self._observe_seat(self.agent_seat[agent])

    _has_reset = True
    """The raw env checks nothing; :class:`FarmtableCheckedAEC` sets it False until ``reset``, so both
    share this one :meth:`last` (no ``super()`` call per decision)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``: the selected agent's observation, running reward, flags and info (one call
        less per decision than PettingZoo's, which goes through :meth:`observe`); the checked env's
        error before ``reset``."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        agent = self.agent_selection
        obs = None
        if observe:
            seat = self._seat_of[agent]
            now = self._now
            if now is not None and now[0] == seat:
                obs = now[3]
            else:
                obs = self._obs_cache.get(seat)
                if obs is None:  # ``_observe_seat`` inlined, the legal list kept for ``step``: once a move
                    sp, state = self.spec, self.state
                    legal = state.legal_actions(seat)
                    slots, mask = sp.legal_entry(legal)
                    fresh = sp.fresh
                    vector = sp.observe(state, seat) if fresh is None else fresh(state, seat)
                    obs = {"observation": vector, "action_mask": mask}
                    self._now = (seat, legal, slots, obs)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        """Play catalogue action ``action`` for ``agent_selection`` (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        now = self._now
        if now is not None and now[0] == seat and isinstance(action, _INT_TYPES):
            slot = now[2].get(action)  # type: ignore[arg-type]  # numpy ints hash as ints
            chosen = None if slot is None else now[1][slot]
        else:
            legal = self._legal(seat)
            chosen = legal.get(action) if isinstance(action, _INT_TYPES) else None  # type: ignore[arg-type]
        if chosen is None:
            raise ValueError(f"{agent}: action {action!r} is not legal now (see the action mask)")
        self._apply(seat, chosen)
        if self.state.is_over():
            self._finish(agent)
        else:
            self.agent_selection = self._names[self.state.actors()[0]]

    def _finish(self, agent: str) -> None:
        """The game is over after ``agent``'s move: pay the final rewards, every agent is done.

        Rewards are paid once, at the end: until then every reward and running total is 0, so the
        steps before need not touch them.
        """
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards[agent] = 0.0
        final = self.spec.rewards(self.state, self.reward_mode)
        for a in self.agents:
            self.rewards[a] = final[self.agent_seat[a]]
            self.terminations[a] = True
        self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def close(self) -> None:
        """Nothing to release."""


class FarmtableCheckedAEC(FarmtableAEC):
    """The AEC environment with PettingZoo's ``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper`` and
    ``TerminateIllegalWrapper`` checks built in (one object: no per-attribute forwarding).

    - ``step``/``observe``/``render`` before ``reset`` are errors; ``step`` once every agent is done warns;
    - an action that is not ``None``-for-a-done-agent and not in the action space fails an assertion;
    - an action the mask forbids ends the game: the offender gets ``illegal_reward`` (−1), the others 0.
    """

    def __init__(
        self,
        game_id: str,
        players: int = 2,
        variants: Sequence[str] = (),
        reward: str = "score",
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
    ) -> None:
        super().__init__(game_id, players, variants, reward, render_mode)
        self.illegal_reward = illegal_reward
        self._has_reset = False
        self._num_actions = self.spec.num_actions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same ``seed`` gives the same game."""
        self._has_reset = True
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation (an error before ``reset``)."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._observe_seat(self.agent_seat[agent])

    def render(self) -> str | None:
        """The board as text (an error before ``reset``)."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def step(self, action: Any) -> None:
        """Play ``action``; an action the mask forbids ends the game at ``illegal_reward`` for the mover."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert isinstance(action, _INT_TYPES) and 0 <= action < self._num_actions, "action is not in action space"
        seat = self._seat_of[agent]
        now = self._now  # inline ``_legal`` and ``_apply``: this runs once per decision
        if now is not None and now[0] == seat:
            slot = now[2].get(action)  # type: ignore[arg-type]  # numpy ints hash as ints
            chosen = None if slot is None else now[1][slot]
        else:
            chosen = self._legal(seat).get(action)  # type: ignore[arg-type]
        if chosen is not None:
            state = self.state
            state.apply(seat, chosen)
            self._now = None
            if self._legal_cache:
                self._legal_cache = {}
            if self._obs_cache:
                self._obs_cache = {}
            if state.is_over():
                self._finish(agent)
            else:
                self.agent_selection = self._names[state.actors()[0]]
            return
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self._accumulate_rewards()
        self._deads_step_first()


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
    """The AEC environment with the checks of PettingZoo's classic games (an illegal action ends the game
    at −1; an action outside the space or a step before ``reset`` is an error): :class:`FarmtableCheckedAEC`."""
    return FarmtableCheckedAEC(game_id, players, variants, reward, render_mode)


def parallel_env(
    game_id: str,
    players: int = 2,
    variants: Sequence[str] = (),
    reward: str = "score",
    render_mode: str | None = None,
) -> FarmtableParallel:
    """The Parallel environment: all actors of a (simultaneous) step act in one ``step``."""
    return FarmtableParallel(game_id, players, variants, reward, render_mode)
