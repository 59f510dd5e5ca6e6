"""How good a position is: the evaluation that the greedy agent and the search use.

``evaluate(state)`` estimates every player's final score from here, on the scale of the final
result (``Result.totals``; solo: ``Result.solo_score``), so a search can judge a cut-off position
and a finished game alike. ``heuristic(state, player)`` is what the greedy agent's one-step
lookahead compares: the player's own estimate (with the resource it must still place put on its
best square) minus the best other player's; solo, the own estimate.

The estimate is a linear model over features of each town (:func:`town_features`) that know
how Tiny Towns scores:

- the score as it stands (every square without a building -1, cottages fed by the best
  feeding, every card's rule);
- unfed Cottages, split by whether a feeder can still feed them (built with room, or its
  pattern still completable): each is worth 3 once fed;
- pattern potential: for each building in play (and the unbuilt monument), how close the best
  still-completable placement is (buildable now, 1, 2, 3+ cubes missing), weighted by what one
  more of that building is worth in this town (:func:`building_value`, the card's scoring rule
  applied to the counts of the town);
- stranded cubes: cubes no completable placement can use (each costs -1 at the end);
- empty squares (how many placements are left), cubes on the board, the monument built.

The weights are fitted by least squares from self-play (``benchmarks/fit/tiny_towns.py``) and
kept as data in ``weights.json`` beside this file. Per-town features depend only on the town
and the building cards, and are cached by the town's board, so a search that meets the same
town again pays a dictionary look-up.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from farmtable.core.memo import BoundedCache
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import planner
from farmtable.games.tiny_towns.patterns import placement_table
from farmtable.games.tiny_towns.rules import MAUSOLEUM_WOOD, NAME_PHASE, PLACE, PLACE_PHASE, TinyTownsState, Town
from farmtable.games.tiny_towns.scoring import TownFacts, best_feeding, cottage_groups, cottage_weight

BASE_FEATURES: tuple[str, ...] = (
    "bias",
    "score",
    "unfed_feedable",
    "unfed_stuck",
    "food_ready",
    "food_missing1",
    "food_missing2",
    "food_missing3",
    "ready",
    "missing1",
    "missing2",
    "missing3",
    "ready_late",
    "missing1_late",
    "missing2_late",
    "stranded",
    "empty",
    "cubes",
    "monument_built",
)
"""The per-town features; each also appears times the filled share of the town (:data:`FEATURES`)."""
FEATURES: tuple[str, ...] = (*BASE_FEATURES, *(f"{name}*filled" for name in BASE_FEATURES))
"""The names of the weights, in order: the base features, then each times the share of the town's
squares already filled (so each weight can change linearly from the first round to the last)."""

MISSING_LEVELS = 4
"""Potential is counted for placements buildable now, 1, 2, and 3 or more cubes short."""
LATE_SQUARES = 4
"""A town with this many empty squares or fewer is "late": few placements remain to finish a pattern."""
FEEDER_REACH = 2
"""A feeder pattern at most this many cubes short counts as a feeder to come."""
SOLO_LOOKAHEAD = 0
"""How far a solo ``evaluate()`` looks ahead inside the round, exactly (solo has no hidden choice there):
0 the town as it stands; 1 a resource still to place is put on its best square; 2 also, before the
resource is picked, the best face-up card on its best square."""
SOLO_PLAN_WEIGHT = 0.0
"""Solo: the share of a town's estimate taken from its town plan (``planner.py``); the rest is the
linear model. 0 (shipped): the linear model alone; 1: the plan alone. Experimental: no weight
above 0 has been shown better yet (``docs/games/tiny-towns-ai.md``)."""
SOLO_PLAN_BONUS = 0.0
"""Solo: add this times the worth of the best town plan for the buildings standing (``planner.plan_for``,
cube-free) to the estimate, so a build that spoils the town's best reachable plan costs. 0: off."""
SOLO_SCRIPT = False
"""Solo: judge a town by the committed build script of ``solo_policy.py`` (the greedy agent then
follows the script). Experimental (fourth session): see ``docs/games/tiny-towns-ai.md``."""
CACHE_LIMIT = 200_000
"""Per-town feature rows kept before the cache is emptied (memory stays bounded in long runs)."""

