"""How good a position is: the evaluation that the greedy agent and the search use.

``evaluate(state)`` estimates every player's final score from the position, on the scale of
the final result (``Result.totals``; solo: ``Result.solo_score``), so a search can judge a
cut-off position and a finished game alike. ``heuristic(state, player)`` is derived from it
(solo: the estimate itself; several players: own estimate minus the best opponent's).

The estimate is ``score now + w . features``: a linear model over cheap features of each farm
(animals safe in pens or exposed to a wolf still in the deck, corn and free animal cells in open
regions weighted by how few empty positions still touch the region, free cells in closed pens,
what the remaining cards can still bring, the card in hand). The features read the scoring
function and ``components.py`` (nothing is copied), and the weights are data:
``weights.json`` beside this module, fitted by ``benchmarks/fit/farmini.py`` (numpy least
squares on self-play positions; see ``docs/games/farmini-ai.md``).

Only what every player can see is used: the deck is read as a set (the cards not yet seen),
never in its order, so two positions that look the same to a player get the same value.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

from farmtable.core.memo import BoundedCache
from farmtable.games.farmini.components import (
    ALL_CARDS,
    ANIMAL_CELL,
    CORN,
    KINDS,
    AnimalCard,
    FenceCard,
    WolfCard,
)
from farmtable.games.farmini.farm import DELTA, MIRROR, Cell, Farm, Oriented, Pos, Region
from farmtable.games.farmini.rules import FarminiState, Place, PutAnimal
from farmtable.games.farmini.scoring import SOLO_PLAYERS, score_sheet

FEATURES: Final = (
    "bias",
    "cards_left",
    "animals_safe",
    "animals_exposed",
    "exposed_wolf_risk",
    "pen_free_cells",
    "pen_free_cells_x_animals_left",
    "open_corn",
    "open_corn_near",
    "open_free_cells",
    "open_free_cells_near",
    "open_animals_near",
    "frontier",
    "free_cells",
    "animals_left",
    "hand_animals",
    "hand_fence_animal_cells",
    "hand_fence_corn",
    "hand_fence_arms",
)
"""The feature names, in the order of the weight vectors in ``weights.json``."""

LOOKAHEAD = True
"""Judge a position where the player holds a taken card by the best way to play it (the turn it
completes; measured in ``benchmarks/ai/farmini.md``). False: by the ``hand_*`` features alone
(the first evaluation; kept for paired comparisons, ``compare.py --set``)."""

EXACT_PLACEMENTS: Final = 3
"""How many of a taken fence card's placements, the best by the quick value, are valued exactly."""

SOLO_MODEL: Final = "solo"
MULTI_MODEL: Final = "multi"
WEIGHTS_FILE: Final = "weights.json"

_SIDES: Final = len(DELTA)
_TOTAL_ANIMALS_ON_CARDS: Final = sum(c.count for c in ALL_CARDS.values() if isinstance(c, AnimalCard))


@cache
def weights() -> dict[str, tuple[float, ...]]:
    """The fitted weight vectors per model (``solo``, ``multi``), read once from ``weights.json``.

    Raises ``ValueError`` naming the problem when the file does not match :data:`FEATURES`.
    """
    text = resources.files("farmtable.games.farmini").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return parse_weights(text)


