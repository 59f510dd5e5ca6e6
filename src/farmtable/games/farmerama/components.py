"""Farmerama component data, in one place, each item labelled with where it comes from.

Labels (see ``/work/shared/components/README.md`` and ``farmerama.md``):

- **FOUND**: stated by the rulebook or a public source;
- **DERIVED**: follows from found facts and the rulebook text;
- **DA-FRx**: a design assumption, chosen to fit every rule because the printed component
  could not be found. An owner of the physical game corrects it here, nowhere else.

Indices used everywhere in the package: goods ``CARROTS, HAY, OATS, CORN, WATER`` (0-4; the
first four are the feed plants), animals ``SHEEP, PIG, COW, HORSE`` (0-3), action cards
``SOW, HARVEST, WATER_CARD, FEED, SEED_STORE`` (0-4).
"""

from __future__ import annotations

from typing import NamedTuple

# --- goods (FOUND: rulebook "Game Contents and Setup") -----------------------------------

CARROTS, HAY, OATS, CORN, WATER = range(5)
GOODS = ("carrots", "hay", "oats", "corn", "water")
"""Names of the five goods, as typed in notation (``sow hay A3``, ``gain water``)."""
FEEDS = (CARROTS, HAY, OATS, CORN)
"""The four feed plants (water is a good but not a feed plant)."""
TILES_PER_GOOD = 32
"""FOUND: 160 tiles, 32 each of carrots, hay, oats, corn and water."""
STARTING_BARN = (2, 2, 2, 1, 3)
"""FOUND: each player starts with 2 carrots, 2 hay, 2 oats, 1 corn and 3 water (taken from the supply)."""
SOLO_WATER_SUPPLY = 4
"""FOUND: in the solo game only 4 water tiles go into the general supply; the rest stay in the box."""
STACK_HEIGHT = 2
"""FOUND: one Sow puts 2 tiles of the same plant on a bed (1 from the barn, 1 from the supply);
one Harvest takes such a 2-tile stack into the barn."""

# --- animals, feeding, products (FOUND: rulebook "Feed"; values DA-FR5 / DA-FR6) --------------

SHEEP, PIG, COW, HORSE = range(4)
ANIMALS = ("sheep", "pig", "cow", "horse")
PRODUCTS = ("wool", "truffles", "milk", "riding lessons")
"""FOUND: the products are wool, truffles, milk and riding lessons (one per animal, in this order)."""
PRODUCT_KEYS = ("wool", "truffles", "milk", "riding_lessons")
"""Score-sheet line names of the products."""

FEED_COST: tuple[tuple[int, int, int, int, int], ...] = (
    (0, 2, 2, 0, 0),  # sheep: 2 hay + 2 oats          (FOUND: feeding table)
    (3, 0, 0, 2, 0),  # pig: 3 carrots + 2 corn         (FOUND)
    (0, 3, 0, 2, 0),  # cow: 3 hay + 2 corn             (FOUND)
    (3, 0, 3, 0, 0),  # horse: 3 carrots + 3 oats       (FOUND)
)
"""Goods returned to the supply to feed each animal, indexed like ``GOODS``."""

PRODUCT_VALUES_DA_FR5B = (9, 10, 14, 18)
"""DA-FR5b (the default since issue 14): stars per product: wool 9, truffles 10, milk 14, riding
lessons 18. The rulebook example 27 + 30 + 42 + 36 is then 3 wool, 3 truffles, 3 milk and 2 riding
lessons (11 products); each value is at least twice the product's feed (4/5/5/6 tiles), so feeding
pays, and the dearer, slower animals pay more. The derivation is in ``docs/games/farmerama.md``."""
PRODUCT_VALUES_DA_FR5 = (3, 5, 7, 9)
"""DA-FR5 (the first assumption, variant ``products-3-5-7-9``): wool 3, truffles 5, milk 7, riding
lessons 9 (the example is then 9 wool, 6 truffles, 6 milk and 4 riding lessons: 25 products). A
product is then worth about the feed it eats, and the solo goal of 150 is out of reach."""
VARIANT_FIRST_VALUES = "products-3-5-7-9"
"""The variant that plays with the first assumption, DA-FR5."""
PRODUCT_VALUE_SETS: dict[str, tuple[int, int, int, int]] = {
    "": PRODUCT_VALUES_DA_FR5B,
    VARIANT_FIRST_VALUES: PRODUCT_VALUES_DA_FR5,
}
"""Stars per product by variant (``""`` is the default); the one place to correct the tracks."""
PRODUCT_VALUE = PRODUCT_VALUES_DA_FR5B
"""The default stars per product (wool, truffles, milk, riding lessons): DA-FR5b."""
PRODUCT_TRACK_MAX = 12
"""DA-FR5: a score-board track has positions 0..12; a marker at 12 stays there."""
STABLE_VALUE = (1, 2, 2, 3)
"""DA-FR6: stars printed in the stable, counted for an animal still on a pasture at the end
(sheep 1, pig 2, cow 2, horse 3; all four out give the rulebook's example "8")."""

