"""Card geometry and pens: a player's farm as a grid of rotated cards (DA-FM1).

Coordinates: the farm card lies at ``(0, 0)``; ``x`` grows to the east, ``y`` to the north.
A card placed at a position has a rotation of 0, 90, 180 or 270 degrees **clockwise**.

Inside one card the quarters NE, SE, SW, NW (indices 0..3) are separated by the arms N, E,
S, W (indices 0..3): quarter ``q`` lies between arm ``q`` and arm ``q+1`` and touches the
card sides ``q`` and ``q+1``. Two quarters of one card that share an arm connect unless that
arm is a fence. Across a card side there is never a fence, so a quarter connects to the
mirror quarter of the neighbouring card (NE of a card to NW of its east neighbour and to SE of
its north neighbour). A connected set of quarters is a **region**; a region is an **enclosed
pen** ("enclosed fence" in the rulebook) when no quarter of it has a side facing an empty grid
position: it is closed on every side.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import count, filterfalse
from typing import Final

from farmtable.games.farmini.components import (
    ANIMAL_CELL,
    CARD_FACES,
    DEFAULT_FACES,
    QUARTERS,
    SIDES,
    FenceCard,
    faces_name,
)

Pos = tuple[int, int]
"""A grid position ``(x, y)`` of a farm."""
Cell = tuple[int, int, int]
"""A quarter of the card at ``(x, y)``: ``(x, y, quarter index)``."""
Arms = tuple[bool, bool, bool, bool]
Slot = tuple[Pos, int, int]
"""An empty position next to a farm, the sides where it has a neighbour (bit mask) and which of
those neighbours show a fence there (bit mask): a new card fits when its fence bits on the
masked sides equal that value."""
"""Fence (True) or pasture (False) for the arms N, E, S, W of a placed card."""
NO_ARMS: Final[Arms] = (False, False, False, False)
"""A missing card in the gap reading: no fences, so its four quarters are one open space."""

ROTATIONS: Final = (0, 90, 180, 270)
"""The four ways to turn a card, in degrees clockwise."""
QUARTER_TURN: Final = 90
SIDE_COUNT: Final = len(SIDES)

DELTA: Final[tuple[Pos, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Grid step through side N, E, S, W."""

MIRROR: Final = (
    (1, 0, 3, 2),  # across a N side: NE <-> SE, NW <-> SW (indices NE=0, SE=1, SW=2, NW=3)
    (3, 2, 1, 0),  # across an E side: NE <-> NW, SE <-> SW
    (1, 0, 3, 2),  # across a S side
    (3, 2, 1, 0),  # across a W side
)
"""``MIRROR[side][q]``: the quarter of the neighbour across ``side`` that touches quarter ``q``."""

QUARTER_INDEX: Final = {name: i for i, name in enumerate(QUARTERS)}
SIDE_NAMES: Final = ("north", "east", "south", "west")


def opposite(side: int) -> int:
    """The side facing ``side`` on the neighbouring card (N <-> S, E <-> W)."""
    return (side + 2) % SIDE_COUNT


# --- positions and slots as ints (the frontier kept up to date card by card) ------------------

KIND_SHIFT: Final = 4
"""A slot kind is one int, ``mask << KIND_SHIFT | value``: the sides of an empty position that have a
neighbouring card (bit ``side``, high nibble) and which of those neighbours show a fence there (low
nibble). ``Faces.fit_table(card_id)[kind]`` are the rotations of a card that fit it."""
KIND_BITS: Final = 8
"""A slot code is ``pos_code << KIND_BITS | kind``: one int per frontier slot, sorted like (x, y)."""
_KIND_MASK: Final = (1 << KIND_BITS) - 1
_NIBBLE: Final = (1 << KIND_SHIFT) - 1
_Y_BITS: Final = 16
_Y_MASK: Final = (1 << _Y_BITS) - 1
_OFFSET: Final = 1 << (_Y_BITS - 1)
CARD_LIMIT: Final = _OFFSET - 1
"""A card's ``|x|`` and ``|y|`` stay below this (its empty neighbours need a number too)."""
POS_OFFSET: Final = _OFFSET
"""Added to x and to y before they are numbered (:func:`pos_code`)."""
Y_MASK: Final = _Y_MASK
"""``pos_code & Y_MASK`` is ``y + POS_OFFSET``."""
Y_BITS: Final = _Y_BITS
"""Bits of the y half of a position number (:func:`pos_code`): ``pos_code >> Y_BITS`` is ``x + POS_OFFSET``."""
SLOT_X_SHIFT: Final = KIND_BITS + _Y_BITS
"""``slot_code >> SLOT_X_SHIFT`` is ``x + POS_OFFSET``; ``slot_code >> KIND_BITS & Y_MASK`` is ``y + POS_OFFSET``."""
POS_STEP: Final = (1, 1 << _Y_BITS, -1, -(1 << _Y_BITS))
"""``pos_code`` step through side N, E, S, W (the ``DELTA`` of the numbering)."""