def parse_weights(text: str) -> dict[str, tuple[float, ...]]:
    """Read a ``weights.json`` text: its feature list must be :data:`FEATURES` (ValueError otherwise)."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise ValueError(
            "farmini weights.json lists other features than evaluation.FEATURES: refit with benchmarks/fit/farmini.py"
        )
    models: dict[str, tuple[float, ...]] = {}
    for name in (SOLO_MODEL, MULTI_MODEL):
        vector = data.get(name)
        if not isinstance(vector, list) or len(vector) != len(FEATURES):
            raise ValueError(f"farmini weights.json: '{name}' must be a list of {len(FEATURES)} numbers")
        models[name] = tuple(float(v) for v in vector)
    return models


_WOLF_KIND: Final = {cid: c.kind for cid, c in ALL_CARDS.items() if isinstance(c, WolfCard)}
_ANIMALS_ON: Final = {cid: c.count for cid, c in ALL_CARDS.items() if isinstance(c, AnimalCard)}
_SIDE_STEPS: Final = tuple((DELTA[q], DELTA[(q + 1) % _SIDES]) for q in range(_SIDES))
"""Per quarter, the grid steps through the two card sides it touches."""


_SHAPES_MAX: Final = 8_192
_SHAPES: BoundedCache[int, tuple[Region, int, tuple[Cell, ...], frozenset[Pos]]] = BoundedCache(_SHAPES_MAX)
"""Per region object (regions are immutable and shared by copies of a farm): its cornfields, its
animal cells and the empty places it faces. Bounded: the oldest entries are forgotten first."""


def _shape(region: Region, cards: dict[Pos, Oriented]) -> tuple[int, tuple[Cell, ...], frozenset[Pos]]:
    """Cornfields, animal cells and faced empty places of ``region`` (cached per region object)."""
    hit = _SHAPES.get(id(region))
    if hit is not None and hit[0] is region:
        return hit[1], hit[2], hit[3]
    corn = 0
    cells: list[Cell] = []
    faced: set[Pos] = set()
    for cell in region.cells:
        x, y, q = cell
        content = cards[x, y].quarters[q]
        if content == CORN:
            corn += 1
        elif content == ANIMAL_CELL:
            cells.append(cell)
        if not region.closed:
            for dx, dy in _SIDE_STEPS[q]:
                pos = (x + dx, y + dy)
                if pos not in cards:
                    faced.add(pos)
    frozen = frozenset(faced)
    _SHAPES.put(id(region), (region, corn, tuple(cells), frozen))
    return corn, tuple(cells), frozen


# Indices of the per-region sums (see _add_region): the region features, then the region's score.
_SAFE, _EXPOSED, _RISK, _PEN_FREE, _OPEN_CORN, _OPEN_CORN_NEAR = range(6)
_OPEN_FREE, _OPEN_FREE_NEAR, _OPEN_ANIMALS_NEAR, _FREE, _SCORE, _TERMS = range(6, 12)


def _add_region(
    acc: list[float],
    sign: float,
    closed: bool,
    corn: int,
    cells: tuple[Cell, ...],
    faced: int,
    animals: dict[Cell, str],
    wolves_left: dict[str, int],
) -> None:
    """Add (``sign`` 1) or take off (-1) one region's share of the region features and of the score.

    The score share is the normal rules' under the first gap reading: an enclosed pen's corn when
    it holds no animal, minus 1 when it has an empty animal cell.
    """
    free = held = 0
    risk = 0
    for cell in cells:
        kind = animals.get(cell)
        if kind is None:
            free += 1
        else:
            held += 1
            if not closed:
                risk += wolves_left[kind]
    acc[_FREE] += sign * free
    if closed:
        acc[_SAFE] += sign * held
        acc[_PEN_FREE] += sign * free
        acc[_SCORE] += sign * ((0 if held else corn) - (1 if free else 0))
        return
    near = 1.0 / max(1, faced)  # fewer empty places around it: closer to a pen
    acc[_EXPOSED] += sign * held
    acc[_RISK] += sign * risk
    if not held:
        acc[_OPEN_CORN] += sign * corn
        acc[_OPEN_CORN_NEAR] += sign * corn * near
    acc[_OPEN_FREE] += sign * free
    acc[_OPEN_FREE_NEAR] += sign * free * near
    acc[_OPEN_ANIMALS_NEAR] += sign * held * near


def _public(state: FarminiState) -> tuple[dict[str, int], float, float]:
    """What every player sees of the cards still to come: wolves per kind still unseen, the animal
    tokens on face-up and unseen animal cards per player, and the cards left per player."""
    wolves_left = dict.fromkeys(KINDS, 0)
    animals_left = 0
    for cid in state.deck:  # read as a set of cards: its order is never used
        kind = _WOLF_KIND.get(cid)
        if kind is not None:
            wolves_left[kind] += 1
        else:
            animals_left += _ANIMALS_ON.get(cid, 0)
    for cid in state.table:
        animals_left += _ANIMALS_ON.get(cid, 0)
    cards_left = (len(state.deck) + len(state.table)) / state.players
    return wolves_left, animals_left / state.players, cards_left


def _vector(
    terms: list[float], cards_left: float, animals_left_share: float, frontier: int, hand: tuple[float, ...]
) -> list[float]:
    """The feature vector (order of :data:`FEATURES`) from the region sums and the other counts."""
    pen_free = terms[_PEN_FREE]
    return [
        1.0,
        cards_left,
        terms[_SAFE],
        terms[_EXPOSED],
        terms[_RISK],
        pen_free,
        pen_free * animals_left_share / _TOTAL_ANIMALS_ON_CARDS,
        terms[_OPEN_CORN],
        terms[_OPEN_CORN_NEAR],
        terms[_OPEN_FREE],
        terms[_OPEN_FREE_NEAR],
        terms[_OPEN_ANIMALS_NEAR],
        float(frontier),
        terms[_FREE],
        animals_left_share,
        *hand,
    ]


_NO_HAND: Final = (0.0, 0.0, 0.0, 0.0)


def features(state: FarminiState, player: int, farm: Farm | None = None, hand: bool = True) -> list[float]:
    """The feature vector of ``player``'s farm (same order as :data:`FEATURES`); cheap, no lookahead.

    ``farm`` replaces the player's farm (a copy with the taken card already played, see
    :func:`estimate`); ``hand=False`` leaves the taken card out of the ``hand_*`` features.
    """
    if farm is None:
        farm = state.farms[player]
    warm(farm)
    animals = farm.animals
    cards = farm.cards
    wolves_left, animals_left_share, cards_left = _public(state)
    terms = [0.0] * _TERMS
    # the regions as the first gap reading sees them: under the default reading a ring around a
    # missing card is already a pen (scored in "score now"), but one still a card short
    # (measured: greedy solo median 9 -> 20 on 12 deals against reading the gap-enclosed pens)
    for region in farm.regions_without_gaps():
        corn, cells, faced = _shape(region, cards)
        _add_region(terms, 1.0, region.closed, corn, cells, len(faced), animals, wolves_left)
    in_hand = _NO_HAND
    if hand and state.pending is not None and player == state.current:
        card = state.faces.cards.get(state.pending) or ALL_CARDS[state.pending]
        if isinstance(card, AnimalCard):
            in_hand = (float(min(state.pending_left, int(terms[_FREE]))), 0.0, 0.0, 0.0)
        elif isinstance(card, FenceCard):
            in_hand = (
                0.0,
                float(card.quarters.count(ANIMAL_CELL)),
                float(card.quarters.count(CORN)),
                float(len(card.arms)),
            )
    return _vector(terms, cards_left, animals_left_share, len(farm.slots()), in_hand)


def _new_regions(cards: dict[Pos, Oriented], pos: Pos, card: Oriented) -> list[tuple[bool, int, tuple[Cell, ...], int]]:
    """The regions (first gap reading) holding a quarter of ``card`` if it were laid at ``pos``:
    closed, cornfields, animal cells, faced empty places. Only these regions differ from the
    farm's own: every open region that faced ``pos`` merges into one of them."""
    out: list[tuple[bool, int, tuple[Cell, ...], int]] = []
    seen: set[Cell] = set()
    for q0 in range(_SIDES):
        start = (pos[0], pos[1], q0)
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        corn = 0
        cells: list[Cell] = []
        faced: set[Pos] = set()
        while stack:
            x, y, q = stack.pop()
            here = card if (x, y) == pos else cards[x, y]
            content = here.quarters[q]
            if content == CORN:
                corn += 1
            elif content == ANIMAL_CELL:
                cells.append((x, y, q))
            arms = here.arms
            nxt = (q + 1) % _SIDES
            if not arms[nxt] and (x, y, nxt) not in seen:
                seen.add((x, y, nxt))
                stack.append((x, y, nxt))
            prv = (q - 1) % _SIDES
            if not arms[q] and (x, y, prv) not in seen:
                seen.add((x, y, prv))
                stack.append((x, y, prv))
            for side in (q, nxt):
                dx, dy = DELTA[side]
                npos = (x + dx, y + dy)
                if npos != pos and npos not in cards:
                    faced.add(npos)
                    continue
                cell = (npos[0], npos[1], MIRROR[side][q])
                if cell not in seen:
                    seen.add(cell)
                    stack.append(cell)
        out.append((not faced, corn, tuple(cells), len(faced)))
    return out


