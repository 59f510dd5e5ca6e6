"""Farmini rules: setup, a turn, wolves, the end (rulebook ``shared/rulebooks/farmini.txt``).

Read top to bottom like the rulebook:

1. **Setup** -- each player's farm card at ``(0, 0)``; the four starting cards face up; the
   deck (fence, wolf, animal and unused farm cards) shuffled face down; 15 tokens in the
   farmyard. Seat 0 goes first, then clockwise.
2. **Gameplay** -- on your turn you take one face-up card (``take N``) and play it:
   a fence card is attached to your farm (``place C7 at 1,-1 rot 90``); an animal card brings
   its tokens, each placed on a free animal cell (``animal pig at 0,1/SE``). If no face-up card
   can be played you must still take one and discard it (``discard N``).
3. Then the top card of the deck is revealed. A **wolf** is resolved at once: every player
   returns the animals of its kind that are not inside an enclosed pen; the wolf is discarded
   and another card revealed. **Solo**: the wolf first discards the face-up animal cards of its
   kind (variant ``solo-wolf-clears-all``: all face-up animal cards) and cards are revealed until
   four lie on the table again.
4. **End** -- when no cards are left in the deck or on the table.
"""

from __future__ import annotations

import random
import re
from itertools import chain, compress, filterfalse, repeat
from operator import and_, rshift
from typing import Any, ClassVar, Final, NamedTuple

import farmtable.core.game as _core_game
from farmtable.core import Game, IllegalAction, Result, Rng, State, as_rng
from farmtable.core.checks import whole_number
from farmtable.core.notation import normalize, shorten
from farmtable.core.rng import MAX_STATE as MAX_RNG_STATE
from farmtable.games.farmini.components import (
    ALL_CARDS,
    ANIMAL_CARDS,
    ANIMAL_CELL,
    CARDS_V1,
    FACE_UP_CARDS,
    FARM_CARDS,
    KINDS,
    QUARTERS,
    STARTING_CARD_IDS,
    TOKENS_PER_KIND,
    WOLF_CARDS,
    AnimalCard,
    FenceCard,
    WolfCard,
)
from farmtable.games.farmini.farm import (
    FACES,
    KIND_BITS,
    POS_OFFSET,
    QUARTER_INDEX,
    ROTATIONS,
    Y_BITS,
    Y_MASK,
    Cell,
    Faces,
    Farm,
    Pos,
    cell_name,
    faces_for,
    next_version,
)
from farmtable.games.farmini.helper import HELPER_FORMAT, score_text
from farmtable.games.farmini.render import card_text, render_text
from farmtable.games.farmini.scoring import (
    GAPS_OPEN,
    PER_CELL_PENALTY,
    SECOND_VARIANT,
    SOLO_PLAYERS,
    ScoringRules,
    score_farms,
)

SOLO_CLEARS_ALL: Final = "solo-wolf-clears-all"

VARIANTS: Final = {
    SECOND_VARIANT: "Second Variant: each enclosed pen holding animals of only one kind scores double.",
    PER_CELL_PENALTY: "Other reading of the gap rule: −1 per empty animal cell anywhere, not per pen.",
    SOLO_CLEARS_ALL: "Solo only: a wolf discards every face-up animal card, not only its own kind.",
    CARDS_V1: "The first assumed card faces (before the issue 14 review): seven fence cards show nothing.",
    GAPS_OPEN: "First reading of gaps: a ring of fences around a missing card is not an enclosed fence "
    "(default: it is, and each such gap costs 1 point).",
}

FARM_ORIGIN: Final[Pos] = (0, 0)
"""Where each player's farm card lies."""

MAX_ANIMALS_ON_A_CARD: Final = max(c.count for c in ANIMAL_CARDS)
"""The most tokens one animal card brings (2, DA-FM4)."""

MAX_COORD: Final = 64
"""Largest |x| or |y| a saved or typed position may have (a farm has at most 36 cards)."""


# --- actions ------------------------------------------------------------------------------


# Actions are NamedTuples (cheap to build, hash and compare: search agents make millions).
# Each ends with a fixed ``verb`` field so that actions of different types never compare
# equal as tuples (``Take(3) != Discard(3)``); leave it at its default.


class Take(NamedTuple):
    """Take the face-up card in slot ``slot`` (1-based) to play it: ``take 3``."""

    slot: int
    verb: str = "take"

    def __str__(self) -> str:
        return f"take {self.slot}"


class Discard(NamedTuple):
    """Take the face-up card in slot ``slot`` and discard it (only when no card can be played)."""

    slot: int
    verb: str = "discard"

    def __str__(self) -> str:
        return f"discard {self.slot}"


class Place(NamedTuple):
    """Attach the taken fence card at ``(x, y)`` turned ``rot`` degrees clockwise."""

    card: str
    x: int
    y: int
    rot: int
    verb: str = "place"

    def __str__(self) -> str:
        return f"place {self.card} at {self.x},{self.y} rot {self.rot}"