def pos_code(pos: Pos) -> int:
    """The number of a grid position: ``(x + 2**15) << 16 | (y + 2**15)``; numbers sort like positions."""
    return (pos[0] + _OFFSET) << _Y_BITS | (pos[1] + _OFFSET)


def code_pos(code: int) -> Pos:
    """The grid position of a :func:`pos_code` (or of a slot code shifted right by ``KIND_BITS``)."""
    return ((code >> _Y_BITS) - _OFFSET, (code & _Y_MASK) - _OFFSET)


def slot_kind(mask: int, value: int) -> int:
    """The kind of a slot (sides with a neighbour, which are fences) as one int (see ``KIND_SHIFT``)."""
    return mask << KIND_SHIFT | value


def slot_of_code(code: int) -> Slot:
    """A slot code read back: ``(position, sides with a neighbour, which are fences)``."""
    kind = code & _KIND_MASK
    return (code_pos(code >> KIND_BITS), kind >> KIND_SHIFT, kind & _NIBBLE)


@dataclass(frozen=True, slots=True)
class Oriented:
    """A card as it lies after rotation: its arms and quarter contents by index."""

    card_id: str
    rot: int
    arms: Arms
    quarters: str
    bits: int
    """The arms as a bit mask: bit ``side`` set when that arm is a fence (for fast matching)."""
    animal_quarters: tuple[int, ...] = ()
    """The quarters that are animal cells, in index order."""
    adds: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Per side N, E, S, W: what this card adds to the slot kind (:func:`slot_kind`) of the empty
    position across that side: the bit of the side facing it, in the "has a neighbour" nibble, and
    in the "is a fence" nibble too when this card's arm there is a fence."""


def _orient(card: FenceCard, rot: int) -> Oriented:
    """Turn ``card`` ``rot`` degrees clockwise: arm/quarter ``i`` moves to ``i + rot/90``."""
    steps = rot // QUARTER_TURN
    base_arms = [side in card.arms for side in SIDES]
    arms = [False] * SIDE_COUNT
    quarters = [""] * SIDE_COUNT
    for i in range(SIDE_COUNT):
        arms[(i + steps) % SIDE_COUNT] = base_arms[i]
        quarters[(i + steps) % SIDE_COUNT] = card.quarters[i]
    bits = sum(1 << side for side in range(SIDE_COUNT) if arms[side])
    adds = [0] * SIDE_COUNT
    for side in range(SIDE_COUNT):
        facing = 1 << opposite(side)
        adds[side] = facing << KIND_SHIFT | (facing if arms[side] else 0)
    animal_quarters = tuple(q for q in range(SIDE_COUNT) if quarters[q] == ANIMAL_CELL)
    return Oriented(
        card.id,
        rot,
        (arms[0], arms[1], arms[2], arms[3]),
        "".join(quarters),
        bits,
        animal_quarters,
        (adds[0], adds[1], adds[2], adds[3]),
    )


