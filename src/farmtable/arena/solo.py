"""The solo benchmark: how often an agent reaches each tier of a rulebook's own solo table.

The tables are data taken from the rulebooks (``/work/shared/rulebooks``) and the
component notes; each entry says where it comes from. A game without a table here is
still summarized: by its score distribution and by the share of each value of the
text details its result carries (a rank name, say).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from farmtable.arena.jobs import GameRecord
from farmtable.arena.stats import Rate, rate


@dataclass(frozen=True)
class Tier:
    """A rung of a solo table: its name and the test a finished game passes to reach it (or better)."""

    name: str
    reached: Callable[[GameRecord], bool]


def _score_at_least(points: int) -> Callable[[GameRecord], bool]:
    return lambda r: r.totals[0] >= points


def _farmini_tiers(variants: Iterable[str]) -> list[Tier]:
    # Farmini rulebook, "Your Achievements (Solo)": normal rules / second variant columns.
    from farmtable.games.farmini.scoring import SECOND_VARIANT

    second = SECOND_VARIANT in variants
    bands = [
        (35, 50, "won the competition"),
        (30, 40, "podium"),
        (20, 30, "ponies resisted"),
        (10, 20, "almost"),
        (0, 0, "a barn, not a farm"),
    ]
    return [Tier(f"{name} ({b if second else a}+)", _score_at_least(b if second else a)) for a, b, name in bands]


# Tiny Towns solo rank bands: components/tiny-towns.md, "Solo variant" (CW and DB agree).
_TINY_TOWNS = [
    (38, "Master Architect"),
    (32, "Town Planner"),
    (25, "Engineer"),
    (18, "Carpenter"),
    (10, "Builder's Apprentice"),
    (-10_000, "Aspiring Architect"),
]


def _detail(r: GameRecord, *words: str) -> object:
    for key, value in r.details.items():
        if any(w in key.lower() for w in words):
            return value
    return None


def _tiny_farms_win(r: GameRecord) -> bool:
    """A solo Tiny Farms game beats Farmer Emma: read from the result's details."""
    outcome = r.details.get("outcome")
    if isinstance(outcome, str):
        return outcome.lower() in ("win", "won")
    flag = _detail(r, "won", "win", "beat")
    if isinstance(flag, bool):
        return flag
    emma = _detail(r, "emma")
    if isinstance(emma, int | float):
        return r.totals[0] > emma
    return bool(r.ranking and r.ranking[0] == [0] and len(r.ranking) == 1 and flag)


def _finances_reached(r: GameRecord) -> bool:
    flag = _detail(r, "reached")
    return flag if isinstance(flag, bool) else r.totals[0] >= 70


def _finances_turns(r: GameRecord) -> float | None:
    if not _finances_reached(r):
        return None
    turns = _detail(r, "turn")
    return float(turns) if isinstance(turns, int | float) else None


def _within_turns(limit: int) -> Callable[[GameRecord], bool]:
    def reached(r: GameRecord) -> bool:
        """The game reached 70 coins within ``limit`` turns."""
        turns = _finances_turns(r)
        return turns is not None and turns <= limit

    return reached


def tiers(game: str, variants: Iterable[str]) -> list[Tier]:
    """The rulebook's solo tiers for ``game``, best first (empty if the rulebook has none we know)."""
    variants = list(variants)
    if game == "farmini":
        return _farmini_tiers(variants)
    if game == "farmerama":
        # Farmerama rulebook, solo: "Your goal is to reach at least 150 points."
        return [Tier("150 points (the solo goal)", _score_at_least(150))]
    if game == "tiny-towns":
        return [Tier(f"{name} ({low}+)" if low > -10_000 else name, _score_at_least(low)) for low, name in _TINY_TOWNS]
    if game == "tiny-farms":
        # Tiny Farms rulebook, solo mode: you play against Farmer Emma; difficulty is the variant.
        label = ", ".join(variants) or "default difficulty, easy"  # the game's details say 'easy' then
        return [Tier(f"beat Farmer Emma ({label})", _tiny_farms_win)]
    if game == "farmers-finances":
        # Farmers Finances rulebook, solo: earn 70 coins in as few turns as possible.
        out = [Tier("reached 70 coins", _finances_reached)]
        for limit in (30, 25, 20, 15):
            out.append(Tier(f"70 coins within {limit} turns", _within_turns(limit)))
        return out
    return []


TIER_WORDS = ("rank", "achievement", "outcome")
"""Text details always shown (even when every game has the same value): the game's own tier names."""


@dataclass(frozen=True)
class SoloSummary:
    """The solo benchmark of one agent on one game."""

    games: int
    totals: list[int]
    tiers: list[tuple[str, Rate]]
    categories: dict[str, list[tuple[str, float]]]
    """Per text detail of the result (e.g. a rank name): each value and its share of games."""


def summarize(records: list[GameRecord]) -> SoloSummary:
    """Score distribution, tier shares (with Wilson 95% intervals) and detail shares of solo games."""
    if not records:
        return SoloSummary(0, [], [], {})
    first = records[0]
    n = len(records)
    tier_rates = [(t.name, rate(sum(1 for r in records if t.reached(r)), n)) for t in tiers(first.game, first.variants)]
    categories: dict[str, Counter[str]] = {}
    for r in records:
        for key, value in r.details.items():
            if isinstance(value, str):
                categories.setdefault(key, Counter())[value] += 1
    shares = {
        k: [(v, c / n) for v, c in counter.most_common()]
        for k, counter in categories.items()
        if len(counter) > 1 or any(w in k for w in TIER_WORDS)
    }
    return SoloSummary(n, sorted(r.totals[0] for r in records), tier_rates, shares)


def quantiles(values: list[int], points: Iterable[float] = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)) -> list[float]:
    """Quantiles of a sorted list (nearest rank)."""
    if not values:
        return []
    return [float(values[min(len(values) - 1, int(q * len(values)))]) if q < 1 else float(values[-1]) for q in points]