# --- action cards (FOUND: 5 different action cards per player) --------------------------------

SOW, HARVEST, WATER_CARD, FEED, SEED_STORE = range(5)
CARDS = ("sow", "harvest", "water", "feed", "seed-store")
"""The five action cards, as typed in notation (``card seed-store``)."""
WHEEL_CARDS = (SOW, HARVEST, WATER_CARD)
"""The cards whose number of actions the action wheel gives."""


# --- the action wheel (DA-FR1) --------------------------------------------------------------


class WheelValues(NamedTuple):
    """How often Sow, Harvest and Water may be done in one section: (alone, shared) each."""

    sow: tuple[int, int]
    harvest: tuple[int, int]
    water: tuple[int, int]


ACTION_WHEEL_SECTIONS = 8
"""DA-FR1: the action wheel has 8 sections, turned one section per round (solo: per Water card
revealed); section 0 is the setup position, where Sow and Harvest show "3/2" (FOUND)."""

ACTION_WHEEL_V1: tuple[WheelValues, ...] = (
    WheelValues((3, 2), (3, 2), (2, 1)),  # 0: setup position (FOUND: Sow and Harvest show 3/2)
    WheelValues((4, 2), (2, 1), (3, 2)),  # 1: (FOUND: a 4/2 exists, from the Profi example)
    WheelValues((2, 1), (4, 2), (3, 1)),  # 2
    WheelValues((3, 1), (3, 2), (4, 2)),  # 3
    WheelValues((4, 3), (2, 1), (2, 1)),  # 4
    WheelValues((2, 1), (4, 3), (3, 2)),  # 5
    WheelValues((5, 3), (3, 1), (2, 1)),  # 6
    WheelValues((3, 2), (5, 3), (4, 2)),  # 7
)
"""DA-FR1 (the first assumption, variant ``wheel-v1``): the printed numbers are unknown; alone is
always greater than shared. Its Water numbers (alone 2-4, shared 1-2) are lower than Sow's and
Harvest's; in the solo game they cap the player wheel at 16-19 turns in 42 (issue 14)."""


def _with_water(wheel: tuple[WheelValues, ...], water: tuple[tuple[int, int], ...]) -> tuple[WheelValues, ...]:
    """``wheel`` with its Water column replaced by ``water`` (one alone/shared pair per section)."""
    if len(water) != len(wheel):
        raise ValueError(f"a Water column needs {len(wheel)} sections, got {len(water)}")
    return tuple(WheelValues(v.sow, v.harvest, w) for v, w in zip(wheel, water, strict=True))


ACTION_WHEEL_EVEN = _with_water(ACTION_WHEEL_V1, ((4, 2), (3, 2), (4, 3), (5, 3), (3, 1), (3, 2), (2, 1), (2, 1)))
"""Candidate (variant ``wheel-even``): Water shows the same eight pairs as Sow (and Harvest), placed
where Sow and Harvest are low (alone 2-5, shared 1-3)."""
ACTION_WHEEL_WATER_2 = _with_water(ACTION_WHEEL_V1, ((3, 2), (4, 3), (4, 2), (5, 3), (3, 2), (4, 3), (3, 2), (5, 3)))
"""DA-FR1b, the default since issue 14 (also variant ``wheel-water-2``): DA-FR1's Water one higher
everywhere (alone 3-5, shared 2-3), Sow and Harvest unchanged. Every Water pair is one the Sow and
Harvest columns print too (3/2, 4/2, 4/3, 5/3), none exceeds the largest Sow (5/3: in the Profi
game a water buys one Sow or Harvest), and a Water shared is never worth less than the Seed
Store's one water. The derivation and the measurements are in ``docs/games/farmerama.md``."""
ACTION_WHEEL_WATER_3 = _with_water(ACTION_WHEEL_V1, ((4, 3), (5, 3), (4, 3), (6, 4), (4, 3), (5, 3), (4, 3), (6, 4)))
"""Candidate (variant ``wheel-water-3``): Water alone 4-6, shared 3-4 (a Water turn in the solo
game fetches about half of the 7 water in play); its 6/4 is more than any Sow or Harvest shows."""

