"""Fixed action catalogues and observation encoders: what every RL adapter shares.

An RL library wants a *fixed* discrete action space: action index ``i`` must mean the same
move in every state. Each game module under :mod:`farmtable.rl` (``farmers_finances.py``,
``tiny_farms.py`` ...) lists, from the game's component data and notation, every notation that
can ever be legal for a player count and variant set, and declares the schema of its
observation (see :mod:`farmtable.rl.encoding`). :func:`spec` binds both to one
game/player-count/variant set. The adapters (PettingZoo, Gymnasium, OpenSpiel) only use a
:class:`Spec`; they never look inside a game's rules.

Rewards, shared by every adapter:

- ``"score"``: with 2+ players, my final total minus the mean of the others' totals (the rewards
  of all seats sum to 0). Solo, the game's own solo measure (see each game module:
  e.g. Farmers Finances solo is "reach 70 in as few turns as you can", so its solo score is
  minus the turns).
- ``"win"``: with 2+ players, (seats ranked below me − seats ranked above me) / (players − 1):
  +1 for a sole win, −1 for sole last, 0 for a tie of everyone; zero-sum. Solo, the game's
  own solo outcome (win +1 / tie 0 / loss −1 where the solo rules have one).

Both are paid once, at the end of the game.

Speed (issue 16): a game module may also give a *fast encoder* (``RLGame.fast``): a function that
writes the observation straight from the state into a preallocated float32 array, reading only
what ``view(p)`` shows. ``tests/rl/test_fast_path.py`` proves it equal to the view-based encoding on
random positions of every player count, and the hidden-information test runs on it. The catalogue
index of each action object is cached (``Spec.legal``), and masks can be written into a
preallocated array (``Spec.mask_into``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

import farmtable
from farmtable.core import Result, State
from farmtable.rl.encoding import Encoder, Fields, Row

REWARDS = ("score", "win")
"""The reward modes every adapter takes."""
MASK_CACHE_SIZE = 50_000
"""How many distinct legal sets a spec keeps masks for (a few MB at most); later ones are built each time."""

RL_MODULES: dict[str, str] = {
    "farmers-finances": "farmtable.rl.farmers_finances",
    "tiny-farms": "farmtable.rl.tiny_farms",
    "farmerama": "farmtable.rl.farmerama",
    "farmini": "farmtable.rl.farmini",
    "tiny-towns": "farmtable.rl.tiny_towns",
}
"""The module that describes each game for RL (its catalogue and observation schema)."""


@dataclass(frozen=True)
class RLGame:
    """What a game module declares: its catalogue, its observation schema, its solo measures."""

    game_id: str
    name: str
    """CamelCase name used in environment ids (``farmtable/FarmersFinances-solo-v0``)."""
    actions: Callable[[int, tuple[str, ...]], list[str]]
    """Every notation that can ever be legal, in a fixed order, for (players, variants)."""
    schema: Callable[[int, tuple[str, ...]], Fields]
    """The observation schema for (players, variants)."""
    solo_score: Callable[[Result], float]
    """Solo "score" reward from the final result."""
    solo_win: Callable[[Result], float]
    """Solo "win" reward from the final result: +1 win, 0 tie, −1 loss."""
    simultaneous: bool
    """True if the game has simultaneous steps (several actors at once)."""
    max_game_length: int
    """An upper bound on decisions per game for OpenSpiel (the rules give none; see docs/rl.md)."""
    notes: str = ""
    """Extra notes for docs/rl.md."""
    solo_doc: str = ""
    """What the solo score and win rewards mean."""
    key: Callable[[str], str] | None = None
    """Maps a notation to its catalogue entry when part of it is implied by the state (Farmini: the card
    being placed is the one just taken); ``None``: the notation itself."""
    fast: Callable[[Spec], FastEncode] | None = None
    """Builds the fast encoder of a spec (writes ``observe``'s vector straight from the state); ``None``:
    the view-based encoder only. The encoder may carry a ``fresh(state, player)`` attribute that returns the
    observation in a new array (Farmini's writes its ones into ``np.zeros``, cheaper than clearing an
    array); :attr:`Spec.fresh` is that, or ``np.empty`` and the encoder. Two more optional attributes serve
    an adapter that keeps one array per seat (the AEC env's ``copy=False``): ``per_viewer[player](out,
    state)``, the encoder of one viewer (Farmers Finances: the seat order written out, one call), and
    ``into(state, player, out)``, which rewrites only what changed since it last wrote ``out`` (Farmini:
    the farms whose entry changed), for an array nothing else writes. An adapter that keeps arrays of its own
    (OpenSpiel's per-seat pool) may use ``fresh_tracked(state, player) -> (array, record)`` and ``rewrite(state,
    player, array, record)``: the same in-place writing with the record kept by the caller beside its array
    (Farmini)."""
    fold: Callable[[Any], Hashable] | None = None
    """Maps an action object to a hashable that equal catalogue entries share (Farmini: a placement without
    its card id), so an action object met for the first time finds its index without formatting and
    parsing its notation (:meth:`Spec.legal_of`); ``None``: no such shortcut."""


FastEncode = Callable[[State[Any], int, np.ndarray], None]
"""Writes the observation of a seat into a float32 array of the spec's size (every entry)."""
LegalEntry = tuple[dict[int, int], np.ndarray]
"""What :meth:`Spec.legal_entry` caches per legal list: ``{catalogue index: position in the list}`` (in the
list's order) and the read-only mask."""


def rl_game(game_id: str) -> RLGame:
    """The RL description of ``game_id``; ``KeyError`` if the game has none (yet)."""
    module_name = RL_MODULES.get(game_id)
    if module_name is None:
        raise KeyError(f"no RL description for game '{game_id}'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise KeyError(f"no RL description for game '{game_id}' yet") from None
        raise
    game: RLGame = module.RL_GAME
    return game


def rl_games() -> list[str]:
    """The ids of every game that has an RL description."""
    ready = []
    for game_id in farmtable.list_games():
        try:
            rl_game(game_id)
        except KeyError:
            continue
        ready.append(game_id)
    return ready


@dataclass
class Spec:
    """One game/player-count/variant set: the fixed action catalogue and the observation encoder."""

    game_id: str
    players: int
    variants: tuple[str, ...]
    rl: RLGame
    actions: tuple[str, ...]
    index: dict[str, int]
    encoder: Encoder
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    fast: FastEncode | None = field(default=None, repr=False)
    """The game's fast encoder for this spec, if it has one (see :attr:`RLGame.fast`)."""
    fresh: Callable[[State[Any], int], np.ndarray] | None = field(default=None, repr=False)
    """``fresh(state, player)``: the fast encoder's observation in a new float32 array (see :meth:`observe`)."""
    _game: Any = field(default=None, repr=False)
    """The game object (looked up on the first :meth:`new_game`)."""
    _folded: dict[Hashable, int] = field(default_factory=dict, repr=False)
    """Cache of :attr:`RLGame.fold`: folded action -> catalogue index."""
    _entries: dict[Any, int] = field(default_factory=dict, repr=False)
    """Cache: action object -> catalogue index (actions are hashable and their notation is fixed)."""
    _masks: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict, repr=False)
    legal_sets: dict[tuple[Any, ...], LegalEntry] = field(default_factory=dict, repr=False)
    """Cache of :meth:`legal_entry`: the tuple of a legal list -> ``({index: position in the list},
    read-only mask)`` (at most ``MASK_CACHE_SIZE`` lists); do not change it."""

    @property
    def num_actions(self) -> int:
        """The size of the discrete action space."""
        return len(self.actions)

    @property
    def obs_size(self) -> int:
        """The length of the observation vector."""
        return self.encoder.size

    def new_game(self, seed: int) -> State[Any]:
        """A new game of this spec (``seed``: the game's own, as ``new_game(seed=...)`` takes it)."""
        game = self._game
        if game is None:
            game = self._game = farmtable.get_game(self.game_id)
        state: State[Any] = game.new_game(players=self.players, seed=seed, variants=self.variants)
        return state

    def observe(self, state: State[Any], player: int) -> np.ndarray:
        """The observation vector of ``player``: what ``state.view(player)`` shows, encoded."""
        if self.fresh is None:
            return self.encoder.encode(state.view(player), player)
        return self.fresh(state, player)

    def observe_into(self, state: State[Any], player: int, out: np.ndarray) -> None:
        """Write ``player``'s observation into ``out`` (float32, ``obs_size`` long)."""
        if self.fast is None:
            out[:] = self.encoder.encode(state.view(player), player)
        else:
            self.fast(state, player, out)

    def observe_view(self, state: State[Any], player: int) -> np.ndarray:
        """The observation encoded from ``state.view(player)`` by the schema (the reference the fast
        encoder is tested against)."""
        return self.encoder.encode(state.view(player), player)

    def entry(self, action: Any) -> str:
        """The catalogue entry of an action (its notation, or its key when part is implied by the state)."""
        return str(action) if self.rl.key is None else self.rl.key(str(action))

    def legal(self, state: State[Any], player: int) -> dict[int, Any]:
        """``{catalogue index: action object}`` for ``player``'s legal actions now."""
        return self.legal_of(state.legal_actions(player))

    def legal_of(self, legal: list[Any]) -> dict[int, Any]:
        """``{catalogue index: action object}`` of a list of legal actions."""
        entries = self._entries
        try:
            out = dict(zip(map(entries.__getitem__, legal), legal, strict=True))
        except KeyError:
            out = {}
            for action in legal:
                i = entries.get(action)
                if i is None:
                    i = entries[action] = self._lookup(action)
                out[i] = action
        if len(out) != len(legal):
            raise KeyError(f"{self.game_id}: two legal actions share a catalogue entry: {legal}")
        return out

    def indices_of(self, legal: list[Any]) -> list[int]:
        """The catalogue index of each action of a legal list, in the list's order (no mask, nothing cached
        per list: what OpenSpiel needs, cheaper than :meth:`legal_entry` on a list met for the first time).

        Each action's index is looked up in the per-action cache; an action met for the first time goes
        through :meth:`legal_of`, which also checks that no two actions of the list share an entry.
        """
        try:
            return list(map(self._entries.__getitem__, legal))
        except KeyError:
            return list(self.legal_of(legal))

    def legal_and_mask(self, state: State[Any], player: int) -> tuple[dict[int, Any], np.ndarray]:
        """:meth:`legal` and its read-only mask together (the indices and mask cached by the legal list).

        The dict is fresh and holds the action objects of the list ``state.legal_actions(player)`` just
        returned, so ``state.apply(player, legal[i])`` takes the engine's fast path for an action from
        its current legal list (no second parse and check); the mask is shared and read-only.
        """
        legal = state.legal_actions(player)
        slots, mask = self.legal_entry(legal)
        return dict(zip(slots, legal, strict=True)), mask

    def legal_entry(self, legal: list[Any]) -> LegalEntry:
        """``({catalogue index: position in legal}, read-only mask)`` of a legal list, cached by the list.

        The same list of legal actions (equal actions in the same order) always gives the same catalogue
        indices at the same positions, so both are looked up in one dict (at most ``MASK_CACHE_SIZE``
        lists). The fast paths of the adapters play catalogue index ``i`` as ``legal[slots[i]]``: the
        object from the engine's current legal list, which ``apply`` accepts without checking it again.
        The returned dict and mask are shared: do not change them.
        """
        key = tuple(legal)
        known = self.legal_sets.get(key)
        if known is None:  # a list met for the first time: one pass of C-level look-ups, one dict, one mask
            try:
                indices = list(map(self._entries.__getitem__, key))
            except KeyError:  # an action met for the first time (``legal_of`` also fills the cache)
                indices = list(self.legal_of(legal))
            slots = dict(zip(indices, range(len(indices)), strict=True))
            if len(slots) != len(indices):
                raise KeyError(f"{self.game_id}: two legal actions share a catalogue entry: {legal}")
            known = (slots, self._new_mask(indices))
            if len(self.legal_sets) < MASK_CACHE_SIZE:
                self.legal_sets[key] = known
        return known

    def _new_mask(self, indices: Iterable[int]) -> np.ndarray:
        """A read-only 0/1 ``int8`` mask with ones at ``indices``.

        Built as bytes: setting a few bytes costs less than numpy's fancy indexing, and an array over
        ``bytes`` is read-only from birth (no one can turn its ``writeable`` flag back on).
        """
        buf = bytearray(self.num_actions)
        for i in indices:
            buf[i] = 1
        return np.frombuffer(bytes(buf), dtype=np.int8)

    def _lookup(self, action: Any) -> int:
        fold = self.rl.fold
        if fold is not None:
            folded = fold(action)
            known = self._folded.get(folded)
            if known is None:
                known = self._folded[folded] = self._lookup_notation(action)
            return known
        return self._lookup_notation(action)

    def _lookup_notation(self, action: Any) -> int:
        notation = self.entry(action)
        try:
            return self.index[notation]
        except KeyError:
            raise KeyError(
                f"{self.game_id}: legal action {notation!r} is not in the RL catalogue "
                f"(players={self.players}, variants={self.variants})"
            ) from None

    def mask(self, state: State[Any], player: int) -> np.ndarray:
        """The 0/1 ``int8`` action mask of ``player`` (all zeros when not to act); read-only (see :meth:`mask_of`)."""
        return self.mask_of(self.legal(state, player))

    def mask_of(self, legal: dict[int, Any]) -> np.ndarray:
        """The 0/1 ``int8`` mask of the catalogue indices in ``legal``.

        Masks are cached by their set of indices and handed out *read-only* (``writeable=False``):
        the same legal set gives the same array, which no one can change, so storing it (a replay
        buffer) is safe; copy it to edit it.
        """
        key = tuple(legal)
        mask = self._masks.get(key)
        if mask is None:
            mask = self._new_mask(key)
            if len(self._masks) < MASK_CACHE_SIZE:
                self._masks[key] = mask
        return mask

    def rewards(self, state: State[Any], mode: str) -> list[float]:
        """Final rewards per seat in reward ``mode`` (``"score"`` or ``"win"``); see the module docs.

        With 2+ players the rewards need only the totals and the ranking, which ``result_totals`` gives
        equal to ``result``'s without the score sheet; solo rewards read the result's details."""
        result = state.result() if self.players == 1 else state.result_totals()
        return final_rewards(self.rl, result, self.players, mode)

    def rows(self) -> list[Row]:
        """The observation index table (for docs/rl.md)."""
        return self.encoder.rows()


def final_rewards(rl: RLGame, result: Result, players: int, mode: str) -> list[float]:
    """Per-seat rewards of a finished game's ``result`` in ``mode``."""
    if mode not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {mode!r}")
    if players == 1:
        return [float(rl.solo_score(result) if mode == "score" else rl.solo_win(result))]
    if mode == "score":
        totals = [float(t) for t in result.totals]
        total = sum(totals)
        return [t - (total - t) / (players - 1) for t in totals]
    place = {p: i for i, group in enumerate(result.ranking) for p in group}
    out = []
    for p in range(players):
        below = sum(1 for q in range(players) if place[q] > place[p])
        above = sum(1 for q in range(players) if place[q] < place[p])
        out.append((below - above) / (players - 1))
    return out


@cache
def _spec(game_id: str, players: int, variants: tuple[str, ...]) -> Spec:
    rl = rl_game(game_id)
    game = farmtable.get_game(game_id)
    # let the game refuse impossible player counts and variant sets with its own message
    game.new_game(players=players, seed=0, variants=variants)
    actions = tuple(rl.actions(players, variants))
    index = {a: i for i, a in enumerate(actions)}
    if len(index) != len(actions):
        raise ValueError(f"{game_id}: the action catalogue lists a notation twice")
    encoder = Encoder(rl.schema(players, variants), players)
    low = np.array([b[0] for b in encoder.bounds], dtype=np.float32)
    high = np.array([b[1] for b in encoder.bounds], dtype=np.float32)
    sp = Spec(game_id, players, variants, rl, actions, index, encoder, low, high)
    if rl.fast is not None:
        fast = sp.fast = rl.fast(sp)
        fresh = getattr(fast, "fresh", None)
        if fresh is None:
            size = encoder.size

            def fresh(state: State[Any], player: int) -> np.ndarray:
                out = np.empty(size, dtype=np.float32)
                fast(state, player, out)
                return out

        sp.fresh = fresh
    return sp


def spec(game_id: str, players: int = 2, variants: Sequence[str] = ()) -> Spec:
    """The :class:`Spec` (catalogue + encoder) of one game/player-count/variant set (cached)."""
    return _spec(game_id, players, tuple(sorted(variants)))


def variant_sets(game_id: str, players: int) -> list[tuple[str, ...]]:
    """No variant, then each variant on its own, keeping only the ones the game allows with ``players``."""
    game = farmtable.get_game(game_id)
    out: list[tuple[str, ...]] = []
    for variants in [(), *((v,) for v in game.variants)]:
        try:
            game.check_players_and_variants(players, variants)
        except ValueError:
            continue
        out.append(variants)
    return out