NOT_COMPLETABLE = 99
"""Cubes missing, for a placement that can no longer be completed (a square holds something else)."""
RESOURCE_INDEX: dict[str, int] = {r: i for i, r in enumerate(C.RESOURCES)}

WEIGHTS_FILE = "weights.json"
SCORE = FEATURES.index("score")
SCORE_FILLED = FEATURES.index("score*filled")
EMPTY = FEATURES.index("empty")

# --- what one more building is worth ---------------------------------------------------------

FEEDER_CAPACITY: dict[str, int] = {"Farm": C.FARM_CAPACITY, "Granary": 3, "Greenhouse": 3, "Orchard": 3}
"""About how many cottages one feeder ends up feeding (Farm: its 4; the others by geometry)."""
TYPICAL_VP: dict[str, float] = {
    "Well": 1.5,
    "Fountain": 1.5,
    "Millstone": 1.5,
    "Shed": C.SHED_VP,
    "Bakery": 2.0,
    "Tailor": 1.5,
    "Abbey": 2.0,
    "Cloister": 1.0,
    "Feast Hall": C.FEAST_HALL_VP,
    "Inn": 2.5,
    "Factory": 1.0,
    "Bank": C.BANK_VP,
    "Trading Post": 1.5,
    "Warehouse": 0.5,
    "Architect's Guild": 2.0,
    "Barrett Castle": 4.0,
    "Cathedral of Caterina": 4.0,
    "Fort Ironweed": C.FORT_VP,
    "Grove University": 5.0,
    "Mandras Palace": 4.0,
    "Obelisk of the Crescent": 2.0,
    "Opaleye's Watch": 1.0,
    "Silva Forum": 3.0,
    "The Starloom": 4.0,
    "Statue of the Bondmaker": 1.0,
}
"""Points a building usually brings when its score depends on where it stands (a judgement;
the fitted weights scale the whole potential)."""


class TownCounts(NamedTuple):
    """What :func:`building_value` needs to know about a town."""

    counts: dict[str, int]
    """Buildings (and the monument) on the board by name."""
    unfed: int
    """Cottages not fed by the best feeding now (Barrett Castle counts 2)."""
    cottages: int
    room: bool
    """A built feeder could feed one more cottage."""
    feeder_near: bool
    """A feeder is built with room, or a feeder pattern is at most :data:`FEEDER_REACH` cubes short."""


def building_value(name: str, town: TownCounts) -> float:
    """What one more ``name`` is worth in this town: its card's rule applied to the town's counts."""
    counts, unfed, cottages = town.counts, town.unfed, town.cottages
    if name == "Cottage":
        return C.COTTAGE_FED_VP * (1.0 if town.feeder_near else 0.5)
    if name in FEEDER_CAPACITY:
        if town.room and not unfed:  # the feeders built can take the next cottages already
            return 0.5
        return float(C.COTTAGE_FED_VP * min(FEEDER_CAPACITY[name], unfed + 1))
    if name == "Theater":
        types = sum(1 for kind in counts if kind in C.BUILDINGS and kind != "Theater")
        return float(min(types, 4)) * 0.75 + 0.5
    if name == "Market":
        return 1.0 + 0.5 * sum(n for kind, n in counts.items() if C.ALL_CARDS[kind].colour == C.YELLOW)
    if name == "Chapel":
        return float(C.CHAPEL_VP_PER_FED * max(cottages, 1))
    if name == "Temple":
        return C.TEMPLE_VP * (1.0 if cottages >= C.TEMPLE_FED_NEEDED else 0.5)
    if name in ("Tavern", "Almshouse"):
        table = C.TAVERN_TABLE if name == "Tavern" else C.ALMSHOUSE_TABLE
        n = counts.get(name, 0)
        top = len(table) - 1
        if name == "Almshouse":  # they pay in pairs: count the next two, halved
            return (table[min(n + 2, top)] - table[min(n, top)]) / 2
        return float(table[min(n + 1, top)] - table[min(n, top)])
    if name == "Archive of the Second Age":
        return float(sum(1 for kind in counts if kind in C.BUILDINGS)) + 1.0
    if name == "Grand Mausoleum of the Rodina":
        return float(C.MAUSOLEUM_UNFED_VP * unfed) + 1.0
    if name == "Shrine of the Elder Tree":
        built = sum(counts.values())
        return float(C.SHRINE_TABLE[min(built + 1, len(C.SHRINE_TABLE) - 1)])
    if name == "The Sky Baths":
        types = sum(1 for kind in counts if kind in C.BUILDINGS)
        return float(C.SKY_BATHS_VP_PER_MISSING * max(C.BUILDING_TYPES_IN_PLAY - types - 2, 0))
    return float(TYPICAL_VP.get(name, 1.0))


