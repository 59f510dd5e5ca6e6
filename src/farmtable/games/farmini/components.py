"""Farmini components as data: every card, the tokens, and the solo achievement table.

The rulebook (``shared/rulebooks/farmini.txt``) gives the counts; the printed cards are not
public, so most of what is below is a design assumption from ``shared/components/farmini.md``.
Each item carries its label:

- **FOUND**: stated by a public source (named in the component file);
- **DERIVED**: follows from found facts and the rulebook text;
- **DA-FMx**: a design assumption chosen to fit every rule of the rulebook.

Sources are named in ``shared/components/farmini.md`` (full addresses there); each card's
``label`` field repeats its own.

An owner of the physical game corrects the cards here, in this one module; nothing else in
the package hard-codes a card.

Card geometry (DA-FM1). A card is split into four quarters NE, SE, SW, NW by up to four
**arms** N, E, S, W that run from the card centre to the middle of each side; an arm is a
fence or pasture. Each quarter holds plain pasture ``G``, a cornfield ``C`` or an animal
cell ``A`` (room for one animal token).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# --- directions and quarters (DA-FM1) ------------------------------------------------------

SIDES: Final = ("N", "E", "S", "W")
"""Side / arm indices 0..3, clockwise from north. DA-FM1."""

QUARTERS: Final = ("NE", "SE", "SW", "NW")
"""Quarter indices 0..3, clockwise from north-east. Quarter ``i`` lies between arms ``i`` and ``i+1``."""

GRASS: Final = "G"
"""Plain pasture quarter. DA-FM1."""
CORN: Final = "C"
"""Cornfield quarter: scores 1 in an enclosed pen without animals (rulebook, Cornfields). DA-FM1."""
ANIMAL_CELL: Final = "A"
"""Animal cell quarter: room for exactly one animal token (rulebook, Animal Cards). DA-FM1."""
QUARTER_CONTENTS: Final = (GRASS, CORN, ANIMAL_CELL)

# --- animals --------------------------------------------------------------------------------

PIG: Final = "pig"
GOAT: Final = "goat"
CHICKEN: Final = "chicken"
KINDS: Final = (PIG, GOAT, CHICKEN)
"""The three animal kinds, in the rulebook's tie-break order (pig, goat, chicken). FOUND (rulebook)."""

TOKENS_PER_KIND: Final = 5
"""DERIVED: 15 animal tokens (rulebook, Components) over 3 kinds -> 5 of each."""
TOTAL_TOKENS: Final = TOKENS_PER_KIND * len(KINDS)

# --- table ----------------------------------------------------------------------------------

FACE_UP_CARDS: Final = 4
"""Cards face up in the middle of the table (rulebook, Setup / Gameplay). FOUND."""
FARM_CARD_COUNT: Final = 4
"""Farm cards in the box (rulebook, Components). FOUND."""


@dataclass(frozen=True)
class FenceCard:
    """A card that is attached to a farm: a fence card, a starting card or a farm card.

    ``arms`` holds the fenced arms (a subset of N, E, S, W); ``quarters`` the contents of
    NE, SE, SW, NW as a 4-letter string of ``G``/``C``/``A``. ``label`` says where the data
    comes from.
    """

    id: str
    arms: frozenset[str]
    quarters: str
    starting: bool = False
    farm: bool = False
    label: str = "DA-FM3 (faces assumed); FOUND: 32 fence cards, 4 of them starting cards (rulebook, Components)"


@dataclass(frozen=True)
class AnimalCard:
    """An animal card: take ``count`` tokens of ``kind`` from the farmyard and place them."""

    id: str
    kind: str
    count: int
    label: str = "DA-FM4 (split assumed); FOUND: 1 or 2 animals of one kind (brettspieler.de, cptoys.it, universin.es)"


@dataclass(frozen=True)
class WolfCard:
    """A wolf card: scatters the tokens of ``kind`` that are not inside an enclosed pen."""

    id: str
    kind: str
    label: str = "DA-FM5 (2 per kind); FOUND: a wolf plus one animal kind (reich-der-spiele.de, universin.es)"


def _fence(card_id: str, arms: str, quarters: str, starting: bool = False) -> FenceCard:
    """One row of the DA-FM3 table: ``arms`` like "N E S", ``quarters`` like "C G A G"."""
    return FenceCard(card_id, frozenset(arms.split()), quarters.replace(" ", ""), starting=starting)


