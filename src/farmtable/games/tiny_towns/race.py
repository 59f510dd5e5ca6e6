"""Tiny Towns with 2 players: the completion race as a win probability, and a search judged by it.

Rulebook, "Completing your Town" and "End of the Game": a town with no empty square is complete and its
player is out (no more naming); "if only 1 player is left, that player can continue to name resources as
the sole Master Builder until their town is completed". So with two players the town complete last gets
every resource it asks for at the end of the game, and in the raw 2-player games of sessions 10-14 the
town complete last won about nine games in ten. The evaluation (``evaluation.evaluate``: each town's
estimated final score, fitted on solo games) does not know this: it rates a complete town by its score
and a town still building as if the game went on as in solo.

This module rates a 2-player position by **the probability that seat 0 wins**, a logistic model of
features of both towns (:data:`RACE_FEATURES`, :func:`race_row`): the difference of the evaluation's
estimates, of the empty squares, of the cubes on the boards and of the stranded cubes (each also times
the filled share of the two towns, so its weight can change from the first round to the last), whose
town is complete (a complete town counts only its score: once the other town is complete, the own empty
squares are the rounds its player names alone), and who is Master Builder. Two weight vectors: one while
both towns build, one once a town is complete (:data:`ALONE_FEATURES` only). The weights are data
(``race_weights.json`` beside this file) fitted by ``benchmarks/ai/tt_race_fit.py`` on 2-player self-play
(logistic regression, every row also mirrored so the model is the same from either seat).

:class:`RaceSearch` is the general search (:class:`farmtable.agents.mcts.MctsAgent`, same parameters)
with that probability as its reward: a leaf's reward for a player is its win probability, a finished game's
is its win share (a shared win counts half) plus a small share of the final margin. It is reached through
``tiny-towns-duel:race=1,iters=N,time=T`` (``duel.py``); with other player counts it plays the general
search unchanged.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from farmtable.agents.mcts import MctsAgent, RewardScale
from farmtable.core import Result, State
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.evaluation import FEATURES as TOWN_FEATURES
from farmtable.games.tiny_towns.evaluation import estimate, evaluate, town_features, town_grid
from farmtable.games.tiny_towns.rules import NAME_PHASE, PLACE_PHASE, TinyTownsState

RACE_FEATURES: Final[tuple[str, ...]] = (
    "estimate",
    "estimate*filled",
    "empty",
    "empty*filled",
    "cubes",
    "cubes*filled",
    "stranded",
    "stranded*filled",
    "tight",
    "complete",
    "master_builder",
)
"""Seat 0's features less seat 1's (so the model is antisymmetric: no bias). ``estimate``: the
evaluation's estimated final score (a complete town: its score); ``empty``, ``cubes``, ``stranded``: the
town's empty squares, cubes, and cubes no completable pattern can use; ``*filled``: times the filled
share of both towns together; ``tight``: ``max(0, 4 - empty)``; ``complete``: 1 for the *other* town
complete (so a positive weight says completing last helps); ``master_builder``: 1 for the seat naming
this round (name step) or next round (other steps). A complete town has only its score and ``complete``:
its empty squares, cubes, stranded cubes and ``tight`` count 0 (it no longer plays; once the other town
is complete, the own ``empty`` is the rounds its player names alone)."""

WEIGHTS_FILE: Final = "race_weights.json"
TIGHT_SQUARES: Final = 4
"""``tight`` counts the empty squares a town still building is short of this many."""
MARGIN_SHARE: Final = 0.1
"""Share of a finished game's reward given by its margin (``σ(margin / MARGIN_WIDTH)``); the rest is the win."""
MARGIN_WIDTH: Final = 5.0
"""Points of final margin that move the margin's part of a finished game's reward by one logistic unit."""