# --- pattern tables -----------------------------------------------------------------------------


class PatternTable:
    """Every placement of the patterns one town may build, as numpy arrays (one row a placement)."""

    __slots__ = ("kinds", "needs", "sizes", "spans", "starts")

    def __init__(self, kinds: tuple[str, ...], patterns: tuple[str, ...]) -> None:
        rows: list[tuple[int, int, int, int, int]] = []
        sizes: list[int] = []
        spans: list[tuple[int, int]] = []
        for pattern in patterns:
            start = len(rows)
            for entry in placement_table(pattern):
                rows.append((entry[1], entry[2], entry[3], entry[4], entry[5]))
                sizes.append(entry[0].bit_count())
            spans.append((start, len(rows)))
        self.kinds = kinds
        self.needs: npt.NDArray[np.int64] = np.array(rows, dtype=np.int64).reshape(-1, len(C.RESOURCES))
        self.sizes: npt.NDArray[np.int64] = np.array(sizes, dtype=np.int64)
        self.spans = tuple(spans)
        self.starts: npt.NDArray[np.int64] = np.array([lo for lo, _ in spans], dtype=np.int64)


@cache
def pattern_table(kinds: tuple[str, ...], patterns: tuple[str, ...]) -> PatternTable:
    """The placement table of these building kinds with these patterns (built once per game set)."""
    return PatternTable(kinds, patterns)


# --- features of one town ------------------------------------------------------------------------

_ROW_CACHE: BoundedCache[tuple[Any, ...], npt.NDArray[np.float64]] = BoundedCache(CACHE_LIMIT)


def _kinds_of(state: TinyTownsState, town: Town) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The buildings ``town`` may still build (the cards in play and its unbuilt monument), and their patterns."""
    return _kinds(state.buildings, town.monument if town.monument and not town.built else "", state.variants)


@cache
def _kinds(
    buildings: tuple[str, ...], monument: str, variants: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    kinds = (*buildings, monument) if monument else buildings
    return kinds, tuple(pattern_for(kind, variants) for kind in kinds)


def pattern_for(name: str, variants: tuple[str, ...]) -> str:
    """The pattern of a building or monument under these variants (as ``TinyTownsState.pattern_of``)."""
    if name == "Grand Mausoleum of the Rodina" and MAUSOLEUM_WOOD in variants:
        return C.MAUSOLEUM_ALT_PATTERN
    return C.ALL_CARDS[name].pattern


def town_grid(town: Town) -> list[str]:
    """The town's board with its own hidden placement of this round put down (it is decided)."""
    choice = town.choice
    if choice is not None and choice.verb == PLACE and not town.grid[choice.target]:
        grid = town.grid[:]
        grid[choice.target] = choice.what
        return grid
    return town.grid


