"""A Tiny Farms player for two or more players: the own turn maximised, the others' replies by the
evaluation, and the next roll averaged exactly.

Nothing in Tiny Farms is hidden but the future rolls (``TinyFarmsState.determinize`` only draws a
new random generator), and the dice of a round are rolled before anyone chooses. So a decision can
be valued without sampling:

1. **max** over the player's own turn: every way to finish it from here (milk spent, die, farmer;
   the animals then written where the evaluation rates them best) — one value per first action;
2. the **other players' turns** left in this round, each by its own best choice under the
   evaluation (their expected total minus their best rival's, as the greedy agent reads it, but
   over whole turns, milk included);
3. a **chance node** over the next round's roll: the rolls of the ``players + 1`` dice grouped into
   unordered outcomes with their exact weights (56 for three dice); after each, the next round's
   start player takes their best move (die, farmer, milk up to ``milk`` tokens) by the evaluation,
   and the position after it is the leaf (``state.evaluate()``).

A round that ends the game is valued by its final result, with a win worth :data:`WIN_BONUS`
points more than any margin. Values are the player's expected total minus the best rival's (the
search's objective, on the points scale); with ``objective=win`` the player's own leaves are
valued by its chance of winning instead (:func:`win_chance`: the horse race as a 10-point swing,
the rest of the margin normal around the evaluation's). Inside a chance node the start player's moves are
remembered by what decides their value (farm, the space the farmer lands on, milk spent): the 2-4
player evaluation does not read the wheel, so at most a few dozen evaluations serve all rolls.

Why (``benchmarks/ai/tiny-farms.md``, "Session 9"): the search ``mcts`` at Hard's budget does not
beat Normal in 2 players: it averages the worse tries inside the player's own multi-step turn and
samples one roll per round end; this player has no sampling at all (same position, same choice).

:class:`DuelAgent` is the agent (spec ``tiny-farms-duel:time=0.5``); solo it plays like ``greedy``
(the solo player is ``tiny-farms-expectimax``), as it does in any other game.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside
from farmtable.agents.greedy import greedy_choice
from farmtable.core import State
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import evaluation, scoring
from farmtable.games.tiny_farms.evaluation import share_left
from farmtable.games.tiny_farms.rules import (
    DIE_ACTIONS,
    MILK_DOWN,
    MILK_UP,
    MOVE,
    OVER,
    PLACE,
    PUT_ACTIONS,
    TinyFarmsState,
    destination,
)

MILK_STEPS: Final = 1
"""Milk tokens the modelled turns (the others' replies, the next round's start) may spend on a die."""
TURN_MILK: Final = 2
"""Milk tokens the player's own turn may spend on its die (each way)."""
WIN_BONUS: Final = 1000.0
"""Points a finished game adds to the sole winner's margin (and takes off a loser's)."""
DEPTHS: Final = (1, 2)
"""How much of the next round a chance node plays: 1 = the start player's move, 2 = every move of it."""
BUDGET_SHARE: Final = 0.85
"""Share of a ``time`` budget after which no new candidate is valued (the rest covers the one in
progress, checked between rolls, and playing the move)."""


REPLIES: Final = ("greedy", "search")
"""How the rival's reply in the current round is modelled: ``greedy`` = their best whole turn by the
evaluation (:func:`best_turn`); ``search`` = their own duel search (the choice Hard makes:
:meth:`Search.searched_turn`), for the :data:`RESEARCHED` best candidates of a first pass."""
RESEARCHED: Final = 3
"""Candidates valued again with the rival's searched reply (``reply=search``)."""
FIRST_PASS_SHARE: Final = 0.5
"""Share of a ``time`` budget the first pass (greedy replies) may use under ``reply=search``."""

