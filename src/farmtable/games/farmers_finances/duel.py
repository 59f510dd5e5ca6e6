"""A Farmers Finances player for two players: whole turns searched exactly, the race to 70 as the leaf.

With two players nothing in Farmers Finances is hidden but the future die rolls
(``FarmersFinancesState.determinize`` only draws a new random generator), so a decision can be
valued without sampling, by expectimax:

1. the player's **action** (buy, sell one sort, bake): a max node;
2. the **market change** that ends the turn: move the die one row, or reroll: a chance node over the
   five rows, and a rolled 6 lets the player pick the row (the best one for them);
3. with ``depth=2`` the **other player's whole turn** the same way (their action, then the row they
   leave for this player: they choose what is worst for this player), and so on for deeper searches;
4. at the leaf, a player about to act: their chance to win the race to 70
   (:func:`farmtable.games.farmers_finances.race.race_win_chance`), from the exact finishing-turn
   distributions of the relaxation solved in :mod:`farmtable.games.farmers_finances.race`: for the
   player to act at the row they face, for the other one before their row is set.

A finished game is worth 1 (won), 1/2 (shared) or 0; the last turn after player 1 reached 70
(DA-FF6) is valued exactly (player 2's best action against player 1's money, the tie rule included).

Values are win chances for the player to move, so one player's max is the other's min (the game is
zero-sum on win chances). Results at each depth are remembered during a decision (the same position
reached by two orders of actions is valued once). Deeper levels are searched one after the other
(iterative deepening) while the ``time`` budget lasts; the choice of the deepest finished level is
played, and depth 1 always finishes (a few dozen leaves).

:class:`DuelAgent` is the agent (spec ``farmers-finances-duel:time=1.0``); solo, with 3-4 players and
in any other game it plays like ``greedy``. ``docs/games/farmers-finances-ai.md`` has the measurements.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside
from farmtable.agents.greedy import greedy_choice
from farmtable.core import State, clock
from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances import deep, race
from farmtable.games.farmers_finances.rules import (
    ACTION,
    AFTER_PICK_END_TURN,
    ANIMAL,
    BUY_COST,
    DECODE,
    LAST_CARD_OF_A_PILE,
    MARKET,
    OVER,
    PICK,
    SELL_PRICE,
    SORT_INDEX,
    WHEAT,
    A,
    B,
    FarmersFinancesState,
    W,
)

ROWS: Final = c.MARKET_ROWS
SIXTH: Final = 1.0 / c.DIE_SIDES
DEPTHS: Final = (1, 2, 3, 4, 5, 6)
"""How many whole turns the search looks ahead: 1 = this player's turn, 2 = and the other's reply, 3 = and the next."""
STOCKS: Final = ("market", "free")
"""What each player's road may buy: the marketplace as it stands, or everything not in their own farm."""
BUDGET_SHARE: Final = 0.8
"""Share of a ``time`` budget after which a deeper level is abandoned (the rest covers the unwinding)."""


def normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def end_turn_at(state: FarmersFinancesState, row: int) -> FarmersFinancesState:
    """A copy of a market-change (or pick) position with the die put on ``row`` and the turn ended.

    This is what ``move row`` does, and what ``reroll`` (or ``pick row``) does when the die shows
    ``row``: the Game End check of the rules (``_end_turn``, DA-FF6) runs as in play.
    """
    child = state.clone()
    child.row = row
    child._legal = None
    child.forced_reroll = False
    child._end_turn()
    return child


def terminal_value(state: FarmersFinancesState, player: int) -> float:
    """A finished game for ``player``: 1 won, a share when the win is shared, 0 lost."""
    winners = state.result().winners
    return 1.0 / len(winners) if player in winners else 0.0


def last_turn_value(state: FarmersFinancesState) -> float:
    """The last player's final turn after the end was triggered (DA-FF6): their best chance, exactly.

    The market change that follows moves no money, so each action is finished with any market change
    (a move if there is one, else the die put on the current row) and the result read off.
    """
    mover = state.current
    best = 0.0
    for action in state.legal_actions(mover):
        child = state.clone()
        child.apply(mover, action)
        if child.phase != OVER:
            child = end_turn_at(child, child.row)
        best = max(best, terminal_value(child, mover) if child.phase == OVER else 0.5)
        if best >= 1.0:
            break
    return best


