"""Squares, neighbourhoods and building patterns on the 4x4 town, in every orientation.

Rulebook, "Building Construction Rules": "Building layouts may be mirrored/flipped and
rotated, as long as the configuration of resources remains the same." A pattern is
turned into every distinct orientation (up to 8) and every position on the town,
precomputed once as bit masks so that finding what a town can build is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import compress
from operator import is_not, not_
from typing import NamedTuple

from farmtable.games.tiny_towns.components import COLUMN_LETTERS, RESOURCE_LETTERS, RESOURCES, SQUARES, TOWN_SIZE

# --- square names ---------------------------------------------------------------------------

SQUARE_NAMES: tuple[str, ...] = tuple(f"{COLUMN_LETTERS[i % TOWN_SIZE]}{i // TOWN_SIZE + 1}" for i in range(SQUARES))
"""Square index ``row * 4 + column`` -> its name, A1 top left, D4 bottom right."""
SQUARE_INDEX: dict[str, int] = {name.lower(): i for i, name in enumerate(SQUARE_NAMES)}


def square_name(index: int) -> str:
    """The name (``"B3"``) of a square index."""
    return SQUARE_NAMES[index]


def name_order(index: int) -> str:
    """Sort key that lists squares the way notation prints them: A1 A2 … B1 … D4."""
    return SQUARE_NAMES[index]


def _neighbours(index: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    row, col = divmod(index, TOWN_SIZE)
    found = []
    for dr, dc in steps:
        r, c = row + dr, col + dc
        if 0 <= r < TOWN_SIZE and 0 <= c < TOWN_SIZE:
            found.append(r * TOWN_SIZE + c)
    return tuple(sorted(found))


_ORTHO_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_AROUND_STEPS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))

ADJACENT: tuple[tuple[int, ...], ...] = tuple(_neighbours(i, _ORTHO_STEPS) for i in range(SQUARES))
"""Rulebook "Additional Rules": adjacent means up, down, left and right."""
AROUND: tuple[tuple[int, ...], ...] = tuple(_neighbours(i, _AROUND_STEPS) for i in range(SQUARES))
"""The 8 squares around (diagonals count): Granary, Mandras Palace's other reading."""
ROW: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(SQUARES) if j // TOWN_SIZE == i // TOWN_SIZE and j != i) for i in range(SQUARES)
)
"""The other squares of a square's row."""
COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(SQUARES) if j % TOWN_SIZE == i % TOWN_SIZE and j != i) for i in range(SQUARES)
)
"""The other squares of a square's column."""
ALL_SQUARES_MASK = (1 << SQUARES) - 1


def empty_squares_of(grid: Sequence[str]) -> list[int]:
    """The empty squares of a town's grid, ascending: ``[sq for sq in range(16) if not grid[sq]]``, run in C."""
    return list(compress(range(SQUARES), map(not_, grid)))


def changed_squares(grid: Sequence[str], old: Sequence[str]) -> list[int]:
    """The squares whose content is not the very object ``old`` held there, ascending:
    ``[sq for sq in range(16) if grid[sq] is not old[sq]]``, run in C."""
    return list(compress(range(SQUARES), map(is_not, grid, old)))


def mask_squares(mask: int) -> list[int]:
    """The square indices set in a bit mask, ascending."""
    return [i for i in range(SQUARES) if mask >> i & 1]


# --- patterns -------------------------------------------------------------------------------

Cell = tuple[int, int, str]
"""(row, column, resource) of one square a pattern needs."""


class Placement(NamedTuple):
    """One way to lay a pattern on the town: the squares it covers and the resource each needs."""

    mask: int
    """Every square of the pattern."""
    needs: tuple[tuple[str, int], ...]
    """(resource, mask of the squares that need it)."""
    squares: tuple[int, ...]
    """The squares, in notation order."""
    cells: tuple[tuple[int, str], ...]
    """(square, resource) pairs, in notation order."""


