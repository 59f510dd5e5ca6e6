"""Tiny Towns score sheet: every building card, every monument, feeding, and the tie-breaks.

The component file (``tiny-towns.md``, "The 25 building cards" and "The 15 monuments") gives
the scoring; the rulebook gives the frame ("End of the Game"): remove the resource cubes,
each empty square is worth -1, add the points of each building; ties go to fewest turns as
Master Builder, then fewest empty squares, then most Cottages, then they are shared.

Feeding is the one choice in scoring. Granaries and Orchards feed fixed squares; a Farm feeds
any 4 cottages and a Greenhouse any one connected group of cottages, so the town is scored
with the feeding assignment that gives the most points (:func:`best_feeding`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from farmtable.core import Result, rank_by
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import ADJACENT, AROUND, COLUMN, ROW, SQUARE_NAMES, name_order

EMPTY_LINE = "empty squares"
MONUMENT_LINE = "monument"

READING_MARKET_BOTH = "market-row-and-column"
READING_MANDRAS_AROUND = "mandras-8-around"


@dataclass
class TownFacts:
    """What scoring needs to know about one town at the end (or as it stands).

    ``grid[i]`` is the building on square i (a building or monument name); anything else
    (a resource name, ``""``) is an empty square for scoring.
    """

    grid: Sequence[str]
    monument: str | None = None
    """The monument this player has built, if any (it stands on the grid under its name)."""
    warehouse_cubes: int = 0
    shrine_vp: int = 0
    """Shrine of the Elder Tree: its VP, fixed when it was built."""
    starloom_place: int = 0
    """The Starloom: 1-based place in the order towns were completed (0: not known)."""
    mb_turns: int = 0
    extra: dict[str, int] = field(default_factory=dict)


def colour_of(name: str) -> str:
    """The colour of a building or monument name, or ``""`` for anything that is not a building."""
    card = C.ALL_CARDS.get(name)
    return card.colour if card else ""


def is_building(name: str) -> bool:
    """True for a building or monument name (resources and empty squares are not buildings)."""
    return name in C.ALL_CARDS


def cottage_weight(name: str) -> int:
    """How many cottages a square counts as: Cottage 1, Barrett Castle 2 (component file), else 0."""
    if name == "Cottage":
        return 1
    if name == "Barrett Castle":
        return C.BARRETT_COTTAGE_WEIGHT
    return 0


# --- feeding ---------------------------------------------------------------------------------


def fixed_fed(grid: Sequence[str]) -> set[int]:
    """Cottage squares fed without any choice: by a Granary (8 around) or an Orchard (row and column)."""
    fed: set[int] = set()
    for square, name in enumerate(grid):
        if name == "Granary":
            fed.update(q for q in AROUND[square] if cottage_weight(grid[q]))
        elif name == "Orchard":
            fed.update(q for q in ROW[square] + COLUMN[square] if cottage_weight(grid[q]))
    return fed


def cottage_groups(grid: Sequence[str]) -> list[frozenset[int]]:
    """The orthogonally connected groups of cottage squares (a Greenhouse feeds one of them)."""
    seen: set[int] = set()
    groups: list[frozenset[int]] = []
    for start, name in enumerate(grid):
        if not cottage_weight(name) or start in seen:
            continue
        group = {start}
        frontier = [start]
        while frontier:
            square = frontier.pop()
            for q in ADJACENT[square]:
                if cottage_weight(grid[q]) and q not in group:
                    group.add(q)
                    frontier.append(q)
        seen |= group
        groups.append(frozenset(group))
    return groups


def feeding_options(grid: Sequence[str]) -> list[frozenset[int]]:
    """Every fed set worth trying: fixed feeders, then each Greenhouse choice, then the Farms' picks.

    More fed cottages never score less, so each Greenhouse takes a distinct group and the
    Farms use all their capacity; which cottages they pick only matters for Barrett Castle
    and cottages next to a Temple, so only picks among those are enumerated.
    """
    base = fixed_fed(grid)
    greenhouses = sum(1 for name in grid if name == "Greenhouse")
    farms = sum(1 for name in grid if name == "Farm")
    groups = cottage_groups(grid)
    group_choices: list[tuple[frozenset[int], ...]] = (
        list(combinations(groups, min(greenhouses, len(groups)))) if greenhouses else [()]
    )
    options: set[frozenset[int]] = set()
    capacity = C.FARM_CAPACITY * farms
    for chosen in group_choices:
        fed = set(base)
        for group in chosen:
            fed |= group
        unfed = [q for q, name in enumerate(grid) if cottage_weight(name) and q not in fed]
        if len(unfed) <= capacity:
            options.add(frozenset(fed | set(unfed)))
            continue
        # Only Barrett Castle and cottages next to a Temple are worth more than any other
        # cottage; the Farms try every pick of those and fill up with the plain ones.
        special = [q for q in unfed if grid[q] == "Barrett Castle" or any(grid[n] == "Temple" for n in ADJACENT[q])]
        plain = [q for q in unfed if q not in special]
        for count in range(min(capacity, len(special)) + 1):
            for pick in combinations(special, count):
                options.add(frozenset(fed | set(pick) | set(plain[: capacity - count])))
    return sorted(options, key=sorted)


# --- one town ----------------------------------------------------------------------------


def _adjacent_colours(grid: Sequence[str], square: int) -> set[str]:
    return {colour_of(grid[q]) for q in ADJACENT[square]}


def _line_types(grid: Sequence[str], squares: Sequence[int]) -> set[str]:
    return {grid[q] for q in squares if is_building(grid[q])}


def score_buildings(
    facts: TownFacts,
    fed: frozenset[int],
    right_feast_halls: int | None,
    readings: frozenset[str],
) -> dict[str, int]:
    """Points per building kind (and monument, empty squares) for one fixed feeding assignment."""
    grid = facts.grid
    sheet: dict[str, int] = {}

    def add(line: str, points: int) -> None:
        """Add points to a score-sheet line."""
        sheet[line] = sheet.get(line, 0) + points

    fed_weight = sum(cottage_weight(grid[q]) for q in fed)
    counts: dict[str, int] = {}
    for name in grid:
        if is_building(name):
            counts[name] = counts.get(name, 0) + 1

    for square, name in enumerate(grid):
        colour = colour_of(name)
        if not colour:
            continue
        if name == "Cottage":
            add(name, C.COTTAGE_FED_VP if square in fed else 0)
        elif colour == C.RED:
            add(name, 0)  # feeders score nothing themselves
        elif name == "Well":
            add(name, C.WELL_VP_PER_COTTAGE * sum(cottage_weight(grid[q]) for q in ADJACENT[square]))
        elif name == "Fountain":
            others = [q for q in ADJACENT[square] if colour_of(grid[q]) == C.GREY]
            add(name, C.FOUNTAIN_VP if others else 0)
        elif name == "Millstone":
            add(name, C.MILLSTONE_VP if _adjacent_colours(grid, square) & {C.RED, C.YELLOW} else 0)
        elif name == "Shed":
            add(name, C.SHED_VP)
        elif name == "Theater":
            types = _line_types(grid, ROW[square] + COLUMN[square]) - {"Theater"}
            add(name, C.THEATER_VP_PER_TYPE * len(types))
        elif name == "Bakery":
            add(name, C.BAKERY_VP if _adjacent_colours(grid, square) & {C.RED, C.BLACK} else 0)
        elif name == "Market":
            in_row = sum(1 for q in ROW[square] if colour_of(grid[q]) == C.YELLOW)
            in_column = sum(1 for q in COLUMN[square] if colour_of(grid[q]) == C.YELLOW)
            count = 1 + (in_row + in_column if READING_MARKET_BOTH in readings else max(in_row, in_column))
            add(name, C.MARKET_VP_PER_YELLOW * count)
        elif name == "Tailor":
            centre = sum(1 for q in C.CENTRE_SQUARES if colour_of(grid[q]) == C.YELLOW)
            add(name, C.TAILOR_BASE_VP + C.TAILOR_VP_PER_CENTRE_YELLOW * centre)
        elif name == "Chapel":
            add(name, C.CHAPEL_VP_PER_FED * fed_weight)
        elif name == "Abbey":
            bad = _adjacent_colours(grid, square) & {C.BLACK, C.GREEN, C.YELLOW}
            add(name, 0 if bad else C.ABBEY_VP)
        elif name == "Cloister":
            corners = sum(1 for q in C.CORNER_SQUARES if colour_of(grid[q]) == C.ORANGE)
            add(name, C.CLOISTER_VP_PER_CORNER * corners)
        elif name == "Temple":
            near = sum(cottage_weight(grid[q]) for q in ADJACENT[square] if q in fed)
            add(name, C.TEMPLE_VP if near >= C.TEMPLE_FED_NEEDED else 0)
        elif name in ("Tavern", "Almshouse"):
            table = C.TAVERN_TABLE if name == "Tavern" else C.ALMSHOUSE_TABLE
            sheet[name] = table[min(counts[name], len(table) - 1)]
        elif name == "Feast Hall":
            bonus = right_feast_halls is not None and counts[name] > right_feast_halls
            add(name, C.FEAST_HALL_VP + (C.FEAST_HALL_BONUS_VP if bonus else 0))
        elif name == "Inn":
            alone = not any(grid[q] == "Inn" for q in ROW[square] + COLUMN[square])
            add(name, C.INN_VP if alone else 0)
        elif name == "Factory":
            add(name, 0)
        elif name == "Bank":
            add(name, C.BANK_VP)
        elif name == "Trading Post":
            add(name, C.TRADING_POST_VP)
        elif name == "Warehouse":
            add(name, 0)
        elif colour == C.MONUMENT:
            add(MONUMENT_LINE, monument_points(facts, square, fed, readings))
    if "Warehouse" in counts:
        add("Warehouse", C.WAREHOUSE_VP_PER_CUBE * facts.warehouse_cubes)
    if facts.monument == "Grand Mausoleum of the Rodina":
        unfed = sum(1 for q, name in enumerate(grid) if name == "Cottage" and q not in fed)
        add(MONUMENT_LINE, C.MAUSOLEUM_UNFED_VP * unfed)
    empty = sum(1 for name in grid if not is_building(name))
    empty_vp = C.CATHEDRAL_EMPTY_VP if facts.monument == "Cathedral of Caterina" else C.EMPTY_SQUARE_VP
    sheet[EMPTY_LINE] = empty_vp * empty
    return sheet


def monument_points(facts: TownFacts, square: int, fed: frozenset[int], readings: frozenset[str]) -> int:
    """The points of the monument standing on ``square`` (component file, "The 15 monuments")."""
    grid = facts.grid
    name = grid[square]
    building_types = {n for n in grid if colour_of(n) not in ("", C.MONUMENT)}
    if name == "Architect's Guild":
        return C.GUILD_VP
    if name == "Archive of the Second Age":
        return C.ARCHIVE_VP_PER_TYPE * len(building_types)
    if name == "Barrett Castle":
        return C.BARRETT_FED_VP if square in fed else 0
    if name == "Cathedral of Caterina":
        return C.CATHEDRAL_VP
    if name == "Fort Ironweed":
        return C.FORT_VP
    if name == "Grove University":
        return C.GROVE_VP
    if name == "Mandras Palace":
        around = AROUND[square] if READING_MANDRAS_AROUND in readings else ADJACENT[square]
        return C.MANDRAS_VP_PER_TYPE * len(_line_types(grid, around))
    if name == "Shrine of the Elder Tree":
        return facts.shrine_vp
    if name == "Silva Forum":
        return C.SILVA_BASE_VP + largest_same_type_group(grid)
    if name == "The Sky Baths":
        return C.SKY_BATHS_VP_PER_MISSING * (C.BUILDING_TYPES_IN_PLAY - len(building_types))
    if name == "The Starloom":
        place = facts.starloom_place
        return C.STARLOOM_TABLE[place - 1] if 1 <= place <= len(C.STARLOOM_TABLE) else 0
    if name == "Obelisk of the Crescent":
        return C.OBELISK_VP
    if name == "Opaleye's Watch":
        return C.OPALEYE_VP
    if name == "Statue of the Bondmaker":
        return C.STATUE_VP
    return 0  # Grand Mausoleum: scored per unfed cottage (score_buildings)


def largest_same_type_group(grid: Sequence[str]) -> int:
    """Size of the largest orthogonally connected group of buildings of one type (Silva Forum)."""
    best = 0
    seen: set[int] = set()
    for start, name in enumerate(grid):
        if not is_building(name) or start in seen:
            continue
        size = 0
        frontier = [start]
        seen.add(start)
        while frontier:
            square = frontier.pop()
            size += 1
            for q in ADJACENT[square]:
                if q not in seen and grid[q] == name:
                    seen.add(q)
                    frontier.append(q)
        best = max(best, size)
    return best


def best_feeding(
    facts: TownFacts, right_feast_halls: int | None, readings: frozenset[str]
) -> tuple[dict[str, int], frozenset[int]]:
    """The score sheet of the best feeding assignment, and the cottages it feeds."""
    best_sheet: dict[str, int] | None = None
    best_fed: frozenset[int] = frozenset()
    for fed in feeding_options(facts.grid):
        sheet = score_buildings(facts, fed, right_feast_halls, readings)
        if best_sheet is None or sum(sheet.values()) > sum(best_sheet.values()):
            best_sheet, best_fed = sheet, fed
    if best_sheet is None:  # no cottages at all: one assignment, nobody fed
        best_sheet = score_buildings(facts, frozenset(), right_feast_halls, readings)
    return best_sheet, best_fed


def score_towns(
    towns: Sequence[TownFacts],
    building_set: Sequence[str],
    readings: frozenset[str],
    *,
    right_feast_halls: int | None = None,
) -> Result:
    """Score every town (seat order), rank with the rulebook's tie-breaks, and return the Result.

    One town alone is a solo town (its rank in ``details["solo_rank"]``) unless
    ``right_feast_halls`` is given: then it is one town of a bigger game, its Feast Halls are
    compared with that count (the town of the player on its right) and no solo rank is given."""
    n = len(towns)
    if right_feast_halls is not None and n != 1:
        raise ValueError("right_feast_halls is for one town scored alone (several towns: the neighbour is typed)")
    feast_halls = [sum(1 for name in t.grid if name == "Feast Hall") for t in towns]
    breakdown: list[dict[str, int]] = []
    totals: list[int] = []
    keys: list[tuple[int, int, int, int]] = []
    fed_lists: list[list[str]] = []
    for p, town in enumerate(towns):
        # "the player on your right": seats run left (p+1) in play order, so the right is p-1.
        right = feast_halls[(p - 1) % n] if n > 1 else right_feast_halls
        lines, fed = best_feeding(town, right, readings)
        sheet = {name: lines.get(name, 0) for name in building_set}
        sheet.update((name, points) for name, points in lines.items() if name not in sheet)  # never drop a line
        sheet[MONUMENT_LINE] = lines.get(MONUMENT_LINE, 0)
        sheet[EMPTY_LINE] = lines[EMPTY_LINE]
        total = sum(sheet.values())
        empty = sum(1 for name in town.grid if not is_building(name))
        cottages = sum(cottage_weight(name) for name in town.grid)
        breakdown.append(sheet)
        totals.append(total)
        keys.append((total, -town.mb_turns, -empty, cottages))
        fed_lists.append([SQUARE_NAMES[q] for q in sorted(fed, key=name_order)])
    details: dict[str, object] = {
        "tie_break": ["fewest Master Builder turns", "fewest empty squares", "most cottages"],
        "master_builder_turns": [t.mb_turns for t in towns],
        "empty_squares": [sum(1 for name in t.grid if not is_building(name)) for t in towns],
        "cottages": [sum(cottage_weight(name) for name in t.grid) for t in towns],
        "fed_squares": fed_lists,
        "monuments": [t.monument for t in towns],
    }
    if n == 1 and right_feast_halls is None:
        details["solo_rank"] = C.solo_rank(totals[0])
        details["solo_ranks"] = [f"{low}+ {name}" for low, name in C.SOLO_RANKS] + [
            f"≤{C.SOLO_RANKS[-1][0] - 1} {C.SOLO_LOWEST_RANK}"
        ]
    return Result(totals, breakdown, rank_by(keys), details)
