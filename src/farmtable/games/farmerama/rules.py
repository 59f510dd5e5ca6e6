"""Farmerama rules: the state, its legal actions and transitions, in rulebook order.

A round has four phases (rulebook "Course of Play"):

1. choose action cards: secretly and simultaneously (every chooser is an actor at once);
2. award ornamental buildings to players who chose the same card;
3. carry out the actions: in seat order, each player's card(s) as small decisions ending in ``done``;
4. "mucking out": cards back, action wheel on, ornamental buildings refilled or the game ends.

The solo game replaces phases 1, 2 and 4 by the action/supply stacks ("The Solo Game").

Notation (every action is a plain string, its own canonical notation):
``card sow`` / ``card seed-store`` (phase 1; solo: the action of the turn), ``take 1`` / ``take 2``
(phase 2: a face-up building), ``gain hay`` (a reward of choice), ``start water`` (which of two
cards to carry out next), ``sow hay A3``, ``harvest corn A5``, ``water``, ``feed cow``, ``done``,
``turn-wheel``, ``pay-water`` (Profi: one more Sow/Harvest), ``redraw`` and ``token oats``
(solo special actions).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from farmtable.core.checks import whole_number, whole_numbers
from farmtable.core.errors import IllegalAction
from farmtable.core.game import Game, State, as_rng
from farmtable.core.notation import normalize, shorten
from farmtable.core.result import Result
from farmtable.core.rng import MAX_STATE as MAX_RNG_STATE
from farmtable.core.rng import Rng
from farmtable.games.farmerama.components import (
    ACTION_WHEEL,
    ACTION_WHEEL_DESCRIPTIONS,
    ACTION_WHEEL_SECTIONS,
    ACTION_WHEELS,
    ANIMALS,
    AREA_COUNT,
    AREA_NAMES,
    BAR_AFTER_SECTOR,
    BED_COUNT,
    BEDS_OF_AREA,
    BUILDINGS,
    CARDS,
    DISPLAY_SIZE,
    FEED,
    FEED_COST,
    FEEDS,
    FIRST_BOSS_SHEEP,
    GOODS,
    HARVEST,
    HEAD_SECTOR,
    PACIFIER_SECTOR,
    PASTURE_CAPACITY,
    PRODUCT_TRACK_MAX,
    PRODUCT_VALUE,
    PRODUCT_VALUE_SETS,
    REMOVED_BY_PLAYERS,
    SCARECROW_BED,
    SECTOR_COUNT,
    SECTOR_IS_HARVEST,
    SECTOR_SOW_CROP,
    SEED_STORE,
    SOLO_FIRST_STACK,
    SOLO_MAX_TOKENS,
    SOLO_SUPPLY_STACK,
    SOLO_WATER_SUPPLY,
    SOW,
    STACK_HEIGHT,
    STARTING_BARN,
    TILES_PER_GOOD,
    VARIANT_FIRST_VALUES,
    VARIANT_WHEEL_V1,
    WATER,
    WATER_CARD,
    WHEEL_CARDS,
    WHEEL_TURN_COST,
    WheelValues,
    action_wheel_variant,
    wheel_count,
)
from farmtable.games.farmerama.helper import SCORING_HELPER_FORMAT, score_text
from farmtable.games.farmerama.scoring import ScoreInput, score, star_building_count

# --- phases ---------------------------------------------------------------------------------

CHOOSE = "choose"
"""Phase 1: choose action cards (simultaneous, secret)."""
AWARD = "award"
"""Phase 2: award ornamental buildings (a chooser picks a tile; rewards of choice)."""
ACT = "act"
"""Phase 3: carry out actions, one player at a time in seat order."""
SOLO_PICK = "solo-pick"
"""Solo parts 1-2: a card is revealed; redraw it or pick the action of the turn."""
OVER = "over"
"""The game has ended."""
PHASES = (CHOOSE, AWARD, ACT, SOLO_PICK, OVER)

NO_CARD = -1
ACTORS_KEY = -1
"""Key of the actors list in the per-state cache (players are 0..3)."""
IN_STABLE = -1
EMPTY_BED = -1
NOBODY = -1

VARIANT_PROFI = "profi"
VARIANT_SIMULTANEOUS = "simultaneous"
OPTION_ANIMALS_BLOCK = "animals_block_wheel"
OPTION_MAX_ROUNDS = "max_rounds"
DEFAULT_MAX_ROUNDS = 100
"""Not a rule: multiplayer games stop after 100 rounds. The display only empties through awards, so
players who never share a card (or mirror each other exactly) would otherwise play forever. Real and
random games end long before (about 10-30 rounds)."""
MAX_ROUNDS_LIMIT = 1_000_000
MAX_REMAINING = 1_000
"""Loading a save: more Sow/Harvest/Water actions left than this is surely damage."""
"""Option: an animal on a pasture also keeps its area from being "completely empty" for the bar."""

SOW_CROP_SECTOR = {crop: s for s, crop in enumerate(SECTOR_SOW_CROP) if crop is not None}
"""The player-wheel sector on which each feed plant may be sown."""
HARVEST_SECTORS = tuple(s for s in range(SECTOR_COUNT) if SECTOR_IS_HARVEST[s])
GOOD_INDEX = {name: i for i, name in enumerate(GOODS)}
CARD_INDEX = {name: i for i, name in enumerate(CARDS)}
CARD_ACTIONS = tuple(f"card {name}" for name in CARDS)
"""``card <name>`` by card index, made once."""
START_ACTIONS = tuple(f"start {name}" for name in CARDS)
"""``start <name>`` by card index, made once."""
SOW_ACTIONS = tuple(
    tuple(f"sow {GOODS[crop]} {AREA_NAMES[a]}" for a in range(AREA_COUNT)) for crop in range(len(GOODS))
)
"""``sow <crop> <area>`` by [crop][area], made once."""
HARVEST_ACTIONS = tuple(
    tuple(f"harvest {GOODS[crop]} {AREA_NAMES[a]}" for a in range(AREA_COUNT)) for crop in range(len(GOODS))
)
"""``harvest <crop> <area>`` by [crop][area], made once."""
GAIN_ACTIONS = tuple(f"gain {good}" for good in GOODS)
"""``gain <good>`` by good, made once."""
TAKE_ACTIONS = tuple(f"take {slot + 1}" for slot in range(DISPLAY_SIZE))
"""``take <slot>`` by display slot (0-based), made once."""
FEED_ACTIONS = tuple(f"feed {animal}" for animal in ANIMALS)
"""``feed <animal>`` by animal, made once."""
TOKEN_ACTIONS = tuple(f"token {good}" for good in GOODS)
"""``token <good>`` by good, made once."""
HARVEST_AREAS = tuple(
    tuple(a for a in range(AREA_COUNT) if SECTOR_IS_HARVEST[(a + wheel) % SECTOR_COUNT])
    for wheel in range(SECTOR_COUNT)
)
"""The areas under a harvest sector, by the wheel's turn (``sector_of_area``), made once."""
SOW_AREAS = tuple(
    {crop: (sector - wheel) % SECTOR_COUNT for crop, sector in SOW_CROP_SECTOR.items()} for wheel in range(SECTOR_COUNT)
)
"""The area each feed plant is sown on, by the wheel's turn (``area_of_sector``), made once."""
BAR_AREAS = tuple((BAR_AFTER_SECTOR - wheel) % SECTOR_COUNT for wheel in range(SECTOR_COUNT))
"""The area the bar passes over next (``FarmeramaState._bar_area``), by the wheel's turn, made once."""
_WORDS: dict[str, list[str]] = {}
"""Actions already split into words (notation is a small fixed vocabulary; bounded below)."""
_MAX_WORDS = 10_000
ANIMAL_INDEX = {name: i for i, name in enumerate(ANIMALS)}
AREA_INDEX = {name.lower(): i for i, name in enumerate(AREA_NAMES)}

LEGAL_SHOWN = 12
"""How many legal moves a refusal message lists."""
MAX_CHOICE_REWARD = max(b.feed_of_choice for b in BUILDINGS)
"""The most goods of choice one building gives."""

NOTATION_HELP = (
    "moves look like: card sow, take 1, gain hay, start water, sow hay A3, harvest corn A5, water, "
    "feed cow, turn-wheel, pay-water, redraw, token oats, done"
)


def sector_of_area(wheel: int, area: int) -> int:
    """DA-FR3: the player-wheel sector over ``area`` when the wheel has been turned ``wheel`` areas."""
    return (area + wheel) % SECTOR_COUNT


