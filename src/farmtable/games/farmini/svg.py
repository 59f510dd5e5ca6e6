"""Farmini as an SVG picture for the browser (the ``render_svg`` hook of ``docs/web.md``).

The picture is drawn from the seat's view only (plus the printed card faces, which are public
component data): the header (turn, whose turn it is, deck and discard pile), the face-up cards,
the farmyard, the card being played (a fence card in each rotation it may take), the last wolf
events, then every farm as a grid of cards -- the viewing seat's farm first and framed.

A card is a square cut into four quarters by its arms: a fence arm is a thick brown line from
the centre to the middle of a side, a pasture arm a faint dotted line; the farm card has a
house on its crossing. Quarters: plain pasture, cornfield (yellow with corn rows, "corn"), a free
animal cell (dashed ring) or an animal token (a disc with P, G or C). Quarters inside an
enclosed pen get a green inner frame (and a tint). Clickable (``data-action``, exactly as in
``legal``): a face-up card (``take N`` / ``discard N``), a free animal cell (``animal KIND at
X,Y/Q``), and for a fence card being placed, at every place it fits, one small chip per legal
rotation drawn as the card turned that way (``place ID at X,Y rot R``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

from farmtable.core.memo import BoundedCache, RecentReprs
from farmtable.core.svgkit import escape, quoteattr
from farmtable.games.farmini.components import (
    ALL_CARDS,
    KINDS,
    QUARTERS,
    SOLO_ACHIEVEMENTS,
    AnimalCard,
    FenceCard,
    WolfCard,
)
from farmtable.games.farmini.farm import DEFAULT, Faces, faces_for

# --- look -------------------------------------------------------------------------------------

INK: Final = "#1b1b1b"
MUTED: Final = "#555555"
BLUE: Final = "#0072B2"
ORANGE: Final = "#E69F00"
GREEN: Final = "#009E73"
VERMILION: Final = "#D55E00"
SKY: Final = "#56B4E9"
PURPLE: Final = "#CC79A7"
YELLOW: Final = "#F0E442"
PAPER: Final = "#fffdf7"
PASTURE: Final = "#eef4e2"
PEN_TINT: Final = "#d3ece0"
FENCE: Final = "#6b4423"
CARD_EDGE: Final = "#8a8170"
YOU_FILL: Final = "#e6f1f8"

ANIMAL_COLOUR: Final = {"pig": PURPLE, "goat": SKY, "chicken": ORANGE}
ANIMAL_LETTER: Final = {"pig": "P", "goat": "G", "chicken": "C"}
PLURAL: Final = {"pig": "pigs", "goat": "goats", "chicken": "chickens"}
SHEET_LABEL: Final = {
    "animals": "animals",
    "corn": "corn",
    "single_kind_bonus": "1-kind bonus",
    "empty_cell_penalty": "penalty",
}

CELL: Final = 76
"""Side of a card on a farm."""
HALF: Final = CELL // 2
CHIP: Final = 26
"""Side of a rotation chip (a small drawing of the card being placed) in a free place."""
LOOSE: Final = 64
"""Side of a loose card (face-up cards, the card being played)."""
WIDTH_MIN: Final = 820
WIDTH_PAIR_MAX: Final = 1120
"""The picture may grow up to this wide to put two farms side by side."""
FARM_GAP: Final = 18
AXIS: Final = 30
"""Room for the y labels left of a farm grid."""
FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"

QUARTER_OFFSET: Final = ((1, 0), (1, 1), (0, 1), (0, 0))
"""Top-left corner of quarter NE, SE, SW, NW in halves of a card (x right, y down)."""
ARM_END: Final = ((1, 0), (2, 1), (1, 2), (0, 1))
"""End of arm N, E, S, W in halves of a card, from the centre (1, 1)."""
QUARTER_INDEX: Final = {name: i for i, name in enumerate(QUARTERS)}
ROT_SLOT: Final = {0: (0, 0), 90: (1, 0), 180: (0, 1), 270: (1, 1)}
"""Where the chip of each rotation sits in a free place (2 x 2)."""

_PLACE_RE: Final = re.compile(r"^place (\S+) at (-?\d+),(-?\d+) rot (\d+)$")
_ANIMAL_RE: Final = re.compile(r"^animal (\S+) at (-?\d+),(-?\d+)/(NE|SE|SW|NW)$")
_SLOT_RE: Final = re.compile(r"^(take|discard) (\d+)$")

Cell = tuple[int, int, int]


# --- small helpers ----------------------------------------------------------------------------


def _text(
    x: float, y: float, value: str, size: int = 13, *, anchor: str = "start", bold: bool = False, fill: str = INK
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    where = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}"{where}{weight} fill="{fill}">{escape(value)}</text>'


def _action_open(notation: str) -> str:
    return f'<g class="ft-action" data-action={quoteattr(notation)}><title>{escape(notation)}</title>'


def _button(x: float, y: float, w: float, h: float, notation: str) -> str:
    """A clickable overlay for ``notation``, drawn over a picture.

    The page restyles every rect/path/circle inside a legal element (dashed vermilion outline,
    a fill on hover), so the picture itself stays outside the tagged element: only this
    unfilled rect is inside; it catches the clicks (pointer-events) and gets the outline.
    """
    return (
        _action_open(notation) + f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="4" '
        f'fill="none" fill-opacity="0.35" stroke="none" pointer-events="all"/></g>'
    )


def _token(cx: float, cy: float, r: float, kind: str) -> str:
    """An animal token: a coloured disc with the kind's letter (never colour alone)."""
    colour = ANIMAL_COLOUR.get(kind, "#bbbbbb")
    letter = ANIMAL_LETTER.get(kind, "?")
    size = max(8, int(r * 1.15))
    return (
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{colour}" stroke="{INK}" stroke-width="1"/>'
        f'<text x="{cx:g}" y="{cy + size * 0.36:g}" font-size="{size}" text-anchor="middle" font-weight="bold" '
        f'fill="{INK}">{letter}</text>'
    )