def town_features(state: TinyTownsState, player: int, grid: Sequence[str] | None = None) -> npt.NDArray[np.float64]:
    """The feature row (:data:`FEATURES`) of ``player``'s town, with ``grid`` standing for its board.

    The score feature is the town scored alone (Feast Hall's comparison with the player on
    the right and the Starloom's order are left out; :func:`evaluate` puts the real score in).
    """
    town = state.towns[player]
    board = town_grid(town) if grid is None else grid
    kinds, patterns = _kinds_of(state, town)
    monument = town.monument if town.built else ""
    stored = town.warehouse_cubes()
    key = (*board, kinds, patterns, monument, town.shrine_vp, stored, state._readings)
    row = _ROW_CACHE.get(key)
    if row is None:
        row = _compute_features(board, kinds, patterns, monument, town.shrine_vp, stored, state)
        _ROW_CACHE.put(key, row)
    return row


class LayoutFacts(NamedTuple):
    """What a town's features take from its *buildings* alone (resource cubes count as empty squares
    for scoring and feeding): the same for every cube placed on a board, so it is computed once per
    layout of buildings (:func:`layout_facts`) and shared by all boards that differ only in cubes."""

    score: int
    """The town scored alone with the best feeding (every square without a building -1)."""
    wild: int
    """Bit mask of the Trading Posts (they stand in for any resource in a pattern)."""
    cottages: int
    unfed: int
    room: bool
    """A built feeder could feed one more cottage (:func:`_feeders_have_room`)."""
    counts: dict[str, int]
    """Buildings (and the monument) on the board by name (shared: never change it)."""
    values_near: tuple[float, ...]
    """:func:`building_value` of each kind that may still be built (in the order of the kinds), with a
    feeder near (built with room, or its pattern at most :data:`FEEDER_REACH` cubes short)."""
    values_far: tuple[float, ...]
    """The same without a feeder near."""


_LAYOUT_CACHE: BoundedCache[tuple[Any, ...], LayoutFacts] = BoundedCache(CACHE_LIMIT)


def building_layout(board: Sequence[str]) -> tuple[str, ...]:
    """The board with every square that holds no building (a resource cube, nothing) made ``""``:
    all that scoring and feeding look at."""
    return tuple(v if v in C.ALL_CARDS else "" for v in board)


def layout_facts(
    board: Sequence[str],
    kinds: tuple[str, ...],
    monument: str,
    shrine_vp: int,
    warehouse_cubes: int,
    readings: frozenset[str],
) -> LayoutFacts:
    """The :class:`LayoutFacts` of ``board`` (its buildings; cubes are ignored) for the building ``kinds``
    that may still be built, cached by the layout of buildings, the kinds, the monument built, the
    Shrine's points, the cubes in Warehouses and the rule readings."""
    layout = building_layout(board)
    key = (layout, kinds, monument, shrine_vp, warehouse_cubes, readings)
    found = _LAYOUT_CACHE.get(key)
    if found is None:
        found = _LAYOUT_CACHE.put(key, _compute_layout(layout, kinds, monument, shrine_vp, warehouse_cubes, readings))
    return found


def _compute_layout(
    layout: tuple[str, ...],
    kinds: tuple[str, ...],
    monument: str,
    shrine_vp: int,
    warehouse_cubes: int,
    readings: frozenset[str],
) -> LayoutFacts:
    facts = TownFacts(grid=layout, monument=monument or None, warehouse_cubes=warehouse_cubes, shrine_vp=shrine_vp)
    facts.starloom_place = 1
    sheet, fed = best_feeding(facts, None, readings)
    wild = 0
    counts: dict[str, int] = {}
    cottages = 0
    unfed = 0
    for sq, v in enumerate(layout):
        if not v:
            continue
        counts[v] = counts.get(v, 0) + 1
        if v == "Trading Post":
            wild |= 1 << sq
        weight = cottage_weight(v)
        if weight:
            cottages += weight
            if sq not in fed:
                unfed += weight
    room = _feeders_have_room(layout, counts)
    near = TownCounts(counts, unfed, cottages, room, True)
    far = TownCounts(counts, unfed, cottages, room, False)
    return LayoutFacts(
        sum(sheet.values()),
        wild,
        cottages,
        unfed,
        room,
        counts,
        tuple(building_value(kind, near) for kind in kinds),
        tuple(building_value(kind, far) for kind in kinds),
    )