OBJECTIVES: Final = ("margin", "win")
"""What a position is worth to the player: ``margin`` = the expected final margin over the best
rival (a finished game's sole win worth :data:`WIN_BONUS` more); ``win`` = the chance of winning
(:func:`win_chance`; two players), a finished game 1, 1/2 (shared) or 0."""
WINPROB_FILE: Final = Path(__file__).with_name("winprob_duel.json")
"""The win objective's spread of the final margin (horse race aside) around the evaluation's, by
whole rounds left (``benchmarks/fit/tiny_farms_duel_winprob.py``)."""
MIN_SD: Final = 0.5
"""The smallest spread the win objective uses (a last-round leaf is almost exact)."""
WIN_TIE_BREAK: Final = 0.001
"""Per point of margin added to a win chance, so positions equally sure to win (or lose) are told
apart by their margin."""


class OutOfTime(Exception):
    """Raised inside a chance node when the decision's deadline (CPU clock) has passed."""


def roll_outcomes(dice: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The distinct sorted rolls of ``dice`` six-sided dice and their chances (summing to 1)."""
    faces = range(c.MIN_DIE_VALUE, c.DIE_FACES + 1)
    total = c.DIE_FACES**dice
    out = []
    for roll in itertools.combinations_with_replacement(faces, dice):
        ways = math.factorial(dice)
        for count in Counter(roll).values():
            ways //= math.factorial(count)
        out.append((roll, ways / total))
    return tuple(out)


_ROLLS: dict[int, tuple[tuple[tuple[int, ...], float], ...]] = {}


def rolls_of(dice: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """:func:`roll_outcomes`, remembered per number of dice."""
    if dice not in _ROLLS:
        _ROLLS[dice] = roll_outcomes(dice)
    return _ROLLS[dice]


def margin(values: list[float], player: int) -> float:
    """``player``'s value minus the best rival's."""
    return values[player] - max(v for q, v in enumerate(values) if q != player)


def final_value(state: TinyFarmsState, player: int) -> float:
    """A finished game's value to ``player``: the final margin, plus :data:`WIN_BONUS` for a sole
    win (minus it for a loss; a shared first place adds nothing)."""
    result = state.result()
    totals = [float(t) for t in result.totals]
    value = margin(totals, player)
    if player not in result.winners:
        return value - WIN_BONUS
    return value + (WIN_BONUS if len(result.winners) == 1 else 0.0)


@cache
def win_spread() -> tuple[float, ...]:
    """The spread of the final margin (horse race aside) around the evaluation's estimate, by whole
    rounds left after the leaf's round (index 0: the last round), from :data:`WINPROB_FILE`."""
    data = json.loads(WINPROB_FILE.read_text(encoding="utf-8"))
    sd = data.get("sd") if isinstance(data, dict) else None
    if not isinstance(sd, list) or not sd or not all(isinstance(x, (int, float)) and x >= 0 for x in sd):
        raise ValueError(f"{WINPROB_FILE.name}: 'sd' must be a non-empty list of spreads (numbers >= 0)")
    return tuple(max(MIN_SD, float(x)) for x in sd)


def horses_after(state: TinyFarmsState) -> list[int]:
    """Each player's horses with the animals the current player holds written (as many horses as
    the farm they go to has empty cells)."""
    horses = [scoring.horse_count(b) for b in state.boards]
    if state.phase == PLACE and state.pending:
        base = state.pending_farm * c.FARM_CELLS
        empty = sum(1 for v in state.boards[state.current][base : base + c.FARM_CELLS] if v == c.EMPTY)
        horses[state.current] += min(empty, sum(1 for a in state.pending if a == c.HORSE))
    return horses


def _phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def horse_outcomes(state: TinyFarmsState, player: int) -> tuple[float, float, float]:
    """Two players: the chances that ``player`` ends the horse race ahead, level and behind, by
    the evaluation's random walk of the horse difference (:func:`evaluation.expected_horse_points`;
    exact when no die pick is left: the race as it stands)."""
    horses = horses_after(state)
    d = horses[player] - horses[1 - player]
    picks = evaluation.picks_to_come(state)
    if picks <= 0:
        return (1.0, 0.0, 0.0) if d > 0 else (0.0, 1.0, 0.0) if d == 0 else (0.0, 0.0, 1.0)
    spread = evaluation.horse_sd() * math.sqrt(picks)
    ahead = _phi((d - 0.5) / spread)
    behind = _phi((-d - 0.5) / spread)
    return ahead, max(0.0, 1.0 - ahead - behind), behind


def expected_horse_difference(state: TinyFarmsState, player: int) -> float:
    """Two players: ``player``'s expected horse points minus the rival's as the evaluation counts
    them (10 for most horses or a tie: the difference is +10 ahead, 0 level, −10 behind; exact
    when no pick is left, the minimum number of horses to score included)."""
    if evaluation.picks_to_come(state) <= 0:
        horses = horses_after(state)
        points = scoring.horse_points(horses, two_player_rules=True, min_horses=evaluation.least_horses(state))
        return float(points[player] - points[1 - player])
    horses = horses_after(state)
    d = horses[player] - horses[1 - player]
    spread = evaluation.horse_sd() * math.sqrt(evaluation.picks_to_come(state))
    first = float(c.HORSE_FIRST_POINTS)
    return first * (_phi((d + 0.5) / spread) - _phi((-d + 0.5) / spread))


def win_chance(state: TinyFarmsState, values: list[float], player: int, scale: float = 1.0) -> float:
    """``player``'s chance of winning from the unfinished ``state`` whose evaluation is ``values``
    (a tie counting half), plus :data:`WIN_TIE_BREAK` per point of expected margin.

    Two players: the horse race is a 10-point swing (:func:`horse_outcomes`); the rest of the
    margin (the estimate minus :func:`expected_horse_difference`) is normal with the fitted spread
    for the whole rounds left after this one (:func:`win_spread`, times ``scale``, at least
    :data:`MIN_SD`). More players: the margin over the best rival, normal with that spread.
    """
    m = margin(values, player)
    sd = win_spread()
    spread = max(MIN_SD, scale * sd[min(max(state.rounds - state.round, 0), len(sd) - 1)])
    if len(values) != 2:
        return _phi(m / spread) + WIN_TIE_BREAK * m
    rest = m - expected_horse_difference(state, player)
    if evaluation.picks_to_come(state) <= 0:  # the race is decided: the margin holds it exactly
        return _phi(m / spread) + WIN_TIE_BREAK * m
    ahead, level, behind = horse_outcomes(state, player)
    first = float(c.HORSE_FIRST_POINTS)
    chance = (
        ahead * _phi((rest + first) / spread) + level * _phi(rest / spread) + behind * _phi((rest - first) / spread)
    )
    return chance + WIN_TIE_BREAK * m


def final_win(state: TinyFarmsState, player: int) -> float:
    """A finished game's value to ``player`` under the win objective: 1 for a sole win, 1/2 shared,
    0 lost, plus :data:`WIN_TIE_BREAK` per point of final margin."""
    result = state.result()
    m = margin([float(t) for t in result.totals], player)
    if player not in result.winners:
        return WIN_TIE_BREAK * m
    return (1.0 if len(result.winners) == 1 else 0.5) + WIN_TIE_BREAK * m


def value_of(state: TinyFarmsState, player: int) -> float:
    """The position's value to ``player``: final (:func:`final_value`) or estimated (the evaluation's margin)."""
    if state.phase == OVER:
        return final_value(state, player)
    return margin(state.evaluate(), player)


def milk_totals(state: TinyFarmsState, steps: int) -> list[int]:
    """The die changes the current player may reach from the milk already spent this turn, with at
    most ``steps`` more tokens in the direction already taken (the change so far first)."""
    mod = state.modifier
    tokens = min(steps, state.milk[state.current])
    totals = [mod]
    if mod >= 0:
        totals += [mod + k for k in range(1, tokens + 1)]
    if mod <= 0:
        highest = max(state.dice)
        totals += [mod - k for k in range(1, tokens + 1) if highest + mod - k >= c.MIN_DIE_VALUE]
    return totals


def turn_starts(state: TinyFarmsState, steps: int) -> list[tuple[str, ...]]:
    """The current player's ways to choose a die from a ``MOVE`` position: milk actions (at most
    ``steps`` more tokens) then a die and farmer, each a sequence of legal actions."""
    out: list[tuple[str, ...]] = []
    for total in milk_totals(state, steps):
        extra = total - state.modifier
        prefix = (MILK_UP,) * extra if extra > 0 else (MILK_DOWN,) * -extra
        for value in sorted(set(state.dice)):
            if value + total >= c.MIN_DIE_VALUE:
                out.extend((*prefix, DIE_ACTIONS[value][farm]) for farm in (c.RED, c.BLUE))
    return out


def play(state: TinyFarmsState, actions: tuple[str, ...]) -> TinyFarmsState:
    """A copy of ``state`` after the current player's ``actions`` (legal in turn)."""
    child = state.clone()
    for action in actions:
        child._do(child.current, action)
    return child


def finish_placement(state: TinyFarmsState) -> None:
    """Write the animals waiting in ``state`` (changed in place) where the evaluation rates them
    best for the writer, one put at a time (the first best on ties)."""
    while state.phase == PLACE:
        who = state.current
        best_value, best = -math.inf, ""
        for action in state.legal_actions(who):
            value = value_of(play(state, (action,)), who)
            if value > best_value:
                best_value, best = value, action
        state._do(who, best)


def best_turn(state: TinyFarmsState, steps: int) -> TinyFarmsState:
    """The position after the current player's best whole turn by the evaluation (milk up to
    ``steps`` tokens, die and farmer, then the animals written best); ``state`` is not changed."""
    who = state.current
    epoch = state.epoch
    best_value, best = -math.inf, state
    for start in turn_starts(state, steps):
        child = play(state, start)
        value = value_of(child, who)
        if value > best_value:
            best_value, best = value, child
    if best is state:  # no way to move (cannot happen: a die is always usable)
        raise ValueError("the player to move has no die to take")
    best = best.clone()
    if best.epoch == epoch:
        finish_placement(best)
    return best


@dataclass
class Search:
    """One decision's settings and memory: the player, the milk the modelled turns may spend, the deadline."""

    player: int
    milk: int = MILK_STEPS
    deadline: float | None = None
    depth: int = 1
    nodes: int = 0
    objective: str = "margin"
    reply: str = "greedy"
    spread: float = 1.0

    def leaf(self, state: TinyFarmsState, values: list[float]) -> float:
        """The player's value of a leaf whose evaluation (or final totals) is ``values``: the margin,
        or (objective ``win``) the win chance (a finished game by its result)."""
        if self.objective == "win":
            if state.phase == OVER:
                return final_win(state, self.player)
            return win_chance(state, values, self.player, self.spread)
        return margin(values, self.player)

    def final(self, state: TinyFarmsState) -> float:
        """A finished game's value to the player under the objective (:func:`final_value`, :func:`final_win`)."""
        return final_win(state, self.player) if self.objective == "win" else final_value(state, self.player)

    def check_time(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed."""
        if self.deadline is not None and time.process_time() > self.deadline:
            raise OutOfTime

    def round_end_value(self, state: TinyFarmsState, epoch: int) -> float:
        """The value of a position inside a round whose roll was ``epoch``: the other players'
        turns left in it played by their best choice, then the chance node (or the final result)."""
        while state.phase != OVER and state.epoch == epoch:
            self.check_time()
            if self.reply == "search" and state.current != self.player:
                state = self.searched_turn(state, epoch)
            else:
                state = best_turn(state, self.milk)
        if state.phase == OVER:
            return self.final(state)
        return self.chance_value(state)

    def searched_turn(self, state: TinyFarmsState, epoch: int) -> TinyFarmsState:
        """The position after the current player's (a rival's) whole turn chosen by their own duel
        search, as :func:`choose` with Hard's settings (depth 1, margin objective, greedy replies;
        this search's ``milk``) chooses it (every
        die start with up to :data:`TURN_MILK` milk, animals written best, then the rest of the
        round and the chance node, all from their side); ties go to the first in
        :func:`turn_starts` order ranked by the one-step evaluation, as in :func:`choose`."""
        who = state.current
        rival = Search(who, self.milk, self.deadline)  # depth 1, margin, greedy replies: Hard's model
        options = turn_starts(state, TURN_MILK)
        children = [play(state, option) for option in options]
        ranked = sorted(range(len(options)), key=lambda i: (-value_of(children[i], who), i))
        best_value, best = -math.inf, children[ranked[0]]
        for index in ranked:
            child = children[index].clone()
            if child.epoch == epoch and child.phase == PLACE:
                finish_placement(child)
            after = child.clone()
            value = rival.round_end_value(child, epoch)
            if value > best_value:
                best_value, best = value, after
        self.nodes += rival.nodes
        if best.epoch == epoch and best.phase == PLACE:
            finish_placement(best)
        return best

    def chance_value(self, state: TinyFarmsState) -> float:
        """The expected value of a round start over its roll (``state``'s own dice are ignored): for
        each unordered roll, the start player's best move (die, farmer, milk) by the evaluation,
        the position after it valued by the evaluation (``depth`` 2: the other players' moves of
        that round too, each their best by the evaluation with the dice left)."""
        self.nodes += 1
        mover = state.current
        memo: dict[tuple[int, int, int], list[float]] = {}
        children: dict[tuple[int, int, int], TinyFarmsState] = {}
        leaves: dict[tuple[int, int, int], float] = {}
        after: dict[tuple[int, int, int], TinyFarmsState] = {}
        later: dict[tuple[object, ...], tuple[list[float], float]] = {}
        total = 0.0
        for roll, weight in rolls_of(len(state.dice)):
            self.check_time()
            best_mover, best_key, chosen = -math.inf, (0, 0, 0), (0, 0, 0, 0)
            for change, value, farm, space in _die_options(state, roll, min(self.milk, state.milk[mover])):
                key = (farm, space, abs(change))
                values = memo.get(key)
                if values is None:
                    child = _rolled(state, roll)
                    _take_die(child, change, value, farm)
                    values = memo[key] = _values(child)
                    children[key] = child
                ahead = margin(values, mover)
                if ahead > best_mover:
                    best_mover, best_key, chosen = ahead, key, (change, value, farm, space)
            mine = leaves.get(best_key)
            if mine is None:
                mine = leaves[best_key] = self.leaf(children[best_key], memo[best_key])
            if self.depth >= 2:
                change, value, farm, space = chosen
                key1 = (farm, space, abs(change))
                placed = after.get(key1)
                if placed is None:
                    placed = _rolled(state, roll)
                    _take_die(placed, change, value, farm)
                    place_as_evaluated(placed)
                    after[key1] = placed
                rest = list(roll)
                rest.remove(value)
                mine = self._reply_value(placed, key1, tuple(rest), later, state.epoch)
            total += weight * mine
        return total

    def _reply_value(
        self,
        placed: TinyFarmsState,
        key1: tuple[int, int, int],
        rest: tuple[int, ...],
        later: dict[tuple[object, ...], tuple[list[float], float]],
        epoch: int,
    ) -> float:
        """The value after the start player's move (``placed``: its animals written; ``key1`` names
        it) when the next player takes their best die of ``rest`` (farmer, milk) by the evaluation;
        their values are remembered in ``later`` by (``key1``, farm, space, milk spent); ``epoch``:
        the roll of this round (once it has ended, ``placed`` is valued as it is). With more
        than two players the rest of the round is played on (:meth:`_rest_of_round`)."""
        if placed.phase != MOVE or placed.epoch != epoch:
            return self.leaf(placed, _values(placed))
        state = _rolled(placed, rest)
        who = state.current
        if who != state.order[-1]:
            return self._rest_of_round(state, state.epoch)
        best_value, mine = -math.inf, 0.0
        for change, value, farm, space in _die_options(state, rest, min(self.milk, state.milk[who])):
            key = (*key1, farm, space, abs(change))
            known = later.get(key)
            if known is None:
                child = state.clone()
                _take_die(child, change, value, farm)
                values = _values(child)
                known = later[key] = (values, self.leaf(child, values))
            if margin(known[0], who) > best_value:
                best_value, mine = margin(known[0], who), known[1]
        return mine

    def _rest_of_round(self, state: TinyFarmsState, epoch: int) -> float:
        """The value after the other players' moves of this round (dice known), each their best die,
        farmer and milk by the evaluation (animals written as the evaluation writes them), the
        last move's position valued by the evaluation (or the final result)."""
        while state.phase == MOVE and state.epoch == epoch:
            who = state.current
            best_value, best_values, chosen = -math.inf, [0.0], state
            for start in turn_starts(state, min(self.milk, state.milk[who])):
                child = play(state, start)
                values = _values(child)
                if margin(values, who) > best_value:
                    best_value, best_values, chosen = margin(values, who), values, child
            last = chosen.phase == OVER or chosen.epoch != epoch or who == state.order[-1]
            if last:
                return self.leaf(chosen, best_values)
            state = chosen.clone()
            place_as_evaluated(state)
        return self.leaf(state, _values(state))


