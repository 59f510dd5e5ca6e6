"""Farmers Finances rules: the state, the legal decisions and the transitions.

Read top to bottom like the rulebook (``/work/shared/rulebooks/farmers-finances.txt``):
setup, the turn (one action: Buy, Sell or Make Bread; then the compulsory market change),
the empty-market rule, the game end; then the solo rules. Comments name the section each
rule comes from; ``DA-FFn`` marks an interpretation, listed in ``docs/games/farmers-finances.md``.

A turn is a sequence of small decisions, each a plain string that is its own notation:

- the action: ``buy wheat``, ``buy animal``, ``sell wheat 2``, ``sell bread 1``,
  ``sell animal 1``, ``bake 2`` (flip 2 wheat to bread), or ``pass`` (only when no action
  is possible, DA-FF4);
- the market change (2–4 players): ``move 4`` (the die one row, to row 4) or ``reroll``;
  after a rolled 6, ``pick 2`` (choose the row freely).

Solo, a turn is a single decision (the action): the turn tracker moves and the market is
rolled automatically at the start of each turn.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar, Final

from farmtable.core import Game, IllegalAction, Result, Rng, State, as_rng
from farmtable.core.checks import flag, whole_number
from farmtable.core.notation import normalize, shorten
from farmtable.core.rng import MAX_STATE as MAX_RNG_STATE
from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances.helper import HELPER_FORMAT, score_text
from farmtable.games.farmers_finances.scoring import cards_at_base_value, score_sheet

# --- phases of a turn ----------------------------------------------------------------------------

ACTION: Final = "action"
"""The player takes the one action of the turn (rulebook "Game Play")."""
MARKET: Final = "market"
"""The compulsory market change at the end of the turn (rulebook "Change Market")."""
PICK: Final = "pick"
"""A 6 was rolled: the player chooses the new market row freely."""
OVER: Final = "over"
"""The game has ended."""
PHASES: Final = (ACTION, MARKET, PICK, OVER)

# Where play goes after a ``pick``.
AFTER_PICK_END_TURN: Final = "end"
AFTER_PICK_MARKET: Final = "market"
AFTER_PICK_ACTION: Final = "action"
AFTER_PICK: Final = (AFTER_PICK_END_TURN, AFTER_PICK_MARKET, AFTER_PICK_ACTION)

# --- variants --------------------------------------------------------------------------------------

SOLO_SIX_CHOOSE: Final = "solo-six-choose"
EMPTY_MARKET_EXTRA_CHANGE: Final = "empty-market-extra-change"
PLAYER_TWO_WINS_AT_ONCE: Final = "player-two-wins-at-once"
"""Variant (issue 14): the literal Game End: player 2 reaching 70 after his turn wins, even when a
forced sale in that turn lifted player 1 higher (2 players)."""
LAST_CARD_OF_A_PILE: Final = "last-card-of-a-pile"
"""Variant (issue 14): "the last card" of the empty-market rule is the last card of either pile."""

# --- notation --------------------------------------------------------------------------------------

WHEAT, BREAD, ANIMAL = c.WHEAT, c.BREAD, c.ANIMAL
SORT_INDEX: Final[dict[str, int]] = {sort: i for i, sort in enumerate(c.SORTS)}
W, B, A = SORT_INDEX[WHEAT], SORT_INDEX[BREAD], SORT_INDEX[ANIMAL]
MAX_HELD: Final = (c.WHEAT_CARDS_PER_COPY + c.ANIMAL_CARDS_PER_COPY) * 2
"""An upper bound on the cards of one sort in a farm (the 12 goods cards of two copies); notation is precomputed
up to it."""

PASS: Final = "pass"
REROLL: Final = "reroll"
BUY: Final[dict[str, str]] = {sort: f"buy {sort}" for sort in c.MARKET_SORTS}
SELL: Final[dict[str, list[str]]] = {sort: [f"sell {sort} {n}" for n in range(MAX_HELD + 1)] for sort in c.SORTS}
BAKE: Final[list[str]] = [f"bake {n}" for n in range(MAX_HELD + 1)]
MOVE: Final[dict[int, str]] = {row: f"move {row}" for row in c.MARKET_ROWS}
PICK_ROW: Final[dict[int, str]] = {row: f"pick {row}" for row in c.MARKET_ROWS}
PICKS: Final[list[str]] = [PICK_ROW[row] for row in c.MARKET_ROWS]
PICKS_CHOICES: Final[tuple[str, ...]] = tuple(PICKS)
MARKET_CHOICES: Final[dict[int, tuple[str, ...]]] = {
    row: (*(MOVE[r] for r in (row - 1, row + 1) if r in MOVE), REROLL) for row in c.MARKET_ROWS
}
"""Change Market: "Move the dice one space" up or down, or reroll; by the die's row."""
MAX_BUY_COST: Final = max(c.buy_cost(sort, row) for sort in c.MARKET_SORTS for row in c.MARKET_ROWS)
MAX_REMEMBERED_CHOICES: Final = 100_000
_ACTION_CHOICES: dict[tuple[object, ...], tuple[str, ...]] = {}
"""Action-phase choices already computed, by (row, money up to the dearest price, offered sorts, hand)."""

