"""Tiny Towns component data: resources, the 25 building cards, the 15 monuments, decks, tables.

Everything printed on the physical components lives here, as data, with its origin next to
it: FOUND (public sources agree, named by the keys of ``/work/shared/components/tiny-towns.md``),
DERIVED (follows from found facts) or DA-x (a design assumption). An owner of the game who
reads a card differently corrects it here, in one place.

Pattern grids use one letter per square: W wood, H wheat, B brick, G glass, S stone,
``.`` no resource. Rows are separated by ``/``. Any rotation or mirror image of a pattern
may be built (rulebook, "Building Construction Rules"), so each grid is one representative.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- the town and the resources ------------------------------------------------------------

TOWN_SIZE = 4
"""FOUND (rulebook "Object of the Game"): the town is a 4x4 grid."""
SQUARES = TOWN_SIZE * TOWN_SIZE
COLUMN_LETTERS = "ABCD"
"""DA-1: squares are named by column letter A-D (left to right) and row 1-4 (top to bottom)."""

RESOURCES: tuple[str, ...] = ("wood", "wheat", "brick", "glass", "stone")
"""FOUND (rulebook "Setup" 8): the five resources, in the rulebook's order."""
RESOURCE_LETTERS: dict[str, str] = {"W": "wood", "H": "wheat", "B": "brick", "G": "glass", "S": "stone"}
"""Pattern letters (H for wheat, as in the component file)."""

EMPTY_SQUARE_VP = -1
"""FOUND (rulebook "End of the Game"): each square without a building is worth -1."""

# --- colours (card-back piles) -------------------------------------------------------------

BLUE, RED, GREY, YELLOW, ORANGE, GREEN, BLACK, MONUMENT = (
    "blue",
    "red",
    "grey",
    "yellow",
    "orange",
    "green",
    "black",
    "monument",
)
PILES: tuple[str, ...] = (RED, GREY, YELLOW, ORANGE, GREEN, BLACK)
"""FOUND (rulebook "Setup" 4-6; RH, BF, ST, DB, TL): six piles of 4, one card drawn from each."""


@dataclass(frozen=True)
class Card:
    """One building or monument card: its name, colour, pattern and a one-line rules text."""

    name: str
    colour: str
    pattern: str
    text: str
    source: str


# --- the 25 building cards (component file, "The 25 building cards") -----------------------

BUILDINGS: dict[str, Card] = {
    card.name: card
    for card in (
        Card("Cottage", BLUE, ". H / B G", "3 VP if fed", "FOUND: RH, BF, JT, DB, SP"),
        # Red pile: feeders, 0 VP each.
        Card("Farm", RED, "H H / W W", "feeds 4 cottages anywhere", "FOUND: RH, BF, JT, ST, SP"),
        Card("Granary", RED, "H H / W B", "feeds the 8 squares around", "FOUND: RH, BF, JT, ST, SP, DB"),
        Card("Greenhouse", RED, "H G / W W", "feeds one connected group of cottages", "FOUND: RH, BF, JT, ST, SP"),
        Card("Orchard", RED, "S H / H W", "feeds the cottages in its row and column", "FOUND: RH, BF, JT, ST, SP, DB"),
        # Grey pile: all share the pattern W S.
        Card("Well", GREY, "W S", "1 VP per adjacent cottage", "FOUND: RH, BF, JT, ST, SP, DB"),
        Card("Fountain", GREY, "W S", "2 VP if adjacent to another grey building", "FOUND: BF, RP, DB, PY, RH"),
        Card("Millstone", GREY, "W S", "2 VP if adjacent to a red or yellow building", "FOUND: BF, JT, RP, DB, PY"),
        Card("Shed", GREY, "W S", "1 VP; may be built on any empty square", "FOUND: RH, BF, RP, PY"),
        # Yellow pile.
        Card("Theater", YELLOW, ". S . / W G W", "1 VP per other building type in its row and column", "FOUND: RH, BF"),
        Card("Bakery", YELLOW, ". H . / B G B", "3 VP if adjacent to a red or black building", "FOUND: RH, BF, DB"),
        Card("Market", YELLOW, ". W . / S G S", "1 VP per yellow building in its row or column", "FOUND: RH, BF"),
        Card("Tailor", YELLOW, ". H . / S G S", "1 VP + 1 per yellow building in the 4 centre squares", "FOUND: RH"),
        # Orange pile.
        Card("Chapel", ORANGE, ". . G / S G S", "1 VP per fed cottage", "FOUND: RH, BF, JT, ST, SP"),
        Card("Abbey", ORANGE, ". . G / B S S", "3 VP if not adjacent to black, green or yellow", "FOUND: RH, BF"),
        Card("Cloister", ORANGE, ". . G / W B S", "1 VP per orange building in a corner", "FOUND: RH, BF, DB"),
        Card("Temple", ORANGE, ". . G / B B S", "4 VP if adjacent to 2 or more fed cottages", "FOUND: RH, BF"),
        # Green pile: three in a line.
        Card("Tavern", GREEN, "B B G", "by count: 2, 5, 9, 14, 20", "FOUND: RH, BF, RP, PY, BE"),
        Card("Almshouse", GREEN, "S S G", "by count: -1, 5, -3, 15, -5, 26", "FOUND: RH, BF, RP, PY"),
        Card("Feast Hall", GREEN, "W W G", "2 VP; 3 VP if more than the player on your right", "FOUND: RH, BF"),
        Card("Inn", GREEN, "H S G", "3 VP if no other Inn in its row or column", "FOUND: RH, JT, ST, SP, DB"),
        # Black pile.
        Card("Factory", BLACK, "W . . . / B S S B", "0 VP; holds a resource you may swap", "FOUND: RH, BF, SP, DB"),
        Card("Bank", BLACK, "H H . / W G B", "4 VP; holds a resource you may not name", "FOUND: RH, BF, SP, DB"),
        Card("Trading Post", BLACK, "S W . / S W B", "1 VP; a wild resource that stays", "FOUND: RH, BF, SP, DB"),
        Card("Warehouse", BLACK, "H W H / B . B", "-1 VP per stored cube; stores up to 3", "FOUND: RH, BF, SP, DB"),
    )
}

