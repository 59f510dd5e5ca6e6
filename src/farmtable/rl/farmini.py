"""Farmini for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/farmini.md``; data: ``games/farmini/components.py`` and the card geometry in
``games/farmini/farm.py``.

Two choices make the catalogue fixed and finite:

- **The card and the animal kind are implied.** ``place C7 at 1,-1 rot 90`` can only place the card
  just taken, and ``animal pig at 0,1/SE`` only a token of the animal card just taken. So the
  catalogue entries are ``place at X,Y rot R`` and ``animal at X,Y/Q`` ("the card / token you hold"),
  and index ``i`` still always means the same move.
- **The farm is seen through a window** of ``|x|, |y| <= REACH`` around the farm card. A farm may in
  principle stretch further (a line of pasture-sided cards), but random play never got past 9 in
  210 games of 1–4 players; a legal move outside the window raises ``KeyError`` naming it (the
  coverage test would show it).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from farmtable.core import Result, State
from farmtable.games.farmini import components as c
from farmtable.games.farmini.farm import NO_ARMS, QUARTER_INDEX, Arms, Cell, Oriented, Pos, faces_for
from farmtable.games.farmini.rules import Place, PutAnimal
from farmtable.games.farmini.scoring import ScoringRules
from farmtable.rl import fast as f
from farmtable.rl.catalogue import FastEncode, RLGame, Spec
from farmtable.rl.encoding import BySeat, Counts, Ctx, Custom, Fields, Flag, Items, Num, SeatSet

REACH = 12
"""The window of farm positions: ``-REACH <= x, y <= REACH`` around the farm card at 0,0."""
SIDE = 2 * REACH + 1
POSITIONS = tuple((x, y) for y in range(REACH, -REACH - 1, -1) for x in range(-REACH, REACH + 1))
"""Window positions, north row first, west to east."""
ROTATIONS = (0, 90, 180, 270)
CARD_IDS = tuple(sorted(c.ALL_CARDS))
N_QUARTERS = len(c.QUARTERS)
CELL_WIDTH = 1 + len(c.SIDES) + N_QUARTERS * len(c.QUARTER_CONTENTS) + N_QUARTERS * len(c.KINDS) + N_QUARTERS
"""Per position: card present, fence per arm (N E S W), quarter contents (G C A) per quarter,
animal kind per quarter, quarter in a pen."""

_PLACE = re.compile(r"^place \S+ at (-?\d+),(-?\d+) rot (\d+)$")
_ANIMAL = re.compile(r"^animal \S+ at (-?\d+),(-?\d+)/([A-Z]+)$")


def key(notation: str) -> str:
    """The catalogue entry of a notation: the card id / animal kind left out (the state implies them)."""
    m = _PLACE.match(notation)
    if m:
        return f"place at {m.group(1)},{m.group(2)} rot {m.group(3)}"
    m = _ANIMAL.match(notation)
    if m:
        return f"animal at {m.group(1)},{m.group(2)}/{m.group(3)}"
    return notation


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Take / discard a slot; place the held card at a window position and rotation; put a held token."""
    out = [f"take {slot}" for slot in range(1, c.FACE_UP_CARDS + 1)]
    out += [f"discard {slot}" for slot in range(1, c.FACE_UP_CARDS + 1)]
    out += [f"place at {x},{y} rot {r}" for x, y in POSITIONS for r in ROTATIONS]
    out += [f"animal at {x},{y}/{q}" for x, y in POSITIONS for q in c.QUARTERS]
    return out


def _cell(x: int, y: int) -> int:
    if abs(x) > REACH or abs(y) > REACH:
        raise KeyError(f"farm position {x},{y} is outside the RL window (|x|, |y| <= {REACH})")
    return ((REACH - y) * SIDE + (x + REACH)) * CELL_WIDTH


_QUARTERS_AT = 1 + len(c.SIDES)
_ANIMALS_AT = _QUARTERS_AT + N_QUARTERS * len(c.QUARTER_CONTENTS)
_PENS_AT = _ANIMALS_AT + N_QUARTERS * len(c.KINDS)


