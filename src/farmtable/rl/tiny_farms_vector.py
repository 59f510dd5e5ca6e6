"""Tiny Farms as a batched numpy simulator (issue 16, item 2): many games stepped at once.

The rules of ``games/tiny_farms/rules.py`` for 2–4 players (no solo, no Farmer Emma): roll
``players + 1`` dice, each player in turn spends milk (``milk +1``/``milk -1``), takes a die to move
the red or blue farmer (bumping past the other one), writes the two animals the wheel shows into
empty spaces of that farm (lost when it is full); the leftover die turns the top wheel;
ten rounds. Chance is the engine's own generator (SplitMix64, :func:`farmtable.games.farmers_finances.vector.below`
draw for draw), so game ``i`` of a batch made from ``seeds[i]`` is ``engine.new_game(players, seed=seeds[i])``.

Decisions are *positions in the engine's legal list*: :func:`legal_count` gives how many legal moves
each game has, in exactly the order ``TinyFarmsState.legal_actions`` lists them, and :func:`step`
plays the ``k``-th. So a policy that picks ``legal[agent.below(len(legal))]`` in the engine and
``k = below(agent, count)`` here plays the same games (``tests/rl/test_tiny_farms_vector.py`` checks
it move by move). :func:`step` is :func:`play` of the decoded position; an RL policy's catalogue
indices go through :func:`decode` instead. Every function is a pure transformation of arrays with no
per-game Python branch, so a JAX port can follow it line by line (``np.where`` for the branches,
fixed shapes; :func:`play` runs the same operations on every game, only the round end works on the
games whose round ended).

The state keeps what the legal moves need as small integers: each farm's empty spaces as a 16-bit mask
(``free``) and the die values showing as bits (``shown``), so the legal moves, their count and the
``k``-th one are look-ups of :func:`tables` (popcount, the ``k``-th set bit, the move case of every
(dice shown, milk change, milk left)); boards and dice are int8.

:func:`observe` and :func:`action_mask` give the whole batch's observations and catalogue masks for the
seats to act, the same numbers as the RL adapters' (``Spec.observe``, ``Spec.legal_and_mask``);
:class:`ViewerObs` keeps the observations and :class:`KeptMask` the masks up to date in one array each,
move by move (what the vector env uses: a step writes a few 8- and 16-byte runs a game, table look-ups of
the raw state, and turns a row's seat blocks only where the seat to act changed). A game's dice for all
its rounds are drawn when it is made (:func:`new_games`: the generator draws nothing else, so they are the
engine's dice round by round).
:func:`score` is the final scoring of the whole batch (``scoring.score_players``' totals and the
tie-break ranking, array by array), which the ``gymnasium.vector`` env ``rl/vector.py:
TinyFarmsVectorEnv`` pays its final rewards from. The variant ``horses-zero-ranks`` changes only the
scoring, so the simulator plays it too (:func:`score` takes the variants).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final, NamedTuple

import numpy as np

from farmtable.games.farmers_finances.vector import U64, below, next64
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import rules, scoring

MOVE: Final = 0
PLACE: Final = 1
OVER: Final = 2
K_MILK, K_DIE, K_PUT = 0, 1, 2
"""Kinds of a decision as :func:`step` reports it: (kind, a, b) = (milk, ±1, 0), (die, value, farm),
(put, animal, board cell): the engine's ``rules.ACTION_CODES``."""
VISIBLE: Final = np.array(rules.VISIBLE, dtype=np.int64)
"""``VISIBLE[rotation, space]``: the two animals the wheel shows."""
_VISIBLE_FIRST: Final = np.ascontiguousarray(VISIBLE.reshape(-1, 2)[:, 0])
_VISIBLE_SECOND: Final = np.ascontiguousarray(VISIBLE.reshape(-1, 2)[:, 1])
"""The first and the second animal of ``VISIBLE`` by ``rotation * 8 + space``."""
FACES: Final = np.arange(c.MIN_DIE_VALUE, c.DIE_FACES + 1)
FARMS: Final = c.BOARD_CELLS // c.FARM_CELLS
"""Farms per player (red and blue)."""
_WHEEL_MASK: Final = c.WHEEL_SPACES - 1
"""``x & _WHEEL_MASK`` is ``x % WHEEL_SPACES`` (eight spaces: a power of two, checked below)."""
_MOD_LOW, _MOD_HIGH = -c.DIE_FACES, 1
"""The milk change as the move table reads it (clipped: every change at or below ``-DIE_FACES`` leaves no
move, every one at or above 1 the same moves as 1)."""
_MOD_SPAN: Final = _MOD_HIGH - _MOD_LOW + 1

if (
    c.WHEEL_SPACES & _WHEEL_MASK
    or c.MIN_DIE_VALUE != 1
    or c.FARM_CELLS != 16
    or c.DIE_FACES > 6
    or (K_MILK, K_DIE, K_PUT) != (rules.K_MILK, rules.K_DIE, rules.K_PUT)
):
    raise RuntimeError("the Tiny Farms components changed: rl/tiny_farms_vector.py tables need updating")


_DICE_WIDTH: Final = 8
"""Columns of ``state["dice"]`` (face ``v`` at ``v - 1``; 6 and 7 always 0): a game's dice are one 8-byte
word, which an int8 observation takes in one piece (:class:`ViewerObs`)."""

_WORD: Final = 8
"""Bytes in a machine word (``uint64``): the unit :class:`KeptMask` writes its put blocks in."""

_PHASES: Final = 4
"""The schema's phases (move, place, crop, over): the simulator's MOVE and PLACE are the first two."""
_OVER_PHASE: Final = 3

VARIANTS: Final = (rules.HORSES_ZERO_RANKS,)
"""The variants the simulator plays (they change only the scoring)."""


class Tables(NamedTuple):
    """Look-up tables of the simulator (built once by :func:`tables`)."""

    popcount: np.ndarray
    """``(2**16,)``: how many bits of a farm's empty-space mask are set (its empty spaces)."""
    kth: np.ndarray
    """``(2**16 * 16,)``: ``kth[mask * 16 + k]`` is the ``k``-th set bit of ``mask`` (0 past the last)."""
    bytes8: np.ndarray
    """``(256,)`` uint64: eight bits as eight bytes of 0/1 (memory order): a farm's empty-space mask as its
    put block is two of them (:func:`_block_rows`)."""
    move_case: np.ndarray
    """Per (dice shown as bits, clipped milk change, milk left > 0): the legal move decisions as a case
    (usable die values as bits 0..5, ``milk +1`` bit 6, ``milk -1`` bit 7)."""
    move_count: np.ndarray
    """The same index: how many move decisions are legal (2 per usable die value, then the milk moves)."""
    face_bit: np.ndarray
    """``face_bit[v]``: die value ``v``'s bit in the shown-dice mask (``face_bit[0] = 0``: no die)."""


@cache
def tables() -> Tables:
    """The simulator's look-up tables, from the rules of ``_move_options`` below (once per process)."""
    masks = np.arange(1 << c.FARM_CELLS, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(c.FARM_CELLS)) & 1
    popcount = bits.sum(axis=1)
    rank = np.cumsum(bits, axis=1) - 1
    rows_at, cols = np.nonzero(bits)
    kth = np.zeros((len(masks), c.FARM_CELLS), dtype=np.int64)
    kth[rows_at, rank[rows_at, cols]] = cols
    shown = np.arange(1 << c.DIE_FACES)
    mod = np.arange(_MOD_LOW, _MOD_HIGH + 1)
    milk = np.arange(2)
    s, m, k = (g.ravel() for g in np.meshgrid(shown, mod, milk, indexing="ij"))
    usable, up, down = _move_options((s[:, None] >> np.arange(c.DIE_FACES)) & 1 > 0, m, k > 0)
    die_bits = 1 << np.arange(c.DIE_FACES)
    usable_bits = usable @ die_bits
    case = usable_bits | up.astype(np.int64) << c.DIE_FACES | down.astype(np.int64) << (c.DIE_FACES + 1)
    count = 2 * usable.sum(axis=1) + up + down
    face_bit = np.concatenate([[0], die_bits])
    bytes8 = np.ascontiguousarray(bits[:256, :8].astype(np.int8)).view(np.uint64).reshape(-1)
    return Tables(popcount.astype(np.int8), kth.ravel().astype(np.int8), bytes8, case, count, face_bit)


def _spans(arr: np.ndarray, begin: int, width: int, count: int = 1) -> np.ndarray:
    """``(rows, count)`` view of the 2-D C-contiguous ``arr`` as opaque items: item ``j`` of row ``i`` is
    ``arr[i, begin + j * width : begin + (j + 1) * width]`` (a row's run of entries moves as one item, so a
    fancy write of whole runs is one copy per run, not a sub-array loop)."""
    size = arr.itemsize
    item = np.dtype((np.void, width * size))
    view: np.ndarray = np.ndarray(
        (arr.shape[0], count), item, buffer=arr, offset=begin * size, strides=(arr.strides[0], width * size)
    )
    return view


def _items(table: np.ndarray) -> np.ndarray:
    """The rows of the 2-D ``table`` as opaque items (``(rows,)``; a copy if it is not C-contiguous)."""
    table = np.ascontiguousarray(table)
    items: np.ndarray = table.view(np.dtype((np.void, table.shape[1] * table.itemsize))).reshape(-1)
    return items