class Faces:
    """One face set (``components.CARD_FACES``) turned every way, computed once.

    ``oriented[card_id, rot]`` is the card as it lies; ``distinct_rotations[card_id]`` the
    rotations that look different (turning F1, all pasture, changes nothing);
    ``rotation_bits[card_id]`` those rotations as (fence bit mask, rotation) pairs for fast
    matching.
    """

    __slots__ = (
        "_fit_kinds",
        "_fit_tables",
        "_fits",
        "_kind_sets",
        "cards",
        "distinct_rotations",
        "name",
        "oriented",
        "rotation_bits",
    )

    def __init__(self, name: str, cards: Iterable[FenceCard]) -> None:
        self.name = name
        self.cards: dict[str, FenceCard] = {card.id: card for card in cards}
        self.oriented: dict[tuple[str, int], Oriented] = {
            (card.id, rot): _orient(card, rot) for card in self.cards.values() for rot in ROTATIONS
        }
        self.distinct_rotations: dict[str, tuple[int, ...]] = {}
        for card in self.cards.values():
            looks: dict[tuple[Arms, str], int] = {}
            for rot in ROTATIONS:
                o = self.oriented[card.id, rot]
                looks.setdefault((o.arms, o.quarters), rot)
            self.distinct_rotations[card.id] = tuple(sorted(set(looks.values())))
        self.rotation_bits: dict[str, tuple[tuple[int, int], ...]] = {
            card_id: tuple((self.oriented[card_id, rot].bits, rot) for rot in rots)
            for card_id, rots in self.distinct_rotations.items()
        }
        self._fits: dict[str, dict[tuple[int, int], tuple[int, ...]]] = {}
        self._fit_kinds: dict[str, frozenset[tuple[int, int]]] = {}
        self._fit_tables: dict[str, tuple[tuple[int, ...], ...]] = {}
        self._kind_sets: dict[str, frozenset[int]] = {}

    def fit_rotations(self, card_id: str) -> dict[tuple[int, int], tuple[int, ...]]:
        """For every kind of slot a card can fit, (sides with a neighbour, which are fences) -> the
        rotations of ``card_id`` that fit it, in ``rotation_bits`` order; made once per card."""
        known = self._fits.get(card_id)
        if known is None:
            turns = self.rotation_bits[card_id]
            known = {}
            for mask in range(1 << SIDE_COUNT):
                for value in range(1 << SIDE_COUNT):
                    if value & ~mask:
                        continue
                    rots = tuple(rot for bits, rot in turns if bits & mask == value)
                    if rots:
                        known[mask, value] = rots
            self._fits[card_id] = known
        return known

    def fit_kinds(self, card_id: str) -> frozenset[tuple[int, int]]:
        """The kinds of slot ``card_id`` fits in some rotation: the keys of :meth:`fit_rotations`."""
        known = self._fit_kinds.get(card_id)
        if known is None:
            known = self._fit_kinds[card_id] = frozenset(self.fit_rotations(card_id))
        return known

    def fit_table(self, card_id: str) -> tuple[tuple[int, ...], ...]:
        """:meth:`fit_rotations` indexed by slot kind (:func:`slot_kind`): ``fit_table(c)[slot_kind(m, v)]``
        equals ``fit_rotations(c).get((m, v), ())`` for every mask ``m`` and value ``v``; made once per card."""
        known = self._fit_tables.get(card_id)
        if known is None:
            fits = self.fit_rotations(card_id)
            known = tuple(fits.get((kind >> KIND_SHIFT, kind & _NIBBLE), ()) for kind in range(1 << KIND_BITS))
            self._fit_tables[card_id] = known
        return known

    def kind_set(self, card_id: str) -> frozenset[int]:
        """:meth:`fit_kinds` as slot kinds (:func:`slot_kind`): the kinds of slot ``card_id`` fits."""
        known = self._kind_sets.get(card_id)
        if known is None:
            known = self._kind_sets[card_id] = frozenset(slot_kind(m, v) for m, v in self.fit_kinds(card_id))
        return known

    def canonical_rotation(self, card_id: str, rot: int) -> int:
        """The smallest rotation that gives ``card_id`` the same look as ``rot``."""
        o = self.oriented[card_id, rot]
        for r in self.distinct_rotations[card_id]:
            other = self.oriented[card_id, r]
            if other.arms == o.arms and other.quarters == o.quarters:
                return r
        return rot  # pragma: no cover - every rotation has a look

    def __repr__(self) -> str:
        return f"Faces({self.name!r})"


FACES: Final[dict[str, Faces]] = {name: Faces(name, cards) for name, cards in CARD_FACES.items()}
"""Every face set by name (the default and the ``cards-v1`` variant)."""

