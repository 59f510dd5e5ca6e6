"""The Farmers Finances solo game, solved: the fewest expected turns to 70 coins from any position.

The solo game (rulebook "Solo Play") is small: six goods cards (4 wheat, 2 animals), money 0–69,
five market rows. A decision state, as the player knows it, is

- the money ``m`` (0–69; 70 or more ends the game),
- the farm: wheat ``w``, bread ``b``, animals ``a``,
- the two piles: their sizes ``L`` and ``R`` and their top cards (the only cards one can see),
- the market row the die shows this turn.

The order of the hidden cards under the two tops is modelled as the player's *belief*: every
hidden card is equally likely to lie at any hidden place (exactly what
:meth:`FarmersFinancesState.determinize` samples, design assumption DA-FF9). A player with a
perfect memory could sometimes know more (sold cards go under the left pile); the solution here is
optimal for a player who plays on the determinization, and the real engine is used to measure it.

The turn number is not part of the state: the game is a stochastic shortest-path problem (each
turn costs 1), so the expected number of *further* turns ``D(s)`` does not depend on it.
Bellman equations (one turn = one action, then the next turn's die):

    D(s)   = min over legal actions a of  E[ C(u) | s, a ]       (u: the position after the action)
    C(u)   = 0                                   if u has 70 coins or more
           = 1 + 1/6 Σ_{d=1..5} D(u with the market on row d)
               + 1/6 · (0 if the 6-sale reaches 70 else D(u with the farm sold at u's row))

Buying reveals the next card of the pile (a chance outcome weighted by the hidden cards), and
buying the last card of a pile sells the farm and deals two fresh piles (every deal counted).
Selling puts the cards under the left pile. The table is computed once by value iteration over
sparse matrices (scipy) to a tolerance of 1e-10 turns and kept in memory (about a second).

``evaluate()`` for solo is ``-(turn + D(s))``; :func:`action_values` gives ``E[C(u)]`` for every
legal action, so the one-step expectimax :func:`best_action` plays optimally.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

try:
    import numpy as np
    import numpy.typing as npt
    from scipy import sparse
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(
        "the Farmers Finances solver (the solo AI's evaluation) needs numpy and scipy: pip install numpy scipy"
    ) from missing

from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances.rules import (
    ACTION,
    ANIMAL,
    BAKE,
    BUY,
    OVER,
    PICK,
    SELL,
    SOLO_SIX_CHOOSE,
    WHEAT,
    FarmersFinancesState,
)

BREAD: Final = c.BREAD
MONEY_STATES: Final = c.GOAL_MONEY
"""Money 0 … 69 at a decision (70 or more has ended the game)."""
ROWS: Final = len(c.MARKET_ROWS)
CARDS: Final = c.CARDS_PER_COPY
TOLERANCE: Final = 1e-10
"""Value iteration stops when no value moves by more than this many turns."""
MAX_SWEEPS: Final = 5_000
"""A bound on value iteration sweeps (far above what convergence takes)."""
NEVER: Final = 300.0
"""Value iteration caps the expected turns here: a position that reaches it can never get to 70
(no coins, no cards: nothing can be bought or sold) and its value becomes infinite."""

FloatArray = npt.NDArray[np.float64]

Config = tuple[int, int, int, int, int, str, str]
"""Everything but money and row: (wheat, bread, animals, left size, right size, left top, right top)."""


@dataclass(frozen=True)
class Outcome:
    """One chance outcome of an action: its probability, the coins it adds, the config it leads to."""

    probability: float
    coins: int
    config: Config
    fresh: bool = False
    """True: the pile ran out, the farm was sold (in ``coins``) and two fresh piles were dealt."""


def _hidden(config: Config) -> tuple[int, int]:
    """The hidden (wheat, animal) cards under the two tops."""
    w, b, a, _, _, top_left, top_right = config
    tops = (top_left, top_right)
    return (
        c.WHEAT_CARDS_PER_COPY - w - b - tops.count(WHEAT),
        c.ANIMAL_CARDS_PER_COPY - a - tops.count(ANIMAL),
    )


def configs() -> list[Config]:
    """Every consistent (farm, pile sizes, pile tops) the solo game can show, in a fixed order."""
    found: list[Config] = []
    for a in range(c.ANIMAL_CARDS_PER_COPY + 1):
        for w in range(c.WHEAT_CARDS_PER_COPY + 1):
            for b in range(c.WHEAT_CARDS_PER_COPY + 1 - w):
                piles = CARDS - w - b - a
                for left in range(1, piles):
                    for top_left in c.MARKET_SORTS:
                        for top_right in c.MARKET_SORTS:
                            config = (w, b, a, left, piles - left, top_left, top_right)
                            if min(_hidden(config)) >= 0:
                                found.append(config)
    return found


def fresh_deal() -> list[tuple[float, Config]]:
    """The piles after "shuffle all cards into one stack, split this into two piles": tops by chance."""
    wheat, animals = c.WHEAT_CARDS_PER_COPY, c.ANIMAL_CARDS_PER_COPY
    half = (CARDS + 1) // 2
    deals: list[tuple[float, Config]] = []
    for top_left in c.MARKET_SORTS:
        for top_right in c.MARKET_SORTS:
            first = (wheat if top_left == WHEAT else animals) / CARDS
            wheat_after = wheat - (top_left == WHEAT)
            animals_after = animals - (top_left == ANIMAL)
            second = (wheat_after if top_right == WHEAT else animals_after) / (CARDS - 1)
            if first * second > 0:
                deals.append((first * second, (0, 0, 0, half, CARDS - half, top_left, top_right)))
    return deals


def farm_sale(config: Config, row: int) -> int:
    """What selling the whole farm brings with the market on ``row`` (a rolled 6, an empty pile)."""
    w, b, a = config[:3]
    return w * c.sell_price(WHEAT, row) + b * c.BREAD_PRICE + a * c.sell_price(ANIMAL, row)


def sold(config: Config) -> Config:
    """The config after the farm is sold: the cards go under the left pile, the tops stay."""
    w, b, a, left, right, top_left, top_right = config
    return (0, 0, 0, left + w + b + a, right, top_left, top_right)


def actions(config: Config) -> Iterator[str]:
    """The action notations that may be legal in ``config`` (buying also needs the coins)."""
    w, b, a, _, _, top_left, top_right = config
    for sort in c.MARKET_SORTS:
        if sort in (top_left, top_right):
            yield BUY[sort]
    for sort, held in ((WHEAT, w), (BREAD, b), (ANIMAL, a)):
        yield from SELL[sort][1 : held + 1]
    yield from BAKE[1 : w + 1]


def outcomes(config: Config, row: int, action: str) -> list[Outcome]:
    """The chance outcomes of ``action`` taken in ``config`` with the market on ``row``."""
    w, b, a, left, right, top_left, top_right = config
    kind, _, rest = action.partition(" ")
    if kind == "buy":
        sort = rest
        cost = c.buy_cost(sort, row)
        farm = (w + (sort == WHEAT), b, a + (sort == ANIMAL))
        from_right = top_right == sort
        size = right if from_right else left
        if size == 1:  # Solo "Empty market": sell everything, shuffle all cards, split into two piles.
            sale = farm_sale((*farm, 0, 0, WHEAT, WHEAT), row)
            return [Outcome(p, sale - cost, deal, fresh=True) for p, deal in fresh_deal()]
        hidden_wheat, hidden_animals = _hidden(config)
        hidden = hidden_wheat + hidden_animals
        found: list[Outcome] = []
        for revealed, count in ((WHEAT, hidden_wheat), (ANIMAL, hidden_animals)):
            if count == 0:
                continue
            if from_right:
                after: Config = (*farm, left, right - 1, top_left, revealed)
            else:
                after = (*farm, left - 1, right, revealed, top_right)
            found.append(Outcome(count / hidden, -cost, after))
        return found
    if kind == "sell":
        sort, _, count_text = rest.partition(" ")
        count = int(count_text)
        w_after, b_after, a_after = (
            w - count * (sort == WHEAT),
            b - count * (sort == BREAD),
            a - count * (sort == ANIMAL),
        )
        gain = count * c.sell_price(sort, row)
        return [Outcome(1.0, gain, (w_after, b_after, a_after, left + count, right, top_left, top_right))]
    if kind == "bake":
        count = int(rest)
        return [Outcome(1.0, 0, (w - count, b + count, a, left, right, top_left, top_right))]
    return [Outcome(1.0, 0, config)]  # pass


@dataclass
class SoloSolution:
    """The solved solo game: ``remaining[config, row - 1, money]`` = expected further turns under optimal play."""

    index: dict[Config, int]
    remaining: FloatArray
    six_choose: bool
    sweeps: int
    finish_by_turn: FloatArray
    """``finish_by_turn[t]``: probability that optimal play ends the game on turn t (t = 1 …; entry 0 is 0);
    empty for 'solo-six-choose'."""

    def config_of(self, state: FarmersFinancesState) -> Config:
        """The belief config of a solo position (farm, pile sizes, pile tops); hidden order ignored."""
        w, b, a = state.hands[0]
        return (w, b, a, len(state.left), len(state.right), state.left[-1], state.right[-1])

    def remaining_turns(self, state: FarmersFinancesState) -> float:
        """Expected turns still to come after this one, under optimal play (0 once the game is over)."""
        _check_solo(state, self)
        if state.phase == OVER:
            return 0.0
        values = self.remaining[self.index[self.config_of(state)], :, state.money[0]]
        if state.phase == PICK:
            return float(values.min())
        return float(values[state.row - 1])

    def expected_total_turns(self, state: FarmersFinancesState) -> float:
        """The expected final turn count (``-Result.objective``) from ``state`` under optimal play."""
        return state.turn + self.remaining_turns(state)

    def after_value(self, config: Config, row: int, money: int) -> float:
        """``C(u)``: expected further turns after an action left ``config`` and ``money`` on ``row``."""
        if money >= c.GOAL_MONEY:
            return 0.0
        table = self.remaining
        rolls = float(table[self.index[config], :, money].sum())
        after_sale = money + farm_sale(config, row)
        if after_sale < c.GOAL_MONEY:
            sold_row = table[self.index[sold(config)], :, after_sale]
            rolls += float(sold_row.min() if self.six_choose else sold_row[row - 1])
        return 1.0 + rolls / c.DIE_SIDES

    def action_values(self, state: FarmersFinancesState) -> dict[str, float]:
        """For each legal action: the expected further turns after it (lower is better)."""
        _check_solo(state, self)
        if state.phase != ACTION:
            if state.phase == PICK:
                row_values = self.remaining[self.index[self.config_of(state)], :, state.money[0]]
                return {f"pick {row}": float(row_values[row - 1]) for row in c.MARKET_ROWS}
            return {}
        config, row, money = self.config_of(state), state.row, state.money[0]
        values: dict[str, float] = {}
        for action in state.legal_actions(0):
            values[action] = sum(
                o.probability * self.after_value(o.config, row, money + o.coins) for o in outcomes(config, row, action)
            )
        return values

    def best_action(self, state: FarmersFinancesState) -> str:
        """The optimal action (first in legal order among equals): one-step expectimax on the table."""
        values = self.action_values(state)
        if not values:
            raise ValueError("the game is over: no action to choose")
        return min(values, key=lambda action: values[action])

    def start_distribution(self) -> list[tuple[float, int, int]]:
        """The first decision of a solo game: (probability, config index, row) after setup and turn 1's roll."""
        return _start(self.index)

    def expected_turns_from_start(self) -> float:
        """The optimal expected number of turns of a solo game from the deal (turn 1 included)."""
        return 1.0 + sum(
            p * float(self.remaining[i, row - 1, c.START_MONEY]) for p, i, row in self.start_distribution()
        )

    def share_within(self, turns: int) -> float:
        """The probability that optimal play reaches 70 coins by turn ``turns`` (exact, from the deal).

        Known for the plain solo rules only (ValueError with 'solo-six-choose').
        """
        if not len(self.finish_by_turn):
            raise ValueError("the turn distribution is computed for the plain solo rules only")
        return float(self.finish_by_turn[: turns + 1].sum())