def area_of_sector(wheel: int, sector: int) -> int:
    """DA-FR3: the farmland area under ``sector`` when the wheel has been turned ``wheel`` areas."""
    return (sector - wheel) % SECTOR_COUNT


class Board:
    """One player's farmland, stable, barn, score board and ornamental garden."""

    __slots__ = (
        "barn",
        "beds",
        "boss_count",
        "cards",
        "current",
        "garden",
        "pasture",
        "pending",
        "product_values",
        "products",
        "remaining",
        "wheel",
    )

    def __init__(self) -> None:
        self.barn: list[int] = list(STARTING_BARN)
        """Goods in the barn, indexed like GOODS."""
        self.beds: list[int] = [EMPTY_BED] * BED_COUNT
        """The feed plant stacked on each bed (2 tiles), or EMPTY_BED."""
        self.wheel = 0
        """How many areas the player wheel has been turned (mod 7)."""
        self.pasture: list[int] = [IN_STABLE] * len(ANIMALS)
        """The area whose pasture each animal stands on, or IN_STABLE."""
        self.products: list[int] = [0] * len(ANIMALS)
        """Markers on the product tracks (wool, truffles, milk, riding lessons)."""
        self.product_values: tuple[int, ...] = PRODUCT_VALUE
        """Stars per product on this game's score boards (DA-FR5b, or DA-FR5 in its variant)."""
        self.garden: list[int] = []
        """Ornamental buildings (indices into BUILDINGS), in the order received."""
        self.cards: list[int] = []
        """Action cards chosen this round, in the order chosen."""
        self.boss_count = 0
        """Rounds this player has had the Boss Sheep (3 players)."""
        self.pending: list[int] = []
        """Phase 3: cards still to carry out this round (once the player has begun)."""
        self.current = NO_CARD
        """Phase 3: the card being carried out, or NO_CARD."""
        self.remaining = 0
        """Phase 3: Sow/Harvest/Water actions still allowed by the current card."""

    def clone(self) -> Board:
        """An independent copy."""
        other = Board.__new__(Board)
        other.barn = self.barn[:]
        other.beds = self.beds[:]
        other.wheel = self.wheel
        other.pasture = self.pasture[:]
        other.products = self.products[:]
        other.product_values = self.product_values
        other.garden = self.garden[:]
        other.cards = self.cards[:]
        other.boss_count = self.boss_count
        other.pending = self.pending[:]
        other.current = self.current
        other.remaining = self.remaining
        return other

    def scarecrows(self) -> int:
        """DA-FR2: visible scarecrows: areas whose scarecrow bed is empty."""
        return [*map(self.beds.__getitem__, SCARECROW_BED)].count(EMPTY_BED)

    def feed_in_barn(self) -> int:
        """Feed plants (not water) in the barn."""
        return sum(self.barn[g] for g in FEEDS)

    def feed_on_farmland(self) -> int:
        """Feed tiles on the farmland: 2 per sown bed."""
        return STACK_HEIGHT * sum(1 for crop in self.beds if crop != EMPTY_BED)

    def area_is_empty(self, area: int) -> bool:
        """DA-FR3: an area is completely empty when none of its beds holds feed."""
        beds = self.beds
        for bed in BEDS_OF_AREA[area]:  # noqa: SIM110 - a plain loop: no generator in the hot path
            if beds[bed] != EMPTY_BED:
                return False
        return True

    def pasture_load(self, area: int) -> int:
        """Animals on the pasture of ``area``."""
        return self.pasture.count(area)

    def product_stars(self) -> int:
        """Stars earned by products so far."""
        return sum(n * v for n, v in zip(self.products, self.product_values, strict=True))

    def score_input(self) -> ScoreInput:
        """What the final score of this board depends on."""
        return ScoreInput(
            products=self.products,
            feed_tiles=self.feed_in_barn() + self.feed_on_farmland(),
            star_buildings=star_building_count(self.garden),
            pasture_animals=[a for a, where in enumerate(self.pasture) if where != IN_STABLE],
            water=self.barn[WATER],
            product_values=self.product_values,
        )