FARM_CARDS: Final = tuple(
    # DA-FM2: all farm cards identical (FOUND: identical); fence cross with the farmhouse on the
    # crossing (FOUND); 1 cornfield + 3 animal cells (FOUND); which quarter holds the corn: DA-FM2.
    FenceCard(
        f"H{i}",
        frozenset(SIDES),
        "CAAA",
        farm=True,
        label="FOUND: identical fence cross, farmhouse, 1 cornfield + 3 animal cells (ludorium.at, "
        "reich-der-spiele.de, brettspieler.de); DA-FM2: the cornfield is the NE quarter",
    )
    for i in range(1, FARM_CARD_COUNT + 1)
)
"""The four identical farm cards (ids H1..H4; H = house). Unused ones are shuffled into the deck."""

FENCE_CARDS_V1: Final = (
    # DA-FM3 v1 (variant cards-v1): the 32 fence cards (4 starting, marked True). Quarters listed NE SE SW NW.
    _fence("A1", "N E S W", "C G A G", True),
    _fence("A2", "N E S W", "C C G A"),
    _fence("A3", "N E S W", "A C G C"),
    _fence("A4", "N E S W", "C G C G"),
    _fence("B1", "N E S", "C A G G", True),
    _fence("B2", "N E S", "C G C G"),
    _fence("B3", "N E S", "A C G G"),
    _fence("B4", "N E S", "G C A G"),
    _fence("B5", "N E S", "C G G A"),
    _fence("B6", "N E S", "C A G C"),
    _fence("C1", "N E", "C G A G", True),
    _fence("C2", "N E", "A C G G"),
    _fence("C3", "N E", "C G G C"),
    _fence("C4", "N E", "G A C G"),
    _fence("C5", "N E", "C G A G"),
    _fence("C6", "N E", "A G G C"),
    _fence("C7", "N E", "C C G G"),
    _fence("C8", "N E", "G G C A"),
    _fence("D1", "N S", "C G G A", True),
    _fence("D2", "N S", "G C G G"),
    _fence("D3", "N S", "A G G G"),
    _fence("D4", "N S", "G G C G"),
    _fence("D5", "N S", "G G G G"),
    _fence("D6", "N S", "G A G G"),
    _fence("D7", "N S", "G G G G"),
    _fence("D8", "N S", "G G A G"),
    _fence("E1", "N", "G G G G"),
    _fence("E2", "N", "G G G G"),
    _fence("F1", "", "G G G G"),
    _fence("F2", "", "C G G G"),
    _fence("F3", "", "G G G G"),
    _fence("F4", "", "G G G G"),
)
"""The first assumed faces of the 32 fence cards (variant ``cards-v1``; FOUND: 32 incl. 4 starting)."""

REVISIONS: Final[dict[str, tuple[str, str]]] = {
    # DA-FM3 revision (issue 14): card id -> (arms, quarters NE SE SW NW). The seven cards that
    # showed nothing get one cornfield each, fences unchanged. Reasons (the solo table asks for
    # 15 animals + 20 scoring cornfields at the top; no blank cards in a children's game) and the
    # measured effect: docs/games/farmini.md, "Card data review".
    "D5": ("N S", "C G G G"),
    "D7": ("N S", "G G C G"),
    "E1": ("N", "C G G G"),
    "E2": ("N", "G G G C"),
    "F1": ("", "C G G G"),
    "F3": ("", "C G G G"),
    "F4": ("", "C G G G"),
}
"""What the default faces change against ``cards-v1``: the only place the revision is written."""


def with_face(card: FenceCard, arms: str, quarters: str, label: str = FenceCard.label) -> FenceCard:
    """``card`` (same id, same starting flag) showing other fences ``arms`` ("N E") and ``quarters``
    ("C G G G", NE SE SW NW), with the source ``label`` (by default the assumed faces' label)."""
    return FenceCard(card.id, frozenset(arms.split()), quarters.replace(" ", ""), card.starting, label=label)


def _revised(card: FenceCard) -> FenceCard:
    """``card`` with its DA-FM3 revision applied (unchanged when it has none)."""
    if card.id not in REVISIONS:
        return card
    label = "DA-FM3 revised (issue 14; faces assumed); FOUND: 32 fence cards, 4 of them starting cards (rulebook)"
    return with_face(card, *REVISIONS[card.id], label=label)


FENCE_CARDS: Final = tuple(_revised(card) for card in FENCE_CARDS_V1)
"""The 32 fence cards as played by default (FOUND: 32 incl. 4 starting cards; faces: DA-FM3 revised)."""

DEFAULT_FACES: Final = "revised"
"""Name of the default card faces."""
CARDS_V1: Final = "cards-v1"
"""The variant (and face-set name) that plays the first assumed faces, before the issue 14 review."""

CARD_FACES: Final[dict[str, tuple[FenceCard, ...]]] = {
    DEFAULT_FACES: (*FARM_CARDS, *FENCE_CARDS),
    CARDS_V1: (*FARM_CARDS, *FENCE_CARDS_V1),
}
"""Every face set by name: the farm cards and the 32 fence cards. Only faces differ; ids never do."""