# --- the 15 monuments (component file, "The 15 monuments") ---------------------------------

MONUMENTS: dict[str, Card] = {
    card.name: card
    for card in (
        Card("Architect's Guild", MONUMENT, ". . G / . H S / W B .", "1 VP; swap 2 buildings", "FOUND: RH, JT, DB"),
        Card("Archive of the Second Age", MONUMENT, "H H / B G", "1 VP per building type", "FOUND: RH, JT, BF, SP"),
        Card("Barrett Castle", MONUMENT, "H . . S / W G G B", "5 VP if fed; counts as 2 cottages", "FOUND: RH, JT"),
        Card("Cathedral of Caterina", MONUMENT, ". H / S G", "2 VP; empty squares score 0", "FOUND: RH, JT, SP"),
        Card("Fort Ironweed", MONUMENT, "H . B / S W S", "7 VP; no more Master Builder turns", "FOUND: RH, JT, DB"),
        # Uncertain pattern: RH, DB "H H / B S" against JT "W W / B S" (variant mausoleum-wood-pattern).
        Card("Grand Mausoleum of the Rodina", MONUMENT, "H H / B S", "unfed cottages score 3", "FOUND: RH, DB"),
        Card("Grove University", MONUMENT, ". B . / S G S", "3 VP; place a building at once", "FOUND: RH, JT, DB"),
        Card("Mandras Palace", MONUMENT, "H G / B W", "2 VP per adjacent building type", "FOUND: RH, JT, BF, SP"),
        Card("Obelisk of the Crescent", MONUMENT, "H . . / B G B", "build anywhere from now on", "FOUND: RH, JT, DB"),
        Card("Opaleye's Watch", MONUMENT, "W . . . / B G H H / S . . .", "0 VP; take neighbours' builds", "FOUND: RH"),
        Card("Shrine of the Elder Tree", MONUMENT, "B H S / W G W", "VP by buildings when built", "FOUND: RH, JT"),
        Card("Silva Forum", MONUMENT, ". . H . / B B S W", "1 VP + largest same-type group", "FOUND: RH, JT, DB"),
        Card("The Sky Baths", MONUMENT, ". H . / S G W / B . B", "2 VP per missing building type", "FOUND: RH, JT"),
        Card("The Starloom", MONUMENT, "G G / W H", "VP by order of completion", "FOUND: RH, JT, DB, SP"),
        Card("Statue of the Bondmaker", MONUMENT, "W S S G / H . . .", "0 VP; discard onto cottages", "FOUND: RH, JT"),
    )
}

MAUSOLEUM_ALT_PATTERN = "W W / B S"
"""FOUND (JT only): the other reading of the Grand Mausoleum pattern (variant mausoleum-wood-pattern)."""

ALL_CARDS: dict[str, Card] = {**BUILDINGS, **MONUMENTS}

PILE_CARDS: dict[str, tuple[str, ...]] = {
    pile: tuple(name for name, card in BUILDINGS.items() if card.colour == pile) for pile in PILES
}
"""DERIVED: the four cards of each pile."""

CODES: dict[str, str] = {name: name.replace(" ", "")[:3].upper() for name in BUILDINGS}
"""DA-2: a three-letter code per building for the terminal board and the scoring helper (unique)."""
MONUMENT_CODE = "MON"

# --- scoring numbers -----------------------------------------------------------------------