@cache
def _kind_roles(kinds: tuple[str, ...]) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """For each kind: is it a feeder (counts for "a feeder near"), and is it food (a Cottage or a
    feeder: its potential goes to the food features, the others' to the building potential)."""
    feeders = tuple(kind in FEEDER_CAPACITY for kind in kinds)
    food = tuple(kind == "Cottage" or kind in FEEDER_CAPACITY for kind in kinds)
    return feeders, food


@cache
def _need_columns(table: PatternTable) -> tuple[npt.NDArray[np.int64], ...]:
    """The table's needs one resource at a time (each a contiguous column: cheaper to combine)."""
    return tuple(np.ascontiguousarray(table.needs[:, i]) for i in range(table.needs.shape[1]))


def _compute_features(
    board: Sequence[str],
    kinds: tuple[str, ...],
    patterns: tuple[str, ...],
    monument: str,
    shrine_vp: int,
    warehouse_cubes: int,
    state: TinyTownsState,
) -> npt.NDArray[np.float64]:
    layout = layout_facts(board, kinds, monument, shrine_vp, warehouse_cubes, state._readings)
    score, wild, _cottages, unfed, room, _counts, values_near, values_far = layout

    have = [0] * len(C.RESOURCES)
    empty = 0
    for sq, v in enumerate(board):
        if not v:
            empty |= 1 << sq
        elif v in RESOURCE_INDEX:
            have[RESOURCE_INDEX[v]] |= 1 << sq
    cubes = have[0] | have[1] | have[2] | have[3] | have[4]

    # For each placement (a row of the table): can it still be completed (every square it needs holds
    # its resource, a Trading Post or nothing), which of its squares already hold what it needs.
    table = pattern_table(kinds, patterns)
    lack = None
    matched = None
    for column, held in zip(_need_columns(table), have, strict=True):
        supply = held | wild
        short = column & ~(supply | empty)
        got = column & supply
        lack = short if lack is None else lack | short
        matched = got if matched is None else matched | got
    assert lack is not None and matched is not None
    completable = lack == 0
    missing = np.where(completable, table.sizes - np.bitwise_count(matched), NOT_COMPLETABLE)
    usable = int(np.bitwise_or.reduce(matched[completable])) if completable.any() else 0
    stranded = (cubes & ~usable).bit_count()
    shortest = np.minimum.reduceat(missing, table.starts).tolist()

    feeders, food_kinds = _kind_roles(kinds)
    feeder_near = room or any(feeder and short <= FEEDER_REACH for feeder, short in zip(feeders, shortest, strict=True))
    potential = [0.0] * MISSING_LEVELS
    food = [0.0] * MISSING_LEVELS
    values = values_near if feeder_near else values_far
    for value, short, is_food in zip(values, shortest, food_kinds, strict=True):
        if short >= NOT_COMPLETABLE:
            continue
        if is_food:
            food[min(short, MISSING_LEVELS - 1)] += value
        else:
            potential[min(short, MISSING_LEVELS - 1)] += value
    empties = empty.bit_count()
    late = 1.0 if empties <= LATE_SQUARES else 0.0
    base = [
        1.0,
        float(score),
        float(unfed if feeder_near else 0),
        float(0 if feeder_near else unfed),
        *food,
        potential[0],
        potential[1],
        potential[2],
        potential[3],
        potential[0] * late,
        potential[1] * late,
        potential[2] * late,
        float(stranded),
        float(empties),
        float(cubes.bit_count()),
        1.0 if monument else 0.0,
    ]
    filled = 1.0 - empties / C.SQUARES
    return np.array(base + [value * filled for value in base], dtype=np.float64)


