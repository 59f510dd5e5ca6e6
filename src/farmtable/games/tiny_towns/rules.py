"""Tiny Towns rules: setup, rounds, simultaneous placement, building, abilities and game end.

Read top to bottom like the rulebook (``rulebooks/tiny-towns.txt``), with the card texts and
variants from ``components/tiny-towns.md``:

1. Setup: the Cottage plus one card of each pile; monuments dealt 2, each player keeps 1
   in secret (a simultaneous hidden decision).
2. Each round: the Master Builder names a resource (``name wood``); every player with an
   incomplete town places it at the same time (``place wood B3``), hidden until all have
   placed; then each player builds any number of buildings (``build Cottage A1 A2 B2 at A2``)
   and says ``done``. The Master Builder passes left.
3. A town with no empty square at the end of a round is complete; the game ends when every
   town is complete.

The Town Hall variant replaces the Master Builder by the resource deck; solo (players=1)
reveals 3 resource cards and the player picks one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from functools import cache
from itertools import accumulate, compress
from operator import itemgetter, or_
from typing import Any, ClassVar, NamedTuple

import farmtable.core.game as _core_game
from farmtable.core import Game, IllegalAction, Result, Rng, State, as_rng
from farmtable.core.checks import expect, names, whole_number
from farmtable.core.notation import normalize, shorten
from farmtable.core.rng import MAX_STATE as MAX_RNG_STATE
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.helper import HELPER_FORMAT, score_text
from farmtable.games.tiny_towns.patterns import (
    ALL_SQUARES_MASK as ALL_SQUARES,
)
from farmtable.games.tiny_towns.patterns import (
    PACK_SHIFT,
    SQUARE_INDEX,
    SQUARE_NAMES,
    FitTable,
    changed_squares,
    describe_pattern,
    empty_squares_of,
    fit_table,
    name_order,
    resource_counts,
)
from farmtable.games.tiny_towns.scoring import (
    READING_MANDRAS_AROUND,
    READING_MARKET_BOTH,
    TownFacts,
    is_building,
    score_towns,
)

# --- variants -------------------------------------------------------------------------------

FIRST_GAME = "first-game"
NO_MONUMENTS = "no-monuments"
CAVERN = "cavern"
TOWN_HALL = "town-hall"
MAUSOLEUM_WOOD = "mausoleum-wood-pattern"
SHRINE_EXCLUDES_SELF = "shrine-excludes-self"
SOLO_FEAST_HALL = "solo-removes-feast-hall"

VARIANTS: dict[str, str] = {
    FIRST_GAME: "the recommended first-game set: Cottage, Farm, Well, Theater, Chapel, Tavern, Factory",
    NO_MONUMENTS: "play without monuments (the rulebook suggests it for a first game)",
    CAVERN: "the Cavern rule: set aside up to 2 resources named by others; they score nothing",
    TOWN_HALL: "Town Hall: resources come from the resource deck, every third round each player chooses",
    READING_MARKET_BOTH: "Market counts the yellow buildings of its row and column together (one reading of the card)",
    READING_MANDRAS_AROUND: "Mandras Palace counts the kinds in the 8 squares around it, not only the adjacent 4",
    MAUSOLEUM_WOOD: "Grand Mausoleum pattern is wood wood / brick stone (one reading of the card)",
    SHRINE_EXCLUDES_SELF: "Shrine of the Elder Tree does not count itself when it is built",
    SOLO_FEAST_HALL: "solo only: remove Feast Hall instead of Inn (the card that needs a player on your right)",
}


_PILES_LEFT: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
"""Per tuple of removed cards (``solo_removed``, or none): each pile's cards without them, in ``PILES`` order."""


def solo_removed(variants: Iterable[str]) -> tuple[str, ...]:
    """The cards the solo game removes under these variants."""
    return C.SOLO_REMOVED_FEAST_HALL_READING if SOLO_FEAST_HALL in variants else C.SOLO_REMOVED


# --- phases and verbs -----------------------------------------------------------------------

KEEP_PHASE, NAME_PHASE, PLACE_PHASE, BUILD_PHASE, OVER = "keep", "name", "place", "build", "over"
PHASES = (KEEP_PHASE, NAME_PHASE, PLACE_PHASE, BUILD_PHASE, OVER)

KEEP, NAME, PLACE, STORE, CAVERN_VERB, BUILD, DONE, CHOOSE, ADD, SWAP, PASS = (
    "keep",
    "name",
    "place",
    "store",
    "cavern",
    "build",
    "done",
    "choose",
    "add",
    "swap",
    "pass",
)

PLACING_VERBS = frozenset({PLACE, STORE, CAVERN_VERB})
"""The verbs of the placement step."""

# pending decisions a player must settle before anything else in the building step
FACTORY_CHOICE = "factory"  # put 1 of the 5 resources on a new Factory
BANK_CHOICE = "bank"  # put a resource not on another Bank on a new Bank
OPALEYE_PICK = "opaleye-pick"  # put 3 different buildings on Opaleye's Watch
OPALEYE_MOVE = "opaleye-move"  # a neighbour built a type on your Watch: place it
GUILD_SWAPS = "guild"  # Architect's Guild: swap up to 2 buildings
GROVE_PLACE = "grove"  # Grove University: place a building at once
PENDING_KINDS = (FACTORY_CHOICE, BANK_CHOICE, OPALEYE_PICK, OPALEYE_MOVE, GUILD_SWAPS, GROVE_PLACE)

NO_SQUARE = -1
SQUARES_IN_NAME_ORDER = tuple(sorted(range(C.SQUARES), key=name_order))
NOT_COMPLETE = -1
NO_PLAYER = -1
SHOWN_CHOICES = 6
"""How many choices an error message lists."""
ACTORS_KEY = -1
"""Key of the cached actor list in the per-state cache (a player's legal list is under the player, 0..5)."""
SET_KEY = 64
"""``SET_KEY + player``: key of the set of ``player``'s legal actions in the per-state cache (made only when
a typed move is checked)."""


Fits = tuple[tuple[str, ...], tuple[int, ...], int, tuple[str, ...], frozenset[int], int]
"""What ``_find_builds`` remembers of a board: the board, the squares of each resource, the Trading
Posts, the buildings looked for, the placements that fit (each tagged ``k << TAG_SHIFT | ranked mask`` for the
``k``-th building) and the empty squares (shared by copies: never changed)."""
Anywhere = tuple[tuple[tuple[int, int], ...], ...]
"""A ``FitTable.anywhere`` table: per square, (packed needs, squares mask) of the placements through it."""
Through = tuple[Anywhere, ...]
"""A ``FitTable.through`` table: ``Anywhere`` tables per resource."""
RESOURCE_NUMBER = {r: i for i, r in enumerate(C.RESOURCES)}
TRADING_POST = "Trading Post"
OBELISK = "Obelisk of the Crescent"


class Action(NamedTuple):
    """One small decision; ``str()`` is its notation (see ``docs/games/tiny-towns.md``)."""

    verb: str
    what: str = ""
    """The resource, building or monument named."""
    squares: tuple[int, ...] = ()
    """Pattern squares of a build; the Warehouse square of a store."""
    target: int = NO_SQUARE
    """The square something goes on."""
    other: str = ""
    """Warehouse swap: the stored resource taken out."""

    def __str__(self) -> str:
        verb = self.verb
        if verb == PLACE:
            return f"place {self.what} {SQUARE_NAMES[self.target]}"
        if verb == BUILD:
            squares = " ".join(SQUARE_NAMES[s] for s in self.squares)
            return f"build {self.what} {squares} at {SQUARE_NAMES[self.target]}"
        if verb == STORE:
            text = f"store {self.what} {SQUARE_NAMES[self.squares[0]]}"
            return f"{text} take {self.other} {SQUARE_NAMES[self.target]}" if self.other else text
        if verb == ADD:
            return f"add {self.what} {SQUARE_NAMES[self.target]}"
        if verb == SWAP:
            return f"swap {SQUARE_NAMES[self.target]} {self.what}"
        if verb in (DONE, PASS):
            return verb
        return f"{verb} {self.what}"


DONE_ACTION = Action(DONE)
PASS_ACTION = Action(PASS)
PLACE_ACTIONS: dict[str, tuple[Action, ...]] = {
    r: tuple(Action(PLACE, r, target=sq) for sq in range(C.SQUARES)) for r in C.RESOURCES
}
"""``place <resource> <square>``, made once (actions are immutable)."""
NAME_ACTIONS: dict[str, Action] = {r: Action(NAME, r) for r in C.RESOURCES}
"""``name <resource>``, made once."""
ALL_NAME_ACTIONS: list[Action] = [NAME_ACTIONS[r] for r in C.RESOURCES]
"""``name <resource>`` for every resource, in ``RESOURCES`` order (never changed: copied when handed out)."""


TAG_SHIFT = 2 * PACK_SHIFT
"""A placement of the ``k``-th building looked for is tagged ``k << TAG_SHIFT | ranked mask`` (see
``patterns.FitTable``): tags sort by building, then by the squares' names, and ``tag & ALL_SQUARES``
is the squares mask."""


MAX_LOOKED_FOR = len(C.PILES) + 2
"""Buildings a town looks for at most: the Cottage, one card of each pile, its monument."""
BIT_SELECTORS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(bool(bits >> k & 1) for k in range(MAX_LOOKED_FOR)) for bits in range(1 << MAX_LOOKED_FOR)
)
"""``BIT_SELECTORS[bits][k]``: whether bit ``k`` of ``bits`` is set (selectors for ``itertools.compress``)."""
EMPTY_GRID: tuple[str, ...] = ("",) * C.SQUARES
NO_CUBES: tuple[int, ...] = (0,) * len(C.RESOURCES)
Tagged = tuple[tuple[tuple[int, int], ...], ...]
"""Per square, (packed needs, tag) of placements through it (see ``tagged_table``)."""


