"""Every farmtable game as an OpenSpiel Python game (``pyspiel.load_game("python_farmtable_tiny_farms")``).

    import pyspiel
    import farmtable.rl.openspiel  # registers the games
    game = pyspiel.load_game("python_farmtable_farmerama", {"players": 3, "variants": "profi", "seed": 7})

Parameters: ``players`` (int), ``variants`` (comma-separated names, ``""`` for none), ``seed`` (int) and
``reward`` (``"win"``, the default, or ``"score"``; see :mod:`farmtable.rl.catalogue`).

How the contract maps onto OpenSpiel (``docs/rl.md`` says the same):

- **Chance** lives inside the game's own RNG and happens within ``apply``; the games have no
  chance *decisions* to expose, so the games are ``SAMPLED_STOCHASTIC``: there are no chance
  nodes. Each ``new_initial_state()`` draws the game's seed from an RNG seeded by the ``seed``
  parameter, so a run is reproducible while successive games differ. A clone carries the RNG,
  so a search on a clone of the true state would foresee the dice: search on
  ``resample_from_infostate`` (the game's ``determinize``: unseen cards *and* future chance
  re-drawn), as the tests and the MCTS example do.
- **Imperfect information**: observations are encoded from ``view(player)`` only
  (``observation_tensor`` / ``observation_string``; perfect-recall information states are not
  provided: the views are not perfect recall).
- **Simultaneous steps** (Farmerama's card choice, Tiny Towns' placement) are mapped to a
  *sequential* imperfect-information game: the actors decide one after another in seat order,
  and the game keeps each choice face down until all have chosen, so later actors do not observe
  earlier choices: the same information structure as a simultaneous node. OpenSpiel's
  ``SIMULTANEOUS`` dynamics would make every algorithm that needs sequential turns (MCTS,
  ISMCTS, most of ``open_spiel.python.algorithms``) unusable, and a game that is simultaneous
  only in some steps would need every sequential step padded with no-op actions.
"""

from __future__ import annotations

from functools import cache
from sys import getrefcount
from typing import Any

import numpy as np
import pyspiel

import farmtable
from farmtable.rl.catalogue import REWARDS, FastEncode, Spec, rl_game, rl_games, spec

SCORE_UTILITY_BOUND = 1000.0
"""The utility bound declared for ``reward="score"`` (scores are far smaller in every game)."""
_SEED_BOUND = 2**62


def short_name(game_id: str) -> str:
    """The pyspiel short name of ``game_id``: ``python_farmtable_tiny_farms``."""
    return "python_farmtable_" + game_id.replace("-", "_")


@cache
def _game_type(game_id: str, players: int | None = None) -> pyspiel.GameType:
    """The pyspiel game type of ``game_id`` with ``players`` seats (made once: ``load_game`` asks for it each
    time)."""
    game = farmtable.get_game(game_id)
    solo = players == 1 or (players is None and game.max_players == 1)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"farmtable {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": max(2, game.min_players) if game.max_players > 1 else 1,
            "variants": "",
            "seed": 0,
            "reward": "win",
        },
    )


class FarmtableGame(pyspiel.Game):  # type: ignore[misc]
    """One farmtable game (fixed player count and variants) as a pyspiel game."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        variants = tuple(v for v in str(params.get("variants", "")).split(",") if v)
        reward = str(params.get("reward", "win"))
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.spec: Spec = spec(self.game_id, players, variants)
        self.reward_mode = reward
        bound = 1.0 if reward == "win" else SCORE_UTILITY_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None if players == 1 else 0.0,
            max_game_length=self.spec.rl.max_game_length,
        )
        super().__init__(_game_type(self.game_id, players), info, params)
        self._seeds = np.random.default_rng(int(params.get("seed", 0)))

    def new_initial_state(self) -> FarmtableState:
        """A new game; its seed comes from the game's seeded RNG (drawn now), the game is built on first use.

        pyspiel's ``clone()`` of a Python state starts from ``new_initial_state()`` and then replaces its
        attributes with copies of the original's: building the game lazily (:meth:`FarmtableState.__getattr__`)
        spares a clone the game it would throw away, and :meth:`FarmtableState.clone` puts back the seed
        that call drew, so cloning does not change which games come next."""
        return FarmtableState(self, seed=int(self._seeds.integers(_SEED_BOUND)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FarmtableObserver:
        """The observer: the encoded view of a player (no perfect-recall information state)."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("farmtable games provide observations only, not perfect-recall information states")
        return FarmtableObserver(self.spec)


