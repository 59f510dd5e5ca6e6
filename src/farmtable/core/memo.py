"""Bounded caches for evaluations and planners that run inside a timed search."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(OrderedDict[K, V]):
    """A dict that holds at most ``limit`` entries and forgets the oldest first, one at a time.

    Clearing a full cache at once frees thousands of objects in one go (50-80 ms for Farmini's
    layouts), which lands inside some search's budget; forgetting one entry per new one spreads
    that cost evenly (under a microsecond each).

    >>> cache: BoundedCache[str, int] = BoundedCache(2)
    >>> for word in ("a", "b", "c"):
    ...     _ = cache.put(word, len(word))
    >>> list(cache)
    ['b', 'c']
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a bounded cache must hold at least 1 entry, got a limit of {limit}")
        super().__init__()
        self.limit = limit

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (forgetting the oldest entry when full) and return it."""
        if key not in self and len(self) >= self.limit:
            self.popitem(last=False)
        self[key] = value
        return value


class RecentReprs:
    """The ``repr`` of a value, found again by equality among the last ``limit`` values seen.

    A picture keys its remembered drawings by what a part shows (its ``repr``); each seat's view
    brings its own equal copy of every part, and comparing two equal dicts is far cheaper than
    writing one out. Sound only for values that are not changed after they are first seen (a
    view's parts are made fresh and then only read).

    >>> recent = RecentReprs(2)
    >>> board = {"a": [1, 2]}
    >>> recent.key(board) == recent.key({"a": [1, 2]}) == repr(board)
    True
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"RecentReprs must remember at least 1 value, got a limit of {limit}")
        self.limit = limit
        self._seen: list[tuple[object, str]] = []

    def key(self, value: object) -> str:
        """``repr(value)``, taken from an equal value among the last ones seen when there is one."""
        for seen, key in self._seen:
            if seen is value or seen == value:
                return key
        key = repr(value)
        self._seen.insert(0, (value, key))
        del self._seen[self.limit :]
        return key