PLACE_VERB: Final = "place"
_chain: Final = chain.from_iterable
_rshift: Final = rshift
_and: Final = and_
_new_tuple: Final = tuple.__new__
"""``_new_tuple(Place, (card, x, y, rot, PLACE_VERB))`` is ``Place(card, x, y, rot)`` made without the
Python-level ``__new__`` of a NamedTuple (placements are made by the thousand)."""
_TAKES: Final = tuple(Take(i + 1) for i in range(FACE_UP_CARDS))
_DISCARDS: Final = tuple(Discard(i + 1) for i in range(FACE_UP_CARDS))
"""``take N`` and ``discard N`` for every face-up slot, made once."""
_MAX_PUT_ANIMALS = 20_000
"""Bound on the animal actions remembered per kind."""


class PutAnimal(NamedTuple):
    """Put one token of the taken animal card on the animal cell ``x,y/quarter``."""

    kind: str
    x: int
    y: int
    quarter: int
    verb: str = "animal"

    def __str__(self) -> str:
        return f"animal {self.kind} at {self.x},{self.y}/{QUARTERS[self.quarter]}"


Action = Take | Discard | Place | PutAnimal
_ACTION_TYPES: Final = (Take, Discard, Place, PutAnimal)
_VERBS: Final[dict[type, str]] = {t: t._field_defaults["verb"] for t in _ACTION_TYPES}

_INT = r"(-?\d{1,4})"
_TAKE_RE: Final = re.compile(r"^(take|discard) (\d{1,3})$")
_PLACE_RE: Final = re.compile(rf"^place ([a-z]{{1,2}}\d{{1,2}}) at {_INT} ?, ?{_INT}(?: rot (\d{{1,3}}))?$")
_ANIMAL_RE: Final = re.compile(rf"^animal ([a-z]+) at {_INT} ?, ?{_INT} ?/ ?(ne|se|sw|nw)$")

NOTATION_HELP: Final = "moves look like 'take 3', 'discard 2', 'place C7 at 1,-1 rot 90' or 'animal pig at 0,1/SE'"


