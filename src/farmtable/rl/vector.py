"""Vector environments on the batched simulators: many games per ``step``, ``gymnasium.vector`` style.

    from farmtable.rl.vector import FarmersFinancesVectorEnv, TinyFarmsVectorEnv
    envs = FarmersFinancesVectorEnv(num_envs=4096, players=2)   # or TinyFarmsVectorEnv(...)
    obs, infos = envs.reset(seed=0)
    actions = pick_from(infos["action_mask"])        # any masked policy
    obs, rewards, terminated, truncated, infos = envs.step(actions)

One environment = one game; each ``step`` plays one decision in every game, for whoever is to act
(self-play: the policy plays every seat; ``infos["to_act"]`` says which seat the observation and
mask belong to). The observation is exactly ``spec(game, players).observe(state, to_act)`` (same
layout as the PettingZoo/Gymnasium adapters, ``docs/rl.md``), computed for the whole batch at once;
``infos["action_mask"]`` is the ``(num_envs, actions)`` int8 mask. Rewards are paid at the end, to
the seat that made the last decision (``reward="score"``: its total minus the mean of the others';
``"win"``: the shared ``win`` reward of :mod:`farmtable.rl.catalogue`); a seat that wants its own
final reward reads ``infos["final_rewards"]`` (``(num_envs, players)``, filled when a game ends).
Finished games restart on the next ``step`` (Gymnasium's ``NEXT_STEP`` autoreset: the action sent
for them then is ignored). An action the mask forbids raises ``ValueError`` naming the games.

The simulators (``games/farmers_finances/vector.py``, ``rl/tiny_farms_vector.py``) play the engine's
rules; the deal of game ``i`` after ``reset(seed=s)`` is ``new_game(players, seed=game_seeds[i])``,
with ``game_seeds`` the attribute of the same name (so any game can be replayed in the engine).
Tiny Farms' final scores come from the batched scorer ``tiny_farms_vector.score`` (equal to the
engine's ``scoring.score_players`` by test), its variant ``horses-zero-ranks`` included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances import vector as sim
from farmtable.games.farmers_finances.scoring import cards_at_base_value
from farmtable.games.tiny_farms import components as c_tf
from farmtable.rl import tiny_farms_vector as tf
from farmtable.rl.catalogue import REWARDS, Spec, spec

_SEED_BOUND = 2**63


class BatchVectorEnv(VectorEnv):
    """What the vector envs share: the Gymnasium API over a batched simulator's state arrays.

    A subclass gives the simulator through :meth:`_new_games`, :meth:`_play`, :meth:`_over`,
    :meth:`_scores`, :meth:`_observe` and :meth:`_legal_mask`.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  (gymnasium reads the class attribute)

    def __init__(self, num_envs: int, players: int, reward: str, rl_spec: Spec, obs_dtype: Any = np.float32) -> None:
        self.num_envs = num_envs
        self.players = players
        self.reward_mode = reward
        self.rl_spec = rl_spec
        self.obs_dtype = np.dtype(obs_dtype)
        low, high = rl_spec.low, rl_spec.high
        if self.obs_dtype != np.float32:
            info = np.iinfo(self.obs_dtype) if self.obs_dtype.kind in "iu" else None
            whole = bool(
                np.all(np.isfinite(low) & np.isfinite(high) & (low == np.round(low)) & (high == np.round(high)))
            )
            if info is None or not whole or low.min() < info.min or high.max() > info.max:
                raise ValueError(
                    f"obs_dtype {self.obs_dtype} cannot hold this observation (bounds {low.min()}..{high.max()}): "
                    "use float32, or an integer type that holds every bound"
                )
            low, high = low.astype(self.obs_dtype), high.astype(self.obs_dtype)
        self.single_observation_space = spaces.Box(low=low, high=high, dtype=self.obs_dtype)
        self.single_action_space = spaces.Discrete(rl_spec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seeds = np.random.default_rng()
        self.game_seeds = np.zeros(num_envs, dtype=np.uint64)
        self.state: dict[str, np.ndarray] = {}
        self._restart = np.zeros(num_envs, dtype=bool)
        self._row_starts = np.arange(0, num_envs * rl_spec.num_actions, rl_spec.num_actions)
        self._mask = np.zeros((num_envs, rl_spec.num_actions), dtype=bool)

    @staticmethod
    def _check_args(num_envs: int, reward: str) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")

    # --- the Gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games in every environment; the same ``seed`` gives the same games."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game_seeds = self._seeds.integers(0, _SEED_BOUND, size=self.num_envs, dtype=np.uint64)
        self.state = self._new_games(self.game_seeds)
        self._restart[:] = False
        return self._observe(), self._infos(np.zeros((self.num_envs, self.players)))

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in every game (games that ended last step restart instead)."""
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        restart = self._restart  # the games that ended last step (replaced, never changed, below)
        n = self.rl_spec.num_actions
        known = chosen.view(np.uint64) < n  # a negative action is a huge unsigned one
        ok = self._mask.reshape(-1)[self._row_starts + chosen * known]
        ok &= known
        ok |= restart
        if not ok.all():
            games = np.flatnonzero(~ok)
            raise ValueError(
                f"illegal actions in games {games[:10].tolist()}{' …' if len(games) > 10 else ''}: "
                "see infos['action_mask']"
            )
        mover = self.state["current"].copy()
        self._play(chosen, restart, mover)
        ended = self._over()
        ended &= ~restart
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        final = np.zeros((self.num_envs, self.players), dtype=np.float64)
        if ended.any():
            final[ended] = self._final_rewards(np.flatnonzero(ended))
            rewards[ended] = final[ended, mover[ended]]
        if restart.any():
            lanes = np.flatnonzero(restart)
            fresh = self._seeds.integers(0, _SEED_BOUND, size=len(lanes), dtype=np.uint64)
            self.game_seeds[lanes] = fresh
            new = self._new_games(fresh)
            for key, value in new.items():
                self.state[key][lanes] = value
            self._restarted(lanes)
        self._restart = ended
        obs = self._observe()
        return obs, rewards, ended.copy(), np.zeros(self.num_envs, dtype=bool), self._infos(final)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, ``(num_envs, actions)`` booleans (for masked policies)."""
        return self._mask.copy()

    # --- what a simulator gives ------------------------------------------------------------------

    def _new_games(self, seeds: np.ndarray) -> dict[str, np.ndarray]:
        """New games from ``seeds`` (the engine's ``new_game(players, seed=...)``)."""
        raise NotImplementedError

    def _play(self, chosen: np.ndarray, restart: np.ndarray, mover: np.ndarray) -> None:
        """Play catalogue action ``chosen[i]`` in every game not over (legal: checked by the caller; the games
        ``restart`` are over, their action is to be ignored; ``mover``: the seat to act in each game)."""
        raise NotImplementedError

    def _over(self) -> np.ndarray:
        """Which games are over."""
        raise NotImplementedError

    def _restarted(self, lanes: np.ndarray) -> None:
        """The games ``lanes`` were just replaced by new ones (a simulator that keeps more state hears it here)."""

    def _scores(self, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Final totals and tie-break keys (greater is better) of the finished games ``lanes``."""
        raise NotImplementedError

    def _observe(self) -> np.ndarray:
        """The batch of observations of each game's player to act (the spec's layout)."""
        raise NotImplementedError

    def _legal_mask(self) -> np.ndarray:
        """``(num_envs, actions)``: the legal catalogue actions of each game's player to act."""
        raise NotImplementedError

    def _handed_mask(self, mask: np.ndarray) -> np.ndarray:
        """The mask as ``infos["action_mask"]`` gives it: an int8 copy (changing it changes no check)."""
        handed: np.ndarray = mask.astype(np.int8, copy=True)
        return handed

    def _infos(self, final: np.ndarray) -> dict[str, Any]:
        mask = self._legal_mask()
        self._mask = mask.view(bool) if mask.dtype == np.int8 else mask.astype(bool)
        return {
            "action_mask": self._handed_mask(mask),
            "to_act": self.state["current"].copy(),
            "final_rewards": final,
        }

    def _final_rewards(self, lanes: np.ndarray) -> np.ndarray:
        """Per-seat rewards of the finished games ``lanes`` (``catalogue.final_rewards``, vectorised)."""
        totals, tie = self._scores(lanes)
        totals = totals.astype(np.float64)
        p = self.players
        if self.reward_mode == "score":
            total = totals.sum(axis=1, keepdims=True)
            out: np.ndarray = totals - (total - totals) / (p - 1)
            return out
        below = (tie[:, None, :] < tie[:, :, None]).sum(axis=2)
        above = (tie[:, None, :] > tie[:, :, None]).sum(axis=2)
        out = (below - above) / (p - 1)
        return out


class FarmersFinancesVectorEnv(BatchVectorEnv):
    """``num_envs`` games of Farmers Finances (2–4 players, standard rules) stepped together."""

    def __init__(self, num_envs: int, players: int = 2, reward: str = "score") -> None:
        self._check_args(num_envs, reward)
        sim.check_setup(players)
        self.tables = sim.Tables(players)
        rl_spec = spec("farmers-finances", players)
        if list(rl_spec.actions) != self.tables.names:
            raise RuntimeError("the simulator's catalogue differs from the RL catalogue")
        super().__init__(num_envs, players, reward, rl_spec)
        self._layout()

    def _layout(self) -> None:
        at = {row.name: row.start for row in self.rl_spec.rows()}
        self._at = at
        prices = np.zeros((len(c.MARKET_ROWS) + 1, 5), dtype=np.float32)
        prices[1:, 0:2] = sim.BUY_COST[1:]
        prices[1:, 2:5] = sim.SELL_PRICE[1:]
        self._prices = prices

    def _new_games(self, seeds: np.ndarray) -> dict[str, np.ndarray]:
        return sim.new_games(self.players, seeds)

    def _play(self, chosen: np.ndarray, restart: np.ndarray, mover: np.ndarray) -> None:
        sim.step(self.state, self.tables, np.where(restart, 0, chosen))

    def _over(self) -> np.ndarray:
        over: np.ndarray = self.state["phase"] == sim.OVER
        return over

    # --- observations, masks, rewards ------------------------------------------------------------

    def _observe(self) -> np.ndarray:
        """The batch of observations of each game's player to act (the spec's layout, vectorised)."""
        st, at, p = self.state, self._at, self.players
        b = self.num_envs
        lanes = np.arange(b)
        obs = np.zeros((b, self.rl_spec.obs_size), dtype=np.float32)
        obs[lanes, at["phase"] + st["phase"]] = 1.0
        obs[:, at["turn"]] = st["turn"]
        obs[lanes, at["row"] + st["row"] - 1] = 1.0
        rolled = st["last_roll"] > 0
        obs[lanes[rolled], at["last_roll"] + st["last_roll"][rolled] - 1] = 1.0
        obs[:, at["buy_prices.wheat"] : at["buy_prices.wheat"] + 5] = self._prices[st["row"]]
        viewer = st["current"]
        seats = (viewer[:, None] + np.arange(p)[None, :]) % p  # (B, P): self, +1, ...
        obs[:, at["money[self]"] : at["money[self]"] + p] = st["money"][lanes[:, None], seats]
        farms = st["hands"][lanes[:, None], seats]  # (B, P, 3)
        obs[:, at["farms[self].wheat"] : at["farms[self].wheat"] + 3 * p] = farms.reshape(b, 3 * p)
        obs[:, at["market.wheat"] : at["market.wheat"] + 2] = st["market"]
        obs[:, at["end_triggered"]] = st["end_triggered"]
        obs[:, at["must_reroll"]] = st["forced_reroll"]
        return obs

    def _legal_mask(self) -> np.ndarray:
        mask: np.ndarray = sim.legal_mask(self.state, self.tables)
        return mask

    def _scores(self, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Money, and the tie rule: money, then the farm's cards at base value (scoring.score_sheet)."""
        money = self.state["money"][lanes].astype(np.float64)
        base = np.array([cards_at_base_value(one) for one in ([1, 0, 0], [0, 1, 0], [0, 0, 1])], dtype=np.float64)
        tie = money * 1e6 + self.state["hands"][lanes] @ base
        return money, tie


class TinyFarmsVectorEnv(BatchVectorEnv):
    """``num_envs`` games of Tiny Farms (2–4 players, standard rules or ``horses-zero-ranks``) stepped together.

    The simulator is ``rl/tiny_farms_vector.py`` (the engine's rules and dice, checked move by move);
    final totals come from its batched scorer (``scoring.score_players``' totals; ties: most unused milk).
    A game's final observation (the step it ends) is seat 0's, with nobody to act (``to_act`` −1, an
    all-zero mask): everything in Tiny Farms is public.

    Speed options (issue 16): ``obs_dtype=np.int8`` gives the same observation as whole numbers in one
    byte each (every entry of this schema is a whole number in −3..12; the observation space says
    ``int8``), a quarter of the float32 bytes to write per step; ``copy=False`` writes every step's
    observations into one array kept by the env (Gymnasium's ``copy=False`` convention for vector envs:
    the array returned by ``reset``/``step`` is overwritten by the next ``step``; copy what you keep). That
    array is read-only: it is the env's own kept observation (updated move by move), handed out without a
    copy; so is ``infos["action_mask"]`` with ``copy=False`` (the env's kept mask, read-only, overwritten by
    the next ``step``; with ``copy=True`` a fresh copy every step).
    """

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        reward: str = "score",
        variants: tuple[str, ...] = (),
        obs_dtype: Any = np.float32,
        copy: bool = True,
    ) -> None:
        self._check_args(num_envs, reward)
        variants = tuple(sorted(variants))
        tf.check_setup(players, variants)
        self.variants = variants
        self.layout = tf.Layout(players, variants)
        super().__init__(num_envs, players, reward, self.layout.spec, obs_dtype)
        self.copy = copy
        self._previous: tf.ViewerObs | None = None
        self._views: tf.ViewerObs | None = None
        self._masks = tf.KeptMask(self.layout, num_envs)
        self._key: np.ndarray | None = None
        """:func:`tf.place_key` of the state just observed (its mask uses it too), then ``None``."""
        tf.set_tables()  # the scorer's pig and sheep tables: built once per process (~0.2 s), not mid-game
        tf.herd_groups()  # and its cow groups (the simulator's own tables too)
        tf.tables()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games in every environment; the same ``seed`` gives the same games."""
        self._views = None  # every game is new: the kept observations are built again from the new state
        return super().reset(seed=seed, options=options)

    def _new_games(self, seeds: np.ndarray) -> dict[str, np.ndarray]:
        # also the games that restart mid-run: their kept observations are reset by ``_restarted`` alone
        # (dropping ``_views`` here rebuilt every game's observations whenever one game restarted)
        return tf.new_games(self.players, seeds)

    def _restarted(self, lanes: np.ndarray) -> None:
        self._viewer_obs().restart(self.state, lanes)

    def _viewer_obs(self) -> tf.ViewerObs:
        if self._views is None:
            # after a reset, the same arrays again (``copy=False`` hands out one array)
            self._views = tf.ViewerObs(self.state, self.layout, self.obs_dtype, previous=self._previous)
            self._previous = self._views
        return self._views

    def _play(self, chosen: np.ndarray, restart: np.ndarray, mover: np.ndarray) -> None:
        views = self._viewer_obs()
        kind, a, b = tf.decode(self.state, self.layout, chosen, restart)  # legal: the base class checked the mask
        lanes = tf.play(self.state, kind, a, b)
        views.update(None, kind, a, b, lanes)  # every step is observed: each row shows the seat that moved

    def _over(self) -> np.ndarray:
        over: np.ndarray = self.state["phase"] == tf.OVER
        return over

    def _observe(self) -> np.ndarray:
        views = self._viewer_obs()
        self._key = tf.place_key(self.state)  # the observation's tail and the mask's put blocks: one look-up each
        return views.observe(self.state, None if self.copy else views.shared, self._key)

    def _legal_mask(self) -> np.ndarray:
        # brought up to date in one kept array: the base class checks actions against it
        key, self._key = self._key, None
        return self._masks.write(self.state, key)

    def _handed_mask(self, mask: np.ndarray) -> np.ndarray:
        """A copy, or with ``copy=False`` the kept mask itself, read-only (overwritten by the next step)."""
        if self.copy:
            return mask.copy()
        return self._masks.shared

    def _scores(self, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        milk = self.state["milk"][lanes]
        totals = tf.score(self.state["boards"][lanes], milk, self.variants)
        return totals, totals * (c_tf.START_MILK + 1) + milk