class FarmeramaState(State[str]):
    """A game of Farmerama in progress (1-4 players; ``profi`` variant)."""

    game: ClassVar[Game[Any]]

    def __init__(self, players: int, profi: bool, rng: Rng) -> None:
        self.players = players
        self.profi = profi
        self.solo = players == 1
        self.simultaneous = False
        """Variant 'simultaneous': everyone carries out phase 3 at the same time."""
        self.first_values = False
        """Variant 'products-3-5-7-9': the first assumption of the product values (DA-FR5)."""
        self.wheel_variant = ""
        """The action-wheel variant played (``""``: the default wheel; ``wheel-v1``: DA-FR1)."""
        self.wheel_values: tuple[WheelValues, ...] = ACTION_WHEEL
        """The action wheel's numbers in this game (``ACTION_WHEELS[wheel_variant]``)."""
        self.animals_block_wheel = False
        self.max_rounds: int | None = DEFAULT_MAX_ROUNDS
        """Safety stop (not a rule): the game also ends after this many rounds; None for no limit."""
        """Setting (DA-FR3): does an animal on its pasture also keep an area from being "completely empty"?"""
        self.rng = rng
        self.epoch = 0
        self.round = 1
        self.phase = CHOOSE
        self.supply: list[int] = [TILES_PER_GOOD] * len(GOODS)
        self.box: list[int] = [0] * len(GOODS)
        """Tiles out of the game (solo: the water not put into the supply)."""
        self.action_wheel = 0
        self.stack: list[int] = []
        """Face-down ornamental buildings; the top is the last element (hidden order)."""
        self.display: list[int] = []
        """Face-up ornamental buildings, slot 1 first."""
        self.removed: list[int] = []
        """Buildings removed face down at setup (unseen; 3 players: they return for the last rounds)."""
        self.set_aside: list[int] = []
        """The dark-board buildings set aside in the basic game (known, out of play)."""
        self.boards: list[Board] = [Board() for _ in range(players)]
        self.boss = NOBODY
        self.final_rounds = False
        self.card_count: list[int] = [0] * len(CARDS)
        # phase 2
        self.award_groups: list[list[int]] = []
        self.chooser = NOBODY
        self.gains: list[list[int]] = []
        """Pending rewards of choice: [player, how many, 1 if feed only else 0]."""
        # phase 3
        self.act_order: list[int] = []
        """Phase 3: players still to carry out their cards, in seat order."""
        # solo
        self.turn = 0
        self.tokens = 0
        self.revealed = NO_CARD
        self.action_stack: list[int] = []
        """Solo action stack; the top is the last element."""
        self.supply_stack: list[int] = []
        self.discard: list[int] = []
        self.known_bottom = 0
        """Solo: cards pushed under the action stack (known to the player), at its bottom."""
        self.stack_base: list[int] = []
        """Solo: the known cards the current action stack was shuffled from (without the unknown one)."""
        self.unknown_card = NO_CARD
        """Solo: the card from the supply stack shuffled unseen into the current action stack."""
        self.revealed_from_shuffle: list[int] = []
        """Solo: cards revealed from the shuffled part of the current action stack."""
        self._legal: dict[int, list[Any]] = {}
        """Cache per state: legal lists by player, and the actors under ACTORS_KEY; emptied by every action."""

    # ------------------------------------------------------------------------------------------
    # Setup (rulebook "Game Contents and Setup"; "The Solo Game: Preparation")
    # ------------------------------------------------------------------------------------------

    def use_product_values(self, first_values: bool) -> None:
        """Play with the default product values (DA-FR5b) or the first assumption (DA-FR5)."""
        self.first_values = first_values
        values = PRODUCT_VALUE_SETS[VARIANT_FIRST_VALUES if first_values else ""]
        for board in self.boards:
            board.product_values = values

    def use_action_wheel(self, variant: str) -> None:
        """Play with the action wheel of ``variant`` (``""``: the default); ValueError if unknown."""
        if variant not in ACTION_WHEELS:
            known = ", ".join(v for v in ACTION_WHEELS if v)
            raise ValueError(f"unknown action wheel {variant!r}; the wheels: the default, {known}")
        self.wheel_variant = variant
        self.wheel_values = ACTION_WHEELS[variant]

    def setup(self) -> None:
        """Put out the supply, the buildings, the boards and (solo) the card stacks."""
        for g, amount in enumerate(STARTING_BARN):
            self.supply[g] -= amount * self.players
        if self.solo:
            # Solo: only 4 water in the general supply; the rest stay in the box.
            self.box[WATER] = self.supply[WATER] - SOLO_WATER_SUPPLY
            self.supply[WATER] = SOLO_WATER_SUPPLY
            self.action_stack = list(SOLO_FIRST_STACK)
            self.rng.shuffle(self.action_stack)
            self.stack_base = sorted(SOLO_FIRST_STACK)
            self.supply_stack = list(SOLO_SUPPLY_STACK)
            self.rng.shuffle(self.supply_stack)
            self.set_aside = list(range(len(BUILDINGS)))  # no buildings in the solo game
            self._solo_begin_turn()
            return
        dark = [i for i, b in enumerate(BUILDINGS) if b.profi]
        pool = [i for i, b in enumerate(BUILDINGS) if self.profi or not b.profi]
        self.set_aside = [] if self.profi else dark
        self.rng.shuffle(pool)
        removed = REMOVED_BY_PLAYERS[self.players]
        self.removed = sorted(pool[:removed])
        self.stack = pool[removed:]
        self._refill_display()
        if self.players == 3:
            self.boss = FIRST_BOSS_SHEEP

    # ------------------------------------------------------------------------------------------
    # Whose decision, and what may they do
    # ------------------------------------------------------------------------------------------

    def cards_to_choose(self, player: int) -> int:
        """Action cards ``player`` plays this round: 2 with two players or as Boss Sheep, else 1."""
        if self.players == 2 or player == self.boss:
            return 2
        return 1

    def actors(self) -> list[int]:
        """Players who must decide now (cached with the legal lists until the next action)."""
        cached = self._legal.get(ACTORS_KEY)
        if cached is None:
            cached = self._legal[ACTORS_KEY] = self._compute_actors()
        return list(cached)

    def _compute_actors(self) -> list[int]:
        phase = self.phase
        if phase == CHOOSE:  # cards_to_choose, inlined
            two, boss = self.players == 2, self.boss
            return [p for p, b in enumerate(self.boards) if len(b.cards) < (2 if two or p == boss else 1)]
        if phase == AWARD:
            return [self.gains[0][0]] if self.gains else [self.chooser]
        if phase == ACT:
            return list(self.act_order) if self.simultaneous else [self.act_order[0]]
        if phase == SOLO_PICK:
            return [0]
        return []

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    def legal_actions(self, player: int) -> list[str]:
        """Every action ``player`` may take now (a fresh list; cached per state)."""
        legal = self._legal
        cached = legal.get(player)
        if cached is None:
            actors = legal.get(ACTORS_KEY)
            if actors is None:
                actors = legal[ACTORS_KEY] = self._compute_actors()
            cached = legal[player] = self._compute_legal(player) if player in actors else []
        return list(cached)

    def _compute_legal(self, p: int) -> list[str]:
        board = self.boards[p]
        phase = self.phase
        if phase == CHOOSE:
            if not board.cards:
                return list(CARD_ACTIONS)  # (what the line below gives with no card chosen yet)
            return [CARD_ACTIONS[c] for c in range(len(CARDS)) if c not in board.cards]
        if phase == AWARD:
            if self.gains:
                return [GAIN_ACTIONS[g] for g in self._gain_choices()]
            return list(TAKE_ACTIONS[: len(self.display)])
        if phase == SOLO_PICK:
            actions = list(CARD_ACTIONS)
            if self.tokens and self.action_stack:
                actions.append("redraw")
            return actions + self._anytime_actions(board)
        # phase 3
        if board.current == NO_CARD:
            return [START_ACTIONS[c] for c in board.pending] + self._anytime_actions(board)
        actions = self._card_actions(board)
        if self.profi and board.current in (SOW, HARVEST) and board.barn[WATER] >= 1:
            actions.append("pay-water")
        actions += self._anytime_actions(board)
        actions.append("done")
        return actions

    def _card_actions(self, board: Board) -> list[str]:
        """The steps of the card being carried out (phase 3)."""
        card = board.current
        if card in (SOW, SEED_STORE):
            return self._sow_actions(board) if board.remaining > 0 else []
        if card == HARVEST:
            return self._harvest_actions(board) if board.remaining > 0 else []
        if card == WATER_CARD:
            return ["water"] if board.remaining > 0 and self.supply[WATER] > 0 else []
        return [FEED_ACTIONS[a] for a in range(len(ANIMALS)) if self._can_feed(board, a)]

    def _sow_actions(self, board: Board) -> list[str]:
        """Rulebook "Sow": a plant from the barn plus one from the supply, on an empty bed of the
        area under that plant's sector of the player wheel."""
        actions = []
        barn, supply, beds = board.barn, self.supply, board.beds
        sow_area = SOW_AREAS[board.wheel % SECTOR_COUNT]
        for crop in FEEDS:
            if barn[crop] and supply[crop]:
                area = sow_area[crop]
                if EMPTY_BED in map(beds.__getitem__, BEDS_OF_AREA[area]):
                    actions.append(SOW_ACTIONS[crop][area])
        return actions

    def _harvest_actions(self, board: Board) -> list[str]:
        """Rulebook "Harvest": one 2-tile stack from an area under a harvest sector."""
        actions = []
        beds = board.beds
        for area in HARVEST_AREAS[board.wheel % SECTOR_COUNT]:
            crops = sorted({beds[bed] for bed in BEDS_OF_AREA[area]} - {EMPTY_BED})
            actions += [HARVEST_ACTIONS[c][area] for c in crops]
        return actions

    def _can_feed(self, board: Board, animal: int) -> bool:
        """Rulebook "Feed": an animal in the stable, its feed in the barn, room on its pasture."""
        if board.pasture[animal] != IN_STABLE:
            return False
        barn = board.barn
        for good, need in enumerate(FEED_COST[animal]):
            if barn[good] < need:
                return False
        return board.pasture_load(area_of_sector(board.wheel, HEAD_SECTOR[animal])) < PASTURE_CAPACITY

    def _anytime_actions(self, board: Board) -> list[str]:
        """Rulebook "At Any Time": turning the player wheel; solo: spending a Special Action token."""
        actions = ["turn-wheel"] if self._can_turn_wheel(board) else []
        if self.solo and self.tokens:
            actions += [TOKEN_ACTIONS[g] for g in range(len(GOODS)) if self.supply[g]]
        return actions

    def _can_turn_wheel(self, board: Board) -> bool:
        """Rulebook "Player Wheel": 1 water, and the bar must pass over a completely empty area."""
        if board.barn[WATER] < WHEEL_TURN_COST:
            return False
        area = self._bar_area(board)
        if self.animals_block_wheel and board.pasture_load(area):
            return False
        return board.area_is_empty(area)

    @staticmethod
    def _bar_area(board: Board) -> int:
        """DA-FR3: the area the bar passes over on the next turn (the one under k6 now)."""
        return BAR_AREAS[board.wheel % SECTOR_COUNT]  # area_of_sector(board.wheel, BAR_AFTER_SECTOR)

    def _gain_choices(self) -> list[int]:
        """Goods a reward of choice may take now (feed only, or any good), available in the supply."""
        goods = FEEDS if self.gains[0][2] else tuple(range(len(GOODS)))
        return [g for g in goods if self.supply[g] > 0]

    # ------------------------------------------------------------------------------------------
    # Reading notation and explaining refusals
    # ------------------------------------------------------------------------------------------

    def parse_action(self, player: int, text: str) -> str:
        """Read typed notation (case and extra spaces tolerated) into the canonical action string."""
        wanted = normalize(text)
        for action in self.legal_actions(player):
            if action.lower() == wanted:
                return action
        canonical = canonical_notation(wanted)
        if canonical is None:
            if not wanted:
                raise IllegalAction("empty move: type one of the legal moves")
            raise IllegalAction(f"cannot read '{shorten(text)}'; {NOTATION_HELP}")
        return canonical

    def explain_illegal(self, player: int, text: str, legal: list[str]) -> str:
        """The rule-naming message for notation ``text`` that is not legal now."""
        return self.explain(player, text, legal)

    def check_action(self, player: int, action: str) -> None:
        """Accept exactly the legal actions; otherwise name the broken rule."""
        legal = self.legal_actions(player)
        if action in legal:
            return
        raise IllegalAction(self.explain(player, action, legal))

    def explain(self, player: int, action: Any, legal: list[str]) -> str:
        """A player-worded reason why ``action`` is not allowed now."""
        text = str(action)
        canonical = canonical_notation(normalize(text)) if isinstance(action, str) else None
        if canonical is None:
            return f"cannot read '{shorten(text)}'; {NOTATION_HELP}"
        reason = self._reason(player, canonical)
        shown = ", ".join(legal[:LEGAL_SHOWN]) + (" …" if len(legal) > LEGAL_SHOWN else "")
        return f"'{canonical}' is not allowed: {reason}; legal now: {shown}"

    def _reason(self, p: int, action: str) -> str:
        board = self.boards[p]
        words = action.split()
        verb = words[0]
        phase = self.phase
        if verb == "card":
            card = CARD_INDEX[words[1]]
            if phase not in (CHOOSE, SOLO_PICK):
                return f"action cards are chosen in phase 1; now is {phase_name(self)}"
            if card in board.cards:
                return f"you already chose {CARDS[card]} this round; your second card must be another one"
            return "you may not choose a card now"
        if phase == CHOOSE:
            return "phase 1: choose an action card first (e.g. 'card sow')"
        if verb == "take":
            if phase != AWARD or self.gains or self.chooser != p:
                return "only the player awarded an ornamental building takes a face-up tile"
            return f"there are only {len(self.display)} face-up ornamental buildings"
        if verb == "gain":
            if phase != AWARD or not self.gains:
                return "no reward of choice is waiting"
            good = GOOD_INDEX[words[1]]
            if self.gains[0][2] and good == WATER:
                return "this building gives feed plants of your choice, not water"
            return f"the general supply has no {GOODS[good]} left"
        if phase == AWARD:
            return "phase 2: the ornamental building award must be settled first"
        if verb == "redraw":
            if phase != SOLO_PICK:
                return "redraw is a solo move, only right after a card is revealed"
            if not self.tokens:
                return "redrawing costs a Special Action token and you have none"
            return "the action stack is empty: there is no card to reveal instead"
        if verb == "token":
            if not self.solo:
                return "Special Action tokens are used only in the solo game"
            if not self.tokens:
                return "you have no Special Action token"
            return f"the general supply has no {words[1]} left"
        if verb == "turn-wheel":
            if board.barn[WATER] < WHEEL_TURN_COST:
                return "turning the player wheel costs 1 water and you have none"
            area = self._bar_area(board)
            if self.animals_block_wheel and board.pasture_load(area):
                return f"the bar would pass over {AREA_NAMES[area]}, where animals stand on the pasture"
            return f"the bar would pass over {AREA_NAMES[area]}, which is not completely empty (harvest it first)"
        if phase == SOLO_PICK:
            return "solo: first pick this turn's action (e.g. 'card sow') or redraw"
        if verb == "start":
            card = CARD_INDEX[words[1]]
            if board.current != NO_CARD:
                return f"finish your {CARDS[board.current]} action first ('done')"
            if card not in board.pending:
                return f"you did not play {CARDS[card]} (or already carried it out) this round"
            return "you cannot start that now"
        if board.current == NO_CARD:
            return "choose which of your cards to carry out first (e.g. 'start sow')"
        current = CARDS[board.current]
        if verb == "pay-water":
            if not self.profi:
                return "paying water for extra actions is a Profi rule"
            if board.current not in (SOW, HARVEST):
                return "water buys extra Sow or Harvest actions only during those actions"
            return "you have no water"
        if verb == "done":
            return "nothing to finish"
        if verb == "sow":
            if board.current not in (SOW, SEED_STORE):
                return f"you are carrying out {current}, not sow"
            if board.remaining <= 0:
                return "you have no Sow action left"
            crop = GOOD_INDEX[words[1]]
            area = AREA_INDEX[words[2].lower()]
            if not board.barn[crop]:
                return f"you have no {GOODS[crop]} in your barn"
            if not self.supply[crop]:
                return f"the general supply has no {GOODS[crop]} for the second tile"
            right = area_of_sector(board.wheel, SOW_CROP_SECTOR[crop])
            if area != right:
                return f"your player wheel lets {GOODS[crop]} be sown only in {AREA_NAMES[right]} now"
            return f"{AREA_NAMES[area]} has no empty bed"
        if verb == "harvest":
            if board.current != HARVEST:
                return f"you are carrying out {current}, not harvest"
            if board.remaining <= 0:
                return "you have no Harvest action left"
            crop = GOOD_INDEX[words[1]]
            area = AREA_INDEX[words[2].lower()]
            if not SECTOR_IS_HARVEST[sector_of_area(board.wheel, area)]:
                return f"{AREA_NAMES[area]} is not under a harvest sector of your player wheel"
            return f"{AREA_NAMES[area]} has no {GOODS[crop]} to harvest"
        if verb == "water":
            if board.current != WATER_CARD:
                return f"you are carrying out {current}, not water"
            if board.remaining <= 0:
                return "you have taken all the water the action wheel allows"
            return "the general supply has no water left"
        if verb == "feed":
            if board.current != FEED:
                return f"you are carrying out {current}, not feed"
            animal = ANIMAL_INDEX[words[1]]
            if board.pasture[animal] != IN_STABLE:
                return f"your {ANIMALS[animal]} is not in the stable"
            cost = ", ".join(f"{n} {GOODS[g]} (you have {board.barn[g]})" for g, n in enumerate(FEED_COST[animal]) if n)
            area = area_of_sector(board.wheel, HEAD_SECTOR[animal])
            if board.pasture_load(area) >= PASTURE_CAPACITY:
                return f"the pasture of {AREA_NAMES[area]} under the {ANIMALS[animal]} head is full"
            return f"a {ANIMALS[animal]} eats {cost}"
        return "that is not possible now"

    # ------------------------------------------------------------------------------------------
    # Carrying out an action
    # ------------------------------------------------------------------------------------------

    def _do(self, player: int, action: str) -> None:
        actors = self._carry_out(player, action)
        # The action changed the state: cached legal lists and actors are stale, except the actors the
        # last step of the action found.
        self._legal = {} if actors is None else {ACTORS_KEY: actors}

    def _carry_out(self, player: int, action: str) -> list[int] | None:
        """Carry out ``action``; returns the actors of the new position when its last step found them."""
        words = _WORDS.get(action)
        if words is None:
            words = action.split()
            if len(_WORDS) < _MAX_WORDS:
                _WORDS[action] = words  # read only below
        verb = words[0]
        board = self.boards[player]
        if verb == "card":
            return self._choose_card(player, CARD_INDEX[words[1]])
        elif verb == "take":
            self._take_building(player, self.display[int(words[1]) - 1])
            self.chooser = NOBODY
            self._advance_award()
        elif verb == "gain":
            self._gain(GOOD_INDEX[words[1]])
        elif verb == "turn-wheel":
            self.turn_player_wheel(board)
        elif verb == "token":
            # Solo "Any-Time Action": a Special Action token for one good of your choice.
            good = GOOD_INDEX[words[1]]
            self.tokens -= 1
            self.supply[good] -= 1
            board.barn[good] += 1
        elif verb == "redraw":
            self._solo_redraw()
        elif verb == "start":
            self._start_card(board, CARD_INDEX[words[1]])
        elif verb == "pay-water":
            # Profi: 1 water buys one more Sow or Harvest action.
            board.barn[WATER] -= 1
            self.supply[WATER] += 1
            board.remaining += 1
        elif verb == "sow":
            self._sow(board, GOOD_INDEX[words[1]], AREA_INDEX[words[2].lower()])
        elif verb == "harvest":
            self._harvest(board, GOOD_INDEX[words[1]], AREA_INDEX[words[2].lower()])
        elif verb == "water":
            self.supply[WATER] -= 1
            board.barn[WATER] += 1
            board.remaining -= 1
        elif verb == "feed":
            self._feed(board, ANIMAL_INDEX[words[1]])
        elif verb == "done":
            self._finish_card(player, board)
        return None

    # --- Phase 1: choose action cards ------------------------------------------------------------

    def _choose_card(self, player: int, card: int) -> list[int] | None:
        """Phase 1: ``player`` chooses ``card``; returns who still chooses (None once all have chosen)."""
        if self.solo:
            # Solo part 3: carry out one of the five actions, whatever card was revealed.
            self.phase = ACT
            self.act_order = [0]
            self._start_card(self.boards[0], card)
            return None
        self.boards[player].cards.append(card)
        if actors := self._compute_actors():
            return actors
        self._reveal_cards()
        return None

    def _reveal_cards(self) -> None:
        """All have chosen: the cards are revealed together (hidden information resolves)."""
        self.epoch += 1
        self.card_count = [0] * len(CARDS)
        for board in self.boards:
            for card in board.cards:
                self.card_count[card] += 1
        self._start_award()

    # --- Phase 2: award ornamental buildings -----------------------------------------------------

    def _start_award(self) -> None:
        """Rulebook "Phase 2": one award per card played by several players."""
        self.phase = AWARD
        groups = [
            [p for p, b in enumerate(self.boards) if card in b.cards]
            for card in range(len(CARDS))
            if self.card_count[card] >= 2
        ]
        self.award_groups = []
        if len(groups) == 2 and self.players != 2:
            # Two pairs: lots decide who receives which face-up building.
            winners = [self.award_winner(g) for g in groups]
            if winners[0] != NOBODY and winners[1] != NOBODY:
                first = self.rng.below(DISPLAY_SIZE)
                self.epoch += 1
                tiles = [self.display[first], self.display[1 - first]]
                for winner, tile in zip(winners, tiles, strict=True):
                    self._take_building(winner, tile)
            else:
                self.award_groups = [g for g, w in zip(groups, winners, strict=True) if w != NOBODY]
        else:
            # One award, or (2 players) two awards one after the other, the second decided anew.
            self.award_groups = groups
        self._advance_award()

    def award_winner(self, group: list[int]) -> int:
        """Who of ``group`` receives the building (overview card), or NOBODY on a full tie.

        Basic: (I) fewest ornamental buildings, (II) most visible scarecrows, (III) fewest feed
        plants in the barn. Profi (DA-FR4): (I) fewest buildings, (II) fewest product stars,
        (III) fewest feed plants in the barn.
        """

        def key(p: int) -> tuple[int, int, int]:
            b = self.boards[p]
            second = b.product_stars() if self.profi else -b.scarecrows()
            return (len(b.garden), second, b.feed_in_barn())

        keys = sorted((key(p), p) for p in group)
        if len(keys) > 1 and keys[0][0] == keys[1][0]:
            return NOBODY
        return keys[0][1]

    def _advance_award(self) -> None:
        """Settle awards until a decision is needed; then go on to phase 3."""
        while not self.gains and self.chooser == NOBODY:
            if not self.award_groups or not self.display:
                self.award_groups = []
                self._start_actions()
                return
            winner = self.award_winner(self.award_groups.pop(0))
            if winner == NOBODY:
                continue
            if len(self.display) == 1:
                # "the second must make do with the remaining one"
                self._take_building(winner, self.display[0])
            else:
                self.chooser = winner

    def _take_building(self, player: int, building: int) -> None:
        """The tile goes into the garden; its printed reward is collected at once, once only."""
        self.display.remove(building)
        board = self.boards[player]
        board.garden.append(building)
        tile = BUILDINGS[building]
        for good, amount in enumerate(tile.goods):
            got = min(amount, self.supply[good])
            self.supply[good] -= got
            board.barn[good] += got
        if tile.feed_of_choice:
            self.gains.append([player, tile.feed_of_choice, 1])
            self._drop_impossible_gains()

    def _gain(self, good: int) -> None:
        player, count, feed_only = self.gains[0]
        self.supply[good] -= 1
        self.boards[player].barn[good] += 1
        if count > 1:
            self.gains[0] = [player, count - 1, feed_only]
        else:
            self.gains.pop(0)
        self._drop_impossible_gains()
        if self.phase == AWARD:
            self._advance_award()

    def _drop_impossible_gains(self) -> None:
        """A reward of choice the supply cannot pay any more is lost."""
        while self.gains and not self._gain_choices():
            self.gains.pop(0)

    # --- Phase 3: carry out actions -------------------------------------------------------------

    def _start_actions(self) -> None:
        """Rulebook "Phase 3": in turn, in seat order (the rulebook's advice for learning), or with
        the 'simultaneous' variant everyone at the same time."""
        self.phase = ACT
        self.act_order = list(range(self.players))
        for player in self.act_order if self.simultaneous else self.act_order[:1]:
            self._begin_player(player)

    def _begin_player(self, player: int) -> None:
        board = self.boards[player]
        board.pending = sorted(board.cards)
        board.current = NO_CARD
        if len(board.pending) == 1:
            self._start_card(board, board.pending[0])

    def _start_card(self, board: Board, card: int) -> None:
        """Begin carrying out ``card``: the action wheel gives Sow/Harvest/Water their number."""
        if card in board.pending:
            board.pending.remove(card)
        board.current = card
        if card in WHEEL_CARDS:
            # Solo: the lower number, except the higher for the revealed card's action.
            alone = card == self.revealed if self.solo else self.card_count[card] == 1
            board.remaining = wheel_count(self.action_wheel, card, alone, self.wheel_values)
        elif card == SEED_STORE:
            # Seed Store: 1 of each good missing from the barn (water too), then one Sow.
            for good in range(len(GOODS)):
                if board.barn[good] == 0 and self.supply[good] > 0:
                    board.barn[good] += 1
                    self.supply[good] -= 1
            board.remaining = 1
        else:
            board.remaining = 0

    def _sow(self, board: Board, crop: int, area: int) -> None:
        """One Sow: barn tile + supply tile stacked on an empty bed (scarecrow bed last)."""
        beds = BEDS_OF_AREA[area]
        empty = [bed for bed in beds if board.beds[bed] == EMPTY_BED]
        bed = empty[-1]  # the scarecrow bed is the first of its area: keep it visible longest
        board.beds[bed] = crop
        board.barn[crop] -= 1
        self.supply[crop] -= 1
        board.remaining -= 1

    def _harvest(self, board: Board, crop: int, area: int) -> None:
        """One Harvest: a 2-tile stack into the barn (the scarecrow bed first, uncovering it)."""
        bed = next(bed for bed in BEDS_OF_AREA[area] if board.beds[bed] == crop)
        board.beds[bed] = EMPTY_BED
        board.barn[crop] += STACK_HEIGHT
        board.remaining -= 1

    def _feed(self, board: Board, animal: int) -> None:
        """Feed: pay the feeding table, move the animal to the pasture under its head."""
        for good, amount in enumerate(FEED_COST[animal]):
            board.barn[good] -= amount
            self.supply[good] += amount
        board.pasture[animal] = area_of_sector(board.wheel, HEAD_SECTOR[animal])

    def turn_player_wheel(self, board: Board) -> None:
        """Rulebook "Player Wheel" and "Products": 1 water, one area on; animals on the pacifier
        go back to the stable and their product marker moves up."""
        board.barn[WATER] -= WHEEL_TURN_COST
        self.supply[WATER] += WHEEL_TURN_COST
        board.wheel = (board.wheel + 1) % SECTOR_COUNT
        pacifier_area = area_of_sector(board.wheel, PACIFIER_SECTOR)
        for animal, where in enumerate(board.pasture):
            if where == pacifier_area:
                board.pasture[animal] = IN_STABLE
                board.products[animal] = min(PRODUCT_TRACK_MAX, board.products[animal] + 1)

    def _finish_card(self, player: int, board: Board) -> None:
        board.current = NO_CARD
        board.remaining = 0
        if board.pending:
            if len(board.pending) == 1:
                self._start_card(board, board.pending[0])
            return
        self.act_order.remove(player)
        if self.solo:
            self._solo_end_turn()
        elif not self.act_order:
            self._muck_out()
        elif not self.simultaneous:
            self._begin_player(self.act_order[0])

    # --- Phase 4: mucking out --------------------------------------------------------------------

    def _muck_out(self) -> None:
        """Cards back, action wheel on, Boss Sheep on, buildings refilled or the game ends."""
        for board in self.boards:
            board.cards = []
        self.card_count = [0] * len(CARDS)
        self.action_wheel = (self.action_wheel + 1) % ACTION_WHEEL_SECTIONS
        if self.players == 3:
            self.boards[self.boss].boss_count += 1
            self.boss = (self.boss + 1) % self.players
            if self.final_rounds and self._boss_even():
                self.phase = OVER
                return
        if not self._refill_display():
            if self.players != 3 or self.final_rounds or self._boss_even():
                self.phase = OVER
                return
            # 3 players: play on until everyone had the Boss Sheep equally often, with the
            # set-aside tiles shuffled into the stack.
            self.final_rounds = True
            self.stack = self.removed + self.stack
            self.removed = []
            self.rng.shuffle(self.stack)
            self.epoch += 1
            if not self._refill_display():
                self.phase = OVER
                return
        self.round += 1
        if self.max_rounds is not None and self.round > self.max_rounds:
            # Not a rule: a safety stop for players (or agents) who never share a card.
            self.phase = OVER
            return
        self.phase = CHOOSE

    def _boss_even(self) -> bool:
        return len({b.boss_count for b in self.boards}) == 1

    def _refill_display(self) -> bool:
        """Refill to two face-up buildings; False (nothing changed) when the stack cannot."""
        need = DISPLAY_SIZE - len(self.display)
        if need > len(self.stack):
            return False
        for _ in range(need):
            self.display.append(self.stack.pop())
        if need:
            self.epoch += 1
        return True

    # --- Solo -----------------------------------------------------------------------------------

    def _solo_begin_turn(self) -> None:
        """Solo part 1: reveal the top card (a new action stack when empty; none left: game over)."""
        if not self.action_stack:
            if not self.supply_stack:
                self.phase = OVER
                return
            self.unknown_card = self.supply_stack.pop()
            self.stack_base = sorted(self.discard)
            self.action_stack = [*self.discard, self.unknown_card]
            self.discard = []
            self.rng.shuffle(self.action_stack)
            self.known_bottom = 0
            self.revealed_from_shuffle = []
            self.tokens = min(SOLO_MAX_TOKENS, self.tokens + 1)
        self.turn += 1
        self._solo_reveal()
        self.phase = SOLO_PICK

    def _solo_reveal(self) -> None:
        from_shuffle = len(self.action_stack) > self.known_bottom
        card = self.action_stack.pop()
        if from_shuffle:
            self.revealed_from_shuffle.append(card)
        else:
            self.known_bottom -= 1
        self.revealed = card
        self.epoch += 1
        if card == WATER_CARD:
            # A water card turns the action wheel one river further.
            self.action_wheel = (self.action_wheel + 1) % ACTION_WHEEL_SECTIONS

    def _solo_redraw(self) -> None:
        """Solo part 2: for a token, the card goes face down under the stack and a new one is revealed."""
        self.tokens -= 1
        self.action_stack.insert(0, self.revealed)
        self.known_bottom += 1
        self._solo_reveal()

    def _solo_end_turn(self) -> None:
        self.discard.append(self.revealed)
        self.revealed = NO_CARD
        self._solo_begin_turn()

    # ------------------------------------------------------------------------------------------
    # Score, views, hidden information
    # ------------------------------------------------------------------------------------------

    def result(self) -> Result:
        """The score sheet as it stands (final once the game is over)."""
        extra: dict[str, object] = {"rounds": self.turn if self.solo else self.round, "over": self.is_over()}
        return score([b.score_input() for b in self.boards], extra)

    def heuristic(self, player: int) -> float:
        """How good the position looks for ``player`` (greedy agent, search cut-offs); see ``evaluation.py``."""
        from farmtable.games.farmerama.evaluation import heuristic

        return heuristic(self, player)

    def evaluate(self) -> list[float]:
        """Each player's expected final objective from here (search leaves); see ``evaluation.py``."""
        from farmtable.games.farmerama.evaluation import evaluate

        return evaluate(self)

    def info_epoch(self) -> int:
        """Moves on with every reveal: cards resolved, a lot drawn, a tile or solo card turned up."""
        return self.epoch

    def hidden_choice(self, player: int) -> bool:
        """True while ``player``'s chosen card(s) are still secret (phase 1 not yet resolved)."""
        return self.phase == CHOOSE and bool(self.boards[player].cards)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees (None: a spectator): no face-down order, no unrevealed cards."""
        from farmtable.games.farmerama.render import board_view

        choices = []
        for q, board in enumerate(self.boards):
            if self.solo:
                break
            if not board.cards:
                choices.append(f"P{q} is choosing")
            elif self.hidden_choice(q):
                status = "has chosen" if len(board.cards) == self.cards_to_choose(q) else "is choosing"
                choices.append(f"P{q} {status} ({len(board.cards)} card(s) down)")
            else:
                choices.append(f"P{q} chose {', '.join(CARDS[c] for c in board.cards)}")
        wheel = self.wheel_values[self.action_wheel]
        following = self.wheel_values[(self.action_wheel + 1) % ACTION_WHEEL_SECTIONS]
        data: dict[str, Any] = {
            "game": "farmerama",
            "players": self.players,
            "variant": "profi" if self.profi else "basic",
            "round": self.round,
            "phase": self.phase,
            "actors": self.actors(),
            "action_wheel": {
                "section": self.action_wheel,
                **{k: list(v) for k, v in wheel._asdict().items()},
                "next": {k: list(v) for k, v in following._asdict().items()},
            },
            "supply": dict(zip(GOODS, self.supply, strict=True)),
            "buildings_face_up": [
                {"slot": i + 1, "id": BUILDINGS[b].id, "reward": BUILDINGS[b].label} for i, b in enumerate(self.display)
            ],
            "buildings_in_stack": len(self.stack),
            "buildings_removed_face_down": len(self.removed),
            "card_choices": choices,
            "boards": [board_view(self, q) for q in range(self.players)],
        }
        if player is not None and 0 <= player < self.players:
            data["my_cards"] = [CARDS[c] for c in self.boards[player].cards]
        if self.players == 3:
            data["boss_sheep"] = self.boss
            data["final_rounds"] = self.final_rounds
        if self.phase == AWARD:
            data["award"] = {
                "chooser": self.chooser,
                "rewards_of_choice": [{"player": g[0], "count": g[1], "feed_only": bool(g[2])} for g in self.gains],
            }
        if self.phase == ACT:
            data["acting"] = [
                {
                    "player": q,
                    "card": CARDS[self.boards[q].current] if self.boards[q].current != NO_CARD else None,
                    "remaining": self.boards[q].remaining,
                    "still_to_do": [CARDS[c] for c in self.boards[q].pending],
                }
                for q in self.actors()
            ]
        if self.solo:
            data["solo"] = {
                "turn": self.turn,
                "revealed": CARDS[self.revealed] if self.revealed != NO_CARD else None,
                "tokens": self.tokens,
                "action_stack": len(self.action_stack),
                "supply_stack": len(self.supply_stack),
                "discard": [CARDS[c] for c in self.discard],
                "pushed_under": [CARDS[c] for c in reversed(self.action_stack[: self.known_bottom])],
                "goal": score([b.score_input() for b in self.boards]).details["solo_goal"],
            }
        return data

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> FarmeramaState:
        """Same seen facts; others' hidden cards, the face-down buildings and solo stacks re-sampled."""
        source = as_rng(rng)
        det = self.clone()
        det.rng = Rng(source.next64())
        det._legal = {}
        if self.phase == CHOOSE:
            for q, board in enumerate(det.boards):
                if q != player and board.cards:
                    cards = list(range(len(CARDS)))
                    source.shuffle(cards)
                    board.cards = cards[: len(board.cards)]
        unseen = sorted(det.stack + det.removed)  # sorted: the sample must not depend on the hidden order
        source.shuffle(unseen)
        det.stack = unseen[: len(self.stack)]
        det.removed = sorted(unseen[len(self.stack) :])
        if self.solo:
            det._resample_solo_stacks(source)
        return det

    def _resample_solo_stacks(self, source: Rng) -> None:
        """Solo: the unknown supply card shuffled in and the supply stack order are re-drawn,
        keeping every card the player has revealed since the shuffle."""
        shuffled_len = len(self.action_stack) - self.known_bottom
        # sorted: the sample must not depend on the hidden order of the stacks
        candidates = sorted(self.supply_stack + ([self.unknown_card] if self.unknown_card != NO_CARD else []))
        if self.unknown_card == NO_CARD:
            pool = sorted(self.stack_base)
            for card in self.revealed_from_shuffle:
                pool.remove(card)
            source.shuffle(pool)
            self.action_stack = self.action_stack[: self.known_bottom] + pool
            self.supply_stack.sort()
            source.shuffle(self.supply_stack)
            return
        options = []
        for i, card in enumerate(candidates):
            rest = sorted([*self.stack_base, card])
            ok = True
            for seen in self.revealed_from_shuffle:
                if seen in rest:
                    rest.remove(seen)
                else:
                    ok = False
                    break
            if ok and len(rest) == shuffled_len:
                options.append((i, rest))
        index, rest = source.choice(options)
        source.shuffle(rest)
        self.unknown_card = candidates[index]
        self.supply_stack = candidates[:index] + candidates[index + 1 :]
        source.shuffle(self.supply_stack)
        self.action_stack = self.action_stack[: self.known_bottom] + rest

    def clone(self) -> FarmeramaState:
        """A fast independent copy (hand-written; no deepcopy)."""
        other = FarmeramaState.__new__(FarmeramaState)
        other.__dict__.update(self.__dict__)
        other.rng = Rng(self.rng.state)
        other.supply = self.supply[:]
        other.box = self.box[:]
        other.stack = self.stack[:]
        other.display = self.display[:]
        other.removed = self.removed[:]
        other.set_aside = self.set_aside[:]
        other.boards = [b.clone() for b in self.boards]
        other.card_count = self.card_count[:]
        other.award_groups = [g[:] for g in self.award_groups]
        other.gains = [g[:] for g in self.gains]
        other.act_order = self.act_order[:]
        other.action_stack = self.action_stack[:]
        other.supply_stack = self.supply_stack[:]
        other.discard = self.discard[:]
        other.stack_base = self.stack_base[:]
        other.revealed_from_shuffle = self.revealed_from_shuffle[:]
        other._legal = dict(self._legal)
        return other

    def render_text(self, player: int | None = None) -> str:
        """The farmlands and the table as plain text."""
        from farmtable.games.farmerama.render import render_text

        return render_text(self, player)

    # ------------------------------------------------------------------------------------------
    # Saving and loading
    # ------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything, RNG included, as JSON-able data."""
        return {
            "players": self.players,
            "profi": self.profi,
            "simultaneous": self.simultaneous,
            "first_values": self.first_values,
            "wheel_variant": self.wheel_variant,
            "animals_block_wheel": self.animals_block_wheel,
            "max_rounds": self.max_rounds,
            "rng": self.rng.state,
            "epoch": self.epoch,
            "round": self.round,
            "phase": self.phase,
            "supply": self.supply,
            "box": self.box,
            "action_wheel": self.action_wheel,
            "stack": self.stack,
            "display": self.display,
            "removed": self.removed,
            "set_aside": self.set_aside,
            "boards": [
                {
                    "barn": b.barn,
                    "beds": b.beds,
                    "wheel": b.wheel,
                    "pasture": b.pasture,
                    "products": b.products,
                    "garden": b.garden,
                    "cards": b.cards,
                    "boss_count": b.boss_count,
                    "pending": b.pending,
                    "current": b.current,
                    "remaining": b.remaining,
                }
                for b in self.boards
            ],
            "boss": self.boss,
            "final_rounds": self.final_rounds,
            "card_count": self.card_count,
            "award_groups": self.award_groups,
            "chooser": self.chooser,
            "gains": self.gains,
            "act_order": self.act_order,
            "turn": self.turn,
            "tokens": self.tokens,
            "revealed": self.revealed,
            "action_stack": self.action_stack,
            "supply_stack": self.supply_stack,
            "discard": self.discard,
            "known_bottom": self.known_bottom,
            "stack_base": self.stack_base,
            "unknown_card": self.unknown_card,
            "revealed_from_shuffle": self.revealed_from_shuffle,
        }


