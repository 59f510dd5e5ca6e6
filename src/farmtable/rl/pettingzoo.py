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
than the game itself. Both AEC envs share one per-decision path (:class:`FarmtableAEC`): one legal list
per move, the mask from the spec's cache (read-only arrays, :meth:`farmtable.rl.catalogue.Spec.legal_entry`),
no per-move dict work, the checks on the slow path only. ``raw_env(copy=False)`` writes observations in
place (read-only arrays, rewritten when the seat is next observed: copy what you keep); by default both
hand out new ones. ``reset(seed=s)`` deals the game ``new_game(seed=s)`` deals.

Session 18: ``last()`` and ``step()`` write out the per-decision helpers (a Python call each less);
an encoder that returns the observation's bytes (``joined``, :func:`farmtable.rl.fast.from_joined`: Tiny
Farms, Farmerama) is copied through a byte view of each seat's array made once (``copy=False``) or
wrapped as a new array over a ``bytearray`` (``copy=True``); Farmers Finances' per-seat functions are
called directly for new arrays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, NoReturn

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
_frombuffer = np.frombuffer


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


def _writer(fast: Any, seat: int, out: np.ndarray) -> Callable[[Any], None]:
    """``writer(state)``: ``seat``'s observation written into ``out`` by the fast encoder ``fast``.

    An encoder with ``per_viewer`` functions (``per_viewer[seat](out, state)``) is bound to its array here,
    one call a decision; one with ``into`` (``into(state, seat, out)``: written in place, rewriting only what
    changed since the last call into the same array) or otherwise the encoder itself.
    """
    per_viewer = getattr(fast, "per_viewer", None)
    if per_viewer is not None:
        return partial(per_viewer[seat], out)
    write = getattr(fast, "into", fast)

    def write_seat(state: Any) -> None:
        write(state, seat, out)

    return write_seat


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
        self._seed_base: int | None = None
        self._seed_rng: random.Random | None = None
        self.state: Any = None
        self._legal_cache: dict[int, tuple[dict[int, Any], np.ndarray]] = {}
        self._obs_cache: dict[int, dict[str, np.ndarray]] = {}
        self._now: tuple[int, list[Any], dict[int, int], dict[str, np.ndarray]] | None = None
        """The AEC fast path's cache for this move: (seat to act, its legal list, ``{catalogue index:
        position in that list}``, its observation), filled by ``last()`` and read by ``step()`` (one
        attribute instead of per-seat dicts, which stay for every other seat and caller)."""

    def _new_state(self, seed: int | None) -> None:
        """A new game: ``seed`` is the game's own seed (``new_game(seed=seed)``: the same deal as the engine,
        the CLI and the benches give that seed); without one, the next seed of a generator seeded by the
        last ``seed`` given (fresh entropy if none was ever given)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, _INT_TYPES) or seed < 0:
                raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
            self._seed_base = int(seed)
            self._seed_rng = None
            game_seed = int(seed)
        else:
            rng = self._seed_rng
            if rng is None:
                rng = self._seed_rng = random.Random(self._seed_base)
            game_seed = rng.randrange(_SEED_BOUND)
        self.state = self.spec.new_game(game_seed)
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
    """The raw AEC environment of one game/player-count/variant set (use :func:`raw_env`, or :func:`env`
    for the checked one).

    **The per-decision path** (issue 16): ``last()`` asks the engine for the selected seat's legal list
    once, looks up its catalogue indices and read-only mask in the spec's cache (``Spec.legal_entry``)
    and writes the observation; ``step(i)`` with a plain ``int`` that the mask allows plays ``legal[slot]``,
    the engine's own object (``apply`` takes it without a second parse and check), then only asks the
    game whether it is over and who acts next. ``rewards``, ``_cumulative_rewards``, ``terminations``,
    ``truncations`` and ``infos`` are built at ``reset`` and changed only when they change: every reward
    is 0 and no agent is done until the game ends (then ``_finish`` pays the final rewards), so a move
    touches none of them. Anything else (a numpy integer, an action the mask forbids, ``None`` for a
    done agent, a ``step`` without ``last``) goes the checked slow path.

    **What the raw env refuses** (it has no PettingZoo wrapper and needs none): ``step``/``last`` before
    ``reset`` (``RuntimeError``); an action that is not legal now, or not an integer, raises
    ``ValueError`` *before* anything is played — the state, the agent to act and every dict are as they
    were, so the caller can try again. It skips what the wrappers add on top: the −1 ending of an illegal
    move (:func:`env` has it) and the action-space assertion (an out-of-range index is simply not legal).

    **Observations** (``copy``): with ``copy=False`` (opt-in, as :func:`raw_env` takes it) each seat's
    observation dict and vector are the env's own, rewritten in place the next time that seat is
    observed; the vector is handed out read-only (``np.copy`` it, or the dict, to keep it). With
    ``copy=True`` every observation is a new dict and a new array. In place, Farmini's encoder rewrites only
    the farms that changed since the seat's last observation (``into``); a new array is its ones written
    into a fresh zeroed 166 KB array.
    """

    _checked = False
    """:class:`FarmtableCheckedAEC` turns on PettingZoo's order checks (a class attribute: one read)."""

    def __init__(
        self,
        game_id: str,
        players: int = 2,
        variants: Sequence[str] = (),
        reward: str = "score",
        render_mode: str | None = None,
        copy: bool = False,
    ) -> None:
        super().__init__()
        self._setup(game_id, players, variants, reward)
        self.metadata = {"render_modes": ["ansi"], "name": _name(game_id), "is_parallelizable": True}
        self.render_mode = render_mode
        self._names = list(self.possible_agents)
        self._seat_of = self.agent_seat
        sp = self.spec
        self._legal_entry = sp.legal_entry
        self._size = sp.obs_size
        self._playing = False
        """True from ``reset`` until the game ends: the selected agent is alive and ``_seat`` is its seat."""
        self._seat = 0
        fast = sp.fast
        own_fresh = fast is not None and getattr(fast, "fresh", None) is not None
        self._fast_new = None if own_fresh else fast
        self._joined: Callable[[Any, int], bytes] | None = getattr(fast, "joined", None)
        """The encoder's ``joined(state, seat)`` (the observation's bytes, see :func:`farmtable.rl.fast.from_joined`),
        if it has one: copied through ``_byte_views`` (``copy=False``) or into a new ``bytearray``-backed array."""
        self._byte_views: list[memoryview] = []
        """Per seat (``copy=False``, an encoder with ``joined``): the bytes of its array, made once."""
        """The fast encoder when a new array is ``np.empty`` plus that encoder (written inline)."""
        per_viewer = getattr(fast, "per_viewer", None) if self._fast_new is not None else None
        self._new_writers: list[Callable[[np.ndarray, Any], None]] | None = (
            list(per_viewer) if per_viewer is not None else None
        )
        """Per seat, ``write(out, state)`` when the encoder has ``per_viewer`` functions: a new array is
        ``np.empty`` plus one call (not the encoder's own call that looks the seat's function up)."""
        self._bufs: list[np.ndarray] | None = None
        """Per seat, the array observations are written into (``copy=False``), else ``None``."""
        self._writers: list[Callable[[Any], None]] = []
        """Per seat (``copy=False``): ``writer(state)`` writes that seat's observation into its array."""
        self._obs_dicts: list[dict[str, np.ndarray]] = []
        if not copy and fast is not None:
            self._bufs = [np.zeros(self._size, dtype=np.float32) for _ in range(players)]
            self._writers = [_writer(fast, seat, buf) for seat, buf in enumerate(self._bufs)]
            if self._joined is not None:
                self._byte_views = [memoryview(buf).cast("B") for buf in self._bufs]  # type: ignore[arg-type]
            empty = np.zeros(sp.num_actions, dtype=np.int8)
            empty.flags.writeable = False
            for buf in self._bufs:
                view = buf.view()
                view.flags.writeable = False  # the caller reads; only the env writes (into ``buf``)
                self._obs_dicts.append({"observation": view, "action_mask": empty})
        self._live: dict[str, dict[str, Any]] = {}
        """Per agent while the game is on: its info dict, the end of ``last()``'s tuple (every reward is 0
        and no agent is done until the game ends: ``last()`` writes those as constants; made at ``reset``)."""

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """``AECEnv.agent_iter`` as a generator: the selected agent while any agent is left, at most
        ``max_iter`` times (PettingZoo's iterator object costs a Python method call per decision)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``reset(seed=s)`` plays the game ``farmtable`` deals for seed ``s`` (the same as
        ``new_game(seed=s)``); ``reset()`` draws the next seed from a generator seeded by the last ``s``."""
        self._new_state(seed)
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        seat = self._seat = self.state.actors()[0]
        self.agent_selection = self._names[seat]
        self._playing = True
        self._live = dict(self.infos)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its view encoded, and its action mask (see the class notes on ``copy``)."""
        if self.state is None:
            self._before_reset("observe")
        if self._playing and agent == self.agent_selection:
            return self._look()[3]
        return self._observe_seat(self.agent_seat[agent])

    def _before_reset(self, what: str) -> NoReturn:
        """The error of a call before ``reset`` (PettingZoo's own for the checked env)."""
        if self._checked:
            if what == "step":
                EnvLogger.error_step_before_reset()
            EnvLogger.error_observe_before_reset()
        raise RuntimeError(f"{what}() before reset(): call reset() first")

    def _look(self) -> tuple[int, list[Any], dict[int, int], dict[str, np.ndarray]]:
        """The selected seat's legal list, its ``{catalogue index: position}`` and its observation, made once
        a move."""
        now = self._now
        if now is None:
            seat, state = self._seat, self.state
            legal = state.legal_actions(seat)
            slots, mask = self._legal_entry(legal)
            bufs = self._bufs
            if bufs is not None:
                obs = self._obs_dicts[seat]
                self._writers[seat](state)
                obs["action_mask"] = mask
            else:
                obs = {"observation": self._new_vector(state, seat), "action_mask": mask}
            now = self._now = (seat, legal, slots, obs)
        return now

    def _new_vector(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation in a new array (``copy=True``)."""
        new_writers = self._new_writers
        if new_writers is not None:
            vector = np.empty(self._size, dtype=np.float32)
            new_writers[seat](vector, state)
            return vector
        fast = self._fast_new
        if fast is None:
            return self.spec.observe(state, seat)
        vector = np.empty(self._size, dtype=np.float32)
        fast(state, seat, vector)
        return vector

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``: the selected agent's observation, running reward, flags and info."""
        if self._playing:  # the selected agent is alive: its running reward is 0, it is not done
            if not observe:
                return (None, 0.0, False, False, self._live[self.agent_selection])
            now = self._now
            if now is not None:
                return (now[3], 0.0, False, False, self._live[self.agent_selection])
            # ``_look`` written out (once a decision: a call less); keep the two the same
            seat, state = self._seat, self.state
            legal = state.legal_actions(seat)
            slots, mask = self._legal_entry(legal)
            bufs, joined = self._bufs, self._joined
            if bufs is not None:
                obs = self._obs_dicts[seat]
                if joined is not None:
                    self._byte_views[seat][:] = joined(state, seat)
                else:
                    self._writers[seat](state)
                obs["action_mask"] = mask
            else:
                if joined is not None:
                    vector = _frombuffer(bytearray(joined(state, seat)), dtype=np.float32)
                else:
                    new_writers = self._new_writers
                    if new_writers is not None:
                        vector = np.empty(self._size, dtype=np.float32)
                        new_writers[seat](vector, state)
                    else:
                        vector = self._new_vector(state, seat)
                obs = {"observation": vector, "action_mask": mask}
            self._now = (seat, legal, slots, obs)
            return (obs, 0.0, False, False, self._live[self.agent_selection])
        agent = self.agent_selection if self.state is not None else self._before_reset("last")
        seen = self._observe_seat(self._seat_of[agent]) if observe else None
        return (
            seen,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        """Play catalogue action ``action`` for ``agent_selection`` (``None`` once it is done)."""
        now = self._now  # set only while the selected agent is alive and has looked (``last``/``observe``)
        if now is not None and type(action) is int:
            slot = now[2].get(action)
            if slot is not None:  # legal: play the engine's own object (``_play`` written out: a call less)
                state = self.state
                state.apply(self._seat, now[1][slot])
                self._now = None
                if self._legal_cache:
                    self._legal_cache = {}
                if self._obs_cache:
                    self._obs_cache = {}
                if state.is_over():
                    self._finish(self.agent_selection)
                else:
                    seat = self._seat = state.actors()[0]
                    self.agent_selection = self._names[seat]
                return
        self._step_slow(action)

    def _step_slow(self, action: Any) -> None:
        """Every ``step`` the per-decision path does not take: the raw env's checks (see the class notes)."""
        if self.state is None:
            self._before_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = None
        if isinstance(action, _INT_TYPES) and not isinstance(action, bool | np.bool_):
            chosen = self._legal(self._seat).get(int(action))
        if chosen is None:
            raise ValueError(f"{agent}: action {action!r} is not legal now (see the action mask); nothing was played")
        self._play(chosen)

    def _play(self, chosen: Any) -> None:
        """Play the legal action object ``chosen`` for the selected seat and move on."""
        state = self.state
        state.apply(self._seat, chosen)
        self._now = None
        if self._legal_cache:
            self._legal_cache = {}
        if self._obs_cache:
            self._obs_cache = {}
        if state.is_over():
            self._finish(self.agent_selection)
        else:
            seat = self._seat = state.actors()[0]
            self.agent_selection = self._names[seat]

    def _finish(self, agent: str) -> None:
        """The game is over after ``agent``'s move: pay the final rewards, every agent is done.

        Rewards are paid once, at the end: until then every reward and running total is 0, so the
        steps before need not touch them.
        """
        self._playing = False
        self._now = None
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

    - ``step``/``observe``/``last``/``render`` before ``reset`` are PettingZoo's errors; ``step`` once every
      agent is done warns;
    - an action that is not ``None``-for-a-done-agent and not in the action space fails an assertion;
    - an action the mask forbids ends the game: the offender gets ``illegal_reward`` (−1), the others 0.

    A legal ``int`` action takes the raw env's per-decision path, which passes all three checks by
    construction (the env has been reset, the agent is alive, the index is in the mask); the checks run
    on the slow path only. Observations are new arrays by default (``copy=True``).
    """

    _checked = True

    def __init__(
        self,
        game_id: str,
        players: int = 2,
        variants: Sequence[str] = (),
        reward: str = "score",
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
        copy: bool = True,
    ) -> None:
        super().__init__(game_id, players, variants, reward, render_mode, copy)
        self.illegal_reward = illegal_reward
        self._num_actions = self.spec.num_actions

    def render(self) -> str | None:
        """The board as text (an error before ``reset``)."""
        if self.state is None:
            EnvLogger.error_render_before_reset()
        return super().render()

    def _step_slow(self, action: Any) -> None:
        """Play ``action``; an action the mask forbids ends the game at ``illegal_reward`` for the mover."""
        if self.state is None:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert isinstance(action, _INT_TYPES) and 0 <= action < self._num_actions, "action is not in action space"
        chosen = self._legal(self._seat).get(int(action))
        if chosen is not None:
            self._play(chosen)
            return
        EnvLogger.warn_on_illegal_move()
        self._playing = False
        self._now = None
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
    game_id: str,
    players: int = 2,
    variants: Sequence[str] = (),
    reward: str = "score",
    render_mode: str | None = None,
    copy: bool = True,
) -> FarmtableAEC:
    """The raw AEC environment: an illegal action raises ``ValueError`` and plays nothing; observations are
    new arrays, or with ``copy=False`` written in place (read-only arrays, rewritten when the seat is next
    observed: copy what you keep; the fastest path) — see :class:`FarmtableAEC`."""
    return FarmtableAEC(game_id, players, variants, reward, render_mode, copy)


def env(
    game_id: str,
    players: int = 2,
    variants: Sequence[str] = (),
    reward: str = "score",
    render_mode: str | None = None,
    copy: bool = True,
) -> AECEnv:
    """The AEC environment with the checks of PettingZoo's classic games (an illegal action ends the game
    at −1; an action outside the space or a step before ``reset`` is an error): :class:`FarmtableCheckedAEC`.
    ``copy=False`` writes observations in place as :func:`raw_env` does."""
    return FarmtableCheckedAEC(game_id, players, variants, reward, render_mode, copy=copy)


def parallel_env(
    game_id: str,
    players: int = 2,
    variants: Sequence[str] = (),
    reward: str = "score",
    render_mode: str | None = None,
) -> FarmtableParallel:
    """The Parallel environment: all actors of a (simultaneous) step act in one ``step``."""
    return FarmtableParallel(game_id, players, variants, reward, render_mode)
