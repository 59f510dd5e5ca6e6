"""Hand-built Farmini positions for scenario tests.

Farms are typed in the scoring-helper format (``farm at 0,0``, ``C1 at 1,0 rot 270``,
``pig at 0,0/SE``); :func:`make_state` puts them in a consistent game state: the cards not
named anywhere go to the discard pile and the farmyard holds the tokens not on a farm.
"""

from __future__ import annotations

from collections.abc import Sequence

from farmtable.games.farmini.components import ALL_CARDS, CARDS_V1, KINDS, TOKENS_PER_KIND
from farmtable.games.farmini.farm import Farm
from farmtable.games.farmini.helper import read_farms
from farmtable.games.farmini.rules import GAME, FarminiState
from farmtable.games.farmini.scoring import GAPS_OPEN

PEN_2X2 = """
farm at 0,0
C1 at 1,0 rot 270
C3 at 0,1 rot 90
C7 at 1,1 rot 180
"""
"""Four cards around one corner point: the four quarters touching it form one enclosed pen.

The pen holds (0,0)/NE (farm corn), (1,0)/NW (C1's corn), (0,1)/SE (C3's corn) and
(1,1)/SW (C7's corn): 4 cornfields.
"""

NESTED_PENS = """
farm at 0,0
D1 at 1,0 rot 90
D2 at 2,0 rot 90
C2 at 3,0 rot 270
D3 at 0,1 rot 0
C3 at 1,1 rot 0
C4 at 2,1 rot 270
D4 at 3,1 rot 0
D5 at 0,2 rot 0
C5 at 1,2 rot 90
C6 at 2,2 rot 180
D6 at 3,2 rot 0
C7 at 0,3 rot 90
D7 at 1,3 rot 90
D8 at 2,3 rot 90
C8 at 3,3 rot 180
"""
"""4 x 4 cards: the centre corner is fenced all round (an inner pen, animal cell (2,2)/SW) and the
eight corners around it form one ring-shaped pen (animal cells at (0,1)/NE, (1,0)/NE, (1,2)/NW,
(2,1)/NE, (3,0)/NW).
"""

PEN_2X2_WITH_ANIMAL_CELL = """
farm at 0,0
C2 at 1,0 rot 270
C3 at 0,1 rot 90
C7 at 1,1 rot 180
"""
"""Like PEN_2X2 but C2 turned 270 brings its animal cell (printed NE) into the pen at (1,0)/NW.

The pen holds 3 cornfields ((0,0)/NE, (0,1)/SE, (1,1)/SW) and the animal cell (1,0)/NW.
"""


def farm(text: str) -> Farm:
    """One farm typed in the helper format."""
    return read_farms(text).farms[0]


def farms(*texts: str, variants: Sequence[str] = ()) -> list[Farm]:
    """Several farms typed in the helper format (farm cards H1, H2, ... in order).

    ``variants`` that shape a farm (``gaps-not-enclosed``, ``cards-v1``) build them that way.
    """
    joined = "\n".join(f"player p{i}\n{t}" for i, t in enumerate(texts))
    shaping = [v for v in variants if v in (CARDS_V1, GAPS_OPEN)]
    return read_farms("".join(f"variant {v}\n" for v in shaping) + joined).farms


def make_state(
    farm_texts: list[str],
    table: list[str],
    deck_top_first: Sequence[str] = (),
    variants: tuple[str, ...] = (),
    current: int = 0,
    pending: str | None = None,
    pending_left: int = 0,
) -> FarminiState:
    """A consistent state with these farms, face-up cards and deck (top card first)."""
    state = GAME.new_game(players=len(farm_texts), seed=1, variants=variants)
    state.farms = farms(*farm_texts, variants=variants)
    state.table = list(table)
    state.deck = list(reversed(deck_top_first))
    state.pending = pending
    state.pending_left = pending_left
    state.current = current
    used = {o.card_id for f in state.farms for o in f.cards.values()}
    used |= set(table) | set(deck_top_first) | ({pending} if pending else set())
    state.discard = sorted(set(ALL_CARDS) - used)
    state.farmyard = {k: TOKENS_PER_KIND - sum(f.count(k) for f in state.farms) for k in KINDS}
    state._legal = None
    state._validate()  # the position must be one the rules can reach
    return state