class FarmtableState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping a farmtable state; actions are catalogue indices.

    Speed (issue 16): pyspiel asks a Python state for ``current_player`` and ``is_terminal`` several
    times per move (``legal_actions`` and ``apply_action`` each call both through the C++ bridge), so
    both are kept per move in :class:`_Held` (the one attribute pyspiel deep-copies on ``clone``) and
    recomputed only after a move; ``legal_actions`` is answered here with the same rules as pyspiel's
    ``PyState::LegalActions`` (none when terminal or for a seat not to act), without the bridge.
    """

    def __init__(self, game: FarmtableGame, state: Any = None, seed: int = 0) -> None:
        super().__init__(game)
        if state is not None:
            self._held = _Held(state, game.spec)
        else:
            self._seed = seed  # the game of this seed is built on first use (``__getattr__``)

    def __getattr__(self, name: str) -> Any:
        """Builds the game of a state from ``new_initial_state`` on its first use (``_held``)."""
        if name != "_held":
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        sp = self.get_game().spec
        held = self._held = _Held(sp.new_game(self._seed), sp)
        return held

    def clone(self) -> FarmtableState:
        """A copy of this state: pyspiel's clone, with the seed its ``new_initial_state`` call drew put back."""
        seeds = self.get_game()._seeds
        drawn_so_far = seeds.bit_generator.state
        twin: FarmtableState = super().clone()
        seeds.bit_generator.state = drawn_so_far
        return twin

    @property
    def spec(self) -> Spec:
        """The game's catalogue and encoder (shared by every state and clone of the game)."""
        return self._held.spec

    @property
    def reward_mode(self) -> str:
        """``"win"`` or ``"score"``."""
        mode: str = self.get_game().reward_mode
        return mode

    @property
    def inner(self) -> Any:
        """The farmtable state."""
        return self._held.state

    def current_player(self) -> int:
        """The lowest seat among the actors, or TERMINAL."""
        return self._held.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """``player``'s legal catalogue indices, ascending (default: the player to act); none when the game
        is over or ``player`` is not to act (pyspiel's ``PyState::LegalActions``)."""
        held = self._held
        current = held.player
        if current < 0:
            return []
        if player is None or player == current:  # ``_Held.indices`` inlined: asked once a move or more
            known = held.sorted_now
            if known is None:
                known = held.sorted_now = sorted(held.legal()[1])
            return known[:]
        if player < 0:
            raise ValueError(f"legal_actions: no player {player}")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        held = self._held
        return held.indices() if player == held.player else []

    def _apply_action(self, action: int) -> None:
        held = self._held  # ``_Held.legal`` inlined, the move's caches dropped here: this runs once per move
        known = held.legal_now
        if known is None:
            known = held.legal()
        legal, indices = known
        try:
            chosen = legal[indices.index(action)]
        except ValueError:
            raise ValueError(f"apply_action: action {action} is not legal now") from None
        player, state = held.player, held.state
        state.apply(player, chosen)
        held.legal_now = held.sorted_now = None
        held.player = _TERMINAL if state.is_over() else int(state.actors()[0])

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """``player``'s observation (default: the player to act): the encoded view, a **read-only** float32 array.

        A numpy array rather than pyspiel's list of floats: it is a sequence of floats all the same
        (``np.asarray``/``torch.as_tensor`` take it without a copy), and converting Farmini's 41k floats to a
        list cost more than the game's own move. Answered here rather than by pyspiel's generic path, which
        builds a throw-away *new initial state* on every call to size the tensor (a whole game set-up per
        observation, and a seed drawn from the game's seed sequence, so observing changed which games came
        next).

        The state keeps the array it last handed out for each seat, and once the caller has let go of it
        (no reference to it or to a view of it is left) the next observation of that seat is written
        into it *in place*, only what changed since (Farmini: the farms whose content changed); an array
        the caller still holds is never written again, a new one is made instead. So keep or store an
        observation freely, it never changes under you; it is read-only so that nobody writes into one the
        state may hand out again (copy it to edit it)."""
        held = self._held
        seat = held.player if player is None else int(player)
        if not 0 <= seat < held.players:
            raise ValueError(f"observation_tensor: no player {seat} (players 0..{held.players - 1})")
        pool = held.pool
        out = pool[seat]
        if out is not None and getrefcount(out) == _UNSHARED + 1:  # the pool's and ``out``'s only: rewrite it
            flags = out.flags
            flags.writeable = True
            try:
                rewrite = held.rewrite
                if rewrite is not None:
                    rewrite(held.state, seat, out, held.records[seat])
                else:
                    held.write_all(held.state, seat, out)
            except BaseException:
                pool[seat] = held.records[seat] = None  # half written: never handed out again
                raise
            flags.writeable = False
            return out
        fresh_tracked = held.fresh_tracked
        if fresh_tracked is not None:
            out, held.records[seat] = fresh_tracked(held.state, seat)
        else:
            fast = held.fast
            if fast is None:
                return held.observe(held.state, seat)  # no fast encoder: a new writable array, no pool
            out = np.empty(held.obs_size, dtype=np.float32)
            fast(held.state, seat, out)
        out.flags.writeable = False
        pool[seat] = out
        return out

    def observation_string(self, player: int | None = None) -> str:
        """``player``'s view as canonical JSON (default: the player to act)."""
        import json

        seat = self.current_player() if player is None else int(player)
        if not 0 <= seat < self.spec.players:
            raise ValueError(f"observation_string: no player {seat} (players 0..{self.spec.players - 1})")
        return json.dumps(self.inner.view(seat), sort_keys=True, separators=(",", ":"))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.spec.actions[int(action)]

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._held.player < 0

    def returns(self) -> list[float]:
        """The final rewards (zeros until the end)."""
        if not self.inner.is_over():
            return [0.0] * self.spec.players
        return self.spec.rewards(self.inner, self.reward_mode)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FarmtableState:
        """A state consistent with all ``player_id`` has seen: the game's ``determinize``."""
        seed = int(probability_sampler() * _SEED_BOUND)
        return FarmtableState(self.get_game(), self.inner.determinize(player_id, seed))

    def __str__(self) -> str:
        text: str = self.inner.to_json()
        return text


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _no_fast_encoder(state: Any, player: int, out: np.ndarray) -> None:
    """Stands for the fast encoder of a game without one (never called: such a game keeps no pool)."""
    raise RuntimeError("no fast encoder")  # pragma: no cover