@cache
def tagged_table(pattern: str, k: int) -> tuple[tuple[Tagged, ...], Tagged, tuple[int, ...]]:
    """``fit_table(pattern)`` for the ``k``-th building looked for, with the tags (``k << TAG_SHIFT | ranked
    mask``) in place of the ranked masks: its ``through`` tables (one per resource), its ``anywhere`` table,
    and per resource ``1 << k`` if the pattern needs that resource, else 0. Shared by every search."""
    table = fit_table(pattern)
    base = k << TAG_SHIFT
    through = tuple(
        tuple(tuple((need, base | ranked) for need, ranked in pairs) for pairs in per_square)
        for per_square in table.through
    )
    anywhere = tuple(tuple((need, base | ranked) for need, ranked in pairs) for pairs in table.anywhere)
    return through, anywhere, tuple((1 << k) * bool(n) for n in resource_counts(pattern))


@cache
def enough_row(needs: tuple[int, ...]) -> tuple[int, ...]:
    """For one resource and the buildings needing ``needs[k]`` squares of it: ``row[n]`` = the buildings
    (bit ``k`` for the ``k``-th) needing at most ``n`` (n = 0..16)."""
    row = [0] * (C.SQUARES + 1)
    for k, need in enumerate(needs):
        row[need] |= 1 << k
    return tuple(accumulate(row, or_))


class BuildSearch:
    """What ``_find_builds`` needs for one set of buildings looked for (shared by games, see ``build_search``)."""

    __slots__ = (
        "able",
        "actions",
        "by_resource",
        "enough",
        "names",
        "needing",
        "start",
        "tables",
        "targets",
        "through",
    )

    def __init__(self, names: tuple[str, ...], patterns: tuple[str, ...]) -> None:
        self.names = names
        """The buildings looked for; a placement of the ``k``-th is tagged ``k << TAG_SHIFT | ranked mask``."""
        self.tables: tuple[FitTable, ...] = tuple(map(fit_table, patterns))
        tagged = tuple(map(tagged_table, patterns, range(len(patterns))))
        self.through: tuple[Tagged, ...] = tuple(map(itemgetter(1), tagged))
        """Per building: its tagged ``anywhere`` table (for a Trading Post, which gives any resource)."""
        self.by_resource: tuple[tuple[Tagged, ...], ...] = tuple(zip(*map(itemgetter(0), tagged), strict=True))
        """``by_resource[i][k]``: the ``k``-th building's placements needing resource ``i`` by square, as
        (packed needs, tag) pairs (``FitTable.through[i]``, tagged)."""
        per_resource = zip(*map(resource_counts, patterns), strict=True)
        self.enough: tuple[tuple[int, ...], ...] = tuple(map(enough_row, per_resource))
        """``enough[i][n]``: the buildings (bit ``k`` for the ``k``-th) needing at most ``n`` of resource ``i``."""
        self.needing: tuple[int, ...] = tuple(map(sum, zip(*map(itemgetter(2), tagged), strict=True)))
        """``needing[i]``: the buildings needing resource ``i`` at all (bit ``k`` for the ``k``-th)."""
        self.able: dict[int, Any] = {}
        """Buildings (a bit set, see ``enough``) -> their entries of ``through`` (see ``able_of``); and
        ``buildings << 3 | i`` -> their entries of ``by_resource[i]`` (see ``able_for``)."""
        self.start: Fits = (EMPTY_GRID, NO_CUBES, 0, names, frozenset(), ALL_SQUARES)
        """The empty board's fits (none): where a town seen for the first time starts from."""
        self.targets: dict[int, tuple[tuple[int, Action], ...]] = {}
        """Tag -> (square bit, build action) for every square in notation order (see ``list_targets``)."""
        self.actions: dict[int, list[Action]] = {}
        """``tag << PACK_SHIFT | spots`` -> the builds of the placement ``tag`` onto the squares ``spots``
        (see ``actions_of``)."""

    def able_of(self, buildings: int) -> tuple[Tagged, ...]:
        """The entries of ``through`` of the buildings in the bit set ``buildings``; remembered."""
        entries = self.able[buildings] = tuple(compress(self.through, BIT_SELECTORS[buildings]))
        return entries

    def able_for(self, buildings: int, i: int) -> tuple[Tagged, ...]:
        """The entries of ``by_resource[i]`` of the buildings in the bit set ``buildings`` (those needing
        resource ``i``: the caller masks them with ``needing[i]``); remembered under ``buildings << 3 | i``."""
        entries = self.able[buildings << 3 | i] = tuple(compress(self.by_resource[i], BIT_SELECTORS[buildings]))
        return entries

    def list_targets(self, tag: int) -> tuple[tuple[int, Action], ...]:
        """The build of the placement ``tag`` onto each square, in notation order (see ``build_targets``)."""
        k = tag >> TAG_SHIFT
        listed = self.targets[tag] = build_targets(self.names[k], self.tables[k].squares[tag & ALL_SQUARES])
        return listed

    def actions_of(self, tag: int, spots: int) -> list[Action]:
        """The builds of the placement ``tag`` onto each square of ``spots``, in notation order; remembered.

        Equals ``[action for bit, action in self.list_targets(tag) if spots & bit]``; shared by every search
        looking for the same building (``_BUILD_ACTIONS``, by card number, squares mask and ``spots``).
        """
        k = tag >> TAG_SHIFT
        key = CARD_NUMBER[self.names[k]] << TAG_SHIFT | (tag & ALL_SQUARES) << PACK_SHIFT | spots
        actions = _BUILD_ACTIONS.get(key)
        if actions is None:
            if len(_BUILD_ACTIONS) >= _MAX_BUILD_ACTIONS:
                _BUILD_ACTIONS.clear()
            listed = self.targets.get(tag) or self.list_targets(tag)
            actions = _BUILD_ACTIONS[key] = [action for bit, action in listed if spots & bit]
        self.actions[tag << PACK_SHIFT | spots] = actions
        return actions


CARD_NUMBER: dict[str, int] = {name: i for i, name in enumerate(C.ALL_CARDS)}
"""Each building and monument card's number (``ALL_CARDS`` order)."""
_BUILD_ACTIONS: dict[int, list[Action]] = {}
"""``card number << TAG_SHIFT | squares mask << PACK_SHIFT | spots`` -> the builds of that card on those squares
onto each square of ``spots``, in notation order (see ``BuildSearch.actions_of``; never changed)."""
_MAX_BUILD_ACTIONS = 1 << 16


_SEARCHES: dict[tuple[tuple[str, ...], tuple[str, ...]], BuildSearch] = {}
"""Made by ``build_search``; bounded by ``_MAX_SEARCHES``."""
_MAX_SEARCHES = 512


def build_search(names: tuple[str, ...], patterns: tuple[str, ...]) -> BuildSearch:
    """The :class:`BuildSearch` of these buildings and patterns, shared by every game that looks for them."""
    search = _SEARCHES.get((names, patterns))
    if search is None:
        if len(_SEARCHES) >= _MAX_SEARCHES:
            _SEARCHES.clear()
        search = _SEARCHES[names, patterns] = BuildSearch(names, patterns)
    return search


_BUILD_TARGETS: dict[tuple[str, tuple[int, ...]], tuple[tuple[int, Action], ...]] = {}
"""Made by ``build_targets`` (bounded: one entry per card and placement of its pattern)."""


def build_targets(name: str, squares: tuple[int, ...]) -> tuple[tuple[int, Action], ...]:
    """(square bit, ``build <name> <squares> at <square>``) for every square in notation order; made once."""
    listed = _BUILD_TARGETS.get((name, squares))
    if listed is None:
        listed = tuple((1 << sq, Action(BUILD, name, squares, sq)) for sq in SQUARES_IN_NAME_ORDER)
        _BUILD_TARGETS[name, squares] = listed
    return listed


# --- notation -------------------------------------------------------------------------------

_SQ = r"([a-d][1-4])"
_NOTATION: dict[str, re.Pattern[str]] = {
    KEEP: re.compile(r"keep (.+)"),
    NAME: re.compile(r"name (\w+)"),
    PLACE: re.compile(rf"place (\w+) {_SQ}"),
    STORE: re.compile(rf"store (\w+) {_SQ}(?: take (\w+) {_SQ})?"),
    CAVERN_VERB: re.compile(r"cavern (\w+)"),
    BUILD: re.compile(rf"build (.+?)((?: [a-d][1-4])+) at {_SQ}"),
    CHOOSE: re.compile(r"choose (.+)"),
    ADD: re.compile(rf"add (.+) {_SQ}"),
    SWAP: re.compile(rf"swap {_SQ} (.+)"),
}
_CARD_BY_LOWER = {name.lower(): name for name in C.ALL_CARDS}
NOTATION_HELP = (
    "moves look like: keep The Starloom, name wood, place wood B3, store wood C1 [take brick B3], "
    "cavern wood, build Cottage A1 A2 B2 at A2, done, choose wheat, add Farm A3, swap A1 Farm, pass"
)


def _resource(word: str) -> str:
    if word not in C.RESOURCES:
        raise IllegalAction(f"'{shorten(word)}' is not a resource; the resources are {', '.join(C.RESOURCES)}")
    return word


def _card(words: str) -> str:
    name = _CARD_BY_LOWER.get(words.strip())
    if name is None:
        raise IllegalAction(f"'{shorten(words)}' is not a Tiny Towns building or monument")
    return name