_EMPTY = TOWN_FEATURES.index("empty")
_CUBES = TOWN_FEATURES.index("cubes")
_STRANDED = TOWN_FEATURES.index("stranded")


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def pending_grid(state: TinyTownsState, player: int) -> list[str] | None:
    """``player``'s board with this round's named resource on its best empty square by the evaluation's
    estimate (``evaluation.estimate``), when the player still has to place it; else None.

    Only plain placements are looked at (a Warehouse, the Cavern or a Factory swap are left to the search);
    ties go to the lowest square. This is the look-ahead of ``ahead=1``: a name is judged by what each town
    can do with the resource, so a name the other town cannot use shows at once."""
    town = state.towns[player]
    named = state.named
    if state.phase != PLACE_PHASE or not named or town.complete or town.choice is not None:
        return None
    grid = town.grid[:]
    best: list[str] | None = None
    best_value = -math.inf
    for sq, v in enumerate(town.grid):
        if v:
            continue
        grid[sq] = named
        value = estimate(state, player, grid)
        if value > best_value:
            best_value = value
            best = grid[:]
        grid[sq] = ""
    return best


def race_row(state: TinyTownsState, ahead: bool = False) -> npt.NDArray[np.float64]:
    """Seat 0's race features less seat 1's (:data:`RACE_FEATURES`), for a 2-player game not over.

    Reads the boards (public), the Master Builder's seat (public) and the evaluation's estimates (which for
    the other seat read its monument and pending cube as they are in ``state``: agents pass determinizations).
    ``ahead``: a town that still has to place this round's resource is read with it on its best square
    (:func:`pending_grid`; its estimate moves by what that cube changes in ``evaluation.estimate``)."""
    if state.players != 2:
        raise ValueError(f"the race features are for 2 players, not {state.players}")
    estimates = evaluate(state)
    per: list[list[float]] = []
    empties = []
    for p, town in enumerate(state.towns):
        grid = pending_grid(state, p) if ahead else None
        if grid is not None:
            estimates[p] += estimate(state, p, grid) - estimate(state, p, town_grid(town))
        row = town_features(state, p, grid)
        empty = float(row[_EMPTY])
        empties.append(empty)
        if town.complete:  # only its score counts now
            per.append([estimates[p], 0.0, 0.0, 0.0, 0.0, 1.0])
            continue
        per.append(
            [
                estimates[p],
                empty,
                float(row[_CUBES]),
                float(row[_STRANDED]),
                float(max(0.0, TIGHT_SQUARES - empty)),
                0.0,
            ]
        )
    filled = 1.0 - sum(empties) / (2 * C.SQUARES)
    d_est = per[0][0] - per[1][0]
    d_empty = per[0][1] - per[1][1]
    d_cubes = per[0][2] - per[1][2]
    d_stranded = per[0][3] - per[1][3]
    d_tight = per[0][4] - per[1][4]
    comp0, comp1 = per[0][5], per[1][5]
    mb = _next_namer(state)
    return np.array(
        [
            d_est,
            d_est * filled,
            d_empty,
            d_empty * filled,
            d_cubes,
            d_cubes * filled,
            d_stranded,
            d_stranded * filled,
            d_tight,
            comp1 - comp0,
            0.0 if mb < 0 else (1.0 if mb == 0 else -1.0),
        ],
        dtype=np.float64,
    )


def _next_namer(state: TinyTownsState) -> int:
    """The seat that names this round (name step) or next round (-1: nobody, or both towns complete)."""
    if state.mb < 0:
        return -1
    if state.phase == NAME_PHASE:
        return state.mb
    still = state.incomplete()
    if not still:
        return -1
    if len(still) == 1:
        return still[0]
    return 1 - state.mb


ALONE_FEATURES: Final[tuple[str, ...]] = ("estimate", "empty", "complete")
"""The features the model reads once one town is complete (its own weights): the town still building's
estimate less the complete town's score, its empty squares (the rounds it names alone), and which is which."""


