"""The 2-player race: each player's own road to 70 coins, solved exactly, and the chance to get there first.

Two-player Farmers Finances is a race to 70 coins. The players meet in three places only: the market
row (each player sets the row the other one acts on), the shared marketplace (4 wheat and 2 animals
in all; buying its last card forces everyone to sell, rulebook "Empty market") and the finish (the
round is completed, DA-FF6). This module models one player's road as a small Markov decision
problem under the 2-player rules, *the relaxation*:

- a state is the player's money (0-69), farm (wheat, bread, animals), the marketplace (the wheat and
  animals still there) and the market row of this action (1-5): 210 card configurations x 5 rows x
  70 amounts;
- a turn is one action at that row (buy, sell one sort, bake; ``pass`` only when nothing is
  possible), and the turn counts 1;
- the other player's farm is taken as it stands (cards neither bought nor sold by them), so the
  marketplace changes only by this player's own buys and sales; buying the last card of the
  marketplace sells every farm at the row and refills the marketplace (the "Empty market" rule);
- the row of the next action is set by the *other* player (they change the market at the end of
  their turn): with weight ``adversity`` they choose the worst of moving the die one row from this
  one or rerolling (a 6 lets them pick the worst row); with weight ``1 - adversity`` they reroll.

Value iteration gives the fewest expected turns to 70 from every state (:attr:`RaceTable.turns`)
and the policy that reaches it; a forward recursion then gives, under that policy, the chance of
having reached 70 within ``k`` turns for ``k = 1 .. HORIZON`` (:attr:`RaceTable.within`), both for
the player about to act (row known) and for the player waiting (row still to be set from the current
one: :attr:`RaceTable.within_waiting`).

:func:`race_win_chance` turns the two players' distributions into the chance that the player to act
wins: the first to finish a round wins, both in the same round is counted a coin flip (the tie is
decided on money). ``docs/games/farmers-finances-ai.md`` explains the model and what it leaves out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from farmtable.games.farmers_finances import components as c

GOAL: Final = c.GOAL_MONEY
ROWS: Final = len(c.MARKET_ROWS)
HORIZON: Final = 60
"""Turns the finishing distributions cover; later finishes count as "not within the horizon"."""
NEVER: Final = 100.0
"""Expected turns given to a state from which 70 can never be reached (no coins, nothing to sell)."""
TOLERANCE: Final = 1e-6
MAX_SWEEPS: Final = 2000
DEFAULT_ADVERSITY: Final = 0.5
"""How often the other player sets the row to hurt (the rest of the time the next row is a reroll)."""

Config = tuple[int, int, int, int, int]
"""(wheat, bread, animals) in the farm, then (wheat, animals) in the marketplace."""

FloatArray = npt.NDArray[np.float64]


def configs(copies: int = 1) -> list[Config]:
    """Every farm and marketplace that one copy (2 players) allows; the other player holds the rest."""
    wheat_cards = c.WHEAT_CARDS_PER_COPY * copies
    animal_cards = c.ANIMAL_CARDS_PER_COPY * copies
    out: list[Config] = []
    for w, b, sw in itertools.product(range(wheat_cards + 1), repeat=3):
        if w + b + sw > wheat_cards:
            continue
        for a, sa in itertools.product(range(animal_cards + 1), repeat=2):
            if a + sa <= animal_cards:
                out.append((w, b, a, sw, sa))
    return out


@dataclass(frozen=True)
class Move:
    """One action of the relaxation: where it leads, what it costs and what it needs."""

    target: int
    delta: int
    need: int
    """Coins needed (a buy's cost; 0 otherwise)."""


def moves(config: Config, row: int, index: dict[Config, int], copies: int = 1) -> list[Move]:
    """The actions of the relaxation from ``config`` at ``row`` (rulebook "Game Play"), ``pass`` excluded."""
    w, b, a, sw, sa = config
    out: list[Move] = []
    wheat_sell = c.sell_price(c.WHEAT, row)
    animal_sell = c.sell_price(c.ANIMAL, row)
    full = (0, 0, 0, c.WHEAT_CARDS_PER_COPY * copies, c.ANIMAL_CARDS_PER_COPY * copies)
    for sort, there in ((c.WHEAT, sw), (c.ANIMAL, sa)):
        if not there:
            continue
        cost = c.buy_cost(sort, row)
        nw, na = (w + 1, a) if sort == c.WHEAT else (w, a + 1)
        nsw, nsa = (sw - 1, sa) if sort == c.WHEAT else (sw, sa - 1)
        if nsw == 0 and nsa == 0:
            # "If a player buys the last card, immediately there is a selling-phase": the farm is sold
            # at the row, every farm's cards go back, the marketplace is whole again.
            sale = nw * wheat_sell + b * c.BREAD_PRICE + na * animal_sell
            out.append(Move(index[full], sale - cost, cost))
        else:
            out.append(Move(index[(nw, b, na, nsw, nsa)], -cost, cost))
    for n in range(1, w + 1):
        out.append(Move(index[(w - n, b, a, sw + n, sa)], n * wheat_sell, 0))
    for n in range(1, b + 1):
        out.append(Move(index[(w, b - n, a, sw + n, sa)], n * c.BREAD_PRICE, 0))
    for n in range(1, a + 1):
        out.append(Move(index[(w, b, a - n, sw, sa + n)], n * animal_sell, 0))
    for n in range(1, w + 1):
        out.append(Move(index[(w - n, b + n, a, sw, sa)], 0, 0))
    return out


@dataclass
class RaceTable:
    """The solved relaxation for one player count's card supply and one ``adversity``.

    ``turns[config, row - 1, money]``: fewest expected turns to 70 for the player about to act at ``row``.
    ``within[k - 1, config, row - 1, money]``: the chance of 70 within ``k`` turns, this one included.
    ``within_waiting[k - 1, config, row - 1, money]``: the same for a player whose next action's row
    the other player is about to set, standing on ``row`` now.
    """

    index: dict[Config, int]
    turns: FloatArray
    turns_waiting: FloatArray
    """``turns_waiting[config, row - 1, money]``: the expected turns for a player whose next action's row
    the other player is about to set, standing on ``row`` (the next action counts 1)."""
    within: npt.NDArray[np.float32]
    within_waiting: npt.NDArray[np.float32]
    adversity: float
    sweeps: int

    def config_index(self, hand: list[int], market: list[int]) -> int:
        """The configuration of a farm ``[wheat, bread, animals]`` beside a marketplace ``[wheat, animals]``."""
        return self.index[(hand[0], hand[1], hand[2], market[0], market[1])]


def _next_row(values: FloatArray, adversity: float) -> FloatArray:
    """The expected turns after an action, from the next action's ``values[config, row, money]``.

    The other player sets the next row from the current one: with weight ``adversity`` the worst of
    the row below, the row above and a reroll (a 6: the worst row); otherwise a reroll.
    """
    reroll = (values.sum(axis=1) + values.max(axis=1)) / (ROWS + 1)
    hurt = np.repeat(reroll[:, None, :], ROWS, axis=1)
    np.maximum(hurt[:, 1:], values[:, :-1], out=hurt[:, 1:])
    np.maximum(hurt[:, :-1], values[:, 1:], out=hurt[:, :-1])
    mixed: FloatArray = adversity * hurt + (1 - adversity) * reroll[:, None, :]
    return mixed


def _row_choice(values: FloatArray) -> npt.NDArray[np.int64]:
    """The other player's choice per state of :func:`_next_row`: 0 = row below, 1 = row above, 2 = reroll."""
    reroll = (values.sum(axis=1) + values.max(axis=1)) / (ROWS + 1)
    options = np.full((3, *values.shape), -np.inf)
    options[0, :, 1:, :] = values[:, :-1, :]
    options[1, :, :-1, :] = values[:, 1:, :]
    options[2] = reroll[:, None, :]
    choice: npt.NDArray[np.int64] = options.argmax(axis=0)
    return choice


@cache
def solve(adversity: float = DEFAULT_ADVERSITY, copies: int = 1) -> RaceTable:
    """Solve the relaxation (value iteration, then the finishing distributions); cached per process.

    About a second of CPU the first time a process asks.
    """
    all_configs = configs(copies)
    index = {config: i for i, config in enumerate(all_configs)}
    n = len(all_configs)
    money = np.arange(GOAL)
    per_state: list[list[Move]] = [[] for _ in range(n * ROWS)]
    for i, config in enumerate(all_configs):
        for r in range(ROWS):
            found = moves(config, r + 1, index, copies)
            per_state[i * ROWS + r] = found
    # Every (state, legal action) pair, grouped by state: where the action leads in the post-action
    # array flattened, or one of two sentinels: finished (0 turns) and the state itself (a pass).
    size = n * ROWS * GOAL
    finished = size
    owners: list[npt.NDArray[np.int64]] = []
    leads: list[npt.NDArray[np.int64]] = []
    for i, config in enumerate(all_configs):
        w, b, a, sw, sa = config
        for r in range(ROWS):
            here = (i * ROWS + r) * GOAL + money
            for move in per_state[i * ROWS + r]:
                after = money + move.delta
                ok = money >= move.need
                flat = (move.target * ROWS + r) * GOAL + np.clip(after, 0, GOAL - 1)
                owners.append(here[ok])
                leads.append(np.where(after >= GOAL, finished, flat)[ok])
            # DA-FF4: pass only when nothing is possible (no card to sell or bake, no affordable buy).
            if not (w or b or a):
                costs = [c.buy_cost(sort, r + 1) for sort, there in ((c.WHEAT, sw), (c.ANIMAL, sa)) if there]
                stay = money < (min(costs) if costs else GOAL)
                owners.append(here[stay])
                leads.append(here[stay])
    owner = np.concatenate(owners)
    order = np.argsort(owner, kind="stable")
    owner, lead = owner[order], np.concatenate(leads)[order]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    turns = np.zeros((n, ROWS, GOAL))
    sweeps = 0
    for sweeps in range(1, MAX_SWEEPS + 1):  # noqa: B007  (the count is kept)
        extended = np.concatenate([_next_row(turns, adversity).ravel(), [0.0]])
        new = np.minimum(1.0 + np.minimum.reduceat(extended[lead], starts), NEVER).reshape(turns.shape)
        change = float(np.abs(new - turns)[new < NEVER].max(initial=0.0))
        turns = new
        if change < TOLERANCE:
            break
    choice = _row_choice(turns)
    extended = np.concatenate([_next_row(turns, adversity).ravel(), [0.0]])
    values = extended[lead]
    best = np.minimum.reduceat(values, starts)
    # The policy: the first action of each state reaching its best value.
    hits = np.flatnonzero(values <= np.repeat(best, np.diff(np.r_[starts, len(values)])))
    first = hits[np.r_[True, owner[hits][1:] != owner[hits][:-1]]]
    chosen = lead[first].reshape(turns.shape)
    worst_row = turns.argmax(axis=1)  # the row the other player picks after a 6: the slowest for this one

    def set_by_other(values: FloatArray) -> FloatArray:
        """A chance array of the acting player, seen before the other player sets the row."""
        picked = np.take_along_axis(values, worst_row[:, None, :], axis=1)[:, 0, :]
        reroll = (values.sum(axis=1) + picked) / (ROWS + 1)
        below = np.concatenate([values[:, :1], values[:, :-1]], axis=1)
        above = np.concatenate([values[:, 1:], values[:, -1:]], axis=1)
        hurt = np.where(choice == 0, below, np.where(choice == 1, above, reroll[:, None, :]))
        mixed: FloatArray = adversity * hurt + (1 - adversity) * reroll[:, None, :]
        return mixed

    within = np.zeros((HORIZON, n, ROWS, GOAL), dtype=np.float32)
    waiting = np.zeros((HORIZON, n, ROWS, GOAL), dtype=np.float32)
    previous = np.zeros((n, ROWS, GOAL))
    for k in range(HORIZON):
        mixed = set_by_other(previous)  # the waiting player's chance within k turns
        if k:
            waiting[k - 1] = mixed
        current = np.concatenate([mixed.ravel(), [1.0]])[chosen]
        within[k] = current
        previous = current
    waiting[HORIZON - 1] = set_by_other(previous)
    return RaceTable(
        index=index,
        turns=turns,
        turns_waiting=_next_row(turns, adversity),
        within=within,
        within_waiting=waiting,
        adversity=adversity,
        sweeps=sweeps,
    )


_DONE: Final = np.ones(HORIZON, dtype=np.float32)

Curve = npt.NDArray[np.float32]


def finishing(table: RaceTable, hand: list[int], market: list[int], money: int, row: int, waiting: bool) -> Curve:
    """The chance of 70 within 1..HORIZON turns (cumulative) for a player with ``hand`` and ``money``.

    ``waiting``: the player acts after the other one, who stands on ``row`` and is about to set the
    row for them; otherwise the player acts now at ``row``. 70 coins or more finish on the next turn.
    """
    if money >= GOAL:
        return _DONE
    grid = table.within_waiting if waiting else table.within
    curve: Curve = grid[:, table.config_index(hand, market), row - 1, money]
    return curve


def expected_waiting(table: RaceTable, hand: list[int], market: list[int], money: int, row: int) -> float:
    """Expected turns to 70 for a player waiting for the other to set their row from ``row`` (70 or more: 1)."""
    if money >= GOAL:
        return 1.0
    return float(table.turns_waiting[table.config_index(hand, market), row - 1, money])


MODEL_DOUBT: Final = 1e-3
"""The race model's chances are kept this far from 0 and 1, so a certain win on the board (a finished
game) is preferred to one the model only predicts, and a certain loss is avoided before a predicted one."""


def leaf_chance(
    table: RaceTable,
    own: tuple[list[int], list[int], int],
    theirs: tuple[list[int], list[int], int],
    row: int,
    they_act_first: bool,
) -> float:
    """The chance that the player who has just acted wins the race, kept :data:`MODEL_DOUBT` from 0 and 1.

    ``own`` and ``theirs`` are each player's (hand, the market their road may buy from, money); the other
    player acts next from ``row`` (both wait on it). ``they_act_first``: the other player is seat 0.
    """
    mine = finishing(table, own[0], own[1], own[2], row, waiting=True)
    rival = finishing(table, theirs[0], theirs[1], theirs[2], row, waiting=True)
    chance = race_win_chance(rival, mine, mover_first=they_act_first)
    return 1.0 - min(max(chance, MODEL_DOUBT), 1.0 - MODEL_DOUBT)


def race_win_chance(mover: Curve, other: Curve, mover_first: bool) -> float:
    """The chance that the player to act wins the race, from both cumulative finishing distributions.

    ``mover`` is the player to act (their k-th turn counts this one as the first), ``other`` the
    player waiting. ``mover_first``: the player to act is seat 0, so both players' k-th turns fall in
    the same round; otherwise the other player's k-th turn falls in the round after the mover's k-th.
    The first to finish a round wins; finishing in the same round, or neither within the horizon,
    counts one half (the tie is decided on money).
    """
    p_mover = np.empty(HORIZON, dtype=np.float32)
    p_mover[0] = mover[0]
    np.subtract(mover[1:], mover[:-1], out=p_mover[1:])
    neither = (1.0 - float(mover[-1])) * (1.0 - float(other[-1]))
    if mover_first:
        # the other finishes after the mover's round k (1 - other[k]), or in it (other[k] - other[k-1])
        ahead = float(p_mover @ other)
        before = float(p_mover[1:] @ other[:-1])
    else:
        # the other's (k-1)-th turn falls in the mover's round k
        ahead = float(p_mover[1:] @ other[:-1])
        before = float(p_mover[2:] @ other[:-2])
    finished = 1.0 - float(mover[-1])
    # win = sum_k p(k) * (1 - G(k)) + 0.5 * sum_k p(k) * (G(k) - G(k-1)), G shifted for the seat order
    return (1.0 - finished) - ahead + 0.5 * (ahead - before) + 0.5 * neither
