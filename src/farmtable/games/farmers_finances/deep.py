"""The duel player's expectimax on plain tuples: the same values as :class:`duel.Search`, several times cheaper.

:class:`duel.Search` walks the game through :class:`FarmersFinancesState` (a copy of the state for
every action and every market row). With two players and the standard rules a position at an action
phase is a handful of numbers, so this module keeps it as one tuple
``(mover, row, money0, money1, wheat0, bread0, animals0, wheat1, bread1, animals1, wheat in the
marketplace, animals in the marketplace, end triggered)`` and plays the rules on it by hand:

- the action (rulebook "Game Play": buy, sell one sort, bake; ``pass`` only when nothing is possible,
  DA-FF4), in the rules' own order of legal actions (so ties go to the same action);
- buying the last card of the marketplace sells every farm at the row and refills it, and the market
  change is then a forced reroll (the empty-market rule, DA-FF5, DA-FF10);
- the market change (move the die one row, or reroll: rows 1-5 a sixth each, a 6 the mover's best row);
- the end of the turn (DA-FF6): reaching 70 triggers the end; the game is over after player 2's turn;
  the winner has the most money, then money plus cards at base value, else the win is shared.

Only the standard rules are covered (:func:`covers`); with a variant the duel player keeps
:class:`duel.Search`. The search (:meth:`Deep.value`) is the one of :class:`duel.Search`: the same leaf
and the same arithmetic, so the same floats and the same choices, only cheaper: no copies of the game state,
the positions after each action computed once per position, the leaf's normal chance taken once per
position, and (``keep``) the memories of the previous decision carried over (a value depends on the
position alone). Alpha-beta windows with *-minimax bounds at the reroll were tried and saved nothing
(``benchmarks/ai/farmers-finances.md``, session 13).
"""

from __future__ import annotations

import math
import time
from typing import Final

from farmtable.core import clock
from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances import race
from farmtable.games.farmers_finances.rules import FarmersFinancesState

GOAL: Final = c.GOAL_MONEY
SIXTH: Final = 1.0 / c.DIE_SIDES
ROWS: Final = c.MARKET_ROWS
FULL_WHEAT: Final = c.WHEAT_CARDS_PER_COPY
FULL_ANIMALS: Final = c.ANIMAL_CARDS_PER_COPY

BUY_WHEAT: Final = {row: c.buy_cost(c.WHEAT, row) for row in ROWS}
BUY_ANIMAL: Final = {row: c.buy_cost(c.ANIMAL, row) for row in ROWS}
SELL_WHEAT: Final = {row: c.sell_price(c.WHEAT, row) for row in ROWS}
SELL_ANIMAL: Final = {row: c.sell_price(c.ANIMAL, row) for row in ROWS}
BREAD: Final = c.BREAD_PRICE
BASE_WHEAT: Final = c.base_value(c.WHEAT)
BASE_BREAD: Final = c.base_value(c.BREAD)
BASE_ANIMAL: Final = c.base_value(c.ANIMAL)
KEEP_LIMIT: Final = 600_000
"""Entries in the memories of a :class:`Deep` above which the next decision starts afresh (bounded memory)."""
NEIGHBOURS: Final = {row: tuple(r for r in (row - 1, row + 1) if r in ROWS) for row in ROWS}
"""The rows a market change may move the die to, in the rules' order (``MARKET_CHOICES``)."""

Position = tuple[int, int, int, int, int, int, int, int, int, int, int, int, bool]
"""An action phase: (mover, row, money0, money1, w0, b0, a0, w1, b1, a1, market wheat, market animals, end)."""
After = tuple[int, int, int, int, int, int, int, int, int, int, bool]
"""A position after the mover's action, the mover's side first: (money, other's money, w, b, a, other's w,
b, a, market wheat, market animals, forced reroll)."""


def covers(state: FarmersFinancesState) -> bool:
    """True when this module plays ``state``'s rules: two players, one copy of the cards, no variant."""
    return state.players == 2 and not state.solo and state.copies == 1 and not state.variants