_N_LIMIT: Final = 8192
_N_MEMO: dict[float, str] = {}
""":func:`_n`'s texts by value (a picture writes the same few hundred coordinates again and again)."""


def _n(value: float) -> str:
    """A coordinate with at most one decimal (short output); remembered by value (zero aside: ``-0.0``
    equals ``0.0`` as a key but is written ``-0``)."""
    text = _N_MEMO.get(value)
    if text is None:
        text = f"{round(value, 1):g}"
        if value:
            if len(_N_MEMO) >= _N_LIMIT:
                _N_MEMO.clear()
            _N_MEMO[value] = text
    return text


def _quarter(
    parts: list[str],
    x: float,
    y: float,
    h: float,
    content: str,
    *,
    animal: str | None = None,
    pen: bool = False,
    label: bool = True,
    background: bool = True,
) -> None:
    """One quarter (side ``h``) at ``x, y``: pasture, cornfield, free animal cell or an animal.

    Inside a pen it gets a tint and a green inner frame (a shape, not colour alone).
    """
    if pen:
        inset = 2.5 if h >= 20 else 1
        parts.append(
            f'<rect x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(h - 2 * inset)}" height="{_n(h - 2 * inset)}" '
            f'fill="{PEN_TINT}" stroke="{GREEN}" stroke-width="{2 if h >= 20 else 1}"/>'
        )
    elif background:
        parts.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(h)}" height="{_n(h)}" fill="{PASTURE}"/>')
    inset = h * 0.16
    if content == "C":
        side = h - 2 * inset
        parts.append(
            f'<rect x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(side)}" height="{_n(side)}" '
            f'rx="{_n(h * 0.08)}" fill="{YELLOW}" stroke="#8a7d00" stroke-width="0.8"/>'
        )
        top, length = y + inset * 1.6, h - inset * 3.2
        rows = "".join(f"M{_n(x + inset + side * k / 4)} {_n(top)}v{_n(length)}" for k in (1, 2, 3))
        parts.append(f'<path d="{rows}" stroke="#7a6a00" stroke-width="{_n(max(0.6, h / 40))}"/>')
        if label and h >= 30:
            parts.append(
                f'<rect x="{_n(x + h / 2 - 12)}" y="{_n(y + h / 2 - 6)}" width="24" height="11" rx="2" '
                f'fill="{YELLOW}"/>' + _text(x + h / 2, y + h / 2 + 3, "corn", 9, anchor="middle", fill=INK)
            )
    elif content == "A":
        cx, cy, r = x + h / 2, y + h / 2, h * 0.3
        if animal is not None:
            parts.append(_token(cx, cy, r, animal))
        else:
            parts.append(_ring(cx, cy, h))


@lru_cache(maxsize=1024)
def _card_quarter(x: float, y: float, h: float, content: str, animal: str | None, pen: bool, label: bool) -> str:
    """A quarter of a card's drawing (:func:`_quarter` without its background), written once: the same
    quarters come back on many cards."""
    parts: list[str] = []
    _quarter(parts, x, y, h, content, animal=animal, pen=pen, label=label, background=False)
    return "".join(parts)


def _ring(cx: float, cy: float, h: float) -> str:
    """A free animal cell: a dashed ring in a quarter of side ``h``."""
    return (
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(h * 0.3)}" fill="#ffffff" stroke="{MUTED}" '
        f'stroke-width="{_n(max(0.8, h / 36))}" stroke-dasharray="{_n(max(1.5, h / 16))} {_n(max(1.5, h / 20))}"/>'
    )


QuarterState = tuple[bool, str | None, bool]
"""A farm quarter as drawn: inside a pen, its animal, whether its free cell is drawn as a button."""
_PLAIN: Final[tuple[QuarterState, ...]] = ((False, None, False),) * 4
CARD_CACHE_LIMIT: Final = 20_000
_CARD_CACHE: BoundedCache[tuple[str, str, int, float, tuple[QuarterState, ...]], str] = BoundedCache(CARD_CACHE_LIMIT)
"""Card drawings at the origin, by face set, card, rotation, size and quarter states (few distinct ones)."""