BUY_COST: Final[dict[tuple[str, int], int]] = {
    (sort, row): c.buy_cost(sort, row) for sort in c.MARKET_SORTS for row in c.MARKET_ROWS
}
"""``c.buy_cost`` looked up: (sort, row) -> what one card costs."""
SELL_PRICE: Final[dict[tuple[str, int], int]] = {
    (sort, row): c.sell_price(sort, row) for sort in c.SORTS for row in c.MARKET_ROWS
}
"""``c.sell_price`` looked up: (sort, row) -> what one card brings."""
_OFFERED: Final[dict[tuple[bool, bool], tuple[str, ...]]] = {
    (w, a): tuple(sort for sort, there in zip(c.MARKET_SORTS, (w, a), strict=True) if there)
    for w in (False, True)
    for a in (False, True)
}
"""The sorts a 2-4 player marketplace offers, by (wheat left, animals left)."""

HEURISTIC_WIN_BONUS: Final = 1000.0
"""How much a won game outweighs any money difference in :meth:`FarmersFinancesState.heuristic`."""


Decoded = tuple[str, str, int]
"""An action read into (kind, sort or "", number or 0)."""

DECODE: Final[dict[str, Decoded]] = {PASS: ("pass", "", 0), REROLL: ("reroll", "", 0)}
for _sort in c.MARKET_SORTS:
    DECODE[BUY[_sort]] = ("buy", _sort, 0)
for _sort in c.SORTS:
    for _n in range(1, MAX_HELD + 1):
        DECODE[SELL[_sort][_n]] = ("sell", _sort, _n)
for _n in range(1, MAX_HELD + 1):
    DECODE[BAKE[_n]] = ("bake", "", _n)
for _row in c.MARKET_ROWS:
    DECODE[MOVE[_row]] = ("move", "", _row)
    DECODE[PICK_ROW[_row]] = ("pick", "", _row)

_NOTATION = re.compile(
    r"^(?:(?P<buy>buy) (?P<bsort>[a-z]+)"
    r"|(?P<sell>sell) (?P<ssort>[a-z]+) (?P<scount>\d{1,3})"
    r"|(?P<bake>bake) (?P<bcount>\d{1,3})"
    r"|(?P<move>move|pick) (?P<row>\d{1,3})"
    r"|(?P<word>pass|reroll))$"
)
NOTATION_HELP: Final = (
    "moves look like 'buy wheat', 'buy animal', 'sell wheat 2', 'sell bread 1', 'sell animal 1', "
    "'bake 2', 'pass', then 'move 4', 'reroll', or after a 6 'pick 5'"
)
ACTION_KINDS: Final = frozenset({"buy", "sell", "bake", "pass"})
MARKET_KINDS: Final = frozenset({"move", "reroll"})


def decode(action: object) -> Decoded | None:
    """Read an action (canonical notation, or notation with any count) into (kind, sort, number).

    Returns None when the text is not Farmers Finances notation at all.
    """
    if not isinstance(action, str):
        return None
    known = DECODE.get(action)
    if known is not None:
        return known
    match = _NOTATION.match(normalize(action))
    if match is None:
        return None
    if match["buy"]:
        return ("buy", match["bsort"], 0) if match["bsort"] in c.MARKET_SORTS else None
    if match["sell"]:
        return ("sell", match["ssort"], int(match["scount"])) if match["ssort"] in c.SORTS else None
    if match["bake"]:
        return ("bake", "", int(match["bcount"]))
    if match["move"]:
        return (match["move"], "", int(match["row"]))
    return (match["word"], "", 0)


def canonical(decoded: Decoded) -> str:
    """The canonical notation of a decoded action."""
    kind, sort, number = decoded
    if kind == "buy":
        return f"buy {sort}"
    if kind == "sell":
        return f"sell {sort} {number}"
    if kind in ("bake", "move", "pick"):
        return f"{kind} {number}"
    return kind


# --- the game ----------------------------------------------------------------------------------------