def parse_notation(text: str) -> Action:
    """Read notation into an :class:`Action` (not yet checked against the rules).

    Case and extra spaces do not matter; the squares of a build may be listed in any order.
    Raises :class:`IllegalAction` when the text cannot be read.
    """
    line = normalize(text)
    if line in (DONE, PASS):
        return Action(line)
    verb = line.split(" ", 1)[0]
    pattern = _NOTATION.get(verb)
    match = pattern.fullmatch(line) if pattern else None
    if match is None:
        shown = f"'{shorten(text)}'" if line else "an empty move"
        raise IllegalAction(f"{shown} cannot be read; {NOTATION_HELP}")
    groups = match.groups()
    if verb == KEEP:
        return Action(KEEP, _card(groups[0]))
    if verb in (NAME, CAVERN_VERB):
        return Action(verb, _resource(groups[0]))
    if verb == PLACE:
        return Action(PLACE, _resource(groups[0]), target=SQUARE_INDEX[groups[1]])
    if verb == STORE:
        where = (SQUARE_INDEX[groups[1]],)
        if groups[2] is None:
            return Action(STORE, _resource(groups[0]), where)
        return Action(STORE, _resource(groups[0]), where, SQUARE_INDEX[groups[3]], _resource(groups[2]))
    if verb == BUILD:
        squares = sorted({SQUARE_INDEX[s] for s in groups[1].split()}, key=name_order)
        return Action(BUILD, _card(groups[0]), tuple(squares), SQUARE_INDEX[groups[2]])
    if verb == CHOOSE:
        word = groups[0].strip()
        return Action(CHOOSE, word if word in C.RESOURCES else _card(word))
    if verb == ADD:
        return Action(ADD, _card(groups[0]), target=SQUARE_INDEX[groups[1]])
    return Action(SWAP, _card(groups[1]), target=SQUARE_INDEX[groups[0]])


# --- one player's town ------------------------------------------------------------------------


class Town:
    """One player's board and everything attached to it (monument, stored cubes, pending decisions)."""

    __slots__ = (
        "bank",
        "built",
        "cavern",
        "choice",
        "completed",
        "dealt",
        "done",
        "factory",
        "fits",
        "grid",
        "mb_turns",
        "memo",
        "monument",
        "opaleye",
        "pending",
        "shrine_vp",
        "statue",
        "stored",
    )

    def __init__(self) -> None:
        self.grid: list[str] = [""] * C.SQUARES
        """"" empty, a resource name (a cube), or a building / monument name."""
        self.statue: list[int] = []
        """Statue of the Bondmaker: cottage squares holding a cube (sorted)."""
        self.stored: dict[int, list[str]] = {}
        """Warehouse square -> cubes stored on it (sorted)."""
        self.factory: dict[int, str] = {}
        """Factory square -> the resource on it ("" until chosen)."""
        self.bank: dict[int, str] = {}
        """Bank square -> the resource on it ("" until chosen, or none left to choose)."""
        self.cavern: list[str] = []
        self.dealt: list[str] = []
        self.monument = ""
        """The monument kept ("" before choosing, or without monuments)."""
        self.built = False
        self.shrine_vp = 0
        self.opaleye: list[str] = []
        self.mb_turns = 0
        self.completed = NOT_COMPLETE
        """The round in which the town was completed (-1: still building)."""
        self.pending: list[tuple[str, int, str]] = []
        """(kind, number, name) decisions to settle first: the front one is asked now."""
        self.done = False
        self.choice: Action | None = None
        """This round's placement, hidden from the others until everyone has placed."""
        self.memo: tuple[Fits | None, bool, list[Action]] | None = None
        """The last build list computed, with the fits and the Obelisk reading it is for (a cache, never saved)."""
        self.fits: Fits | None = None
        """The placements that fitted the board last seen by ``_find_builds`` (a cache, never saved)."""

    def copy(self) -> Town:
        """An independent copy (by hand: this is in the search agents' hot path)."""
        t = Town.__new__(Town)
        t.grid = self.grid[:]
        t.statue = self.statue[:]
        t.stored = {k: v[:] for k, v in self.stored.items()}
        t.factory = dict(self.factory)
        t.bank = dict(self.bank)
        t.cavern = self.cavern[:]
        t.dealt = self.dealt[:]
        t.monument = self.monument
        t.built = self.built
        t.shrine_vp = self.shrine_vp
        t.opaleye = self.opaleye[:]
        t.mb_turns = self.mb_turns
        t.completed = self.completed
        t.pending = self.pending[:]
        t.done = self.done
        t.choice = self.choice
        t.memo = self.memo
        t.fits = self.fits
        return t

    @property
    def complete(self) -> bool:
        """True once the town has left the game (rulebook "Completing your Town")."""
        return self.completed != NOT_COMPLETE

    def has(self, monument: str) -> bool:
        """True if this player has built ``monument``."""
        return self.built and self.monument == monument

    def empty_squares(self) -> list[int]:
        """Squares holding neither a cube nor a building."""
        return empty_squares_of(self.grid)

    def warehouse_cubes(self) -> int:
        """Cubes stored on all this player's Warehouses."""
        return sum(len(v) for v in self.stored.values())


# --- the state --------------------------------------------------------------------------------