def _values(state: TinyFarmsState) -> list[float]:
    """Each player's value: final totals once over, else the evaluation."""
    if state.phase == OVER:
        return [float(t) for t in state.result().totals]
    return state.evaluate()


def _die_options(state: TinyFarmsState, roll: tuple[int, ...], tokens: int) -> list[tuple[int, int, int, int]]:
    """The start player's (milk change, die, farm, space landed on) with ``roll`` and at most ``tokens`` milk."""
    out = []
    for change in range(-tokens, tokens + 1):
        for value in sorted(set(roll)):
            steps = value + change
            if steps < c.MIN_DIE_VALUE or (change < 0 and max(roll) + change < c.MIN_DIE_VALUE):
                continue
            for farm in (c.RED, c.BLUE):
                if farm == c.RED:
                    space = destination(state.red, steps, state.blue)
                else:
                    space = destination(state.blue, steps, state.red)
                out.append((change, value, farm, space))
    return out


def _rolled(state: TinyFarmsState, roll: tuple[int, ...]) -> TinyFarmsState:
    """A copy of the round start ``state`` with ``roll`` on the table."""
    child = state.clone()
    child.dice = list(roll)
    child._legal = None
    return child


def _take_die(state: TinyFarmsState, change: int, value: int, farm: int) -> None:
    """The current player spends ``|change|`` milk on die ``value`` and moves ``farm``'s farmer (in place)."""
    state.milk[state.current] -= abs(change)
    state.modifier = change
    state._do(state.current, DIE_ACTIONS[value][farm])