class FarmersFinancesGame(Game["FarmersFinancesState"]):
    """Farmers Finances: buy, sell and bake on a moving market; first to 70 coins (solo: in fewest turns)."""

    id: ClassVar[str] = "farmers-finances"
    title: ClassVar[str] = "Farmers Finances"
    summary: ClassVar[str] = (
        "A 9-card trading game: buy wheat and animals, bake bread and sell on a die-driven market "
        "to reach 70 coins first (solo: in as few turns as you can)."
    )
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = c.MAX_PLAYERS
    variants: ClassVar[dict[str, str]] = {
        SOLO_SIX_CHOOSE: "solo only: after a rolled 6 sells your farm, you also choose the market row freely",
        EMPTY_MARKET_EXTRA_CHANGE: (
            "2-4 players: the empty-market reroll is extra; the buyer still makes the normal market change"
        ),
        PLAYER_TWO_WINS_AT_ONCE: (
            "2 players: player 2 reaching 70 after his turn wins at once, even if a forced sale lifted player 1 higher"
        ),
        LAST_CARD_OF_A_PILE: (
            "2-4 players: buying the last card of either pile (wheat or animals) empties the market, "
            "not only the last card of both"
        ),
    }

    def check_players_and_variants(self, players: int, variants: tuple[str, ...]) -> None:
        """Refuse a solo-only variant with several players and a multiplayer-only variant solo."""
        if SOLO_SIX_CHOOSE in variants and players != 1:
            raise ValueError(f"'{SOLO_SIX_CHOOSE}' changes a solo rule (the 6 at the start of a solo turn): players=1")
        if PLAYER_TWO_WINS_AT_ONCE in variants and players != 2:
            raise ValueError(f"'{PLAYER_TWO_WINS_AT_ONCE}' reads the 2-player Game End sentence: players=2")
        if LAST_CARD_OF_A_PILE in variants and players == 1:
            raise ValueError(f"'{LAST_CARD_OF_A_PILE}' changes the 2-4 player empty-market rule; solo has its own")
        if EMPTY_MARKET_EXTRA_CHANGE in variants and players == 1:
            raise ValueError(
                f"'{EMPTY_MARKET_EXTRA_CHANGE}' changes the 2-4 player empty-market rule; solo has no market change"
            )

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> FarmersFinancesState:
        if options:
            raise ValueError(f"{self.title} takes no options; got {', '.join(sorted(options))}")
        state = FarmersFinancesState(players, variants, Rng(seed))
        state.setup()
        return state

    def _from_dict(self, data: dict[str, Any]) -> FarmersFinancesState:
        return FarmersFinancesState.from_dict(data)

    scoring_helper_format: ClassVar[str | None] = HELPER_FORMAT

    def score_text(self, text: str) -> Result:
        """Score a typed position (see ``scoring_helper_format``); raises BadInput naming the line."""
        return score_text(text)


GAME: Final = FarmersFinancesGame()


# --- the state -----------------------------------------------------------------------------------


def _int(data: dict[str, Any], key: str, low: int, high: int | None = None) -> int:
    return whole_number(data[key], f"'{key}'", low, high)


def _bool(data: dict[str, Any], key: str) -> bool:
    return flag(data[key], f"'{key}'")


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a count (a whole number ≥ 0), got {value!r}")
    checked: int = value
    return checked


