"""Checks for reading saved games: every game's ``_from_dict`` validates what it reads with these.

Each raises ``ValueError`` with a message that names the field and what was wrong; ``Game.from_json``
turns it into :class:`~farmtable.core.errors.CorruptSave`, so a damaged save is refused on loading
instead of failing later in play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def expect(condition: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``condition`` holds."""
    if not condition:
        raise ValueError(message)


def whole_number(value: Any, what: str, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high`` (no upper bound when ``high`` is None); bools are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f"at least {low}"
        raise ValueError(f"{what} must be a whole number in {bound}, got {value!r}")
    checked: int = value
    return checked


def whole_numbers(value: Any, what: str, low: int, high: int | None = None, length: int | None = None) -> list[int]:
    """``value`` as a list of ints, each in ``low..high``, of exactly ``length`` entries when given."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise ValueError(f"{what} must have {length} entries, has {len(value)}")
    return [whole_number(item, f"an entry of {what}", low, high) for item in value]


def flag(value: Any, what: str) -> bool:
    """``value`` as a bool (true or false in JSON)."""
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, got {value!r}")
    checked: bool = value
    return checked


def names(value: Any, what: str, allowed: Iterable[str]) -> list[str]:
    """``value`` as a list of strings, each one of ``allowed``."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, got {type(value).__name__}")
    known = set(allowed)
    for item in value:
        if not isinstance(item, str) or item not in known:
            raise ValueError(f"{what} holds an unknown entry {item!r}")
    return list(value)