def phase_name(state: FarmeramaState) -> str:
    """The current phase in player words."""
    return {
        CHOOSE: "phase 1 (choose action cards)",
        AWARD: "phase 2 (award ornamental buildings)",
        ACT: "phase 3 (carry out actions)",
        SOLO_PICK: "the start of a solo turn",
        OVER: "the end of the game",
    }[state.phase]


def canonical_notation(text: str) -> str | None:
    """The canonical form of normalized notation ``text``, or None if it is not Farmerama notation."""
    words = text.split()
    if not words:
        return None
    verb = words[0]
    if len(words) == 1:
        return verb if verb in ("done", "water", "turn-wheel", "pay-water", "redraw") else None
    if len(words) == 2:
        arg = words[1]
        if verb in ("card", "start") and arg in CARD_INDEX:
            return f"{verb} {arg}"
        if verb in ("gain", "token") and arg in GOOD_INDEX:
            return f"{verb} {arg}"
        if verb == "feed" and arg in ANIMAL_INDEX:
            return f"feed {arg}"
        if verb == "take" and arg in ("1", "2"):
            return f"take {arg}"
        return None
    if len(words) == 3 and verb in ("sow", "harvest"):
        crop, area = words[1], words[2]
        if crop in GOOD_INDEX and GOOD_INDEX[crop] != WATER and area in AREA_INDEX:
            return f"{verb} {crop} {AREA_NAMES[AREA_INDEX[area]]}"
    return None