_LAYOUTS_MAX: Final = 4_096
_LAYOUTS: BoundedCache[tuple[bool, str, frozenset[tuple[Pos, str, int]]], list[tuple[Region, ...] | None]] = (
    BoundedCache(_LAYOUTS_MAX)
)
"""Per card layout (gap reading, faces, cards laid): its regions under the game's reading and
under the first gap reading (each flooded when first asked). A search lays the same cards in
many sampled worlds; each farm object would flood them again. Bounded: the oldest go first."""


def clear_caches() -> None:
    """Forget every cached layout and value (tests; a long-running process may call it too)."""
    _LAYOUTS.clear()
    _CELL_REGIONS.clear()
    _PLACEMENTS.clear()
    _SHAPES.clear()


def _layout_key(farm: Farm) -> tuple[bool, str, frozenset[tuple[Pos, str, int]]]:
    return (farm.gaps_enclose, farm.faces.name, frozenset((pos, o.card_id, o.rot) for pos, o in farm.cards.items()))


def warm(farm: Farm, first_reading: bool = True) -> Farm:
    """Give ``farm`` the regions of its card layout from the cache (flooding them once if new).

    A farm's regions depend only on its cards, so every farm with the same layout shares one
    computed tuple of regions (and, through them, the per-region counts of :func:`_shape`).
    ``first_reading``: the regions under the first gap reading too. Returns ``farm``.
    """
    open_too = first_reading and farm.gaps_enclose
    if farm._regions is not None and (not open_too or farm._open_regions is not None):
        return farm
    key = _layout_key(farm)
    hit = _LAYOUTS.get(key)
    if hit is None:
        hit = _LAYOUTS.put(key, [None, None])
    if farm._regions is None:
        if hit[0] is None:
            hit[0] = farm.regions()
        else:
            farm._regions = hit[0]
    if open_too and farm._open_regions is None:
        if hit[1] is None:
            hit[1] = farm.regions_without_gaps()
        else:
            farm._open_regions = hit[1]
    return farm