def position_of(state: FarmersFinancesState) -> Position:
    """The tuple of a 2-player position (any phase: the fields of the action phase)."""
    h0, h1 = state.hands
    return (
        state.current,
        state.row,
        state.money[0],
        state.money[1],
        h0[0],
        h0[1],
        h0[2],
        h1[0],
        h1[1],
        h1[2],
        state.market[0],
        state.market[1],
        state.end_triggered,
    )


def after_of(state: FarmersFinancesState) -> After:
    """The tuple of a market-change (or pick) position: the mover's action already taken."""
    mover = state.current
    other = 1 - mover
    mine, theirs = state.hands[mover], state.hands[other]
    return (
        state.money[mover],
        state.money[other],
        mine[0],
        mine[1],
        mine[2],
        theirs[0],
        theirs[1],
        theirs[2],
        state.market[0],
        state.market[1],
        state.forced_reroll,
    )


def actions(pos: Position) -> list[After]:
    """The positions after each legal action of the mover, in the order of ``legal_actions``.

    Buys (wheat, animals) the mover can pay and the marketplace offers, then sales of 1..n wheat, bread,
    animals, then baking 1..n wheat; a lone ``pass`` when nothing is possible.
    """
    mover, row, m0, m1, w0, b0, a0, w1, b1, a1, sw, sa, _ = pos
    if mover == 0:
        money, their, w, b, a, tw, tb, ta = m0, m1, w0, b0, a0, w1, b1, a1
    else:
        money, their, w, b, a, tw, tb, ta = m1, m0, w1, b1, a1, w0, b0, a0
    out: list[After] = []
    wheat_sell, animal_sell = SELL_WHEAT[row], SELL_ANIMAL[row]
    for pile in (0, 1):
        there = sw if pile == 0 else sa
        cost = BUY_WHEAT[row] if pile == 0 else BUY_ANIMAL[row]
        if not there or money < cost:
            continue
        nw, na = (w + 1, a) if pile == 0 else (w, a + 1)
        nsw, nsa = (sw - 1, sa) if pile == 0 else (sw, sa - 1)
        if nsw == 0 and nsa == 0:
            # "If a player buys the last card, immediately there is a selling-phase": both farms sold at
            # this row, the marketplace whole again; the market change is the reroll (DA-FF5).
            mine_sale = nw * wheat_sell + b * BREAD + na * animal_sell
            their_sale = tw * wheat_sell + tb * BREAD + ta * animal_sell
            out.append((money - cost + mine_sale, their + their_sale, 0, 0, 0, 0, 0, 0, FULL_WHEAT, FULL_ANIMALS, True))
        else:
            out.append((money - cost, their, nw, b, na, tw, tb, ta, nsw, nsa, False))
    for n in range(1, w + 1):
        out.append((money + n * wheat_sell, their, w - n, b, a, tw, tb, ta, sw + n, sa, False))
    for n in range(1, b + 1):
        out.append((money + n * BREAD, their, w, b - n, a, tw, tb, ta, sw + n, sa, False))
    for n in range(1, a + 1):
        out.append((money + n * animal_sell, their, w, b, a - n, tw, tb, ta, sw, sa + n, False))
    for n in range(1, w + 1):
        out.append((money, their, w - n, b + n, a, tw, tb, ta, sw, sa, False))
    if not out:
        out.append((money, their, w, b, a, tw, tb, ta, sw, sa, False))
    return out