# ----------------------------------------------------------------------------------------------
# Loading a save: every field is checked, so a damaged save is refused rather than crashing later
# ----------------------------------------------------------------------------------------------


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    return whole_number(data[key], f"'{key}'", low, high)


def _ints(data: dict[str, Any], key: str, low: int, high: int, length: int | None = None) -> list[int]:
    return whole_numbers(data[key], f"'{key}'", low, high, length)


def state_from_dict(data: dict[str, Any]) -> FarmeramaState:
    """Rebuild a state saved by ``to_dict``; ValueError naming the first inconsistency."""
    players = _int(data, "players", 1, 4)
    profi = data["profi"]
    simultaneous = data["simultaneous"]
    if not isinstance(simultaneous, bool) or (simultaneous and players == 1):
        raise ValueError("'simultaneous' must be true or false (and false in the solo game)")
    if not isinstance(profi, bool) or (profi and players == 1):
        raise ValueError("'profi' must be true or false (and false in the solo game)")
    rng_state = _int(data, "rng", 0, MAX_RNG_STATE)
    state = FarmeramaState(players, profi, Rng(rng_state))
    state.simultaneous = simultaneous
    animals_block = data["animals_block_wheel"]
    if not isinstance(animals_block, bool):
        raise ValueError("'animals_block_wheel' must be true or false")
    state.animals_block_wheel = animals_block
    state.max_rounds = None if data["max_rounds"] is None else _int(data, "max_rounds", 1, MAX_ROUNDS_LIMIT)
    state.epoch = _int(data, "epoch", 0, 1 << 62)
    state.round = _int(data, "round", 1, 1 << 30)
    phase = data["phase"]
    if phase not in PHASES or (phase == SOLO_PICK) != (players == 1 and phase != ACT and phase != OVER):
        raise ValueError(f"unknown or impossible phase {phase!r}")
    state.phase = phase
    goods = len(GOODS)
    state.supply = _ints(data, "supply", 0, TILES_PER_GOOD, goods)
    state.box = _ints(data, "box", 0, TILES_PER_GOOD, goods)
    state.action_wheel = _int(data, "action_wheel", 0, ACTION_WHEEL_SECTIONS - 1)
    last_building = len(BUILDINGS) - 1
    state.stack = _ints(data, "stack", 0, last_building)
    state.display = _ints(data, "display", 0, last_building)
    state.removed = _ints(data, "removed", 0, last_building)
    state.set_aside = _ints(data, "set_aside", 0, last_building)
    if len(state.display) > DISPLAY_SIZE:
        raise ValueError("more than two face-up ornamental buildings")
    raw_boards = data["boards"]
    if not isinstance(raw_boards, list) or len(raw_boards) != players:
        raise ValueError(f"'boards' must list {players} boards")
    state.boards = []
    for raw in raw_boards:
        if not isinstance(raw, dict):
            raise ValueError("a board must be an object")
        b = Board()
        b.barn = _ints(raw, "barn", 0, TILES_PER_GOOD, goods)
        b.beds = _ints(raw, "beds", EMPTY_BED, len(FEEDS) - 1, BED_COUNT)
        b.wheel = _int(raw, "wheel", 0, SECTOR_COUNT - 1)
        b.pasture = _ints(raw, "pasture", IN_STABLE, AREA_COUNT - 1, len(ANIMALS))
        b.products = _ints(raw, "products", 0, PRODUCT_TRACK_MAX, len(ANIMALS))
        b.garden = _ints(raw, "garden", 0, last_building)
        b.cards = _ints(raw, "cards", 0, len(CARDS) - 1)
        b.boss_count = _int(raw, "boss_count", 0, 1 << 30)
        b.pending = _ints(raw, "pending", 0, len(CARDS) - 1)
        b.current = _int(raw, "current", NO_CARD, len(CARDS) - 1)
        b.remaining = _int(raw, "remaining", 0, MAX_REMAINING)
        b.product_values = PRODUCT_VALUE
        if len(set(b.cards)) != len(b.cards) or len(b.cards) > 2:
            raise ValueError("a player holds the same card twice or more than two cards")
        for area in range(AREA_COUNT):
            if b.pasture_load(area) > PASTURE_CAPACITY:
                raise ValueError(f"more than {PASTURE_CAPACITY} animals on the pasture of {AREA_NAMES[area]}")
        state.boards.append(b)
    everywhere = state.stack + state.display + state.removed + state.set_aside
    everywhere += [g for b in state.boards for g in b.garden]
    if sorted(everywhere) != list(range(len(BUILDINGS))):
        raise ValueError("the 25 ornamental buildings are not each in exactly one place")
    for good in range(goods):
        total = state.supply[good] + state.box[good] + sum(b.barn[good] for b in state.boards)
        total += STACK_HEIGHT * sum(1 for b in state.boards for crop in b.beds if crop == good)
        if total != TILES_PER_GOOD:
            raise ValueError(f"{GOODS[good]} tiles add up to {total}, not {TILES_PER_GOOD}")
    state.boss = _int(data, "boss", NOBODY, players - 1)
    if (state.boss == NOBODY) != (players != 3):
        raise ValueError("the Boss Sheep belongs to the 3-player game only")
    final_rounds = data["final_rounds"]
    if not isinstance(final_rounds, bool):
        raise ValueError("'final_rounds' must be true or false")
    state.final_rounds = final_rounds
    state.card_count = _ints(data, "card_count", 0, 2 * players, len(CARDS))
    groups = data["award_groups"]
    if not isinstance(groups, list):
        raise ValueError("'award_groups' must be a list")
    state.award_groups = [_ints({"group": g}, "group", 0, players - 1) for g in groups]
    state.chooser = _int(data, "chooser", NOBODY, players - 1)
    gains = data["gains"]
    if not isinstance(gains, list):
        raise ValueError("'gains' must be a list")
    state.gains = [_ints({"gain": g}, "gain", 0, max(MAX_CHOICE_REWARD, players - 1), 3) for g in gains]
    for player, count, feed_only in state.gains:
        if player >= players or not 1 <= count <= MAX_CHOICE_REWARD or feed_only > 1:
            raise ValueError("a pending reward of choice is damaged")
    state.act_order = _ints(data, "act_order", 0, players - 1)
    if state.act_order != sorted(set(state.act_order)):
        raise ValueError("'act_order' must list distinct players in seat order")
    state.turn = _int(data, "turn", 0, 1 << 20)
    state.tokens = _int(data, "tokens", 0, SOLO_MAX_TOKENS)
    state.revealed = _int(data, "revealed", NO_CARD, len(CARDS) - 1)
    state.action_stack = _ints(data, "action_stack", 0, len(CARDS) - 1)
    state.supply_stack = _ints(data, "supply_stack", 0, len(CARDS) - 1)
    state.discard = _ints(data, "discard", 0, len(CARDS) - 1)
    state.known_bottom = _int(data, "known_bottom", 0, len(state.action_stack))
    state.stack_base = _ints(data, "stack_base", 0, len(CARDS) - 1)
    state.unknown_card = _int(data, "unknown_card", NO_CARD, len(CARDS) - 1)
    state.revealed_from_shuffle = _ints(data, "revealed_from_shuffle", 0, len(CARDS) - 1)
    unexpected = sorted(set(data) - set(state.to_dict()))
    if unexpected:
        raise ValueError(f"unknown fields {', '.join(map(str, unexpected))}")
    first_values = data.get("first_values", True)
    if not isinstance(first_values, bool):
        raise ValueError("'first_values' must be true or false")
    # A save from before issue 14 has no 'first_values': it was played with the first values (DA-FR5).
    state.use_product_values(first_values)
    # A save from before the action wheel became a variant has no 'wheel_variant': it was played
    # with the first wheel (DA-FR1).
    wheel = data.get("wheel_variant", VARIANT_WHEEL_V1)
    if not isinstance(wheel, str) or wheel not in ACTION_WHEELS:
        known = ", ".join(repr(v) for v in ACTION_WHEELS)
        raise ValueError(f"'wheel_variant' must be one of {known}, got {wheel!r}")
    state.use_action_wheel(wheel)
    _check_phase_consistency(state)
    return state