class Search:
    """The expectimax of one decision, with its memory and its clock."""

    def __init__(
        self, table: race.RaceTable, deadline: float | None, spread: float = 0.0, free_stock: bool = False
    ) -> None:
        self.table = table
        self.width = 0.0
        """Above 0: the leaf is the logistic of the expected-money margin with this width (coins), as the
        general search judges a position (for comparison)."""
        self.free_stock = free_stock
        """True: each player's road counts the other's farm back in the marketplace (their cards soon
        sold); False: the marketplace as it stands."""
        self.spread = spread
        """0: the leaf's win chance from both finishing distributions; else from the expected turns,
        their difference taken as normal with this spread (turns)."""
        self.deadline = deadline
        self.memory: dict[tuple[Any, ...], float] = {}
        self.leaf_memory: dict[tuple[Any, ...], float] = {}
        self.leaves = 0

    def check_clock(self) -> None:
        """Raise :class:`farmtable.core.clock.OutOfTime` once the budget's share is spent (the level is dropped)."""
        if self.deadline is not None and time.process_time() > self.deadline:
            raise clock.OutOfTime

    def leaf(self, state: FarmersFinancesState) -> float:
        """The mover's win chance at an action phase where the search stops.

        The mover's action is played through the rules (a buy that empties the marketplace sells
        *both* farms at this row, which the relaxation of either player alone cannot see); after it
        both players' roads are the relaxation's, each waiting for the other to set their row from
        this one, the other player to act first. An action that reaches 70 is searched on exactly
        (the market change and, after player 1, player 2's last turn).
        """
        self.leaves += 1
        if state.end_triggered and state.current == state.players - 1:
            return last_turn_value(state)
        key = (
            state.current,
            state.row,
            *state.money,
            *state.hands[0],
            *state.hands[1],
            *state.market,
        )
        known = self.leaf_memory.get(key)
        if known is not None:
            return known
        mover = state.current
        other = 1 - mover
        table = self.table
        row = state.row
        full = [c.WHEAT_CARDS_PER_COPY * state.copies, c.ANIMAL_CARDS_PER_COPY * state.copies]
        one_pile = LAST_CARD_OF_A_PILE in state.variants
        best = 0.0
        for action in state.legal_actions(mover):
            # The action played by hand (rules.FarmersFinancesState._take_action), no copy of the state.
            kind, sort, number = DECODE[action]
            mine, theirs = list(state.hands[mover]), state.hands[other]
            market = list(state.market)
            money, their_money = state.money[mover], state.money[other]
            if kind == "buy":
                pile = 0 if sort == WHEAT else 1
                money -= BUY_COST[sort, row]
                mine[SORT_INDEX[sort]] += 1
                market[pile] -= 1
                if market[pile] == 0 and (market[1 - pile] == 0 or one_pile):  # Empty market: both farms sold
                    money += sum(n * SELL_PRICE[s, row] for s, n in zip(c.SORTS, mine, strict=True))
                    their_money += sum(n * SELL_PRICE[s, row] for s, n in zip(c.SORTS, theirs, strict=True))
                    mine, theirs, market = [0, 0, 0], [0, 0, 0], full
            elif kind == "sell":
                money += number * SELL_PRICE[sort, row]
                mine[SORT_INDEX[sort]] -= number
                market[1 if sort == ANIMAL else 0] += number
            elif kind == "bake":
                mine[W] -= number
                mine[B] += number
            if self.free_stock:  # the other's farm counted back in the marketplace, for each player
                mine_market = [full[0] - mine[W] - mine[B], full[1] - mine[A]]
                their_market = [full[0] - theirs[W] - theirs[B], full[1] - theirs[A]]
            else:
                mine_market = their_market = market
            if money >= race.GOAL:
                value = self.action_value(state, mover, action, 1)
            elif self.width:
                # the general evaluation's estimate: money and farm at what it fetches soon, as a margin
                wheat = max(SELL_PRICE[WHEAT, row], c.BREAD_PRICE - 1)
                margin = (money + mine[W] * wheat + mine[B] * c.BREAD_PRICE + mine[A] * c.base_value(ANIMAL)) - (
                    their_money + theirs[W] * wheat + theirs[B] * c.BREAD_PRICE + theirs[A] * c.base_value(ANIMAL)
                )
                value = 0.5 * (1.0 + math.tanh(0.5 * margin / self.width))
            elif self.spread:
                # The other acts first; when the mover is player 1, the other's k-th turn falls a round
                # earlier than the mover's k-th, so the mover needs one turn fewer to be level.
                ahead = race.expected_waiting(table, theirs, their_market, their_money, row) - race.expected_waiting(
                    table, mine, mine_market, money, row
                )
                value = normal_cdf((ahead - (1.0 if mover == 0 else 0.0)) / self.spread)
            else:
                value = race.leaf_chance(
                    table, (mine, mine_market, money), (theirs, their_market, their_money), row, other == 0
                )
            if value > best:
                best = value
        self.leaf_memory[key] = best
        return best

    def value_for(self, state: FarmersFinancesState, player: int, depth: int) -> float:
        """``player``'s win chance in ``state`` with ``depth`` more whole turns searched."""
        if state.phase == OVER:
            return terminal_value(state, player)
        value = self.value(state, depth)
        return value if state.current == player else 1.0 - value

    def value(self, state: FarmersFinancesState, depth: int) -> float:
        """The mover's win chance (``state`` not over), their best choice searched ``depth`` turns deep."""
        if state.phase == ACTION and depth <= 0:
            return self.leaf(state)
        key = (
            depth,
            state.phase,
            state.current,
            state.row,
            state.end_triggered,
            state.forced_reroll,
            *state.money,
            *state.hands[0],
            *state.hands[1],
            *state.market,
        )
        known = self.memory.get(key)
        if known is not None:
            return known
        self.check_clock()
        mover = state.current
        best = max(self.action_value(state, mover, action, depth) for action in state.legal_actions(mover))
        self.memory[key] = best
        return best

    def row_values(self, state: FarmersFinancesState, mover: int, depth: int) -> dict[int, float]:
        """The mover's value of ending the turn with the die on each row (a market change)."""
        return {row: self.value_for(end_turn_at(state, row), mover, depth - 1) for row in ROWS}

    def action_value(self, state: FarmersFinancesState, mover: int, action: str, depth: int) -> float:
        """The mover's win chance after ``action`` (chance nodes averaged, later choices maximised)."""
        kind, _, number = DECODE[action]
        if state.phase == MARKET or (state.phase == PICK and state.after_pick == AFTER_PICK_END_TURN):
            if kind == "reroll":
                values = self.row_values(state, mover, depth)
                # "If you roll a 6 you can choose the new market-value freely": the best row.
                return SIXTH * (sum(values.values()) + max(values.values()))
            # move or pick: the die goes on that row and the turn ends
            return self.value_for(end_turn_at(state, number), mover, depth - 1)
        child = state.clone()
        child.apply(mover, action)
        return self.value_for(child, mover, depth)