def parse_pattern(text: str) -> tuple[Cell, ...]:
    """Read a pattern grid (``". H / B G"``) into its cells; ``ValueError`` on a bad letter."""
    cells = []
    for row, line in enumerate(text.split("/")):
        for col, letter in enumerate(line.split()):
            if letter == ".":
                continue
            if letter not in RESOURCE_LETTERS:
                raise ValueError(f"unknown resource letter {letter!r} in pattern {text!r}")
            cells.append((row, col, RESOURCE_LETTERS[letter]))
    if not cells:
        raise ValueError(f"pattern {text!r} needs at least one resource")
    return tuple(cells)


def _normalise(cells: list[Cell]) -> tuple[Cell, ...]:
    top = min(r for r, _, _ in cells)
    left = min(c for _, c, _ in cells)
    return tuple(sorted((r - top, c - left, res) for r, c, res in cells))


def orientations(cells: tuple[Cell, ...]) -> list[tuple[Cell, ...]]:
    """The distinct rotations and mirror images of a pattern (1 to 8 of them), in a fixed order."""
    found: list[tuple[Cell, ...]] = []
    current = list(cells)
    for _mirror in range(2):
        for _turn in range(4):
            shape = _normalise(current)
            if shape not in found:
                found.append(shape)
            current = [(c, -r, res) for r, c, res in current]  # a quarter turn
        current = [(r, -c, res) for r, c, res in current]  # mirror
    return found


@cache
def placements(pattern: str) -> tuple[Placement, ...]:
    """Every placement of a pattern on the 4x4 town, each orientation at each position that fits."""
    result: list[Placement] = []
    seen: set[tuple[tuple[int, str], ...]] = set()
    for shape in orientations(parse_pattern(pattern)):
        height = max(r for r, _, _ in shape) + 1
        width = max(c for _, c, _ in shape) + 1
        for top in range(TOWN_SIZE - height + 1):
            for left in range(TOWN_SIZE - width + 1):
                cells = tuple(
                    sorted(
                        (((top + r) * TOWN_SIZE + left + c, res) for r, c, res in shape),
                        key=lambda cell: name_order(cell[0]),
                    )
                )
                if cells in seen:
                    continue
                seen.add(cells)
                needs: dict[str, int] = {}
                for square, res in cells:
                    needs[res] = needs.get(res, 0) | 1 << square
                mask = sum(1 << square for square, _ in cells)
                result.append(Placement(mask, tuple(sorted(needs.items())), tuple(sq for sq, _ in cells), cells))
    return tuple(result)


FastPlacement = tuple[int, int, int, int, int, int, tuple[int, ...]]
"""(mask, wood mask, wheat mask, brick mask, glass mask, stone mask, squares): a placement as plain ints."""


@cache
def placement_table(pattern: str) -> tuple[FastPlacement, ...]:
    """:func:`placements` flattened for the hot loop: one mask per resource, in ``RESOURCES`` order."""
    table = []
    for pl in placements(pattern):
        needs = dict(pl.needs)
        per_resource = [needs.get(r, 0) for r in RESOURCES]
        table.append((pl.mask, *per_resource, pl.squares))
    return tuple(table)  # type: ignore[arg-type]


@cache
def placement_index(pattern: str) -> dict[str, tuple[tuple[FastPlacement, ...], ...]]:
    """For each resource the pattern needs: square -> the placements needing that resource there.

    Finding builds then starts from the squares holding the town's scarcest needed resource
    instead of trying every placement.
    """
    index: dict[str, list[list[FastPlacement]]] = {}
    for entry in placement_table(pattern):
        for resource, need in zip(RESOURCES, entry[1:6], strict=True):
            if need:
                squares = index.setdefault(resource, [[] for _ in range(SQUARES)])
                for sq in range(SQUARES):
                    if need >> sq & 1:
                        squares[sq].append(entry)
    return {r: tuple(tuple(lst) for lst in lists) for r, lists in index.items()}


PACK_SHIFT = SQUARES
"""Bits per resource in a packed need mask: resource ``i`` of ``RESOURCES`` sits at bits ``16 i ..``."""

PackedPlacement = tuple[int, int, tuple[int, ...]]
"""(packed need mask, squares mask, squares in notation order)."""