def _check_phase_consistency(state: FarmeramaState) -> None:
    """The phase's own fields must fit together (someone must be able to act)."""
    if state.phase != AWARD and (state.chooser != NOBODY or state.gains or state.award_groups):
        raise ValueError("award fields are set outside phase 2")
    if state.chooser != NOBODY and state.gains:
        raise ValueError("a building chooser while a reward of choice is still open")
    begun = [b for b in state.boards if b.pending or b.current != NO_CARD or b.remaining]
    if state.phase != ACT and (state.act_order or begun):
        raise ValueError("phase-3 fields are set outside phase 3")
    if state.phase == ACT and not state.solo:
        for b in state.boards:
            if any(c not in b.cards for c in b.pending) or (b.current != NO_CARD and b.current not in b.cards):
                raise ValueError("a player carries out a card they did not play")
    if state.phase == AWARD and not state.gains and state.chooser == NOBODY:
        raise ValueError("phase 2 with nobody to choose a building")
    if state.phase == AWARD and state.chooser != NOBODY and len(state.display) < DISPLAY_SIZE:
        raise ValueError("a building chooser but fewer than two face-up buildings")
    if state.phase == ACT and not state.act_order:
        raise ValueError("phase 3 with nobody to act")
    if state.phase == ACT and state.act_order:
        for q in state.actors():
            if state.boards[q].current == NO_CARD and len(state.boards[q].pending) < DISPLAY_SIZE:
                raise ValueError("phase 3 with no card being carried out and no choice of cards")
    if state.phase == SOLO_PICK and state.revealed not in WHEEL_CARDS:
        raise ValueError("a solo turn without a revealed Sow, Harvest or Water card")
    if state.phase == CHOOSE and not state.actors():
        raise ValueError("phase 1 with every card already chosen")
    if state.solo:
        cards = state.action_stack + state.supply_stack + state.discard
        cards += [state.revealed] if state.revealed != NO_CARD else []
        if sorted(cards) != sorted(SOLO_FIRST_STACK + SOLO_SUPPLY_STACK):
            raise ValueError("the solo action cards are not the 3 Water, 3 Sow and 3 Harvest")