DEFAULT: Final = FACES[DEFAULT_FACES]
"""The default face set."""


def faces_for(variants: tuple[str, ...] | list[str] | frozenset[str]) -> Faces:
    """The face set a game with ``variants`` plays (``cards-v1`` or the default)."""
    return FACES[faces_name(variants)]


ORIENTED: Final = DEFAULT.oriented
"""Every fence/farm card of the default faces in every rotation (a game reads its farm's ``faces``)."""

DISTINCT_ROTATIONS: Final = DEFAULT.distinct_rotations
"""Rotations worth offering per card under the default faces."""

ROTATION_BITS: Final = DEFAULT.rotation_bits
"""Per card of the default faces, its distinct rotations as (fence bit mask, rotation) pairs."""


def canonical_rotation(card_id: str, rot: int, faces: Faces = DEFAULT) -> int:
    """The smallest rotation that gives ``card_id`` the same look as ``rot`` (under ``faces``)."""
    return faces.canonical_rotation(card_id, rot)


@dataclass(frozen=True, slots=True)
class Region:
    """A connected set of quarters; ``closed`` when it is an enclosed pen."""

    cells: tuple[Cell, ...]
    closed: bool
    gaps: tuple[Pos, ...] = ()
    """Gap reading only: the empty grid positions (missing cards) this enclosed fence surrounds."""


next_version: Final = count(1).__next__
"""A new :attr:`Farm.version`: a process-wide counter, so no two contents ever share a number."""


