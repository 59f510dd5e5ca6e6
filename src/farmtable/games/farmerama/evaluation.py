"""How good a position is: the evaluation that the greedy agent and the search use.

``evaluate(state)`` estimates every player's final stars from the position, on the scale of the
final result (``Result.totals``; solo: ``Result.solo_score``), so a search can judge a cut-off
position and a finished game alike. ``heuristic(state, player)`` is derived from it (solo: the
estimate itself; several players: own estimate minus the best opponent's).

The estimate is ``stars now + w . features``: a linear model over cheap features of each board
that say what the rest of the game can still bring -- the product pipeline (animals on the
wheel, the stars their product adds over their stable value and how many wheel turns they still
need), the feed economy (feed in the barn, how much of each stabled animal's feed is ready, empty
beds to sow, stacks ready to harvest), water (it turns the wheel) and the actions left this turn,
several of them also scaled by the share of the game still to play. Every number comes from
``components.py`` and the scoring function (nothing is copied), and the weights are data:
``weights.json`` beside this module, fitted by ``benchmarks/fit/farmerama.py`` (numpy least
squares on self-play positions; see ``docs/games/farmerama-ai.md``).

Only what every player can see is used: the face-down buildings and the solo stacks count only
by their size, never by their order or content.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

from farmtable.core import clock
from farmtable.core.memo import BoundedCache
from farmtable.games.farmerama import planner
from farmtable.games.farmerama.components import (
    ANIMALS,
    BED_COUNT,
    BEDS_OF_AREA,
    FEED_COST,
    FEEDS,
    HARVEST,
    HEAD_SECTOR,
    PACIFIER_SECTOR,
    PASTURE_CAPACITY,
    PRODUCT_TRACK_MAX,
    SECTOR_IS_HARVEST,
    SEED_STORE,
    SOLO_TURNS,
    SOW,
    STABLE_VALUE,
    WATER,
    WATER_CARD,
)
from farmtable.games.farmerama.rules import (
    ACT,
    AWARD,
    CHOOSE,
    EMPTY_BED,
    IN_STABLE,
    NO_CARD,
    Board,
    FarmeramaState,
    area_of_sector,
    sector_of_area,
)
from farmtable.games.farmerama.scoring import score_sheet

FEATURES: Final = (
    "bias",
    "game_left",
    "pasture_gain",
    "pasture_gain_x_progress",
    "pasture_turns_needed",
    "feed_ready_value",
    "feed_coverage_value",
    "feed_coverage_value_x_left",
    "feed_in_barn",
    "feed_in_barn_x_left",
    "water_useful",
    "water_useful_x_left",
    "water_spare",
    "water_short",
    "empty_beds_x_left",
    "harvestable",
    "can_turn_wheel",
    "sow_left",
    "harvest_left",
    "water_left",
    "tokens",
)
"""The feature names, in the order of the weight vectors in ``weights.json``."""

SOLO_MODEL: Final = "solo"
MULTI_MODEL: Final = "multi"
WEIGHTS_FILE: Final = "weights.json"

_MAX_FEED_COST: Final = max(sum(cost) for cost in FEED_COST)
_FEED_GOODS: Final = tuple(FEEDS)


@cache
def weights() -> dict[str, tuple[float, ...]]:
    """The fitted weight vectors per model (``solo``, ``multi``), read once from ``weights.json``.

    Raises ``ValueError`` naming the problem when the file does not match :data:`FEATURES`.
    """
    text = resources.files("farmtable.games.farmerama").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return parse_weights(text)


def parse_weights(text: str) -> dict[str, tuple[float, ...]]:
    """Read a ``weights.json`` text: its feature list must be :data:`FEATURES` (ValueError otherwise)."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise ValueError(
            "farmerama weights.json lists other features than evaluation.FEATURES: "
            "refit with benchmarks/fit/farmerama.py"
        )
    models: dict[str, tuple[float, ...]] = {}
    for name in (SOLO_MODEL, MULTI_MODEL):
        vector = data.get(name)
        if not isinstance(vector, list) or len(vector) != len(FEATURES):
            raise ValueError(f"farmerama weights.json: '{name}' must be a list of {len(FEATURES)} numbers")
        models[name] = tuple(float(v) for v in vector)
    return models