def place_as_evaluated(state: TinyFarmsState) -> None:
    """Write the animals waiting in ``state`` (changed in place) where the evaluation's own
    placement writes them (:func:`evaluation._place_in_farm`, the one ``evaluate()`` assumes), by
    legal ``put`` actions."""
    if state.phase != PLACE:
        return
    evaluation._players_model()  # the per-farm potential reads the current weights
    who = state.current
    base = state.pending_farm * c.FARM_CELLS
    board = state.boards[who]
    farm = tuple(board[base : base + c.FARM_CELLS])
    target = evaluation._place_in_farm(farm, list(state.pending), share_left(state), evaluation._players_farm_potential)
    for i, (before, after) in enumerate(zip(farm, target, strict=True)):
        if before != after and state.phase == PLACE:
            state._do(who, PUT_ACTIONS[after][base + i])
    if state.phase == PLACE:  # cannot happen: the placement writes every animal that has room
        finish_placement(state)


@dataclass
class Choice:
    """A chosen action, its value, how many of the candidates were valued, and the value of each
    first action valued (the best of its candidates)."""

    action: str
    value: float
    valued: int
    values: dict[str, float] = field(default_factory=dict)


def candidates(state: TinyFarmsState, steps: int) -> list[tuple[str, ...]]:
    """The current player's candidate continuations: whole die choices at ``MOVE`` (milk up to
    ``steps`` more tokens), single puts at ``PLACE``."""
    if state.phase == MOVE:
        return turn_starts(state, steps)
    return [(action,) for action in state.legal_actions(state.current)]