class Farm:
    """One player's farm: placed cards, animals on animal cells, and its regions (cached).

    The frontier is kept up to date card by card (``put_card``): ``_open`` maps the number
    (:func:`pos_code`) of every empty position next to the farm to its slot code (:func:`slot_of_code`),
    ``_filled`` maps the number of each position with a card to that card's arms. Both equal what :meth:`plain_slots`
    computes from ``cards`` (``tests/games/farmini/test_frontier.py``).
    """

    __slots__ = (
        "_animal_cells",
        "_filled",
        "_fits_card",
        "_frontier",
        "_open",
        "_open_regions",
        "_regions",
        "_slot_kinds",
        "animals",
        "cards",
        "faces",
        "gaps_enclose",
        "version",
    )

    def __init__(self, gaps_enclose: bool = False, faces: Faces = DEFAULT) -> None:
        self.faces = faces
        """The card faces this farm's cards show (the default, or the ``cards-v1`` variant's)."""
        self.gaps_enclose = gaps_enclose
        """The gap reading (DA-FM7): a ring of fences around a missing card is still an enclosed
        fence, the missing card being a gap (empty cells) inside it. False: a quarter facing a
        missing card is never enclosed."""
        self.cards: dict[Pos, Oriented] = {}
        self.animals: dict[Cell, str] = {}
        self._open: dict[int, int] = {}
        """Per empty position next to the farm, by its number (:func:`pos_code`): its slot code."""
        self._filled: dict[int, Arms] = {}
        """The arms of every card by the number (:func:`pos_code`) of its position (``penned`` floods them)."""
        self._regions: tuple[Region, ...] | None = None
        self._open_regions: tuple[Region, ...] | None = None
        self._frontier: tuple[Slot, ...] | None = None
        self._slot_kinds: frozenset[int] | None = None
        self._animal_cells: tuple[Cell, ...] | None = None
        self._fits_card: dict[str, bool] = {}
        """``can_place`` answers for this layout, by card (shared by copies until either lays a card)."""
        self.version = next_version()
        """A change counter: a new number (:func:`next_version`, unique in the process) whenever a card is
        laid (``put_card``) or ``animals`` changes (the rules' moves and wolves). A copy keeps its original's
        number, so two farms with the same version hold the same cards and animals: a reader may keep what
        it computed from a farm by its version (``rl/farmini.py`` keeps each farm's encoding). Code that
        edits ``cards`` or ``animals`` by hand calls :meth:`touch` afterwards."""

    def touch(self) -> None:
        """Give the farm a new :attr:`version` (after ``cards`` or ``animals`` were edited by hand)."""
        self.version = next_version()

    def _changed(self) -> None:
        """Forget what was computed from the cards (called whenever a card is laid); a new version."""
        self.version = next_version()
        self._fits_card = {}
        self._regions = None
        self._open_regions = None
        self._frontier = None
        self._slot_kinds = None
        self._animal_cells = None

    # --- building -------------------------------------------------------------------------

    def copy(self) -> Farm:
        """An independent copy (oriented cards and regions are immutable, so shared)."""
        other = Farm.__new__(Farm)
        other.gaps_enclose = self.gaps_enclose
        other.faces = self.faces
        other.cards = dict(self.cards)
        other.animals = dict(self.animals)
        other._open = dict(self._open)
        other._filled = dict(self._filled)
        other._regions = self._regions
        other._open_regions = self._open_regions
        other._frontier = self._frontier
        other._slot_kinds = self._slot_kinds
        other._animal_cells = self._animal_cells
        other._fits_card = self._fits_card
        other.version = self.version
        return other

    def put_card(self, card_id: str, pos: Pos, rot: int) -> None:
        """Lay a card without checking the rules (used by setup, loading and tests).

        The frontier is updated in place: the position leaves it, and each empty neighbour gains
        this card's side (``Oriented.adds``). A card laid over another rebuilds it from the cards.
        Positions must lie within ``CARD_LIMIT`` of the farm card (ValueError otherwise).
        """
        card = self.faces.oriented[card_id, rot]
        x, y = pos
        if not (-CARD_LIMIT < x < CARD_LIMIT and -CARD_LIMIT < y < CARD_LIMIT):
            raise ValueError(f"a card at {x},{y} lies too far out: |x| and |y| must stay below {CARD_LIMIT}")
        cards = self.cards
        if pos in cards:  # a card laid over another: number everything afresh
            cards[pos] = card
            self._rebuild_frontier()
            self._changed()
            return
        cards[pos] = card
        here = (x + _OFFSET) << _Y_BITS | (y + _OFFSET)
        opened = self._open
        filled = self._filled
        opened.pop(here, None)
        filled[here] = card.arms
        north, east, south, west = card.adds
        # The four neighbours (POS_STEP: N, E, S, W), written out: this runs for every card laid.
        there = here + 1
        if there not in filled:
            opened[there] = opened.get(there, there << KIND_BITS) | north
        there = here + (1 << _Y_BITS)
        if there not in filled:
            opened[there] = opened.get(there, there << KIND_BITS) | east
        there = here - 1
        if there not in filled:
            opened[there] = opened.get(there, there << KIND_BITS) | south
        there = here - (1 << _Y_BITS)
        if there not in filled:
            opened[there] = opened.get(there, there << KIND_BITS) | west
        known = self._animal_cells
        # self._changed(), written out
        self.version = next_version()
        self._fits_card = {}
        self._regions = self._open_regions = self._frontier = self._slot_kinds = self._animal_cells = None
        if known is not None:
            # A card on a new position adds its animal cells to the sorted list (no full rebuild).
            if card.animal_quarters:
                cells = list(known)
                for q in card.animal_quarters:
                    insort(cells, (x, y, q))
                known = tuple(cells)
            self._animal_cells = known

    def _rebuild_frontier(self) -> None:
        """Number the cards and the frontier afresh from ``cards`` (:meth:`plain_slots`)."""
        self._filled = {pos_code(pos): card.arms for pos, card in self.cards.items()}
        self._open = {pos_code(pos): pos_code(pos) << KIND_BITS | slot_kind(m, v) for pos, m, v in self.plain_slots()}

    def plain_slots(self) -> list[Slot]:
        """The frontier computed from ``cards`` alone, sorted by position: what :meth:`slots` equals."""
        cards = self.cards
        empty = {(x + dx, y + dy) for (x, y) in cards for dx, dy in DELTA} - set(cards)
        found: list[Slot] = []
        for x, y in sorted(empty):
            mask = value = 0
            for side in range(SIDE_COUNT):
                dx, dy = DELTA[side]
                other = cards.get((x + dx, y + dy))
                if other is not None:
                    mask |= 1 << side
                    if other.arms[opposite(side)]:
                        value |= 1 << side
            found.append(((x, y), mask, value))
        return found

    def frontier(self) -> list[Pos]:
        """Empty positions that share a side with a card of the farm, sorted."""
        return [code_pos(code) for code in sorted(self._open)]

    def slot_codes(self) -> list[int]:
        """The frontier as slot codes (:func:`slot_of_code`), sorted by position: ``slots()`` as ints."""
        return sorted(self._open.values())

    def slots(self) -> tuple[Slot, ...]:
        """The frontier with what each position requires of a new card's arms; cached."""
        if self._frontier is None:
            self._frontier = tuple(map(slot_of_code, sorted(self._open.values())))
        return self._frontier

    def fits(self, card: Oriented, pos: Pos) -> bool:
        """Whether ``card`` may be attached at ``pos`` (rulebook, Fence Cards: sides must match)."""
        cards = self.cards
        if pos in cards:
            return False
        x, y = pos
        touching = False
        arms = card.arms
        for side in range(SIDE_COUNT):
            dx, dy = DELTA[side]
            other = cards.get((x + dx, y + dy))
            if other is not None:
                touching = True
                if other.arms[(side + 2) % SIDE_COUNT] != arms[side]:
                    return False
        return touching

    def misfit(self, card: Oriented, pos: Pos) -> str | None:
        """Why ``card`` may not go to ``pos``, in player words; None if it fits."""
        if pos in self.cards:
            return f"{pos[0]},{pos[1]} already holds card {self.cards[pos].card_id}"
        x, y = pos
        touching = False
        for side in range(SIDE_COUNT):
            dx, dy = DELTA[side]
            other = self.cards.get((x + dx, y + dy))
            if other is None:
                continue
            touching = True
            mine, theirs = card.arms[side], other.arms[opposite(side)]
            if mine != theirs:
                kind = {True: "a fence", False: "pasture"}
                return (
                    f"sides must match (fence to fence, pasture to pasture): {card.card_id} rot {card.rot} "
                    f"has {kind[mine]} on its {SIDE_NAMES[side]} side but {other.card_id} at "
                    f"{x + dx},{y + dy} has {kind[theirs]} there"
                )
        if not touching:
            return f"a new card must touch your farm: {x},{y} shares no side with any of your cards"
        return None

    def placements(self, card_id: str) -> list[tuple[Pos, int]]:
        """Every (position, rotation) where ``card_id`` may be attached, in a fixed order.

        Same answer as :meth:`fits` over the frontier, computed with bit masks: a card fits a
        slot when its fenced arms agree with the neighbours on every side that has one.
        """
        table = self.faces.fit_table(card_id)
        return [(code_pos(code >> KIND_BITS), rot) for code in self.slot_codes() for rot in table[code & _KIND_MASK]]

    def can_place(self, card_id: str) -> bool:
        """Whether the card fits anywhere on this farm (checked once per kind of slot; remembered)."""
        known = self._fits_card.get(card_id)
        if known is None:
            kinds = self._slot_kinds
            if kinds is None:
                kinds = self._slot_kinds = frozenset(map(_KIND_MASK.__and__, self._open.values()))
            faces = self.faces
            known = not kinds.isdisjoint(faces._kind_sets.get(card_id) or faces.kind_set(card_id))
            self._fits_card[card_id] = known
        return known

    def is_connected(self) -> bool:
        """Whether every card can be reached from every other through shared sides."""
        if not self.cards:
            return True
        start = min(self.cards)
        seen = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in DELTA:
                nxt = (x + dx, y + dy)
                if nxt in self.cards and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return len(seen) == len(self.cards)

    # --- contents ---------------------------------------------------------------------------

    def content(self, cell: Cell) -> str | None:
        """What the quarter holds (G, C or A), or None if no card lies there."""
        card = self.cards.get((cell[0], cell[1]))
        return None if card is None else card.quarters[cell[2]]

    def animal_cells(self) -> tuple[Cell, ...]:
        """Every animal cell of the farm, sorted; cached."""
        if self._animal_cells is None:
            self._animal_cells = tuple(
                sorted(
                    (x, y, q)
                    for (x, y), card in self.cards.items()
                    for q in range(SIDE_COUNT)
                    if card.quarters[q] == ANIMAL_CELL
                )
            )
        return self._animal_cells

    def free_cells(self) -> list[Cell]:
        """Animal cells with no animal, sorted (where a new token may go)."""
        return list(filterfalse(self.animals.__contains__, self.animal_cells()))

    def free_count(self) -> int:
        """``len(self.free_cells())``: animal cells minus animals (animals lie only on animal cells)."""
        return len(self.animal_cells()) - len(self.animals)

    def count(self, kind: str) -> int:
        """How many tokens of ``kind`` are on the farm."""
        return sum(1 for k in self.animals.values() if k == kind)

    # --- regions and pens -----------------------------------------------------------------

    def regions(self) -> tuple[Region, ...]:
        """All connected pasture regions (open and closed), in a fixed order; cached."""
        if self._regions is None:
            self._regions = tuple(self._compute_regions())
        return self._regions

    def regions_without_gaps(self) -> tuple[Region, ...]:
        """The regions as the first gap reading sees them (a quarter facing a missing card is open).

        The same as :meth:`regions` when ``gaps_enclose`` is off; cached. The evaluation reads the
        farm this way: a ring around a missing card is a pen that is still one card short.
        """
        if not self.gaps_enclose:
            return self.regions()
        if self._open_regions is None:
            self._open_regions = tuple(self._compute_regions(gaps_enclose=False))
        return self._open_regions

    def pens(self) -> list[Region]:
        """The enclosed pens: regions closed on every side."""
        return [r for r in self.regions() if r.closed]

    def pen_cells(self) -> set[Cell]:
        """Every quarter that lies inside an enclosed pen."""
        return {cell for r in self.regions() if r.closed for cell in r.cells}

    def penned(self, cells: Iterable[Cell]) -> set[Cell]:
        """The given cells that lie inside an enclosed pen: ``set(cells) & self.pen_cells()``.

        Without the regions at hand, only the regions of those cells are flooded, each stopping at
        its first opening (a wolf asks this for its prey only), and the flood runs on the corner
        points of the card grid instead of quarters: the four quarters around a point always connect
        (no fence runs along a card side), so a region is a set of points. Point ``p`` (the number,
        :func:`pos_code`, of the card whose NE corner it is) joins its north neighbour unless the east
        arm of card ``p + N`` and the west arm of card ``p + N + E`` are both fences, and likewise
        east (north arm of ``p + E``, south arm of ``p + N + E``), south and west. A point is open when
        one of its four cards is missing (gap reading: lies outside the farm's bounding box; a
        missing card inside it has no fences). ``tests/games/farmini/test_penned.py`` compares it
        with ``pen_cells`` of the full quarter flood on every farm of many random games.
        """
        wanted = set(cells)
        if not wanted:
            return set()
        if self._regions is not None:
            return wanted & self.pen_cells()
        arms_at = self._filled
        arm = arms_at.get
        gaps = self.gaps_enclose and bool(arms_at)
        xlo = xhi = ylo = yhi = 0
        if gaps:
            xlo, xhi = min(arms_at) >> _Y_BITS, max(arms_at) >> _Y_BITS
            ys = list(map(_Y_MASK.__and__, arms_at))
            ylo, yhi = min(ys), max(ys)
        east = 1 << _Y_BITS
        point_of = (0, -1, -east - 1, -east)  # NE, SE, SW, NW of a card: the point at that corner
        by_point: dict[int, list[Cell]] = {}
        for cell in wanted:
            card = (cell[0] + _OFFSET) << _Y_BITS | (cell[1] + _OFFSET)
            if card in arms_at and 0 <= cell[2] < SIDE_COUNT:
                by_point.setdefault(card + point_of[cell[2]], []).append(cell)
        safe: set[Cell] = set()
        decided: set[int] = set()
        for start in by_point:
            if start in decided:
                continue
            seen = {start}
            stack = [start]
            closed = True
            while stack:
                p = stack.pop()
                sw, se, nw, ne = arm(p), arm(p + east), arm(p + 1), arm(p + east + 1)
                if gaps:
                    if not (xlo <= p >> _Y_BITS < xhi and ylo <= p & _Y_MASK < yhi):
                        closed = False  # a card around this point lies outside the farm: open field
                        break
                    sw, se, nw, ne = sw or NO_ARMS, se or NO_ARMS, nw or NO_ARMS, ne or NO_ARMS
                elif sw is None or se is None or nw is None or ne is None:
                    closed = False  # a missing card around this point: open field
                    break
                if not (nw[1] and ne[3]) and p + 1 not in seen:  # north
                    seen.add(p + 1)
                    stack.append(p + 1)
                if not (sw[1] and se[3]) and p - 1 not in seen:  # south
                    seen.add(p - 1)
                    stack.append(p - 1)
                if not (se[0] and ne[2]) and p + east not in seen:  # east
                    seen.add(p + east)
                    stack.append(p + east)
                if not (sw[0] and nw[2]) and p - east not in seen:  # west
                    seen.add(p - east)
                    stack.append(p - east)
            found = seen & by_point.keys()
            decided |= found
            if closed:
                for point in found:
                    safe.update(by_point[point])
        return safe

    def _compute_regions(self, gaps_enclose: bool | None = None) -> Iterable[Region]:
        """Flood-fill the quarters (see the module docstring for the connection rules).

        Gap reading (``gaps_enclose``): a missing card inside the farm's bounding box is an empty
        card without fences; the flood passes through it, and the region is open only if it
        reaches past the bounding box. The missing cards it passes are the region's ``gaps``.

        Positions are numbered ``(x - xmin + 1) * stride + (y - ymin + 1)`` and quarters ``4 * that +
        q`` (one margin around the farm, ``stride`` more than its height), so the flood works on ints;
        the numbering keeps the order of the (x, y, q) tuples, so sorting them sorts the cells.
        """
        cards = self.cards
        if not cards:
            return
        xs = [x for x, _ in cards]
        ys = [y for _, y in cards]
        xmin, xmax, ymin, ymax = min(xs), max(xs), min(ys), max(ys)
        stride = ymax - ymin + 3
        arms_at = {(x - xmin + 1) * stride + (y - ymin + 1): card.arms for (x, y), card in cards.items()}
        inside: set[int] | None = None
        if self.gaps_enclose if gaps_enclose is None else gaps_enclose:
            inside = {
                (x - xmin + 1) * stride + (y - ymin + 1) for x in range(xmin, xmax + 1) for y in range(ymin, ymax + 1)
            }
        steps = tuple(dx * stride + dy for dx, dy in DELTA)
        mirror = MIRROR

        def cell_of(number: int) -> Cell:
            x, y = divmod(number >> 2, stride)
            return (x + xmin - 1, y + ymin - 1, number & 3)

        def pos_of(number: int) -> Pos:
            x, y = divmod(number, stride)
            return (x + xmin - 1, y + ymin - 1)

        seen: set[int] = set()
        for k0 in sorted(arms_at):
            for q0 in range(SIDE_COUNT):
                start = k0 << 2 | q0
                if start in seen:
                    continue
                seen.add(start)
                stack = [start]
                cells: list[int] = []
                gaps: set[int] = set()
                closed = True
                while stack:
                    cell = stack.pop()
                    k, q = cell >> 2, cell & 3
                    arms = arms_at.get(k)
                    if arms is None:
                        gaps.add(k)
                        arms = NO_ARMS
                    else:
                        cells.append(cell)
                    # inside the card: quarter q meets q+1 across arm q+1 and q-1 across arm q
                    nxt = (q + 1) & 3
                    if not arms[nxt]:
                        other = cell - q + nxt
                        if other not in seen:
                            seen.add(other)
                            stack.append(other)
                    if not arms[q]:
                        other = cell - q + ((q - 1) & 3)
                        if other not in seen:
                            seen.add(other)
                            stack.append(other)
                    # across the two card sides this quarter touches
                    for side in (q, nxt):
                        nk = k + steps[side]
                        if nk not in arms_at and (inside is None or nk not in inside):
                            closed = False  # this quarter faces the open field: not enclosed
                            continue
                        other = nk << 2 | mirror[side][q]
                        if other not in seen:
                            seen.add(other)
                            stack.append(other)
                if cells:
                    cells.sort()
                    yield Region(tuple(map(cell_of, cells)), closed, tuple(map(pos_of, sorted(gaps))) if closed else ())


def cell_name(cell: Cell) -> str:
    """Notation of a quarter: ``0,1/SE``."""
    return f"{cell[0]},{cell[1]}/{QUARTERS[cell[2]]}"
