"""Farmers Finances for many games at once: a batched numpy simulator of the 2–4 player rules.

``rules.py`` is the reference; this module plays the same rules on ``B`` games in parallel, every
field an array with one row per game, so a step is a few dozen numpy operations whatever ``B`` is.
It is checked against the engine move by move on random games (``tests/games/farmers_finances/
test_vector.py``): the same seed gives the same deal and the same die rolls (the engine's SplitMix64,
in ``uint64`` arithmetic), so the same decisions give the same game, bit for bit.

Covered: 2–4 players, no variant (the solo rules shuffle piles; ``empty-market-extra-change`` is a
second reading of one rule): anything else raises ``ValueError``. Seeds are below 2**64 (the
reproducible generator). Written to move to JAX: the state is a dict of arrays, :func:`step` and
:func:`legal_mask` are functions of arrays with no Python branch on a game's data (only on whether
*any* game needs a die roll, which a JAX version would replace by ``where`` over a drawn roll).

Actions are indices into :data:`actions` (``actions(players)``), the same catalogue as the RL
adapters (``farmtable.rl.farmers_finances``; a test pins them equal), and the legal ones of a game
are those of ``engine.legal_actions`` in the same order.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from farmtable.games.farmers_finances import components as c

U64 = np.uint64
_GOLDEN: Final = U64(0x9E3779B97F4A7C15)
_MIX1: Final = U64(0xBF58476D1CE4E5B9)
_MIX2: Final = U64(0x94D049BB133111EB)

ACTION, MARKET, PICK, OVER = 0, 1, 2, 3
"""Phase codes (``rules.PHASES`` in order)."""
PHASE_NAMES: Final = ("action", "market", "pick", "over")

BUY, SELL, BAKE, PASS, MOVE, REROLL, PICK_ROW = range(7)
"""Action kinds."""

WHEAT_I, BREAD_I, ANIMAL_I = 0, 1, 2
"""Columns of a hand (``c.SORTS`` order); a market has [wheat, animal]."""

ROWS: Final = np.array(c.MARKET_ROWS, dtype=np.int64)
BUY_COST: Final = np.array(
    [[0, 0]] + [[c.buy_cost(c.WHEAT, r), c.buy_cost(c.ANIMAL, r)] for r in c.MARKET_ROWS], dtype=np.int64
)
"""BUY_COST[row] = [wheat, animal] (row 0 unused)."""
SELL_PRICE: Final = np.array(
    [[0, 0, 0]] + [[c.sell_price(s, r) for s in c.SORTS] for r in c.MARKET_ROWS], dtype=np.int64
)
"""SELL_PRICE[row] = [wheat, bread, animal] (row 0 unused)."""


def check_setup(players: int, variants: tuple[str, ...] = ()) -> None:
    """Refuse what this simulator does not cover, saying so."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= c.MAX_PLAYERS:
        raise ValueError(f"the vector simulator plays 2–{c.MAX_PLAYERS} players, not {players!r} (solo: the engine)")
    if variants:
        raise ValueError(f"the vector simulator plays the standard rules only, not {', '.join(variants)}")


def actions(players: int) -> list[str]:
    """Every notation that can be legal for ``players`` (index = action number): the catalogue of this
    simulator and of the RL adapters alike. A farm never holds more cards of a sort than the game has."""
    copies = c.copies_for(players)
    wheat = c.WHEAT_CARDS_PER_COPY * copies
    most = {c.WHEAT: wheat, c.BREAD: wheat, c.ANIMAL: c.ANIMAL_CARDS_PER_COPY * copies}
    out = [f"buy {sort}" for sort in c.MARKET_SORTS]
    for sort in c.SORTS:
        out += [f"sell {sort} {n}" for n in range(1, most[sort] + 1)]
    out += [f"bake {n}" for n in range(1, wheat + 1)]
    out.append("pass")
    if players > 1:  # solo: the die is rolled for you, a 6 still lets you pick
        out += [f"move {row}" for row in c.MARKET_ROWS]
        out.append("reroll")
    out += [f"pick {row}" for row in c.MARKET_ROWS]
    return out