def choose(
    world: FarmersFinancesState,
    depth: int,
    table: race.RaceTable,
    deadline: float | None,
    spread: float = 0.0,
    free_stock: bool = False,
    width: float = 0.0,
) -> tuple[int, int]:
    """(index of the best legal action, the deepest level finished): levels 1..``depth`` in turn.

    Level 1 always finishes; a deeper level cut short by ``deadline`` (CPU seconds, ``time.process_time``)
    is dropped and the previous level's choice kept. Ties go to the first action in legal order.
    """
    best, reached = 0, 0
    if not free_stock and not width and deep.covers(world):
        # The standard rules: the same values on tuples (deep.py), one memory across the levels.
        return choose_deep(world, depth, deep.Deep(table, None, spread), deadline)
    for level in range(1, depth + 1):
        search = Search(table, deadline if level > 1 else None, spread, free_stock)
        search.width = width
        mover = world.current
        try:
            values = [search.action_value(world, mover, action, level) for action in world.legal_actions(mover)]
        except clock.OutOfTime:
            break
        top = max(values)
        best, reached = values.index(top), level
    return best, reached


def choose_deep(world: FarmersFinancesState, depth: int, search: deep.Deep, deadline: float | None) -> tuple[int, int]:
    """:func:`choose` with the tuple search of :mod:`deep` (standard rules; ``search`` brings its memories)."""
    best, reached = 0, 0
    for level in range(1, depth + 1):
        search.deadline = deadline if level > 1 else None
        try:
            values = deep.root_values(search, world, level)
        except clock.OutOfTime:
            break
        top = max(values)
        best, reached = values.index(top), level
    return best, reached