def _score_now(state: FarminiState, player: int) -> float:
    return float(sum(score_sheet(warm(state.farms[player]), state.rules).values()))


def _value(state: FarminiState, player: int, farm: Farm, model: tuple[float, ...]) -> float:
    """Score of ``farm`` now plus the fitted value of its features, the taken card left out."""
    score = float(sum(score_sheet(warm(farm), state.rules).values()))
    return score + sum(w * f for w, f in zip(model, features(state, player, farm, hand=False), strict=True))


_Placement = tuple[Pos, int, tuple[int, ...], tuple[tuple[bool, int, tuple[Cell, ...], int], ...], int]
"""A placement's effect on the regions: position, rotation, the open regions (indices into
``farm.regions_without_gaps()``) it merges, the regions holding the new card, the frontier after."""

_PLACEMENTS: BoundedCache[tuple[object, ...], tuple[tuple[Region, ...], list[_Placement]]] = BoundedCache(_LAYOUTS_MAX)
"""Per card layout and fence card: every placement's effect on the regions (it does not depend
on the animals or the cards still to come, so a search that meets the layout again in another
sampled world does not flood again). Bounded."""


def _placement_shapes(farm: Farm, cid: str) -> list[_Placement]:
    """Every legal placement of fence card ``cid`` on ``farm`` with its effect on the regions (cached)."""
    open_regions = farm.regions_without_gaps()
    key = (_layout_key(farm), cid)
    hit = _PLACEMENTS.get(key)
    if hit is not None and hit[0] is open_regions:
        return hit[1]
    cards = farm.cards
    facing: dict[Pos, list[int]] = {}
    for index, region in enumerate(open_regions):
        if not region.closed:
            for pos in _shape(region, cards)[2]:
                facing.setdefault(pos, []).append(index)
    frontier = farm.slots()
    known = {slot[0] for slot in frontier}
    oriented = farm.faces.oriented
    out: list[_Placement] = []
    for pos, rot in farm.placements(cid):
        x, y = pos
        grown = sum(1 for dx, dy in DELTA if (x + dx, y + dy) not in cards and (x + dx, y + dy) not in known)
        merged = tuple(facing.get(pos, ()))
        out.append((pos, rot, merged, tuple(_new_regions(cards, pos, oriented[cid, rot])), len(frontier) - 1 + grown))
    _PLACEMENTS.put(key, (open_regions, out))
    return out