def _check_solo(state: FarmersFinancesState, solution: SoloSolution) -> None:
    if not state.solo:
        raise ValueError("the solver solves the solo game; this game has several players")
    if (SOLO_SIX_CHOOSE in state.variants) != solution.six_choose:
        raise ValueError("this solution was computed for another solo variant; use solution(variants)")


# --- value iteration -------------------------------------------------------------------------------


@dataclass
class _Model:
    """The solo game as sparse matrices over decision states ``(config, row, money)`` flattened."""

    index: dict[Config, int]
    choice: sparse.csr_matrix
    """Rows (state, action slot): probability of each after-action state; missing mass = game won."""
    slots: int
    legal: npt.NDArray[np.bool_]
    roll: sparse.csr_matrix
    """After-action state → next decision state by a die of 1–5 (weights 1/6 each)."""
    six: sparse.csr_matrix
    """After-action state → the state after a rolled 6 sold the farm (weight 1/6; missing = game won)."""


def _flat(config_index: int, row: int, money: int) -> int:
    return (config_index * ROWS + row - 1) * MONEY_STATES + money


def _build(six_choose: bool) -> _Model:
    all_configs = configs()
    index = {config: i for i, config in enumerate(all_configs)}
    per_config = [list(actions(config)) for config in all_configs]
    slots = max(len(names) for names in per_config) + 1  # + pass
    states = len(all_configs) * ROWS * MONEY_STATES
    money = np.arange(MONEY_STATES)
    rows: list[npt.NDArray[np.int64]] = []
    cols: list[npt.NDArray[np.int64]] = []
    vals: list[npt.NDArray[np.float64]] = []
    legal = np.zeros((states, slots), dtype=bool)
    for ci, config in enumerate(all_configs):
        for row in c.MARKET_ROWS:
            base = _flat(ci, row, 0)
            any_legal = np.zeros(MONEY_STATES, dtype=bool)
            for slot, action in enumerate(per_config[ci]):
                cost = c.buy_cost(action[4:], row) if action.startswith("buy") else 0
                can = money >= cost
                any_legal |= can
                legal[base + money[can], slot] = True
                for outcome in outcomes(config, row, action):
                    after = money + outcome.coins
                    keep = can & (after < c.GOAL_MONEY)
                    target = index[outcome.config]
                    rows.append((base + money[keep]) * slots + slot)
                    cols.append(_flat(target, row, 0) + after[keep])
                    vals.append(np.full(int(keep.sum()), outcome.probability))
            stuck = ~any_legal  # "pass": no action possible (DA-FF4)
            legal[base + money[stuck], slots - 1] = True
            rows.append((base + money[stuck]) * slots + slots - 1)
            cols.append(base + money[stuck])
            vals.append(np.ones(int(stuck.sum())))
    choice = sparse.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(states * slots, states)
    )
    roll_rows, roll_cols, six_rows, six_cols = [], [], [], []
    for ci, config in enumerate(all_configs):
        sold_index = index[sold(config)]
        for row in c.MARKET_ROWS:
            base = _flat(ci, row, 0)
            for die in c.MARKET_ROWS:
                roll_rows.append(base + money)
                roll_cols.append(_flat(ci, die, 0) + money)
            after = money + farm_sale(config, row)
            keep = after < c.GOAL_MONEY
            for target_row in c.MARKET_ROWS if six_choose else (row,):
                six_rows.append(base + money[keep])
                six_cols.append(_flat(sold_index, target_row, 0) + after[keep])
    roll_r, roll_c = np.concatenate(roll_rows), np.concatenate(roll_cols)
    roll = sparse.csr_matrix((np.full(len(roll_r), 1.0 / c.DIE_SIDES), (roll_r, roll_c)), shape=(states, states))
    six_r, six_c = np.concatenate(six_rows), np.concatenate(six_cols)
    six = sparse.csr_matrix((np.ones(len(six_r)), (six_r, six_c)), shape=(states, states))
    return _Model(index, choice, slots, legal, roll, six)


