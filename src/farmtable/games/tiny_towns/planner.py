"""A solo town plan: the target 4x4 town the player builds towards, and a position's value under it.

A strong solo player commits early to a *plan*: which building goes on which square, chosen so
that the kinds feed and score each other (every Cottage fed, Chapels with the fed Cottages, Wells
next to Cottages, ...), and then places cubes only where they complete a planned pattern. This
module is that player's judgement, for ``evaluation.py`` (solo ``evaluate()`` and ``heuristic``):

- :func:`plan_for` finds a plan for the buildings standing now: every square without a building
  gets a building kind of the game's set (or the unbuilt monument, at most once), or nothing. The
  plan maximises what it is worth on the board without cubes (:func:`realize`: its final score,
  ``scoring.best_feeding`` with the real card rules, minus what the planned buildings still cost);
  a kind is planned on a square only if one of its pattern placements covering that square avoids
  every building already standing, and only buildings that some build order can finish are kept
  (:func:`buildable`). The first plan of a game is found
  by simulated annealing (about :data:`ANNEAL_STEPS` scorings, once per building set and
  monument); after a build the plan of the town before it is reused if the new building is the
  planned one, else it is repaired by hill climbing from it. Plans are cached by the buildings on
  the board, so cube placements never re-plan.
- :func:`plan_value` values a town under its plan with :func:`realize`: the planned buildings are
  built one after another on their best still-completable placements (a wrong cube blocks a
  placement), each costing :data:`MISSING_COST` by the cubes it lacks; one that finds no
  placement is dropped (its points and :data:`DROP_COST`); :data:`LOOSE_CUBE` per cube no
  placement uses. The value is on the final-score scale.

Everything depends only on the town (public) and the player's own monument, so a determinization
evaluates like the real state. The constants were set by paired runs (``docs/games/tiny-towns-ai.md``).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import placement_table
from farmtable.games.tiny_towns.scoring import TownFacts, best_feeding

MISSING_COST: tuple[float, ...] = (0.3, 1.5, 2.4, 2.8, 3.0, 3.1, 3.2)
"""Position value: what a planned building still to build costs, by the cubes its best placement
lacks (0, 1, 2, ...). Convex, so finishing one pattern beats spreading cubes over several."""
FINISH_CHANCE: tuple[float, ...] = (0.97, 0.8, 0.5, 0.35, 0.28, 0.24, 0.2)
"""Position value (with :data:`CHANCES`): the chance a planned building is finished, by the cubes it lacks."""
CHANCES = True
"""Value a position by finishing chances (:func:`realize` ``chances``) rather than by :data:`MISSING_COST`."""
CUBE_ON_BOARD = 0.3
"""Position value (with :data:`CHANCES`): cost of every cube on the board (it takes a square until used)."""
DROP_COST = 1.0
"""Value lost, besides its points, when a planned building can no longer be placed."""
LOOSE_CUBE = 0.5
"""Value lost per cube on the board that no planned building's best placement uses."""
ANNEAL_STEPS = 2000
"""Scorings of the simulated annealing that makes a game's first plan."""
REPAIR_PASSES = 2
"""Hill-climbing passes over the free squares when a plan is repaired after an unplanned build."""
CACHE_LIMIT = 100_000
"""Plans or values kept before a cache is emptied (memory stays bounded in long runs)."""

RESOURCE_INDEX: dict[str, int] = {r: i for i, r in enumerate(C.RESOURCES)}
SHIFT = C.SQUARES
REPEAT = sum(1 << (SHIFT * i) for i in range(len(C.RESOURCES)))
"""Multiplying a square mask by this copies it into every resource's field of a packed mask."""
NONE = ""


class Plan(NamedTuple):
    """A target town: what each square should end as, and what it is worth."""

    grid: tuple[str, ...]
    """Every square: the building standing there, the planned kind, or ``""`` (nothing planned)."""
    score: float
    """The planned town's final score."""
    objective: float
    """What the plan is worth on the board without cubes (:func:`realize`; the plan search maximises it)."""
    order: tuple[int, ...]
    """Per square: its planned building's place in a build order that finishes every one (:func:`buildable`)."""