def game_left(state: FarmeramaState) -> float:
    """Share of the game still to play, 1 at the start and 0 at the end (public facts only).

    Solo: turns left of the solo game's fixed number. Several players: the game ends when the
    ornamental buildings run out, so the buildings still face up or face down in the stack
    (their count only) over the buildings in play at the start.
    """
    if state.is_over():
        return 0.0
    if state.solo:
        return max(0, SOLO_TURNS - state.turn + 1) / SOLO_TURNS
    in_play = len(state.stack) + len(state.display)
    at_start = in_play + sum(len(b.garden) for b in state.boards)
    return in_play / max(1, at_start)


def _stars_now(board: Board) -> float:
    return float(sum(score_sheet(board.score_input()).values()))


def features(state: FarmeramaState, player: int) -> list[float]:
    """The feature vector of ``player``'s board (same order as :data:`FEATURES`); cheap, no lookahead."""
    board = state.boards[player]
    left = game_left(state)
    barn = board.barn
    wheel = board.wheel

    pasture_gain = gain_progress = turns_needed = 0.0
    feed_ready = coverage_value = 0.0
    for animal in range(len(ANIMALS)):
        where = board.pasture[animal]
        product = board.product_values[animal] if board.products[animal] < PRODUCT_TRACK_MAX else 0
        head = HEAD_SECTOR[animal]
        if where != IN_STABLE:
            gain = product - STABLE_VALUE[animal]
            sector = sector_of_area(wheel, where)
            progress = (sector - head) / max(1, PACIFIER_SECTOR - head)
            pasture_gain += gain
            gain_progress += gain * progress
            turns_needed += PACIFIER_SECTOR - sector
            continue
        cost = FEED_COST[animal]
        need = sum(cost)
        have = sum(min(barn[g], n) for g, n in enumerate(cost))
        coverage_value += product * have / max(1, need)
        if have == need:
            room = board.pasture_load(area_of_sector(wheel, head)) < PASTURE_CAPACITY
            feed_ready += product if room else product / 2

    feed = float(sum(barn[g] for g in _FEED_GOODS))
    water = float(barn[WATER])
    empty_beds = sum(1 for crop in board.beds if crop == EMPTY_BED)
    harvestable = 0
    for area, beds in enumerate(BEDS_OF_AREA):
        if SECTOR_IS_HARVEST[sector_of_area(wheel, area)]:
            harvestable += sum(1 for bed in beds if board.beds[bed] != EMPTY_BED)
    can_turn = 1.0 if state._can_turn_wheel(board) else 0.0

    sow_left = harvest_left = water_left = 0.0
    if state.phase == ACT:
        if board.current in (SOW, SEED_STORE):
            sow_left = float(board.remaining)
        elif board.current == HARVEST:
            harvest_left = float(board.remaining)
        elif board.current == WATER_CARD:
            water_left = float(board.remaining)

    return [
        1.0,
        left,
        pasture_gain,
        gain_progress,
        turns_needed,
        feed_ready,
        coverage_value,
        coverage_value * left,
        feed,
        feed * left,
        min(water, turns_needed),
        min(water, turns_needed) * left,
        max(0.0, water - turns_needed),
        max(0.0, turns_needed - water),
        empty_beds * left / BED_COUNT,
        float(harvestable),
        can_turn,
        sow_left,
        harvest_left,
        water_left,
        float(state.tokens if state.solo else 0),
    ]


def _score_now(state: FarmeramaState, player: int) -> float:
    return _stars_now(state.boards[player])


HAND_PRODUCT_BASE: Final = 0.9
"""Hand estimate: share of a product counted as soon as the animal is on its pasture (the rest grows
as the wheel brings it to the pacifier)."""
HAND_FEED_READY: Final = 0.5
"""Hand estimate: stars for an animal in the stable whose feed is in the barn."""
HAND_WATER: Final = 0.1
"""Hand estimate: stars per water in the barn (water turns the wheel; it is also the tie-break)."""