def _after_values(model: _Model, remaining: FloatArray, six_choose: bool) -> FloatArray:
    """``C(u)`` for every after-action state (before adding the win check, which is in ``choice``)."""
    if six_choose:
        # A 6 lets the player pick the row: ``six`` links to all five rows; each holds the best row's value.
        best = remaining.reshape(-1, ROWS, MONEY_STATES).min(axis=1)
        spread = np.repeat(best[:, None, :], ROWS, axis=1).reshape(-1)
        sale_term = model.six.dot(spread) / ROWS
    else:
        sale_term = model.six.dot(remaining)
    # A sale that reaches 70 has no entry in ``six``: it adds nothing (the game ends on that turn).
    result: FloatArray = 1.0 + model.roll.dot(remaining) + sale_term / c.DIE_SIDES
    return result


def _iterate(model: _Model, six_choose: bool) -> tuple[FloatArray, npt.NDArray[np.int64], int]:
    """Value iteration from 0; positions that can never reach 70 climb to ``NEVER`` and are marked inf.

    Returns the values, the optimal action slot of every state and the number of sweeps.
    """
    states = model.legal.shape[0]
    remaining = np.zeros(states)
    illegal = ~model.legal
    for sweep in range(1, MAX_SWEEPS + 1):
        after = _after_values(model, remaining, six_choose)
        q = model.choice.dot(after).reshape(states, model.slots)
        q[illegal] = np.inf
        new = np.minimum(q.min(axis=1), NEVER)
        change = float(np.abs(new - remaining).max())
        remaining = new
        if change < TOLERANCE:
            finite = remaining < NEVER
            if float(remaining[finite].max()) >= NEVER / 2:
                raise RuntimeError("a position needs nearly NEVER turns: raise NEVER")
            policy = np.asarray(q.argmin(axis=1), dtype=np.int64)
            return np.where(finite, remaining, np.inf), policy, sweep
    raise RuntimeError(f"value iteration did not converge in {MAX_SWEEPS} sweeps")


