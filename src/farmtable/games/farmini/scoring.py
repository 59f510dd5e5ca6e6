"""Farmini score sheet and tie-breaks (rulebook: Scoring, Tiebreaker, Second Variant, Solo).

Score sheet of one farm (the lines add up to the total):

- ``animals``: 1 per animal token on the farm;
- ``corn``: 1 per cornfield inside an enclosed pen that holds no animal;
- ``single_kind_bonus`` (variant ``second-variant`` only): every enclosed pen whose animals are
  all of one kind brings twice the points, i.e. its animals score once more;
- ``empty_cell_penalty`` (negative): by default −1 for each enclosed pen that still has an empty
  animal cell (the Scoring section; DA-FM6); with variant ``penalty-per-empty-cell`` −1 for each
  empty animal cell anywhere on the farm (the note under Fence Cards). By default (the gap
  reading, DA-FM7) a ring of fences around a missing card is an enclosed fence too, and each such
  gap costs −1 more ("you lose 1 point for each gap"); variant ``gaps-not-enclosed`` keeps the first
  reading, where a quarter facing a missing card is never enclosed.

Ranking: most points; ties broken by most pigs, then goats, then chickens (Tiebreaker).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from farmtable.core import Result, rank_by
from farmtable.games.farmini.components import ANIMAL_CELL, CORN, KINDS, SOLO_ACHIEVEMENTS
from farmtable.games.farmini.farm import Farm

SECOND_VARIANT: Final = "second-variant"
PER_CELL_PENALTY: Final = "penalty-per-empty-cell"
GAPS_OPEN: Final = "gaps-not-enclosed"
"""Variant: the first reading of gaps, a missing card leaves the fences around it open."""

SOLO_PLAYERS: Final = 1
"""A game with one player is the solo game (its achievement table applies)."""

SHEET_LINES: Final = ("animals", "corn", "single_kind_bonus", "empty_cell_penalty")
"""The score sheet lines, in the order they are printed."""


@dataclass(frozen=True)
class ScoringRules:
    """Which scoring rules apply: the second variant and the reading of the empty-cell penalty."""

    second_variant: bool = False
    penalty_per_empty_cell: bool = False
    gaps_enclose: bool = True
    """DA-FM7: a ring around a missing card is an enclosed fence and each such gap costs 1."""

    @classmethod
    def from_variants(cls, variants: Sequence[str]) -> ScoringRules:
        """The rules a game with these variant names scores by."""
        return cls(SECOND_VARIANT in variants, PER_CELL_PENALTY in variants, GAPS_OPEN not in variants)


def score_sheet(farm: Farm, rules: ScoringRules) -> dict[str, int]:
    """The score sheet of one farm (see the module docstring); its values add up to the total."""
    animals = farm.animals
    sheet = dict.fromkeys(SHEET_LINES, 0)
    sheet["animals"] = len(animals)
    pens_with_empty_cells = 0
    gaps = 0
    for pen in farm.pens():
        gaps += len(pen.gaps)
        kinds_here: set[str] = set()
        corn = 0
        empty_cells = 0
        for cell in pen.cells:
            content = farm.content(cell)
            if content == CORN:
                corn += 1
            elif content == ANIMAL_CELL:
                kind = animals.get(cell)
                if kind is None:
                    empty_cells += 1
                else:
                    kinds_here.add(kind)
        if not kinds_here:
            sheet["corn"] += corn  # Cornfields: animals in the same pen eat the corn
        elif rules.second_variant and len(kinds_here) == 1:
            sheet["single_kind_bonus"] += sum(1 for c in pen.cells if c in animals)
        if empty_cells:
            pens_with_empty_cells += 1
    if rules.penalty_per_empty_cell:
        sheet["empty_cell_penalty"] = -len(farm.free_cells()) - gaps
    else:
        sheet["empty_cell_penalty"] = -pens_with_empty_cells - gaps
    return sheet


def tie_break(farm: Farm) -> tuple[int, ...]:
    """Pigs, goats, chickens on the farm: the rulebook's tie-break order."""
    return tuple(farm.count(kind) for kind in KINDS)


def solo_achievement(total: int, rules: ScoringRules) -> str:
    """The solo achievement text for ``total`` points under ``rules`` (Your Achievements (Solo))."""
    for normal_min, variant_min, text in SOLO_ACHIEVEMENTS:
        if total >= (variant_min if rules.second_variant else normal_min):
            return text
    return SOLO_ACHIEVEMENTS[-1][2]


def solo_table() -> list[dict[str, Any]]:
    """The solo achievement table for both rule sets, best row first (for printing)."""
    rows: list[dict[str, Any]] = []
    previous: tuple[int, int] | None = None
    for normal_min, variant_min, text in SOLO_ACHIEVEMENTS:
        normal = f"{normal_min}+" if previous is None else f"{normal_min}-{previous[0] - 1}"
        variant = f"{variant_min}+" if previous is None else f"{variant_min}-{previous[1] - 1}"
        rows.append({"normal": normal, "second_variant": variant, "text": text})
        previous = (normal_min, variant_min)
    return rows


def score_farms(farms: Sequence[Farm], rules: ScoringRules, details: dict[str, Any] | None = None) -> Result:
    """Score every farm and rank the players after the tie-break (pigs, goats, chickens)."""
    sheets = [score_sheet(farm, rules) for farm in farms]
    totals = [sum(sheet.values()) for sheet in sheets]
    breaks = [tie_break(farm) for farm in farms]
    ranking = rank_by([(totals[p], *breaks[p]) for p in range(len(farms))])
    extra: dict[str, Any] = dict(details or {})
    extra["tie_break"] = {
        "order": list(KINDS),
        "values": [list(b) for b in breaks],
    }
    extra["pens"] = [len(farm.pens()) for farm in farms]
    if len(farms) == SOLO_PLAYERS:
        extra["solo_achievement"] = solo_achievement(totals[0], rules)
        extra["solo_table"] = solo_table()
        extra["solo_rule_set"] = SECOND_VARIANT if rules.second_variant else "normal"
    return Result(totals, sheets, ranking, extra)
