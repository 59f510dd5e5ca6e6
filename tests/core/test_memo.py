"""The bounded cache that evaluations use inside a timed search."""

from __future__ import annotations

import doctest

import pytest

from farmtable.core import memo
from farmtable.core.memo import BoundedCache


def test_a_full_cache_forgets_its_oldest_entry_one_at_a_time() -> None:
    cache: BoundedCache[int, str] = BoundedCache(3)
    for key in range(5):
        assert cache.put(key, str(key)) == str(key)
    assert list(cache.items()) == [(2, "2"), (3, "3"), (4, "4")]


def test_storing_a_key_again_forgets_nothing() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 3)
    assert dict(cache) == {"a": 3, "b": 2}


def test_a_cache_must_hold_something() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        BoundedCache(0)


def test_the_module_examples_run() -> None:
    assert doctest.testmod(memo).failed == 0
