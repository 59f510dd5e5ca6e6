"""Farmerama final scoring (rulebook "End of the Game and Final Scoring") and the tie-break.

The score sheet has one line per scoring rule; its lines add up to the total:

- the four products (wool, truffles, milk, riding lessons): markers x stars per product (DA-FR5b
  9/10/14/18 by default; DA-FR5 3/5/7/9 in the variant ``products-3-5-7-9``);
- ``feed_tiles``: 1 star per feed tile in the barn and on the farmland (a sown bed holds 2 tiles);
- ``star_buildings``: 3 stars per ornamental building with a star symbol;
- ``pasture_animals``: the stable value of every animal still on a pasture.

Tie: the tied player with more water in their barn wins; still tied, they share the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from farmtable.core.result import Result, rank_by
from farmtable.games.farmerama.components import (
    BUILDINGS,
    PRODUCT_KEYS,
    PRODUCT_VALUE,
    SOLO_GOAL,
    STABLE_VALUE,
    STAR_BUILDING_VALUE,
)


@dataclass(frozen=True)
class ScoreInput:
    """What one player's final score depends on, however it was obtained (game or typed)."""

    products: Sequence[int]
    """Markers on each product track (wool, truffles, milk, riding lessons)."""
    feed_tiles: int
    """Feed tiles in the barn plus feed tiles on the farmland."""
    star_buildings: int
    """Ornamental buildings with a star symbol."""
    pasture_animals: Sequence[int]
    """Animals (SHEEP..HORSE indices) still standing on a pasture."""
    water: int
    """Water in the barn (the tie-break)."""
    product_values: Sequence[int] = PRODUCT_VALUE
    """Stars per product (wool, truffles, milk, riding lessons): the default DA-FR5b, or the
    first assumption DA-FR5 in the variant ``products-3-5-7-9``."""


def score_sheet(entry: ScoreInput) -> dict[str, int]:
    """One player's score-sheet lines (they add up to the total)."""
    sheet = {
        key: count * value for key, count, value in zip(PRODUCT_KEYS, entry.products, entry.product_values, strict=True)
    }
    sheet["feed_tiles"] = entry.feed_tiles
    sheet["star_buildings"] = STAR_BUILDING_VALUE * entry.star_buildings
    sheet["pasture_animals"] = sum(STABLE_VALUE[a] for a in entry.pasture_animals)
    return sheet


def score(entries: Sequence[ScoreInput], extra: dict[str, object] | None = None) -> Result:
    """The result for every player: totals, sheets, ranking by stars then water; solo goal shown."""
    sheets = [score_sheet(e) for e in entries]
    totals = [sum(s.values()) for s in sheets]
    water = [e.water for e in entries]
    ranking = rank_by([(t, w) for t, w in zip(totals, water, strict=True)])
    details: dict[str, object] = {"water": water, "tie_break": "more water in the barn"}
    notes = ["A tie in stars goes to the player with more water in the barn."]
    if len(entries) == 1:
        details["solo_goal"] = SOLO_GOAL
        details["solo_goal_reached"] = totals[0] >= SOLO_GOAL
        notes = [f"Solo goal {SOLO_GOAL} stars: {'reached' if totals[0] >= SOLO_GOAL else 'not reached'}."]
    details["notes"] = notes
    details["labels"] = {"water": "Water in the barn (tie-break)"}
    if extra:
        details.update(extra)
    return Result(totals=totals, breakdown=sheets, ranking=ranking, details=dict(details))


def star_building_count(garden: Sequence[int]) -> int:
    """Ornamental buildings with a star symbol among building indices ``garden``."""
    return sum(1 for b in garden if BUILDINGS[b].star)