class Tables:
    """Per-player-count lookup tables: what each catalogue index does."""

    def __init__(self, players: int) -> None:
        check_setup(players)
        self.players = players
        self.names = actions(players)
        n = len(self.names)
        self.kind = np.zeros(n, dtype=np.int64)
        self.sort = np.zeros(n, dtype=np.int64)
        """The hand column (buy/sell) of an action."""
        self.number = np.zeros(n, dtype=np.int64)
        """Cards (sell/bake) or row (move/pick)."""
        words = {"buy": BUY, "sell": SELL, "bake": BAKE, "pass": PASS, "move": MOVE, "reroll": REROLL, "pick": PICK_ROW}
        for i, name in enumerate(self.names):
            parts = name.split()
            self.kind[i] = words[parts[0]]
            if parts[0] in ("buy", "sell"):
                self.sort[i] = c.SORTS.index(parts[1])
            if parts[-1].isdigit():
                self.number[i] = int(parts[-1])
        self.pass_index = self.names.index("pass")
        self.reroll_index = self.names.index("reroll")
        self.move_index = {r: self.names.index(f"move {r}") for r in c.MARKET_ROWS}
        self.pick_slice = slice(self.names.index("pick 1"), self.names.index("pick 5") + 1)
        self.sell_wheat = np.array([i for i, nm in enumerate(self.names) if nm.startswith("sell wheat")])
        self.sell_bread = np.array([i for i, nm in enumerate(self.names) if nm.startswith("sell bread")])
        self.sell_animal = np.array([i for i, nm in enumerate(self.names) if nm.startswith("sell animal")])
        self.bake = np.array([i for i, nm in enumerate(self.names) if nm.startswith("bake")])
        copies = c.copies_for(players)
        self.start_market = np.array(
            [c.WHEAT_CARDS_PER_COPY * copies, c.ANIMAL_CARDS_PER_COPY * copies], dtype=np.int64
        )


# --- the generator: SplitMix64 on uint64 arrays, draw for draw the engine's core.rng.Rng -------------


def next64(rng: np.ndarray) -> np.ndarray:
    """Advance every generator in ``rng`` (in place) and return each one's next 64-bit output."""
    with np.errstate(over="ignore"):
        rng += _GOLDEN
        z = rng.copy()
        z = (z ^ (z >> U64(30))) * _MIX1
        z = (z ^ (z >> U64(27))) * _MIX2
    out: np.ndarray = z ^ (z >> U64(31))
    return out