def _feeders_have_room(board: Sequence[str], counts: dict[str, int]) -> bool:
    """True if the built feeders could feed one more cottage somewhere (a Farm with room; the others
    usually have a square left in reach)."""
    farms = counts.get("Farm", 0)
    cottages = sum(cottage_weight(v) for v in board)
    if farms and cottages < C.FARM_CAPACITY * farms:
        return True
    if counts.get("Greenhouse", 0) and len(cottage_groups(board)) <= counts["Greenhouse"]:
        return True
    return bool(counts.get("Granary", 0) or counts.get("Orchard", 0))


# --- the weights --------------------------------------------------------------------------------


_OVERRIDE: dict[str, npt.NDArray[np.float64]] = {}


def set_weights(models: dict[str, Sequence[float]] | None) -> None:
    """Use these weight vectors instead of ``weights.json`` (the fitting script; ``None`` restores).

    ``ValueError`` if a vector does not have one weight per feature; then nothing changes.
    """
    if models is None:
        _OVERRIDE.clear()
        return
    vectors = {name: np.array(vec, dtype=np.float64) for name, vec in models.items()}
    for name, vec in vectors.items():
        if vec.shape != (len(FEATURES),):
            raise ValueError(f"weights '{name}' need {len(FEATURES)} numbers ({', '.join(FEATURES)}), got {vec.shape}")
    if "solo" not in vectors:
        raise ValueError("weights need at least a 'solo' model")
    _OVERRIDE.clear()
    _OVERRIDE.update(vectors)