class DuelAgent(Agent):
    """The expectimax of :func:`choose` as an agent (Farmers Finances with two players).

    ``depth``: whole turns searched (1-6; default 2; the Expert: 4); ``adversity``: the relaxation's share of turns
    whose row the other player sets to hurt (0-1; :data:`race.DEFAULT_ADVERSITY`); ``time``: CPU
    seconds a decision may take, counted from the call (without it a seeded game replays exactly:
    the player samples nothing). The leaf (see :meth:`Search.leaf`): by default the race from both
    finishing distributions; ``spread`` (turns, > 0): the normal chance of the expected-turn lead with
    that spread; ``width`` (coins, > 0): the logistic of the general evaluation's money margin instead
    (for comparison); ``stock=free``: each road may buy every card outside its own farm. The one-off
    solve of the relaxation (about 1.2-2 CPU s a process) is paid when the first such player of a
    process is made, so no decision pays it. With the standard rules the search runs on tuples
    (:mod:`farmtable.games.farmers_finances.deep`: the same values, cheaper) and keeps its memories from one
    decision to the next (not pickled). Solo, with 3-4 players and in other games it plays like ``greedy``.
    """

    name = "farmers-finances-duel"

    def __init__(
        self,
        seed: int | None = None,
        depth: int = 2,
        adversity: float = race.DEFAULT_ADVERSITY,
        time: float | None = None,
        spread: float = 0.0,
        stock: str = "market",
        width: float = 0.0,
    ) -> None:
        if isinstance(depth, bool) or depth not in DEPTHS:
            raise ValueError(f"depth must be one of {', '.join(map(str, DEPTHS))}, got {depth!r}")
        if isinstance(adversity, bool) or not isinstance(adversity, (int, float)) or not 0 <= adversity <= 1:
            raise ValueError(f"adversity must be a number from 0 to 1, got {adversity!r}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
            raise ValueError(f"time must be a positive number of CPU seconds, got {time!r}")
        if isinstance(spread, bool) or not isinstance(spread, (int, float)) or spread < 0:
            raise ValueError(f"spread must be a number of turns >= 0, got {spread!r}")
        if stock not in STOCKS:
            raise ValueError(f"stock must be one of {', '.join(STOCKS)}, got {stock!r}")
        if isinstance(width, bool) or not isinstance(width, (int, float)) or width < 0:
            raise ValueError(f"width must be a number of coins >= 0, got {width!r}")
        params: dict[str, Any] = {}
        if width:
            params["width"] = width
        if stock != "market":
            params["stock"] = stock
        if spread:
            params["spread"] = spread
        if depth != 2:
            params["depth"] = depth
        if adversity != race.DEFAULT_ADVERSITY:
            params["adversity"] = adversity
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.depth = depth
        self.adversity = float(adversity)
        self.spread = float(spread)
        self.free_stock = stock == "free"
        self.width = float(width)
        self.budget = None if time is None else float(time)
        self.rng = random.Random(seed)
        self.last_depth = 0
        """The deepest search level the last decision finished (0: it was not searched)."""
        self.search: deep.Deep | None = None
        """The last decision's tuple search, whose memories the next decision starts from."""
        # The one-off solve of the relaxation (cached per process) is paid here, when the player is made,
        # not inside a decision: the harnesses and the server make an agent before they time its moves.
        race.solve(self.adversity)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the kept search (its memories and the race table, tens of MB): the web sends
        the agent to a worker process and back at every move, and the memories only save time."""
        kept = self.__dict__.copy()
        kept["search"] = None
        return kept

    def act(self, state: State[Any], player: int) -> Any:
        """The duel choice (two players) or greedy's (anything else)."""
        legal = legal_actions_or_refuse(state, player)
        self.last_depth = 0
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        if not isinstance(world, FarmersFinancesState) or world.players != 2:
            return legal[greedy_choice(world, player, self.rng)]
        table = race.solve(self.adversity)  # cached: solved when the player was made
        start = time.process_time()
        deadline = None if self.budget is None else start + BUDGET_SHARE * self.budget
        with old_objects_set_aside():  # no full garbage collection inside the clock
            if not self.free_stock and not self.width and deep.covers(world):
                # the last decision's memories are kept (values of positions alone, bounded in size)
                self.search = deep.Deep(table, None, self.spread, self.search)
                index, self.last_depth = choose_deep(world, self.depth, self.search, deadline)
            else:
                index, self.last_depth = choose(
                    world, self.depth, table, deadline, self.spread, self.free_stock, self.width
                )
        return legal[index]
