"""Building blocks of the fast encoders (issue 16): observations assembled from precomputed bytes.

A fast encoder (``RLGame.fast``) writes a seat's observation straight from the state's fields. Setting
numpy entries one by one costs about half a microsecond each, and turning a Python list into an array
costs more than the game's own move; so the fast encoders build the float32 vector as *bytes*: every
block (a one-hot, a number, a seat-relative set, a cached board) is a precomputed ``bytes`` object, the
blocks are joined in order (``b"".join``, one C call) and copied into the array in one ``memcpy``
(:func:`write`). A block whose inputs repeat (a board that has not changed since the last move, the
dice) is cached by those inputs in a bounded :class:`Memo`.

Every block here is the byte image of exactly what the schema encoder (:mod:`farmtable.rl.encoding`)
appends for the same value; ``tests/rl/test_fast_path.py`` checks the joined whole against the
view-based encoding on random positions.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import numpy as np

FLOAT = struct.Struct("=f")
"""One float32 in the machine's byte order (numpy's ``float32``)."""
WIDTH = FLOAT.size
MEMO_SIZE = 20_000
"""How many entries a :class:`Memo` keeps before it starts over (a few MB at most per memo)."""

_NUMBERS: dict[float, bytes] = {}


def num(value: float) -> bytes:
    """The 4 bytes of ``float(value)`` as float32 (small numbers are looked up, not packed)."""
    known = _NUMBERS.get(value)
    if known is None:
        known = FLOAT.pack(float(value))
        if len(_NUMBERS) < MEMO_SIZE:
            _NUMBERS[value] = known
    return known


NUM: tuple[bytes, ...] = tuple(num(i) for i in range(256))
"""``NUM[i]``: the bytes of the small whole number ``i`` (a tuple index is the cheapest look-up)."""
ONE = NUM[1]
ZERO = NUM[0]


def zeros(count: int) -> bytes:
    """``count`` float32 zeros."""
    return bytes(WIDTH * count)


_PACKERS: dict[int, Callable[..., bytes]] = {}


def floats(values: Sequence[float]) -> bytes:
    """The float32 bytes of ``values`` (numbers: ints and bools are packed as floats)."""
    pack = _PACKERS.get(len(values))
    if pack is None:
        pack = _PACKERS[len(values)] = struct.Struct(f"={len(values)}f").pack
    return pack(*values)


def one_hot(size: int, index: int | None) -> bytes:
    """A one-hot block of ``size`` with a 1 at ``index`` (``None``: all zeros)."""
    block = [0.0] * size
    if index is not None:
        block[index] = 1.0
    return floats(block)


def one_hots(values: Sequence[Hashable]) -> dict[Any, bytes]:
    """``{value: its one-hot block}`` over ``values``, and ``None`` -> zeros (``OneHot`` of the schema)."""
    out: dict[Any, bytes] = {v: one_hot(len(values), i) for i, v in enumerate(values)}
    out[None] = zeros(len(values))
    return out


def counts(values: Sequence[Hashable], items: Iterable[Hashable]) -> bytes:
    """One count per entry of ``values`` of the ``items`` (``Counts`` of the schema); an unknown item is a
    ``KeyError`` as in the schema encoder."""
    index = {v: i for i, v in enumerate(values)}
    block = [0.0] * len(values)
    for item in items:
        block[index[item]] += 1.0
    return floats(block)


def seat_sets(players: int) -> list[list[bytes]]:
    """``[viewer][seat]``: the seat-relative one-hot of ``seat`` as ``viewer`` sees it (``Seat``); the
    ``SeatSet`` of several seats is the sum, see :func:`seat_set`."""
    return [[one_hot(players, (seat - viewer) % players) for seat in range(players)] for viewer in range(players)]


def seat_set(players: int, viewer: int, seats: Iterable[int]) -> bytes:
    """The 0/1-per-seat block of ``seats`` relative to ``viewer`` (``SeatSet`` of the schema)."""
    block = [0.0] * players
    for seat in seats:
        block[(seat - viewer) % players] = 1.0
    return floats(block)


def seat_set_memo(players: int) -> Callable[[int, list[int]], bytes]:
    """:func:`seat_set` for ``players`` seats, remembered by (viewer, seats)."""
    memo: dict[tuple[int, tuple[int, ...]], bytes] = {}

    def block(viewer: int, seats: list[int]) -> bytes:
        key = (viewer, tuple(seats))
        known = memo.get(key)
        if known is None:
            known = memo[key] = seat_set(players, viewer, key[1])
        return known

    return block


def rotations(players: int) -> list[list[int]]:
    """``[viewer]``: the seats in observation order (``self``, ``+1`` ...), as ``BySeat`` lists them."""
    return [[(viewer + k) % players for k in range(players)] for viewer in range(players)]


class Memo(dict[Any, bytes]):
    """A bounded cache of blocks by their inputs: ``memo.get(key)`` or ``memo.add(key, block)``.

    It starts over when full (random play meets many boards; recent ones repeat).
    """

    def add(self, key: Hashable, block: bytes) -> bytes:
        """Remember ``block`` under ``key`` and return it."""
        if len(self) >= MEMO_SIZE:
            self.clear()
        self[key] = block
        return block


def memoized(build: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """``build`` with its results kept in a :class:`Memo` by the (hashable) argument."""
    memo = Memo()

    def cached(key: Any) -> bytes:
        block = memo.get(key)
        if block is None:
            block = memo.add(key, build(key))
        return block

    return cached


def write(out: np.ndarray, parts: list[bytes]) -> None:
    """Copy the joined ``parts`` into ``out`` (a C-contiguous float32 array of exactly their length).

    A wrong length or dtype raises ``ValueError``/``TypeError`` and leaves ``out`` unchanged.
    """
    memoryview(out).cast("B")[:] = b"".join(parts)  # type: ignore[arg-type]  # an ndarray is a buffer


def from_joined(joined: Callable[[Any, int], bytes]) -> Callable[[Any, int, np.ndarray], None]:
    """The fast encoder (``encode(state, player, out)``) of a function that returns the observation's bytes.

    ``joined(state, player)`` returns the whole observation as float32 bytes (its blocks joined). The
    encoder copies them into ``out`` and carries two attributes the adapters use:

    - ``joined``: the function itself, so an adapter that keeps one array per seat can copy the bytes
      through a byte view of that array it made once (a new ``memoryview(...).cast`` costs about as much
      as the copy itself);
    - ``fresh(state, player)``: the observation as a new writable float32 array over a ``bytearray`` of
      the bytes (one copy; cheaper than ``np.empty`` and a copy into it).
    """

    def encode(state: Any, player: int, out: np.ndarray) -> None:
        memoryview(out).cast("B")[:] = joined(state, player)  # type: ignore[arg-type]  # an ndarray is a buffer

    def fresh(state: Any, player: int) -> np.ndarray:
        return np.frombuffer(bytearray(joined(state, player)), dtype=np.float32)

    encode.joined = joined  # type: ignore[attr-defined]
    encode.fresh = fresh  # type: ignore[attr-defined]
    return encode