def _card(
    parts: list[str],
    x: float,
    y: float,
    s: float,
    card_id: str,
    rot: int,
    *,
    pos: tuple[int, int] | None = None,
    animals: dict[Cell, str] | None = None,
    pens: set[Cell] | None = None,
    actions: dict[Cell, str] | None = None,
    faces: Faces = DEFAULT,
) -> None:
    """A fence or farm card of side ``s`` turned ``rot``; on a farm, ``pos`` finds its animals and pens.

    The drawing at the origin is cached and placed with a translation; the free animal cells
    that are decisions (``actions``) are drawn on top, each a button with its notation.
    """
    states = _PLAIN
    buttons: list[tuple[int, str]] = []
    if pos is not None:
        px, py = pos
        quarter_states = []
        for q in range(4):
            cell = (px, py, q)
            action = actions.get(cell) if actions else None
            if action is not None:
                buttons.append((q, action))
            quarter_states.append(
                (pens is not None and cell in pens, animals.get(cell) if animals else None, action is not None)
            )
        states = (quarter_states[0], quarter_states[1], quarter_states[2], quarter_states[3])
    key = (faces.name, card_id, rot, s, states)
    if pos is not None:  # a farm card, placed: remembered with its place (farms rarely move)
        placed_key = (key, x, y, pos)
        placed = _PLACED.get(placed_key)
        if placed is None:
            placed = _PLACED.put(placed_key, _placed(x, y, s, card_id, rot, pos, states, key, faces))
        parts.append(placed)
    else:
        parts.append(f'<g transform="translate({x:g},{y:g})">{_body(key, faces)}</g>')
    h = s / 2
    for q, action in buttons:
        ox, oy = QUARTER_OFFSET[q]
        parts.append(_action_open(action) + _ring(x + ox * h + h / 2, y + oy * h + h / 2, h) + "</g>")


PLACED_CACHE_LIMIT: Final = 4096
_PLACED: BoundedCache[tuple[Any, ...], str] = BoundedCache(PLACED_CACHE_LIMIT)
"""Farm cards as placed on a farm (drawing and outline), by card, quarter states, place and position."""


def _body(key: tuple[str, str, int, float, tuple[QuarterState, ...]], faces: Faces) -> str:
    """The drawing of a card at the origin (:func:`_card_body`), remembered by ``key``."""
    body = _CARD_CACHE.get(key)
    if body is None:
        _, card_id, rot, s, states = key
        body = _CARD_CACHE.put(key, _card_body(s, card_id, rot, states, faces))
    return body


def _placed(
    x: float,
    y: float,
    s: float,
    card_id: str,
    rot: int,
    pos: tuple[int, int],
    states: tuple[QuarterState, ...],
    key: tuple[str, str, int, float, tuple[QuarterState, ...]],
    faces: Faces,
) -> str:
    """A farm card at (``x``, ``y``) and the outline the page marks when the last decision changed it."""
    content = f"{card_id} {rot} " + " ".join(str(st[1] or "-") for st in states)
    return (
        f'<g transform="translate({x:g},{y:g})">{_body(key, faces)}</g>'
        f'<rect class="ft-cell" data-cell="{pos[0]},{pos[1]}" data-content={quoteattr(content)} '
        f'x="{x:g}" y="{y:g}" width="{s:g}" height="{s:g}" fill="none" pointer-events="none"/>'
    )


def _card_body(s: float, card_id: str, rot: int, states: tuple[QuarterState, ...], faces: Faces) -> str:
    """The drawing of a card of side ``s`` at the origin (see :func:`_card`), showing ``faces``."""
    oriented = faces.oriented.get((card_id, rot))
    if oriented is None:
        return _text(s / 2, s / 2, card_id, 11, anchor="middle", fill=MUTED)
    parts = [f'<rect width="{_n(s)}" height="{_n(s)}" fill="{PASTURE}"/>']
    h = s / 2
    for q in range(4):
        ox, oy = QUARTER_OFFSET[q]
        pen, animal, button = states[q]
        content = "G" if button else oriented.quarters[q]  # a button ring is drawn on top by _card
        parts.append(_card_quarter(ox * h, oy * h, h, content, animal, pen, s >= CELL))
    c = _n(h)
    width = max(2.0, s * 0.07)
    fences, arm_paths = _arm_paths(s, tuple(oriented.arms))
    parts.append(arm_paths)
    card = ALL_CARDS.get(card_id)
    if isinstance(card, FenceCard) and card.farm:
        r = s * 0.13
        cx = cy = h
        points = (
            f"{_n(cx - r)},{_n(cy + r)} {_n(cx - r)},{_n(cy - r * 0.2)} {_n(cx)},{_n(cy - r * 1.2)} "
            f"{_n(cx + r)},{_n(cy - r * 0.2)} {_n(cx + r)},{_n(cy + r)}"
        )
        parts.append(f'<polygon points="{points}" fill="{VERMILION}" stroke="{INK}" stroke-width="1"/>')
        if s >= CELL:
            parts.append(_text(cx, cy + r * 0.75, "H", int(r * 1.1), anchor="middle", bold=True, fill="#ffffff"))
    elif fences:
        parts.append(f'<circle cx="{c}" cy="{c}" r="{_n(width * 0.8)}" fill="{FENCE}"/>')
    parts.append(f'<rect width="{_n(s)}" height="{_n(s)}" fill="none" stroke="{CARD_EDGE}" stroke-width="1"/>')
    return "".join(parts)


