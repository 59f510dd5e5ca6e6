"""A small builder of hand-made Farmers Finances positions for scenario tests.

Positions are built as saved-game data and loaded through the game's own validating loader,
so a position that breaks conservation of cards is refused here exactly as a corrupt save.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from farmtable.games.farmers_finances.components import (
    ANIMAL_CARDS_PER_COPY,
    START_MONEY,
    WHEAT_CARDS_PER_COPY,
    copies_for,
)
from farmtable.games.farmers_finances.rules import FarmersFinancesState

Farm = tuple[int, int, int]
"""(wheat, bread, animal) in a farm."""


def position(
    players: int = 2,
    *,
    money: Sequence[int] | None = None,
    farms: Sequence[Farm] | None = None,
    row: int = 3,
    phase: str = "action",
    current: int = 0,
    turn: int = 1,
    rng: int = 1,
    variants: Sequence[str] = (),
    piles: tuple[list[str], list[str]] | None = None,
    market: tuple[int, int] | None = None,
    end_triggered: bool = False,
    forced_reroll: bool = False,
    after_pick: str = "end",
    last_roll: int = 0,
) -> FarmersFinancesState:
    """A position: every farm and coin as given; the marketplace holds the rest of the cards.

    Solo, ``piles`` gives the (left, right) piles bottom first; by default the market cards are
    split with the left pile getting the odd one.
    """
    farms = list(farms) if farms is not None else [(0, 0, 0)] * players
    copies = copies_for(players)
    wheat_left = WHEAT_CARDS_PER_COPY * copies - sum(w + b for w, b, _ in farms)
    animals_left = ANIMAL_CARDS_PER_COPY * copies - sum(a for _, _, a in farms)
    data: dict[str, Any] = {
        "players": players,
        "variants": sorted(variants),
        "rng": rng,
        "row": row,
        "last_roll": last_roll,
        "phase": phase,
        "after_pick": after_pick,
        "current": current,
        "turn": turn,
        "money": list(money) if money is not None else [START_MONEY] * players,
        "farms": [{"wheat": w, "bread": b, "animal": a} for w, b, a in farms],
        "end_triggered": end_triggered,
        "forced_reroll": forced_reroll,
        "epoch": 0,
    }
    if players == 1:
        if piles is None:
            cards = ["wheat"] * wheat_left + ["animal"] * animals_left
            half = (len(cards) + 1) // 2
            piles = (cards[:half], cards[half:])
        data["piles"] = {"left": list(piles[0]), "right": list(piles[1])}
    else:
        counts = market if market is not None else (wheat_left, animals_left)
        data["market"] = {"wheat": counts[0], "animal": counts[1]}
    return FarmersFinancesState.from_dict(data)


def find_rng(
    make: Callable[[int], FarmersFinancesState],
    actions: Sequence[tuple[int, str]],
    wanted: Callable[[FarmersFinancesState], bool],
    tries: int = 2000,
) -> tuple[FarmersFinancesState, FarmersFinancesState]:
    """Search RNG seeds until playing ``actions`` from ``make(seed)`` gives a state where ``wanted`` holds.

    Returns (the position before, the position after), so a test can check a chance outcome
    (a rolled 6, say) against the rules without copying numbers from the code.
    """
    for seed in range(tries):
        before = make(seed)
        after = before.clone()
        for player, action in actions:
            after.apply(player, action)
        if wanted(after):
            return before, after
    raise AssertionError("no seed gave the wanted chance outcome")
