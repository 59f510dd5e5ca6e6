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

from farmtable.games.farmini.components import (
    ALL_CARDS,
    ANIMAL_CELL,
    CORN,
    KINDS,
    AnimalCard,
    FenceCard,
    WolfCard,
)
from farmtable.games.farmini.farm import DELTA, Cell, Oriented, Region
from farmtable.games.farmini.rules import FarminiState
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


_SHAPES: dict[int, tuple[Region, int, tuple[Cell, ...], int]] = {}
"""Per region object (regions are immutable and shared by copies of a farm): its cornfields, its
animal cells and how many empty places it faces. Bounded: emptied when it grows too large."""
_SHAPES_MAX: Final = 50_000


def _shape(region: Region, cards: dict[tuple[int, int], Oriented]) -> tuple[int, tuple[Cell, ...], int]:
    """Cornfields, animal cells and faced empty places of ``region`` (cached per region object)."""
    hit = _SHAPES.get(id(region))
    if hit is not None and hit[0] is region:
        return hit[1], hit[2], hit[3]
    corn = 0
    cells: list[Cell] = []
    faced: set[tuple[int, int]] = set()
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
    if len(_SHAPES) >= _SHAPES_MAX:
        _SHAPES.clear()
    _SHAPES[id(region)] = (region, corn, tuple(cells), len(faced))
    return corn, tuple(cells), len(faced)


def features(state: FarminiState, player: int) -> list[float]:
    """The feature vector of ``player``'s farm (same order as :data:`FEATURES`); cheap, no lookahead."""
    farm = state.farms[player]
    animals = farm.animals
    cards = farm.cards
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
    animals_left_share = animals_left / state.players

    safe = exposed = 0
    wolf_risk = 0.0
    pen_free = open_corn = open_free = 0
    open_corn_near = open_free_near = open_animals_near = 0.0
    free_cells = 0
    # the regions as the first gap reading sees them: under the default reading a ring around a
    # missing card is already a pen (scored in "score now"), but one still a card short
    # (measured: greedy solo median 9 -> 20 on 12 deals against reading the gap-enclosed pens)
    for region in farm.regions_without_gaps():
        corn, cells, faced = _shape(region, cards)
        free = held = 0
        closed = region.closed
        for cell in cells:
            kind = animals.get(cell)
            if kind is None:
                free += 1
            else:
                held += 1
                if not closed:
                    wolf_risk += wolves_left[kind]
        free_cells += free
        if closed:
            safe += held
            pen_free += free
            continue
        exposed += held
        near = 1.0 / max(1, faced)  # fewer empty places around it: closer to a pen
        if not held:
            open_corn += corn
            open_corn_near += corn * near
        open_free += free
        open_free_near += free * near
        open_animals_near += held * near

    hand_animals = 0.0
    hand_cells = hand_corn = hand_arms = 0.0
    if state.pending is not None and player == state.current:
        card = state.faces.cards.get(state.pending) or ALL_CARDS[state.pending]
        if isinstance(card, AnimalCard):
            hand_animals = float(min(state.pending_left, free_cells))
        elif isinstance(card, FenceCard):
            hand_cells = float(card.quarters.count(ANIMAL_CELL))
            hand_corn = float(card.quarters.count(CORN))
            hand_arms = float(len(card.arms))

    return [
        1.0,
        cards_left,
        float(safe),
        float(exposed),
        wolf_risk,
        float(pen_free),
        pen_free * animals_left_share / _TOTAL_ANIMALS_ON_CARDS,
        float(open_corn),
        open_corn_near,
        float(open_free),
        open_free_near,
        open_animals_near,
        float(len(farm.slots())),
        float(free_cells),
        animals_left_share,
        hand_animals,
        hand_cells,
        hand_corn,
        hand_arms,
    ]


def _score_now(state: FarminiState, player: int) -> float:
    return float(sum(score_sheet(state.farms[player], state.rules).values()))


def estimate(state: FarminiState, player: int) -> float:
    """``player``'s expected final score: the score now plus the fitted value of the features."""
    score = _score_now(state, player)
    if state.is_over():
        return score
    model = weights()[SOLO_MODEL if state.players == SOLO_PLAYERS else MULTI_MODEL]
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