@lru_cache(maxsize=128)
def _arm_paths(s: float, arms: tuple[bool, ...]) -> tuple[bool, str]:
    """A card's four arms (side ``s``): whether any is a fence, and their drawing (the open arms dashed,
    the fences thick), written once per size and arms."""
    h = s / 2
    c = _n(h)
    fences = "".join(f"M{c} {c}L{_n(ARM_END[i][0] * h)} {_n(ARM_END[i][1] * h)}" for i in range(4) if arms[i])
    open_arms = "".join(f"M{c} {c}L{_n(ARM_END[i][0] * h)} {_n(ARM_END[i][1] * h)}" for i in range(4) if not arms[i])
    width = max(2.0, s * 0.07)
    drawn = ""
    if open_arms:
        drawn += f'<path d="{open_arms}" stroke="#a9c08f" stroke-width="1" stroke-dasharray="2 3"/>'
    if fences:
        drawn += f'<path d="{fences}" stroke="{FENCE}" stroke-width="{_n(width)}" stroke-linecap="round"/>'
    return bool(fences), drawn


def _loose_card(parts: list[str], x: float, y: float, card_id: str, action: str | None, faces: Faces) -> None:
    """A face-up card (``LOOSE`` square) with its id above; tagged with ``take N``/``discard N``."""
    parts.append(_loose_card_drawing(x, y, card_id, action, faces))


@lru_cache(maxsize=1024)
def _loose_card_drawing(x: float, y: float, card_id: str, action: str | None, faces: Faces) -> str:
    """:func:`_loose_card`'s drawing, written once per place, card, decision and face set."""
    parts: list[str] = []
    card = ALL_CARDS.get(card_id)
    parts.append(
        f'<rect x="{x - 4:g}" y="{y - 4:g}" width="{LOOSE + 8}" height="{LOOSE + 8}" rx="5" fill="#ffffff" '
        f'stroke="{CARD_EDGE}" stroke-width="1"/>'
    )
    if isinstance(card, FenceCard):
        _card(parts, x, y, LOOSE, card_id, 0, faces=faces)
    elif isinstance(card, AnimalCard):
        parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{LOOSE}" height="{LOOSE}" rx="3" fill="#f6efe2" stroke="{CARD_EDGE}"/>'
        )
        if card.count == 1:
            parts.append(_token(x + LOOSE / 2, y + 24, 13, card.kind))
        else:
            parts.append(_token(x + LOOSE / 2 - 14, y + 24, 12, card.kind))
            parts.append(_token(x + LOOSE / 2 + 14, y + 24, 12, card.kind))
        word = card.kind if card.count == 1 else PLURAL.get(card.kind, card.kind)
        parts.append(_text(x + LOOSE / 2, y + 54, f"{card.count} {word}", 11, anchor="middle"))
    elif isinstance(card, WolfCard):
        parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{LOOSE}" height="{LOOSE}" rx="3" fill="#e4e4e4" stroke="{CARD_EDGE}"/>'
        )
        parts.append(_text(x + LOOSE / 2, y + 28, "wolf", 13, anchor="middle", bold=True))
        parts.append(_text(x + LOOSE / 2, y + 46, PLURAL.get(card.kind, card.kind), 11, anchor="middle"))
    else:
        parts.append(_text(x + LOOSE / 2, y + LOOSE / 2, card_id, 12, anchor="middle"))
    if action is not None:
        parts.append(_text(x + LOOSE / 2, y + LOOSE + 18, action, 11, anchor="middle", fill=VERMILION))
        # over the card and its caption
        parts.append(_button(x - 6, y - 6, LOOSE + 12, LOOSE + 30, action))
    return "".join(parts)


def _rotation_chips(
    parts: list[str], x: float, y: float, card_id: str, chips: dict[int, str], faces: Faces = DEFAULT
) -> None:
    """A free place on the farm where the taken card fits: one chip per legal rotation (2 x 2)."""
    parts.append(_rotation_chips_drawing(x, y, card_id, tuple(sorted(chips.items())), faces))


@lru_cache(maxsize=1024)
def _rotation_chips_drawing(x: float, y: float, card_id: str, chips: tuple[tuple[int, str], ...], faces: Faces) -> str:
    """:func:`_rotation_chips`' drawing (``chips``: rotation and notation, by rotation), written once."""
    parts: list[str] = []
    parts.append(
        f'<rect x="{x + 1:g}" y="{y + 1:g}" width="{CELL - 2}" height="{CELL - 2}" rx="4" fill="#ffffff" '
        f'stroke="{BLUE}" stroke-width="1.2" stroke-dasharray="4 3"/>'
    )
    step = CELL / 2
    single = len(chips) == 1
    size = CHIP * 1.6 if single else CHIP
    for rot, notation in chips:
        col, row = ROT_SLOT.get(rot, (0, 0))
        if single:
            cx, cy = x + (CELL - size) / 2, y + 6
        else:
            cx, cy = x + col * step + (step - size) / 2, y + row * step + 2
        parts.append(
            f'<rect x="{_n(cx - 1)}" y="{_n(cy - 1)}" width="{_n(size + 2)}" height="{_n(size + 10)}" rx="2" '
            f'fill="#ffffff" stroke="{BLUE}" stroke-width="0.8"/>'
        )
        _card(parts, cx, cy, size, card_id, rot, faces=faces)
        parts.append(_text(cx + size / 2, cy + size + 8, f"{rot}°", 8, anchor="middle", fill=BLUE))
        parts.append(_button(cx - 1, cy - 1, size + 2, size + 10, notation))
    return "".join(parts)