COTTAGE_FED_VP = 3
FARM_CAPACITY = 4
"""FOUND (RH, BF, JT, BE, RP, PY): a Farm feeds up to 4 cottages."""
WELL_VP_PER_COTTAGE = 1
FOUNTAIN_VP = 2
MILLSTONE_VP = 2
SHED_VP = 1
THEATER_VP_PER_TYPE = 1
BAKERY_VP = 3
MARKET_VP_PER_YELLOW = 1
TAILOR_BASE_VP = 1
TAILOR_VP_PER_CENTRE_YELLOW = 1
CENTRE_SQUARES: tuple[int, ...] = (5, 6, 9, 10)
"""DERIVED: B2, C2, B3, C3 (row-major indices)."""
CORNER_SQUARES: tuple[int, ...] = (0, 3, 12, 15)
CHAPEL_VP_PER_FED = 1
ABBEY_VP = 3
CLOISTER_VP_PER_CORNER = 1
TEMPLE_VP = 4
TEMPLE_FED_NEEDED = 2
TAVERN_TABLE: tuple[int, ...] = (0, 2, 5, 9, 14, 20)
"""FOUND: total for 0..5 Taverns; 5 or more score the last entry."""
ALMSHOUSE_TABLE: tuple[int, ...] = (0, -1, 5, -3, 15, -5, 26)
"""FOUND: total for 0..6 Almshouses; 6 or more score the last entry."""
FEAST_HALL_VP = 2
FEAST_HALL_BONUS_VP = 1
INN_VP = 3
BANK_VP = 4
TRADING_POST_VP = 1
WAREHOUSE_VP_PER_CUBE = -1
WAREHOUSE_CAPACITY = 3

GUILD_VP = 1
GUILD_SWAPS = 2
ARCHIVE_VP_PER_TYPE = 1
BARRETT_FED_VP = 5
BARRETT_COTTAGE_WEIGHT = 2
"""FOUND as an interpretation (DB, RP): fed as one unit, counts as 2 cottages for Chapel, Temple, Well."""
CATHEDRAL_VP = 2
CATHEDRAL_EMPTY_VP = 0
FORT_VP = 7
MAUSOLEUM_UNFED_VP = 3
GROVE_VP = 3
MANDRAS_VP_PER_TYPE = 2
OPALEYE_VP = 0
OPALEYE_CARDS = 3
SHRINE_TABLE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 8)
"""FOUND: VP for 0..6 buildings at build time; 6 or more score the last entry."""
SILVA_BASE_VP = 1
SKY_BATHS_VP_PER_MISSING = 2
STARLOOM_TABLE: tuple[int, ...] = (6, 3, 2)
"""FOUND (RH, JT, DB, SP): 1st, 2nd, 3rd town completed; 4th or later scores 0."""
STATUE_VP = 0
OBELISK_VP = 0
"""DA-4: no source gives Obelisk of the Crescent any VP of its own."""
BUILDING_TYPES_IN_PLAY = 7
"""DERIVED: the Cottage and one card of each of the six piles."""

# --- setup sets ----------------------------------------------------------------------------

FIRST_GAME_SET: tuple[str, ...] = ("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Factory")
"""DA-3 (probable; jordinnho14, Meagaman123, DB test helpers, nerdunion.us): the first-game set."""

CAVERN_CAPACITY = 2
"""FOUND (rulebook "The Cavern Rule"): up to 2 resources named by other players."""
MAX_PLAYERS = 6
"""FOUND (rulebook "Components": 6 player boards)."""
MONUMENTS_DEALT = 2
"""FOUND (rulebook "Setup" 10): each player is dealt 2 monuments and keeps 1."""

# --- resource deck (Town Hall and solo) ----------------------------------------------------

RESOURCE_DECK: tuple[str, ...] = tuple(r for r in RESOURCES for _ in range(3))
"""FOUND (DB, GO, SP, BE; UBG gives 15 cards): 3 cards of each resource."""
TOWN_HALL_REMOVED = 5
"""FOUND (UBG Town Hall page, DB, GO): the top 5 cards go face down to the discard, unseen."""
TOWN_HALL_CYCLE = 3
"""FOUND: rounds 1 and 2 of each cycle of three use a drawn card; round 3 is a free choice."""
SOLO_FACE_UP = 3
"""FOUND (CW, DB, eatggames, bert.games): reveal 3, pick 1."""
SOLO_REMOVED: tuple[str, ...] = ("Inn", "Bank", "Fort Ironweed", "Opaleye's Watch")
"""FOUND (CW, DB): removed in solo. Flagged: Feast Hall would be the expected card, both sources say Inn."""
SOLO_REMOVED_FEAST_HALL_READING: tuple[str, ...] = ("Feast Hall", "Bank", "Fort Ironweed", "Opaleye's Watch")
"""DA-5: the other reading (variant solo-removes-feast-hall): Feast Hall, the card about another player."""
SOLO_RANKS: tuple[tuple[int, str], ...] = (
    (38, "Master Architect"),
    (32, "Town Planner"),
    (25, "Engineer"),
    (18, "Carpenter"),
    (10, "Builder's Apprentice"),
)
"""FOUND (CW; DB identical bands): minimum VP for each solo rank, best first."""
SOLO_LOWEST_RANK = "Aspiring Architect"
"""FOUND (CW): 9 VP or fewer."""


def solo_rank(score: int) -> str:
    """The solo rank name for a final score (component file, "Solo variant")."""
    for minimum, name in SOLO_RANKS:
        if score >= minimum:
            return name
    return SOLO_LOWEST_RANK
