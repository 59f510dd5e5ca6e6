"""A decision's CPU deadline, seen by the evaluations a search calls.

A timed search (``agents.mcts``, a game's own solo player) sets the deadline for as long as it
thinks. An evaluation whose cost varies a lot from one position to the next (Farmerama's exhaustive
turn completion: from a few to 4,000 positions) calls :func:`check` as it goes and falls back on a
cheaper estimate when :class:`OutOfTime` is raised, so a single call cannot carry a decision past its
budget. Outside a deadline block :func:`check` does nothing, and values are exactly as before.

Times are ``time.process_time()`` readings (CPU seconds of this process), as the agents' budgets are.

>>> import time
>>> with deadline_at(time.process_time() - 1.0):
...     try:
...         check()
...     except OutOfTime:
...         print("out of time")
out of time
>>> check()  # no deadline set: never out of time
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class OutOfTime(Exception):
    """Raised by :func:`check` once the current decision's deadline has passed."""


_deadline: float | None = None


def deadline() -> float | None:
    """The current decision's deadline (a ``time.process_time()`` reading), or None when none is set."""
    return _deadline


@contextmanager
def deadline_at(at: float | None) -> Iterator[None]:
    """Set the deadline to ``at`` for the block (None: no new deadline). Inside another deadline
    block the earlier of the two holds; the previous deadline is back when the block ends."""
    global _deadline
    saved = _deadline
    if at is not None:
        _deadline = at if saved is None else min(saved, at)
    try:
        yield
    finally:
        _deadline = saved


def check() -> None:
    """Raise :class:`OutOfTime` if a deadline is set and has passed; otherwise do nothing."""
    if _deadline is not None and time.process_time() > _deadline:
        raise OutOfTime