# --- reading the view -------------------------------------------------------------------------


def _legal_maps(
    legal: list[str],
) -> tuple[dict[int, str], dict[tuple[int, int], dict[int, str]], str | None, dict[Cell, str]]:
    """Sort the legal notations by where they are drawn: slots, places (per rotation), animal cells."""
    slots: dict[int, str] = {}
    places: dict[tuple[int, int], dict[int, str]] = {}
    place_card: str | None = None
    cells: dict[Cell, str] = {}
    for notation in legal:
        if m := _SLOT_RE.match(notation):
            slots[int(m.group(2))] = notation
        elif m := _PLACE_RE.match(notation):
            place_card = m.group(1)
            places.setdefault((int(m.group(2)), int(m.group(3))), {})[int(m.group(4))] = notation
        elif m := _ANIMAL_RE.match(notation):
            cells[int(m.group(2)), int(m.group(3)), QUARTER_INDEX[m.group(4)]] = notation
    return slots, places, place_card, cells


def _extents(cards: dict[tuple[int, int], Any]) -> tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]:
    """Per row y the lowest and highest x of a card, per column x the lowest and highest y."""
    rows: dict[int, tuple[int, int]] = {}
    columns: dict[int, tuple[int, int]] = {}
    for x, y in cards:
        lo, hi = rows.get(y, (x, x))
        rows[y] = (min(lo, x), max(hi, x))
        lo, hi = columns.get(x, (y, y))
        columns[x] = (min(lo, y), max(hi, y))
    return rows, columns


def _is_gap(rows: dict[int, tuple[int, int]], columns: dict[int, tuple[int, int]], x: int, y: int) -> bool:
    """An empty place inside the farm's outline: cards on both sides of it in its row or column."""
    row = rows.get(y)
    column = columns.get(x)
    return (row is not None and row[0] < x < row[1]) or (column is not None and column[0] < y < column[1])


def _winners(view: dict[str, Any]) -> set[int]:
    """Most points; ties broken by most pigs, then goats, then chickens (the rulebook's tiebreaker)."""
    scores = view.get("scores") or []
    farms = view.get("farms") or []
    keys = []
    for p, score in enumerate(scores):
        animals = farms[p].get("animals", []) if p < len(farms) else []
        counts = [sum(1 for a in animals if a[3] == kind) for kind in KINDS]
        keys.append((score, *counts))
    best = max(keys, default=None)
    return {p for p, key in enumerate(keys) if key == best}


def _solo_line(view: dict[str, Any]) -> str:
    """The solo result: points and the rulebook's achievement for them (second variant: its column)."""
    scores = view.get("scores") or [0]
    score = int(scores[0])
    column = 1 if "second-variant" in (view.get("variants") or []) else 0
    text = SOLO_ACHIEVEMENTS[-1][2]
    for normal, second, achievement in SOLO_ACHIEVEMENTS:
        if score >= (second if column else normal):
            text = achievement
            break
    return text


# --- the farm ---------------------------------------------------------------------------------


RECENT_FARMS: Final = 8
_RECENT = RecentReprs(RECENT_FARMS)


def farm_key(farm: dict[str, Any]) -> str:
    """A farm's ``repr``, the key of every drawing remembered of it, found again by equality among the
    last farms seen (each seat's view and live score bring their own equal copy: :class:`RecentReprs`)."""
    return _RECENT.key(farm)


BLOCK_CACHE_LIMIT: Final = 1024
_BLOCKS: BoundedCache[tuple[Any, ...], tuple[list[str], float, float]] = BoundedCache(BLOCK_CACHE_LIMIT)
"""Farms drawn without buttons, by everything they show: a farm not being played is drawn the same for
every seat that is not its owner, and again after every decision until its owner plays."""


def _farm_block(
    view: dict[str, Any],
    p: int,
    player: int | None,
    places: dict[tuple[int, int], dict[int, str]],
    place_card: str | None,
    cells: dict[Cell, str],
    winners: set[int],
    faces: Faces = DEFAULT,
) -> tuple[list[str], float, float]:
    """One player's area at (0, 0): header, score line, coordinates and the card grid; its size.

    A farm without buttons on it is remembered by what it shows (the drawing reads nothing else)."""
    mine = p == player
    if mine and (places or cells):
        return _draw_farm_block(view, p, player, places, place_card, cells, winners, faces)
    farms = view["farms"]
    scores = view.get("scores") or []
    sheets = view.get("score_sheets") or []
    key = (
        p,
        mine,
        faces.name,
        bool(view.get("over")),
        p in (view.get("actors") or []),
        p in winners and len(farms) > 1,
        repr(scores[p]) if p < len(scores) else None,
        farm_key(farms[p]),
        repr(sheets[p]) if p < len(sheets) else None,
        "second-variant" in (view.get("variants") or []),
    )
    cached = _BLOCKS.get(key)
    if cached is None:
        # the farm's grid and score line read nothing of the reader: drawn once for its owner and the others
        body_key = key[:1] + key[2:]
        body = _BODIES.get(body_key)
        parts, width, height = _draw_farm_block(view, p, player, {}, None, {}, winners, faces, body)
        if body is None:
            _BODIES.put(body_key, "".join(parts[3:]))
        cached = _BLOCKS.put(key, (["".join(parts)], width, height))
    return cached