def pack_needs(per_resource: tuple[int, ...] | list[int]) -> int:
    """Five square masks (``RESOURCES`` order) as one integer, each in its own 16-bit field."""
    packed = 0
    for i, need in enumerate(per_resource):
        packed |= (need & ALL_SQUARES_MASK) << (PACK_SHIFT * i)
    return packed


@cache
def packed_index(pattern: str) -> dict[str, tuple[tuple[PackedPlacement, ...], ...]]:
    """:func:`placement_index` with each placement's five resource masks packed into one integer.

    A placement fits when ``packed & forbidden == 0``, ``forbidden`` packing the squares that cannot
    give each resource: one AND instead of five ANDs and four ORs in the hottest loop of random play.
    """
    return {
        resource: tuple(tuple((pack_needs(e[1:6]), e[0], e[6]) for e in lst) for lst in lists)
        for resource, lists in placement_index(pattern).items()
    }


def describe_pattern(pattern: str) -> str:
    """A pattern in words for error messages: ``"wheat, brick and glass"``."""
    names = [res for _, _, res in parse_pattern(pattern)]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


RANK_SHIFT = SQUARES
"""A ranked mask ``rank << RANK_SHIFT | squares mask`` (see :class:`FitTable`) keeps the squares in its low 16 bits."""


class FitTable(NamedTuple):
    """A pattern's placements arranged for finding builds incrementally (see ``rules._find_builds``).

    Whether a placement fits depends only on its own squares, so when a few squares change only
    the placements through them need testing again. A placement is named by its *ranked mask*:
    ``rank << RANK_SHIFT | squares mask``, ``rank`` its place in notation order (builds are listed
    by their squares' names), so sorting ranked masks sorts placements in notation order and
    ``ranked & ALL_SQUARES_MASK`` is the squares mask.
    """

    placements: tuple[tuple[int, int], ...]
    """Every placement as (packed need mask, ranked mask)."""
    through: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """``through[i][sq]``: the placements needing resource ``RESOURCES[i]`` on square ``sq``."""
    anywhere: tuple[tuple[tuple[int, int], ...], ...]
    """``anywhere[sq]``: every placement covering ``sq`` (a Trading Post there may give any resource)."""
    rank: dict[int, int]
    """Squares mask -> its place in notation order (builds are listed by their squares' names)."""
    squares: dict[int, tuple[int, ...]]
    """Squares mask -> the squares in notation order."""


@cache
def fit_table(pattern: str) -> FitTable:
    """:func:`placements` of ``pattern`` as a :class:`FitTable` (one pass over the placements, in order)."""
    entries = [(pack_needs(e[1:6]), e[0], e[6]) for e in placement_table(pattern)]
    squares = {mask: sq for _, mask, sq in entries}
    ordered = sorted(squares, key=lambda mask: tuple(SQUARE_NAMES[s] for s in squares[mask]))
    rank = {mask: i for i, mask in enumerate(ordered)}
    through: list[list[list[tuple[int, int]]]] = [[[] for _ in range(SQUARES)] for _ in RESOURCES]
    anywhere: list[list[tuple[int, int]]] = [[] for _ in range(SQUARES)]
    pairs = []
    for packed, mask, _ in entries:
        pair = (packed, rank[mask] << RANK_SHIFT | mask)
        pairs.append(pair)
        needs = packed
        while needs:  # each (resource, square) the placement needs: every square it covers, once
            low = needs & -needs
            needs ^= low
            i, sq = divmod(low.bit_length() - 1, PACK_SHIFT)
            through[i][sq].append(pair)
            anywhere[sq].append(pair)
    return FitTable(
        tuple(pairs),
        tuple(tuple(map(tuple, per_square)) for per_square in through),
        tuple(map(tuple, anywhere)),
        rank,
        squares,
    )


@cache
def resource_counts(pattern: str) -> tuple[int, ...]:
    """How many squares of each resource (``RESOURCES`` order) the pattern needs."""
    cells = [res for _, _, res in parse_pattern(pattern)]
    return tuple(cells.count(r) for r in RESOURCES)
