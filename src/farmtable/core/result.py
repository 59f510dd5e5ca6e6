"""The end-of-game result: totals, the score sheet, and the ranking after every tie-break."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Result:
    """What a finished game (or a scored position) comes to.

    ``totals[p]`` is player p's final score; ``breakdown[p]`` is p's score sheet, one line
    per scoring rule (its values add up to the total unless a line says otherwise);
    ``ranking`` lists groups of players best first, players in one group being tied after
    every tie-break the rulebook gives; ``details`` carries what a game adds (a solo rank,
    the turn count to beat, the tie-break values used). ``objective`` is set by a solo game
    whose rulebook judges something other than the total (Farmers Finances solo: the fewest
    turns to 70 coins, so ``-turns``).
    """

    totals: list[int]
    breakdown: list[dict[str, int]]
    ranking: list[list[int]]
    details: dict[str, Any] = field(default_factory=dict)
    objective: int | None = None

    @property
    def solo_score(self) -> int:
        """What a solo player tries to raise: the game's ``objective`` if it sets one, else the total."""
        return self.totals[0] if self.objective is None else self.objective

    @property
    def winners(self) -> list[int]:
        """The players who share first place."""
        return list(self.ranking[0]) if self.ranking else []

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (what ``farmtable score --json`` prints)."""
        return {
            "totals": list(self.totals),
            "breakdown": [dict(b) for b in self.breakdown],
            "ranking": [list(g) for g in self.ranking],
            "winners": self.winners,
            "details": dict(self.details),
            "objective": self.objective,
        }


def rank_by(keys: Sequence[Hashable]) -> list[list[int]]:
    """Rank players by comparable keys, the greatest key first; equal keys share a group.

    ``keys[p]`` is usually a tuple ``(score, tie_break_1, tie_break_2, ...)`` oriented so
    that greater is better (negate a value where fewer is better).

    >>> rank_by([(10, 2), (12, 0), (10, 2)])
    [[1], [0, 2]]
    """
    order = sorted(range(len(keys)), key=lambda p: keys[p], reverse=True)  # type: ignore[arg-type,return-value]
    groups: list[list[int]] = []
    for p in order:
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups
