"""The decision deadline that timed searches share with the games' evaluations (``core.clock``)."""

from __future__ import annotations

import time

import pytest

from farmtable.core import clock


def test_no_deadline_never_runs_out() -> None:
    assert clock.deadline() is None
    clock.check()  # nothing raised


def test_a_passed_deadline_raises_and_is_gone_after_its_block() -> None:
    with clock.deadline_at(time.process_time() - 1.0), pytest.raises(clock.OutOfTime):
        clock.check()
    assert clock.deadline() is None
    clock.check()


def test_the_earlier_deadline_holds_inside_a_nested_block_and_the_outer_comes_back() -> None:
    later = time.process_time() + 100.0
    earlier = time.process_time() - 1.0
    with clock.deadline_at(later):
        with clock.deadline_at(earlier):
            assert clock.deadline() == earlier
        with clock.deadline_at(later + 50.0):
            assert clock.deadline() == later
        with clock.deadline_at(None):
            assert clock.deadline() == later
        assert clock.deadline() == later
        clock.check()  # the outer one has not passed
    assert clock.deadline() is None


def test_the_deadline_is_restored_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError), clock.deadline_at(time.process_time() - 1.0):
        raise RuntimeError("boom")
    assert clock.deadline() is None


def test_the_module_example_runs() -> None:
    import doctest

    assert doctest.testmod(clock).failed == 0