def _rank_placements(
    state: FarminiState, player: int, cid: str, model: tuple[float, ...]
) -> list[tuple[float, Pos, int, float]]:
    """Every placement of fence card ``cid`` on ``player``'s farm with a quick value, best first.

    The quick value is :func:`_value` computed without laying the card: only the regions that
    touch the new card are flooded again (once per layout and card, see :func:`_placement_shapes`);
    the score is the normal rules' under the first gap reading (equal to :func:`_value` for such
    games; a test checks it). Each entry is (quick value, position, rotation, the score part of
    the quick value).
    """
    farm = warm(state.farms[player])
    cards = farm.cards
    animals = farm.animals
    wolves_left, animals_left_share, cards_left = _public(state)
    base = [0.0] * _TERMS
    shapes: list[tuple[int, tuple[Cell, ...], int]] = []
    for region in farm.regions_without_gaps():
        corn, cells, faced = _shape(region, cards)
        _add_region(base, 1.0, region.closed, corn, cells, len(faced), animals, wolves_left)
        shapes.append((corn, cells, len(faced)))
    animal_points = float(len(animals))
    ranked: list[tuple[float, Pos, int, float]] = []
    for pos, rot, merged, new, frontier in _placement_shapes(farm, cid):
        terms = base.copy()
        for index in merged:
            corn, cells, faced_count = shapes[index]
            _add_region(terms, -1.0, False, corn, cells, faced_count, animals, wolves_left)
        for closed, corn, cells, faced_count in new:
            _add_region(terms, 1.0, closed, corn, cells, faced_count, animals, wolves_left)
        vector = _vector(terms, cards_left, animals_left_share, frontier, _NO_HAND)
        points = animal_points + terms[_SCORE]
        value = points + sum(w * f for w, f in zip(model, vector, strict=True))
        ranked.append((value, pos, rot, points))
    ranked.sort(key=lambda item: -item[0])
    return ranked


def _best_completion(state: FarminiState, player: int, model: tuple[float, ...]) -> float | None:
    """The best value of finishing the turn of ``player``, who has taken ``state.pending``.

    A fence card: the best of its placements (each laid on a copy of the farm). An animal card:
    its remaining tokens put one by one on the best free cell. The next card is not revealed
    (the deck stays a set of unseen cards). None when the taken card cannot be played here.
    """
    farm = state.farms[player]
    cid = state.pending
    if cid is None:
        return None
    card = state.faces.cards.get(cid) or ALL_CARDS[cid]
    if isinstance(card, FenceCard):
        ranked = _rank_placements(state, player, cid, model)
        if not state.rules.gaps_enclose:
            return ranked[0][0] if ranked else None  # the quick values are the exact ones
        best: float | None = None
        for quick, pos, rot, points in ranked[:EXACT_PLACEMENTS]:
            # the features read the first gap reading, so the exact value differs from the quick
            # one only by the score sheet (the game's reading) against the quick score part
            trial = farm.copy()
            trial.put_card(cid, pos, rot)
            value = quick - points + float(sum(score_sheet(warm(trial, False), state.rules).values()))
            if best is None or value > best:
                best = value
        return best
    if isinstance(card, AnimalCard):
        return _animal_completion(state, player, card.kind, state.pending_left, model)
    return None


_CELL_REGIONS: BoundedCache[
    int, tuple[tuple[Region, ...], tuple[Region, ...], dict[Cell, Region], dict[Cell, Region]]
] = BoundedCache(_LAYOUTS_MAX)
"""Per pair of region tuples (shared by every farm of one layout, see :func:`warm`): each animal
cell's region under the first gap reading and its enclosed pen under the game's reading. Bounded."""