class TinyTownsState(State[Action]):
    """A game of Tiny Towns in progress (see the module docstring for the flow)."""

    game: ClassVar[Game[Any]]

    def __init__(self, players: int, variants: tuple[str, ...], buildings: tuple[str, ...], rng: Rng) -> None:
        self.players = players
        self.variants = variants
        self.buildings = buildings
        """The 7 building cards in play: the Cottage and one of each pile."""
        self.rng = rng
        self.phase = KEEP_PHASE
        self.round = 0
        self.mb = 0 if players > 1 and TOWN_HALL not in variants else NO_PLAYER
        """The Master Builder's seat (-1 in solo and Town Hall, which have none)."""
        self.named = ""
        """The resource named this round ("" in a Town Hall free-choice round)."""
        self.free_round = False
        self.deck: list[str] = []
        """Resource deck draw pile, top first (Town Hall and solo; hidden)."""
        self.discard: list[str] = []
        """Town Hall: cards revealed since the last reshuffle (face up)."""
        self.removed: list[str] = []
        """Town Hall: the 5 cards put aside face down (hidden)."""
        self.face_up: list[str] = []
        """Solo: the 3 face-up resource cards."""
        self.unknown = 0
        """Solo: how many cards at the top of the deck the player has never seen."""
        self.epoch = 0
        self.towns = [Town() for _ in range(players)]
        self._readings = frozenset(variants)
        self._cache: dict[int, Any] = {}
        """Actors (``ACTORS_KEY``), legal lists (by player) and sets (``SET_KEY + player``) of this position;
        anything that changes the state empties it (moves through ``_do``; tests and agents that edit a
        state by hand call ``_cache.clear()``)."""
        self._fit_tables: dict[str, BuildSearch] = {}
        """What ``_find_builds`` needs, by the monument looked for besides the buildings ("" for none)."""

    # --- small queries ------------------------------------------------------------------------

    @property
    def solo(self) -> bool:
        """True in the solo game (players=1)."""
        return self.players == 1

    @property
    def town_hall(self) -> bool:
        """True with the Town Hall variant."""
        return TOWN_HALL in self.variants

    def incomplete(self) -> list[int]:
        """Players whose towns are not yet complete, in seat order."""
        return [p for p, t in enumerate(self.towns) if t.completed == NOT_COMPLETE]

    def pattern_of(self, name: str) -> str:
        """The pattern of a building or monument under this game's readings."""
        if name == "Grand Mausoleum of the Rodina" and MAUSOLEUM_WOOD in self.variants:
            return C.MAUSOLEUM_ALT_PATTERN
        return C.ALL_CARDS[name].pattern

    def named_by_another(self, player: int) -> bool:
        """Whether this round's resource counts as "named by another player" for ``player``.

        Factory, Warehouse, Statue of the Bondmaker and the Cavern act only then. Solo picks
        and Town Hall drawn cards count (component file, "Solo variant" and "Town Hall");
        a free-choice round never does; the Master Builder never names for themself.
        """
        if self.free_round:
            return False
        return self.solo or self.town_hall or player != self.mb

    def sits_out(self, player: int) -> bool:
        """Fort Ironweed's owner sits out Town Hall free-choice rounds unless they are the last town."""
        return self.free_round and self.towns[player].has("Fort Ironweed") and len(self.incomplete()) > 1

    def forbidden_by_banks(self, player: int) -> set[str]:
        """Resources on ``player``'s Banks (they may not name / freely choose them)."""
        held = {r for r in self.towns[player].bank.values() if r}
        return set() if len(held) == len(C.RESOURCES) else held

    # --- the contract: who acts and what they may do --------------------------------------

    def actors(self) -> list[int]:
        """Players who must decide now."""
        cache = self._cache
        cached = cache.get(ACTORS_KEY)
        if cached is None:
            cached = cache[ACTORS_KEY] = self._compute_actors()
        return cached[:]

    def _compute_actors(self) -> list[int]:
        phase = self.phase
        if phase == BUILD_PHASE:
            return [p for p, t in enumerate(self.towns) if t.completed == NOT_COMPLETE and (t.pending or not t.done)]
        if phase == PLACE_PHASE:
            free = self.free_round
            return [
                p
                for p, t in enumerate(self.towns)
                if t.completed == NOT_COMPLETE and t.choice is None and not (free and self.sits_out(p))
            ]
        if phase == NAME_PHASE:
            return [0 if self.players == 1 else self.mb]
        if phase == KEEP_PHASE:
            return [p for p, t in enumerate(self.towns) if not t.monument]
        return []

    def _legal(self, player: int) -> tuple[list[Action], frozenset[Action]]:
        """The legal list and its set (for checking typed moves), both remembered until the state changes."""
        actions = self._legal_list(player)
        key = SET_KEY + player
        legal_set: frozenset[Action] | None = self._cache.get(key)
        if legal_set is None:
            legal_set = self._cache[key] = frozenset(actions)
        return actions, legal_set

    def _legal_list(self, player: int) -> list[Action]:
        """The legal list alone, remembered until the state changes (never handed out: callers copy it)."""
        cache = self._cache
        actions: list[Action] | None = cache.get(player)
        if actions is None:
            actors = cache.get(ACTORS_KEY)
            if actors is None:
                actors = cache[ACTORS_KEY] = self._compute_actors()
            actions = cache[player] = self._compute_legal(player) if player in actors else []
        return actions

    remembers_legal: ClassVar[bool] = True
    """``legal_actions`` remembers its list for ``apply`` itself (``State.remembers_legal``): the list it
    hands the memo is the one kept in the per-state cache, never changed (the cache is only emptied)."""

    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now, in a fixed order; ``[]`` for a player not to act."""
        cache = self._cache
        actions: list[Action] | None = cache.get(player)
        if actions is None:  # ``_legal_list``, inlined: this is every random or search move
            actors = cache.get(ACTORS_KEY)
            if actors is None:
                actors = cache[ACTORS_KEY] = self._compute_actors()
            actions = cache[player] = self._compute_legal(player) if player in actors else []
        _core_game._memo = (self, player, actions)
        return actions[:]

    def _compute_legal(self, player: int) -> list[Action]:
        town = self.towns[player]
        phase = self.phase
        if phase == BUILD_PHASE:
            if town.pending:
                return self.pending_options(player)
            builds = self._find_builds(town)
            return [*builds, DONE_ACTION] if builds else [DONE_ACTION]
        if phase == PLACE_PHASE:
            return self.placement_options(player)
        if phase == NAME_PHASE:
            if self.players > 1 and not town.bank:
                return ALL_NAME_ACTIONS[:]  # no Bank: every resource (what ``nameable`` gives then)
            return [NAME_ACTIONS[r] for r in self.nameable(player)]
        return [Action(KEEP, name) for name in town.dealt]

    def nameable(self, player: int) -> list[str]:
        """Resources the Master Builder may name (solo: the face-up cards), Bank rule applied."""
        if not self.solo and not self.towns[player].bank:
            return list(C.RESOURCES)  # no Bank: every resource (what the lines below give then)
        forbidden = self.forbidden_by_banks(player)
        offered = [r for r in C.RESOURCES if r in self.face_up] if self.solo else list(C.RESOURCES)
        allowed = [r for r in offered if r not in forbidden]
        return allowed or offered

    # --- Game Play 2: placing the named resource ----------------------------------------------

    def placement_options(self, player: int) -> list[Action]:
        """How ``player`` may take this round's resource (rulebook "Resource Placement" + abilities)."""
        town = self.towns[player]
        empties = empty_squares_of(town.grid)
        if not (self.free_round or town.factory or town.stored or town.built or CAVERN in self.variants):
            # Nothing but the named resource on an empty square (what the lines below give then).
            return list(map(PLACE_ACTIONS[self.named].__getitem__, empties))
        others = self.named_by_another(player)
        if self.free_round:  # Town Hall round 3: any resource, except those on your Banks
            forbidden = self.forbidden_by_banks(player)
            kinds = [r for r in C.RESOURCES if r not in forbidden]
        elif others and self.named in town.factory.values():
            kinds = list(C.RESOURCES)  # Factory: take a different resource instead
        else:
            kinds = [self.named]
        options = [
            action for places in map(PLACE_ACTIONS.__getitem__, kinds) for action in map(places.__getitem__, empties)
        ]
        if not others:
            return options
        named = self.named
        if town.has("Statue of the Bondmaker"):  # 1 cube per cottage, never built with
            options += [
                Action(PLACE, named, target=sq)
                for sq, v in enumerate(town.grid)
                if v == "Cottage" and sq not in town.statue
            ]
        for where in sorted(town.stored):  # Warehouse: store, or swap for a stored cube
            cubes = town.stored[where]
            if len(cubes) < C.WAREHOUSE_CAPACITY:
                options.append(Action(STORE, named, (where,)))
            for taken in sorted(set(cubes) - {named}):
                options += [Action(STORE, named, (where,), sq, taken) for sq in empties]
        if CAVERN in self.variants and len(town.cavern) < C.CAVERN_CAPACITY:
            options.append(Action(CAVERN_VERB, named))
        return options

    # --- Game Play 3: building ------------------------------------------------------------------

    def build_options(self, player: int) -> list[Action]:
        """Every distinct build: building, pattern squares, and the square it goes on.

        Patterns may be rotated and mirrored; a Trading Post stands in for any resource and
        stays (at least one real resource is needed); the building goes on a square whose
        cube it used, except a Shed, or any building once Obelisk of the Crescent is built.
        """
        return self._find_builds(self.towns[player])

    def _find_builds(self, town: Town) -> list[Action]:
        """:meth:`build_options` of ``town`` (the list is remembered on the town with the board it is for).

        A placement fits when each of its squares holds the resource it needs (or a Trading Post) and
        at least one holds a real resource. That depends only on its own squares, so the placements
        that fitted the board this town had last time (``town.fits``; a fresh town starts from the
        empty board, on which nothing fits) are kept unless they cover a square that changed, and only
        the placements through changed squares are tested: those needing the resource now there.
        """
        wanted = town.monument if town.monument and not town.built else ""
        search = self._fit_tables.get(wanted) or self._build_search(town)
        names = search.names
        grid = town.grid
        prev = town.fits
        if prev is None or prev[3] is not names:
            prev = search.start
        old_grid, have_before, wild, _, kept, empty = prev
        changed_list = changed_squares(grid, old_grid)
        if changed_list:
            have = list(have_before)
            number = RESOURCE_NUMBER
            cleared = 0
            """Changed squares that held a cube or a Trading Post: only placements through them may stop fitting."""
            now: list[tuple[int, int]] = []
            """What changed squares hold now: (resource number, or -1 for a Trading Post; square)."""
            # (A square holding another object is read again: an equal string there only costs a re-test.)
            for sq in changed_list:
                bit = 1 << sq
                old = old_grid[sq]
                if not old:
                    empty &= ~bit
                elif (i := number.get(old, -1)) >= 0:
                    have[i] &= ~bit
                    cleared |= bit
                elif old == TRADING_POST:
                    wild &= ~bit
                    cleared |= bit
                v = grid[sq]
                if not v:
                    empty |= bit
                elif (i := number.get(v, -1)) >= 0:
                    have[i] |= bit
                    now.append((i, sq))
                elif v == TRADING_POST:
                    wild |= bit
                    now.append((-1, sq))
            h0, h1, h2, h3, h4 = have
            cubes = h0 | h1 | h2 | h3 | h4
            if cleared and kept:
                kept = frozenset(tag for tag in kept if not tag & cleared)
            if now:
                # The buildings that could fit: each resource they need is on enough squares (a Trading Post
                # gives any); only their placements through the changed squares are tested.
                enough = search.enough
                buildings = (
                    enough[0][(h0 | wild).bit_count()]
                    & enough[1][(h1 | wild).bit_count()]
                    & enough[2][(h2 | wild).bit_count()]
                    & enough[3][(h3 | wild).bit_count()]
                    & enough[4][(h4 | wild).bit_count()]
                )
                if buildings:
                    # Squares that cannot give each resource (a Trading Post gives any), packed like the needs.
                    gives = ~wild & ALL_SQUARES
                    forbidden = (
                        (gives & ~h0)
                        | (gives & ~h1) << PACK_SHIFT
                        | (gives & ~h2) << 2 * PACK_SHIFT
                        | (gives & ~h3) << 3 * PACK_SHIFT
                        | (gives & ~h4) << 4 * PACK_SHIFT
                    )
                    found: set[int] = set()
                    able_by = search.able
                    needing = search.needing
                    for i, sq in now:
                        if i >= 0:  # the placements needing resource i on sq (sq holds it: a real resource)
                            these = buildings & needing[i]
                            able = able_by.get(these << 3 | i) or search.able_for(these, i)
                            for through in able:
                                for need, tag in through[sq]:
                                    if not need & forbidden:
                                        found.add(tag)
                        else:  # a Trading Post: every placement through sq, with a real resource elsewhere
                            for anywhere in able_by.get(buildings) or search.able_of(buildings):
                                for need, tag in anywhere[sq]:
                                    if not need & forbidden and tag & cubes:
                                        found.add(tag)
                    if found:
                        kept = kept.union(found)
            town.fits = (tuple(grid), tuple(have), wild, names, kept, empty)
        else:
            cubes = have_before[0] | have_before[1] | have_before[2] | have_before[3] | have_before[4]
            if prev is not town.fits:
                town.fits = prev
        if not kept:
            return []
        anywhere_ok = town.built and town.monument == OBELISK
        memo = town.memo
        if memo is not None and memo[0] is town.fits and memo[1] == anywhere_ok:
            return memo[2]  # the same board as last time
        made = search.actions
        options: list[Action] = []
        # One action per square set: by building, then by the squares' names (the tags sort so), then the
        # target's; the actions of a placement onto given squares are made once (``actions_of``).
        for tag in sorted(kept):
            spots = tag & cubes
            if anywhere_ok or names[tag >> TAG_SHIFT] == "Shed":
                spots |= empty
            options += made.get(tag << PACK_SHIFT | spots) or search.actions_of(tag, spots)
        town.memo = (town.fits, anywhere_ok, options)
        return options

    def _build_search(self, town: Town) -> BuildSearch:
        """The tables for the buildings ``town`` looks for: those in play, and its monument until built."""
        wanted = town.monument if town.monument and not town.built else ""
        search = self._fit_tables.get(wanted)
        if search is None:
            names = (*self.buildings, wanted) if wanted else self.buildings
            search = self._fit_tables[wanted] = build_search(names, tuple(map(self.pattern_of, names)))
        return search

    # --- abilities asked right after a build ------------------------------------------------

    def pending_options(self, player: int) -> list[Action]:
        """The choices of ``player``'s front pending decision (an ability being resolved)."""
        town = self.towns[player]
        kind, number, name = town.pending[0]
        if kind == FACTORY_CHOICE:
            return [Action(CHOOSE, r) for r in C.RESOURCES]
        if kind == BANK_CHOICE:
            used = {r for sq, r in town.bank.items() if sq != number}
            return [Action(CHOOSE, r) for r in C.RESOURCES if r not in used]
        if kind == OPALEYE_PICK:
            return [Action(CHOOSE, b) for b in self.buildings if b not in town.opaleye]
        if kind == OPALEYE_MOVE:
            return [Action(ADD, name, target=sq) for sq in town.empty_squares()]
        if kind == GROVE_PLACE:
            return [Action(ADD, b, target=sq) for b in self.buildings for sq in town.empty_squares()]
        # GUILD_SWAPS: swap one of your buildings (not a monument) for another type in play
        swaps = [
            Action(SWAP, b, target=sq)
            for sq in sorted(range(C.SQUARES), key=name_order)
            if town.grid[sq] in C.BUILDINGS
            for b in self.buildings
            if b != town.grid[sq]
        ]
        return [*swaps, PASS_ACTION]

    # --- refusing with a reason -----------------------------------------------------------------

    def parse_action(self, player: int, text: str) -> Action:
        """Read notation (case and spaces do not matter); unreadable text raises IllegalAction."""
        return parse_notation(text)

    def check_action(self, player: int, action: Action) -> None:
        """Accept exactly the legal actions; otherwise name the rule the action breaks."""
        if not isinstance(action, Action):
            raise IllegalAction(f"'{shorten(str(action))}' is not a Tiny Towns move; {NOTATION_HELP}")
        if action in self._legal(player)[1]:
            return
        raise IllegalAction(self.why_illegal(player, action))

    def why_illegal(self, player: int, action: Action) -> str:
        """The rule ``action`` breaks for ``player`` now, in player words."""
        town = self.towns[player]
        verb = action.verb
        phase = self.phase
        if phase == KEEP_PHASE:
            if verb != KEEP:
                return f"first keep one of your two monuments: {' or '.join(town.dealt)}"
            return f"you were dealt {' and '.join(town.dealt)}; keep one of them, not {action.what}"
        if phase == NAME_PHASE:
            if verb != NAME:
                return "the round starts with the Master Builder naming a resource (name wood)"
            if self.solo and action.what not in self.face_up:
                return f"{action.what} is not face up; pick one of the face-up cards: {', '.join(self.face_up)}"
            return f"{action.what} is on one of your Banks: as Master Builder you may not name it"
        if phase == PLACE_PHASE:
            return self._why_not_placed(player, action)
        if town.pending:
            kind = town.pending[0][0]
            wanted = ", ".join(str(a) for a in self.pending_options(player)[:SHOWN_CHOICES])
            return f"first settle your {PENDING_WORDS[kind]} ({wanted} …)"
        if verb == BUILD:
            return self._why_not_built(player, action)
        if verb in (PLACE, STORE, CAVERN_VERB):
            return "this round's resource is already placed: build, or say done"
        return f"'{action}' is not a move of the building step: build a building or say done"

    def _why_not_placed(self, player: int, action: Action) -> str:
        town = self.towns[player]
        verb = action.verb
        if verb not in (PLACE, STORE, CAVERN_VERB):
            return "first place this round's resource in your town (place wood B3)"
        named_txt = "the resource you choose" if self.free_round else self.named
        others = self.named_by_another(player)
        if verb == CAVERN_VERB:
            if CAVERN not in self.variants:
                return "the Cavern is a variant not used in this game"
            if not others:
                return "only resources named by another player may go to your Cavern"
            if len(town.cavern) >= C.CAVERN_CAPACITY:
                return f"your Cavern already holds {C.CAVERN_CAPACITY} resources"
            return f"this round's resource is {self.named}, not {action.what}"
        if verb == STORE:
            where = action.squares[0]
            if where not in town.stored:
                return f"there is no Warehouse of yours on {SQUARE_NAMES[where]}"
            if not others:
                return "a Warehouse only takes resources named by another player"
            if action.what != self.named:
                return f"only this round's resource ({self.named}) can be stored"
            if action.other and action.other not in town.stored[where]:
                return f"your Warehouse on {SQUARE_NAMES[where]} holds no {action.other}"
            if action.other and town.grid[action.target]:
                return f"{SQUARE_NAMES[action.target]} is not empty: the swapped cube needs an empty square"
            return f"your Warehouse on {SQUARE_NAMES[where]} is full ({C.WAREHOUSE_CAPACITY} cubes)"
        square = SQUARE_NAMES[action.target]
        content = town.grid[action.target]
        if content == "Cottage" and town.has("Statue of the Bondmaker") and others:
            if action.target in town.statue:
                return f"the Cottage on {square} already holds a cube (1 per cottage)"
            return f"only the named resource ({self.named}) may go on a cottage"
        if content:
            return f"{square} already holds {content}: resources go on empty squares"
        if self.free_round:
            return f"{action.what} is on one of your Banks: you may not choose it"
        if action.what != self.named:
            factory = " (a Factory holding it would let you take another)" if others else ""
            return f"the resource this round is {named_txt}; you must place {self.named}{factory}"
        return f"'{action}' is not allowed now"

    def _why_not_built(self, player: int, action: Action) -> str:
        town = self.towns[player]
        name = action.what
        if name in C.MONUMENTS:
            if name != town.monument:
                return f"only the player holding {name} may build it"
            if town.built:
                return f"you have already built {name}: a monument is built once"
        elif name not in self.buildings:
            return f"{name} is not in play this game; the buildings are {', '.join(self.buildings)}"
        pattern = self.pattern_of(name)
        needs = describe_pattern(pattern)
        holding = ", ".join(f"{SQUARE_NAMES[s]} is {town.grid[s] or 'empty'}" for s in action.squares)
        same_squares = [a for a in self.build_options(player) if a.what == name and a.squares == action.squares]
        if not same_squares:
            return f"{name} needs {needs} in the shape {pattern} (rotated or mirrored); {holding or 'no squares given'}"
        spots = ", ".join(SQUARE_NAMES[a.target] for a in same_squares)
        return f"the {name} must go on a square its resources came from: {spots}"

    # --- carrying out a legal action --------------------------------------------------------

    def _do(self, player: int, action: Action) -> None:
        """Carry out ``action``. The per-state cache is emptied, then given the actors of the new position
        when the step found them on its way (what ``_compute_actors`` would find).

        The actors before the move (``before``, when cached): a placement or a ``done`` of one of them (no
        pending decision anywhere) only takes that player out of the actors, so the new actors are
        ``before`` without ``player``; after a round ends in a naming step, they are the Master Builder
        (the player in solo).
        """
        cache = self._cache
        before: list[int] | None = cache.get(ACTORS_KEY)
        cache.clear()
        town = self.towns[player]
        verb = action.verb
        actors: list[int] | None
        if verb in PLACING_VERBS:
            town.choice = action
            if before is not None and player in before:
                actors = before[:]
                actors.remove(player)
            else:
                actors = self._compute_actors()
            if not actors:
                self._resolve_placements()
        elif verb == NAME:
            self._name(player, action.what)
            actors = None
        elif verb == KEEP:
            town.monument = action.what
            actors = self._compute_actors()
            if not actors:
                self.epoch += 1  # the secret choices are made; the first round begins
                self._start_round()
        else:
            if verb == DONE:
                town.done = True
            elif verb == BUILD:
                self._build(player, action)
            else:
                self._settle(player, action)
            pending = False
            for q, other in enumerate(self.towns):
                if other.pending:
                    pending = True
                    self._drop_unanswerable(q)
            if verb == DONE and not pending and before is not None and player in before:
                actors = before[:]
                actors.remove(player)
            else:
                actors = self._compute_actors()
            if not actors:
                self._end_round()
                if self.phase == NAME_PHASE:
                    actors = [0 if self.players == 1 else self.mb]
        if actors:
            cache[ACTORS_KEY] = actors

    def _name(self, player: int, resource: str) -> None:
        """Game Play 1: the Master Builder names a resource (solo: picks a face-up card)."""
        if self.solo:
            # Solo: the picked card goes face down under the deck; a replacement is turned up.
            self.face_up.remove(resource)
            self.deck.append(resource)
            self.face_up.append(self.deck.pop(0))
            self.unknown = max(0, self.unknown - 1)
            self.epoch += 1
        else:
            self.towns[player].mb_turns += 1
        self.named = resource
        self.phase = PLACE_PHASE

    def _resolve_placements(self) -> None:
        """Everyone has chosen: reveal and carry out every placement at once."""
        for town in self.towns:
            action = town.choice
            if action is None:
                continue
            town.choice = None
            if action.verb == PLACE:
                if town.grid[action.target] == "Cottage":
                    town.statue = sorted([*town.statue, action.target])
                else:
                    town.grid[action.target] = action.what
            elif action.verb == STORE:
                cubes = town.stored[action.squares[0]]
                cubes.append(action.what)
                if action.other:
                    cubes.remove(action.other)
                    town.grid[action.target] = action.other
                cubes.sort()
            else:
                town.cavern = sorted([*town.cavern, action.what])
        self.epoch += 1
        self.phase = BUILD_PHASE
        for town in self.towns:
            town.done = town.completed != NOT_COMPLETE

    def _build(self, player: int, action: Action) -> None:
        """Building Construction Rules 1-3: remove the cubes, put the building on the chosen square."""
        town = self.towns[player]
        for sq in action.squares:
            if town.grid[sq] in C.RESOURCES:
                town.grid[sq] = ""
        town.grid[action.target] = action.what
        name = action.what
        if name in C.MONUMENTS:
            town.built = True
            self._monument_built(player, name)
        else:
            self._building_arrives(player, action.target, name)
        # Opaleye's Watch: a neighbour built a type on your card; it moves to your town.
        for q in {(player + 1) % self.players, (player - 1) % self.players} - {player}:
            other = self.towns[q]
            if other.has("Opaleye's Watch") and name in other.opaleye and other.empty_squares():
                other.opaleye.remove(name)
                other.pending.append((OPALEYE_MOVE, 0, name))

    def _building_arrives(self, player: int, square: int, name: str) -> None:
        """A building's "when built" effects (Factory and Bank resources, an empty Warehouse)."""
        town = self.towns[player]
        if name == "Factory":
            town.factory[square] = ""
            town.pending.insert(0, (FACTORY_CHOICE, square, ""))
        elif name == "Bank":
            town.bank[square] = ""
            town.pending.insert(0, (BANK_CHOICE, square, ""))
        elif name == "Warehouse":
            town.stored[square] = []

    def _monument_built(self, player: int, name: str) -> None:
        """Monuments: the card is read aloud and its immediate effect resolved."""
        town = self.towns[player]
        if name == "Shrine of the Elder Tree":
            count = sum(1 for v in town.grid if is_building(v))
            if SHRINE_EXCLUDES_SELF in self.variants:
                count -= 1
            town.shrine_vp = C.SHRINE_TABLE[min(count, len(C.SHRINE_TABLE) - 1)]
        elif name == "Architect's Guild":
            town.pending.insert(0, (GUILD_SWAPS, C.GUILD_SWAPS, ""))
        elif name == "Grove University":
            town.pending.insert(0, (GROVE_PLACE, 0, ""))
        elif name == "Opaleye's Watch":
            town.pending.insert(0, (OPALEYE_PICK, C.OPALEYE_CARDS, ""))

    def _settle(self, player: int, action: Action) -> None:
        """Answer the front pending decision."""
        town = self.towns[player]
        kind, number, _name = town.pending.pop(0)
        if kind == FACTORY_CHOICE:
            town.factory[number] = action.what
        elif kind == BANK_CHOICE:
            town.bank[number] = action.what
        elif kind == OPALEYE_PICK:
            town.opaleye.append(action.what)
            if number > 1:
                town.pending.insert(0, (OPALEYE_PICK, number - 1, ""))
        elif kind == GUILD_SWAPS:
            if action.verb == SWAP:
                if number > 1:
                    town.pending.insert(0, (GUILD_SWAPS, number - 1, ""))
                self._replace_building(player, action.target, action.what)
        else:  # GROVE_PLACE, OPALEYE_MOVE
            town.grid[action.target] = action.what
            self._building_arrives(player, action.target, action.what)

    def _replace_building(self, player: int, square: int, name: str) -> None:
        """Architect's Guild: the building on ``square`` becomes ``name``; what it held goes back."""
        town = self.towns[player]
        town.stored.pop(square, None)
        town.factory.pop(square, None)
        town.bank.pop(square, None)
        if square in town.statue:
            town.statue.remove(square)
        town.grid[square] = name
        self._building_arrives(player, square, name)

    def _drop_unanswerable(self, player: int) -> None:
        """Drop pending decisions nobody can answer (no empty square left, no resource left for a Bank)."""
        town = self.towns[player]
        while town.pending and not self.pending_options(player):
            kind, _number, name = town.pending.pop(0)
            if kind == OPALEYE_MOVE:
                town.opaleye.append(name)  # no room: it stays on the card

    # --- rounds --------------------------------------------------------------------------------

    def _start_round(self) -> None:
        """A new round: the resource is named, drawn, or chosen freely."""
        for town in self.towns:
            if town.completed == NOT_COMPLETE:
                break
        else:  # every town is complete
            self.phase = OVER
            return
        self.free_round = False
        self.named = ""
        if self.solo:
            self.phase = NAME_PHASE
        elif self.town_hall:
            if self.round % C.TOWN_HALL_CYCLE == C.TOWN_HALL_CYCLE - 1:
                self.free_round = True
            else:
                self.named = self._draw_town_hall_card()
            self.phase = PLACE_PHASE
        else:
            self.phase = NAME_PHASE

    def _draw_town_hall_card(self) -> str:
        """Town Hall: reveal the top card; an empty pile is rebuilt from all 15, minus 5 face down."""
        if not self.deck:
            cards = [*self.deck, *self.discard, *self.removed]
            self.rng.shuffle(cards)
            self.removed = cards[: C.TOWN_HALL_REMOVED]
            self.deck = cards[C.TOWN_HALL_REMOVED :]
            self.discard = []
        card = self.deck.pop(0)
        self.discard.append(card)
        self.epoch += 1
        return card

    def _end_round(self) -> None:
        """Game Play 4 and "Completing your Town": full towns leave; the hammer passes left."""
        for town in self.towns:
            if town.completed == NOT_COMPLETE and "" not in town.grid:
                town.completed = self.round
        self.round += 1
        if self.mb != NO_PLAYER:
            self._pass_master_builder()
        self._start_round()

    def _pass_master_builder(self) -> None:
        """The next player on the left with an incomplete town (Fort Ironweed's owner is skipped
        unless they are the last player building)."""
        towns = self.towns
        still = [p for p, t in enumerate(towns) if t.completed == NOT_COMPLETE]
        if len(still) == 1:
            self.mb = still[0]
            return
        players = self.players
        for step in range(1, players + 1):
            q = (self.mb + step) % players
            town = towns[q]
            if town.completed == NOT_COMPLETE and not (town.built and town.monument == "Fort Ironweed"):
                self.mb = q
                return

    # --- the contract: end, result, views ----------------------------------------------------

    def is_over(self) -> bool:
        """True when every town is complete."""
        return self.phase == OVER

    def info_epoch(self) -> int:
        """Moves on when monuments are kept, placements revealed, or a resource card is turned."""
        return self.epoch

    def starloom_place(self, player: int) -> int:
        """1-based order of completion (towns completed in the same round share it).

        For a town still building, the place it would get if it completed now.
        """
        rounds = [t.completed for t in self.towns if t.complete]
        mine = self.towns[player].completed if self.towns[player].complete else self.round
        return 1 + sum(1 for r in rounds if r < mine)

    def town_facts(self, player: int) -> TownFacts:
        """What scoring needs about ``player``'s town."""
        town = self.towns[player]
        return TownFacts(
            grid=town.grid,
            monument=town.monument if town.built else None,
            warehouse_cubes=town.warehouse_cubes(),
            shrine_vp=town.shrine_vp,
            starloom_place=self.starloom_place(player),
            mb_turns=town.mb_turns,
        )

    def result(self) -> Result:
        """The score sheet (scoring.py); mid-game, the towns scored as they stand."""
        result = score_towns([self.town_facts(p) for p in range(self.players)], self.buildings, self._readings)
        result.details["rounds"] = self.round
        result.details["completed_round"] = [t.completed if t.complete else None for t in self.towns]
        return result

    def heuristic(self, player: int) -> float:
        """How good the position looks for ``player`` (greedy agent, search cut-offs); see ``evaluation.py``."""
        from farmtable.games.tiny_towns.evaluation import heuristic

        return heuristic(self, player)

    def evaluate(self) -> list[float]:
        """Each player's expected final objective from here (search leaves); see ``evaluation.py``."""
        from farmtable.games.tiny_towns.evaluation import evaluate

        return evaluate(self)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: every town's board, and only their own secrets."""
        towns = []
        for q, town in enumerate(self.towns):
            mine = q == player
            entry: dict[str, Any] = {
                "grid": list(town.grid),
                "complete": town.complete,
                "completed_round": town.completed,
                "master_builder_turns": town.mb_turns,
                "warehouses": {SQUARE_NAMES[k]: list(v) for k, v in sorted(town.stored.items())},
                "factories": {SQUARE_NAMES[k]: v for k, v in sorted(town.factory.items())},
                "banks": {SQUARE_NAMES[k]: v for k, v in sorted(town.bank.items())},
                "cubes_on_cottages": [SQUARE_NAMES[s] for s in town.statue],
                "cavern": list(town.cavern),
                "opaleye": list(town.opaleye),
                "shrine_vp": town.shrine_vp,
                "monument_built": town.monument if town.built else None,
                "monument_chosen": bool(town.monument),
                "has_placed": town.choice is not None,
                "done": town.done,
                "pending": [PENDING_WORDS[k] for k, _, _ in town.pending],
            }
            if mine:
                entry["monument"] = town.monument or None
                entry["dealt"] = list(town.dealt)
                entry["placement"] = str(town.choice) if town.choice else None
            towns.append(entry)
        return {
            "players": self.players,
            "variants": list(self.variants),
            "buildings": {name: C.BUILDINGS[name].pattern for name in self.buildings},
            "round": self.round,
            "phase": self.phase,
            "master_builder": None if self.mb == NO_PLAYER else self.mb,
            "named": self.named or None,
            "free_choice": self.free_round,
            "resource_deck": {
                "draw_pile": len(self.deck),
                "face_up": list(self.face_up),
                "revealed": list(self.discard),
                "face_down_removed": len(self.removed),
            },
            "towns": towns,
            "actors": self.actors(),
            "viewer": player,
        }

    def render_text(self, player: int | None = None) -> str:
        """The board as plain text (render.py)."""
        from farmtable.games.tiny_towns.render import render_text

        return render_text(self, player)

    # --- hidden information ------------------------------------------------------------------

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> TinyTownsState:
        """A state consistent with what ``player`` has seen; others' secrets and deck order re-sampled."""
        source = as_rng(rng)
        det = self.clone()
        det.rng = source.fork()
        # Monuments ``player`` has not seen: others' unbuilt cards and their discarded ones.
        seen = set(self.towns[player].dealt) | {t.monument for t in self.towns if t.built}
        pool = [m for m in self.monument_pool() if m not in seen]
        source.shuffle(pool)
        for q, town in enumerate(det.towns):
            if q == player or not town.dealt:
                continue
            if town.built:
                town.dealt = [town.monument if d == town.monument else pool.pop() for d in town.dealt]
            else:
                town.dealt = [pool.pop() for _ in town.dealt]
                if town.monument:
                    town.monument = town.dealt[source.below(len(town.dealt))]
        # Unseen cards: Town Hall's draw pile and face-down cards; solo's never-seen top of the deck.
        if self.town_hall:
            hidden = det.deck + det.removed
            source.shuffle(hidden)
            det.removed = hidden[: len(det.removed)]
            det.deck = hidden[len(det.removed) :]
        elif self.solo and det.unknown:
            top = det.deck[: det.unknown]
            source.shuffle(top)
            det.deck[: det.unknown] = top
        # Others' hidden placements this round: any of their legal placements.
        if det.phase == PLACE_PHASE:
            for q, town in enumerate(det.towns):
                if q != player and town.choice is not None:
                    town.choice = None
                    det._cache.clear()
                    town.choice = source.choice(det.placement_options(q))
        det._cache.clear()
        return det

    def monument_pool(self) -> list[str]:
        """The monuments used in this game (solo removes two), in card order."""
        removed = solo_removed(self.variants) if self.solo else ()
        return [m for m in C.MONUMENTS if m not in removed]

    # --- copies and saves ----------------------------------------------------------------------

    def clone(self) -> TinyTownsState:
        """An independent copy, written by hand for speed."""
        s = TinyTownsState.__new__(TinyTownsState)
        s.players = self.players
        s.variants = self.variants
        s.buildings = self.buildings
        s.rng = self.rng.copy()
        s.phase = self.phase
        s.round = self.round
        s.mb = self.mb
        s.named = self.named
        s.free_round = self.free_round
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.removed = self.removed[:]
        s.face_up = self.face_up[:]
        s.unknown = self.unknown
        s.epoch = self.epoch
        s.towns = [t.copy() for t in self.towns]
        s._readings = self._readings
        s._cache = {}
        s._fit_tables = self._fit_tables  # a cache by building names: the same for every copy
        return s

    def to_dict(self) -> dict[str, Any]:
        """The complete state as JSON-able data."""
        return {
            "players": self.players,
            "variants": list(self.variants),
            "buildings": list(self.buildings),
            "rng": self.rng.state,
            "phase": self.phase,
            "round": self.round,
            "master_builder": self.mb,
            "named": self.named,
            "free_round": self.free_round,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "removed": list(self.removed),
            "face_up": list(self.face_up),
            "unknown": self.unknown,
            "epoch": self.epoch,
            "towns": [_town_to_dict(t) for t in self.towns],
        }