# ----------------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------------


class FarmeramaGame(Game[FarmeramaState]):
    """Farmerama (Ravensburger 2012): secret action cards, two wheels, animals and their products."""

    id: ClassVar[str] = "farmerama"
    title: ClassVar[str] = "Farmerama"
    summary: ClassVar[str] = (
        "Choose action cards in secret, sow, harvest and water on a turning farmland, and feed animals "
        "for wool, truffles, milk and riding lessons."
    )
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    variants: ClassVar[dict[str, str]] = {
        VARIANT_PROFI: "Profi Farmer (2-4 players): dark-board buildings, Profi award order, water buys Sow/Harvest",
        VARIANT_SIMULTANEOUS: "Phase 3 played by everyone at the same time (the default is in turn, as the rulebook "
        "advises for learning)",
        VARIANT_FIRST_VALUES: "The first assumed product values, wool 3, truffles 5, milk 7, riding lessons 9 "
        "(the default is 9/10/14/18, see docs/games/farmerama.md)",
        **ACTION_WHEEL_DESCRIPTIONS,
    }

    scoring_helper_format: ClassVar[str | None] = SCORING_HELPER_FORMAT

    def score_text(self, text: str) -> Result:
        """Score an end position typed in the helper format (``scoring_helper_format``)."""
        return score_text(text)

    def check_players_and_variants(self, players: int, variants: tuple[str, ...]) -> None:
        """The Profi Farmer rules are for 2-4 players (the solo game has no buildings to award)."""
        if VARIANT_PROFI in variants and players == 1:
            raise ValueError("the Profi Farmer variant needs 2-4 players: the solo game has no ornamental buildings")
        if VARIANT_SIMULTANEOUS in variants and players == 1:
            raise ValueError("the simultaneous variant needs 2-4 players: a solo game has nobody to act alongside")
        action_wheel_variant(variants)  # at most one action wheel

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> FarmeramaState:
        unknown = sorted(set(options) - {OPTION_ANIMALS_BLOCK, OPTION_MAX_ROUNDS})
        if unknown:
            raise ValueError(
                f"Farmerama has no option {', '.join(unknown)}; its options: {OPTION_ANIMALS_BLOCK}=True/False, "
                f"{OPTION_MAX_ROUNDS}=<rounds or None>"
            )
        animals_block = options.get(OPTION_ANIMALS_BLOCK, False)
        if not isinstance(animals_block, bool):
            raise ValueError(f"{OPTION_ANIMALS_BLOCK} must be True or False, got {animals_block!r}")
        max_rounds = options.get(OPTION_MAX_ROUNDS, DEFAULT_MAX_ROUNDS)
        if max_rounds is not None and (
            isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or not 1 <= max_rounds <= MAX_ROUNDS_LIMIT
        ):
            raise ValueError(f"{OPTION_MAX_ROUNDS} must be a whole number of rounds (1 or more) or None")
        state = FarmeramaState(players, VARIANT_PROFI in variants, Rng(seed))
        state.simultaneous = VARIANT_SIMULTANEOUS in variants
        state.use_product_values(VARIANT_FIRST_VALUES in variants)
        state.use_action_wheel(action_wheel_variant(variants))
        state.animals_block_wheel = animals_block
        state.max_rounds = max_rounds
        state.setup()
        return state

    def _from_dict(self, data: dict[str, Any]) -> FarmeramaState:
        return state_from_dict(data)


GAME = FarmeramaGame()
FarmeramaState.game = GAME
