"""The errors farmtable raises at users: each is a ``ValueError`` whose message says what is wrong."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules do not allow now, or notation that cannot be read.

    The message names the rule that is broken, in words a player understands
    ("Cottage needs wheat, brick and glass in an L shape; B2 is wood"). The state
    the action was applied to is exactly unchanged.
    """


class CorruptSave(ValueError):
    """A saved game that cannot be loaded: not JSON, another game's file, an unknown format, or damaged."""


class BadInput(ValueError):
    """Text typed by a person (a scoring-helper position, an option) that cannot be read.

    ``line`` is the 1-based line number of the offending line when there is one.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