def choose(
    state: TinyFarmsState,
    keep: int = 0,
    milk: int = MILK_STEPS,
    budget: float | None = None,
    start: float | None = None,
    depth: int = 1,
    objective: str = "margin",
    reply: str = "greedy",
    spread: float = 1.0,
) -> Choice:
    """The choice of the player to act in ``state`` (a Tiny Farms position with two or more players,
    already a determinization: only the dice to come are unknown, and they are averaged).

    The candidates (:func:`candidates`) are ranked by the evaluation one step ahead; the ``keep``
    best (0: all) are each played to the end of the player's turn (animals written best), the other
    players' turns of the round by their best choice, then valued over the next roll
    (:meth:`Search.chance_value`). The first action of the best candidate is played. With
    ``budget`` CPU seconds (counted from ``start``, default now), no new candidate is valued once
    :data:`BUDGET_SHARE` of it has passed and one in progress is abandoned at the deadline: the
    best valued so far is played, or the one-step ranking's best if none was. ``objective``
    (:data:`OBJECTIVES`): what the player's leaves are worth to it (the others' replies and every
    player's placements are chosen by the evaluation's margin either way); ``spread`` scales the
    win objective's fitted spreads.

    ``reply`` (:data:`REPLIES`): with ``search``, when another player still moves this round, the
    first pass above (greedy replies; with a budget, until :data:`FIRST_PASS_SHARE` of it) is
    followed by a second: its :data:`RESEARCHED` best candidates are valued again with the others'
    turns of this round chosen by their own duel search (:meth:`Search.searched_turn`), and the
    best of those is played (the first pass's best if the second valued none).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if reply not in REPLIES:
        raise ValueError(f"reply must be one of {', '.join(REPLIES)}, got {reply!r}")
    if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not spread > 0:
        raise ValueError(f"spread must be a positive number, got {spread!r}")
    if state.solo or state.phase not in (MOVE, PLACE):
        raise ValueError("choose needs a Tiny Farms position of two or more players where someone decides")
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise ValueError(f"keep must be a whole number (0: every candidate), got {keep!r}")
    if depth not in DEPTHS:
        raise ValueError(f"depth must be one of {', '.join(map(str, DEPTHS))}, got {depth!r}")
    start = time.process_time() if start is None else start
    deadline = None if budget is None else start + BUDGET_SHARE * budget
    me = state.current
    options = candidates(state, TURN_MILK)
    children = [play(state, option) for option in options]
    ranked = sorted(range(len(options)), key=lambda i: (-value_of(children[i], me), i))
    if len(options) == 1:
        return Choice(options[0][0], value_of(children[0], me), 0)
    if keep:
        ranked = ranked[:keep]
    second = reply == "search" and state.turn_index < len(state.order) - 1
    first_deadline = deadline
    if second and budget is not None:
        first_deadline = start + FIRST_PASS_SHARE * budget
    search = Search(me, milk, first_deadline, depth, objective=objective, spread=float(spread))
    valued = _value_candidates(search, ranked, children, state)
    if not valued:
        first = ranked[0]
        return Choice(options[first][0], value_of(children[first], me), 0)
    if second:
        top = sorted(valued, key=lambda index: (-valued[index], ranked.index(index)))[:RESEARCHED]
        deep = Search(me, milk, deadline, depth, objective=objective, reply="search", spread=float(spread))
        again = _value_candidates(deep, top, children, state)
        if again:
            valued = again
    values: dict[str, float] = {}
    best = Choice(options[ranked[0]][0], -math.inf, 0)
    order = [index for index in ranked if index in valued]
    for count, index in enumerate(order, start=1):
        first_action = options[index][0]
        values[first_action] = max(valued[index], values.get(first_action, -math.inf))
        if valued[index] > best.value:
            best = Choice(first_action, valued[index], count)
    best.valued = len(order)
    best.values = values
    return best


def _value_candidates(
    search: Search, indices: list[int], children: list[TinyFarmsState], state: TinyFarmsState
) -> dict[int, float]:
    """The values of the candidates ``indices`` (positions in ``children``, the candidates played
    from ``state``), in that order, by ``search`` through the round end and the next roll; stops
    at the search's deadline (no new candidate after it, one in progress abandoned)."""
    me = state.current
    epoch = state.epoch
    out: dict[int, float] = {}
    for index in indices:
        if search.deadline is not None and time.process_time() > search.deadline:
            break
        child = children[index].clone()
        try:
            if child.epoch == epoch and child.phase == PLACE and child.current == me:
                finish_placement(child)
            out[index] = search.round_end_value(child, epoch)
        except OutOfTime:
            break
    return out


