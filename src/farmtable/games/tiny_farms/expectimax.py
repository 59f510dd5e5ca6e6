"""A solo Tiny Farms player that handles the dice exactly: expectimax over the next round's roll.

In solo Tiny Farms Farmer Emma has no choices (the rules fix her die and farmer) and nothing is
hidden but the future rolls (``TinyFarmsState.determinize`` only draws a new random generator). So
a decision can be valued by expectimax:

1. **max** over the player's own choices up to the round end: the decision at hand (every legal
   action, or the ``keep`` best by the evaluation), then the rest of the turn completed by the
   evaluation's best choice (placements, Emma's reply by the rules, milk and crop);
2. a **chance node** over the next round's roll: the 216 ordered rolls of the three solo dice (Emma's
   target die first) grouped into 126 (target, other two) outcomes with their weights (1 or 2 / 216);
   after each, Emma moves first in even rounds (by the rules);
3. **max** over the next round's die, farmer and milk (none or one token), each valued by the
   evaluation (:func:`evaluation.solo_estimate`: the placement, Emma's reply and the crop played
   out, the round after that in expectation).

A crop in the last round ends the game: its value is the final margin, exact. The chance values
are remembered by the position before the roll (public facts only), so the decisions of one round
mostly reuse them; inside a chance node the next round's outcomes are remembered by what decides
their value (Emma's reply and the leftover die, not the whole roll).

:class:`ExpectimaxAgent` is the agent (spec ``tiny-farms-expectimax:keep=6,time=1.0``); anywhere
but solo Tiny Farms it plays like ``greedy``.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside
from farmtable.agents.greedy import greedy_choice
from farmtable.core import Rng, State
from farmtable.core.memo import BoundedCache
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import evaluation, lookahead
from farmtable.games.tiny_farms.rules import (
    ACTION_CODES,
    CROP,
    DIE_ACTIONS,
    K_CROSS,
    K_MILK,
    K_PLANT,
    MILK_DOWN,
    MILK_UP,
    OVER,
    TinyFarmsState,
    destination,
)

KEEP: Final = 6
"""The decision's actions (the best by the evaluation) valued through the chance node."""
BUDGET_SHARE: Final = 0.85
"""Share of a ``time`` budget after which no new chance node is started (the rest covers the one
in progress, checked between rolls, and playing the move)."""
WIDTH: Final = 3
"""The next round's moves (the best by their quick option value) evaluated in full in a chance node."""
CHANCE_CACHE_LIMIT: Final = 20_000
"""Positions before a roll whose chance value is remembered (the oldest are forgotten first)."""

_chance_cache: BoundedCache[tuple[object, ...], float] = BoundedCache(CHANCE_CACHE_LIMIT)

OBJECTIVES: Final = ("margin", "win")
"""What a position is worth to the player: ``margin`` = the expected final margin over Emma;
``win`` = the chance of beating her (:func:`utility`)."""
WINPROB_FILE: Final = Path(__file__).with_name("winprob.json")
"""The win-probability model's bias and spread by whole rounds left (``benchmarks/fit/tiny_farms_winprob.py``)."""
MIN_SD: Final = 0.5
"""The smallest spread the win model uses (a last-round leaf is almost exact: a near step, still smooth)."""
WIN_TIE_BREAK: Final = 0.001
"""Per point of margin added to a win probability, so positions equally sure to win (or lose) are
told apart by their margin."""