@cache
def _card_ones(variants: tuple[str, ...]) -> dict[tuple[str, int], tuple[int, ...]]:
    """Per (card id, rotation) of the faces these variants play: the offsets of its ones in a position's
    block (card present, its fenced arms, its quarter contents)."""
    out = {}
    for key, card in faces_for(variants).oriented.items():
        ones = [0]
        ones += [1 + side for side, fence in enumerate(card.arms) if fence]
        ones += [
            _QUARTERS_AT + q * len(c.QUARTER_CONTENTS) + c.QUARTER_CONTENTS.index(content)
            for q, content in enumerate(card.quarters)
        ]
        out[key] = tuple(ones)
    return out


def _farm_ones(value: Any, variants: tuple[str, ...]) -> list[int]:
    """The indices of the ones of a farm's block (every other entry is 0)."""
    card_ones = _card_ones(variants)
    ones = []
    for x, y, card_id, rot in value["cards"]:
        base = _cell(x, y)
        ones += [base + k for k in card_ones[(card_id, rot)]]
    for x, y, quarter, kind in value["animals"]:
        ones.append(_cell(x, y) + _ANIMALS_AT + QUARTER_INDEX[quarter] * len(c.KINDS) + c.KINDS.index(kind))
    for pen in value["pens"]:
        ones += [_cell(x, y) + _PENS_AT + q for x, y, q in pen]
    return ones


def _farm(value: Any, ctx: Ctx) -> np.ndarray:
    out = np.zeros(SIDE * SIDE * CELL_WIDTH, dtype=np.float32)
    out[_farm_ones(value, ctx.variants)] = 1.0  # the faces this game plays (variant cards-v1 or the default)
    return out