class Setting(NamedTuple):
    """What a plan depends on besides the buildings standing: the kinds in play and the rules."""

    kinds: tuple[str, ...]
    """The building kinds in play, the player's monument last (if any; at most one is planned or built)."""
    monument: str
    """The player's monument ("" without one), built or not."""
    shrine_vp: int
    """Shrine of the Elder Tree's VP if it is built."""
    readings: frozenset[str]
    patterns: tuple[str, ...]
    """The pattern of each kind (same order as ``kinds``)."""


# --- pattern placements ------------------------------------------------------------------------

PackedPlacement = tuple[int, int, int]
"""(squares mask, needs packed per resource, cube count)."""


@cache
def _placements(pattern: str) -> tuple[PackedPlacement, ...]:
    """Every placement of ``pattern``: its squares, its needs packed 16 bits per resource, its size."""
    out = []
    for entry in placement_table(pattern):
        packed = 0
        for i, need in enumerate(entry[1:6]):
            packed |= int(need) << (SHIFT * i)
        out.append((int(entry[0]), packed, int(entry[0]).bit_count()))
    return tuple(out)


@cache
def _covering(pattern: str, anywhere: bool) -> tuple[tuple[PackedPlacement, ...], ...]:
    """Per square, the placements whose building may stand there (every placement for a Shed)."""
    every = _placements(pattern)
    return tuple(tuple(p for p in every if anywhere or p[0] >> sq & 1) for sq in range(C.SQUARES))


def _covering_of(kind: str, pattern: str) -> tuple[tuple[PackedPlacement, ...], ...]:
    return _covering(pattern, kind == "Shed")


def feasible(kind: str, pattern: str, square: int, buildings: int) -> bool:
    """True if ``kind`` can still stand on ``square``: a placement for it avoids every building."""
    if buildings >> square & 1:
        return False
    return any(not mask & buildings for mask, _, _ in _covering_of(kind, pattern)[square])


# --- scoring a plan ------------------------------------------------------------------------------


