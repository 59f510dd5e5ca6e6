"""Farmers Finances for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/farmers-finances.md``; numbers: ``games/farmers_finances/components.py``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from farmtable.core import Result, State
from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances.vector import actions as catalogue
from farmtable.rl.catalogue import FastEncode, RLGame, Spec
from farmtable.rl.encoding import INF, BySeat, Fields, Flag, Num, OneHot

PHASES = ("action", "market", "pick", "over")
"""The phases a view names (``rules.PHASES``)."""


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Every notation that can be legal (the game's one catalogue, shared with the vector simulator)."""
    return catalogue(players)


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: the market, every farm and purse (all public), solo the two pile tops."""
    cards = float(c.CARDS_PER_COPY * c.copies_for(players))
    farm = Fields(tuple((sort, Num(high=cards, doc=f"{sort} cards")) for sort in c.SORTS))
    pile = Fields((("top", OneHot(c.MARKET_SORTS, "top card")), ("size", Num(high=cards, doc="cards in the pile"))))
    return Fields(
        (
            ("phase", OneHot(PHASES, "phase")),
            ("turn", Num(doc="turn number")),
            ("row", OneHot(c.MARKET_ROWS, "market row of the die")),
            ("last_roll", OneHot(tuple(range(1, c.DIE_SIDES + 1)), "last die roll")),
            ("buy_prices", Fields(tuple((s, Num(high=20, doc=f"{s} buy cost")) for s in c.MARKET_SORTS))),
            ("sell_prices", Fields(tuple((s, Num(high=20, doc=f"{s} sell price")) for s in c.SORTS))),
            ("money", BySeat(Num(low=0, high=INF, doc="coins"))),
            ("farms", BySeat(farm)),
            ("market", Fields(tuple((s, Num(high=cards, doc=f"{s} in the marketplace")) for s in c.MARKET_SORTS))),
            ("end_triggered", Flag("someone reached 70: last round")),
            ("must_reroll", Flag("the empty-market reroll is due")),
            ("piles", Fields((("left", pile), ("right", pile)))),
        )
    )


def fast_encoder(sp: Spec) -> FastEncode:
    """The observation written straight from the state: the same numbers ``view(p)`` gives the schema.

    It reads exactly the fields ``FarmersFinancesState.view`` reads (solo: only the top card and size
    of each pile). Offsets come from the schema's own index table, so the two layouts cannot drift.
    """
    at = {row.name: row.start for row in sp.rows()}
    players = sp.players
    size = sp.obs_size
    phase_at = {phase: at["phase"] + i for i, phase in enumerate(PHASES)}
    turn_at, row_at, roll_at = at["turn"], at["row"] - c.MARKET_ROWS[0], at["last_roll"] - 1
    prices_at = at["buy_prices.wheat"]
    # buy wheat, buy animal, sell wheat, sell bread, sell animal: one contiguous block, per market row
    prices = {
        row: [float(c.buy_cost(s, row)) for s in c.MARKET_SORTS] + [float(c.sell_price(s, row)) for s in c.SORTS]
        for row in c.MARKET_ROWS
    }
    money_at, farms_at, market_at = at["money[self]"], at["farms[self].wheat"], at["market.wheat"]
    end_at, reroll_at = at["end_triggered"], at["must_reroll"]
    left_at, right_at = at["piles.left.top"], at["piles.right.top"]
    top_index = {sort: i for i, sort in enumerate(c.MARKET_SORTS)}
    seats = [[(viewer + k) % players for k in range(players)] for viewer in range(players)]
    # Everything before the purses depends only on (phase, row, last roll) and the turn: those blocks
    # are precomputed; the turn is written over its zero. The list is packed into the float32 array
    # in one C call (``struct``), much cheaper than numpy's element-by-element list assignment.
    heads: dict[tuple[str, int, int], list[float]] = {}
    for phase in PHASES:
        for row in c.MARKET_ROWS:
            for roll in range(c.DIE_SIDES + 1):
                block = [0.0] * size
                block[phase_at[phase]] = 1.0
                block[row_at + row] = 1.0
                if roll:
                    block[roll_at + roll] = 1.0
                block[prices_at : prices_at + 5] = prices[row]
                heads[(phase, row, roll)] = block
    pack = struct.Struct(f"{size}f").pack_into

    def encode_solo(state: State[Any], player: int, out: np.ndarray) -> None:
        s: Any = state
        v = heads[(s.phase, s.row, s.last_roll)].copy()
        v[turn_at] = s.turn
        v[money_at] = s.money[0]
        v[farms_at : farms_at + 3] = s.hands[0]
        left, right = s.left, s.right
        pile = left + right
        v[market_at] = pile.count(c.WHEAT)
        v[market_at + 1] = pile.count(c.ANIMAL)
        v[left_at + top_index[left[-1]]] = 1.0
        v[left_at + 2] = len(left)
        v[right_at + top_index[right[-1]]] = 1.0
        v[right_at + 2] = len(right)
        pack(out, 0, *v)  # type: ignore[arg-type]  # a float32 array is a writable buffer

    if players == 1:
        return encode_solo

    # With 2+ players the vector is one ``struct`` layout: the phase one-hot and the (row, roll, prices)
    # block as precomputed bytes ("s" fields), the numbers as floats, the (solo-only) piles as zero pad
    # bytes; one ``pack_into`` per observation, no Python list of every entry.
    if not (turn_at == len(PHASES) and at["row"] == turn_at + 1 and money_at == prices_at + 5):
        raise RuntimeError("farmers-finances: the observation layout changed; update fast_encoder")
    if not (farms_at == money_at + players and market_at == farms_at + 3 * players and end_at == market_at + 2):
        raise RuntimeError("farmers-finances: the observation layout changed; update fast_encoder")
    if not (reroll_at == end_at + 1 and left_at == reroll_at + 1 and right_at + 3 == size):
        raise RuntimeError("farmers-finances: the observation layout changed; update fast_encoder")
    mid_floats = money_at - at["row"]
    phase_bytes = {
        phase: struct.pack(f"={len(PHASES)}f", *heads[(phase, c.MARKET_ROWS[0], 0)][: len(PHASES)]) for phase in PHASES
    }
    mid_bytes = {
        (row, roll): struct.pack(f"={mid_floats}f", *heads[(PHASES[0], row, roll)][at["row"] : money_at])
        for row in c.MARKET_ROWS
        for roll in range(c.DIE_SIDES + 1)
    }
    layout = struct.Struct(
        f"={len(PHASES) * 4}sf{mid_floats * 4}s{players}f{3 * players}f2f2f{(size - left_at) * 4}x"
    ).pack_into
    row_roll = [
        [mid_bytes.get((row, roll)) for roll in range(c.DIE_SIDES + 1)] for row in range(max(c.MARKET_ROWS) + 1)
    ]
    # One function per viewer with the purses and farms in that viewer's seat order written out as
    # arguments (``money[1], money[0], hands[1][0], ...``): one ``pack_into`` call and nothing else, no
    # ``itemgetter`` tuple or ``chain`` to unpack per observation (session 16: 2.0 -> 1.2 µs a call).
    names = {"layout": layout, "phase_bytes": phase_bytes, "row_roll": row_roll}
    per_viewer: list[Callable[[np.ndarray, Any], None]] = []
    for order in seats:
        args = [f"m[{q}]" for q in order] + [f"h[{q}][{i}]" for q in order for i in range(len(c.SORTS))]
        source = (
            "def encode_seat(out, s):\n"
            "    m = s.money\n"
            "    h = s.hands\n"
            "    k = s.market\n"
            "    layout(out, 0, phase_bytes[s.phase], s.turn, row_roll[s.row][s.last_roll], "
            f"{', '.join(args)}, k[0], k[1], s.end_triggered, s.forced_reroll)\n"
        )
        scope = dict(names)
        exec(compile(source, f"<farmers-finances encoder, seat order {order}>", "exec"), scope)
        encode_seat: Callable[[np.ndarray, Any], None] = scope["encode_seat"]  # type: ignore[assignment]
        per_viewer.append(encode_seat)
    if len(c.MARKET_SORTS) != 2:
        raise RuntimeError("farmers-finances: the observation layout changed; update fast_encoder")

    def encode(state: State[Any], player: int, out: np.ndarray) -> None:
        per_viewer[player](out, state)

    encode.per_viewer = per_viewer  # type: ignore[attr-defined]  # ``encode(s, p, out)`` is ``per_viewer[p](out, s)``
    return encode


def solo_score(result: Result) -> float:
    """Solo the goal is 70 coins in as few turns as possible: the score is minus the turns."""
    return -float(result.details["turns"])


def solo_win(result: Result) -> float:
    """+1 once 70 coins are reached (every solo game that ends reaches it), else −1."""
    return 1.0 if result.details.get("goal_reached") else -1.0


RL_GAME = RLGame(
    game_id="farmers-finances",
    name="FarmersFinances",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=False,
    max_game_length=5000,
    fast=fast_encoder,
    notes="Everything is public with 2–4 players (only future rolls are hidden). Solo, the view shows each "
    "pile's top card and size; the order below is hidden.",
    solo_doc="solo `score` = −turns (fewer turns to 70 is better); solo `win` = +1 (a solo game ends only at 70, "
    "so it is always +1: use `score`).",
)