def _cell_regions(farm: Farm) -> tuple[dict[Cell, Region], dict[Cell, Region]]:
    """Each animal cell's region (first gap reading) and enclosed pen (game's reading, if any)."""
    regions = farm.regions()
    open_regions = farm.regions_without_gaps()
    hit = _CELL_REGIONS.get(id(open_regions))
    if hit is not None and hit[0] is regions and hit[1] is open_regions:
        return hit[2], hit[3]
    cells = set(farm.animal_cells())
    region_of = {cell: r for r in open_regions for cell in r.cells if cell in cells}
    pen_of = {cell: r for r in regions if r.closed for cell in r.cells if cell in cells}
    _CELL_REGIONS.put(id(open_regions), (regions, open_regions, region_of, pen_of))
    return region_of, pen_of


def _pen_points(farm: Farm, pen: Region, animals: dict[Cell, str], state: FarminiState) -> int:
    """One enclosed pen's share of ``scoring.score_sheet`` with these animals (gaps left out).

    Corn when no animal is in the pen, the second variant's single-kind bonus, and -1 for a pen
    with an empty animal cell (not under the per-cell penalty, which counts every free cell).
    A test checks that the change of this share is the change of the score sheet.
    """
    rules = state.rules
    kinds: set[str] = set()
    corn = empty = held = 0
    cards = farm.cards
    for x, y, q in pen.cells:
        here = cards.get((x, y))
        if here is None:
            continue
        content = here.quarters[q]
        if content == CORN:
            corn += 1
        elif content == ANIMAL_CELL:
            kind = animals.get((x, y, q))
            if kind is None:
                empty += 1
            else:
                kinds.add(kind)
                held += 1
    points = 0
    if not kinds:
        points += corn
    elif rules.second_variant and len(kinds) == 1:
        points += held
    if empty and not rules.penalty_per_empty_cell:
        points -= 1
    return points


def _animal_completion(
    state: FarminiState,
    player: int,
    kind: str,
    tokens: int,
    model: tuple[float, ...],
    chosen: list[Cell] | None = None,
) -> float:
    """The value of putting ``tokens`` animals of ``kind`` one by one on the best free cell
    (the cells, in order, appended to ``chosen`` when given).

    Incremental: a token changes only the region of its cell (and the pen around it), so each
    candidate is valued by taking that region's share of the features and of the score off and
    adding it back with the token; cells of one region are alike, so one cell per region is
    tried. The same values as laying each token on a copy of the farm (a test checks it).
    """
    farm = warm(state.farms[player])
    cards = farm.cards
    animals = dict(farm.animals)
    wolves_left, animals_left_share, cards_left = _public(state)
    terms = [0.0] * _TERMS
    shapes: dict[int, tuple[Region, int, tuple[Cell, ...], int]] = {}
    for region in farm.regions_without_gaps():
        corn, cells, faced = _shape(region, cards)
        _add_region(terms, 1.0, region.closed, corn, cells, len(faced), animals, wolves_left)
        shapes[id(region)] = (region, corn, cells, len(faced))
    frontier = len(farm.slots())
    score = float(sum(score_sheet(farm, state.rules).values()))
    region_of, pen_of = _cell_regions(farm)
    per_cell = 1.0 if state.rules.penalty_per_empty_cell else 0.0

    def total(acc: list[float], points: float) -> float:
        vector = _vector(acc, cards_left, animals_left_share, frontier, _NO_HAND)
        return points + sum(w * f for w, f in zip(model, vector, strict=True))

    value = total(terms, score)
    for _ in range(tokens):
        step: tuple[float, Cell, list[float], float] | None = None
        tried: set[int] = set()
        for cell in farm.animal_cells():
            if cell in animals:
                continue
            region = region_of[cell]
            if id(region) in tried:
                continue
            tried.add(id(region))
            _, corn, cells, faced_count = shapes[id(region)]
            trial_terms = terms.copy()
            _add_region(trial_terms, -1.0, region.closed, corn, cells, faced_count, animals, wolves_left)
            animals[cell] = kind
            _add_region(trial_terms, 1.0, region.closed, corn, cells, faced_count, animals, wolves_left)
            points = score + 1.0 + per_cell
            pen = pen_of.get(cell)
            if pen is not None:
                points += _pen_points(farm, pen, animals, state)
                del animals[cell]
                points -= _pen_points(farm, pen, animals, state)
            else:
                del animals[cell]
            trial = total(trial_terms, points)
            if step is None or trial > step[0]:
                step = (trial, cell, trial_terms, points)
        if step is None:
            break
        value, cell, terms, score = step
        animals[cell] = kind
        if chosen is not None:
            chosen.append(cell)
    return value