PENDING_WORDS: dict[str, str] = {
    FACTORY_CHOICE: "Factory: choose the resource it holds",
    BANK_CHOICE: "Bank: choose the resource it holds",
    OPALEYE_PICK: "Opaleye's Watch: choose a building for the card",
    OPALEYE_MOVE: "Opaleye's Watch: place the building a neighbour built",
    GUILD_SWAPS: "Architect's Guild: swap a building, or pass",
    GROVE_PLACE: "Grove University: place a building on an empty square",
}


def _town_to_dict(t: Town) -> dict[str, Any]:
    return {
        "grid": list(t.grid),
        "statue": [SQUARE_NAMES[s] for s in t.statue],
        "stored": {SQUARE_NAMES[k]: list(v) for k, v in t.stored.items()},
        "factory": {SQUARE_NAMES[k]: v for k, v in t.factory.items()},
        "bank": {SQUARE_NAMES[k]: v for k, v in t.bank.items()},
        "cavern": list(t.cavern),
        "dealt": list(t.dealt),
        "monument": t.monument,
        "built": t.built,
        "shrine_vp": t.shrine_vp,
        "opaleye": list(t.opaleye),
        "mb_turns": t.mb_turns,
        "completed": t.completed,
        "pending": [[k, n, s] for k, n, s in t.pending],
        "done": t.done,
        "choice": str(t.choice) if t.choice is not None else None,
    }