@cache
def win_model() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(bias, sd) of the final margin around the estimate, by whole rounds left after a leaf (index 0: none)."""
    data = json.loads(WINPROB_FILE.read_text(encoding="utf-8"))
    bias = tuple(float(x) for x in data["bias"])
    sd = tuple(max(MIN_SD, float(x)) for x in data["sd"])
    if not bias or len(bias) != len(sd):
        raise ValueError(f"{WINPROB_FILE.name}: 'bias' and 'sd' must be lists of the same, non-zero length")
    return bias, sd


def utility(margin: float, rounds_left: int | None, objective: str) -> float:
    """What an estimated final ``margin`` is worth under ``objective`` with ``rounds_left`` whole
    rounds still to play after the position (None: the margin is the final one, exact): the margin
    itself, or (``win``) the chance that the final margin is above 0 (a tie counts half; exact: 1,
    1/2 or 0) under a normal error with the fitted bias and spread (:func:`win_model`), plus
    :data:`WIN_TIE_BREAK` per point of margin."""
    if objective == "margin":
        return margin
    if objective != "win":
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if rounds_left is None:
        return (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0) + WIN_TIE_BREAK * margin
    bias, sd = win_model()
    r = min(max(rounds_left, 0), len(sd) - 1)
    z = (margin + bias[r] + 0.5) / (sd[r] * math.sqrt(2.0))
    return 0.5 * (1.0 + math.erf(z)) + WIN_TIE_BREAK * margin


def roll_outcomes() -> list[tuple[tuple[int, int, int], float]]:
    """The distinct solo rolls and their chances: ((Emma's target, low other die, high other die), weight).

    The three dice are rolled as Emma's target die and two others (``TinyFarmsState._start_round``);
    the two others are unordered, so the 216 equally likely ordered rolls fall into 126 outcomes
    (weight 2/216 when the two others differ, 1/216 when they are equal). The weights sum to 1.
    """
    outcomes = []
    faces = range(c.MIN_DIE_VALUE, c.DIE_FACES + 1)
    for target in faces:
        for low in faces:
            for high in faces:
                if high < low:
                    continue
                weight = (1 if low == high else 2) / lookahead.ROLLS
                outcomes.append(((target, low, high), weight))
    return outcomes


ROLL_OUTCOMES: Final = tuple(roll_outcomes())


class _ScriptedRng(Rng):
    """A generator whose ``randint`` draws are given in advance (to roll chosen dice through the rules)."""

    __slots__ = ("_draws",)

    def __init__(self, draws: tuple[int, ...]) -> None:
        super().__init__(0)
        self._draws = list(draws)

    def randint(self, low: int, high: int) -> int:
        """The next scripted draw (it must lie in ``low .. high``)."""
        value = self._draws.pop(0)
        if not low <= value <= high:
            raise ValueError(f"scripted draw {value} is outside {low}..{high}")
        return value


def play_with_roll(state: TinyFarmsState, action: str, roll: tuple[int, int, int]) -> TinyFarmsState:
    """A copy of ``state`` after the player's round-ending ``action``, the next round rolled as ``roll``.

    ``roll`` = (Emma's target, other die, other die), drawn in that order as the rules draw them.
    The copy's generator afterwards is a fresh one (seeded 0): nothing is rolled from it here.
    """
    child = state.clone()
    child.rng = _ScriptedRng(roll)
    child._do(0, action)  # the caller passes an action legal in ``state``
    child.rng = Rng(0)
    return child


def ends_round(state: TinyFarmsState, action: str) -> bool:
    """True if ``action`` (legal for the solo player) ends the round: a crop (or cross, or pass) at ``CROP``."""
    return state.phase == CROP and ACTION_CODES[action][0] != K_MILK


def pre_roll_estimate(state: TinyFarmsState, action: str) -> float:
    """The evaluation's estimate after ``action`` at a solo ``CROP``, before the next round is rolled.

    A milk change: the estimate of the crop position it leaves. A crop in the last round: the final
    margin. Otherwise the board after the crop with the next round's options in expectation (as
    :func:`evaluation.resolve` values a crop), so no sampled roll enters the ranking.
    """
    kind, cell, _ = ACTION_CODES[action]
    if kind == K_MILK or state.round >= state.rounds:
        child = state.clone()
        child._do(0, action)
        return evaluation.solo_estimate(child)
    board = list(state.boards[0])
    if kind == K_PLANT:
        board[cell] = c.CROP
    elif kind == K_CROSS:
        board[cell] = c.CROSSED
    solo = evaluation._Solo(board, state.milk[0], list(state.emma_filled), (state.rounds - state.round) / state.rounds)
    solo.wheel = (state.rotation, state.red, state.blue, (state.round + 1) % 2 == 0)
    return evaluation._estimate(solo, evaluation.least_horses(state), evaluation._solo_model())


def child_estimate(state: TinyFarmsState, action: str) -> float:
    """The evaluation of the position after the solo player's ``action`` (no sampled roll at a crop)."""
    if state.phase == CROP:
        return pre_roll_estimate(state, action)
    child = state.clone()
    child._do(0, action)
    return evaluation.solo_estimate(child)


def _pre_roll_key(state: TinyFarmsState, action: str) -> tuple[object, ...]:
    """What the chance value after the round-ending ``action`` depends on (public facts only)."""
    kind, cell, _ = ACTION_CODES[action]
    board = list(state.boards[0])
    if kind == K_PLANT:
        board[cell] = c.CROP
    elif kind == K_CROSS:
        board[cell] = c.CROSSED
    return (
        state.round,
        state.rounds,
        tuple(board),
        state.milk[0],
        tuple(state.emma_filled),
        state.rotation,
        state.red,
        state.blue,
        state.variants,
    )


class OutOfTime(Exception):
    """Raised inside a chance node when the decision's deadline (CPU clock) has passed."""


def _milk_changes(state: TinyFarmsState, milk_steps: int) -> list[int]:
    """The die changes the player may buy now with at most ``milk_steps`` tokens (0 first)."""
    changes = [0]
    for step in range(1, min(milk_steps, state.milk[0]) + 1):
        changes.append(step)
        if max(state.dice) - step >= c.MIN_DIE_VALUE:
            changes.append(-step)
    return changes


def start_value(
    state: TinyFarmsState,
    milk_steps: int = 1,
    memo: dict[tuple[object, ...], float] | None = None,
    width: int | None = None,
) -> float:
    """The best value of a round start with its dice rolled (the solo player to choose a die):
    the maximum over die, farmer and milk change (at most ``milk_steps`` tokens) of the evaluation
    after the move (placement, Emma's reply and crop played out by :func:`evaluation.resolve`).

    ``width``: only the ``width`` moves with the best quick option value (the lookahead's reading
    of the farm and of Emma's reply, :func:`evaluation._option_values`) are evaluated in full
    (None: every move). ``memo`` (one per chance node: the same board, wheel turn and round)
    remembers a move's value by what decides it: the farmer and the space it lands on, milk left,
    Emma's reply and the leftover die (advanced Emma, who compares scores, by the whole roll).
    """
    emma_after = c.EMMA in state.order[state.turn_index + 1 :]
    rotation = state.rotation
    board = state.boards[0]
    option_values = None
    if width is not None:
        option_values = evaluation._option_values(
            tuple(board[: c.FARM_CELLS]),
            tuple(board[c.FARM_CELLS :]),
            tuple(state.emma_filled),
            rotation,
            evaluation.least_horses(state),
            (state.rounds - state.round) / state.rounds,
            state.milk[0] > 0,
        )
    moves: list[tuple[float, int, int, int, tuple[object, ...]]] = []
    for change in _milk_changes(state, milk_steps):
        spent = abs(change)
        milk_left = state.milk[0] - spent
        for value in sorted(set(state.dice)):
            steps = value + change
            if steps < c.MIN_DIE_VALUE:
                continue
            rest = list(state.dice)
            rest.remove(value)
            for farm in (c.RED, c.BLUE):
                if farm == c.RED:
                    red = destination(state.red, steps, state.blue)
                    blue, space = state.blue, red
                else:
                    blue = destination(state.blue, steps, state.red)
                    red, space = state.red, blue
                emma_space = lookahead.NO_EMMA
                if emma_after and rest:
                    die, e_farm, emma_space = lookahead.emma_pick(rotation, red, blue, tuple(rest), state.emma_target)
                    left_dice = list(rest)
                    left_dice.remove(die)
                    reply: object = (e_farm, emma_space)
                    leftover: object = tuple(left_dice)
                else:
                    reply, leftover = None, tuple(rest)
                if state.advanced:
                    reply, leftover = (tuple(state.dice), state.emma_target, value), ()
                key: tuple[object, ...] = (
                    state.red,
                    state.blue,
                    tuple(state.emma_filled),
                    farm,
                    space,
                    milk_left,
                    reply,
                    leftover,
                )
                quick = 0.0
                if option_values is not None:
                    index = lookahead.option_index(farm, space, emma_space, min(spent, 1))
                    quick = float(option_values[index]) - evaluation.MILK_COST * max(0, spent - 1)
                moves.append((quick, change, value, farm, key))
    if width is not None:
        moves.sort(key=lambda move: -move[0])
        moves = moves[:width]
    best = -float("inf")
    for _, change, value, farm, key in moves:
        cached = None if memo is None else memo.get(key)
        if cached is None:
            child = state.clone()
            for _ in range(abs(change)):
                child._do(0, MILK_UP if change > 0 else MILK_DOWN)
            child._do(0, DIE_ACTIONS[value][farm])
            cached = evaluation.solo_estimate(child)
            if memo is not None:
                memo[key] = cached
        best = max(best, cached)
    return best


def chance_value(
    state: TinyFarmsState,
    action: str,
    milk_steps: int = 1,
    deadline: float | None = None,
    width: int | None = WIDTH,
    objective: str = "margin",
) -> float:
    """The expected value after the round-ending ``action`` at a solo ``CROP``: over the 126 roll
    outcomes of the next round (:data:`ROLL_OUTCOMES`), the best next move's value
    (:func:`start_value`); in the last round the final margin. Values are read by
    :func:`utility` (``objective``). Remembered by the position before the
    roll. With ``deadline`` (a ``time.process_time()`` reading), raises :class:`OutOfTime` once it
    has passed (checked between rolls; nothing unfinished is remembered).
    """
    if state.round >= state.rounds:
        return utility(pre_roll_estimate(state, action), None, objective)
    rounds_left = state.rounds - state.round - 1  # whole rounds after the next one
    key = (milk_steps, width, objective, *_pre_roll_key(state, action))
    cached = _chance_cache.get(key)
    if cached is not None:
        return cached
    memo: dict[tuple[object, ...], float] = {}
    total = 0.0
    for roll, weight in ROLL_OUTCOMES:
        if deadline is not None and time.process_time() > deadline:
            raise OutOfTime
        rolled = play_with_roll(state, action, roll)
        total += weight * utility(start_value(rolled, milk_steps, memo, width), rounds_left, objective)
    return _chance_cache.put(key, total)


def greedy_line_end(state: TinyFarmsState) -> tuple[TinyFarmsState, str] | None:
    """Play the solo player's turn on from ``state`` by the evaluation's best choices (first best on
    ties) up to the round-ending crop; returns (the crop position, the crop action), or None if the
    game is over. ``state`` is changed (pass a copy)."""
    start_round = state.round
    while state.phase != OVER:
        legal = state.legal_actions(0)
        scored = [(child_estimate(state, a), i) for i, a in enumerate(legal)]
        best = legal[max(scored, key=lambda item: (item[0], -item[1]))[1]]
        if ends_round(state, best):
            return state, best
        state._do(0, best)
        if state.round != start_round:  # cannot happen: only a crop ends a solo round
            break
    return None


@dataclass
class Choice:
    """A chosen action, its expectimax value, and how many actions were valued through the chance node."""

    action: str
    value: float
    valued: int


def choose(
    state: TinyFarmsState,
    keep: int = KEEP,
    milk_steps: int = 1,
    budget: float | None = None,
    start: float | None = None,
    width: int | None = WIDTH,
    objective: str = "margin",
) -> Choice:
    """The expectimax choice of the solo player in ``state`` (a solo position where player 0 decides;
    it must already be a determinization: only its dice to come are unknown, and they are averaged).

    The legal actions are ranked by the evaluation (:func:`child_estimate`); the ``keep`` best are
    each played to the round's end by the evaluation's choices (:func:`greedy_line_end`) and valued
    by :func:`chance_value` (``width``: the next round's moves evaluated in full per roll); the best
    value wins (the evaluation's ranking breaks ties); values are read by :func:`utility`
    (``objective``: the expected margin, or the chance to win). With
    ``budget`` CPU seconds (counted from ``start``, default now), no new action is valued once
    :data:`BUDGET_SHARE` of it has passed and a chance node in progress is abandoned at the
    deadline: the best action valued so far is played, or the evaluation's best if none was.
    """
    if not state.solo or state.phase == OVER or state.current != 0:
        raise ValueError("choose needs a solo Tiny Farms position where the player decides")
    if keep < 1:
        raise ValueError(f"keep must be at least 1, got {keep}")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    start = time.process_time() if start is None else start
    deadline = None if budget is None else start + BUDGET_SHARE * budget
    legal = state.legal_actions(0)
    ranked = sorted(((child_estimate(state, a), i) for i, a in enumerate(legal)), key=lambda item: (-item[0], item[1]))
    first_value, first = ranked[0]
    if len(legal) == 1:
        return Choice(legal[0], first_value, 0)
    best = Choice(legal[first], -float("inf"), 0)
    valued = 0
    for _, index in ranked[:keep]:
        if deadline is not None and time.process_time() > deadline:
            break
        action = legal[index]
        child = state
        if ends_round(state, action):
            end: tuple[TinyFarmsState, str] | None = (state, action)
        else:
            child = state.clone()
            child._do(0, action)
            end = greedy_line_end(child)
        try:
            if end is None:
                value = utility(evaluation.solo_estimate(child), None, objective)
            else:
                value = chance_value(*end, milk_steps, deadline, width, objective)
        except OutOfTime:
            break
        valued += 1
        if value > best.value:
            best = Choice(action, value, valued)
    if valued == 0:
        return Choice(legal[first], first_value, 0)
    best.valued = valued
    return best


class ExpectimaxAgent(Agent):
    """The expectimax player as an agent (solo Tiny Farms; spec ``tiny-farms-expectimax:keep=6,time=1.0``).

    Every decision is :func:`choose` on a determinization (``state.determinize(player, rng)``).
    ``keep``: actions valued through the chance node (the rest are ranked by the evaluation only);
    ``width``: the next round's moves evaluated in full per roll (0: all of them);
    ``milk``: milk tokens the next round's moves may spend in the chance node (0-2); ``objective``:
    ``margin`` (the expected final margin) or ``win`` (the chance to beat Emma); ``time``: CPU
    seconds a decision may take (counted from the call; without it a seeded game replays exactly).
    Any other game or player count is played like the greedy agent.
    """

    name = "tiny-farms-expectimax"

    def __init__(
        self,
        seed: int | None = None,
        keep: int = KEEP,
        width: int = WIDTH,
        milk: int = 1,
        time: float | None = None,
        objective: str = "margin",
    ) -> None:
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
            raise ValueError(f"keep must be a whole number of at least 1, got {keep!r}")
        if isinstance(width, bool) or not isinstance(width, int) or width < 0:
            raise ValueError(f"width must be a whole number (0: every move), got {width!r}")
        if isinstance(milk, bool) or not isinstance(milk, int) or not 0 <= milk <= 2:
            raise ValueError(f"milk must be a whole number of tokens 0-2, got {milk!r}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
            raise ValueError(f"time must be a positive number of CPU seconds, got {time!r}")
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        params: dict[str, Any] = {"keep": keep, "width": width, "milk": milk}
        if objective != "margin":
            params["objective"] = objective
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.keep = keep
        self.milk_steps = milk
        self.width = width or None
        self.budget = None if time is None else float(time)
        self.objective = objective
        self.rng = random.Random(seed)

    def act(self, state: State[Any], player: int) -> Any:
        """The expectimax choice (solo Tiny Farms) or greedy's (anything else)."""
        start = time.process_time()
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        if not isinstance(world, TinyFarmsState) or not world.solo:
            return legal[greedy_choice(world, player, self.rng)]
        with old_objects_set_aside():  # no full garbage collection of the caches inside the clock
            choice = choose(world, self.keep, self.milk_steps, self.budget, start, self.width, self.objective)
        return choice.action