def _card(value: Any, ctx: Ctx) -> list[float]:
    out = [0.0] * len(CARD_IDS)
    out[CARD_IDS.index(value)] = 1.0
    return out


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: the face-up cards, discard, farmyard, the held card, and every farm in the window."""
    card = Custom(len(CARD_IDS), _card, "one-hot card id (" + " ".join(CARD_IDS) + ")", high=1)
    farm_doc = (
        f"{SIDE}×{SIDE} positions (north row first, x from −{REACH}), {CELL_WIDTH} per position: card present, "
        "fence on arm N E S W, quarter NE SE SW NW contents one-hot G C A, animal per quarter one-hot "
        + " ".join(c.KINDS)
        + ", quarter inside a pen"
    )
    return Fields(
        (
            ("turn", Num(doc="turn")),
            ("actors", SeatSet("seats to act")),
            ("over", Flag("game over")),
            ("table", Items(Fields((("card", card),)), c.FACE_UP_CARDS)),
            ("deck_size", Num(high=len(CARD_IDS), doc="cards in the deck")),
            ("discard", Counts(CARD_IDS, high=1, doc="discarded cards")),
            ("farmyard", Fields(tuple((k, Num(high=c.TOKENS_PER_KIND, doc=f"{k} tokens")) for k in c.KINDS))),
            ("pending", Fields((("card", card), ("left", Num(high=2, doc="tokens still to put"))))),
            ("farms", BySeat(Custom(SIDE * SIDE * CELL_WIDTH, _farm, farm_doc, high=1))),
            ("scores", BySeat(Num(low=-100, high=200, doc="score as it stands"))),
        )
    )


_EAST = 1 << 12
"""The step east between point numbers (:func:`closed_regions`); north is 1."""
_BIAS = 1 << 11
"""Added to x and y before numbering, so every position of a farm numbers as a positive int."""
_Y_BITS = 12
_Y_MASK = _EAST - 1


Pen = tuple[frozenset[int], list[Cell], int]
"""An enclosed pen as :func:`find_pens` keeps it: its corner points, its quarters, how many gaps it encloses."""


class Pens:
    """The enclosed pens of one layout of cards, and the bounding box of the cards (``None``: no card)."""

    __slots__ = ("arms", "box", "pens")

    def __init__(self, pens: list[Pen], box: tuple[int, int, int, int] | None, arms: dict[int, Arms]) -> None:
        self.pens = pens
        self.box = box
        self.arms = arms
        """The arms of every card by its number (a layout one card larger copies it)."""


def closed_regions(cards: Mapping[Pos, Oriented], gaps_enclose: bool) -> list[tuple[list[Cell], int]]:
    """The enclosed pens of a farm with these ``cards``: each pen's quarters and how many gaps it encloses
    (the same pens as ``Farm.pens()``, its cells as a set and ``len(pen.gaps)``); see :func:`find_pens`."""
    return [(cells, gaps) for _, cells, gaps in find_pens(cards, gaps_enclose).pens]


def find_pens(cards: Mapping[Pos, Oriented], gaps_enclose: bool, parent: Pens | None = None) -> Pens:
    """The enclosed pens of a farm with these ``cards`` (:class:`Pens`); ``parent``: those of the same cards
    without the last one (in ``cards``' order), from which only the new card's corners need a flood.

    Found the way ``Farm.penned`` floods: on the *corner points* of the card grid, not on quarters. The
    four quarters around a point always connect (no fence runs along a card side), so a region is a set
    of points; point ``p`` (the number of the card whose NE corner it is) joins its north neighbour
    through the card to its NW when that card's east arm is open, or through the card to its NE when its
    west arm is open (likewise east, south and west). A point with a missing card around it is open
    field, except that with ``gaps_enclose`` (the gap reading, DA-FM7) a missing card inside the farm's
    bounding box is a gap: a card without fences, which the region passes and counts. Quarter ``q`` of
    card ``c`` lies at point ``c``, ``c - 1``, ``c - E - 1``, ``c - E`` for NE, SE, SW, NW. A flood stops
    at its first opening, and every point it reached is open (the rest of that region is met later and
    stops when it reaches one of them).

    A card added to a farm changes only the moves between its own corners, and the points around it (no
    longer open field, or no longer a gap): a pen without one of its corners is unchanged (its points
    keep their four cards), so with ``parent`` the pens found are the parent's pens that miss the new
    card's corners, and the closed regions of a flood from those corners. With the gap reading that holds
    while the new card lies at most one row or column outside the parent's box (the new gaps then lie on
    the box's edge, open field); otherwise everything is flooded afresh. ``tests/rl/test_farmini_pens.py``
    checks both against ``Farm.pens()``.
    """
    if not cards:
        return Pens([], None, {})
    east = _EAST
    kept: list[Pen] = []
    starts: list[int] = []
    box = None
    if parent is not None and parent.box is not None and len(parent.arms) == len(cards) - 1:
        (x, y), card = next(reversed(cards.items()))  # type: ignore[call-overload]  # a dict's items reverse
        x0, x1, y0, y1 = parent.box
        k = (x + _BIAS) * east + y + _BIAS
        if k not in parent.arms and (not gaps_enclose or (x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1)):
            box = (min(x0, x), max(x1, x), min(y0, y), max(y1, y))
            arms_at = parent.arms.copy()
            arms_at[k] = card.arms
            starts = [k, k - 1, k - east - 1, k - east]
            kept = [pen for pen in parent.pens if pen[0].isdisjoint(starts)]
    if box is None:
        arms_at = {(x + _BIAS) * east + y + _BIAS: card.arms for (x, y), card in cards.items()}
        xs = [x for x, _ in cards]
        ys = [y for _, y in cards]
        box = (min(xs), max(xs), min(ys), max(ys))
        starts = [corner for k in arms_at for corner in (k, k - 1, k - east - 1, k - east)]
    x0, x1, y0, y1 = (box[0] + _BIAS, box[1] + _BIAS, box[2] + _BIAS, box[3] + _BIAS)
    get = arms_at.get
    # A point's four cards are ``p`` (SW of it), ``p + E`` (SE), ``p + 1`` (NW) and ``p + E + 1`` (NE). With the
    # gap reading every card lies in the box and a missing card inside it is a gap (no fences), so the point is
    # open exactly when one of its cards lies outside the box: ``x0 <= x < x1 and y0 <= y < y1`` of the point
    # says it is closed in, and a missing card there reads as ``NO_ARMS``. Without it, a missing card is open
    # field. Both are read inline (no call per card: the flood runs for every card laid).
    no_arms = NO_ARMS if gaps_enclose else None

    label: dict[int, bool] = {}
    """Per point flooded: False once it is known to be open."""
    # The starts that are open at once (a card around them outside the box, or missing) are labelled first: a
    # flood from another start that reaches one of them stops there, instead of walking to the farm's edge.
    # Such a start is never part of a pen, so the pens are found in the same order as without this.
    for start in starts:
        if gaps_enclose:
            if not (x0 <= start >> _Y_BITS < x1 and y0 <= start & _Y_MASK < y1):
                label[start] = False
        elif get(start) is None or get(start + east) is None or get(start + 1) is None or get(start + east + 1) is None:
            label[start] = False
    found_pens = kept
    for start in starts:
        if start in label:
            continue
        label[start] = True
        seen = [start]
        stack = [start]
        closed = True
        while stack and closed:
            p = stack.pop()
            if gaps_enclose and not (x0 <= p >> _Y_BITS < x1 and y0 <= p & _Y_MASK < y1):
                closed = False  # a card around this point lies outside the farm: open field
                break
            sw, se, nw, ne = get(p, no_arms), get(p + east, no_arms), get(p + 1, no_arms), get(p + east + 1, no_arms)
            if sw is None or se is None or nw is None or ne is None:
                closed = False  # a card around this point is missing (outside the farm): open field
                break
            # north: through the card NW of p (its east arm) or the card NE of it (its west arm), etc.
            for q in (
                p + 1 if not (nw[1] and ne[3]) else 0,
                p - 1 if not (sw[1] and se[3]) else 0,
                p + east if not (se[0] and ne[2]) else 0,
                p - east if not (sw[0] and nw[2]) else 0,
            ):
                if q:
                    known = label.get(q)
                    if known is None:
                        label[q] = True
                        seen.append(q)
                        stack.append(q)
                    elif not known:  # joins a region already found open
                        closed = False
                        break
        if not closed:  # everything flooded so far joins the opening: open too
            for q in seen:
                label[q] = False
            continue
        cells: list[Cell] = []
        gaps = set()
        for p in seen:  # quarter NE of card p, NW of p + E, SE of p + 1, SW of p + E + 1
            for k, q in ((p, 0), (p + east, 3), (p + 1, 1), (p + east + 1, 2)):
                if k in arms_at:
                    cells.append(((k >> _Y_BITS) - _BIAS, (k & _Y_MASK) - _BIAS, q))
                else:
                    gaps.add(k)
        found_pens.append((frozenset(seen), cells, len(gaps)))
    return Pens(found_pens, box, arms_at)


_LAST_LAYOUTS = 1024
"""How many farm objects an encoder remembers the last layout of (the farms of the games in play)."""


class _Layout:
    """What an encoder needs of a farm's cards, whatever its animals: the ones of the cards and of the pen
    quarters in the farm block, and per pen its corn count, its animal cells and its gaps."""

    __slots__ = ("card_ones", "cards", "found", "gaps", "ones", "pen_info", "pens", "positions")

    def __init__(
        self,
        positions: tuple[Pos, ...],
        cards: tuple[Oriented, ...],
        card_ones: np.ndarray,
        found: Pens,
        contents: Any,
        parent: _Layout | None = None,
    ) -> None:
        self.positions = positions
        """The cards' positions, in the farm's order."""
        self.cards = cards
        """The cards' objects (kept alive while their ``id`` is part of a key)."""
        self.card_ones = card_ones
        """The indices of the ones of the cards in the farm block (an ``intp`` array)."""
        self.found = found
        """The pens (:func:`find_pens`), for the layouts with one card more."""
        self.pens: list[tuple[int, tuple[Cell, ...]]] = []
        """Per enclosed pen: its cornfields and its animal cells."""
        self.pen_info: dict[int, tuple[np.ndarray, int, tuple[Cell, ...]]] = {}
        """Per pen of ``found`` (by the ``id`` of its tuple, which ``found`` keeps alive): the ones of its quarters,
        its cornfields and its animal cells. A pen the layout one card larger keeps (:func:`find_pens` passes the
        parent's pens on as they are) is read from here, not worked out again: its cards do not change."""
        known = parent.pen_info if parent is not None else {}
        blocks = [card_ones]
        gaps = 0
        for pen in found.pens:
            info = known.get(id(pen))
            if info is None:
                cells = pen[1]
                kinds = [contents[x, y].quarters[q] for x, y, q in cells]
                animal_cells = tuple(cell for cell, kind in zip(cells, kinds, strict=True) if kind == c.ANIMAL_CELL)
                ones = np.array([_cell(x, y) + _PENS_AT + q for x, y, q in cells], dtype=np.intp)
                info = (ones, kinds.count(c.CORN), animal_cells)
            self.pen_info[id(pen)] = info
            blocks.append(info[0])
            self.pens.append((info[1], info[2]))
            gaps += pen[2]
        self.ones = np.concatenate(blocks) if len(blocks) > 1 else card_ones
        """The indices of the ones of the cards and of the pen quarters in the farm block."""
        self.gaps = gaps


_NO_ONES = np.zeros(0, dtype=np.intp)


def fast_encoder(sp: Spec) -> FastEncode:
    """The observation written straight from the state: the same numbers ``view(p)`` gives the schema.

    It reads the fields ``FarminiState.view`` reads (everything but the deck order, of which only the
    size is shown). A farm's block and score change only when its owner moves, so both are kept per farm
    content (its cards and their orientation, its animals) as the indices of the block's ones and the
    score's bytes, and by the farm's ``version`` (``Farm.version``: a new number whenever a card is laid or
    its animals change, kept by copies), so a farm seen before costs one look-up, not a key built from its
    content; what depends on the cards only (their ones, the pens: :func:`find_pens`, the pens' cornfields
    and animal cells) is kept per layout, so a token put on a farm costs no flood. The score is
    ``score_sheet``'s (``scoring.py``) read off the kept pens: animals, corn in pens without
    animals, the second variant's single-kind bonus, the empty-cell penalty and the gaps. A layout one
    card larger than a kept one starts from it (its ones, its pens: :func:`find_pens`). The farms' part
    of the array is zeroed, then one numpy call per farm sets its ones (``fresh``: into ``np.zeros``).
    """
    players = sp.players
    seats = f.rotations(players)
    actors_of = f.seat_set_memo(players)
    num, floats = f.num, f.floats
    card_index = {card: i for i, card in enumerate(CARD_IDS)}
    variants = sp.variants
    rules = ScoringRules.from_variants(variants)
    gaps_enclose, second, per_cell = rules.gaps_enclose, rules.second_variant, rules.penalty_per_empty_cell
    card_ones = _card_ones(variants)
    at = {row.name: row.start for row in sp.rows()}
    size = sp.obs_size
    farm_size = SIDE * SIDE * CELL_WIDTH
    farms_at = at["farms[self]"]
    head_bytes = farms_at * f.WIDTH
    scores_bytes = at["scores[self]"] * f.WIDTH
    card_of = f.one_hots(CARD_IDS)
    no_card = card_of[None]
    card_bytes = len(no_card)
    # turn, actors, over, the face-up cards, deck size, discard, farmyard, the pending card and tokens left:
    # the head of the vector in one ``pack`` (numbers as floats, blocks as bytes)
    head_format = struct.Struct(
        f"=f{players * f.WIDTH}sf{c.FACE_UP_CARDS * card_bytes}sf{card_bytes}s{len(c.KINDS)}f{card_bytes}sf"
    )
    if head_format.size != head_bytes:
        raise RuntimeError("farmini: the observation layout changed; update fast_encoder")
    head_pack = head_format.pack
    pig, goat, chicken = c.KINDS
    table_memo = f.Memo()
    discard_memo = f.Memo()
    farm_memo: dict[Any, tuple[np.ndarray, bytes]] = {}
    by_version: dict[int, tuple[np.ndarray, bytes]] = {}
    """A farm's entry by its ``Farm.version`` (bumped by every card laid and every change of its animals, kept
    by copies): a farm seen before is not keyed by its content again."""
    layout_memo: dict[Any, _Layout] = {}
    card_at: dict[tuple[int, int, str, int], np.ndarray] = {}
    animal_at: dict[tuple[Cell, str], int] = {}
    kind_index = {kind: i for i, kind in enumerate(c.KINDS)}

    def layout_of(
        key: tuple[tuple[Pos, ...], tuple[int, ...]], values: tuple[Oriented, ...], cards: Any, parent: _Layout | None
    ) -> _Layout:
        """The layout of ``cards`` (``key``: their positions and ids, ``values``: the cards), from ``parent``, the
        layout of the same cards but the last, if it is known (else looked up by its key)."""
        if parent is None:
            parent = layout_memo.get((key[0][:-1], key[1][:-1]))  # the same cards but the last: start from it
        if parent is None:
            ones = np.concatenate([_NO_ONES, *(card_block(x, y, card) for (x, y), card in cards.items())])
        else:
            (x, y), card = key[0][-1], values[-1]
            ones = np.concatenate((parent.card_ones, card_block(x, y, card)))
        found = find_pens(cards, gaps_enclose, None if parent is None else parent.found)
        return _Layout(key[0], values, ones, found, cards, parent)

    def card_block(x: int, y: int, card: Oriented) -> np.ndarray:
        """The indices of the ones of ``card`` laid at ``x, y`` in a farm block (kept per position and face)."""
        block = card_at.get((x, y, card.card_id, card.rot))
        if block is None:
            base = _cell(x, y)
            block = card_at[x, y, card.card_id, card.rot] = np.array(
                [base + k for k in card_ones[card.card_id, card.rot]], dtype=np.intp
            )
        return block

    def farm_entry(farm: Any) -> tuple[np.ndarray, bytes]:
        """The indices of a farm's ones in its block, and its score as it stands (kept by ``farm.version``)."""
        known = by_version.get(farm.version)
        if known is None:
            if len(by_version) >= f.MEMO_SIZE:
                by_version.clear()
            known = by_version[farm.version] = content_entry(farm)
        return known

    last_layout: dict[int, tuple[Any, _Layout]] = {}
    """Per farm object (by ``id``; the farm is kept, so its id is not reused): the layout of its last new
    version. A new version with the same cards (a token put, tokens scattered by a wolf) starts from it."""

    def content_entry(farm: Any) -> tuple[np.ndarray, bytes]:
        """:func:`farm_entry` of a version not seen yet: from the farm's last layout when only its animals
        changed, else kept by the farm's content (cards and animals)."""
        cards = farm.cards
        last = last_layout.get(id(farm))
        if last is not None and last[0] is farm:
            layout = last[1]
            laid = len(layout.cards)
            count = len(cards)
            # the same cards at the same positions (the tuples compare their items by identity first): only
            # the animals changed; or one card more (cards are only ever added, at the end of ``farm.cards``):
            # the layout grows from the last one, without keying either by its content
            if count == laid:
                if tuple(cards.values()) == layout.cards and tuple(cards) == layout.positions:
                    return entry_of(layout, farm)
            elif count == laid + 1:
                values = tuple(cards.values())
                positions = tuple(cards)
                if values[:laid] == layout.cards and positions[:laid] == layout.positions:
                    layout_key = (positions, tuple(map(id, values)))
                    grown = layout_memo.get(layout_key)
                    if grown is None:
                        if len(layout_memo) >= f.MEMO_SIZE:
                            farm_memo.clear()
                            layout_memo.clear()
                        grown = layout_memo[layout_key] = layout_of(layout_key, values, cards, layout)
                    last_layout[id(farm)] = (farm, grown)
                    return entry_of(grown, farm)
        animals = farm.animals
        # the oriented cards are shared, immutable objects: their ids say which face and rotation, cheaper
        # than a hash (the layout kept for a key holds the cards, so their ids are not reused meanwhile)
        layout_key = (tuple(cards), tuple(map(id, cards.values())))
        key = (layout_key, tuple(animals.items()))
        known = farm_memo.get(key)
        if known is None:
            if len(farm_memo) >= f.MEMO_SIZE or len(layout_memo) >= f.MEMO_SIZE:
                farm_memo.clear()
                layout_memo.clear()
            made = layout_memo.get(layout_key)
            if made is None:
                made = layout_memo[layout_key] = layout_of(layout_key, tuple(cards.values()), cards, None)
            known = farm_memo[key] = entry_of(made, farm)
        kept = layout_memo.get(layout_key)
        if kept is not None:
            if len(last_layout) >= _LAST_LAYOUTS:
                last_layout.clear()
            last_layout[id(farm)] = (farm, kept)
        return known

    def entry_of(layout: _Layout, farm: Any) -> tuple[np.ndarray, bytes]:
        """A farm's entry from the layout of its cards: the ones of its cards, pens and animals, its score."""
        animals = farm.animals
        ones = layout.ones
        if animals:
            tokens = []
            for cell, kind in animals.items():
                one = animal_at.get((cell, kind))
                if one is None:
                    x, y, q = cell
                    one = animal_at[cell, kind] = _cell(x, y) + _ANIMALS_AT + q * len(c.KINDS) + kind_index[kind]
                tokens.append(one)
            ones = np.concatenate((ones, np.array(tokens, dtype=np.intp)))
        # score_sheet (scoring.py) read off the kept pens
        total = len(animals) - layout.gaps
        empty_pens = 0
        get = animals.get
        for corn, animal_cells in layout.pens:
            present = [get(cell) for cell in animal_cells]
            kinds = set(present)
            empty = None in kinds
            kinds.discard(None)
            if not kinds:
                total += corn
            elif second and len(kinds) == 1:
                total += len(present) - present.count(None)
            empty_pens += empty
        total -= farm.free_count() if per_cell else empty_pens
        return ones, num(total)

    def write(state: State[Any], player: int, out: np.ndarray, zeroed: bool | list[Any]) -> None:
        """Write ``player``'s observation into ``out``: ``zeroed`` True when its farms' part is all zeros, False
        to clear it first, or the list of the farm entries' ``ones`` last written into it (``into``): then only
        a farm whose entry changed is rewritten (its old ones cleared, its new ones set) and the list updated."""
        s: Any = state
        discard_key = tuple(s.discard)
        discard = discard_memo.get(discard_key)
        if discard is None:
            block = [0.0] * len(CARD_IDS)
            for card in discard_key:
                block[card_index[card]] += 1.0
            discard = discard_memo.add(discard_key, floats(block))
        table_key = tuple(s.table)
        table = table_memo.get(table_key)
        if table is None:
            blocks = [card_of[card] for card in table_key] + [no_card] * (c.FACE_UP_CARDS - len(table_key))
            table = table_memo.add(table_key, b"".join(blocks))
        farmyard = s.farmyard
        pending = s.pending
        head = head_pack(
            s.turn,
            actors_of(player, s.actors()),
            s.is_over(),
            table,
            len(s.deck),
            discard,
            farmyard.get(pig, 0),
            farmyard.get(goat, 0),
            farmyard.get(chicken, 0),
            no_card if pending is None else card_of[pending],
            0 if pending is None else s.pending_left,
        )
        farms = s.farms
        known = by_version.get
        entries = [known(farm.version) or farm_entry(farm) for farm in map(farms.__getitem__, seats[player])]
        bytes_view = memoryview(out).cast("B")  # type: ignore[arg-type]  # an ndarray is a buffer
        bytes_view[:head_bytes] = head
        start = farms_at
        if zeroed is True or zeroed is False:
            if not zeroed:
                out[farms_at:].fill(0.0)
            for ones, _ in entries:
                out[start : start + farm_size][ones] = 1.0
                start += farm_size
        else:  # in place: only the farms whose entry changed since this array was last written
            for slot, (ones, _) in enumerate(entries):
                old = zeroed[slot]
                if old is not ones:
                    farm_block = out[start : start + farm_size]
                    if old is not None:
                        farm_block[old] = 0.0
                    farm_block[ones] = 1.0
                    zeroed[slot] = ones
                start += farm_size
        bytes_view[scores_bytes:] = b"".join([score for _, score in entries])

    def encode(state: State[Any], player: int, out: np.ndarray) -> None:
        write(state, player, out, False)

    def fresh(state: State[Any], player: int) -> np.ndarray:
        """The observation in a new array: ``np.zeros`` (pages the system hands out zeroed) and only the
        non-zero entries written, cheaper than clearing the 160 KB the farms take."""
        out = np.zeros(size, dtype=np.float32)
        write(state, player, out, True)
        return out

    written: dict[int, tuple[np.ndarray, list[Any]]] = {}
    """Per array ``into`` writes (by ``id``; the array is kept, so its id is not reused): the array and the
    ``ones`` of the farm entry last written into each of its farm blocks."""

    def into(state: State[Any], player: int, out: np.ndarray) -> None:
        """Write the observation into ``out`` *in place*: only the head, the scores and the farms whose entry
        changed since ``out`` was last written by this function (the old ones cleared, the new ones set).

        For an array only this function writes (the AEC env's own, handed out read-only): a farm that did
        not change costs nothing, and no 166 KB array is zeroed. An array met for the first time is cleared
        and written whole.
        """
        known = written.get(id(out))
        if known is None or known[0] is not out:
            if len(written) >= 64:
                written.clear()
            out[farms_at:].fill(0.0)
            known = written[id(out)] = (out, [None] * players)
        write(state, player, out, known[1])

    def fresh_tracked(state: State[Any], player: int) -> tuple[np.ndarray, list[Any]]:
        """:func:`fresh` and its record: what :func:`rewrite` needs to rewrite the same array in place later."""
        out = np.zeros(size, dtype=np.float32)
        record: list[Any] = [None] * players
        write(state, player, out, record)
        return out, record

    def rewrite(state: State[Any], player: int, out: np.ndarray, record: list[Any]) -> None:
        """Write ``player``'s observation into ``out``, last written by :func:`fresh_tracked` or this function
        with ``record`` (and by nothing else since): only the head, the scores and the farm blocks whose entry
        changed are written (the caller keeps the array and its record together, e.g. OpenSpiel's pool)."""
        write(state, player, out, record)

    encode.fresh = fresh  # type: ignore[attr-defined]  # see ``RLGame.fast``
    encode.into = into  # type: ignore[attr-defined]  # see ``RLGame.fast``
    encode.fresh_tracked = fresh_tracked  # type: ignore[attr-defined]  # see ``RLGame.fast``
    encode.rewrite = rewrite  # type: ignore[attr-defined]  # see ``RLGame.fast``
    return encode


def fold(action: Any) -> Any:
    """A placement or a token without the card / kind it implies (``RLGame.fold``): ``Place("A2", 1, 0, 90)``
    and ``Place("C7", 1, 0, 90)`` are both ``place at 1,0 rot 90``; any other action is itself."""
    kind = type(action)
    if kind is Place or kind is PutAnimal:
        return action[1:]
    return action


def solo_score(result: Result) -> float:
    """Solo: the points scored."""
    return float(result.totals[0])


def solo_win(result: Result) -> float:
    """Solo: +1 for the top achievement ("You won the competition!"), −1 otherwise."""
    return 1.0 if result.details.get("solo_achievement") == c.SOLO_ACHIEVEMENTS[0][2] else -1.0


RL_GAME = RLGame(
    game_id="farmini",
    name="Farmini",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=False,
    max_game_length=3000,
    key=key,
    fast=fast_encoder,
    fold=fold,
    notes=f"`place at X,Y rot R` and `animal at X,Y/Q` act with the card / token just taken (the notation's card id "
    f"and kind are implied). Farms are seen and played in a window |x|, |y| ≤ {REACH} around the farm card "
    "(random play never passed 9). The deck order is hidden (not encoded); the event log is not encoded.",
    solo_doc="solo `score` = points; solo `win` = +1 for the top solo achievement (35+, 50+ in the second variant), "
    "else −1.",
)