# --- loading and validating saves ---------------------------------------------------------------


_expect = expect


def _int(value: Any, what: str, low: int, high: int) -> int:
    return whole_number(value, what, low, high)


def _str_list(value: Any, what: str, allowed: Iterable[str]) -> list[str]:
    return names(value, what, allowed)


def _square(name: Any, what: str) -> int:
    _expect(isinstance(name, str) and name.lower() in SQUARE_INDEX, f"{what}: {name!r} is not a square")
    return SQUARE_INDEX[str(name).lower()]


_MAX_ROUNDS = 10_000


def _town_from_dict(data: Any, buildings: tuple[str, ...], p: int) -> Town:
    _expect(isinstance(data, dict), f"town {p} must be an object")
    t = Town()
    where = f"town {p}"
    allowed_cells = {"", *C.RESOURCES, *buildings, *C.MONUMENTS}
    t.grid = _str_list(data["grid"], f"{where} grid", allowed_cells)
    _expect(len(t.grid) == C.SQUARES, f"{where} grid must have {C.SQUARES} squares")
    t.statue = sorted(_square(s, f"{where} statue") for s in _str_list(data["statue"], where, SQUARE_NAMES))
    for kind in ("stored", "factory", "bank"):
        _expect(isinstance(data[kind], dict), f"{where} {kind} must be an object")
    for key, cubes in data["stored"].items():
        sq = _square(key, f"{where} warehouse")
        _expect(t.grid[sq] == "Warehouse", f"{where}: no Warehouse on {key}")
        stored = _str_list(cubes, f"{where} warehouse {key}", C.RESOURCES)
        _expect(len(stored) <= C.WAREHOUSE_CAPACITY, f"{where}: Warehouse {key} holds more than 3")
        t.stored[sq] = sorted(stored)
    for kind, building, target in (("factory", "Factory", t.factory), ("bank", "Bank", t.bank)):
        for key, res in data[kind].items():
            sq = _square(key, f"{where} {kind}")
            _expect(t.grid[sq] == building, f"{where}: no {building} on {key}")
            _expect(res in ("", *C.RESOURCES), f"{where}: {building} {key} holds {res!r}")
            target[sq] = res
    for sq in t.statue:
        _expect(t.grid[sq] == "Cottage", f"{where}: a statue cube on a square without a Cottage")
    t.cavern = sorted(_str_list(data["cavern"], f"{where} cavern", C.RESOURCES))
    _expect(len(t.cavern) <= C.CAVERN_CAPACITY, f"{where}: the Cavern holds more than {C.CAVERN_CAPACITY}")
    t.dealt = _str_list(data["dealt"], f"{where} dealt monuments", C.MONUMENTS)
    _expect(len(t.dealt) in (0, C.MONUMENTS_DEALT), f"{where}: {len(t.dealt)} monuments dealt")
    monument = data["monument"]
    _expect(monument == "" or monument in t.dealt, f"{where}: kept monument {monument!r} was not dealt")
    t.monument = str(monument)
    t.built = bool(data["built"])
    _expect(isinstance(data["built"], bool), f"{where}: built must be true or false")
    placed = [v for v in t.grid if v in C.MONUMENTS]
    _expect(placed == ([t.monument] if t.built else []), f"{where}: the monuments on the grid do not match")
    t.shrine_vp = _int(data["shrine_vp"], f"{where} shrine_vp", 0, max(C.SHRINE_TABLE))
    t.opaleye = _str_list(data["opaleye"], f"{where} opaleye", buildings)
    _expect(len(set(t.opaleye)) == len(t.opaleye) <= C.OPALEYE_CARDS, f"{where}: bad Opaleye's Watch cards")
    t.mb_turns = _int(data["mb_turns"], f"{where} mb_turns", 0, _MAX_ROUNDS)
    t.completed = _int(data["completed"], f"{where} completed", NOT_COMPLETE, _MAX_ROUNDS)
    _expect(isinstance(data["pending"], list), f"{where} pending must be a list")
    for item in data["pending"]:
        _expect(isinstance(item, list) and len(item) == 3, f"{where}: bad pending decision {item!r}")
        kind, number, name = item
        _expect(kind in PENDING_KINDS, f"{where}: unknown pending decision {kind!r}")
        _int(number, f"{where} pending number", 0, C.SQUARES)
        _expect(name == "" or name in buildings, f"{where}: pending building {name!r} is not in play")
        t.pending.append((kind, number, name))
    _expect(isinstance(data["done"], bool), f"{where}: done must be true or false")
    t.done = data["done"]
    choice = data["choice"]
    if choice is not None:
        _expect(isinstance(choice, str), f"{where}: choice must be notation")
        try:
            t.choice = parse_notation(choice)
        except IllegalAction as exc:
            raise ValueError(f"{where}: unreadable placement {choice!r}: {exc}") from None
        _expect(t.choice.verb in (PLACE, STORE, CAVERN_VERB), f"{where}: {choice!r} is not a placement")
    return t