def below(rng: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Uniform integers in ``0 .. n-1`` per generator, without modulo bias: ``Rng.below`` exactly."""
    n64 = n.astype(U64)
    rest = (U64(0) - n64) % n64  # 2**64 mod n
    limit = U64(0) - rest  # draws at or above it are redrawn (none when rest is 0)
    x = next64(rng)
    bad = (rest != 0) & (x >= limit)
    while bad.any():  # about once in 10**18 draws; kept so the draws stay the engine's
        idx = np.flatnonzero(bad)
        sub = rng[idx]
        x[idx] = next64(sub)
        rng[idx] = sub
        bad[idx] = (rest[idx] != 0) & (x[idx] >= limit[idx])
    out: np.ndarray = (x % n64).astype(np.int64)
    return out


def _die(rng: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """One die roll (1..6) for each game in ``lanes`` (indices); only those generators advance."""
    sub = rng[lanes]
    roll = 1 + below(sub, np.full(len(lanes), c.DIE_SIDES, dtype=np.int64))
    rng[lanes] = sub
    return roll


# --- setup -------------------------------------------------------------------------------------


def new_games(players: int, seeds: np.ndarray) -> dict[str, np.ndarray]:
    """``len(seeds)`` new games, game ``i`` dealt as ``engine.new_game(players, seed=seeds[i])``."""
    check_setup(players)
    seeds = np.asarray(seeds)
    if seeds.ndim != 1 or (seeds < 0).any():
        raise ValueError("seeds must be a 1-d array of whole numbers 0 .. 2**64-1")
    b = len(seeds)
    tables = Tables(players)
    state: dict[str, np.ndarray] = {
        "rng": seeds.astype(U64),
        "row": np.zeros(b, dtype=np.int64),
        "last_roll": np.zeros(b, dtype=np.int64),
        "phase": np.full(b, ACTION, dtype=np.int64),
        "current": np.zeros(b, dtype=np.int64),
        "turn": np.ones(b, dtype=np.int64),
        "money": np.full((b, players), c.START_MONEY, dtype=np.int64),
        "hands": np.zeros((b, players, 3), dtype=np.int64),
        "market": np.tile(tables.start_market, (b, 1)),
        "end_triggered": np.zeros(b, dtype=bool),
        "forced_reroll": np.zeros(b, dtype=bool),
    }
    # Setup: "Roll the dice and determine the market value"; a 6 is rolled again (DA-FF3).
    todo = np.arange(b)
    while len(todo):
        roll = _die(state["rng"], todo)
        state["last_roll"][todo] = roll
        state["row"][todo] = roll
        todo = todo[roll == c.FREE_CHOICE_FACE]
    return state


# --- legal actions -------------------------------------------------------------------------------


def legal_mask(state: dict[str, np.ndarray], tables: Tables) -> np.ndarray:
    """``(B, actions)`` booleans: the legal actions of the player to act (all False once a game is over).

    Built action-major (a C-ordered ``(actions, B)`` array, returned transposed), so each action's
    column is one contiguous write and :func:`pick_random` scans along contiguous rows.
    """
    b = len(state["row"])
    lanes = np.arange(b)
    phase, row = state["phase"], state["row"]
    hand = state["hands"][lanes, state["current"]].T  # (3, B)
    money = state["money"][lanes, state["current"]]
    mask = np.zeros((len(tables.names), b), dtype=bool)
    act = phase == ACTION
    cost = BUY_COST[row].T  # (2, B)
    market = state["market"].T
    mask[0] = act & (market[0] > 0) & (money >= cost[0])
    mask[1] = act & (market[1] > 0) & (money >= cost[1])
    for cols, held in (
        (tables.sell_wheat, hand[WHEAT_I]),
        (tables.sell_bread, hand[BREAD_I]),
        (tables.sell_animal, hand[ANIMAL_I]),
        (tables.bake, hand[WHEAT_I]),
    ):
        for n, i in enumerate(cols, start=1):
            mask[i] = act & (held >= n)
    mask[tables.pass_index] = (
        act & ~mask[0] & ~mask[1] & (hand[WHEAT_I] == 0) & (hand[BREAD_I] == 0) & (hand[ANIMAL_I] == 0)
    )
    in_market = phase == MARKET
    free = in_market & ~state["forced_reroll"]
    for r, i in tables.move_index.items():
        mask[i] = free & ((row == r - 1) | (row == r + 1))
    mask[tables.reroll_index] = in_market
    mask[tables.pick_slice] = phase == PICK
    out: np.ndarray = mask.T
    return out


# --- a step --------------------------------------------------------------------------------------


def step(state: dict[str, np.ndarray], tables: Tables, chosen: np.ndarray) -> None:
    """Play catalogue action ``chosen[i]`` in every game ``i`` that is not over (in place).

    The actions must be legal (``legal_mask``); games already over are left as they are.
    """
    live = state["phase"] != OVER
    lanes = np.arange(len(live))
    kind = np.where(live, tables.kind[chosen], -1)
    sort = tables.sort[chosen]
    number = tables.number[chosen]
    row, cur = state["row"], state["current"]
    money, hands, market = state["money"], state["hands"], state["market"]

    # Buy: pay, take the card; the last card of the marketplace starts the selling-phase (DA-FF10).
    is_buy = kind == BUY
    stack = np.where(sort == ANIMAL_I, 1, 0)
    bl = lanes[is_buy]
    money[bl, cur[bl]] -= BUY_COST[row[bl], stack[bl]]
    hands[bl, cur[bl], sort[bl]] += 1
    market[bl, stack[bl]] -= 1
    emptied = bl[(market[bl] == 0).all(axis=1)]
    if len(emptied):
        prices = SELL_PRICE[row[emptied]]  # (E, 3)
        money[emptied] += (hands[emptied] * prices[:, None, :]).sum(axis=2)
        market[emptied, 0] += (hands[emptied, :, WHEAT_I] + hands[emptied, :, BREAD_I]).sum(axis=1)
        market[emptied, 1] += hands[emptied, :, ANIMAL_I].sum(axis=1)
        hands[emptied] = 0
        state["forced_reroll"][emptied] = True  # DA-FF5: this turn's market change is that reroll

    # Sell: n cards of one sort at the row's price (bread always 7); they go back to the market.
    sl = lanes[kind == SELL]
    money[sl, cur[sl]] += number[sl] * SELL_PRICE[row[sl], sort[sl]]
    hands[sl, cur[sl], sort[sl]] -= number[sl]
    market[sl, np.where(sort[sl] == ANIMAL_I, 1, 0)] += number[sl]

    # Make bread: flip n wheat.
    kl = lanes[kind == BAKE]
    hands[kl, cur[kl], WHEAT_I] -= number[kl]
    hands[kl, cur[kl], BREAD_I] += number[kl]

    took_action = (kind == BUY) | (kind == SELL) | (kind == BAKE) | (kind == PASS)
    state["phase"][took_action] = MARKET

    # Change market: move the die one row / pick a row after a 6 -> the turn ends.
    moved = (kind == MOVE) | (kind == PICK_ROW)
    row[moved] = number[moved]
    ends = moved.copy()

    # Reroll: 1-5 sets the row and ends the turn; a 6 lets the player pick the row.
    rl = lanes[kind == REROLL]
    if len(rl):
        state["forced_reroll"][rl] = False
        roll = _die(state["rng"], rl)
        state["last_roll"][rl] = roll
        six = roll == c.FREE_CHOICE_FACE
        state["phase"][rl[six]] = PICK
        row[rl[~six]] = roll[~six]
        ends[rl[~six]] = True

    _end_turn(state, tables, lanes[ends])


def _end_turn(state: dict[str, np.ndarray], tables: Tables, el: np.ndarray) -> None:
    """Game End: reaching 70 triggers the last round; the game ends after the last seat's turn."""
    state["forced_reroll"][el] = False
    cur = state["current"]
    reached = state["money"][el, cur[el]] >= c.GOAL_MONEY
    state["end_triggered"][el[reached]] = True
    over = state["end_triggered"][el] & (cur[el] == tables.players - 1)
    state["phase"][el[over]] = OVER
    go = el[~over]
    cur[go] = (cur[go] + 1) % tables.players
    state["turn"][go] += 1
    state["phase"][go] = ACTION


# --- random play, results ------------------------------------------------------------------------


def pick_random(policy_rng: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For each game, the ``k``-th legal action with ``k = Rng.below(count)`` from ``policy_rng`` (advanced).

    Games with no legal action get index 0 and their generator does not move.
    """
    by_action = mask.T  # (actions, B): contiguous when the mask came from legal_mask
    count = by_action.sum(axis=0, dtype=np.int64)
    k = np.zeros(len(count), dtype=np.int64)
    live = np.flatnonzero(count > 0)
    if len(live):
        sub = policy_rng[live]
        k[live] = below(sub, count[live])
        policy_rng[live] = sub
    # The k-th legal action is the number of actions whose running count of legal ones is still <= k
    # (row by row: numpy's cumsum along the short axis is many times slower).
    seen = np.zeros(len(count), dtype=np.int64)
    chosen = np.zeros(len(count), dtype=np.int64)
    for legal in by_action:
        seen += legal
        chosen += seen <= k
    out: np.ndarray = np.where(count > 0, chosen, 0)
    return out


def take(state: dict[str, np.ndarray], lanes: np.ndarray) -> dict[str, np.ndarray]:
    """The games ``lanes`` of a batch as a batch of their own (copies)."""
    return {key: value[lanes] for key, value in state.items()}


def play_random(players: int, seeds: np.ndarray, policy_seeds: np.ndarray) -> dict[str, Any]:
    """Play every game to the end with :func:`pick_random`; returns the final state and decisions per game.

    Finished games are dropped from the working batch once they are half of it, so the long tail
    of a few long games does not pay for the whole batch.
    """
    tables = Tables(players)
    final = new_games(players, seeds)
    state = take(final, np.arange(len(seeds)))
    where = np.arange(len(seeds))  # state lane -> game
    policy = np.asarray(policy_seeds).astype(U64)
    decisions = np.zeros(len(seeds), dtype=np.int64)
    while len(where):
        live = state["phase"] != OVER
        if live.sum() * 2 < len(live):
            done = ~live
            for key, value in state.items():
                final[key][where[done]] = value[done]
            state = take(state, np.flatnonzero(live))
            where = where[live]
            if not len(where):
                break
            live = np.ones(len(where), dtype=bool)
        mask = legal_mask(state, tables)
        sub = policy[where]
        chosen = pick_random(sub, mask)
        policy[where] = sub
        decisions[where] += live
        step(state, tables, chosen)
    for key, value in state.items():
        final[key][where] = value
    return {"state": final, "decisions": decisions}


def totals(state: dict[str, np.ndarray]) -> np.ndarray:
    """``(B, players)`` final totals: the money (``scoring.score_sheet``'s totals)."""
    out: np.ndarray = state["money"].copy()
    return out