_BODIES: BoundedCache[tuple[Any, ...], str] = BoundedCache(BLOCK_CACHE_LIMIT)
"""A farm's drawing without buttons after its frame, title and points (its score line, coordinates and
cards): the same for its owner and every other reader, by everything it shows."""


def _draw_farm_block(
    view: dict[str, Any],
    p: int,
    player: int | None,
    places: dict[tuple[int, int], dict[int, str]],
    place_card: str | None,
    cells: dict[Cell, str],
    winners: set[int],
    faces: Faces = DEFAULT,
    body: str | None = None,
) -> tuple[list[str], float, float]:
    """:func:`_farm_block` drawn: the frame, title and points (the first three parts), then the rest,
    which is ``body`` when given (that farm's rest already drawn, without buttons)."""
    farm = view["farms"][p]
    cards = {(int(c[0]), int(c[1])): (str(c[2]), int(c[3])) for c in farm.get("cards", [])}
    animals = {(int(a[0]), int(a[1]), QUARTER_INDEX.get(str(a[2]), 0)): str(a[3]) for a in farm.get("animals", [])}
    pens = {(int(c[0]), int(c[1]), int(c[2])) for pen in farm.get("pens", []) for c in pen}
    mine = p == player
    my_places = places if mine else {}
    my_cells = cells if mine else {}
    spots = set(cards) | set(my_places)
    if not spots:
        spots = {(0, 0)}
    xs = [x for x, _ in spots]
    ys = [y for _, y in spots]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    grid_w = cols * CELL
    head = 48
    top = head + 18
    height = top + rows * CELL + 10
    over = bool(view.get("over"))
    to_play = not over and p in (view.get("actors") or [])
    title = f"Player {p}"
    if mine:
        title += " (you)"
    if to_play:
        title = "▶ " + title + " — to play"
    if over and p in winners and len(view["farms"]) > 1:
        title = "★ " + title + " — wins"
    scores = view.get("scores") or []
    score = int(scores[p]) if p < len(scores) else 0
    points = f"{score} point{'' if score in (1, -1) else 's'}"
    pen_count = len(farm.get("pens", []))
    sheets = view.get("score_sheets") or []
    sheet = sheets[p] if p < len(sheets) else {}
    variants = view.get("variants") or []
    lines = [
        f"{SHEET_LABEL.get(k, k)} {v:+d}" if k == "empty_cell_penalty" else f"{SHEET_LABEL.get(k, k)} {v}"
        for k, v in sheet.items()
        if k != "single_kind_bonus" or "second-variant" in variants
    ]
    detail = f"{pen_count} pen{'s' if pen_count != 1 else ''} · " + " · ".join(lines)
    # text widths estimated from the sans-serif font (bold 14px ~8.6 units a character, 11px ~6.1)
    width = max(AXIS + grid_w + 12, 240, round(len(detail) * 6.1 + 22), round((len(title) + len(points)) * 8.6 + 36))
    parts: list[str] = []
    if mine:
        parts.append(
            f'<rect x="0" y="0" width="{width}" height="{height}" rx="8" fill="{YOU_FILL}" stroke="{BLUE}" '
            f'stroke-width="2"/>'
        )
    else:
        parts.append(
            f'<rect x="0" y="0" width="{width}" height="{height}" rx="8" fill="#faf8f1" stroke="#c9c1ad" '
            f'stroke-width="1"/>'
        )
    parts.append(_text(10, 20, title, 14, bold=True, fill=BLUE if mine else INK))
    parts.append(_text(width - 10, 20, points, 14, anchor="end", bold=True))
    if body is not None:
        parts.append(body)
        return parts, width, height
    parts.append(_text(10, 38, detail, 11, fill=MUTED))
    gx = AXIS
    rows_ext, columns_ext = _extents(cards)
    for i, x in enumerate(range(x0, x1 + 1)):
        parts.append(_text(gx + i * CELL + HALF, top - 5, f"x={x}", 10, anchor="middle", fill=MUTED))
    for j, y in enumerate(range(y1, y0 - 1, -1)):
        parts.append(_text(AXIS - 4, top + j * CELL + HALF + 4, f"y={y}", 10, anchor="end", fill=MUTED))
    for j, y in enumerate(range(y1, y0 - 1, -1)):
        for i, x in enumerate(range(x0, x1 + 1)):
            px, py = gx + i * CELL, top + j * CELL
            if (x, y) in cards:
                cid, rot = cards[x, y]
                parts.append(f"<g><title>{escape(f'{cid} at {x},{y} rot {rot}')}</title>")
                _card(
                    parts, px, py, CELL, cid, rot, pos=(x, y), animals=animals, pens=pens, actions=my_cells, faces=faces
                )
                parts.append("</g>")
            elif (x, y) in my_places and place_card is not None:
                _rotation_chips(parts, px, py, place_card, my_places[x, y], faces)
            elif _is_gap(rows_ext, columns_ext, x, y):
                parts.append(
                    f'<rect x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none" '
                    f'stroke="#b8b2a0" stroke-dasharray="3 3"/>'
                    + _text(px + HALF, py + HALF + 4, "gap", 11, anchor="middle", fill=MUTED)
                )
    return parts, width, height