def state_from_dict(game_cls: type[TinyTownsState], data: dict[str, Any]) -> TinyTownsState:
    """Rebuild and validate a saved state; ``ValueError`` naming the first inconsistency."""
    players = _int(data["players"], "players", 1, C.MAX_PLAYERS)
    variants = tuple(_str_list(data["variants"], "variants", VARIANTS))
    _expect(list(variants) == sorted(set(variants)), "variants must be sorted and distinct")
    buildings = tuple(_str_list(data["buildings"], "buildings", C.BUILDINGS))
    check_building_set(buildings, players, variants)
    rng_state = _int(data["rng"], "rng", 0, MAX_RNG_STATE)
    state = game_cls(players, variants, buildings, Rng(rng_state))
    _expect(data["phase"] in PHASES, f"unknown phase {data['phase']!r}")
    state.phase = data["phase"]
    state.round = _int(data["round"], "round", 0, _MAX_ROUNDS)
    state.mb = _int(data["master_builder"], "master_builder", NO_PLAYER, players - 1)
    _expect(
        (state.mb == NO_PLAYER) == (players == 1 or TOWN_HALL in variants),
        "the Master Builder does not fit the variant",
    )
    _expect(data["named"] in ("", *C.RESOURCES), f"named resource {data['named']!r} is unknown")
    state.named = data["named"]
    _expect(isinstance(data["free_round"], bool), "free_round must be true or false")
    state.free_round = data["free_round"]
    state.deck = _str_list(data["deck"], "deck", C.RESOURCES)
    state.discard = _str_list(data["discard"], "discard", C.RESOURCES)
    state.removed = _str_list(data["removed"], "removed", C.RESOURCES)
    state.face_up = _str_list(data["face_up"], "face_up", C.RESOURCES)
    state.unknown = _int(data["unknown"], "unknown", 0, len(C.RESOURCE_DECK))
    state.epoch = _int(data["epoch"], "epoch", 0, 10 * _MAX_ROUNDS)
    cards = sorted(state.deck + state.discard + state.removed + state.face_up)
    if players == 1:
        _expect(cards == sorted(C.RESOURCE_DECK), "the solo resource deck must hold the 15 cards")
        _expect(len(state.face_up) == C.SOLO_FACE_UP, "solo shows 3 face-up cards")
        _expect(state.unknown <= len(state.deck), "more unseen cards than the deck holds")
    elif TOWN_HALL in variants:
        _expect(cards == sorted(C.RESOURCE_DECK), "the Town Hall resource deck must hold the 15 cards")
        _expect(len(state.removed) == C.TOWN_HALL_REMOVED, "Town Hall keeps 5 cards face down")
    else:
        _expect(not cards, "only solo and Town Hall use the resource deck")
    _expect(isinstance(data["towns"], list) and len(data["towns"]) == players, "one town per player")
    state.towns = [_town_from_dict(t, buildings, p) for p, t in enumerate(data["towns"])]
    dealt = [m for t in state.towns for m in t.dealt]
    _expect(len(dealt) == len(set(dealt)), "a monument is dealt to two players")
    if NO_MONUMENTS in variants:
        _expect(not dealt, "monuments dealt in a game without monuments")
    else:
        _expect(all(t.dealt for t in state.towns), "every player is dealt 2 monuments")
    if state.phase != KEEP_PHASE:
        _expect(all(t.monument or not t.dealt for t in state.towns), "a monument is not chosen after setup")
    if state.phase == PLACE_PHASE:
        _expect(bool(state.named) or state.free_round, "a placement step needs a named resource")
    if state.mb != NO_PLAYER and state.phase in (NAME_PHASE, PLACE_PHASE, BUILD_PHASE):
        _expect(not state.towns[state.mb].complete, "the Master Builder's town is complete")
    _expect((state.phase == OVER) == (not state.incomplete()), "the game end does not match the towns")
    for p, town in enumerate(state.towns):
        if town.choice is not None:
            _expect(state.phase == PLACE_PHASE, "a hidden placement outside the placement step")
            _expect(town.choice in state.placement_options(p), f"town {p}'s hidden placement is not legal")
    if state.phase != OVER:
        actors = state._compute_actors()
        _expect(bool(actors), "nobody could move in this saved position")
        for p in actors:
            _expect(bool(state._compute_legal(p)), f"player {p} must move but has no legal move")
    return state