def hand_estimate(state: FarmeramaState, player: int) -> float:
    """``player``'s final stars by the hand-set rule the play uses: stars now, plus the coming product
    of every animal on a pasture (more the nearer it is to the pacifier) less its stable value, a
    little for an animal whose feed is ready, and a little per water.

    Under the default product values (9/10/14/18) it plays better than the fitted model: greedy
    solo, 40 deals, +9.43 [+7.24, +11.61] stars (``docs/games/farmerama-ai.md``).
    """
    board = state.boards[player]
    total = _score_now(state, player)
    if state.is_over():
        return total
    for animal, where in enumerate(board.pasture):
        head = HEAD_SECTOR[animal]
        if where != IN_STABLE:
            progress = (sector_of_area(board.wheel, where) - head) / (PACIFIER_SECTOR - head)
            share = HAND_PRODUCT_BASE + (1 - HAND_PRODUCT_BASE) * progress
            product = board.product_values[animal] if board.products[animal] < PRODUCT_TRACK_MAX else 0
            total += product * share - STABLE_VALUE[animal]
        elif all(have >= need for have, need in zip(board.barn, FEED_COST[animal], strict=True)):
            total += HAND_FEED_READY
    return total + HAND_WATER * board.barn[WATER]


def solo_estimate(state: FarmeramaState) -> float:
    """The solo player's expected final stars as the AI judges them: in the middle of a turn, the
    best way to finish that turn (every order of its steps, :func:`planner.best_completion`), then
    :func:`planner.plan_value` of the position at the start of the next turn; at the start of a turn,
    that position's :func:`planner.plan_value`; a finished game by its result. When the decision's
    deadline (:mod:`farmtable.core.clock`) passes during the turn's completion, the position as it
    stands is valued instead (:func:`planner.plan_value`), so one evaluation cannot overrun a budget.
    """
    if state.is_over():
        return float(state.result().solo_score)
    if state.phase == ACT:
        try:
            return planner.best_completion(state)
        except clock.OutOfTime:
            return planner.plan_value(state)
    return planner.plan_value(state)


MULTI_AWARDS_PER_ROUND: Final = 1.0
"""Several players: ornamental buildings awarded per round, on average (the game ends when the
face-up buildings cannot be refilled), for the estimate of the rounds still to play."""
MULTI_ESTIMATE: str = "plan"
"""Several players: ``"plan"`` (:func:`multi_estimate`) or ``"hand"`` (:func:`hand_estimate`)."""


def actions_left(state: FarmeramaState, player: int) -> float:
    """Several players: about how many action cards ``player`` still carries out (public facts only):
    the rounds left, estimated from the buildings still face up or in the stack, times the cards a
    player chooses a round, plus the cards still to carry out this round."""
    in_play = len(state.stack) + len(state.display)
    rounds = max(0.0, in_play - 1) / MULTI_AWARDS_PER_ROUND
    return rounds * state.cards_to_choose(player) + _this_round(state, player)


def multi_estimate(state: FarmeramaState, player: int) -> float:
    """``player``'s expected final stars with several players: the solo planner's board value
    (:func:`planner.board_value`: products on their way, water, ready feed) with the actions left
    estimated by :func:`actions_left`. The action cards ``player`` has chosen and not yet finished
    this round are first carried out on a copy (:func:`carry_out_chosen`), so choosing a card is
    worth what the card will do (alone, while the others' cards are not revealed)."""
    if state.is_over():
        return _score_now(state, player)
    rounds = actions_left(state, player) - _this_round(state, player)
    board = state.boards[player]
    if _this_round(state, player) > 0 and (board.cards or board.pending or board.current != NO_CARD):
        key = _multi_key(state, player)
        cached = _carry_cache.get(key)
        if cached is None:
            cached = _carry_cache.put(key, planner.board_value(carry_out_chosen(state, player, rounds), rounds))
        return cached
    return planner.board_value(board, actions_left(state, player))


CARRY_CACHE_LIMIT: Final = 100_000
"""Positions remembered by :func:`multi_estimate` (bounded memory: the oldest are forgotten first)."""
_carry_cache: BoundedCache[tuple[object, ...], float] = BoundedCache(CARRY_CACHE_LIMIT)