def completion_moves(state: FarminiState, player: int) -> list[Place | PutAnimal]:
    """The moves of the turn that :func:`estimate` values while ``player`` holds a taken card: the
    fence card's placement, or the animal card's tokens cell by cell, chosen the way the lookahead
    chooses them (its best placement, its best free cell per token). Empty when ``player`` holds no
    card. A duel player uses it to finish a turn in a sampled world without trying every move.
    """
    cid = state.pending
    if cid is None or player != state.current:
        return []
    model = weights()[SOLO_MODEL if state.players == SOLO_PLAYERS else MULTI_MODEL]
    card = state.faces.cards.get(cid) or ALL_CARDS[cid]
    if isinstance(card, FenceCard):
        ranked = _rank_placements(state, player, cid, model)
        if not ranked:
            return []
        if not state.rules.gaps_enclose:
            _, pos, rot, _ = ranked[0]
            return [Place(cid, pos[0], pos[1], rot)]
        farm = state.farms[player]
        best: tuple[float, Pos, int] | None = None
        for quick, pos, rot, points in ranked[:EXACT_PLACEMENTS]:
            trial = farm.copy()
            trial.put_card(cid, pos, rot)
            value = quick - points + float(sum(score_sheet(warm(trial, False), state.rules).values()))
            if best is None or value > best[0]:
                best = (value, pos, rot)
        assert best is not None
        return [Place(cid, best[1][0], best[1][1], best[2])]
    if isinstance(card, AnimalCard):
        cells: list[Cell] = []
        _animal_completion(state, player, card.kind, state.pending_left, model, cells)
        return [PutAnimal(card.kind, *cell) for cell in cells]
    return []


def placement_order(state: FarminiState, player: int) -> list[Place]:
    """Every placement of the fence card ``player`` holds, best first by the lookahead's quick value
    (:func:`_rank_placements`, no card laid); empty when ``player`` holds no fence card. A duel
    player rates them exactly in this order while its budget lasts."""
    cid = state.pending
    if cid is None or player != state.current:
        return []
    card = state.faces.cards.get(cid) or ALL_CARDS[cid]
    if not isinstance(card, FenceCard):
        return []
    model = weights()[SOLO_MODEL if state.players == SOLO_PLAYERS else MULTI_MODEL]
    return [Place(cid, pos[0], pos[1], rot) for _, pos, rot, _ in _rank_placements(state, player, cid, model)]


def estimate(state: FarminiState, player: int) -> float:
    """``player``'s expected final score: the score now plus the fitted value of the features.

    While ``player`` holds a taken card, the estimate is that of the best way to play it
    (:func:`_best_completion`): a take is judged by the turn it completes.
    """
    if state.is_over():
        return _score_now(state, player)
    model = weights()[SOLO_MODEL if state.players == SOLO_PLAYERS else MULTI_MODEL]
    return _estimate(state, player, model)


def _estimate(state: FarminiState, player: int, model: tuple[float, ...]) -> float:
    """:func:`estimate` without the cache."""
    if LOOKAHEAD and state.pending is not None and player == state.current:
        completed = _best_completion(state, player, model)
        if completed is not None:
            return completed
    score = _score_now(state, player)
    return score + sum(w * f for w, f in zip(model, features(state, player), strict=True))


def evaluate(state: FarminiState) -> list[float]:
    """Each player's expected final score from here (exactly the result once the game is over)."""
    if state.is_over():
        result = state.result()
        if state.players == SOLO_PLAYERS:
            return [float(result.solo_score)]
        return [float(t) for t in result.totals]
    return [estimate(state, p) for p in range(state.players)]


def heuristic(state: FarminiState, player: int) -> float:
    """How good ``player``'s position looks (greedy agent, search cut-offs): higher is better.

    Solo: the expected final score. Several players: own expected final score minus the best
    opponent's.
    """
    values = evaluate(state)
    if state.players == SOLO_PLAYERS:
        return values[player]
    return values[player] - max(v for q, v in enumerate(values) if q != player)