def use_weights_file(path: str) -> None:
    """Use the weight vectors of another weights file (same layout as ``weights.json``), for comparisons."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if list(data.get("features", FEATURES)) != list(FEATURES):
        raise ValueError(f"{path} was fitted for features {data['features']}, not {list(FEATURES)}")
    set_weights(data["weights"])


@cache
def load_weights() -> dict[str, npt.NDArray[np.float64]]:
    """The fitted weight vectors by model name ("solo", "multi"), read from ``weights.json``."""
    text = resources.files("farmtable.games.tiny_towns").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if list(data["features"]) != list(FEATURES):
        raise ValueError(f"{WEIGHTS_FILE} was fitted for features {data['features']}, not {list(FEATURES)}")
    return {name: np.array(vec, dtype=np.float64) for name, vec in data["weights"].items()}


_SOLO_MODEL: list[str] = ["solo"]
"""The model a solo game is judged by (:func:`solo_model` switches it for one agent's decision)."""


def weights_for(state: TinyTownsState) -> npt.NDArray[np.float64]:
    """The weight vector used for this game (solo: the active solo model, :func:`solo_model`; or multi-player)."""
    models = _OVERRIDE or load_weights()
    if state.solo:
        return models[_SOLO_MODEL[0]] if _SOLO_MODEL[0] in models else models["solo"]
    return models["multi"] if "multi" in models else models["solo"]


def solo_models() -> tuple[str, ...]:
    """The names of the models solo games may be judged by (``weights.json``, or the weights set)."""
    return tuple(name for name in (_OVERRIDE or load_weights()) if name != "multi")


@contextmanager
def solo_model(name: str) -> Iterator[None]:
    """Judge solo games by the model ``name`` of ``weights.json`` inside the block (``"solo"``: the shipped
    one); games with more players are not affected. ``ValueError`` for a model the weights do not have."""
    if name not in solo_models():
        raise ValueError(f"no solo model '{name}' in the Tiny Towns weights (they have {', '.join(solo_models())})")
    before = _SOLO_MODEL[0]
    _SOLO_MODEL[0] = name
    try:
        yield
    finally:
        _SOLO_MODEL[0] = before


# --- the contract hooks -------------------------------------------------------------------------


def plan_setting(state: TinyTownsState, player: int) -> planner.Setting:
    """What ``player``'s town plan depends on: the kinds in play, the own monument, the readings."""
    town = state.towns[player]
    return _setting(state.buildings, town.monument, state.variants, town.shrine_vp)


@cache
def _setting(buildings: tuple[str, ...], monument: str, variants: tuple[str, ...], shrine_vp: int) -> planner.Setting:
    kinds = (*buildings, monument) if monument else buildings
    patterns = tuple(pattern_for(kind, variants) for kind in kinds)
    return planner.Setting(kinds, monument, shrine_vp, frozenset(variants), patterns)


def estimate(state: TinyTownsState, player: int, grid: Sequence[str] | None = None) -> float:
    """``player``'s estimated final score, the town standing as ``grid`` (default: as it is)."""
    if SOLO_SCRIPT and state.players == 1:
        from farmtable.games.tiny_towns.solo_policy import script_estimate

        return script_estimate(state, list(town_grid(state.towns[player]) if grid is None else grid))
    row = town_features(state, player, grid)
    linear = float(row @ weights_for(state))
    if SOLO_PLAN_BONUS and state.players == 1:
        town = state.towns[player]
        board = town_grid(town) if grid is None else grid
        fixed = tuple(v if v in C.ALL_CARDS else "" for v in board)
        linear += SOLO_PLAN_BONUS * planner.plan_for(fixed, plan_setting(state, player)).objective
    if SOLO_PLAN_WEIGHT and state.players == 1:
        town = state.towns[player]
        board = town_grid(town) if grid is None else grid
        plan = planner.plan_value(board, plan_setting(state, player), town.warehouse_cubes())
        return (1.0 - SOLO_PLAN_WEIGHT) * linear + SOLO_PLAN_WEIGHT * plan
    return linear


def evaluate(state: TinyTownsState) -> list[float]:
    """Each player's estimated final score; a finished game's real result (solo: the solo score)."""
    if state.is_over():
        result = state.result()
        if state.players == 1:
            return [float(result.solo_score)]
        return [float(t) for t in result.totals]
    if state.players == 1 and SOLO_LOOKAHEAD:
        if _pending_place(state, 0):
            return [best_placement_estimate(state, 0)]
        if SOLO_LOOKAHEAD >= 2 and state.phase == NAME_PHASE:
            return [max(best_placement_estimate(state, 0, r) for r in state.nameable(0))]
    if state.players == 1 and (SOLO_PLAN_WEIGHT or SOLO_PLAN_BONUS or SOLO_SCRIPT):
        return [estimate(state, 0)]
    weights = weights_for(state)
    values = [float(town_features(state, p) @ weights) for p in range(state.players)]
    if state.players > 1:  # the real score (Feast Hall, Starloom) instead of the town alone
        totals = state.result().totals
        for p, town in enumerate(state.towns):
            if town.complete:  # a complete town does not change any more
                values[p] = float(totals[p])
                continue
            row = town_features(state, p)
            filled = 1.0 - float(row[EMPTY]) / C.SQUARES
            values[p] += float((weights[SCORE] + weights[SCORE_FILLED] * filled) * (totals[p] - float(row[SCORE])))
    return values


def best_placement_estimate(state: TinyTownsState, player: int, resource: str | None = None) -> float:
    """``player``'s estimate once the resource it must place now (or ``resource``) is on its best empty square."""
    town = state.towns[player]
    resource = resource or state.named
    best = float("-inf")
    grid = town.grid[:]
    kinds = [resource] if resource else list(C.RESOURCES)
    for sq, v in enumerate(town.grid):
        if v:
            continue
        for r in kinds:
            grid[sq] = r
            best = max(best, estimate(state, player, grid))
        grid[sq] = ""
    return best if best > float("-inf") else estimate(state, player)


def _pending_place(state: TinyTownsState, player: int) -> bool:
    town = state.towns[player]
    return state.phase == PLACE_PHASE and not town.complete and town.choice is None


def heuristic(state: TinyTownsState, player: int) -> float:
    """Own estimated final score minus the best other player's (solo: the own estimate).

    A player who still has to place this round's resource is valued with it on its best
    square, so naming a resource is judged by what it lets each player build.
    """
    values = evaluate(state)
    if not state.is_over():
        for p in range(state.players):
            if _pending_place(state, p):
                values[p] = best_placement_estimate(state, p)
    mine = values[player]
    if state.players == 1:
        return mine
    return mine - max(v for q, v in enumerate(values) if q != player)
