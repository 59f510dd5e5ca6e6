"""Farmers Finances component data: every printed number the rules use, in one place.

Each item carries its origin, as ``/work/shared/components/farmers-finances.md`` asks:

- **FOUND**: stated by a public source (named next to the item);
- **DERIVED**: follows from found facts and the rulebook text;
- **DA-x**: a design assumption, chosen to fit every line of the rulebook.

An owner of the physical game who reads a different number on their cards changes it here
and nowhere else.
"""

from __future__ import annotations

from typing import Final

# --- card sorts ------------------------------------------------------------------------------
# Rulebook "Components" / "The Cards": wheat cards (bread on the back) and animals cards.

WHEAT: Final = "wheat"
"""A wheat card, wheat side up (rulebook "Wheat / Animals")."""
BREAD: Final = "bread"
"""A wheat card flipped to its bread side (rulebook "Use Wheat (Make Bread)")."""
ANIMAL: Final = "animal"
"""An animals card (rulebook "Wheat / Animals"); notation uses the singular."""

SORTS: Final[tuple[str, str, str]] = (WHEAT, BREAD, ANIMAL)
"""The three sorts of cards a farm can hold, in the order the score sheet and notation list them."""
MARKET_SORTS: Final[tuple[str, str]] = (WHEAT, ANIMAL)
"""What the marketplace holds (sold bread comes back as wheat): FOUND, rg-software readme."""

# --- cards per copy of the game ----------------------------------------------------------------

WHEAT_CARDS_PER_COPY: Final = 4
"""FOUND: rulebook "Components" (4x Wheat/Bread)."""
ANIMAL_CARDS_PER_COPY: Final = 2
"""FOUND: rulebook "Components" (2x Animals)."""
CARDS_PER_COPY: Final = WHEAT_CARDS_PER_COPY + ANIMAL_CARDS_PER_COPY
"""DERIVED: the six goods cards of one copy."""
MAX_PLAYERS_ONE_COPY: Final = 2
"""FOUND: rulebook "Components": "You can use 2 copies of Farmers Finances to play with up to 4 players"."""
MAX_PLAYERS: Final = 4
"""FOUND: same line: two copies take up to 4 players."""


def copies_for(players: int) -> int:
    """How many copies of the cards a game with ``players`` players uses (DERIVED: 1 up to 2 players, else 2)."""
    return 1 if players <= MAX_PLAYERS_ONE_COPY else 2


# --- prices ------------------------------------------------------------------------------------

BASE_BUY: Final[dict[str, int]] = {WHEAT: 2, ANIMAL: 6}
"""FOUND: wheat BUY 2, animals BUY 6 (rg-software/board-games farmers/game_farmers.py and readme;
the rulebook's example "(−2)+(+1) = −1" confirms wheat BUY 2)."""
BASE_SELL: Final[dict[str, int]] = {WHEAT: 5, ANIMAL: 10}
"""FOUND: wheat SELL 5, animals SELL 10 (same sources)."""
BREAD_PRICE: Final = 7
"""FOUND: rulebook "Sell": "If you sell bread you always get 7 money per card" (the market is ignored).
The sheet's illustration shows a 5 on the bread back; the components file reads that as the wheat
SELL value and both the rules text and the reference implementation use 7."""
MIN_BUY_COST: Final = 1
"""FOUND: rulebook "Buy": "Pay the cost depends on the market-value (at least 1 coin)"."""

# --- the market card -------------------------------------------------------------------------

MARKET_ROWS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5)
"""FOUND: rulebook "Market": five rows, marked with the die faces 1 to 5, top to bottom."""
BUY_MODIFIER: Final[dict[int, int]] = {1: +2, 2: +1, 3: 0, 4: -1, 5: -2}
"""FOUND: rulebook "Market" table, BUY column (a + is coins back, so the cost is BUY − modifier)."""
SELL_MODIFIER: Final[dict[int, int]] = {1: -2, 2: -1, 3: 0, 4: +1, 5: +2}
"""FOUND: rulebook "Market" table, SELL column (the negative of the BUY column)."""
DIE_SIDES: Final = 6
"""FOUND: rulebook "Components": one six-sided die."""
FREE_CHOICE_FACE: Final = 6
"""FOUND: rulebook "Change Market": "If you roll a 6 you can choose the new market-value freely";
solo sheet step 2: a 6 sells all the cards of the farm."""

# --- money ---------------------------------------------------------------------------------------

START_MONEY: Final = 10
"""FOUND: rulebook "Game Setup": the marker is placed on the 10 (the start fee)."""
GOAL_MONEY: Final = 70
"""FOUND: rulebook "Game End" and solo "Solo Game End": 70 money or more."""
MONEY_CARD_SPLIT: Final = 35
"""FOUND (likely): the OCR reads the two money cards as 0-35 and 35-70. Used only for display.
DA-FF1: money itself is an unbounded integer; totals above 70 count in the final comparison."""

# --- solo ------------------------------------------------------------------------------------

SOLO_PILES: Final = 2
"""FOUND: solo sheet "Solo Game Setup": split the stack into two piles."""
FIRST_SOLO_TURN: Final = 1
"""DA-FF2: the turn tracker shows the number of the turn being played; the first turn is turn 1
(the sheet puts the marker on "the first coin" and moves it at the start of every turn; counting
from 1 gives the number of turns played, the same offset for every game, so records compare)."""


def buy_cost(sort: str, row: int) -> int:
    """What buying one card of ``sort`` costs with the die on ``row`` (DERIVED: BUY − modifier, at least 1).

    >>> buy_cost(WHEAT, 2), buy_cost(WHEAT, 5), buy_cost(WHEAT, 1), buy_cost(ANIMAL, 1)
    (1, 4, 1, 4)
    """
    return max(MIN_BUY_COST, BASE_BUY[sort] - BUY_MODIFIER[row])


def sell_price(sort: str, row: int) -> int:
    """What selling one card of ``sort`` brings with the die on ``row`` (bread always 7).

    >>> sell_price(WHEAT, 1), sell_price(ANIMAL, 5), sell_price(BREAD, 1)
    (3, 12, 7)
    """
    if sort == BREAD:
        return BREAD_PRICE
    return BASE_SELL[sort] + SELL_MODIFIER[row]


def base_value(sort: str) -> int:
    """A card's value sold "without the market-modification" (the tie rule): wheat 5, animal 10, bread 7."""
    return BREAD_PRICE if sort == BREAD else BASE_SELL[sort]
