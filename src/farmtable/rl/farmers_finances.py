"""Farmers Finances for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/farmers-finances.md``; numbers: ``games/farmers_finances/components.py``.
"""

from __future__ import annotations

from farmtable.core import Result
from farmtable.games.farmers_finances import components as c
from farmtable.rl.catalogue import RLGame
from farmtable.rl.encoding import INF, BySeat, Fields, Flag, Num, OneHot

PHASES = ("action", "market", "pick", "over")
"""The phases a view names (``rules.PHASES``)."""


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Every notation that can be legal: a farm never holds more cards of a sort than the game has."""
    copies = c.copies_for(players)
    wheat = c.WHEAT_CARDS_PER_COPY * copies
    most = {c.WHEAT: wheat, c.BREAD: wheat, c.ANIMAL: c.ANIMAL_CARDS_PER_COPY * copies}
    out = [f"buy {sort}" for sort in c.MARKET_SORTS]
    for sort in c.SORTS:
        out += [f"sell {sort} {n}" for n in range(1, most[sort] + 1)]
    out += [f"bake {n}" for n in range(1, wheat + 1)]
    out.append("pass")
    if players > 1:
        out += [f"move {row}" for row in c.MARKET_ROWS]
        out.append("reroll")
    out += [f"pick {row}" for row in c.MARKET_ROWS]
    return out


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: the market, every farm and purse (all public), solo the two pile tops."""
    cards = float(c.CARDS_PER_COPY * c.copies_for(players))
    farm = Fields(tuple((sort, Num(high=cards, doc=f"{sort} cards")) for sort in c.SORTS))
    pile = Fields((("top", OneHot(c.MARKET_SORTS, "top card")), ("size", Num(high=cards, doc="cards in the pile"))))
    return Fields(
        (
            ("phase", OneHot(PHASES, "phase")),
            ("turn", Num(doc="turn number")),
            ("row", OneHot(c.MARKET_ROWS, "market row of the die")),
            ("last_roll", OneHot(tuple(range(1, c.DIE_SIDES + 1)), "last die roll")),
            ("buy_prices", Fields(tuple((s, Num(high=20, doc=f"{s} buy cost")) for s in c.MARKET_SORTS))),
            ("sell_prices", Fields(tuple((s, Num(high=20, doc=f"{s} sell price")) for s in c.SORTS))),
            ("money", BySeat(Num(low=0, high=INF, doc="coins"))),
            ("farms", BySeat(farm)),
            ("market", Fields(tuple((s, Num(high=cards, doc=f"{s} in the marketplace")) for s in c.MARKET_SORTS))),
            ("end_triggered", Flag("someone reached 70: last round")),
            ("must_reroll", Flag("the empty-market reroll is due")),
            ("piles", Fields((("left", pile), ("right", pile)))),
        )
    )


def solo_score(result: Result) -> float:
    """Solo the goal is 70 coins in as few turns as possible: the score is minus the turns."""
    return -float(result.details["turns"])


def solo_win(result: Result) -> float:
    """+1 once 70 coins are reached (every solo game that ends reaches it), else −1."""
    return 1.0 if result.details.get("goal_reached") else -1.0


RL_GAME = RLGame(
    game_id="farmers-finances",
    name="FarmersFinances",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=False,
    max_game_length=5000,
    notes="Everything is public with 2–4 players (only future rolls are hidden). Solo, the view shows each "
    "pile's top card and size; the order below is hidden.",
    solo_doc="solo `score` = −turns (fewer turns to 70 is better); solo `win` = +1 (a solo game ends only at 70, "
    "so it is always +1: use `score`).",
)