WHEEL_VARIANT_PREFIX = "wheel-"
"""Every action-wheel variant is named ``wheel-...``; at most one may be chosen."""
VARIANT_WHEEL_V1 = "wheel-v1"
"""The variant that plays with the first assumed action wheel, DA-FR1."""
ACTION_WHEELS: dict[str, tuple[WheelValues, ...]] = {
    "": ACTION_WHEEL_WATER_2,
    VARIANT_WHEEL_V1: ACTION_WHEEL_V1,
    "wheel-even": ACTION_WHEEL_EVEN,
    "wheel-water-2": ACTION_WHEEL_WATER_2,
    "wheel-water-3": ACTION_WHEEL_WATER_3,
}
"""The action wheel by variant (``""`` is the default, DA-FR1b = ``wheel-water-2``); the one place to
correct the printed numbers. Every wheel has ``ACTION_WHEEL_SECTIONS`` sections."""
ACTION_WHEEL_DESCRIPTIONS: dict[str, str] = {
    VARIANT_WHEEL_V1: "The first assumed action wheel: Water 2-4 alone, 1-2 shared",
    "wheel-even": "Candidate action wheel: Water shows Sow's pairs (2-5 alone, 1-3 shared)",
    "wheel-water-2": "The default action wheel, by name: the first wheel's Water one higher (3-5 alone, 2-3 shared)",
    "wheel-water-3": "Candidate action wheel: Water 4-6 alone, 3-4 shared",
}
"""What each action-wheel variant is, as the variant list shows it."""
ACTION_WHEEL = ACTION_WHEELS[""]
"""The default action wheel (DA-FR1b)."""


def action_wheel_variant(variants: tuple[str, ...] | list[str]) -> str:
    """The action-wheel variant among ``variants`` (``""``: the default); ValueError for two."""
    chosen = [v for v in variants if v in ACTION_WHEELS and v]
    if len(chosen) > 1:
        raise ValueError(f"choose at most one action wheel, not {' and '.join(chosen)}")
    return chosen[0] if chosen else ""


def action_wheel_of(variants: tuple[str, ...] | list[str]) -> tuple[WheelValues, ...]:
    """The action wheel (8 sections of alone/shared numbers) a game with ``variants`` plays with."""
    return ACTION_WHEELS[action_wheel_variant(variants)]


def wheel_count(section: int, card: int, alone: bool, wheel: tuple[WheelValues, ...] = ACTION_WHEEL) -> int:
    """How many Sow/Harvest/Water actions the action wheel ``wheel`` allows in ``section``."""
    values = wheel[section % len(wheel)]
    pair = (values.sow, values.harvest, values.water)[card]
    return pair[0] if alone else pair[1]


# --- the farmland (FOUND: 7 areas, 15 beds; DERIVED: one area of 3 beds; DA-FR2) --------------

AREA_COUNT = 7
"""FOUND: rivers divide the farmland into 7 pie-slice areas."""
AREA_BED_COUNTS = (3, 2, 2, 2, 2, 2, 2)
"""DERIVED: 15 beds in 7 areas of 2-3 beds force one area of 3 and six of 2; DA-FR2: A0 has 3."""
AREA_NAMES = tuple(f"A{i}" for i in range(AREA_COUNT))
"""DA-FR2: the areas are called A0..A6, clockwise."""


def _beds_of_areas() -> tuple[tuple[int, ...], ...]:
    beds: list[tuple[int, ...]] = []
    start = 0
    for count in AREA_BED_COUNTS:
        beds.append(tuple(range(start, start + count)))
        start += count
    return tuple(beds)


BEDS_OF_AREA = _beds_of_areas()
"""Global bed numbers (0..14) of each area."""
BED_COUNT = sum(AREA_BED_COUNTS)
AREA_OF_BED = tuple(a for a, beds in enumerate(BEDS_OF_AREA) for _ in beds)
SCARECROW_BED = tuple(beds[0] for beds in BEDS_OF_AREA)
"""DA-FR2: the first bed of each area carries the area's scarecrow; it is visible while that bed
is empty (so at most 7 are visible)."""
PASTURE_CAPACITY = 2
"""FOUND: each pasture has room for two animals (one pasture per area, DA-FR2)."""

# --- the player wheel (FOUND: 7 sectors, 4 sow + 3 harvest; positions DA-FR3) ---------------

SECTOR_COUNT = AREA_COUNT
SECTOR_SOW_CROP: tuple[int | None, ...] = (CARROTS, HAY, OATS, CORN, None, None, None)
"""DA-FR3: sectors k0..k3 let one crop be sown (carrots, hay, oats, corn); k4..k6 are harvest."""
SECTOR_IS_HARVEST = tuple(crop is None for crop in SECTOR_SOW_CROP)
HEAD_SECTOR = (3, 2, 1, 0)
"""DA-FR3: the animal heads: sheep on k3, pig on k2, cow on k1, horse on k0."""
PACIFIER_SECTOR = 6
"""DA-FR3: the pacifier is on k6; the bar lies between k6 and k0."""
BAR_AFTER_SECTOR = 6
"""DA-FR3: an area passing from k6 to k0 is crossed by the bar (it must be completely empty)."""
WHEEL_TURN_COST = 1
"""FOUND: 1 water per area the player wheel is turned."""