class DuelAgent(Agent):
    """The player of :func:`choose` as an agent (Tiny Farms with two or more players; spec
    ``tiny-farms-duel:time=0.5``).

    Every decision is :func:`choose` on a determinization (``state.determinize(player, rng)``).
    ``keep``: candidates valued through the round end and the next roll (0: all of them);
    ``milk``: milk tokens the modelled turns (the others' replies, the next round's start) may
    spend (0-2); ``time``: CPU seconds a decision may take (counted from the call; without it a
    seeded game replays exactly — the player samples nothing, so it does with it too unless the
    budget cuts a decision short); ``objective``: ``margin`` (default) or ``win`` (:data:`OBJECTIVES`);
    ``spread``: the win objective's spreads scaled; ``reply``: ``greedy`` (default) or ``search``
    (:data:`REPLIES`: the rival's reply this round by their own duel search, for the best few).
    Solo Tiny Farms and any other game are played like ``greedy``.
    """

    name = "tiny-farms-duel"

    def __init__(
        self,
        seed: int | None = None,
        keep: int = 0,
        milk: int = MILK_STEPS,
        time: float | None = None,
        depth: int = 1,
        objective: str = "margin",
        reply: str = "greedy",
        spread: float = 1.0,
    ) -> None:
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
            raise ValueError(f"keep must be a whole number (0: every candidate), got {keep!r}")
        if isinstance(milk, bool) or not isinstance(milk, int) or not 0 <= milk <= 2:
            raise ValueError(f"milk must be a whole number of tokens 0-2, got {milk!r}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
            raise ValueError(f"time must be a positive number of CPU seconds, got {time!r}")
        if isinstance(depth, bool) or depth not in DEPTHS:
            raise ValueError(f"depth must be one of {', '.join(map(str, DEPTHS))}, got {depth!r}")
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        if reply not in REPLIES:
            raise ValueError(f"reply must be one of {', '.join(REPLIES)}, got {reply!r}")
        if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not spread > 0:
            raise ValueError(f"spread must be a positive number, got {spread!r}")
        params: dict[str, Any] = {}
        if depth != 1:
            params["depth"] = depth
        if objective != "margin":
            params["objective"] = objective
        if reply != "greedy":
            params["reply"] = reply
        if spread != 1.0:
            params["spread"] = spread
        if keep:
            params["keep"] = keep
        if milk != MILK_STEPS:
            params["milk"] = milk
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.keep = keep
        self.milk = milk
        self.depth = depth
        self.objective = objective
        self.reply = reply
        self.spread = float(spread)
        self.budget = None if time is None else float(time)
        self.rng = random.Random(seed)

    def act(self, state: State[Any], player: int) -> Any:
        """The duel choice (Tiny Farms, two or more players) or greedy's (anything else)."""
        start = time.process_time()
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        if not isinstance(world, TinyFarmsState) or world.solo:
            return legal[greedy_choice(world, player, self.rng)]
        with old_objects_set_aside():  # no full garbage collection inside the clock
            choice = choose(
                world, self.keep, self.milk, self.budget, start, self.depth, self.objective, self.reply, self.spread
            )
        return choice.action