# --- the whole picture ------------------------------------------------------------------------


def render_svg(view: dict[str, Any], legal: list[str], player: int | None) -> str:
    """Draw ``view`` (``state.view(player)``) as one ``<svg>``; decisions carry ``data-action``."""
    slots, places, place_card, cells = _legal_maps(legal)
    variants = view.get("variants")
    faces = faces_for([str(v) for v in variants] if isinstance(variants, list) else [])
    players = int(view.get("players") or len(view.get("farms") or []) or 1)
    over = bool(view.get("over"))
    actors = view.get("actors") or []
    winners = _winners(view) if over else set()
    parts: list[str] = []

    # header
    if over:
        names = " and ".join(f"player {p}" for p in sorted(winners))
        status = f"Game over — ★ {names} win{'s' if len(winners) == 1 else ''}" if winners else "Game over"
        if players == 1:
            status = f"Game over — {int((view.get('scores') or [0])[0])} points (solo)"
    else:
        who = ", ".join(f"player {a}" for a in actors) or "nobody"
        mark = "▶ Your turn" if player is not None and player in actors else f"{who} to play"
        status = f"Turn {int(view.get('turn', 0)) + 1} — {mark}"
    parts.append(_text(12, 24, f"Farmini — {status}", 17, bold=True, fill=BLUE))
    band, top, px = _band(view, slots, faces, players, over)
    parts.append(band)
    head_width = px + 300

    # the farms: the viewing seat's first
    order = list(range(players))
    if player is not None and 0 <= player < players:
        order = order[player:] + order[:player]
    owners = [p for p in order if p < len(view.get("farms") or [])]
    blocks = [_farm_block(view, p, player, places, place_card, cells, winners, faces) for p in owners]
    width = max(WIDTH_MIN, head_width, *(int(w) + 24 for _, w, _ in blocks)) if blocks else WIDTH_MIN
    # two farms side by side when that stays reasonably wide (else the picture gets very tall)
    pairs = [blocks[i][1] + blocks[i + 1][1] + FARM_GAP + 24 for i in range(0, len(blocks) - 1, 2)]
    if pairs and max(pairs) <= WIDTH_PAIR_MAX:
        width = max(width, round(max(pairs)))
    cx, cy, row_h = 12.0, float(top), 0.0
    for owner, (block, w, h) in zip(owners, blocks, strict=True):
        if cx > 12 and cx + w > width - 12:
            cx, cy, row_h = 12.0, cy + row_h + FARM_GAP, 0.0
        parts.append(f'<g transform="translate({cx:g},{cy:g})" data-board="{owner}">')
        parts += block
        parts.append("</g>")
        cx += w + FARM_GAP
        row_h = max(row_h, h)
    cy += row_h + 14

    # legend
    parts.append(_legend(12, cy))
    height = cy + 40
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ft-board ft-farmini" viewBox="0 0 {width:g} {height:g}" '
        f'width="100%" font-family="{FONT}" role="group" aria-label="Farmini table">'
        f'<rect width="{width:g}" height="{height:g}" fill="{PAPER}"/>'
    )
    return "".join([head, *parts, "</svg>"])


BAND_CACHE_LIMIT: Final = 1024
_BANDS: BoundedCache[tuple[Any, ...], tuple[str, float, float]] = BoundedCache(BAND_CACHE_LIMIT)
"""The table band (counts, face-up cards, farmyard, the card being played, events) without buttons, by
everything it shows: the same for every seat but one taking a face-up card, so drawn once per position."""


def _band(
    view: dict[str, Any], slots: dict[int, str], faces: Faces, players: int, over: bool
) -> tuple[str, float, float]:
    """The band under the header: its drawing, the top of the farms under it and the left of the
    card being played. Without face-up buttons it is remembered by what it shows."""
    if slots:
        return _draw_band(view, slots, faces, players, over)
    key = (
        faces.name,
        players,
        over,
        repr(view.get("deck_size")),
        repr(view.get("discard")),
        repr(view.get("variants")),
        repr(view.get("table")),
        repr(view.get("farmyard")),
        repr(view.get("pending")),
        repr(view.get("current")),
        repr(view.get("events")),
        repr(view.get("scores")) if over and players == 1 else None,
    )
    cached = _BANDS.get(key)
    if cached is None:
        cached = _BANDS.put(key, _draw_band(view, slots, faces, players, over))
    return cached