# --- ornamental buildings (FOUND: 25 tiles, 5 dark for Profi; list DA-FR4) --------------------


class Building(NamedTuple):
    """One ornamental building tile: its immediate reward and whether it scores a star symbol."""

    id: str
    label: str
    goods: tuple[int, int, int, int, int]
    """Goods taken from the supply at once, indexed like ``GOODS``."""
    feed_of_choice: int
    """Feed plants of the owner's choice taken at once."""
    star: bool
    """A star symbol: 3 stars at the end."""
    profi: bool
    """A dark-board tile, used only in the Profi game."""


def _b(
    n: int, label: str, goods: tuple[int, int, int, int, int], choice: int = 0, star: bool = False, profi: bool = False
) -> Building:
    return Building(f"OB{n:02d}", label, goods, choice, star, profi)


NONE = (0, 0, 0, 0, 0)
BUILDINGS: tuple[Building, ...] = (
    # DA-FR4: 5 star symbols
    *(_b(n, "star", NONE, star=True) for n in range(1, 6)),
    # DA-FR4: 4 tiles of 2 of one named feed
    _b(6, "2 carrots", (2, 0, 0, 0, 0)),
    _b(7, "2 hay", (0, 2, 0, 0, 0)),
    _b(8, "2 oats", (0, 0, 2, 0, 0)),
    _b(9, "2 corn", (0, 0, 0, 2, 0)),
    # DA-FR4: 4 tiles of 1 named feed + 1 water
    _b(10, "carrots+water", (1, 0, 0, 0, 1)),
    _b(11, "hay+water", (0, 1, 0, 0, 1)),
    _b(12, "oats+water", (0, 0, 1, 0, 1)),
    _b(13, "corn+water", (0, 0, 0, 1, 1)),
    # DA-FR4: 3 tiles of 2 water
    *(_b(n, "2 water", (0, 0, 0, 0, 2)) for n in range(14, 17)),
    # DA-FR4: 4 tiles of 1+1 of two named feeds
    _b(17, "carrots+oats", (1, 0, 1, 0, 0)),
    _b(18, "hay+corn", (0, 1, 0, 1, 0)),
    _b(19, "carrots+corn", (1, 0, 0, 1, 0)),
    _b(20, "hay+oats", (0, 1, 1, 0, 0)),
    # DA-FR4: the 5 dark-board (Profi) tiles
    _b(21, "star+water", (0, 0, 0, 0, 1), star=True, profi=True),
    _b(22, "star+water", (0, 0, 0, 0, 1), star=True, profi=True),
    _b(23, "3 feed of choice", NONE, choice=3, profi=True),
    _b(24, "3 water", (0, 0, 0, 0, 3), profi=True),
    _b(25, "2 feed of choice+water", (0, 0, 0, 0, 1), choice=2, profi=True),
)
"""DA-FR4: the 25 ornamental buildings (the printed list is unknown)."""
BUILDING_INDEX = {b.id: i for i, b in enumerate(BUILDINGS)}
STAR_BUILDING_VALUE = 3
"""FOUND: 3 stars per ornamental building with a star symbol."""
DISPLAY_SIZE = 2
"""FOUND: two ornamental buildings lie face up."""
GARDEN_SPACES = 6
"""FOUND: an ornamental garden holds 6 buildings (a full garden is extended with a spare one)."""
REMOVED_BY_PLAYERS = {1: 0, 2: 10, 3: 7, 4: 4}
"""FOUND: buildings drawn face down and removed at setup: 10/7/4 with 2/3/4 players (solo: none
are used at all)."""

# --- solo (FOUND: rulebook "The Solo Game") ---------------------------------------------------

SOLO_FIRST_STACK = (WATER_CARD, SOW, HARVEST)
"""FOUND: 1 Water, 1 Sow and 1 Harvest card form the first action stack."""
SOLO_SUPPLY_STACK = (WATER_CARD, WATER_CARD, SOW, SOW, HARVEST, HARVEST)
"""FOUND: 2 each of Water, Sow and Harvest form the supply stack."""
SOLO_MAX_TOKENS = 3
"""FOUND: at most three Special Action tokens at the same time."""
SOLO_GOAL = 150
"""FOUND: the solo goal is at least 150 stars."""
SOLO_TURNS = 42
"""DERIVED: action stacks of 3, 4, ..., 9 cards give exactly 42 turns (the rulebook says so)."""

FIRST_BOSS_SHEEP = 0
"""Rulebook: "the player who most recently petted a sheep" is the first Boss Sheep; we seat that
player at 0 (seat order is the table's to choose)."""