def plan_score(grid: Sequence[str], setting: Setting) -> float:
    """The final score of a town laid out as ``grid`` (``""`` squares count as empty)."""
    monument = setting.monument if setting.monument and setting.monument in grid else None
    shrine = setting.shrine_vp
    if monument == "Shrine of the Elder Tree" and not shrine:  # planned, not built:
        built = sum(1 for v in grid if v)  # assume it is built about half way
        shrine = C.SHRINE_TABLE[min(built // 2, len(C.SHRINE_TABLE) - 1)]
    facts = TownFacts(grid=grid, monument=monument, shrine_vp=shrine, starloom_place=1)
    sheet, _ = best_feeding(facts, None, setting.readings)
    return float(sum(sheet.values()))


def _size(pattern: str) -> int:
    return _placements(pattern)[0][2]


@cache
def _around(pattern: str, anywhere: bool) -> tuple[tuple[int, ...], ...]:
    """Per square, the other squares of each placement whose building may stand there (distinct masks)."""
    return tuple(
        tuple(sorted({mask & ~(1 << sq) for mask, _, _ in _covering(pattern, anywhere)[sq]})) for sq in range(C.SQUARES)
    )


def buildable(grid: Sequence[str], fixed: Sequence[str], setting: Setting) -> tuple[list[str], tuple[int, ...]]:
    """``grid`` without the planned buildings that no build order can finish, and a build order.

    The building finished last must find its pattern's other squares free of every other
    building; so the planned buildings are peeled off one by one (any one that could be built
    last goes, which only frees squares for the rest); when none can, one is dropped. The
    order: per square, its place in the build order (peeled first = built last; 0 elsewhere).
    """
    occupied = 0
    todo: list[tuple[int, tuple[int, ...]]] = []
    patterns = dict(zip(setting.kinds, setting.patterns, strict=True))
    for sq, v in enumerate(grid):
        if v:
            occupied |= 1 << sq
            if not fixed[sq]:
                todo.append((sq, _around(patterns[v], v == "Shed")[sq]))
    order = [0] * C.SQUARES
    dropped: list[int] = []
    step = C.SQUARES
    while todo:
        rest = []
        for sq, masks in todo:
            if any(not mask & occupied for mask in masks):
                occupied &= ~(1 << sq)
                order[sq] = step
                step -= 1
            else:
                rest.append((sq, masks))
        if len(rest) == len(todo):  # stuck: drop one, which frees its square for the others
            sq = rest.pop(0)[0]
            dropped.append(sq)
            occupied &= ~(1 << sq)
        todo = rest
    out = list(grid)
    for sq in dropped:
        out[sq] = NONE
    return out, tuple(order)


def _objective(grid: Sequence[str], fixed: Sequence[str], setting: Setting, sizes: dict[str, int]) -> float:
    real, order = buildable(grid, fixed, setting)
    return realize(real, fixed, setting, NO_CUBES, order)


def _make_plan(grid: list[str], fixed: Sequence[str], setting: Setting, sizes: dict[str, int]) -> Plan:
    real, order = buildable(grid, fixed, setting)
    return Plan(tuple(real), plan_score(real, setting), realize(real, fixed, setting, NO_CUBES, order), order)


# --- finding a plan ------------------------------------------------------------------------------

_PLANS: dict[tuple[tuple[str, ...], Setting], Plan] = {}


def plan_for(fixed: tuple[str, ...], setting: Setting) -> Plan:
    """The plan for a town whose buildings stand as ``fixed`` (``""`` on every other square)."""
    key = (fixed, setting)
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    if len(_PLANS) >= CACHE_LIMIT:
        _PLANS.clear()
    parent = _parent_plan(fixed, setting)
    plan = _repair(parent, fixed, setting) if parent is not None else _anneal(fixed, setting)
    _PLANS[key] = plan
    return plan


def _parent_plan(fixed: tuple[str, ...], setting: Setting) -> Plan | None:
    """A cached plan of this town before one or two of its buildings were built, else of the town
    without buildings (a search may reach a town without having valued the one before it)."""
    squares = [sq for sq, v in enumerate(fixed) if v]
    for sq in squares:
        plan = _PLANS.get(((*fixed[:sq], NONE, *fixed[sq + 1 :]), setting))
        if plan is not None:
            return plan
    for i, a in enumerate(squares):
        for b in squares[i + 1 :]:
            before = list(fixed)
            before[a] = before[b] = NONE
            plan = _PLANS.get((tuple(before), setting))
            if plan is not None:
                return plan
    return _PLANS.get(((NONE,) * C.SQUARES, setting)) if squares else None


def _sizes(setting: Setting) -> dict[str, int]:
    return {k: _size(p) for k, p in zip(setting.kinds, setting.patterns, strict=True) if p}


def _options(fixed: Sequence[str], setting: Setting) -> list[list[str]]:
    """Per square, the kinds that may be planned there (``""`` first; none for a building's square)."""
    buildings = sum(1 << sq for sq, v in enumerate(fixed) if v)
    out: list[list[str]] = []
    for sq in range(C.SQUARES):
        if fixed[sq]:
            out.append([])
            continue
        kinds = [NONE]
        kinds += [
            k for k, p in zip(setting.kinds, setting.patterns, strict=True) if p and feasible(k, p, sq, buildings)
        ]
        out.append(kinds)
    return out


def _repair(parent: Plan, fixed: tuple[str, ...], setting: Setting) -> Plan:
    """The parent plan with the new building in, kept if it was planned there, else hill-climbed."""
    sizes = _sizes(setting)
    options = _options(fixed, setting)
    grid = list(parent.grid)
    changed = False
    for sq in range(C.SQUARES):
        if fixed[sq]:
            changed |= grid[sq] != fixed[sq]
            grid[sq] = fixed[sq]
        elif grid[sq] not in options[sq] or (grid[sq] == setting.monument and setting.monument in fixed):
            grid[sq] = NONE
            changed = True
    if changed:
        _climb(grid, fixed, setting, sizes, options, REPAIR_PASSES)
    return _make_plan(grid, fixed, setting, sizes)


def _climb(
    grid: list[str],
    fixed: Sequence[str],
    setting: Setting,
    sizes: dict[str, int],
    options: list[list[str]],
    passes: int,
) -> float:
    """Hill climbing: each free square in turn takes its best kind; stops when a pass changes nothing."""
    monument = setting.monument
    best = _objective(grid, fixed, setting, sizes)
    for _ in range(passes):
        improved = False
        for sq in range(C.SQUARES):
            kinds = options[sq]
            if len(kinds) <= 1:
                continue
            current = grid[sq]
            for kind in kinds:
                if kind == current or (kind and kind == monument and monument in grid):
                    continue
                grid[sq] = kind
                value = _objective(grid, fixed, setting, sizes)
                if value > best + 1e-9:
                    best, current, improved = value, kind, True
            grid[sq] = current
        if not improved:
            break
    return best


def _anneal(fixed: tuple[str, ...], setting: Setting, steps: int = ANNEAL_STEPS) -> Plan:
    """A plan found from scratch by simulated annealing (single-square changes and swaps), then hill climbing."""
    rng = random.Random(zlib.crc32(repr((fixed, setting.kinds)).encode()))
    sizes = _sizes(setting)
    options = _options(fixed, setting)
    free = [sq for sq in range(C.SQUARES) if len(options[sq]) > 1]
    grid = list(fixed)
    if not free:
        return _make_plan(grid, fixed, setting, sizes)
    monument = setting.monument
    current = _objective(grid, fixed, setting, sizes)
    best, best_grid = current, grid[:]
    hot, cold = 3.0, 0.05
    for step in range(steps):
        temp = hot * (cold / hot) ** (step / steps)
        if rng.random() < 0.3 and len(free) > 1:
            a, b = rng.sample(free, 2)
            if grid[a] == grid[b] or grid[b] not in options[a] or grid[a] not in options[b]:
                continue
            grid[a], grid[b] = grid[b], grid[a]
            value = _objective(grid, fixed, setting, sizes)
            if value >= current or rng.random() < pow(2.718281828, (value - current) / temp):
                current = value
            else:
                grid[a], grid[b] = grid[b], grid[a]
        else:
            sq = rng.choice(free)
            kind = rng.choice(options[sq])
            old = grid[sq]
            if kind == old or (kind and kind == monument and monument in grid):
                continue
            grid[sq] = kind
            value = _objective(grid, fixed, setting, sizes)
            if value >= current or rng.random() < pow(2.718281828, (value - current) / temp):
                current = value
            else:
                grid[sq] = old
        if current > best:
            best, best_grid = current, grid[:]
    _climb(best_grid, fixed, setting, sizes, options, 3)
    return _make_plan(best_grid, fixed, setting, sizes)


# --- valuing a town under its plan ---------------------------------------------------------------

_VALUES: dict[tuple[tuple[str, ...], Setting, int], float] = {}


def plan_value(board: Sequence[str], setting: Setting, warehouse_cubes: int = 0) -> float:
    """The town's value under its plan (final-score scale); ``board`` as ``Town.grid``."""
    key = (tuple(board), setting, warehouse_cubes)
    value = _VALUES.get(key)
    if value is not None:
        return value
    if len(_VALUES) >= CACHE_LIMIT:
        _VALUES.clear()
    value = _value(key[0], setting) - warehouse_cubes
    _VALUES[key] = value
    return value


class Cubes(NamedTuple):
    """The cubes on a board, as masks (see :func:`cubes_of`)."""

    cubes: int
    """Every square holding a cube."""
    have: int
    """Packed per resource (16 bits each): the squares holding that resource."""
    wrong: int
    """Packed per resource: the cube squares holding another resource."""


NO_CUBES = Cubes(0, 0, 0)


def cubes_of(board: Sequence[str]) -> Cubes:
    """The cube masks of a board."""
    have = [0] * len(C.RESOURCES)
    for sq, v in enumerate(board):
        if v in RESOURCE_INDEX:
            have[RESOURCE_INDEX[v]] |= 1 << sq
    cubes = have[0] | have[1] | have[2] | have[3] | have[4]
    have_packed = 0
    wrong_packed = 0
    for i, h in enumerate(have):
        have_packed |= h << (SHIFT * i)
        wrong_packed |= (cubes & ~h) << (SHIFT * i)
    return Cubes(cubes, have_packed, wrong_packed)


def realize(
    grid: Sequence[str],
    fixed: Sequence[str],
    setting: Setting,
    cubes: Cubes,
    order: Sequence[int],
    chances: bool = False,
) -> float:
    """What the plan ``grid`` is worth with these cubes on the board (final-score scale).

    The planned buildings with cubes on their pattern already are built first, the one lacking
    the fewest cubes first (counted afresh after each), then the rest in the plan's ``order``: each
    takes its best placement that avoids the buildings standing by then and the cubes claimed
    by those before it, and costs :data:`MISSING_COST` by what it lacks; one with no such
    placement left is dropped from the town. Value: the score of the town so built, minus the
    costs, minus :data:`LOOSE_CUBE` per cube no placement uses.

    With ``chances``, a planned building lacking ``m`` cubes counts instead as finished with
    probability :data:`FINISH_CHANCE` ``[m]``: the town's score minus, per building, the points it
    adds to the town (with the others standing) times the chance it is never finished.
    """
    buildings = 0
    for sq, v in enumerate(fixed):
        if v:
            buildings |= 1 << sq
    patterns = dict(zip(setting.kinds, setting.patterns, strict=True))
    started: list[tuple[int, int, tuple[PackedPlacement, ...]]] = []
    later: list[tuple[int, int, tuple[PackedPlacement, ...]]] = []
    for sq, kind in enumerate(grid):
        if kind and not fixed[sq]:
            covering = _covering_of(kind, patterns[kind])[sq]
            missing, _ = _best(covering, buildings, cubes.have, cubes.wrong)
            size = covering[0][2] if covering else 0
            (started if missing < size else later).append((order[sq], sq, covering))
    later.sort()
    cost = 0.0
    claimed = 0
    drops = 0
    lacking: dict[int, int] = {}
    occupied = buildings
    built = list(grid)
    while started:  # the started ones first, the nearest to done first (counted afresh after each)
        best = (99, 0, 0, 0)
        for i, (rank, _sq, covering) in enumerate(started):
            free = ~(claimed * REPEAT)
            missing, mask = _best(covering, occupied, cubes.have & free, cubes.wrong & free)
            if mask and (missing, rank) < best[:2]:
                best = (missing, rank, i, mask)
        missing, _, i, mask = best
        if not mask:
            later = sorted(started) + later
            break
        _, sq, _ = started.pop(i)
        lacking[sq] = missing
        cost += MISSING_COST[min(missing, len(MISSING_COST) - 1)]
        claimed |= mask & cubes.cubes
        occupied |= 1 << sq
    for _, sq, covering in later:  # then the plan's order
        free = ~(claimed * REPEAT)
        missing, mask = _best(covering, occupied, cubes.have & free, cubes.wrong & free)
        if mask:
            lacking[sq] = missing
            cost += MISSING_COST[min(missing, len(MISSING_COST) - 1)]
            claimed |= mask & cubes.cubes
            occupied |= 1 << sq  # built in this order: it stands in the way of the ones after it
        else:
            built[sq] = NONE
            cost += DROP_COST
            drops += 1
    loose = (cubes.cubes & ~claimed).bit_count()
    score = plan_score(built, setting)
    if not chances:
        return score - cost - LOOSE_CUBE * loose
    value = score - DROP_COST * drops - LOOSE_CUBE * loose - CUBE_ON_BOARD * cubes.cubes.bit_count()
    for sq, missing in lacking.items():
        kind = built[sq]
        built[sq] = NONE
        value -= (1.0 - FINISH_CHANCE[min(missing, len(FINISH_CHANCE) - 1)]) * (score - plan_score(built, setting))
        built[sq] = kind
    return value


def _value(board: tuple[str, ...], setting: Setting) -> float:
    fixed = tuple(v if v in C.ALL_CARDS else NONE for v in board)
    plan = plan_for(fixed, setting)
    return realize(plan.grid, fixed, setting, cubes_of(board), plan.order, CHANCES)


def _best(
    covering: tuple[PackedPlacement, ...], buildings: int, have_packed: int, wrong_packed: int
) -> tuple[int, int]:
    """The fewest cubes missing over the completable placements, and that placement's mask (0: none)."""
    best_missing = 99
    best_mask = 0
    for mask, packed, size in covering:
        if mask & buildings or packed & wrong_packed:
            continue
        missing = size - (packed & have_packed).bit_count()
        if missing < best_missing:
            best_missing, best_mask = missing, mask
    return best_missing, best_mask


def clear_caches() -> None:
    """Forget every plan and value (after the constants change, for comparisons)."""
    _PLANS.clear()
    _VALUES.clear()
