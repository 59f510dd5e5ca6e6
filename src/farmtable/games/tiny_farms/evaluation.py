"""How good a position is: the evaluation that the greedy agent and the search use.

``evaluate(state)`` estimates every player's final objective on the scale of the result
(``Result.totals``; solo: ``Result.objective``, the margin over Farmer Emma):

    estimate = the score as it stands (solo: the margin as it stands) + w · features(position)

The features say what the position is still worth for the rest of the game: room left in the
farms, pigs and sheep that can still grow into sets, cows and calves that can still meet,
the next Forest Friend kind, the horse race, balance, milk, the animals just collected and
not yet written; solo also Emma's tracks (a full track turns her animals into chickens). Most
are multiplied by the share of the game still to play, so they fade to nothing at the end,
where the estimate is exactly the result's objective.

The weights ``w`` are data (``weights.json`` beside this file), fitted by least squares of the
final objective on positions of self-play games by ``benchmarks/fit/tiny_farms.py``.
``heuristic(state, p)`` is the same estimate: solo the expected margin, with several players
p's expected total minus the best rival's.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Final

from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring
from farmtable.games.tiny_farms.rules import MOVE, OVER, PLACE, TinyFarmsState

WEIGHTS_FILE: Final = Path(__file__).with_name("weights.json")

SCALED_FEATURES: Final = (
    "left",
    "empty",
    "empty_min",
    "pig_open",
    "sheep_open",
    "cow_open",
    "calves_open",
    "cows",
    "calves",
    "ff_next",
    "horse_lead",
    "horse_tied",
    "imbalance",
    "milk",
)
"""Features multiplied by the share of the game still to play (``left`` is that share itself)."""
NOW_FEATURES: Final = (
    "to_move",
    "pending_pig",
    "pending_sheep",
    "pending_chicken",
    "pending_cow",
    "pending_calves",
    "pending_horse",
    "pending_forest",
)
"""Features of this round only: a move still to make, animals collected but not yet written."""
EMMA_FEATURES: Final = ("emma_full_tracks", "emma_to_move")
"""Solo only: what Farmer Emma may still add (her steady gain per round is in the weight of ``left``)."""
PLAYER_FEATURES: Final = SCALED_FEATURES + NOW_FEATURES
SOLO_FEATURES: Final = PLAYER_FEATURES + EMMA_FEATURES

PENDING_FEATURE: Final[dict[int, str]] = {
    c.PIG: "pending_pig",
    c.SHEEP: "pending_sheep",
    c.CHICKEN: "pending_chicken",
    c.COW: "pending_cow",
    c.CALVES: "pending_calves",
    c.HORSE: "pending_horse",
    **{friend: "pending_forest" for friend in c.FOREST_FRIENDS},
}
HORSE_LEAD_CAP: Final = 3
"""The horse lead (own horses minus the best rival's) counts up to this many either way."""


@cache
def weights() -> dict[str, dict[str, float]]:
    """The fitted weights: ``{"players": {feature: w}, "solo": {feature: w}}`` from ``weights.json``."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    models = {name: {k: float(v) for k, v in data[name]["weights"].items()} for name in ("players", "solo")}
    for name, expected in (("players", PLAYER_FEATURES), ("solo", SOLO_FEATURES)):
        if set(models[name]) != set(expected):
            raise ValueError(f"{WEIGHTS_FILE.name}: the '{name}' model must weigh exactly {', '.join(expected)}")
    return models


def share_left(state: TinyFarmsState) -> float:
    """The share of the game's rounds still to play, this round included (0 once over)."""
    if state.phase == OVER:
        return 0.0
    return (state.rounds - state.round + 1) / state.rounds


def _moves_left(state: TinyFarmsState, who: int) -> int:
    """1 if ``who`` (a player, or ``c.EMMA``) still has a die to take this round, else 0."""
    if state.phase == OVER:
        return 0
    if state.phase == MOVE and state.current == who and who != c.EMMA:
        return 1
    return int(who in state.order[state.turn_index + 1 :])


def board_features(state: TinyFarmsState, player: int, rival_horses: int) -> dict[str, float]:
    """The features of one player's position (see :data:`PLAYER_FEATURES`), before weighting."""
    board = state.boards[player]
    left = share_left(state)
    empties = [0, 0]
    used = [0, 0]
    pig_open = sheep_open = cow_open = calves_open = cows = calves = 0
    horses = 0
    kinds = 0
    for farm in (c.RED, c.BLUE):
        base = farm * c.FARM_CELLS
        cells = board[base : base + c.FARM_CELLS]
        pigs = sheep = 0
        open_pigs = open_sheep = 0
        for local, value in enumerate(cells):
            if value == c.EMPTY:
                empties[farm] += 1
                continue
            if value != c.CROSSED:
                used[farm] += 1
            if value == c.HORSE:
                horses += 1
            if value not in (c.PIG, c.SHEEP, c.COW, c.CALVES):
                continue
            has_room = any(cells[n] == c.EMPTY for n in scoring.NEIGHBOURS[local])
            if value == c.PIG:
                pigs += 1
                open_pigs += has_room
            elif value == c.SHEEP:
                sheep += 1
                open_sheep += has_room
            elif value == c.COW:
                cows += 1
                cow_open += has_room
            else:
                calves += c.CALVES_PER_SPACE
                calves_open += has_room
        pig_mask = sum(1 << i for i, v in enumerate(cells) if v == c.PIG)
        sheep_mask = sum(1 << i for i, v in enumerate(cells) if v == c.SHEEP)
        paired_pigs = (scoring.pig_points(pig_mask) - pigs) // (c.PIG_PAIR_POINTS - 2 * c.PIG_SINGLE_POINTS) * 2
        loose_sheep = sheep - scoring.sheep_points(sheep_mask) // c.SHEEP_TRIPLE_POINTS * c.SHEEP_SET_SIZE
        pig_open += min(pigs - paired_pigs, open_pigs)
        sheep_open += min(max(loose_sheep, 0), open_sheep)
    for friend in c.FOREST_FRIENDS:
        kinds += friend in board
    points = c.FOREST_SET_POINTS
    ff_next = points[min(kinds + 1, len(points) - 1)] - points[kinds]
    lead = max(-HORSE_LEAD_CAP, min(HORSE_LEAD_CAP, horses - rival_horses))
    features = {
        "left": 1.0,
        "empty": float(empties[0] + empties[1]),
        "empty_min": float(min(empties)),
        "pig_open": float(pig_open),
        "sheep_open": float(sheep_open),
        "cow_open": float(cow_open),
        "calves_open": float(calves_open),
        "cows": float(cows),
        "calves": float(calves),
        "ff_next": float(ff_next),
        "horse_lead": float(lead),
        "horse_tied": float(horses == rival_horses),
        "imbalance": float(abs(used[0] - used[1])),
        "milk": float(state.milk[player]),
    }
    for name in SCALED_FEATURES:
        features[name] *= left
    for name in NOW_FEATURES:
        features[name] = 0.0
    features["to_move"] = float(_moves_left(state, player))
    if state.phase == PLACE and state.current == player:
        for animal in state.pending:
            features[PENDING_FEATURE[animal]] += 1.0
    return features


def emma_features(state: TinyFarmsState) -> dict[str, float]:
    """Solo: Emma's features (see :data:`EMMA_FEATURES`), before weighting."""
    left = share_left(state)
    full = sum(state.emma_filled[t] >= c.EMMA_TRACKS[t][2] for t in range(c.EMMA_DIE_TRACKS))
    return {
        "emma_full_tracks": float(full) * left,
        "emma_to_move": float(_moves_left(state, c.EMMA)),
    }


def features(state: TinyFarmsState) -> list[dict[str, float]]:
    """Every player's feature vector (solo: one vector with Emma's features added)."""
    if state.solo:
        emma_horses = state.emma_filled[c.EMMA_HORSES]
        return [{**board_features(state, 0, emma_horses), **emma_features(state)}]
    counts = [scoring.horse_count(b) for b in state.boards]
    return [board_features(state, p, max(h for q, h in enumerate(counts) if q != p)) for p in range(state.players)]


def objective_now(state: TinyFarmsState) -> list[float]:
    """The objective as it stands: solo the margin over Emma, otherwise each player's total."""
    result = state.result()
    if state.solo:
        return [float(result.totals[0] - result.details["emma_total"])]  # = Result.objective, the margin
    return [float(t) for t in result.totals]


def evaluate(state: TinyFarmsState) -> list[float]:
    """Each player's expected final objective (solo: the margin over Emma); exact once the game is over."""
    now = objective_now(state)
    if state.phase == OVER:
        return now
    model = weights()["solo" if state.solo else "players"]
    return [
        value + sum(model[name] * x for name, x in feats.items())
        for value, feats in zip(now, features(state), strict=True)
    ]


def heuristic(state: TinyFarmsState, player: int) -> float:
    """Solo: the expected final margin over Emma; otherwise p's expected total minus the best rival's."""
    estimate = evaluate(state)
    if state.solo:
        return estimate[0]
    return estimate[player] - max(v for q, v in enumerate(estimate) if q != player)