class _AnimalActions(dict[Cell, PutAnimal]):
    """``animal <kind> at <cell>`` per cell, made on first use and kept (bounded): ``table[cell]`` equals
    ``PutAnimal(kind, *cell)``, so a farm's animal actions are ``map(table.__getitem__, free cells)`` in C."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, cell: Cell) -> PutAnimal:
        action = PutAnimal(self.kind, *cell)
        if len(self) < _MAX_PUT_ANIMALS:
            self[cell] = action
        return action


_PUT_ANIMALS: Final[dict[str, _AnimalActions]] = {kind: _AnimalActions(kind) for kind in KINDS}
"""``animal <kind> at <cell>`` made once per kind and cell (``put_animal``); bounded."""


def put_animal(kind: str, cell: Cell) -> PutAnimal:
    """``PutAnimal(kind, *cell)``, remembered for the next time (a farm has at most 144 cells in play)."""
    return _PUT_ANIMALS[kind][cell]


_KIND_OF_CODE: Final = (1 << KIND_BITS) - 1
"""The slot kind of a slot code (its low ``KIND_BITS`` bits)."""

_FENCE_IDS: Final = frozenset(cid for cid, card in ALL_CARDS.items() if isinstance(card, FenceCard))
_KIND_SHIFTS: Final = repeat(KIND_BITS)
"""``KIND_BITS`` for ever (``map(rshift, codes, _KIND_SHIFTS)``: the positions of slot codes; stateless, so shared)."""
_KIND_MASKS: Final = repeat(_KIND_OF_CODE)
"""``_KIND_OF_CODE`` for ever (``map(and_, codes, _KIND_MASKS)``: the kinds of slot codes; shared)."""
_MAX_PLACE_POSITIONS: Final = 8_192
"""Bound on the positions remembered per fence card (a card meets a few hundred; beyond it, made afresh)."""


class _PlacesAt(dict[int, tuple[Place, ...]]):
    """Every placement of one fence card, by position: ``table[pos]`` is ``Place(card, x, y, rot)`` for
    each rotation ``rot`` of ``ROTATIONS``, in that order, ``(x, y)`` the position numbered ``pos``
    (``farm.pos_code``). A position is made on first use and kept (bounded by ``_MAX_PLACE_POSITIONS``),
    so a fence card's legal list is read from these tables in C, with no action made per decision
    (``FarminiState._compute_legal``).
    """

    __slots__ = ("card",)

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card = card

    def __missing__(self, pos: int) -> tuple[Place, ...]:
        x = (pos >> Y_BITS) - POS_OFFSET
        y = (pos & Y_MASK) - POS_OFFSET
        card = self.card
        turned = (  # ROTATIONS, written out (a miss happens a few thousand times per process)
            _new_tuple(Place, (card, x, y, 0, PLACE_VERB)),
            _new_tuple(Place, (card, x, y, 90, PLACE_VERB)),
            _new_tuple(Place, (card, x, y, 180, PLACE_VERB)),
            _new_tuple(Place, (card, x, y, 270, PLACE_VERB)),
        )
        if len(self) < _MAX_PLACE_POSITIONS:
            self[pos] = turned
        return turned


_PLACES_AT: Final[dict[str, _PlacesAt]] = {cid: _PlacesAt(cid) for cid in _FENCE_IDS}
"""Per fence card: its ``_PlacesAt`` table (positions made on first use)."""
_SELECTORS: Final = tuple(tuple(bool(mask >> i & 1) for i in range(len(ROTATIONS))) for mask in range(16))
"""Per set of rotations (bit ``rot // 90``): which of ``ROTATIONS`` it holds, for ``itertools.compress``."""
_FIT_SELECTORS: Final[dict[Faces, dict[str, tuple[tuple[bool, ...], ...]]]] = {faces: {} for faces in FACES.values()}
"""Per face set and fence card: ``fit_selectors`` (made on first use)."""


def fit_selectors(faces: Faces, card_id: str) -> tuple[tuple[bool, ...], ...]:
    """``faces.fit_table(card_id)`` as ``compress`` selectors over ``ROTATIONS``: entry ``kind`` selects
    the rotations of ``fit_table(card_id)[kind]`` (which are in ``ROTATIONS`` order, so the order is kept)."""
    by_card = _FIT_SELECTORS.setdefault(faces, {})
    selectors = by_card.get(card_id)
    if selectors is None:
        selectors = by_card[card_id] = tuple(
            _SELECTORS[sum(1 << ROTATIONS.index(rot) for rot in rots)] for rots in faces.fit_table(card_id)
        )
    return selectors


_ANIMAL_NEEDS: Final[dict[str, tuple[str, int]]] = {c.id: (c.kind, c.count) for c in ANIMAL_CARDS}
"""Animal card id -> (kind, tokens it brings): what ``_playable`` reads for an animal card."""
_TOKENS_BROUGHT: Final[dict[str, int]] = {c.id: c.count for c in ANIMAL_CARDS}
"""Animal card id -> tokens it brings (a taken fence card is one decision: ``pending_left`` 1)."""
_WOLVES: Final = {c.id: c for c in WOLF_CARDS}
"""The wolf cards by id (``_refill`` resolves them)."""


def _sorted_deck(players: int) -> tuple[str, ...]:
    """The deck before its shuffle (Setup): fence, wolf, animal and the unused farm cards, sorted."""
    deck = [
        cid
        for cid, card in ALL_CARDS.items()
        if cid not in STARTING_CARD_IDS and not (isinstance(card, FenceCard) and card.farm)
    ]
    deck += [c.id for c in FARM_CARDS[players:]]
    deck.sort()
    return tuple(deck)


_SORTED_DECKS: Final = {players: _sorted_deck(players) for players in range(1, len(FARM_CARDS) + 1)}
"""``_sorted_deck`` per player count, made once (``_new`` copies and shuffles it)."""
_RULES: Final[dict[tuple[str, ...], ScoringRules]] = {}
"""``ScoringRules.from_variants`` per variants tuple (frozen, so shared by the games)."""


# --- the game -----------------------------------------------------------------------------


class FarminiGame(Game["FarminiState"]):
    """Farmini: draft fence and animal cards, build pens, keep your animals from the wolves."""

    id: ClassVar[str] = "farmini"
    title: ClassVar[str] = "Farmini"
    summary: ClassVar[str] = (
        "Take face-up cards to grow a farm of fence cards, fill enclosed pens with animals and corn, "
        "and keep your animals safe from the wolves."
    )
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    variants: ClassVar[dict[str, str]] = dict(VARIANTS)

    def check_players_and_variants(self, players: int, variants: tuple[str, ...]) -> None:
        """The solo wolf reading only makes sense with one player."""
        if SOLO_CLEARS_ALL in variants and players != SOLO_PLAYERS:
            raise ValueError(
                f"variant '{SOLO_CLEARS_ALL}' changes the solo wolf rule: it needs players=1, not {players}"
            )

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> FarminiState:
        """Setup (rulebook, Setup)."""
        if options:
            raise ValueError(f"Farmini takes no options; got {', '.join(sorted(options))}")
        state = FarminiState(players, variants, Rng(seed))
        # Each player chooses a farm card and places it in front of them (all are identical).
        for p in range(players):
            state.farms[p].put_card(FARM_CARDS[p].id, FARM_ORIGIN, 0)
        # The four starting cards face up in the middle of the table.
        state.table = list(STARTING_CARD_IDS)
        # Shuffle fence, wolf, animal and the remaining farm cards together: the deck.
        deck = list(_SORTED_DECKS[players])
        state.rng.shuffle(deck)
        state.deck = deck
        return state

    def _from_dict(self, data: dict[str, Any]) -> FarminiState:
        """Rebuild a saved state, refusing anything inconsistent (ValueError saying what)."""
        return FarminiState.from_dict(data)

    scoring_helper_format: ClassVar[str | None] = HELPER_FORMAT

    def score_text(self, text: str) -> Result:
        """Score farms typed as text (see ``scoring_helper_format``); BadInput names the bad line."""
        return score_text(text)


GAME: Final = FarminiGame()


# --- the state ----------------------------------------------------------------------------


class FarminiState(State[Action]):
    """A Farmini game in progress. All fields are public game information except ``deck`` order."""

    game: ClassVar[Game[Any]] = GAME

    __slots__ = (
        "_legal",
        "current",
        "deck",
        "discard",
        "epoch",
        "events",
        "faces",
        "farms",
        "farmyard",
        "pending",
        "pending_left",
        "players",
        "rng",
        "rules",
        "table",
        "turn",
        "variants",
    )

    def __init__(self, players: int, variants: tuple[str, ...], rng: Rng) -> None:
        self.players = players
        self.variants = variants
        rules = _RULES.get(variants)
        if rules is None:
            rules = _RULES[variants] = ScoringRules.from_variants(variants)
        self.rules = rules
        self.faces: Faces = faces_for(variants)
        self.rng = rng
        self.epoch = 0
        self.farms = [Farm(gaps_enclose=self.rules.gaps_enclose, faces=self.faces) for _ in range(players)]
        self.farmyard = dict.fromkeys(KINDS, TOKENS_PER_KIND)
        self.table: list[str] = []
        self.deck: list[str] = []  # the top card is the last one
        self.discard: list[str] = []
        self.current = 0
        self.pending: str | None = None
        self.pending_left = 0
        self.turn = 0
        self.events: list[str] = []
        self._legal: list[Action] | None = None

    # --- contract: who acts, what may they do -----------------------------------------------

    def is_over(self) -> bool:
        """End of the Game: no more cards in the deck or on the table."""
        return not self.table and not self.deck and self.pending is None

    def actors(self) -> list[int]:
        """The player whose turn it is (Farmini has no simultaneous steps)."""
        # not self.is_over(), inline: asked before every decision
        return [self.current] if self.table or self.deck or self.pending is not None else []

    remembers_legal: ClassVar[bool] = True
    """``legal_actions`` remembers its list for ``apply`` itself (``State.remembers_legal``): the list it
    hands the memo is ``_legal``, kept to the state and never changed (it is replaced, not edited)."""

    def legal_actions(self, player: int) -> list[Action]:
        """Every legal decision of ``player`` now, in a fixed order (a fresh list; computed once per position)."""
        if player != self.current or not (self.table or self.deck or self.pending is not None):
            _core_game._memo = (self, player, ())
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        _core_game._memo = (self, player, legal)
        return legal[:]

    def _legal_now(self) -> list[Action]:
        """The current player's legal actions, cached until the next action (do not mutate)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[Action]:
        farm = self.farms[self.current]
        if self.pending is None:
            playable: list[Action] = []
            free = -1
            fits = farm._fits_card  # can_place's answers for this layout, read without the call
            for i, cid in enumerate(self.table):  # _playable, inline
                need = _ANIMAL_NEEDS.get(cid)
                if need is None:
                    fit = fits.get(cid)  # a fence card asked about on this layout before
                    if fit is None:
                        fit = cid in _FENCE_IDS and farm.can_place(cid)
                    if fit:
                        playable.append(_TAKES[i])
                elif self.farmyard[need[0]] >= need[1]:
                    if free < 0:
                        free = farm.free_count()
                    if free >= need[1]:
                        playable.append(_TAKES[i])
            if playable:
                return playable
            # Note: when no face-up card can be played you must take one and discard it.
            return list(_DISCARDS[: len(self.table)])
        card = ALL_CARDS[self.pending]
        if isinstance(card, FenceCard):
            # Farm.placements(cid) as actions: each slot code read from the card's table of ready
            # placements (``_PlaceActions``), the whole list joined in C.
            cid = card.id
            selectors = _FIT_SELECTORS[self.faces].get(cid) or fit_selectors(self.faces, cid)
            codes = sorted(farm._open.values())
            # Farm.placements(cid) as actions, read in C: per slot code (sorted by position), the
            # card's placements at that position (``_PlacesAt``) in the rotations fitting its kind.
            return list(
                _chain(
                    map(
                        compress,
                        map(_PLACES_AT[cid].__getitem__, map(_rshift, codes, _KIND_SHIFTS)),
                        map(selectors.__getitem__, map(_and, codes, _KIND_MASKS)),
                    )
                )
            )
        if isinstance(card, AnimalCard):  # one per free animal cell (``farm.free_cells()``), read in C
            return list(
                map(_PUT_ANIMALS[card.kind].__getitem__, filterfalse(farm.animals.__contains__, farm.animal_cells()))
            )
        return []  # pragma: no cover - a wolf is never taken

    def _playable(self, farm: Farm, card_id: str) -> bool:
        """Whether a face-up card can be played on ``farm`` now (``_compute_legal`` inlines it)."""
        card = ALL_CARDS[card_id]
        if isinstance(card, FenceCard):
            # Fence Cards: attach it so that every touching side matches.
            return farm.can_place(card_id)
        if isinstance(card, AnimalCard):
            # Animal Cards: that many tokens in the farmyard and that many free animal cells.
            return self.farmyard[card.kind] >= card.count and len(farm.free_cells()) >= card.count
        return False

    # --- reading and checking moves --------------------------------------------------------

    def parse_action(self, player: int, text: str) -> Action:
        """Read ``take N``, ``discard N``, ``place ID at X,Y [rot R]``, ``animal KIND at X,Y/Q``."""
        if not isinstance(text, str):
            raise IllegalAction(f"a move is text; {NOTATION_HELP}")
        norm = normalize(text)
        if not norm:
            raise IllegalAction(f"empty move: {NOTATION_HELP}")
        m = _TAKE_RE.match(norm)
        if m:
            slot = int(m.group(2))
            return Take(slot) if m.group(1) == "take" else Discard(slot)
        m = _PLACE_RE.match(norm)
        if m:
            card_id = m.group(1).upper()
            card = ALL_CARDS.get(card_id)
            if not isinstance(card, FenceCard):
                raise IllegalAction(f"'{card_id}' is not a fence card; only fence cards are placed")
            rot = int(m.group(4) or 0)
            if rot not in ROTATIONS:
                raise IllegalAction(f"rot must be 0, 90, 180 or 270 (degrees clockwise), not {rot}")
            x, y = int(m.group(2)), int(m.group(3))
            return Place(card_id, x, y, self.faces.canonical_rotation(card_id, rot))
        m = _ANIMAL_RE.match(norm)
        if m:
            kind = m.group(1)
            if kind not in KINDS:
                raise IllegalAction(f"'{kind}' is not an animal of Farmini: pig, goat or chicken")
            return PutAnimal(kind, int(m.group(2)), int(m.group(3)), QUARTER_INDEX[m.group(4).upper()])
        raise IllegalAction(f"cannot read '{shorten(text)}': {NOTATION_HELP}")

    def check_action(self, player: int, action: Action) -> None:
        """Accept exactly the legal actions; otherwise name the rule the action breaks."""
        legal = self._legal_now() if player == self.current and not self.is_over() else []
        if action in legal and type(action) in _ACTION_TYPES and action.verb == _VERBS[type(action)]:
            return
        raise IllegalAction(self._why_illegal(player, action))

    def _why_illegal(self, player: int, action: object) -> str:
        farm = self.farms[player]
        if isinstance(action, (Take, Discard)):
            verb = "take" if isinstance(action, Take) else "discard"
            if self.pending is not None:
                return f"you have already taken {self.pending} this turn: play it first"
            if not 1 <= action.slot <= len(self.table):
                return f"there are {len(self.table)} face-up cards: choose a slot from 1 to {len(self.table)}"
            cid = self.table[action.slot - 1]
            legal = self.legal_actions(player)
            if isinstance(action, Take):
                if legal and isinstance(legal[0], Discard):
                    advice = f"no face-up card can be played, so discard one (discard 1 .. discard {len(legal)})"
                else:
                    advice = "you can play: " + ", ".join(str(a) for a in legal)
                return f"you cannot play {cid} ({self._why_unplayable(farm, cid)}); {advice}"
            playable = ", ".join(str(a) for a in legal)
            return f"you may {verb} a card only when none can be played; you can play: {playable}"
        if isinstance(action, Place):
            return self._why_not_place(farm, action)
        if isinstance(action, PutAnimal):
            return self._why_not_animal(farm, action)
        return f"'{shorten(str(action))}' is not a Farmini move; {NOTATION_HELP}"

    def _why_unplayable(self, farm: Farm, card_id: str) -> str:
        card = ALL_CARDS[card_id]
        if isinstance(card, FenceCard):
            return f"fence card {card_id} fits nowhere on your farm: every touching side must match"
        if isinstance(card, AnimalCard):
            free = len(farm.free_cells())
            if self.farmyard[card.kind] < card.count:
                return f"it brings {card.count} {card.kind}(s) but the farmyard has {self.farmyard[card.kind]}"
            return f"it brings {card.count} {card.kind}(s) but your farm has {free} free animal cell(s)"
        return f"{card_id} is not a playable card"  # pragma: no cover

    def _why_not_place(self, farm: Farm, action: Place) -> str:
        if self.pending is None:
            return f"take a card first (take 1 .. take {len(self.table)}); then place it"
        if action.card != self.pending:
            return f"you took {self.pending}, not {action.card}: place {self.pending}"
        if not isinstance(ALL_CARDS[action.card], FenceCard):
            return f"you took animal card {action.card}: put its animals on free animal cells"
        if action.rot not in self.faces.distinct_rotations[action.card]:
            return f"{action.card} looks the same turned {action.rot}; write it with its smallest rotation"
        reason = farm.misfit(self.faces.oriented[action.card, action.rot], (action.x, action.y))
        return reason or f"{action} is not a legal placement now"

    def _why_not_animal(self, farm: Farm, action: PutAnimal) -> str:
        if self.pending is None:
            return f"take an animal card first (take 1 .. take {len(self.table)})"
        card = ALL_CARDS[self.pending]
        if not isinstance(card, AnimalCard):
            return f"you took fence card {self.pending}: place it on your farm"
        if action.kind != card.kind:
            return f"{self.pending} brings {card.kind}s, not {action.kind}s"
        if action.quarter not in range(len(QUARTERS)):
            return "a quarter is NE, SE, SW or NW"
        cell: Cell = (action.x, action.y, action.quarter)
        content = farm.content(cell)
        if content is None:
            return f"there is no card of your farm at {action.x},{action.y}"
        if content != ANIMAL_CELL:
            return f"{cell_name(cell)} is not an animal cell: animals go only on animal cells"
        if cell in farm.animals:
            return f"{cell_name(cell)} already holds a {farm.animals[cell]}: only one animal fits in a cell"
        return f"{action} is not a legal move now"  # pragma: no cover

    # --- carrying out moves -----------------------------------------------------------------

    def _do(self, player: int, action: Action) -> None:
        """Carry out a legal decision (rulebook, Gameplay)."""
        self._legal = None
        # Actions reach _do checked, so of these exact types (most frequent first).
        if type(action) is Take:
            self.events = []
            cid = self.table.pop(action.slot - 1)
            self.pending = cid
            self.pending_left = _TOKENS_BROUGHT.get(cid, 1)
        elif type(action) is Place:
            self.farms[player].put_card(action.card, (action.x, action.y), action.rot)
            self.pending = None
            self.pending_left = 0
            self._end_turn()
        elif type(action) is Discard:
            self.events = []
            cid = self.table.pop(action.slot - 1)
            self.discard.append(cid)
            self.events.append(f"player {player} could play no card and discarded {cid}")
            self._end_turn()
        else:
            # Animal Cards: take the token from the farmyard and place it on a free animal cell.
            animal: PutAnimal = action  # type: ignore[assignment]  # the one type left
            self.farmyard[animal.kind] -= 1
            farm = self.farms[player]
            farm.animals[animal.x, animal.y, animal.quarter] = animal.kind
            farm.version = next_version()  # the farm changed (``Farm.version``)
            self.pending_left -= 1
            if self.pending_left == 0:
                done_card, self.pending = self.pending, None
                if done_card is not None:
                    self.discard.append(done_card)  # after placing, discard the animal card
                self._end_turn()

    def _end_turn(self) -> None:
        """Reveal cards until four lie face up, resolving wolves; then the next player's turn."""
        self.turn += 1
        self._refill()
        self.current = (self.current + 1) % self.players

    def _refill(self) -> None:
        """Reveal the top card so that four are face up; a wolf is resolved, discarded and replaced."""
        table, deck = self.table, self.deck
        while len(table) < FACE_UP_CARDS and deck:
            cid = deck.pop()
            self.epoch += 1  # a card turned face up: information revealed
            wolf = _WOLVES.get(cid)
            if wolf is not None:
                self._resolve_wolf(wolf)
                self.discard.append(cid)
            else:
                table.append(cid)

    def _resolve_wolf(self, wolf: WolfCard) -> None:
        """Wolf Cards: every player returns the tokens of its kind outside enclosed pens.

        Special Rule for Solo Play: first the face-up animal cards are discarded (those of the
        wolf's kind; with ``solo-wolf-clears-all`` every face-up animal card).
        """
        if self.players == SOLO_PLAYERS:
            clears_all = SOLO_CLEARS_ALL in self.variants
            gone = [
                cid
                for cid in self.table
                if isinstance(c := ALL_CARDS[cid], AnimalCard) and (clears_all or c.kind == wolf.kind)
            ]
            for cid in gone:
                self.table.remove(cid)
                self.discard.append(cid)
            if gone:
                self.events.append(f"wolf {wolf.id} discards face-up animal card(s) {', '.join(gone)}")
        for p, farm in enumerate(self.farms):
            prey = [c for c, k in farm.animals.items() if k == wolf.kind]
            safe = farm.penned(prey)
            lost = [c for c in prey if c not in safe]
            if lost:
                for cell in lost:
                    del farm.animals[cell]
                farm.version = next_version()  # the farm changed (``Farm.version``)
            self.farmyard[wolf.kind] += len(lost)
            self.events.append(f"wolf {wolf.id} scatters {len(lost)} {wolf.kind}(s) of player {p}")

    # --- scores -------------------------------------------------------------------------------

    def result(self) -> Result:
        """The score sheet of every farm (final once the game is over)."""
        return score_farms(self.farms, self.rules, {"turns": self.turn, "over": self.is_over()})

    def heuristic(self, player: int) -> float:
        """How good the position looks for ``player`` (greedy agent, search cut-offs); see ``evaluation.py``."""
        from farmtable.games.farmini.evaluation import heuristic

        return heuristic(self, player)

    def evaluate(self) -> list[float]:
        """Each player's expected final objective from here (search leaves); see ``evaluation.py``."""
        from farmtable.games.farmini.evaluation import evaluate

        return evaluate(self)

    def render_text(self, player: int | None = None) -> str:
        """The table and every farm drawn as plain text (see ``render.py``)."""
        return render_text(self, player)

    # --- information ----------------------------------------------------------------------

    def info_epoch(self) -> int:
        """Number of cards revealed so far (each reveal is new information)."""
        return self.epoch

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything on the table; the deck shows only its size (its order is hidden)."""
        result = self.result()
        return {
            "game": "farmini",
            "players": self.players,
            "variants": list(self.variants),
            "turn": self.turn,
            "current": self.current,
            "actors": self.actors(),
            "over": self.is_over(),
            "table": [_card_view(i + 1, cid, self.faces) for i, cid in enumerate(self.table)],
            "deck_size": len(self.deck),
            "discard": list(self.discard),
            "farmyard": dict(self.farmyard),
            "pending": None if self.pending is None else {"card": self.pending, "left": self.pending_left},
            "farms": [_farm_view(farm) for farm in self.farms],
            "events": list(self.events),
            "scores": result.totals,
            "score_sheets": result.breakdown,
        }

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> FarminiState:
        """A copy with the deck re-shuffled (its order is all that is hidden) and a fresh RNG."""
        source = as_rng(rng)
        other = self.clone()
        deck = sorted(other.deck)
        source.shuffle(deck)
        other.deck = deck
        other.rng = source.fork()
        return other

    def clone(self) -> FarminiState:
        """A fast independent copy (no deepcopy)."""
        other = FarminiState.__new__(FarminiState)
        other.players = self.players
        other.variants = self.variants
        other.rules = self.rules
        other.faces = self.faces
        other.rng = self.rng.copy()
        other.epoch = self.epoch
        other.farms = [farm.copy() for farm in self.farms]
        other.farmyard = dict(self.farmyard)
        other.table = list(self.table)
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.current = self.current
        other.pending = self.pending
        other.pending_left = self.pending_left
        other.turn = self.turn
        other.events = list(self.events)
        other._legal = None
        return other

    # --- saving and loading -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The complete state, deck order and RNG included."""
        return {
            "players": self.players,
            "variants": list(self.variants),
            "rng": self.rng.state,
            "epoch": self.epoch,
            "turn": self.turn,
            "current": self.current,
            "table": list(self.table),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "pending": self.pending,
            "pending_left": self.pending_left,
            "farmyard": dict(self.farmyard),
            "farms": [_farm_dict(farm) for farm in self.farms],
            "events": list(self.events),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FarminiState:
        """Read ``to_dict`` output back, validating every field (ValueError on anything wrong)."""
        players = _int(data["players"], "players", 1, FarminiGame.max_players)
        variants = data["variants"]
        if not isinstance(variants, list) or any(v not in VARIANTS for v in variants):
            raise ValueError(f"unknown variants {variants!r}")
        if variants != sorted(set(variants)):
            raise ValueError("variants must be sorted and distinct")
        GAME.check_players_and_variants(players, tuple(variants))
        rng_state = _int(data["rng"], "rng", 0, MAX_RNG_STATE)
        state = cls(players, tuple(variants), Rng(rng_state))
        state.epoch = _int(data["epoch"], "epoch", 0, len(ALL_CARDS))
        state.turn = _int(data["turn"], "turn", 0, len(ALL_CARDS))
        state.current = _int(data["current"], "current", 0, players - 1)
        state.table = _card_list(data["table"], "table")
        if len(state.table) > FACE_UP_CARDS:
            raise ValueError(f"{len(state.table)} face-up cards; there are at most {FACE_UP_CARDS}")
        state.deck = _card_list(data["deck"], "deck")
        state.discard = _card_list(data["discard"], "discard")
        pending = data["pending"]
        if pending is not None and (not isinstance(pending, str) or pending not in ALL_CARDS):
            raise ValueError(f"pending card {pending!r} is not a Farmini card")
        state.pending = pending
        state.pending_left = _int(data["pending_left"], "pending_left", 0, MAX_ANIMALS_ON_A_CARD)
        farmyard = data["farmyard"]
        if not isinstance(farmyard, dict) or sorted(farmyard) != sorted(KINDS):
            raise ValueError("the farmyard must count pigs, goats and chickens")
        state.farmyard = {k: _int(farmyard[k], f"farmyard {k}", 0, TOKENS_PER_KIND) for k in KINDS}
        farms = data["farms"]
        if not isinstance(farms, list) or len(farms) != players:
            raise ValueError(f"there must be one farm per player ({players})")
        state.farms = [_farm_from_dict(f, p, state.rules.gaps_enclose, state.faces) for p, f in enumerate(farms)]
        events = data["events"]
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise ValueError("events must be a list of strings")
        state.events = list(events)
        state._validate()
        return state

    def _validate(self) -> None:
        """Cross-checks of a loaded state: every card once, tokens conserved, a sane pending card."""
        placed = [o.card_id for farm in self.farms for o in farm.cards.values()]
        everywhere = placed + self.table + self.deck + self.discard
        if self.pending is not None:
            everywhere.append(self.pending)
        if sorted(everywhere) != sorted(ALL_CARDS):
            raise ValueError("the cards in farms, table, deck, discard and hand are not the 54 Farmini cards")
        for p, farm in enumerate(self.farms):
            origin = farm.cards.get(FARM_ORIGIN)
            if origin is None or not getattr(ALL_CARDS[origin.card_id], "farm", False):
                raise ValueError(f"player {p}'s farm card is not at 0,0")
        for kind in KINDS:
            total = self.farmyard[kind] + sum(farm.count(kind) for farm in self.farms)
            if total != TOKENS_PER_KIND:
                raise ValueError(f"{total} {kind} tokens in the game; there are {TOKENS_PER_KIND}")
        if self.pending is None:
            if self.pending_left:
                raise ValueError("animals left to place but no card taken")
        else:
            card = ALL_CARDS[self.pending]
            if isinstance(card, WolfCard):
                raise ValueError("a wolf card cannot be in hand")
            if isinstance(card, AnimalCard) and not 1 <= self.pending_left <= card.count:
                raise ValueError(f"{self.pending_left} animals left to place from {card.id}")
            if isinstance(card, FenceCard) and self.pending_left != 1:
                raise ValueError("a taken fence card must be waiting to be placed")
        if self.deck and len(self.table) + (self.pending is not None) != FACE_UP_CARDS:
            raise ValueError("cards are left in the deck but the table was not refilled")
        for cid in self.table:
            if isinstance(ALL_CARDS[cid], WolfCard):
                raise ValueError(f"wolf {cid} lies face up; wolves are resolved at once")


# --- view and save helpers --------------------------------------------------------------------


def _card_view(slot: int, card_id: str, faces: Faces) -> dict[str, Any]:
    card = faces.cards.get(card_id) or ALL_CARDS[card_id]
    entry: dict[str, Any] = {"slot": slot, "card": card_id, "text": card_text(card_id, faces)}
    if isinstance(card, FenceCard):
        entry.update(type="fence", arms=sorted(card.arms), quarters=card.quarters)
    elif isinstance(card, AnimalCard):
        entry.update(type="animal", kind=card.kind, count=card.count)
    return entry


def _farm_dict(farm: Farm) -> dict[str, Any]:
    return {
        "cards": [[x, y, o.card_id, o.rot] for (x, y), o in sorted(farm.cards.items())],
        "animals": [[x, y, QUARTERS[q], k] for (x, y, q), k in sorted(farm.animals.items())],
    }


def _farm_view(farm: Farm) -> dict[str, Any]:
    data = _farm_dict(farm)
    data["pens"] = [[list(c) for c in pen.cells] for pen in farm.pens()]
    return data


def _int(value: Any, name: str, low: int, high: int) -> int:
    return whole_number(value, name, low, high)


def _card_list(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in ALL_CARDS for c in value):
        raise ValueError(f"{name} must be a list of Farmini card ids")
    return list(value)


def _farm_from_dict(data: Any, player: int, gaps_enclose: bool, faces: Faces) -> Farm:
    """Rebuild a farm: cards on distinct positions, matching sides, animals on free animal cells."""
    if not isinstance(data, dict):
        raise ValueError(f"farm {player} is not an object")
    farm = Farm(gaps_enclose=gaps_enclose, faces=faces)
    for entry in data["cards"]:
        if not isinstance(entry, list) or len(entry) != len(("x", "y", "card", "rot")):
            raise ValueError(f"farm {player}: a card entry must be [x, y, card, rot]")
        x = _int(entry[0], "x", -MAX_COORD, MAX_COORD)
        y = _int(entry[1], "y", -MAX_COORD, MAX_COORD)
        cid, rot = entry[2], entry[3]
        if not isinstance(ALL_CARDS.get(cid), FenceCard) or rot not in ROTATIONS:
            raise ValueError(f"farm {player}: {cid!r} rot {rot!r} is not a fence card in a rotation")
        if (x, y) in farm.cards:
            raise ValueError(f"farm {player}: two cards at {x},{y}")
        farm.put_card(cid, (x, y), rot)
    for (x, y), o in list(farm.cards.items()):
        del farm.cards[x, y]
        problem = farm.misfit(o, (x, y)) if farm.cards else None
        farm.cards[x, y] = o
        if problem:
            raise ValueError(f"farm {player}: {problem}")
    if not farm.is_connected():
        raise ValueError(f"farm {player}: its cards do not form one connected farm")
    for entry in data["animals"]:
        if not isinstance(entry, list) or len(entry) != len(("x", "y", "quarter", "kind")):
            raise ValueError(f"farm {player}: an animal entry must be [x, y, quarter, kind]")
        x, y, qname, kind = entry
        if qname not in QUARTER_INDEX or kind not in KINDS:
            raise ValueError(f"farm {player}: bad animal {entry!r}")
        cell = (_int(x, "x", -MAX_COORD, MAX_COORD), _int(y, "y", -MAX_COORD, MAX_COORD), QUARTER_INDEX[qname])
        if farm.content(cell) != ANIMAL_CELL or cell in farm.animals:
            raise ValueError(f"farm {player}: {cell_name(cell)} is not a free animal cell")
        farm.animals[cell] = kind
    farm._changed()
    return farm