def _draw_band(
    view: dict[str, Any], slots: dict[int, str], faces: Faces, players: int, over: bool
) -> tuple[str, float, float]:
    """:func:`_band` drawn."""
    parts: list[str] = []
    discard = view.get("discard") or []
    info = f"{players} player{'s' if players != 1 else ''} (solo)" if players == 1 else f"{players} players"
    info += f" · deck: {int(view.get('deck_size', 0))} face down · discard pile: {len(discard)}"
    if discard:
        info += f" (top {discard[-1]})"
    variants = view.get("variants") or []
    if variants:
        info += " · variants: " + ", ".join(str(v) for v in variants)
    parts.append(_text(12, 44, info, 12, fill=MUTED))

    # face-up cards
    y = 62
    parts.append(_text(12, y + 12, "Face-up cards", 13, bold=True))
    card_top = y + 36
    x = 16
    for entry in view.get("table") or []:
        slot = int(entry.get("slot", 0))
        cid = str(entry.get("card", "?"))
        action = slots.get(slot)
        parts.append(_text(x + LOOSE / 2, card_top - 10, f"{slot}: {cid}", 12, anchor="middle", bold=True))
        _loose_card(parts, x, card_top, cid, action, faces)
        x += LOOSE + 24
    if not view.get("table"):
        parts.append(_text(16, card_top + 20, "(none left)", 12, fill=MUTED))

    # farmyard
    fx = 16 + 4 * (LOOSE + 24) + 12
    parts.append(_text(fx, y + 12, "Farmyard", 13, bold=True))
    farmyard = view.get("farmyard") or {}
    for i, kind in enumerate(KINDS):
        ty = card_top + 4 + i * 26
        parts.append(_token(fx + 11, ty + 6, 10, kind))
        parts.append(_text(fx + 28, ty + 11, f"{int(farmyard.get(kind, 0))} {PLURAL[kind]}", 12))

    # the card being played
    px = fx + 120
    pending = view.get("pending")
    band_bottom = card_top + LOOSE + 34
    if isinstance(pending, dict) and pending.get("card"):
        cid = str(pending["card"])
        card = ALL_CARDS.get(cid)
        who = f"player {view.get('current', '?')}"
        if isinstance(card, FenceCard):
            parts.append(_text(px, y + 12, f"{who.capitalize()} places {cid}", 13, bold=True))
            parts.append(_text(px, y + 28, "where it fits, a chip per turn (rot)", 11, fill=MUTED))
            mini = 46
            for i, rot in enumerate(faces.distinct_rotations.get(cid, (0,))):
                rx = px + i * (mini + 20)
                _card(parts, rx, card_top, mini, cid, rot, faces=faces)
                parts.append(_text(rx + mini / 2, card_top + mini + 14, f"rot {rot}", 11, anchor="middle"))
        elif isinstance(card, AnimalCard):
            left = int(pending.get("left", 0))
            word = card.kind if left == 1 else PLURAL.get(card.kind, card.kind)
            parts.append(_text(px, y + 12, f"{who.capitalize()} places {cid}", 13, bold=True))
            for i in range(left):
                parts.append(_token(px + 14 + i * 30, card_top + 14, 12, card.kind))
            parts.append(_text(px, card_top + 48, f"{left} {word} left to put on free animal cells", 12))
        else:
            parts.append(_text(px, y + 12, f"{who.capitalize()} plays {cid}", 13, bold=True))

    # wolf and discard events
    events = view.get("events") or []
    ey = band_bottom + 8
    if over and players == 1:
        parts.append(_text(16, ey + 14, f"Solo achievement: {_solo_line(view)}", 13, bold=True))
        ey += 24
    for event in events:
        parts.append(_text(16, ey + 12, f"• {event}", 12, fill=VERMILION if "wolf" in str(event) else INK))
        ey += 18
    top = ey + 8 if ey > band_bottom + 8 else band_bottom + 4
    return "".join(parts), top, px


@lru_cache(maxsize=256)
def _legend(x: float, y: float) -> str:
    """One line explaining the symbols (remembered: it moves only with the height of what is above it)."""
    parts: list[str] = []
    parts.append(
        f'<line x1="{x:g}" y1="{y + 8:g}" x2="{x + 20:g}" y2="{y + 8:g}" stroke="{FENCE}" stroke-width="5" '
        f'stroke-linecap="round"/>'
    )
    parts.append(_text(x + 26, y + 12, "fence", 11, fill=MUTED))
    x += 70
    _quarter(parts, x, y - 2, 20, "C", label=False)
    parts.append(_text(x + 24, y + 12, "cornfield", 11, fill=MUTED))
    x += 90
    _quarter(parts, x, y - 2, 20, "A")
    parts.append(_text(x + 24, y + 12, "free animal cell", 11, fill=MUTED))
    x += 124
    for kind in KINDS:
        parts.append(_token(x + 9, y + 8, 9, kind))
        parts.append(_text(x + 22, y + 12, kind, 11, fill=MUTED))
        x += 30 + len(kind) * 6.5
    x += 6
    _quarter(parts, x, y - 2, 20, "G", pen=True)
    parts.append(_text(x + 24, y + 12, "inside an enclosed pen", 11, fill=MUTED))
    return "".join(parts)