def _block_rows(free: np.ndarray) -> np.ndarray:
    """``(B,)`` 16-byte items: each 16-bit empty-space mask of ``free`` as 16 bytes of 0/1 (a put block)."""
    bytes8 = tables().bytes8
    out = np.empty((len(free), 2), dtype=np.uint64)
    out[:, 0] = bytes8[free & 0xFF]
    out[:, 1] = bytes8[free >> 8]
    rows: np.ndarray = out.view(np.dtype((np.void, 16)))[:, 0]
    return rows


def _move_options(shown: np.ndarray, mod: np.ndarray, milk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RULEBOOK "Milk!" and "Move a Farmer": from the die values shown (``(N, 6)``), the milk change so far
    and whether the player has milk left: which die values may be used, and whether ``milk +1`` /
    ``milk -1`` are legal (a die never goes below 1; the change goes one way per turn)."""
    usable = shown & (FACES + mod[:, None] >= c.MIN_DIE_VALUE)
    highest = np.where(shown.any(axis=1), c.DIE_FACES - np.argmax(shown[:, ::-1], axis=1), 0)
    up = milk & (mod >= 0)
    down = milk & (mod <= 0) & (highest + mod - 1 >= c.MIN_DIE_VALUE)
    return usable, up, down


def check_setup(players: int, variants: tuple[str, ...] = ()) -> None:
    """``ValueError`` naming the problem unless the simulator plays this set-up."""
    other = [v for v in variants if v not in VARIANTS]
    if other:
        raise ValueError(
            f"the Tiny Farms batch simulator plays the standard rules (and {', '.join(VARIANTS)}) only, "
            f"not {', '.join(other)}"
        )
    if not 2 <= players <= c.MAX_PLAYERS:
        raise ValueError(f"the Tiny Farms batch simulator plays 2..{c.MAX_PLAYERS} players, not {players}")


def new_games(players: int, seeds: Any) -> dict[str, np.ndarray]:
    """``len(seeds)`` new games; game ``i`` is ``engine.new_game(players, seed=seeds[i])`` (seeds < 2**64).

    The boards are int8 (cell codes); ``free`` keeps each farm's empty spaces as a 16-bit mask
    (``(B, players * 2)``, farm ``seat * 2 + red/blue``) and ``shown`` the die values showing as bits, so
    the legal moves are table look-ups (:func:`options`)."""
    check_setup(players)
    rng = np.array(seeds, dtype=np.uint64).reshape(-1)
    n = len(rng)
    zeros = np.zeros(n, dtype=np.int64)
    state: dict[str, np.ndarray] = {
        "rng": rng,
        "round": zeros + 1,
        "start": zeros.copy(),
        "rotation": zeros + c.SETUP_ROTATION,
        "red": zeros + c.SETUP_RED_SPACE,
        "blue": zeros + c.SETUP_BLUE_SPACE,
        "milk": np.full((n, players), c.START_MILK, dtype=np.int64),
        "boards": np.full((n, players, c.BOARD_CELLS), c.EMPTY, dtype=np.int8),
        "free": np.full((n, players * FARMS), (1 << c.FARM_CELLS) - 1, dtype=np.int64),
        # how many dice show each face (index = face - 1; 6 and 7 stay 0: eight bytes a game, one word)
        "dice": np.zeros((n, _DICE_WIDTH), dtype=np.int8),
        "shown": zeros.copy(),
        "turn": zeros.copy(),
        "current": zeros.copy(),
        "phase": zeros + MOVE,
        "modifier": zeros.copy(),
        "pending": np.zeros((n, 2), dtype=np.int64),  # the animals still to write, in the engine's list order
        "pending_n": zeros.copy(),
        "farm": zeros.copy(),
    }
    state["rolled"], state["rolled_shown"] = _roll_every_round(rng, players)
    _start_round(state, np.arange(n))
    return state


def _roll_every_round(rng: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """RULEBOOK "Roll Dice": every round's ``players + 1`` dice, drawn one after the other as the engine draws
    them at each round's start (in a game of two or more players the generator draws nothing else, so the
    whole game's dice can be drawn when it is made; ``rng`` is advanced past them all).

    Returns ``rolled`` (``(B, ROUNDS, 8)`` int8: round ``r``'s dice as :func:`new_games` keeps ``dice``) and
    ``rolled_shown`` (``(B, ROUNDS)``: the die values shown, as bits)."""
    n, per_round = len(rng), players + c.EXTRA_DICE
    rolls = _rolls(rng, c.ROUNDS * per_round).reshape(n * c.ROUNDS, per_round)
    at = np.arange(0, n * c.ROUNDS * _DICE_WIDTH, _DICE_WIDTH)[:, None] + rolls - c.MIN_DIE_VALUE
    counts = np.bincount(at.ravel(), minlength=n * c.ROUNDS * _DICE_WIDTH).astype(np.int8)
    shown = np.bitwise_or.reduce(tables().face_bit[rolls], axis=1)
    return counts.reshape(n, c.ROUNDS, _DICE_WIDTH), shown.reshape(n, c.ROUNDS)


def _start_round(state: dict[str, np.ndarray], lanes: np.ndarray) -> None:
    """RULEBOOK "Roll Dice": the games ``lanes`` start their round ``state["round"]`` with its dice (drawn
    when the game was made: :func:`_roll_every_round`)."""
    rounds = state["round"][lanes] - 1
    state["dice"][lanes] = state["rolled"][lanes, rounds]
    state["shown"][lanes] = state["rolled_shown"][lanes, rounds]
    state["turn"][lanes] = 0
    state["current"][lanes] = state["start"][lanes]
    state["phase"][lanes] = MOVE
    state["modifier"][lanes] = 0


def _rolls(rng: np.ndarray, draws: int) -> np.ndarray:
    """``(len(rng), draws)`` die values, each generator's next ``draws`` rolls (``Rng.randint(1, 6)`` one
    after the other); ``rng`` is advanced past them.

    SplitMix64's state moves by one constant a draw, so the states of all the draws are known at once
    and mixed in one pass (``next64`` of each); a draw ``below`` would reject (about one in 4·10**18)
    sends the batch through ``below`` draw by draw instead, as the engine draws."""
    golden = _golden()
    states = rng[:, None] + golden * np.arange(draws, dtype=U64)  # before each draw (uint64 wraps)
    outputs = next64(states.reshape(-1)).reshape(len(rng), draws)
    if (outputs >= _DIE_LIMIT).any():
        out = np.empty((len(rng), draws), dtype=np.int64)
        for k in range(draws):
            out[:, k] = c.MIN_DIE_VALUE + below(rng, np.full(len(rng), c.DIE_FACES, dtype=np.int64))
        return out
    rng += U64(int(golden) * draws % (1 << 64))
    rolls: np.ndarray = (outputs % U64(c.DIE_FACES)).astype(np.int64) + c.MIN_DIE_VALUE
    return rolls


_DIE_LIMIT: Final = U64((1 << 64) - (1 << 64) % c.DIE_FACES)
"""``Rng.below(6)`` draws again at or above this (``limit`` there)."""


@cache
def _golden() -> np.uint64:
    """How far SplitMix64's state moves a draw (read off the generator: ``next64`` of a zero state)."""
    state = np.zeros(1, dtype=U64)
    next64(state)
    return U64(state[0])


class Options(NamedTuple):
    """What :func:`options` finds (pass it on to :func:`step` and :func:`action_mask` to save the work)."""

    case: np.ndarray
    """Per game in MOVE: its legal move decisions as bits (:attr:`Tables.move_case`; 0 otherwise)."""
    free: np.ndarray
    """Per game in PLACE: the empty spaces of the farm it writes into, as a 16-bit mask (0 otherwise)."""
    kinds: np.ndarray
    """Per game in PLACE: how many different animals are pending (the engine lists ``dict.fromkeys``)."""
    spaces: np.ndarray
    """Per game: the empty spaces of the farm of :attr:`free` (``popcount``)."""
    legal: np.ndarray
    """How many legal decisions each game has (0 once it is over): ``len(legal_actions(current))``."""


def _farm_at(state: dict[str, np.ndarray]) -> np.ndarray:
    """Per game: where the farm its current player writes into is in ``state["free"]`` (flattened)."""
    n, farms = state["free"].shape
    at: np.ndarray = np.arange(0, n * farms, farms) + np.maximum(state["current"], 0) * FARMS + state["farm"]
    return at


def options(state: dict[str, np.ndarray]) -> Options:
    """The legal decisions of every game now, as :func:`step` reads them (pass them on to save the work)."""
    t = tables()
    n, players = state["milk"].shape
    phase = state["phase"]
    moving = phase == MOVE
    placing = phase == PLACE
    cur = np.maximum(state["current"], 0)
    has_milk = state["milk"].reshape(-1)[np.arange(0, n * players, players) + cur] > 0
    mod = np.minimum(np.maximum(state["modifier"], _MOD_LOW), _MOD_HIGH)
    at = (state["shown"] * _MOD_SPAN + mod - _MOD_LOW) * 2 + has_milk
    case = np.where(moving, t.move_case[at], 0)
    free = np.where(placing, state["free"].reshape(-1)[_farm_at(state)], 0)
    pending = state["pending"]
    pending_n = state["pending_n"]
    two = (pending_n == 2) & (pending[:, 0] != pending[:, 1])
    kinds = np.where(placing & (pending_n > 0), 1 + two, 0)
    spaces = t.popcount[free]
    count: np.ndarray = np.where(moving, t.move_count[at], kinds * spaces)
    return Options(case, free, kinds, spaces, count)


def legal_count(state: dict[str, np.ndarray]) -> np.ndarray:
    """How many legal decisions each game has now (0 once it is over): ``len(legal_actions(current))``."""
    return options(state).legal


def step(
    state: dict[str, np.ndarray], k: np.ndarray, found: Options | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every game not over plays its ``k``-th legal decision (``0 <= k < legal_count``), then everything
    automatic that follows (lost animals, the next turn, the round end, the next roll). ``found``: the
    :func:`options` of this very state, if the caller has them.

    Returns the decisions as (kind, a, b) arrays (``K_*``; ``-1`` for games already over).
    """
    found = options(state) if found is None else found
    t = tables()
    phase = state["phase"]
    usable = found.case & ((1 << c.DIE_FACES) - 1)
    dies = 2 * t.popcount[usable]
    moving = phase == MOVE
    # MOVE: a die and a farmer (die values in order, red before blue), then milk +1, then milk -1
    die = moving & (k < dies)
    up = (found.case >> c.DIE_FACES & 1).astype(bool) & (k == dies)
    # PLACE: each different pending animal (in order) into each empty space of the farm (in order)
    free = np.maximum(found.spaces, 1)
    second = k >= free
    within = k - second * free
    animal = np.where(second, state["pending"][:, 1], state["pending"][:, 0])
    cell = state["farm"] * c.FARM_CELLS + t.kth[found.free * c.FARM_CELLS + within]
    kind = np.where(moving, np.where(die, K_DIE, K_MILK), np.where(phase == PLACE, K_PUT, -1))
    a = np.where(moving, np.where(die, 1 + t.kth[usable * c.FARM_CELLS + (k >> 1)], np.where(up, 1, -1)), animal)
    b = np.where(moving, np.where(die, k & 1, 0), cell)
    a[kind < 0] = 0
    b[kind < 0] = 0
    play(state, kind, a, b)
    return kind, a, b


def decode(
    state: dict[str, np.ndarray], layout: Layout, actions: np.ndarray, over: np.ndarray | None = None
) -> tuple[np.ndarray, ...]:
    """Catalogue actions as the (kind, a, b) decisions :func:`play` takes (``-1`` for games over): three
    look-ups of :attr:`Layout.decisions`. ``over``: which games are over, if the caller knows.

    ``actions`` must be legal (:func:`action_mask`): nothing is checked here.
    """
    _, first, second = layout.decisions
    kind = layout.kinds.take(actions)
    kind[state["phase"] == OVER if over is None else over] = -1
    return kind, first.take(actions), second.take(actions)


def play(state: dict[str, np.ndarray], kind: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play the decisions (kind, a, b) (``K_*``, as :func:`step` and :func:`decode` give them; ``-1``: none)
    of the games' players to act, then everything automatic that follows. They must be legal.

    Each kind of decision works on the games that made it (``np.flatnonzero`` of the kind, then whole-subset
    array operations: a JAX port writes the same updates masked, ``.at[lanes]``): ``milk`` spends a token,
    a die moves a farmer (one look-up of :func:`_farmer_moves` gives where both farmers stand and the two
    animals the wheel shows), a ``put`` writes an animal; the games whose turn ended pass it on, and those
    whose round ended go through :func:`_end_round`. Returns the games that played ``milk`` and those that
    played ``put`` (what :meth:`ViewerObs.update` writes)."""
    t = tables()
    n, players = state["milk"].shape
    seat_at = _starts(n, players)
    cur = state["current"]
    pending = state["pending"].reshape(-1)  # (game * 2 + slot)
    pending_n = state["pending_n"]
    free = state["free"].reshape(-1)
    # --- milk: spend a token to change the die about to be used (RULEBOOK "Milk!")
    lanes = np.flatnonzero(kind == K_MILK)
    if len(lanes):
        state["milk"].reshape(-1)[seat_at[lanes] + cur[lanes]] -= 1
        state["modifier"][lanes] += a[lanes]
    # --- a die and a farmer (RULEBOOK "Move a Farmer": never on the other farmer); the two animals shown
    dies = np.flatnonzero(kind == K_DIE)
    lost = dies[:0]
    if len(dies):
        value, farm = a[dies], b[dies]
        dice = state["dice"].reshape(-1)
        at = dies * _DICE_WIDTH + (value - c.MIN_DIE_VALUE)
        left = dice[at] - 1
        dice[at] = left
        state["shown"][dies] &= ~(t.face_bit[value] * (left == 0))
        steps = (value + state["modifier"][dies]) & _WHEEL_MASK
        where = (state["rotation"][dies] * c.WHEEL_SPACES + state["red"][dies]) * c.WHEEL_SPACES + state["blue"][dies]
        moved = _farmer_moves()[(where * FARMS + farm) * c.WHEEL_SPACES + steps]
        state["red"][dies] = moved & _WHEEL_MASK
        state["blue"][dies] = (moved >> 3) & _WHEEL_MASK
        pending[2 * dies] = (moved >> 6) & 0xF
        pending[2 * dies + 1] = moved >> 10
        state["farm"][dies] = farm
        state["phase"][dies] = PLACE
        state["modifier"][dies] = 0
        room = free[_starts(n, players * FARMS)[dies] + cur[dies] * FARMS + farm] > 0
        pending_n[dies] = 2 * room  # the farm is full: both animals are lost, the turn ends
        lost = dies[~room]
    # --- one pending animal into an empty space of the farm (RULEBOOK "Fill Your Farm")
    puts = np.flatnonzero(kind == K_PUT)
    done = lost
    if len(puts):
        animal, cell, seat = a[puts], b[puts], cur[puts]
        state["boards"].reshape(-1)[(seat_at[puts] + seat) * c.BOARD_CELLS + cell] = animal
        at = _starts(n, players * FARMS)[puts] + seat * FARMS + (cell >> 4)
        left = free[at] & ~(1 << (cell & (c.FARM_CELLS - 1)))
        free[at] = left
        first, second = pending[2 * puts], pending[2 * puts + 1]
        pending[2 * puts] = np.where(first == animal, second, first)
        count = (pending_n[puts] - 1) * (left > 0)  # no room left: the other animal is lost
        pending_n[puts] = count
        done = np.concatenate([lost, puts[count == 0]])
    if len(done):
        _end_turn(state, done)
    return lanes, puts


def _end_turn(state: dict[str, np.ndarray], done: np.ndarray) -> None:
    """The games ``done`` finished their turn: the next player's, or after the last player's, the round ends."""
    players = state["milk"].shape[1]
    # --- the turn passes on; after the last player's, the round ends
    turn = state["turn"][done] + 1
    state["turn"][done] = turn
    more = turn < players
    nxt = done[more]
    seat = state["start"][nxt] + turn[more]
    state["current"][nxt] = seat - players * (seat >= players)
    state["phase"][nxt] = MOVE
    ends = done[~more]
    if len(ends):
        _end_round(state, ends)


@cache
def _starts(n: int, width: int) -> np.ndarray:
    """``arange(0, n * width, width)``: where each game's row starts in a flattened ``(n, width)`` array
    (kept: the same few sizes every step; read-only)."""
    out = np.arange(0, n * width, width)
    out.flags.writeable = False
    return out


@cache
def _farmer_moves() -> np.ndarray:
    """RULEBOOK "Move a Farmer", every case at once: by ``(((rotation * 8 + red) * 8 + blue) * 2 + farmer) * 8
    + steps`` (``farmer``: 0 red, 1 blue; ``steps``: the die value plus the milk change, modulo 8), the red
    farmer's space, the blue one's (``<< 3``) and the two animals the wheel then shows by the moved farmer
    (``<< 6``, ``<< 10``). The moved farmer never stops on the other one (it steps one further)."""
    w = c.WHEEL_SPACES
    out = np.zeros((w, w, w, FARMS, w), dtype=np.int64)
    for rotation in range(w):
        for red in range(w):
            for blue in range(w):
                for farmer in range(FARMS):
                    for steps in range(w):
                        start, other = (red, blue) if farmer == c.RED else (blue, red)
                        end = (start + steps) % w
                        if end == other:
                            end = (end + 1) % w
                        new_red, new_blue = (end, blue) if farmer == c.RED else (red, end)
                        first, second = rules.VISIBLE[rotation][end]
                        out[rotation, red, blue, farmer, steps] = new_red | new_blue << 3 | first << 6 | second << 10
    flat = out.reshape(-1)
    flat.flags.writeable = False
    return flat


def _end_round(state: dict[str, np.ndarray], ends: np.ndarray) -> None:
    """RULEBOOK "Round End": the leftover (lowest) die turns the top wheel; the start player passes left;
    after the last round the game is over. (A game's dice and every round's are 8-byte words: one copy each.)"""
    players = state["milk"].shape[1]
    leftover = tables().kth[state["shown"][ends] * c.FARM_CELLS] + c.MIN_DIE_VALUE  # the lowest die value shown
    rotation = state["rotation"]
    rotation[ends] = (rotation[ends] + leftover) & _WHEEL_MASK
    state["modifier"][ends] = 0
    played = state["round"][ends]
    last = played >= c.ROUNDS
    dice = state["dice"].view(np.uint64).reshape(-1)
    if last.any():
        over = ends[last]
        dice[over] = 0
        state["shown"][over] = 0
        state["phase"][over] = OVER
        state["current"][over] = -1
        state["turn"][over] = 0
        ends, played = ends[~last], played[~last]
    # the next round (RULEBOOK "Roll Dice": its dice were drawn when the game was made)
    state["round"][ends] = played + 1
    start = state["start"][ends] + 1
    start -= players * (start >= players)
    state["start"][ends] = start
    state["current"][ends] = start
    at = ends * c.ROUNDS + played
    dice[ends] = state["rolled"].view(np.uint64).reshape(-1)[at]
    state["shown"][ends] = state["rolled_shown"].reshape(-1)[at]
    state["turn"][ends] = 0
    state["phase"][ends] = MOVE


def pick_random(policy_rng: np.ndarray, count: np.ndarray) -> np.ndarray:
    """``k = Rng.below(count)`` per game from ``policy_rng`` (advanced; games with no move: 0, unmoved).

    Counts below 1024 read ``below``'s rejection limit from a table (:func:`_below_limits`); a draw at or
    above it (about one in 10**16) sends the batch through ``below`` itself, which draws again as the
    engine does."""
    k = np.zeros(len(count), dtype=np.int64)
    live = np.flatnonzero(count > 0)
    if not len(live):
        return k
    sub = policy_rng[live]
    n = count[live]
    limits = _below_limits()
    if n.max() < len(limits):
        x = next64(sub)
        if not (x >= limits[n]).any():
            k[live] = (x % n.astype(U64)).astype(np.int64)
            policy_rng[live] = sub
            return k
        sub = policy_rng[live]
    k[live] = below(sub, n)
    policy_rng[live] = sub
    return k


@cache
def _below_limits() -> np.ndarray:
    """``Rng.below(n)``'s limit for ``n < 1024`` (a draw at or above it is drawn again; ``2**64 - 1`` stands
    for ``2**64`` when ``n`` divides it: that one draw then goes through ``below``, which keeps it)."""
    limits = [(1 << 64) - (1 << 64) % n if n else 0 for n in range(1024)]
    return np.array([min(x, (1 << 64) - 1) for x in limits], dtype=U64)


def play_random(players: int, seeds: Any, policy_seeds: Any) -> dict[str, Any]:
    """Play every game to the end, each decision ``k = below(count)`` from ``Rng(policy_seeds[i])``.

    Returns the final state and the decisions per game. (The engine's game ``i`` with
    ``agent = Rng(policy_seeds[i])`` choosing ``legal[agent.below(len(legal))]`` is the same game.)
    """
    final = new_games(players, seeds)
    state = take(final, np.arange(len(final["phase"])))
    where = np.arange(len(final["phase"]))  # working lane -> game
    policy = np.array(policy_seeds, dtype=np.uint64).reshape(-1)
    decisions = np.zeros(len(policy), dtype=np.int64)
    while len(where):
        found = options(state)
        count = found.legal
        live = count > 0
        if not live.any():
            break
        if live.sum() * 2 < len(live):  # drop finished games once they are half the batch
            for key, value in state.items():
                final[key][where[~live]] = value[~live]
            state = take(state, np.flatnonzero(live))
            where = where[live]
            found = options(state)
            count = found.legal
            live = count > 0
        decisions[where] += live
        sub = policy[where]
        k = pick_random(sub, count)
        policy[where] = sub
        step(state, k, found)
    for key, value in state.items():
        final[key][where] = value
    return {"state": final, "decisions": decisions}


def take(state: dict[str, np.ndarray], lanes: np.ndarray) -> dict[str, np.ndarray]:
    """The games ``lanes`` of a batch as a batch of their own (copies)."""
    return {key: value[lanes] for key, value in state.items()}


class Layout:
    """Where :func:`observe` writes, read from the RL schema of ``players`` and ``variants``
    (``rl/tiny_farms.py``), so the batch observation is ``spec("tiny-farms", players,
    variants).observe(state, to_act)`` entry for entry."""

    def __init__(self, players: int, variants: tuple[str, ...] = ()) -> None:
        from farmtable.rl import tiny_farms as rl
        from farmtable.rl.catalogue import spec

        check_setup(players, variants)
        self.players = players
        self.variants = tuple(sorted(variants))
        self.spec = spec("tiny-farms", players, variants)
        self.at = {row.name: row.start for row in self.spec.rows()}
        self.size = self.spec.obs_size
        spaces = np.zeros((c.WHEEL_SPACES, c.WHEEL_SPACES, len(rl.ANIMAL_NAMES)), dtype=np.float32)
        animal_index = {a: i for i, a in enumerate(c.ANIMALS)}
        for r in range(c.WHEEL_SPACES):
            for space in range(c.WHEEL_SPACES):
                for animal in rules.VISIBLE[r][space]:
                    spaces[r, space, animal_index[animal]] += 1.0
        self.spaces = spaces.reshape(c.WHEEL_SPACES, -1)
        """Per rotation: the wheel's ``spaces`` block (animal counts shown per space)."""
        code_of = {code: i for i, code in enumerate(rl.CELL_CODES)}
        self.codes = len(rl.CELL_CODES)
        self.cell_code = np.array([code_of[c.ABBREVIATIONS[v]] for v in range(len(c.ABBREVIATIONS))])
        """Board value -> its one-hot position among the schema's cell codes."""
        self.animal_index = np.full(len(c.ABBREVIATIONS), -1, dtype=np.int64)
        for animal, i in animal_index.items():
            self.animal_index[animal] = i
        self.index = self.spec.index
        self.put_at = self.index[rules.PUT_ACTIONS[c.ANIMALS[0]][0]]
        decisions = np.zeros((3, len(self.index)), dtype=np.int64)
        for name, column in self.index.items():
            decisions[:, column] = rules.ACTION_CODES[name]
        self.decisions = decisions
        self.kinds = decisions[0].astype(np.int8)
        """The kind of every catalogue action (``decisions[0]``) in one byte each (compared faster)."""
        """``(kind, a, b)`` of every catalogue action, as :func:`step` reports decisions (``K_*``: the
        engine's ``rules.ACTION_CODES``)."""
        """The first put action's catalogue index: the move actions (milk, dice) are the ones before it."""
        if self.put_at + len(c.ANIMALS) * c.BOARD_CELLS != len(self.index):
            raise RuntimeError("the Tiny Farms RL catalogue changed: rl/tiny_farms_vector.py Layout needs updating")
        self.die_bits = (1 << np.arange(c.DIE_FACES)).astype(np.int16)
        """Usable die value ``v`` is bit ``v - 1`` of a move case (:attr:`move_rows`)."""
        die_at = self.index[rules.DIE_ACTIONS[c.MIN_DIE_VALUE][c.RED]]
        move_rows = np.zeros((1 << (c.DIE_FACES + 2), self.put_at), dtype=np.int8)
        for case in range(len(move_rows)):
            for value in range(c.MIN_DIE_VALUE, c.DIE_FACES + 1):
                if case >> (value - 1) & 1:
                    move_rows[case, self.index[rules.DIE_ACTIONS[value][c.RED]]] = 1
                    move_rows[case, self.index[rules.DIE_ACTIONS[value][c.BLUE]]] = 1
            move_rows[case, self.index[rules.MILK_UP]] = case >> c.DIE_FACES & 1
            move_rows[case, self.index[rules.MILK_DOWN]] = case >> (c.DIE_FACES + 1) & 1
        if die_at + 2 * c.DIE_FACES > self.put_at:
            raise RuntimeError("the Tiny Farms RL catalogue changed: rl/tiny_farms_vector.py Layout needs updating")
        self.move_rows = move_rows
        self.move_items = _items(move_rows)
        """:attr:`move_rows` as opaque items (one per case)."""
        """Per move case (usable die values as bits 0..5, ``milk +1`` bit 6, ``milk -1`` bit 7): the mask's
        move actions."""
        self.cell_rows = np.eye(self.codes, dtype=np.float32)[self.cell_code]
        """Board value -> its one-hot row (the schema's cell codes)."""
        at = self.at
        self.wheel_at = at["wheel.rotation"]
        self.wheel_end = at["players[self].milk"]
        wheel = np.zeros((c.WHEEL_SPACES,) * 3 + (self.wheel_end - self.wheel_at,), dtype=np.float32)
        spaces_at = at["wheel.spaces[0]"] - self.wheel_at
        for r in range(c.WHEEL_SPACES):
            wheel[r, :, :, at["wheel.rotation"] - self.wheel_at + r] = 1.0
            wheel[r, :, :, spaces_at:] = self.spaces[r]
            for space in range(c.WHEEL_SPACES):
                wheel[r, space, :, at["wheel.red"] - self.wheel_at + space] = 1.0
                wheel[r, :, space, at["wheel.blue"] - self.wheel_at + space] = 1.0
        self.wheel = wheel.reshape(c.WHEEL_SPACES**3, -1)
        """``(rotation * 8 + red) * 8 + blue`` -> the wheel's whole block (rotation, farmers, spaces)."""
        self.dice_at = at["dice"]
        front = np.zeros((c.ROUNDS, _PHASES, players, self.dice_at), dtype=np.float32)
        for r in range(c.ROUNDS):
            front[r, ..., at["round"]] = r + 1
        front[..., at["rounds"]] = c.ROUNDS
        for phase in range(_PHASES):
            front[:, phase, :, at["phase"] + phase] = 1.0
        front[:, :_OVER_PHASE, :, at["to_act"]] = 1.0  # the viewer is the seat to act (none once over)
        for k in range(players):
            front[:, :, k, at["start_player"] + k] = 1.0
        self.front = front.reshape(-1, self.dice_at)
        """``((round - 1) * 4 + phase) * players + start seat from the viewer`` -> the observation before the
        dice (round, rounds, phase, to act, start player); phase 3 is "over" (the schema's ``PHASES``)."""
        self.tail_at = at["collected"]
        animals = len(c.ANIMALS)
        tail = np.zeros((FARMS, 3, animals, animals, self.size - self.tail_at), dtype=np.float32)
        collected, collected_for = at["collected"] - self.tail_at, at["collected_for"] - self.tail_at
        for farm in range(FARMS):
            tail[farm, :, :, :, collected_for + farm] = 1.0
            for first in range(animals):
                tail[farm, 1:, first, :, collected + first] += 1.0
                for second in range(animals):
                    tail[farm, 2, first, second, collected + second] += 1.0
        self.tail = np.concatenate(
            [np.zeros((1, self.size - self.tail_at), dtype=np.float32), tail.reshape(-1, tail.shape[-1])]
        )
        """Row 0: a game not placing; row ``1 + ((farm * 3 + pending) * 11 + first) * 11 + second``: a game
        placing into ``farm`` with ``pending`` animals still to write (``first``, ``second``: their animal
        indices) -> the observation after the seats (collected animals, the farm; Emma's and the crop's
        zeros)."""
        labels = ["self", *(f"+{k}" for k in range(1, players))]
        self.seat_at = [at[f"players[{label}].milk"] for label in labels]
        grid = c.FARM_CELLS * self.codes
        seat_size = 1 + 2 * grid
        contiguous = (
            at["wheel.spaces[0]"] + c.WHEEL_SPACES * len(rl.ANIMAL_NAMES) == self.wheel_end
            and [at["wheel.red"], at["wheel.blue"], at["wheel.spaces[0]"]]
            == [self.wheel_at + k * c.WHEEL_SPACES for k in (1, 2, 3)]
            and all(at[f"players[{label}].red"] == self.seat_at[k] + 1 for k, label in enumerate(labels))
            and all(at[f"players[{label}].blue"] == self.seat_at[k] + 1 + grid for k, label in enumerate(labels))
            and self.seat_at == [self.wheel_end + k * seat_size for k in range(players)]
            and self.tail_at == self.wheel_end + players * seat_size
        )
        contiguous = contiguous and (
            max(at["round"], at["rounds"], at["phase"] + _PHASES - 1, at["to_act"], at["start_player"] + players - 1)
            < self.dice_at
            and at["milk_change"] == self.dice_at + c.DIE_FACES
            and self.wheel_at == at["milk_change"] + 1
        )
        if not contiguous:
            raise RuntimeError("the Tiny Farms RL schema changed: rl/tiny_farms_vector.py Layout needs updating")


def seat_blocks(state: dict[str, np.ndarray], layout: Layout) -> np.ndarray:
    """``(B, players, 1 + 32 * codes)`` float32: each seat's block of the observation (its milk, then its
    two farms cell by cell, one-hot), by absolute seat. :class:`ViewerObs` keeps them up to date move
    by move instead of building them again."""
    n, players, cells = state["boards"].shape
    out = np.empty((n, players, 1 + cells * layout.codes), dtype=np.float32)
    out[:, :, 0] = state["milk"]
    out[:, :, 1:] = layout.cell_rows[state["boards"]].reshape(n, players, -1)
    return out


class ViewerObs:
    """The last observation handed out, kept up to date move by move in one ``(B, obs_size)`` array
    (:attr:`last`): :meth:`update` writes what a decision changed into the seat blocks, and :meth:`observe`
    turns the seat blocks of the rows whose viewer changed, writes the wheel's animals of the rows whose wheel
    turned and the rest of the head and the tail of every row as a few short runs (:class:`_HeadWrites`), then
    copies the whole batch out in one piece (or hands out :attr:`shared`, the kept array itself, read-only).

    The seat blocks (milk and farms, in the viewer's seat order: itself first) change only where :func:`step`
    reports a ``put`` (two entries) or ``milk`` (one), written in place; a game that starts over gets the blocks
    every new game has (empty farms, the starting milk: the same for every seat). A Tiny Farms turn is several
    decisions of one player (a die, its animals, milk), so most games are seen by the same seat as one step
    earlier; where the seat to act changed, the row's seat blocks are rotated to the new viewer's order (for two
    players, swapped). The head (round, phase, dice, wheel ...) and tail (collected animals) are written for the
    viewer to act. It equals :func:`observe` (the stateless reference) by test.
    """

    def __init__(
        self, state: dict[str, np.ndarray], layout: Layout, dtype: Any = np.float32, previous: ViewerObs | None = None
    ) -> None:
        self.layout = layout
        self.dtype = np.dtype(dtype)
        n, players, _ = state["boards"].shape
        self.last: np.ndarray
        self.shared: np.ndarray
        if previous is not None and previous.last.shape == (n, layout.size) and previous.dtype == self.dtype:
            self.last, self.shared = previous.last, previous.shared  # the same arrays again (a reset env's)
            self.last.fill(0)
        else:
            self.last = np.zeros((n, layout.size), dtype=dtype)
            self.shared = self.last.view()
            self.shared.flags.writeable = False
        """:attr:`last`: the observation :meth:`observe` last gave (its seat blocks kept up to date by
        :meth:`update`; float32, or a whole-number type that holds the schema's bounds); :attr:`shared`: the
        same, read-only: ``observe(state, out=shared)`` brings it up to date and hands it out without a copy
        (nobody can write into the kept state). ``previous``: a former ``ViewerObs`` of the same shape whose
        two arrays are used again."""
        self._seat_size = 1 + c.BOARD_CELLS * layout.codes
        self._seats = np.ndarray(
            (n, players),
            np.dtype((np.void, self._seat_size * self.dtype.itemsize)),
            buffer=self.last,
            offset=layout.wheel_end * self.dtype.itemsize,
            strides=(self.last.strides[0], self._seat_size * self.dtype.itemsize),
        )
        """The seat blocks of :attr:`last` as ``(B, players)`` items (one item a seat)."""
        self._both = _spans(self.last, layout.wheel_end, players * self._seat_size)[:, 0]
        """All the seat blocks of each row of :attr:`last` as one item."""
        self.last_viewer = np.maximum(state["current"], 0)
        """The seat each row of :attr:`last` shows the game to (its seat blocks are in that seat's order)."""
        self._fill(state, np.arange(n))
        self.last_rotation = np.full(n, -1, dtype=np.int64)
        """The top wheel rotation whose animals each row of :attr:`last` shows (−1: none yet): the wheel's
        spaces (88 entries) are written again only where the wheel turned (a round end) or a game restarted."""
        self._empty_at = 1 + int(layout.cell_code[c.EMPTY])
        self._code_at = 1 + layout.cell_code
        """Board value -> its entry in a cell's one-hot, past the seat's milk entry."""
        self._offsets = np.array(
            [layout.wheel_end + (m - v) % players * self._seat_size for m in range(players) for v in range(players)]
        )
        """By ``mover * players + viewer``: where the mover's seat block starts in a row seen by ``viewer``."""
        self._head = _HeadWrites(layout, self.dtype, self.last)
        """The writes of everything but the seat blocks (:class:`_HeadWrites`)."""
        block = seat_blocks(new_games(players, [0]), layout)[0, 0].astype(self.dtype)
        self._new_seat = block.view(np.dtype((np.void, block.nbytes)))[0]
        """A new game's seat block (empty farms, the starting milk): every seat's, seen by any seat."""

    def _fill(self, state: dict[str, np.ndarray], lanes: np.ndarray) -> None:
        """The seat blocks of the games ``lanes`` from their state, in the order of :attr:`last_viewer`."""
        players = self.layout.players
        blocks = seat_blocks(take(state, lanes), self.layout).astype(self.dtype)
        order = (self.last_viewer[lanes, None] + np.arange(players)) % players
        seats = blocks[np.arange(len(lanes))[:, None], order]
        self._seats[lanes] = seats.view(self._seats.dtype).reshape(len(lanes), players)

    def update(
        self,
        mover: np.ndarray | None,
        kind: np.ndarray,
        a: np.ndarray,
        b: np.ndarray,
        lanes: tuple[np.ndarray, ...] | None = None,
    ) -> None:
        """Apply the decisions :func:`step` returned (``mover``: the seat that made each; ``None``: the seat each
        row of :attr:`last` shows, as when every step is observed: its own block, the first) to :attr:`last`.
        ``lanes``: what :func:`play` returned for them (the games of each kind), if the caller has it."""
        layout = self.layout
        players = layout.players
        last = self.last.reshape(-1)
        starts = _starts(len(kind), layout.size)
        milk, put = (np.flatnonzero(kind == K_MILK), np.flatnonzero(kind == K_PUT)) if lanes is None else lanes
        if len(put):
            at = starts[put]
            at += layout.wheel_end if mover is None else self._offsets[mover[put] * players + self.last_viewer[put]]
            at += b[put] * layout.codes
            last[at + self._empty_at] = 0
            last[at + self._code_at[a[put]]] = 1
        if len(milk):
            at = starts[milk]
            at += layout.wheel_end if mover is None else self._offsets[mover[milk] * players + self.last_viewer[milk]]
            last[at] -= 1

    def restart(self, state: dict[str, np.ndarray], lanes: np.ndarray) -> None:
        """The games ``lanes`` are new: their seat blocks again (a new game's, when their farms are empty and
        their milk the starting milk, as :func:`new_games` makes them; else from their state)."""
        boards, milk = state["boards"][lanes], state["milk"][lanes]
        self.last_viewer[lanes] = np.maximum(state["current"][lanes], 0)
        if (boards == c.EMPTY).all() and (milk == c.START_MILK).all():
            self._seats[lanes] = self._new_seat
        else:
            self._fill(state, lanes)
        self.last_rotation[lanes] = -1

    def observe(
        self, state: dict[str, np.ndarray], out: np.ndarray | None = None, key: np.ndarray | None = None
    ) -> np.ndarray:
        """``(B, obs_size)``: :func:`observe` of ``state`` (in :attr:`last`'s dtype), a fresh array, or
        written into ``out`` (``(B, obs_size)``, that dtype) and returned; ``out=self.shared``: no copy, the
        read-only view of :attr:`last` itself. ``key``: :func:`place_key` of ``state``, if the caller has it.

        Only what changed is written into :attr:`last` by whole rows: the seat blocks of the games whose viewer
        changed (turned to the new viewer's order), the wheel's animals of the games whose wheel turned; the rest
        of the head and the tail are a few short runs of every game, each one table look-up
        (:class:`_HeadWrites`); then the batch leaves in one copy."""
        last = self.last
        players = self.layout.players
        viewer = np.maximum(state["current"], 0)  # seat 0 once the game is over (``current`` is −1 then)
        moved = np.flatnonzero(viewer != self.last_viewer)
        if len(moved):
            if players == 2:  # both blocks as one item out, then swapped back in
                both = self._both[moved]
                self._seats[moved] = both.view(self._seats.dtype).reshape(-1, 2)[:, ::-1]
            else:  # block j shows seat viewer + j: the old block (j + shift) % players
                seats = self._seats[moved]
                shift = viewer[moved] - self.last_viewer[moved]
                order = (np.arange(players) + shift[:, None]) % players
                self._seats[moved] = seats[np.arange(len(moved))[:, None], order]
            self.last_viewer[moved] = viewer[moved]
        rotation = state["rotation"]
        turned = np.flatnonzero(rotation != self.last_rotation)
        if len(turned):
            self._head.spaces_into[turned] = self._head.spaces.take(rotation[turned])
            self.last_rotation[turned] = rotation[turned]
        self._head.write(state, viewer, place_key(state) if key is None else key)
        if out is None:
            fresh: np.ndarray = last.copy()
            return fresh
        if out is not self.shared:
            np.copyto(out, last)
        return out


def place_key(state: dict[str, np.ndarray]) -> np.ndarray:
    """Per game: what it is placing, as one index, ``(((placing * 2 + farm) * 3 + pending) * codes + first code)
    * codes + second code`` (``placing``: its phase is PLACE; ``pending``: the animals still to write; the codes
    are board values, ``len(ABBREVIATIONS)`` of them): the observation's tail (:class:`_HeadWrites`) and the
    mask's put blocks (:class:`KeptMask`) are look-ups of it."""
    codes = len(c.ABBREVIATIONS)
    pending = state["pending"]
    key: np.ndarray = (state["phase"] == PLACE) * FARMS + state["farm"]
    key *= 3
    key += state["pending_n"]
    key *= codes
    key += pending[:, 0]
    key *= codes
    key += pending[:, 1]
    return key


class _HeadWrites:
    """Everything of an observation but the seat blocks and the wheel's animals, written into every row of a
    kept ``(B, obs_size)`` array as a few runs of at most 16 entries, each run one item per game (runs of 8 or
    16 bytes copy as whole words: an int8 step writes them in a few microseconds a thousand games).

    The runs, in the order written (a later one overwrites what an earlier one wrote past its own part):
    round/phase/to act/start player (:attr:`Layout.front` padded with zeros to 16 entries), the dice (int8:
    the game's 8-byte ``dice`` word itself), the milk change, the rotation and red farmer (16 entries), the
    blue farmer (8), and the tail's first 16 entries (collected animals and their farm; the rest of the tail
    is Emma's and the crop's zeros, never written). Each table is indexed by raw state values (phase as the
    simulator numbers it, pending animals as board codes), so the indices are a few whole-batch operations."""

    def __init__(self, layout: Layout, dtype: np.dtype[Any], last: np.ndarray) -> None:
        players, animals, w = layout.players, len(c.ANIMALS), c.WHEEL_SPACES
        run = 16
        if not layout.dice_at <= run <= layout.dice_at + c.DIE_FACES or layout.size - layout.tail_at < run:
            raise RuntimeError("the Tiny Farms RL schema changed: rl/tiny_farms_vector.py _HeadWrites needs updating")
        tail = layout.tail.reshape(-1, layout.size - layout.tail_at)
        if tail[:, run:].any():
            raise RuntimeError("the Tiny Farms RL schema changed: the tail has entries past its first 16")
        self.dtype = dtype
        self.players = players
        # front: by ((round * 3 + raw phase) * players + start seat) * players + viewer (round 0: unused zeros)
        front = np.zeros((c.ROUNDS + 1, 3, players, players, run), dtype=dtype)
        shown = layout.front.reshape(c.ROUNDS, _PHASES, players, -1)
        for raw, phase in ((MOVE, 0), (PLACE, 1), (OVER, _OVER_PHASE)):
            for start in range(players):
                for viewer in range(players):
                    front[1:, raw, start, viewer, : layout.dice_at] = shown[:, phase, (start - viewer) % players]
        self.front = _items(front.reshape(-1, run))
        wheel = layout.wheel.reshape(w, w, w, -1).astype(dtype)
        self.rot_red = _items(wheel[:, :, 0, : 2 * w].reshape(w * w, -1))
        """By ``rotation * 8 + red``: the rotation's and the red farmer's one-hots."""
        self.blue = _items(wheel[0, 0, :, 2 * w : 3 * w])
        self.spaces = _items(wheel[:, 0, 0, 3 * w :])
        """By rotation: the animals every wheel space shows (written where the wheel turned: the caller)."""
        # tail: by ((placing * 2 + farm) * 3 + pending) * codes + first code) * codes + second code
        codes = len(c.ABBREVIATIONS)
        index = np.full(codes, 0, dtype=np.int64)
        valid = layout.animal_index >= 0
        index[valid] = layout.animal_index[valid]
        tail_rows = np.zeros((2, FARMS, 3, codes, codes), dtype=np.int64)
        for farm in range(FARMS):
            for count in range(3):  # the animals still to write (a pending code past them is ignored)
                first = index[:, None] if count >= 1 else 0
                second = index[None, :] if count >= 2 else 0
                tail_rows[1, farm, count] = 1 + ((farm * 3 + count) * animals + first) * animals + second
        self.tail = _items(tail[tail_rows.reshape(-1), :run].astype(dtype))
        self.codes = codes
        self.front_into = _spans(last, 0, run)[:, 0]
        self.dice_into = _spans(last, layout.dice_at, _DICE_WIDTH)[:, 0] if dtype.itemsize == 1 else None
        self.dice_at = layout.dice_at
        self.milk_at = layout.dice_at + c.DIE_FACES
        self.rot_red_into = _spans(last, layout.wheel_at, 2 * w)[:, 0]
        self.blue_into = _spans(last, layout.wheel_at + 2 * w, w)[:, 0]
        self.spaces_into = _spans(last, layout.wheel_at + 3 * w, layout.wheel_end - layout.wheel_at - 3 * w)[:, 0]
        self.tail_into = _spans(last, layout.tail_at, run)[:, 0]
        self.last = last

    def write(self, state: dict[str, np.ndarray], viewer: np.ndarray, key: np.ndarray) -> None:
        """Write the runs of every game (``viewer``: the seat each row is seen by; ``key``: :func:`place_key`)."""
        players = self.players
        front = state["round"] * 3
        front += state["phase"]
        front *= players
        front += state["start"]
        front *= players
        front += viewer
        self.front_into[:] = self.front.take(front)
        if self.dice_into is not None:  # one byte an entry: the dice word itself (face v at v - 1)
            self.dice_into[:] = state["dice"].view(np.dtype((np.void, _DICE_WIDTH)))[:, 0]
        else:
            self.last[:, self.dice_at : self.milk_at] = state["dice"][:, : c.DIE_FACES]
        self.last[:, self.milk_at] = state["modifier"]
        wheel = state["rotation"] * c.WHEEL_SPACES
        wheel += state["red"]
        self.rot_red_into[:] = self.rot_red.take(wheel)
        self.blue_into[:] = self.blue.take(state["blue"])
        self.tail_into[:] = self.tail.take(key)


def _head_rows(state: dict[str, np.ndarray], layout: Layout) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Each game's rows of :attr:`Layout.front`, :attr:`Layout.wheel` and :attr:`Layout.tail`, and its viewer
    (the seat to act; seat 0 once the game is over)."""
    players, animals = layout.players, len(c.ANIMALS)
    phase = state["phase"]
    over = phase == OVER
    viewer = np.where(over, 0, state["current"])
    shown_phase = np.where(over, _OVER_PHASE, phase)
    front = ((state["round"] - 1) * _PHASES + shown_phase) * players + (state["start"] - viewer) % players
    wheel = (state["rotation"] * c.WHEEL_SPACES + state["red"]) * c.WHEEL_SPACES + state["blue"]
    pending, count = state["pending"], state["pending_n"]
    first = np.where(count >= 1, layout.animal_index[pending[:, 0]], 0)
    second = np.where(count >= 2, layout.animal_index[pending[:, 1]], 0)
    tail = np.where(phase == PLACE, 1 + ((state["farm"] * 3 + count) * animals + first) * animals + second, 0)
    return (front, wheel, tail), viewer


def _dice_and_milk(state: dict[str, np.ndarray], layout: Layout, into: np.ndarray) -> None:
    """Write the dice shown (how many of each value) and the milk change into the head of ``into``."""
    into[:, layout.dice_at : layout.dice_at + c.DIE_FACES] = state["dice"][:, : c.DIE_FACES]
    into[:, layout.dice_at + c.DIE_FACES] = state["modifier"]


def _head_tail(
    state: dict[str, np.ndarray], layout: Layout, dtype: Any = np.float32
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The observation before the seats (``[0, wheel_end)``: round ... the wheel) and after them
    (``[tail_at, obs_size)``: collected animals, Emma's and the crop's zeros), in ``dtype``, and each game's
    viewer: three table rows (:func:`_head_rows`), the dice and the milk change."""
    n = len(state["phase"])
    (front, wheel, tail), viewer = _head_rows(state, layout)
    head = np.empty((n, layout.wheel_end), dtype=dtype)
    head[:, : layout.dice_at] = layout.front[front]
    _dice_and_milk(state, layout, head)
    head[:, layout.wheel_at :] = layout.wheel[wheel]
    return head, layout.tail[tail].astype(dtype), viewer


def observe(state: dict[str, np.ndarray], layout: Layout) -> np.ndarray:
    """``(B, obs_size)`` float32: each game's observation for the seat to act (seat 0 once it is over).

    The same numbers as ``spec("tiny-farms", players).observe(engine_state, to_act)``, built from the
    state alone (:class:`ViewerObs` keeps them up to date move by move instead: the vector env's way).
    """
    players = layout.players
    n = len(state["phase"])
    lanes = np.arange(n)
    out = np.empty((n, layout.size), dtype=np.float32)
    head, tail, viewer = _head_tail(state, layout)
    out[:, : layout.wheel_end] = head
    blocks = seat_blocks(state, layout)
    seats = (viewer[:, None] + np.arange(players)) % players
    out[:, layout.wheel_end : layout.tail_at] = blocks[lanes[:, None], seats].reshape(n, -1)
    out[:, layout.tail_at :] = tail
    return out


def action_mask(
    state: dict[str, np.ndarray], layout: Layout, found: Options | None = None, out: np.ndarray | None = None
) -> np.ndarray:
    """``(B, actions)`` int8: the legal catalogue actions of the seat to act (``Spec.legal_and_mask``), a
    fresh array or written into ``out`` (``(B, actions)`` int8) and returned.

    The catalogue's move actions (milk, then each die value for the red and the blue farmer) come first
    and depend only on the usable die values and the two milk moves: they are one row of a table of
    their 2**8 cases (:attr:`Layout.move_rows`, by :attr:`Options.case`). A put action is an animal, a
    farm and a space: the 16 spaces of one farm for one pending animal are one block, which is the
    farm's empty-space mask as bytes; a game not placing writes a zero block. Rows and blocks are
    written as whole items (:func:`_spans`).
    """
    found = options(state) if found is None else found
    n = len(found.legal)
    lanes = np.arange(n)
    if out is None:
        mask = np.zeros((n, len(layout.index)), dtype=np.int8)
    else:
        mask = out
        mask.fill(0)
    put_at = layout.put_at
    _spans(mask, 0, put_at)[:, 0] = layout.move_items[found.case]
    blocks = _spans(mask, put_at, c.FARM_CELLS, (mask.shape[1] - put_at) // c.FARM_CELLS)  # (B, animal * 2 + farm)
    rows = _block_rows(found.free)
    pending = state["pending"]
    placing = found.kinds > 0
    first = np.where(placing, layout.animal_index[pending[:, 0]] * FARMS + state["farm"], 0)
    blocks[lanes, first] = rows
    second = np.where(found.kinds == 2, layout.animal_index[pending[:, 1]] * FARMS + state["farm"], first)
    blocks[lanes, second] = rows
    return mask


class KeptMask:
    """Every game's catalogue mask (:func:`action_mask`) kept in one int8 array and brought up to date in
    place (the vector env's way): a game writes its move actions and its (at most two) put blocks.

    A row is the move actions (the first :attr:`Layout.put_at` entries) then one 16-entry put block per
    (animal, farm). A put block is written as the three 8-byte words of the array's buffer around it (its
    aligned window, as two overlapping 16-byte items: numpy scatters aligned 16-byte items several times faster
    than 16-byte items at odd places, which is all a row of 366 bytes offers). The window also covers a few bytes
    either side of the block, written with zeros: the neighbouring blocks, which are never legal in the same
    step (the two put blocks of a game are an even number of blocks apart: the same farm, two animals), or the
    move actions, which are written after the blocks, every row, so they come out right; the buffer has a word
    past the last row. Each :meth:`write` clears last step's windows (cheaper than clearing the whole array),
    writes the windows of the games placing (the others have no put block), then each game's move actions as
    one 14-byte run (a row of :attr:`Layout.move_rows`; zeros for a game placing or over). The legal moves come
    straight from the state by table look-ups (the move case by (dice shown, milk change, milk left, phase);
    the blocks by :func:`place_key`), no :class:`Options` needed."""

    def __init__(self, layout: Layout, n: int) -> None:
        t = tables()
        run = c.FARM_CELLS
        put_at = layout.put_at
        width = len(layout.index)
        if put_at > run or (width - put_at) % run:
            raise RuntimeError("the Tiny Farms RL catalogue changed: rl/tiny_farms_vector.py KeptMask needs updating")
        self._words = np.zeros((n * width + 2 * _WORD) // _WORD, dtype=np.uint64)
        """The buffer, as 8-byte words (one word more than the rows need: the last window's spill)."""
        self.mask = self._words.view(np.int8)[: n * width].reshape(n, width)
        self.shared = self.mask.view()
        self.shared.flags.writeable = False
        """:attr:`mask`, read-only (what a ``copy=False`` env hands out)."""
        # by move index * 3 + raw phase (the move index as :class:`Tables` has it): the mask's move actions
        cases = np.zeros((len(t.move_case), 3), dtype=np.int64)
        cases[:, MOVE] = t.move_case
        moves = np.zeros((len(layout.move_rows), run), dtype=np.int8)  # padded to 16 bytes: taken faster
        moves[:, :put_at] = layout.move_rows
        self._moves = _items(moves)[cases.reshape(-1)]
        self._moves_into = _spans(self.mask, 0, put_at)[:, 0]
        start = np.arange(n, dtype=np.int64) * width + put_at  # each row's block 0, as a byte of the buffer
        self._word_at = start // _WORD
        """Per game: the word that holds the start of its block 0 (a block is two words further than the last)."""
        self._shift = ((start % _WORD) * 8).astype(np.uint64)
        self._back = np.uint64(64) - self._shift
        """Per game: how far (in bits) its blocks start past a word's start, and 64 minus that."""
        codes = len(c.ABBREVIATIONS)
        block = np.where(layout.animal_index >= 0, layout.animal_index, 0) * FARMS  # by pending code
        first = np.zeros((2, FARMS, 3, codes, codes), dtype=np.int64)
        second = np.zeros_like(first)
        for farm in range(FARMS):
            first[1, farm, 1:] = (block + farm)[:, None]
            first[1, farm, 2] = (block + farm)[:, None]
            second[1, farm, 1:] = first[1, farm, 1:]
            second[1, farm, 2] = (block + farm)[None, :]
        words = run // _WORD
        self._first, self._second = first.reshape(-1) * words, second.reshape(-1) * words
        """By :func:`place_key`: how many words past a row's block 0 the put blocks of the pending animals
        start (the second equals the first when one animal, or two of a kind, are pending; block 0 when not
        placing)."""
        pair = np.dtype((np.void, 2 * _WORD))
        self._pairs = np.ndarray((len(self._words) - 1,), pair, buffer=self._words, strides=(_WORD,))
        """Every two consecutive words of the buffer as one 16-byte item, by its first word (overlapping items:
        numpy scatters aligned 16-byte items from a contiguous source fastest)."""
        self._head = np.zeros((n, 2), dtype=np.uint64)
        self._tail = np.zeros((n, 2), dtype=np.uint64)
        self._zeros = _items(np.zeros((n, 2), dtype=np.uint64))
        """Each game's window (three words: the block shifted to its place) as its words 0-1 and 1-2, and zeros."""
        self._last: tuple[np.ndarray, ...] = ()
        """The windows written last (their first words), cleared by the next :meth:`write`."""
        self._milk_at = np.arange(0, n * layout.players, layout.players)
        self._farm_at = np.arange(0, n * layout.players * FARMS, layout.players * FARMS)

    def write(self, state: dict[str, np.ndarray], key: np.ndarray | None = None) -> np.ndarray:
        """Bring :attr:`mask` up to date with ``state`` (every game) and return it (``key``: :func:`place_key`
        of ``state``, if the caller has it)."""
        key = place_key(state) if key is None else key
        phase = state["phase"]
        cur = np.maximum(state["current"], 0)
        has_milk = state["milk"].reshape(-1)[self._milk_at + cur] > 0
        case = state["shown"] * _MOD_SPAN
        case += np.minimum(np.maximum(state["modifier"], _MOD_LOW), _MOD_HIGH)
        case -= _MOD_LOW
        case *= 2
        case += has_milk
        case *= 3
        case += phase
        lanes = np.flatnonzero(phase == PLACE)  # the games with put blocks
        cur = cur[lanes]
        cur *= FARMS
        cur += self._farm_at[lanes]
        cur += state["farm"][lanes]
        free = state["free"].reshape(-1)[cur]
        bytes8 = tables().bytes8
        low, high = bytes8.take(free & 0xFF), bytes8.take(free >> 8)  # the block: 16 bytes of 0/1
        m = len(lanes)
        head, tail = self._head[:m], self._tail[:m]  # the window's words 0-1 and 1-2 (``>> 64`` gives 0)
        shift, back = self._shift[lanes], self._back[lanes]
        np.left_shift(low, shift, out=head[:, 0])
        np.left_shift(high, shift, out=tail[:, 0])
        tail[:, 0] |= low >> back
        head[:, 1] = tail[:, 0]
        np.right_shift(high, back, out=tail[:, 1])
        pairs, zeros = self._pairs, self._zeros
        for at in self._last:  # last step's windows: zeros
            pairs[at] = zeros[: len(at)]
            pairs[at + 1] = zeros[: len(at)]
        key = key[lanes]
        word_at = self._word_at[lanes]
        first = word_at + self._first.take(key)
        second = word_at + self._second.take(key)
        head_items, tail_items = _items(head), _items(tail)
        for at in (first, second):
            pairs[at] = head_items
            pairs[at + 1] = tail_items
        self._last = (first, second)
        moves = self._moves.take(case)  # last: it mends the bytes a window spilt into
        self._moves_into[:] = np.ndarray(moves.shape, self._moves_into.dtype, buffer=moves, strides=moves.strides)
        return self.mask


# --- Final scoring, batched (RULEBOOK "Game End"; ``scoring.score_players`` array by array) -----------

FARM_BITS: Final = np.int64(1) << np.arange(c.FARM_CELLS, dtype=np.int64)
"""Bit ``i`` of a farm's mask is its cell ``i`` (``scoring._mask``)."""


@cache
def set_tables() -> tuple[np.ndarray, np.ndarray]:
    """Pig and sheep points of every one-farm mask (``2**16`` each), from the engine's own
    ``scoring.pig_points`` / ``sheep_points`` (about 0.2 s once; the best partition into sets)."""
    masks = range(1 << c.FARM_CELLS)
    pigs = np.array([scoring.pig_points(m) for m in masks], dtype=np.int64)
    sheep = np.array([scoring.sheep_points(m) for m in masks], dtype=np.int64)
    return pigs, sheep


@cache
def herd_groups() -> np.ndarray:
    """``(2**16, 8)``: the adjacent groups of every one-farm mask, as masks (0 past the last group).

    Built once (well under a second) for all masks at once by flooding from each group's lowest cell,
    one ring of the engine's orthogonal neighbours (``scoring.NEIGHBOUR_MASKS``) at a time; a 4x4 farm
    has at most 8 separate groups."""
    byte_ring = np.zeros((2, 256), dtype=np.int64)  # the neighbours of the cells of one byte of a mask
    for half in range(2):
        for cells in range(256):
            for bit in range(8):
                if cells >> bit & 1:
                    byte_ring[half, cells] |= scoring.NEIGHBOUR_MASKS[half * 8 + bit]
    rest = np.arange(1 << c.FARM_CELLS, dtype=np.int64)
    groups = np.zeros((len(rest), 8), dtype=np.int64)
    for j in range(groups.shape[1]):
        group = rest & -rest  # the lowest cell left
        while True:
            grown = (group | byte_ring[0, group & 0xFF] | byte_ring[1, group >> 8]) & rest
            if np.array_equal(grown, group):
                break
            group = grown
        groups[:, j] = group
        rest &= ~group
    if rest.any():
        raise RuntimeError("a farm mask with more than 8 groups: rl/tiny_farms_vector.herd_groups needs more")
    return groups


def cow_points(farms: np.ndarray) -> np.ndarray:
    """``scoring.cow_points`` of every farm of ``farms`` (``(..., 16)`` cell codes).

    The adjacent groups of cows and calves are one look-up of the herd's mask (:func:`herd_groups`);
    every cow scores 1 per calf of its group (``CALVES_PER_SPACE`` calves a space).
    """
    cows = (farms == c.COW) @ FARM_BITS
    calves = (farms == c.CALVES) @ FARM_BITS
    groups = herd_groups()[cows | calves]  # (..., 8)
    popcount = tables().popcount
    per_group = popcount[groups & cows[..., None]].astype(np.int64) * popcount[groups & calves[..., None]]
    points: np.ndarray = per_group.sum(axis=-1) * c.CALVES_PER_SPACE
    return points


def forest_points(counts: np.ndarray) -> np.ndarray:
    """``scoring.forest_points`` of ``counts`` (``(..., 5)`` Forest Friends of each kind): the ``k``-th
    set holds every kind with at least ``k`` friends.

    With the counts sorted from most to fewest (``s_0 >= s_1 >= ...``, ``s_5 = 0``), the sets
    ``s_{i+1} + 1 .. s_i`` hold ``i + 1`` kinds each, so the total is ``sum_i (s_i - s_{i+1}) *
    points[i + 1]`` (sets of more kinds than the table lists score its last entry)."""
    table = np.array(c.FOREST_SET_POINTS, dtype=np.int64)
    ordered = -np.sort(-counts, axis=-1)  # most first
    runs = ordered - np.concatenate([ordered[..., 1:], np.zeros_like(ordered[..., :1])], axis=-1)
    points = table[np.minimum(np.arange(1, counts.shape[-1] + 1), len(table) - 1)]
    out: np.ndarray = runs @ points
    return out


def horse_points(horses: np.ndarray, min_horses: int) -> np.ndarray:
    """``scoring.horse_points`` of every game (``(B, players)`` horse counts)."""
    players = horses.shape[1]
    ranked = horses >= min_horses
    first = np.where(ranked, horses, -1).max(axis=1, keepdims=True)
    firsts = ranked & (horses == first)
    alone = firsts.sum(axis=1, keepdims=True) == 1
    second = np.where(ranked & (horses < first), horses, -1).max(axis=1, keepdims=True)
    seconds = alone & (second >= 0) & ranked & (horses == second)
    second_value = c.HORSE_SECOND_POINTS_TWO_PLAYERS if players == 2 else c.HORSE_SECOND_POINTS
    out: np.ndarray = c.HORSE_FIRST_POINTS * firsts + second_value * seconds
    return out


def score(boards: np.ndarray, milk: np.ndarray, variants: tuple[str, ...] = ()) -> np.ndarray:
    """``(B, players)`` final totals of the boards ``(B, players, 32)`` and milk ``(B, players)``:
    ``scoring.score_players(boards, milk).totals`` of every game (``horses-zero-ranks``: 0 horses rank).

    How many cells of each kind every farm has is one ``bincount``; pigs and sheep score from their
    farm masks (:func:`set_tables`), cows from the herd's groups (:func:`cow_points`)."""
    check_setup(boards.shape[1], variants)
    least = 0 if rules.HORSES_ZERO_RANKS in variants else c.MIN_HORSES_TO_SCORE
    pig_table, sheep_table = set_tables()
    n, players = boards.shape[:2]
    farms = boards.reshape(n, players, FARMS, c.FARM_CELLS)
    kinds = max(len(c.ABBREVIATIONS), int(boards.max(initial=0)) + 1)
    slots = np.arange(n * players * FARMS)[:, None] * kinds + farms.reshape(-1, c.FARM_CELLS)
    counts = np.bincount(slots.ravel(), minlength=n * players * FARMS * kinds).reshape(n, players, FARMS, kinds)
    total = pig_table[(farms == c.PIG) @ FARM_BITS] + sheep_table[(farms == c.SHEEP) @ FARM_BITS]
    total += c.CHICKEN_POINTS * counts[..., c.CHICKEN] + cow_points(farms)
    used = c.FARM_CELLS - counts[..., c.EMPTY] - counts[..., c.CROSSED]
    board = counts.sum(axis=2)  # (B, P, kinds)
    out: np.ndarray = (
        total.sum(axis=-1)
        + horse_points(board[..., c.HORSE], least)
        + forest_points(board[..., list(c.FOREST_FRIENDS)])
        + c.MILK_POINTS * milk
        - c.BALANCE_PENALTY * np.abs(used[..., 0] - used[..., 1])
    )
    return out


def places(totals: np.ndarray, milk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every seat: how many seats rank below it and how many above (most points, then most unused
    milk; equal keys share a place: ``core.rank_by`` of ``(total, milk)``)."""
    key = totals * (c.START_MILK + 1) + milk  # milk is 0..START_MILK: the same order as the tuple
    below_me = (key[:, None, :] < key[:, :, None]).sum(axis=2)
    above_me = (key[:, None, :] > key[:, :, None]).sum(axis=2)
    return below_me, above_me


def notation(kind: int, a: int, b: int) -> str:
    """The engine's notation of a decision :func:`step` reported."""
    if kind == K_MILK:
        return rules.MILK_UP if a > 0 else rules.MILK_DOWN
    if kind == K_DIE:
        return rules.DIE_ACTIONS[a][b]
    if kind == K_PUT:
        return rules.PUT_ACTIONS[a][b]
    raise ValueError(f"no decision of kind {kind}")


__all__ = [
    "U64",
    "KeptMask",
    "Layout",
    "ViewerObs",
    "action_mask",
    "check_setup",
    "cow_points",
    "decode",
    "forest_points",
    "herd_groups",
    "horse_points",
    "legal_count",
    "new_games",
    "notation",
    "observe",
    "options",
    "pick_random",
    "places",
    "play",
    "play_random",
    "score",
    "seat_blocks",
    "set_tables",
    "step",
]