def final_share(after: After) -> float:
    """The mover's share of a finished game (won 1, shared 1/2, lost 0): money, then the tie rule."""
    money, their, w, b, a, tw, tb, ta = after[:8]
    if money != their:
        return 1.0 if money > their else 0.0
    mine = money + w * BASE_WHEAT + b * BASE_BREAD + a * BASE_ANIMAL
    theirs = their + tw * BASE_WHEAT + tb * BASE_BREAD + ta * BASE_ANIMAL
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def normal_cdf(x: float) -> float:
    """The standard normal distribution function (as :func:`duel.normal_cdf`)."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


_FLAT: dict[int, tuple[race.RaceTable, list[float]]] = {}


def flat_waiting(table: race.RaceTable) -> list[float]:
    """``table.turns_waiting`` flattened to Python floats, ``[(config * 5 + row - 1) * 70 + money]`` (kept)."""
    known = _FLAT.get(id(table))
    if known is None or known[0] is not table:
        known = _FLAT[id(table)] = (table, table.turns_waiting.ravel().tolist())
    return known[1]


class Deep:
    """The expectimax of one decision on tuples, with its memory and its clock (see the module)."""

    def __init__(
        self, table: race.RaceTable, deadline: float | None, spread: float = 0.0, keep: Deep | None = None
    ) -> None:
        self.table = table
        self.deadline = deadline
        self.spread = spread
        self.index = table.index
        self.waiting = flat_waiting(table)
        self.offsets = {config: i * len(ROWS) * GOAL for config, i in table.index.items()}
        """Where each configuration's entries start in :attr:`waiting`."""
        self.memory: dict[tuple[int, Position], float] = {}
        self.leaf_memory: dict[Position, float] = {}
        self.moves: dict[Position, list[After]] = {}
        self.leaves = 0
        self.nodes = 0
        if keep is not None and keep.table is table and keep.spread == spread:
            # Every remembered value is a function of the position alone: an earlier decision's are valid.
            size = len(keep.memory) + len(keep.leaf_memory) + len(keep.moves)
            if size < KEEP_LIMIT:
                self.memory, self.leaf_memory, self.moves = keep.memory, keep.leaf_memory, keep.moves

    def check_clock(self) -> None:
        """Raise :class:`farmtable.core.clock.OutOfTime` once the deadline has passed."""
        if self.deadline is not None and time.process_time() > self.deadline:
            raise clock.OutOfTime

    def after_actions(self, pos: Position) -> list[After]:
        """:func:`actions`, computed once per position."""
        known = self.moves.get(pos)
        if known is None:
            known = self.moves[pos] = actions(pos)
        return known

    def expected(self, w: int, b: int, a: int, sw: int, sa: int, money: int, row: int) -> float:
        """:func:`race.expected_waiting` from the flattened table."""
        if money >= GOAL:
            return 1.0
        return self.waiting[(self.index[(w, b, a, sw, sa)] * 5 + row - 1) * GOAL + money]

    def largest_lead(self, pos: Position) -> float | None:
        """The mover's largest expected-turn lead after one action (:meth:`leaf`), or None if one reaches 70.

        The actions of :func:`actions` enumerated in place (no tuples built): each lead is the other's
        expected turns minus the mover's, both waiting for their row to be set from this one, the
        marketplace as the action leaves it.
        """
        mover, row, m0, m1, w0, b0, a0, w1, b1, a1, sw, sa, _ = pos
        if mover == 0:
            money, their, w, b, a, tw, tb, ta = m0, m1, w0, b0, a0, w1, b1, a1
        else:
            money, their, w, b, a, tw, tb, ta = m1, m0, w1, b1, a1, w0, b0, a0
        offsets, waiting = self.offsets, self.waiting
        shift = (row - 1) * GOAL
        wheat_sell, animal_sell = SELL_WHEAT[row], SELL_ANIMAL[row]
        if money + max(w * wheat_sell, b * BREAD, a * animal_sell) >= GOAL:
            return None
        top = -math.inf
        acted = False
        for pile in (0, 1):
            there = sw if pile == 0 else sa
            cost = BUY_WHEAT[row] if pile == 0 else BUY_ANIMAL[row]
            if not there or money < cost:
                continue
            acted = True
            if pile == 0:
                nw, na, nsw, nsa = w + 1, a, sw - 1, sa
            else:
                nw, na, nsw, nsa = w, a + 1, sw, sa - 1
            if nsw == 0 and nsa == 0:  # the empty-market sale: both farms sold, the marketplace refilled
                mine_money = money - cost + nw * wheat_sell + b * BREAD + na * animal_sell
                their_money = their + tw * wheat_sell + tb * BREAD + ta * animal_sell
                if mine_money >= GOAL:
                    return None
                start = offsets[0, 0, 0, FULL_WHEAT, FULL_ANIMALS] + shift
                theirs = 1.0 if their_money >= GOAL else waiting[start + their_money]
                ahead = theirs - waiting[start + mine_money]
            else:
                theirs = 1.0 if their >= GOAL else waiting[offsets[tw, tb, ta, nsw, nsa] + shift + their]
                ahead = theirs - waiting[offsets[nw, b, na, nsw, nsa] + shift + money - cost]
            if ahead > top:
                top = ahead
        theirs_start = shift + their
        for n in range(1, w + 1):
            theirs = 1.0 if their >= GOAL else waiting[offsets[tw, tb, ta, sw + n, sa] + theirs_start]
            ahead = theirs - waiting[offsets[w - n, b, a, sw + n, sa] + shift + money + n * wheat_sell]
            if ahead > top:
                top = ahead
        for n in range(1, b + 1):
            theirs = 1.0 if their >= GOAL else waiting[offsets[tw, tb, ta, sw + n, sa] + theirs_start]
            ahead = theirs - waiting[offsets[w, b - n, a, sw + n, sa] + shift + money + n * BREAD]
            if ahead > top:
                top = ahead
        for n in range(1, a + 1):
            theirs = 1.0 if their >= GOAL else waiting[offsets[tw, tb, ta, sw, sa + n] + theirs_start]
            ahead = theirs - waiting[offsets[w, b, a - n, sw, sa + n] + shift + money + n * animal_sell]
            if ahead > top:
                top = ahead
        theirs = 1.0 if their >= GOAL else waiting[offsets[tw, tb, ta, sw, sa] + theirs_start]
        for n in range(1, w + 1):  # bakes keep the marketplace and the money
            ahead = theirs - waiting[offsets[w - n, b + n, a, sw, sa] + shift + money]
            if ahead > top:
                top = ahead
        if not (acted or w or b or a):  # a pass (DA-FF4): nothing possible
            top = theirs - waiting[offsets[w, b, a, sw, sa] + shift + money]
        return top

    def leaf(self, pos: Position) -> float:
        """:meth:`duel.Search.leaf` on a tuple: the mover's best action judged by the race to 70.

        With ``spread`` the normal chance is monotone in the expected-turn lead, so the largest lead of
        the actions that do not reach 70 is found first and the chance taken once (the same float).
        """
        self.leaves += 1
        mover = pos[0]
        if pos[12] and mover == 1:
            return max(final_share(after) for after in self.after_actions(pos))
        known = self.leaf_memory.get(pos)
        if known is not None:
            return known
        row = pos[1]
        spread = self.spread
        best = 0.0
        if spread:
            top = self.largest_lead(pos)
            if top is None:  # an action reaches 70: every action through the general path
                top = -math.inf
                for after in self.after_actions(pos):
                    money, their, w, b, a, tw, tb, ta, sw, sa, _ = after
                    if money >= GOAL:
                        value = self.change_value(pos, after, 1)
                        if value > best:
                            best = value
                        continue
                    ahead = self.expected(tw, tb, ta, sw, sa, their, row) - self.expected(w, b, a, sw, sa, money, row)
                    if ahead > top:
                        top = ahead
            if top > -math.inf:
                value = normal_cdf((top - (1.0 if mover == 0 else 0.0)) / spread)
                if value > best:
                    best = value
            self.leaf_memory[pos] = best
            return best
        table = self.table
        for after in self.after_actions(pos):
            money, their, w, b, a, tw, tb, ta, sw, sa, _ = after
            if money >= GOAL:
                value = self.change_value(pos, after, 1)
            else:
                value = race.leaf_chance(
                    table, ([w, b, a], [sw, sa], money), ([tw, tb, ta], [sw, sa], their), row, mover == 1
                )
            if value > best:
                best = value
        self.leaf_memory[pos] = best
        return best

    def value(self, pos: Position, depth: int) -> float:
        """The mover's win chance at an action phase, ``depth`` whole turns searched (0: the leaf)."""
        if depth <= 0:
            return self.leaf(pos)
        key = (depth, pos)
        known = self.memory.get(key)
        if known is not None:
            return known
        self.check_clock()
        self.nodes += 1
        best = -1.0
        for after in self.after_actions(pos):
            value = self.change_value(pos, after, depth)
            if value > best:
                best = value
        self.memory[key] = best
        return best

    def end_value(self, pos: Position, after: After, row: int, depth: int) -> float:
        """The mover's win chance when the turn ends with the die on ``row`` (the Game End check, DA-FF6)."""
        mover = pos[0]
        money, their, w, b, a, tw, tb, ta, sw, sa, _ = after
        end = pos[12] or money >= GOAL
        if end and mover == 1:
            return final_share(after)
        if mover == 0:
            child: Position = (1, row, money, their, w, b, a, tw, tb, ta, sw, sa, end)
        else:
            child = (0, row, their, money, tw, tb, ta, w, b, a, sw, sa, end)
        return 1.0 - self.value(child, depth - 1)

    def row_values(self, pos: Position, after: After, depth: int) -> list[float]:
        """The mover's value of ending the turn on each row, rows 1-5 (:meth:`end_value` of each, inlined)."""
        money, their, w, b, a, tw, tb, ta, sw, sa, _ = after
        mover = pos[0]
        end = pos[12] or money >= GOAL
        if end and mover == 1:
            return [final_share(after)] * len(ROWS)
        if mover == 0:
            children = [(1, row, money, their, w, b, a, tw, tb, ta, sw, sa, end) for row in ROWS]
        else:
            children = [(0, row, their, money, tw, tb, ta, w, b, a, sw, sa, end) for row in ROWS]
        below = depth - 1
        out: list[float] = []
        if below <= 0:
            leaf_known = self.leaf_memory.get
            for child in children:
                known = leaf_known(child)
                out.append(1.0 - (self.leaf(child) if known is None else known))
            return out
        value_known = self.memory.get
        for child in children:
            known = value_known((below, child))
            out.append(1.0 - (self.value(child, below) if known is None else known))
        return out

    def change_value(self, pos: Position, after: After, depth: int) -> float:
        """The mover's best market change after their action (a forced reroll after an emptied market)."""
        values = self.row_values(pos, after, depth)
        reroll = SIXTH * (sum(values) + max(values))
        if after[10]:
            return reroll
        best = reroll
        for row in NEIGHBOURS[pos[1]]:
            if values[row - 1] > best:
                best = values[row - 1]
        return best


def root_values(search: Deep, world: FarmersFinancesState, depth: int) -> list[float]:
    """The mover's value of each legal action of ``world`` (action, market-change or pick phase), in order."""
    from farmtable.games.farmers_finances.rules import ACTION, AFTER_PICK_END_TURN, DECODE, MARKET

    mover = world.current
    legal = world.legal_actions(mover)
    if world.phase == ACTION:
        pos = position_of(world)
        afters = search.after_actions(pos)
        if len(afters) != len(legal):
            raise AssertionError("the tuple rules and the game disagree on the legal actions")
        return [search.change_value(pos, after, depth) for after in afters]
    if world.phase != MARKET and world.after_pick != AFTER_PICK_END_TURN:
        raise ValueError("a pick that does not end the turn belongs to a variant")
    pos, after = position_of(world), after_of(world)
    values = search.row_values(pos, after, depth)
    out = []
    for action in legal:
        kind, _, number = DECODE[action]
        out.append(SIXTH * (sum(values) + max(values)) if kind == "reroll" else values[number - 1])
    return out
