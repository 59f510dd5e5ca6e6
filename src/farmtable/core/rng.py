"""The random number generator that lives inside every game state.

All chance in a game (shuffles, die rolls, draws by lot) comes from one :class:`Rng`
stored in the state and serialized with it, so that the same seed and the same
actions give the same game, bit for bit, and a saved game resumes exactly.

Two generators share the class, and both are one integer of state:

- a seed below 2**64 (``Rng(7)``, what tests, benchmarks and ``--seed`` use) runs SplitMix64:
  fast, reproducible, but guessable by anyone who can try every seed;
- a larger seed (``Rng.unpredictable()``, what tables and seedless games use: 128 random bits
  from :mod:`secrets`) runs BLAKE2b keyed with the seed over a block counter. Its outputs say
  nothing usable about the key, so watching cards leave a deck does not reveal the rest.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15
_KEYED = 1 << 320
"""Marks the state of a keyed generator: ``_KEYED | key << 64 | outputs drawn so far``."""
_KEY_BITS = 256
_PER_BLOCK = 8
"""64-bit outputs per BLAKE2b block (a 64-byte digest)."""
UNPREDICTABLE_SEED_BITS = 128
"""Random bits in the seed of an unpredictable generator."""
MAX_STATE = (_KEYED << 1) - 1
"""The largest state an Rng (and so a save) can hold."""


class Rng:
    """A small, seedable, serializable random number generator (SplitMix64, or keyed BLAKE2b).

    ``Rng(seed)``: a seed below 2**64 gives SplitMix64; a larger one a keyed generator; a
    saved ``state`` gives the generator back exactly (``Rng(rng.state)``). ``Rng()`` is
    :meth:`unpredictable`.
    """

    __slots__ = ("_block", "_key", "state")

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = unpredictable_seed()
        if seed < 0 or seed > MAX_STATE:
            raise ValueError(f"an Rng seed or state is a whole number in 0..2**321-1, got {seed}")
        if seed >= _KEYED:
            self.state = seed
        elif seed > _MASK64:
            self.state = _KEYED | (seed & ((1 << _KEY_BITS) - 1)) << 64
        else:
            self.state = seed
        self._key: bytes | None = None
        self._block: tuple[int, list[int]] | None = None
        if self.state >= _KEYED:
            key = (self.state >> 64) & ((1 << _KEY_BITS) - 1)
            self._key = key.to_bytes(_KEY_BITS // 8, "little")

    @classmethod
    def unpredictable(cls) -> Rng:
        """A keyed generator on 128 fresh random bits: no one can guess or recompute its draws."""
        return cls(unpredictable_seed())

    @property
    def keyed(self) -> bool:
        """True for the keyed (unpredictable) generator, False for SplitMix64."""
        return self._key is not None

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        if self._key is not None:
            return self._keyed_next()
        self.state = z = (self.state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def _keyed_next(self) -> int:
        drawn = self.state & _MASK64
        block, offset = divmod(drawn, _PER_BLOCK)
        cached = self._block
        if cached is None or cached[0] != block:
            digest = hashlib.blake2b(block.to_bytes(8, "little"), key=self._key or b"", digest_size=64).digest()
            cached = (block, [int.from_bytes(digest[i : i + 8], "little") for i in range(0, 64, 8)])
            self._block = cached
        self.state = (self.state & ~_MASK64) | ((drawn + 1) & _MASK64)
        return cached[1][offset]

    def below(self, n: int) -> int:
        """Return a uniform integer in ``0 .. n-1`` (``n >= 1``), without modulo bias."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Return a uniform integer in ``low .. high`` inclusive (a die is ``randint(1, 6)``)."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """Return a float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle a list in place (Fisher-Yates): position ``i``, from the last down to 1, swaps with
        ``below(i + 1)``. SplitMix64's draws are written out in the loop (no call per card): the same
        numbers, the same swaps and the same final state as that plain loop (``plain_shuffle``)."""
        if self._key is not None:
            self.plain_shuffle(items)
            return
        state = self.state
        try:
            for i in range(len(items) - 1, 0, -1):
                n = i + 1
                limit = _TWO64 - _TWO64 % n  # below(n), with next64() inline
                while True:
                    state = (state + _GOLDEN) & _MASK64
                    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                    z ^= z >> 31
                    if z < limit:
                        break
                j = z % n
                items[i], items[j] = items[j], items[i]
        finally:
            self.state = state

    def plain_shuffle(self, items: MutableSequence[T]) -> None:
        """:meth:`shuffle` as the plain Fisher-Yates loop over :meth:`below` (what it equals)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """Return an independent generator seeded from this one (advances this one); keyed stays keyed."""
        if self._key is not None:
            return Rng((1 << UNPREDICTABLE_SEED_BITS) | self.next64() << 64 | self.next64())
        return Rng(self.next64())

    def copy(self) -> Rng:
        """Return a generator in the same state (the two then produce the same numbers)."""
        return Rng(self.state)


def unpredictable_seed() -> int:
    """128 random bits from :mod:`secrets`, lifted above 2**64 so they always make a keyed generator."""
    return (1 << UNPREDICTABLE_SEED_BITS) | secrets.randbits(UNPREDICTABLE_SEED_BITS)