@cache
def race_weights() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The fitted weights (``race_weights.json``), in :data:`RACE_FEATURES` order: while both towns are
    building, and once one is complete (zero outside :data:`ALONE_FEATURES`)."""
    data = json.loads((Path(__file__).with_name(WEIGHTS_FILE)).read_text(encoding="utf-8"))
    names = tuple(data["features"])
    if names != RACE_FEATURES:
        raise ValueError(f"{WEIGHTS_FILE}: features {names} are not {RACE_FEATURES}")
    racing = np.array(data["weights"], dtype=np.float64)
    alone = np.array(data["alone_weights"], dtype=np.float64)
    if racing.shape != (len(RACE_FEATURES),) or alone.shape != (len(RACE_FEATURES),):
        raise ValueError(f"{WEIGHTS_FILE}: {len(RACE_FEATURES)} weights expected in each model")
    return racing, alone


def race_logit(state: TinyTownsState, weights: npt.NDArray[np.float64] | None = None, ahead: bool = False) -> float:
    """The log-odds that seat 0 wins ``state`` (2 players, not over) by the race model (``weights``: one
    vector for every position instead of the fitted pair; ``ahead``: see :func:`race_row`)."""
    row = race_row(state, ahead)
    if weights is None:
        racing, alone = race_weights()
        weights = alone if any(town.complete for town in state.towns) else racing
    return float(row @ weights)


def win_probability(state: TinyTownsState, player: int) -> float:
    """The race model's probability that ``player`` wins (a finished game: its win share)."""
    if state.is_over():
        winners = state.result().winners
        return 1.0 / len(winners) if player in winners else 0.0
    z = race_logit(state)
    return _sigmoid(z if player == 0 else -z)


class RaceScale(RewardScale):
    """Rewards of a 2-player Tiny Towns search: each player's win probability by the race model; a
    finished game's win share (``1 - MARGIN_SHARE`` of it) plus ``MARGIN_SHARE`` of ``σ(margin / MARGIN_WIDTH)``."""

    def __init__(self, ahead: bool = False) -> None:
        super().__init__(players=2, centre=0.0, width=1.0)
        self.ahead = ahead
        """Read a town that still has to place this round's resource with it on its best square."""

    def estimate(self, world: State[Any]) -> list[float]:
        """Half the race log-odds each way: ``of_values`` (margin / width 1) turns them into the probabilities."""
        if not isinstance(world, TinyTownsState):
            raise TypeError("the race scale judges Tiny Towns positions only")
        z = race_logit(world, ahead=self.ahead)
        return [z / 2.0, -z / 2.0]

    def of_result(self, result: Result) -> list[float]:
        """The win share, and a little of the final margin (so a bigger win is a little better)."""
        totals = result.totals
        winners = result.winners
        out = []
        for p in range(2):
            share = 1.0 / len(winners) if p in winners else 0.0
            margin = float(totals[p] - totals[1 - p])
            out.append((1.0 - MARGIN_SHARE) * share + MARGIN_SHARE * _sigmoid(margin / MARGIN_WIDTH))
        return out


class RaceSearch(MctsAgent):
    """The general search (``mcts``, same parameters) whose rewards in 2-player Tiny Towns are the race
    model's win probabilities (:class:`RaceScale`); any other game or player count: the general search."""

    name = "tiny-towns-race"

    def __init__(
        self, seed: int | None = None, iters: int | None = None, time: float | None = None, ahead: bool = False
    ) -> None:
        super().__init__(seed, iters=iters, time=time)
        self.ahead = ahead
        """Judge positions with the pending placements looked ahead (:func:`race_row`'s ``ahead``)."""

    def _scale(self, world: State[Any]) -> RewardScale:
        """:class:`RaceScale` for 2-player Tiny Towns, else the general search's own scale."""
        if isinstance(world, TinyTownsState) and world.players == 2 and not world.town_hall:
            return RaceScale(self.ahead)
        return super()._scale(world)


__all__ = [
    "ALONE_FEATURES",
    "RACE_FEATURES",
    "RaceScale",
    "RaceSearch",
    "pending_grid",
    "race_logit",
    "race_row",
    "race_weights",
    "win_probability",
]