def _this_round(state: FarmeramaState, player: int) -> float:
    board = state.boards[player]
    if state.phase in (CHOOSE, AWARD):
        return float(len(board.cards)) if state.phase == AWARD else float(state.cards_to_choose(player))
    if player not in state.act_order:
        return 0.0
    if board.pending or board.current != NO_CARD:
        return len(board.pending) + (1.0 if board.current != NO_CARD else 0.0)
    return float(len(board.cards))


def _multi_key(state: FarmeramaState, player: int) -> tuple[object, ...]:
    board = state.boards[player]
    return (
        player,
        state.phase,
        state.wheel_variant,
        state.action_wheel,
        tuple(state.card_count),
        tuple(state.supply),
        len(state.stack) + len(state.display),
        player in state.act_order,
        board.product_values,
        *planner.board_key(board),
        tuple(board.cards),
        tuple(board.pending),
        board.current,
        board.remaining,
        len(board.garden),
        tuple(board.garden),
    )


def carry_out_chosen(state: FarmeramaState, player: int, turns_after: float) -> Board:
    """``player``'s board after carrying out, on a copy, the action cards chosen and not yet finished
    this round, each step the one with the best :func:`planner.board_value` (``turns_after``
    actions left after them). While the others' cards are hidden (phase 1), each card counts as
    played alone. Only ``player``'s board and the supply change on the copy."""
    sim = state.clone()
    board = sim.boards[player]
    if sim.phase in (CHOOSE, AWARD):
        if sim.phase == CHOOSE:
            sim.card_count = [0] * len(sim.card_count)
            for card in board.cards:
                sim.card_count[card] = 1
        sim.phase = ACT
        others = [p for p in range(sim.players) if p != player]
        sim.act_order = [player, *others]
        sim.award_groups = []
        sim._begin_player(player)
    elif sim.act_order and sim.act_order[0] != player:
        sim.act_order = [player, *(p for p in sim.act_order if p != player)]
        if not board.pending and board.current == NO_CARD:
            sim._begin_player(player)
    sim._legal = {}
    for _ in range(64):  # a card has at most a handful of steps; the bound only guards the loop
        if player not in sim.act_order or sim.phase != ACT:
            break
        best_action, best_value = "done", float("-inf")
        for action in sim.legal_actions(player):
            child = sim.clone()
            child.apply(player, action)
            value = planner.board_value(child.boards[player], turns_after)
            if value > best_value + 1e-9 or (action != "done" and best_action == "done" and value >= best_value - 1e-9):
                best_action, best_value = action, value
        sim.apply(player, best_action)
    return sim.boards[player]


def estimate(state: FarmeramaState, player: int) -> float:
    """``player``'s expected final stars as the AI judges them: solo, :func:`solo_estimate`;
    with several players, :func:`multi_estimate` (or :func:`hand_estimate`, see :data:`MULTI_ESTIMATE`)."""
    if state.solo:
        return solo_estimate(state)
    if MULTI_ESTIMATE == "hand":
        return hand_estimate(state, player)
    return multi_estimate(state, player)


def fitted_estimate(state: FarmeramaState, player: int) -> float:
    """``player``'s expected final stars by the fitted model: the stars now plus ``w . features``.

    Kept for research and refitting (``benchmarks/fit/farmerama.py``); the play uses
    :func:`hand_estimate`, which measured better under the default product values.
    """
    stars = _score_now(state, player)
    if state.is_over():
        return stars
    model = weights()[SOLO_MODEL if state.solo else MULTI_MODEL]
    return stars + sum(w * f for w, f in zip(model, features(state, player), strict=True))


def evaluate(state: FarmeramaState) -> list[float]:
    """Each player's expected final stars from here (exactly the result once the game is over)."""
    if state.is_over():
        result = state.result()
        if state.solo:
            return [float(result.solo_score)]
        return [float(t) for t in result.totals]
    return [estimate(state, p) for p in range(state.players)]


def heuristic(state: FarmeramaState, player: int) -> float:
    """How good ``player``'s position looks (greedy agent, search cut-offs): higher is better.

    Solo: the expected final stars. Several players: own expected final stars minus the best
    opponent's.
    """
    values = evaluate(state)
    if state.solo:
        return values[player]
    return values[player] - max(v for q, v in enumerate(values) if q != player)