def check_building_set(buildings: tuple[str, ...], players: int, variants: tuple[str, ...]) -> None:
    """Raise ValueError unless ``buildings`` is the Cottage plus one card of each pile (solo: none removed)."""
    _expect(len(buildings) == 1 + len(C.PILES), "the game uses 7 building cards")
    _expect(buildings[0] == "Cottage", "the first building card must be the Cottage")
    for pile, name in zip(C.PILES, buildings[1:], strict=True):
        _expect(name in C.PILE_CARDS[pile], f"{name} is not a card of the {pile} pile")
    if players == 1:
        banned = [b for b in buildings if b in solo_removed(variants)]
        _expect(not banned, f"solo removes {', '.join(banned)} from the game")


# --- the game: setup ---------------------------------------------------------------------------


class TinyTownsGame(Game[TinyTownsState]):
    """Tiny Towns (AEG, 2019), 1-6 players: build a thriving 4x4 town from shared resources."""

    id: ClassVar[str] = "tiny-towns"
    title: ClassVar[str] = "Tiny Towns"
    summary: ClassVar[str] = (
        "Everyone places the resource the Master Builder names, then builds buildings from "
        "patterns of cubes in a 4x4 town; the most prosperous town wins."
    )
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = C.MAX_PLAYERS
    variants: ClassVar[dict[str, str]] = VARIANTS
    OPTIONS: ClassVar[tuple[str, ...]] = ("buildings",)

    scoring_helper_format: ClassVar[str | None] = HELPER_FORMAT

    def score_text(self, text: str) -> Result:
        """Score towns typed as text (helper.py); BadInput names the line and the problem."""
        return score_text(text)

    def check_players_and_variants(self, players: int, variants: tuple[str, ...]) -> None:
        """Refuse, saying why: Town Hall in solo, the solo-only variant with 2+ players, monument readings
        without monuments."""
        if SOLO_FEAST_HALL in variants and players != 1:
            raise ValueError(f"{SOLO_FEAST_HALL} is a solo rule: play it with players=1, not {players}")
        if TOWN_HALL in variants and players == 1:
            raise ValueError("Town Hall replaces the Master Builder of a 2-6 player game; solo has its own deck")
        if NO_MONUMENTS in variants:
            monument_only = [v for v in (MAUSOLEUM_WOOD, SHRINE_EXCLUDES_SELF, READING_MANDRAS_AROUND) if v in variants]
            if monument_only:
                raise ValueError(f"{', '.join(monument_only)} changes a monument, but no-monuments removes them")

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> TinyTownsState:
        """Setup 1-11 (rulebook), with the solo and Town Hall setups of the component file."""
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise ValueError(f"unknown option {', '.join(unknown)}; Tiny Towns takes: buildings=[...]")
        rng = Rng(seed)
        buildings = self._choose_buildings(players, variants, options.get("buildings"), rng)
        state = TinyTownsState(players, variants, buildings, rng)
        if NO_MONUMENTS not in variants:  # Setup 10: deal 2 monuments each, keep 1 in secret
            pool = state.monument_pool()
            rng.shuffle(pool)
            for p, town in enumerate(state.towns):
                town.dealt = pool[C.MONUMENTS_DEALT * p : C.MONUMENTS_DEALT * (p + 1)]
        if TOWN_HALL in variants:  # shuffle the 15 cards, the top 5 face down to the discard
            deck = list(C.RESOURCE_DECK)
            rng.shuffle(deck)
            state.removed = deck[: C.TOWN_HALL_REMOVED]
            state.deck = deck[C.TOWN_HALL_REMOVED :]
        elif players == 1:  # solo: shuffle, turn 3 face up
            deck = list(C.RESOURCE_DECK)
            rng.shuffle(deck)
            state.face_up = deck[: C.SOLO_FACE_UP]
            state.deck = deck[C.SOLO_FACE_UP :]
            state.unknown = len(state.deck)
        if NO_MONUMENTS in variants:
            state._start_round()
        return state

    def _choose_buildings(self, players: int, variants: tuple[str, ...], chosen: Any, rng: Rng) -> tuple[str, ...]:
        """Setup 3-7: the Cottage and one card of each pile (random, chosen, or the first-game set)."""
        if chosen is not None:
            if FIRST_GAME in variants:
                raise ValueError("first-game fixes the buildings; do not also pass buildings=[...]")
            if isinstance(chosen, str) or not isinstance(chosen, (list, tuple)):
                raise ValueError("buildings must be a list of building names, e.g. ['Farm', 'Well', ...]")
            names = []
            for item in chosen:
                name = _CARD_BY_LOWER.get(str(item).strip().lower())
                if name is None or name not in C.BUILDINGS:
                    raise ValueError(f"'{item}' is not a Tiny Towns building card")
                if name != "Cottage":
                    names.append(name)
            by_pile = {C.BUILDINGS[n].colour: n for n in names}
            missing = [pile for pile in C.PILES if pile not in by_pile]
            if len(names) != len(C.PILES) or missing:
                raise ValueError(
                    "buildings must name one card of each pile (red, grey, yellow, orange, green, black)"
                    + (f"; missing: {', '.join(missing)}" if missing else "")
                )
            result = ("Cottage", *(by_pile[pile] for pile in C.PILES))
        elif FIRST_GAME in variants:
            result = C.FIRST_GAME_SET
        else:
            removed = solo_removed(variants) if players == 1 else ()
            piles = _PILES_LEFT.get(removed)
            if piles is None:
                piles = _PILES_LEFT[removed] = tuple(
                    tuple(n for n in C.PILE_CARDS[pile] if n not in removed) for pile in C.PILES
                )
            result = ("Cottage", *(rng.choice(cards) for cards in piles))
        check_building_set(result, players, variants)
        return result

    def _from_dict(self, data: dict[str, Any]) -> TinyTownsState:
        """Load and validate a saved state."""
        return state_from_dict(TinyTownsState, data)


GAME = TinyTownsGame()
TinyTownsState.game = GAME