def _finish_by_turn(model: _Model, policy: npt.NDArray[np.int64], start: FloatArray) -> FloatArray:
    """Push the start distribution through optimal play: the probability of ending on each turn."""
    states = model.legal.shape[0]
    chosen = model.choice[np.arange(states) * model.slots + policy]  # rows: state -> after-action state
    chosen_t, roll_t = chosen.T.tocsr(), model.roll.T.tocsr()
    six_t = model.six.T.tocsr()
    finished = [0.0]
    mass = start
    carried = 0.0  # games ended by a 6-sale at the start of the next turn
    while mass.sum() > 1e-13 and len(finished) < 10 * int(NEVER):
        after = chosen_t.dot(mass)
        finished.append(carried + float(mass.sum() - after.sum()))
        mass = roll_t.dot(after) + six_t.dot(after) / c.DIE_SIDES
        carried = float(after.sum() - mass.sum())
    finished.append(carried)
    shares: FloatArray = np.maximum(np.array(finished), 0.0)
    return shares  # float rounding leaves -1e-16 where nothing ends


@functools.cache
def solution(six_choose: bool = False) -> SoloSolution:
    """The solved solo game (computed on first use, then kept): ``six_choose`` for the 'solo-six-choose' variant."""
    model = _build(six_choose)
    remaining, policy, sweeps = _iterate(model, six_choose)
    table = remaining.reshape(len(model.index), ROWS, MONEY_STATES)
    start = np.zeros(len(remaining))
    for probability, config, row in _start(model.index):
        start[_flat(config, row, c.START_MONEY)] += probability
    # With 'solo-six-choose' a 6 picks the best row; the forward pass below knows only the plain rule.
    finish = np.zeros(0) if six_choose else _finish_by_turn(model, policy, start)
    return SoloSolution(model.index, table, six_choose, sweeps, finish)