def faces_name(variants: tuple[str, ...] | list[str] | frozenset[str]) -> str:
    """The face set a game with ``variants`` plays: ``cards-v1`` when named, else the default."""
    return CARDS_V1 if CARDS_V1 in variants else DEFAULT_FACES


ANIMAL_CARD_PREFIX: Final = {PIG: "P", GOAT: "G", CHICKEN: "K"}
"""Id letter of each kind's animal cards (K for chicken: C1-C8 are fence cards)."""

TWO_ANIMAL_CARD_NUMBER: Final = 4
"""DA-FM4: of each kind's cards 1-4, card 4 shows two animals, the others one."""

ANIMAL_CARDS: Final = tuple(
    # DA-FM4: per kind three cards showing 1 animal and one showing 2 (FOUND: 1 or 2 of one kind).
    AnimalCard(f"{ANIMAL_CARD_PREFIX[kind]}{n}", kind, 2 if n == TWO_ANIMAL_CARD_NUMBER else 1)
    for kind in KINDS
    for n in range(1, TWO_ANIMAL_CARD_NUMBER + 1)
)
"""The 12 animal cards: P1-P4 (pigs), G1-G4 (goats), K1-K4 (chickens); number 4 shows two."""

WOLVES_PER_KIND: Final = 2
"""DA-FM5 / DERIVED: 6 wolf cards (FOUND) over 3 kinds."""

WOLF_CARDS: Final = tuple(
    # DA-FM5: 2 wolves per kind (FOUND: each wolf shows one kind; DERIVED: 6 / 3 = 2).
    WolfCard(f"W{ANIMAL_CARD_PREFIX[kind]}{n}", kind)
    for kind in KINDS
    for n in range(1, WOLVES_PER_KIND + 1)
)
"""The 6 wolf cards: WP1, WP2 (pigs), WG1, WG2 (goats), WK1, WK2 (chickens)."""

Card = FenceCard | AnimalCard | WolfCard
"""Any card of the deck."""

_EVERY_CARD: Final[tuple[Card, ...]] = (*FARM_CARDS, *FENCE_CARDS, *ANIMAL_CARDS, *WOLF_CARDS)
ALL_CARDS: Final[dict[str, Card]] = {c.id: c for c in _EVERY_CARD}
"""Every card by id (54 cards: FOUND count)."""

STARTING_CARD_IDS: Final = tuple(c.id for c in FENCE_CARDS if c.starting)
"""The four starting cards, face up at setup (rulebook, Setup)."""

# --- solo achievements (rulebook, Your Achievements (Solo)) -- FOUND ------------------------

SOLO_ACHIEVEMENTS: Final = (
    # (minimum points normal rules, minimum points second variant, description)
    (35, 50, "Congratulations! You won the competition!"),
    (30, 40, "You made it onto the podium! Next year you will surely get the grand prize!"),
    (20, 30, "Your ponies could not resist the fresh corncobs."),
    (10, 20, "Almost! The wolf scattered your pets too often."),
    (0, 0, "The jury thought you had a barn, not a farm. Try again next year!"),
)
"""The solo table, best row first: (normal-rules minimum, second-variant minimum, text). FOUND."""


def _check_data() -> None:
    """Refuse inconsistent component data at import time (a wrong edit here fails loudly)."""
    if len(ALL_CARDS) != len(_EVERY_CARD):
        raise ValueError("two Farmini cards share an id")
    for name, faces in CARD_FACES.items():
        if [c.id for c in faces] != [c.id for c in (*FARM_CARDS, *FENCE_CARDS_V1)]:
            raise ValueError(f"face set {name}: every face set has the same card ids in the same order")
    if set(REVISIONS) - {c.id for c in FENCE_CARDS_V1}:
        raise ValueError("a revision names a card that is not a fence card")
    for card in (*FARM_CARDS, *FENCE_CARDS, *FENCE_CARDS_V1):
        if len(card.quarters) != len(QUARTERS) or set(card.quarters) - set(QUARTER_CONTENTS):
            raise ValueError(f"card {card.id}: quarters must be 4 letters of G, C, A")
        if not card.arms <= set(SIDES):
            raise ValueError(f"card {card.id}: arms must be among N, E, S, W")
    for kind in KINDS:
        shown = sum(c.count for c in ANIMAL_CARDS if c.kind == kind)
        if shown != TOKENS_PER_KIND:
            raise ValueError(f"animal cards show {shown} {kind}s, expected {TOKENS_PER_KIND}")
    if len(STARTING_CARD_IDS) != FACE_UP_CARDS:
        raise ValueError("there must be exactly four starting cards")


_check_data()