_PROBE = [np.zeros(1)]
_UNSHARED = getrefcount(_PROBE[0])
"""What ``getrefcount(pool[seat])`` reads when only the pool holds the array (the list's and the call's)."""
del _PROBE


class _Held:
    """Holds the farmtable state, the game's spec and what is known of the position until the next move
    (the player to act, the legal actions). pyspiel clones a Python state by deep-copying its attributes:
    this makes that copy use the game's own (fast, exact) ``clone`` and share the spec."""

    def __init__(self, state: Any, sp: Spec) -> None:
        self.state = state
        self.spec = sp
        self.player = _TERMINAL if state.is_over() else int(state.actors()[0])
        """The lowest seat among the actors, or TERMINAL (negative) once the game is over."""
        self.players = sp.players
        self.observe = sp.observe
        """The spec's observation of a seat in a new array (``Spec.fresh``, the fast encoder's own if it has one)."""
        fast = self.fast = sp.fast
        """The fast encoder (writes every entry of an array), if the game has one."""
        self.write_all: FastEncode = fast if fast is not None else _no_fast_encoder
        """The fast encoder (a pool is kept only for a game that has one)."""
        self.fresh_tracked = getattr(fast, "fresh_tracked", None)
        """``fresh_tracked(state, seat)``: a new array and its record, for ``rewrite`` (Farmini), else ``None``."""
        self.rewrite = getattr(fast, "rewrite", None)
        """``rewrite(state, seat, out, record)``: only what changed written into ``out`` (Farmini), else ``None``."""
        self.pool: list[np.ndarray | None] = [None] * sp.players
        """Per seat: the read-only array last handed out by ``observation_tensor`` (rewritten once released)."""
        self.records: list[Any] = [None] * sp.players
        """Per seat: the ``rewrite`` record of the array in ``pool``."""
        self.obs_size = sp.obs_size
        self.legal_now: tuple[list[Any], list[int]] | None = None
        """The legal list of the player to act and the catalogue index of each of its entries (until the next
        move)."""
        self.sorted_now: list[int] | None = None
        """The legal catalogue indices of the player to act, ascending (until the next move)."""

    def indices(self) -> list[int]:
        """The legal catalogue indices of the player to act, ascending (cached until the next move; a fresh
        list)."""
        known = self.sorted_now
        if known is None:
            known = self.sorted_now = sorted(self.legal()[1])
        return known[:]

    def legal(self) -> tuple[list[Any], list[int]]:
        """The legal list of the player to act and the catalogue index of each entry, in the list's order
        (cached until the next move: OpenSpiel asks for the legal actions, then applies one of them; the
        object from the engine's own list lets ``apply`` skip its second check).

        No mask is built (OpenSpiel has none) and nothing is cached per list (:meth:`Spec.indices_of`): a
        list met for the first time, most lists in Farmini and Tiny Farms, costs no more than one met
        before."""
        known = self.legal_now
        if known is None:
            legal = self.state.legal_actions(self.player)
            known = self.legal_now = (legal, self.spec.indices_of(legal))
        return known

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone(), self.spec)


class FarmtableObserver:
    """OpenSpiel observer: ``tensor`` is the encoded ``view(player)``; the string is the view as JSON."""

    def __init__(self, sp: Spec) -> None:
        self.spec = sp
        self.tensor = np.zeros(sp.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FarmtableState, player: int) -> None:
        """Fill ``tensor`` from ``player``'s view."""
        self.spec.observe_into(state.inner, player, self.tensor)

    def string_from(self, state: FarmtableState, player: int) -> str:
        """``player``'s view as canonical JSON."""
        import json

        return json.dumps(state.inner.view(player), sort_keys=True, separators=(",", ":"))


def _game_class(game_id: str) -> type[FarmtableGame]:
    name = rl_game(game_id).name
    return type(f"{name}OpenSpielGame", (FarmtableGame,), {"game_id": game_id})


def register_all() -> list[str]:
    """Register every game that has an RL description with pyspiel (done on import); returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_id in rl_games():
        name = short_name(game_id)
        if name not in registered:
            pyspiel.register_game(_game_type(game_id), _game_class(game_id))
        names.append(name)
    return names


GAME_NAMES = register_all()
"""The pyspiel short names registered on import."""