def _start(index: dict[Config, int]) -> list[tuple[float, int, int]]:
    # Setup rolls a row 1-5; turn 1 rolls again: 1-5 sets the row, a 6 (empty farm) leaves setup's row.
    # Either way the row is uniform over 1..5.
    return [(p / ROWS, index[deal], row) for p, deal in fresh_deal() for row in c.MARKET_ROWS]


def solution_for(state: FarmersFinancesState) -> SoloSolution:
    """The solution of the solo variant ``state`` is played with."""
    return solution(SOLO_SIX_CHOOSE in state.variants)


@functools.cache
def best_share_within(turns: int) -> float:
    """The highest probability any policy has of reaching 70 by turn ``turns`` (plain solo rules).

    A different question from the fewest expected turns: a finite-horizon value iteration of
    "finish within k more turns" (k = 0 … turns - 1), maximised action by action. It bounds
    what any agent (of the belief model) can score on a "within N turns" target.
    """
    if turns < 1:
        raise ValueError(f"turns must be at least 1, got {turns}")
    model = _build(False)
    states = model.legal.shape[0]
    won_now = 1.0 - np.asarray(model.choice.sum(axis=1)).ravel()  # the action itself reaches 70
    six_won = 1.0 - np.asarray(model.six.sum(axis=1)).ravel()  # a rolled 6's sale reaches 70
    illegal = ~model.legal
    within = np.zeros(states)  # finish within k more turns; k = -1: impossible
    for k in range(turns):
        after = model.roll.dot(within) + (model.six.dot(within) + six_won) / c.DIE_SIDES if k else np.zeros(states)
        q = (won_now + model.choice.dot(after)).reshape(states, model.slots)
        q[illegal] = -np.inf
        within = q.max(axis=1)
    index = {config: i for i, config in enumerate(configs())}
    return float(sum(p * within[_flat(i, row, c.START_MONEY)] for p, i, row in _start(index)))