class FarmersFinancesState(State[str]):
    """A game of Farmers Finances in progress (1 to 4 players)."""

    game: ClassVar[Game[Any]] = GAME

    def __init__(self, players: int, variants: tuple[str, ...], rng: Rng) -> None:
        self.players = players
        self.variants = variants
        self.rng = rng
        self.copies = c.copies_for(players)
        self.solo = players == 1
        self.row = c.MARKET_ROWS[len(c.MARKET_ROWS) // 2]
        self.last_roll = 0
        """The last die result (0: none yet); public."""
        self.phase: str = ACTION
        self.after_pick: str = AFTER_PICK_END_TURN
        self.current = 0
        self.turn = 1
        self.money = [c.START_MONEY] * players
        self.hands = [[0, 0, 0] for _ in range(players)]
        """hands[p] counts p's cards: [wheat, bread, animal] (SORTS order)."""
        self.market = [0, 0]
        """2–4 players: the marketplace stacks [wheat, animal]; solo: unused (the piles hold the market)."""
        self.left: list[str] = []
        self.right: list[str] = []
        """Solo piles, bottom first (the top card is the last element)."""
        self.end_triggered = False
        self.immediate_winner = -1
        """Variant player-two-wins-at-once: the seat that won at once, or -1."""
        self.forced_reroll = False
        self.epoch = 0
        self._legal: tuple[str, ...] | None = None

    # --- Game Setup --------------------------------------------------------------------------------

    def setup(self) -> None:
        """Rulebook "Game Setup" (and "Solo Game Setup"): cards to the market, 10 coins each, roll the market."""
        # "Roll the dice and determine the market value." A 6 has no row: rolled again (DA-FF3).
        self.row = self._roll_until_row()
        if not self.solo:
            self.market = [c.WHEAT_CARDS_PER_COPY * self.copies, c.ANIMAL_CARDS_PER_COPY * self.copies]
            self.phase = ACTION
            return
        # Solo setup: "Shuffle the wheat and the animals into one stack. Split this into two piles."
        self._deal_solo_piles([WHEAT] * c.WHEAT_CARDS_PER_COPY + [ANIMAL] * c.ANIMAL_CARDS_PER_COPY)
        self.turn = c.FIRST_SOLO_TURN - 1
        self._start_solo_turn()

    def _roll_until_row(self) -> int:
        roll = self.rng.randint(1, c.DIE_SIDES)
        while roll == c.FREE_CHOICE_FACE:
            roll = self.rng.randint(1, c.DIE_SIDES)
        self.last_roll = roll
        self.epoch += 1
        return roll

    # --- the contract ---------------------------------------------------------------------------

    def actors(self) -> list[int]:
        """The player to decide now (one at a time in this game); [] when the game is over."""
        return [] if self.phase == OVER else [self.current]

    def is_over(self) -> bool:
        """True once someone reached 70 and the round is complete (solo: once you have 70)."""
        return self.phase == OVER

    def info_epoch(self) -> int:
        """Moves on with every die roll and every card revealed on a solo pile."""
        return self.epoch

    def legal_actions(self, player: int) -> list[str]:
        """The decisions ``player`` may take now, in a fixed order; [] for anyone not to act."""
        phase = self.phase
        if phase == OVER or player != self.current:
            return []
        legal = self._legal
        if legal is None:  # _compute_legal, inlined: this runs once per decision
            if phase == ACTION:
                legal = self._action_choices()
            elif phase == MARKET:
                legal = (REROLL,) if self.forced_reroll else MARKET_CHOICES[self.row]
            else:
                legal = PICKS_CHOICES
            self._legal = legal
        return list(legal)

    def _compute_legal(self) -> tuple[str, ...]:
        phase = self.phase
        if phase == ACTION:
            return self._action_choices()
        if phase == MARKET:
            if self.forced_reroll:
                return (REROLL,)
            return MARKET_CHOICES[self.row]
        return PICKS_CHOICES

    def _action_choices(self) -> tuple[str, ...]:
        """Game Play: buy what the market offers and you can pay, sell 1..n of a sort you hold, bake
        1..n wheat; pass when nothing is possible. The list depends only on the die's row, the money
        (up to the dearest price), the sorts offered and the hand, so it is looked up once computed."""
        current = self.current
        hand = self.hands[current]
        money = self.money[current]
        if self.solo:
            offered = tuple(self.buyable_sorts())
        else:
            market = self.market
            offered = _OFFERED[market[0] > 0, market[1] > 0]
        key = (self.row, money if money < MAX_BUY_COST else MAX_BUY_COST, offered, hand[0], hand[1], hand[2])
        legal = _ACTION_CHOICES.get(key)
        if legal is None:
            choices = [BUY[sort] for sort in offered if money >= self.buy_cost(sort)]
            for i, sort in enumerate(c.SORTS):
                choices.extend(SELL[sort][1 : hand[i] + 1])
            choices.extend(BAKE[1 : hand[W] + 1])
            legal = tuple(choices) or (PASS,)
            if len(_ACTION_CHOICES) < MAX_REMEMBERED_CHOICES:
                _ACTION_CHOICES[key] = legal
        return legal

    # --- prices (rulebook "Market", "Buy", "Sell") ---------------------------------------------------

    def buy_cost(self, sort: str) -> int:
        """Buy: "Pay the cost depends on the market-value (at least 1 coin)"."""
        return c.buy_cost(sort, self.row)

    def sell_price(self, sort: str) -> int:
        """Sell: base SELL + the row's SELL modifier; bread always 7."""
        return c.sell_price(sort, self.row)

    def buyable_sorts(self) -> list[str]:
        """The sorts the marketplace offers now (solo: the sorts on top of the two piles)."""
        if not self.solo:
            return [sort for i, sort in enumerate(c.MARKET_SORTS) if self.market[i] > 0]
        tops = {self.left[-1], self.right[-1]}
        return [sort for sort in c.MARKET_SORTS if sort in tops]

    def market_counts(self) -> list[int]:
        """The cards in the marketplace, [wheat, animal] (solo: both piles together)."""
        if not self.solo:
            return list(self.market)
        pile = self.left + self.right
        return [pile.count(WHEAT), pile.count(ANIMAL)]

    # --- checking an action -----------------------------------------------------------------------

    def parse_action(self, player: int, text: str) -> str:
        """Read typed notation (case and spaces do not matter) into the canonical action string."""
        decoded = decode(text)
        if decoded is None:
            if not text.strip():
                raise IllegalAction(f"empty move: {NOTATION_HELP}")
            raise IllegalAction(f"'{shorten(text)}' is not Farmers Finances notation; {NOTATION_HELP}")
        return canonical(decoded)

    def why_illegal(self, player: int, action: str) -> str:
        """The rule an action breaks, in player words (for an action that is not legal now)."""
        if self.phase == OVER:
            return "the game is over: no more moves"
        if player != self.current:
            return f"it is not player {player}'s decision now; waiting for player {self.current}"
        decoded = decode(action)
        if decoded is None:
            return f"'{shorten(str(action))}' is not Farmers Finances notation; {NOTATION_HELP}"
        kind, sort, number = decoded
        if self.phase == PICK:
            return "a 6 was rolled: choose the new market row freely with 'pick 1' … 'pick 5'" + (
                f" (not row {number})" if kind == "pick" else ""
            )
        if kind == "pick":
            return "you may choose the market row freely only after rolling a 6"
        if self.phase == MARKET and kind in ACTION_KINDS:
            return "you already took this turn's action; now change the market: move the die one row or reroll"
        if self.phase == ACTION and kind in MARKET_KINDS:
            if self.solo:
                return "solo there is no market change: the market is rolled at the start of each turn"
            return "first take this turn's action (buy, sell, bake); the market changes at the end of the turn"
        hand = self.hands[player]
        money = self.money[player]
        if kind == "buy":
            return self._why_not_buy(sort, money)
        if kind == "sell":
            held = hand[SORT_INDEX[sort]]
            if number < 1:
                return "sell at least one card"
            return f"you have {held} {sort}; you cannot sell {number}"
        if kind == "bake":
            if number < 1:
                return "make bread from at least one wheat card"
            return f"you have {hand[W]} wheat; you cannot make {number} bread"
        if kind == "pass":
            return "you can still act (buy, sell or make bread); you may pass only when no action is possible"
        if kind == "move":
            if self.forced_reroll:
                return "you bought the last card: after the selling-phase the market is rerolled; type 'reroll'"
            if number == self.row:
                return f"the die is on row {number} already: moving must change the row (or reroll)"
            if number not in MOVE:
                return f"the market has rows 1 to 5; there is no row {number}"
            return f"the die moves one row at a time: from row {self.row} to row {self.row - 1} or {self.row + 1}"
        return f"'{shorten(str(action))}' is not a legal move now"

    def _why_not_buy(self, sort: str, money: int) -> str:
        if self.solo:
            tops = f"{self.left[-1]} (left) and {self.right[-1]} (right)"
            if sort not in self.buyable_sorts():
                return f"solo you may buy only one of the two top cards: the piles show {tops}"
        elif self.market[c.MARKET_SORTS.index(sort)] == 0:
            return f"the marketplace has no {sort} cards left"
        return (
            f"you have {money} coins; {sort} costs {self.buy_cost(sort)} with the market on row {self.row}"
            " (you can't buy without the money)"
        )

    # --- doing an action --------------------------------------------------------------------------

    def _do(self, player: int, action: str) -> None:
        kind, sort, number = DECODE[action]
        self._legal = None
        if kind == "move":
            # Change Market: "Move the dice one space"
            self.row = number
            self._end_turn()
        elif kind in ACTION_KINDS:
            self._take_action(player, kind, sort, number)
            if self.phase == OVER:
                return
            if self.solo:
                # Solo Game End: "Repeat the turnorder until you have 70 coins or more."
                if self.money[0] >= c.GOAL_MONEY:
                    self.phase = OVER
                else:
                    self._start_solo_turn()
            elif self.phase == ACTION:
                self.phase = MARKET  # "At the end of his turn a player must change the market value."
        elif kind == "reroll":
            self._reroll()
        else:  # pick: "If you roll a 6 you can choose the new market-value freely."
            self.row = number
            if self.after_pick == AFTER_PICK_END_TURN:
                self._end_turn()
            else:
                self.phase = MARKET if self.after_pick == AFTER_PICK_MARKET else ACTION

    def _take_action(self, player: int, kind: str, sort: str, number: int) -> None:
        """Game Play: "The player must take one of the following actions on his turn"."""
        hand = self.hands[player]
        if kind == "buy":
            # Buy: "Buy one card from the marketplace. Pay the cost ..."
            self.money[player] -= BUY_COST[sort, self.row]
            hand[SORT_INDEX[sort]] += 1
            if self.solo:
                self._solo_take(sort)
            else:
                market = self.market
                pile = 0 if sort == WHEAT else 1
                market[pile] -= 1
                # "If a player buys the last card": the last card of the marketplace, both stacks (DA-FF10);
                # variant last-card-of-a-pile: the last card of the pile bought from.
                if market[pile] == 0 and (market[1 - pile] == 0 or LAST_CARD_OF_A_PILE in self.variants):
                    self._empty_market()
        elif kind == "sell":
            # Sell: "Sell one or more from one sort of cards ... Put the card(s) back to the marketplace
            # (wheat face up)"; bread always 7.
            self.money[player] += number * SELL_PRICE[sort, self.row]
            hand[SORT_INDEX[sort]] -= number
            if self.solo:
                self._return_to_market([ANIMAL if sort == ANIMAL else WHEAT] * number)
            else:  # _return_to_market, counted: sold bread comes back as wheat
                self.market[1 if sort == ANIMAL else 0] += number
        elif kind == "bake":
            # Use Wheat (Make Bread): "You can flip one or more wheat cards to the back to make bread."
            hand[W] -= number
            hand[B] += number
        # "pass" (DA-FF4): no action is possible; nothing happens.

    def _return_to_market(self, cards: list[str]) -> None:
        if not cards:
            return
        if not self.solo:
            self.market[0] += sum(1 for card in cards if card == WHEAT)
            self.market[1] += sum(1 for card in cards if card == ANIMAL)
            return
        # Solo "Sell": "When cards came back to the market, shuffle and lay them under the left pile."
        self.rng.shuffle(cards)
        self.left[:0] = cards

    def _sell_everything(self, player: int) -> list[str]:
        """Sell all of a farm's cards at the current market (bread 7); returns the cards for the market."""
        hand = self.hands[player]
        self.money[player] += sum(count * self.sell_price(sort) for sort, count in zip(c.SORTS, hand, strict=True))
        returned = [WHEAT] * (hand[W] + hand[B]) + [ANIMAL] * hand[A]
        hand[:] = [0, 0, 0]
        return returned

    def _empty_market(self) -> None:
        """Empty-market rule: "If a player buys the last card, immediately there is a selling-phase.
        Everyone must sell all of his cards for the current selling modifier. After this, reroll the market."
        """
        for p in range(self.players):
            self._return_to_market(self._sell_everything(p))
        if EMPTY_MARKET_EXTRA_CHANGE in self.variants:
            # The other reading: the reroll happens now, and the normal market change still follows.
            roll = self._roll_die()
            if roll == c.FREE_CHOICE_FACE:
                self.phase, self.after_pick = PICK, AFTER_PICK_MARKET
            else:
                self.row = roll
        else:
            # DA-FF5: the reroll the rule asks for *is* this turn's market change: only 'reroll' is legal.
            self.forced_reroll = True

    def _roll_die(self) -> int:
        roll = self.rng.randint(1, c.DIE_SIDES)
        self.last_roll = roll
        self.epoch += 1
        return roll

    def _reroll(self) -> None:
        """Change Market: "reroll. If you roll a 1-5 place the dice on the row with the same value ...
        If you roll a 6 you can choose the new market-value freely."
        """
        self.forced_reroll = False  # the reroll the empty-market rule asked for is being made now
        roll = self._roll_die()
        if roll == c.FREE_CHOICE_FACE:
            self.phase, self.after_pick = PICK, AFTER_PICK_END_TURN
        else:
            self.row = roll
            self._end_turn()

    def _end_turn(self) -> None:
        """Game End: "If player ... reaches 70 money or more after his turn" the game ends once the round
        is complete, so all have had equal turns (DA-FF6).
        """
        self.forced_reroll = False
        if self.money[self.current] >= c.GOAL_MONEY:
            if PLAYER_TWO_WINS_AT_ONCE in self.variants and not self.end_triggered and self.current == 1:
                # "If player 2 reaches 70 money or more after his turn, he wins the game immediately."
                self.immediate_winner = self.current
            self.end_triggered = True
        if self.end_triggered and self.current == self.players - 1:
            self.phase = OVER
            return
        self.current = (self.current + 1) % self.players
        self.turn += 1
        self.phase = ACTION

    # --- solo ---------------------------------------------------------------------------------

    def _deal_solo_piles(self, cards: list[str]) -> None:
        """ "Shuffle all cards into one stack. Split this into two piles" (halves; the odd card left, DA-FF7)."""
        self.rng.shuffle(cards)
        half = (len(cards) + 1) // 2
        self.left, self.right = cards[:half], cards[half:]
        self.epoch += 1

    def _start_solo_turn(self) -> None:
        """Solo Turnorder 1–2: move the turn marker, roll for the market (a 6 sells the whole farm)."""
        self.turn += 1
        roll = self._roll_die()
        self.phase = ACTION
        if roll != c.FREE_CHOICE_FACE:
            self.row = roll
            return
        # "If you roll a 6, sell all of your cards in your farm. When you have no cards, nothing happens."
        # The die shows no row, so the market stays where it was (DA-FF8); the sold cards go under the
        # left pile like any sold cards (DA-FF11), and 70 coins reached by this sale end the game.
        self._return_to_market(self._sell_everything(0))
        if self.money[0] >= c.GOAL_MONEY:
            self.phase = OVER
        elif SOLO_SIX_CHOOSE in self.variants:
            self.phase, self.after_pick = PICK, AFTER_PICK_ACTION

    def _solo_take(self, sort: str) -> None:
        """Solo Buy: one of the 2 top cards; from the left pile only when the right top is not the same card."""
        pile = self.right if self.right[-1] == sort else self.left
        pile.pop()
        self.epoch += 1  # the card below is revealed
        if pile:
            return
        # Solo "Empty market": sell everything, then shuffle all cards into one stack and split it.
        self._sell_everything(0)
        self._deal_solo_piles([WHEAT] * c.WHEAT_CARDS_PER_COPY + [ANIMAL] * c.ANIMAL_CARDS_PER_COPY)

    # --- results, views, copies ------------------------------------------------------------------

    def result(self) -> Result:
        """The score sheet: money; the ranking applies the tie rule; solo details carry the turns."""
        return score_sheet(
            self.money,
            self.hands,
            solo_turns=self.turn if self.solo else None,
            turn=self.turn,
            immediate_winner=None if self.immediate_winner < 0 else self.immediate_winner,
        )

    def heuristic(self, player: int) -> float:
        """How good the position looks for ``player`` (greedy agent, search cut-offs); see ``evaluation.py``."""
        from farmtable.games.farmers_finances.evaluation import heuristic

        return heuristic(self, player)

    def evaluate(self) -> list[float]:
        """Each player's expected final objective from here (search leaves); see ``evaluation.py``."""
        from farmtable.games.farmers_finances.evaluation import evaluate

        return evaluate(self)

    def view(self, player: int | None) -> dict[str, Any]:
        """What everyone sees: all of it with 2–4 players; solo, only the top card of each pile."""
        counts = self.market_counts()
        seen: dict[str, Any] = {
            "game": GAME.id,
            "players": self.players,
            "variants": list(self.variants),
            "phase": self.phase,
            "to_act": None if self.phase == OVER else self.current,
            "turn": self.turn,
            "row": self.row,
            "last_roll": self.last_roll,
            "buy_prices": {sort: self.buy_cost(sort) for sort in c.MARKET_SORTS},
            "sell_prices": {sort: self.sell_price(sort) for sort in c.SORTS},
            "money": list(self.money),
            "farms": [dict(zip(c.SORTS, hand, strict=True)) for hand in self.hands],
            "market": dict(zip(c.MARKET_SORTS, counts, strict=True)),
            "goal": c.GOAL_MONEY,
        }
        if self.solo:
            seen["piles"] = {
                "left": {"top": self.left[-1], "size": len(self.left)},
                "right": {"top": self.right[-1], "size": len(self.right)},
            }
        else:
            seen["end_triggered"] = self.end_triggered
            seen["must_reroll"] = self.forced_reroll
        return seen

    def render_text(self, player: int | None = None) -> str:
        """The board as plain text (see render.py)."""
        from farmtable.games.farmers_finances.render import render_text

        return render_text(self, player)

    def clone(self) -> FarmersFinancesState:
        """An independent copy, written by hand for speed."""
        new = FarmersFinancesState.__new__(FarmersFinancesState)
        new.players = self.players
        new.variants = self.variants
        new.rng = Rng(self.rng.state)
        new.copies = self.copies
        new.solo = self.solo
        new.row = self.row
        new.last_roll = self.last_roll
        new.phase = self.phase
        new.after_pick = self.after_pick
        new.current = self.current
        new.turn = self.turn
        new.money = list(self.money)
        new.hands = [list(h) for h in self.hands]
        new.market = list(self.market)
        new.left = list(self.left)
        new.right = list(self.right)
        new.end_triggered = self.end_triggered
        new.immediate_winner = self.immediate_winner
        new.forced_reroll = self.forced_reroll
        new.epoch = self.epoch
        new._legal = self._legal
        return new

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> FarmersFinancesState:
        """A state like this one with the unseen parts re-sampled and a fresh RNG.

        With 2–4 players only the future die is unknown. Solo, the cards under the two top
        cards are dealt again at random into the piles, keeping the pile sizes (DA-FF9: what
        the player may remember about which hidden card lies in which pile is not kept).
        """
        source = as_rng(rng)
        new = self.clone()
        if self.solo:
            hidden = self.left[:-1] + self.right[:-1]
            source.shuffle(hidden)
            cut = len(self.left) - 1
            new.left = [*hidden[:cut], self.left[-1]]
            new.right = [*hidden[cut:], self.right[-1]]
        new.rng = Rng(source.next64())
        return new

    def to_dict(self) -> dict[str, Any]:
        """The complete state as JSON-able data."""
        data: dict[str, Any] = {
            "players": self.players,
            "variants": list(self.variants),
            "rng": self.rng.state,
            "row": self.row,
            "last_roll": self.last_roll,
            "phase": self.phase,
            "after_pick": self.after_pick,
            "current": self.current,
            "turn": self.turn,
            "money": list(self.money),
            "farms": [dict(zip(c.SORTS, hand, strict=True)) for hand in self.hands],
            "end_triggered": self.end_triggered,
            "immediate_winner": self.immediate_winner,
            "forced_reroll": self.forced_reroll,
            "epoch": self.epoch,
        }
        if self.solo:
            data["piles"] = {"left": list(self.left), "right": list(self.right)}
        else:
            data["market"] = dict(zip(c.MARKET_SORTS, self.market, strict=True))
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FarmersFinancesState:
        """Rebuild a state from :meth:`to_dict` output; ValueError naming what is inconsistent."""
        players = _int(data, "players", GAME.min_players, GAME.max_players)
        raw_variants = data["variants"]
        if not isinstance(raw_variants, list) or not all(isinstance(v, str) for v in raw_variants):
            raise ValueError("'variants' must be a list of names")
        for name in raw_variants:
            if name not in GAME.variants:
                raise ValueError(f"unknown variant '{name}'")
        variants = tuple(raw_variants)
        if list(variants) != sorted(set(variants)):
            raise ValueError("'variants' must be sorted and without repeats")
        GAME.check_players_and_variants(players, variants)
        rng_state = _int(data, "rng", 0, MAX_RNG_STATE)
        state = cls(players, variants, Rng(rng_state))
        state.row = _int(data, "row", c.MARKET_ROWS[0], c.MARKET_ROWS[-1])
        state.last_roll = _int(data, "last_roll", 0, c.DIE_SIDES)
        phase, after_pick = data["phase"], data["after_pick"]
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r}")
        if after_pick not in AFTER_PICK:
            raise ValueError(f"unknown 'after_pick' {after_pick!r}")
        state.phase, state.after_pick = phase, after_pick
        state.current = _int(data, "current", 0, players - 1)
        state.turn = _int(data, "turn", 1)
        state.end_triggered = _bool(data, "end_triggered")
        state.immediate_winner = _int(data, "immediate_winner", -1, players - 1) if "immediate_winner" in data else -1
        state.forced_reroll = _bool(data, "forced_reroll")
        state.epoch = _int(data, "epoch", 0)
        money = data["money"]
        if not isinstance(money, list) or len(money) != players:
            raise ValueError(f"'money' must list {players} amounts")
        state.money = [_count(m, "money") for m in money]
        farms = data["farms"]
        if not isinstance(farms, list) or len(farms) != players:
            raise ValueError(f"'farms' must list {players} farms")
        for farm in farms:
            if not isinstance(farm, dict) or sorted(farm) != sorted(c.SORTS):
                raise ValueError(f"a farm must count exactly {', '.join(c.SORTS)}")
        state.hands = [[_count(farm[sort], f"a farm's {sort}") for sort in c.SORTS] for farm in farms]
        if state.solo:
            piles = data["piles"]
            if not isinstance(piles, dict) or sorted(piles) != ["left", "right"]:
                raise ValueError("solo 'piles' must have a left and a right pile")
            for side in ("left", "right"):
                pile = piles[side]
                if not isinstance(pile, list) or not pile or any(card not in c.MARKET_SORTS for card in pile):
                    raise ValueError(f"the {side} pile must be a non-empty list of wheat/animal cards")
            state.left, state.right = list(piles["left"]), list(piles["right"])
            if state.phase == MARKET or state.current != 0 or state.end_triggered or state.forced_reroll:
                raise ValueError("a solo game has no market phase, no other player and no end round")
        else:
            market = data["market"]
            if not isinstance(market, dict) or sorted(market) != sorted(c.MARKET_SORTS):
                raise ValueError("'market' must count wheat and animal cards")
            state.market = [_count(market[sort], f"the market's {sort}") for sort in c.MARKET_SORTS]
            if state.forced_reroll and state.phase != MARKET:
                raise ValueError("a forced reroll belongs to the market phase")
        counts = state.market_counts()
        wheat_total = counts[0] + sum(h[W] + h[B] for h in state.hands)
        animal_total = counts[1] + sum(h[A] for h in state.hands)
        if (wheat_total, animal_total) != (
            c.WHEAT_CARDS_PER_COPY * state.copies,
            c.ANIMAL_CARDS_PER_COPY * state.copies,
        ):
            raise ValueError(
                f"the cards do not add up: {wheat_total} wheat/bread and {animal_total} animals in play, "
                f"a {players}-player game has {c.WHEAT_CARDS_PER_COPY * state.copies} and "
                f"{c.ANIMAL_CARDS_PER_COPY * state.copies}"
            )
        return state

    def liquidation_value(self, player: int) -> int:
        """Money plus the farm's cards sold at base value: what the tie rule compares."""
        return self.money[player] + cards_at_base_value(self.hands[player])
