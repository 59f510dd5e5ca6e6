"""Tiny Towns for the browser: one SVG of a seat's view, like the table (see docs/web.md, "The SVG hook").

Top to bottom: the round, the resource and whose decision it is; the 7 building cards in play with
their patterns; the viewer's own town large, with a side panel (status, monument, what is stored,
the builds on offer); then every other town, smaller, in seat order after the viewer.

Clickable (``data-action``, exactly the notation in ``legal``):

- ``place RES SQ``, ``add BUILDING SQ``, ``swap SQ BUILDING``, ``store RES WAREHOUSE``: the square
  itself when it has one such decision, else one small chip per decision inside the square
  (a resource letter or a building code);
- ``name RES`` (and ``choose RES`` for a Factory or Bank): resource buttons; in solo the face-up cards;
- ``choose BUILDING`` (Opaleye's Watch): the building card in the card row;
- ``keep MONUMENT``: the two monument cards dealt;
- ``build ...``: the squares whose cubes can make a building carry ``data-pick`` (the page lets you
  click the cubes, then the building, then its square), and buttons in the side panel;
- ``store RES WH take RES SQ`` and ``cavern RES``: buttons in the side panel;
- ``done``: a wide button under your town.

``pass`` stays in the page's notation list. The drawing sees only the view, so it shows
nothing the seat may not see; the view holds no scores, so none are drawn (the page shows the score
sheet at the end).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from farmtable.core.memo import BoundedCache
from farmtable.core.svgkit import escape, quoteattr
from farmtable.games.tiny_towns import components as C

WIDTH = 1000
MARGIN = 12
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
MONO = "ui-monospace, Menlo, Consolas, monospace"
INK = "#1b1b1b"
MUTED = "#5a5a5a"
PAPER = "#fffdf7"
LINE = "#b8b2a0"
EMPTY_FILL = "#f3f1ea"
HILITE = "#0072B2"
ALERT = "#D55E00"
BUTTON_FILL = "#e6f1f8"
CHAR = 0.56
"""Average width of a sans-serif character, in font sizes (an estimate for wrapping)."""

# Okabe-Ito colours; every resource also carries its letter and (when there is room) its word.
RESOURCE_FILL: dict[str, str] = {
    "wood": "#E69F00",
    "wheat": "#F0E442",
    "brick": "#D55E00",
    "glass": "#56B4E9",
    "stone": "#A8A8A8",
}
NOTATION_LETTER: dict[str, str] = {v: k for k, v in C.RESOURCE_LETTERS.items()}
"""The letters of the notation and the patterns (W wood, H wheat): the chips of a square keep them."""
RESOURCE_LETTER: dict[str, str] = {**NOTATION_LETTER, "wood": "Wd", "wheat": "Wh"}
"""Drawn letters: wood and wheat get two letters each (Wd, Wh) so they cannot be confused; the notation
and the building patterns keep W and H (the symbol key says so)."""
PILE_FILL: dict[str, str] = {
    C.BLUE: "#0072B2",
    C.RED: "#D55E00",
    C.GREY: "#8C8C8C",
    C.YELLOW: "#F0E442",
    C.ORANGE: "#E69F00",
    C.GREEN: "#009E73",
    C.BLACK: "#1b1b1b",
    C.MONUMENT: "#CC79A7",
}
PILE_TEXT: dict[str, str] = {pile: "#ffffff" for pile in (C.BLUE, C.RED, C.GREEN, C.BLACK)}
PHASE_TEXT: dict[str, str] = {
    "keep": "each player keeps 1 of their 2 monuments, in secret",
    "name": "the resource is being named",
    "place": "everyone places the resource",
    "build": "build, then say done",
    "over": "every town is complete; the score sheet is beside the board",
}
MAUSOLEUM = "Grand Mausoleum of the Rodina"
MAUSOLEUM_WOOD = "mausoleum-wood-pattern"
BIG_CELL = 96
COLUMNS = "ABCD"
CELL_VERBS = ("place", "add", "swap", "store")


def _tint(colour: str, keep: float = 0.28) -> str:
    """``colour`` mixed with white (``keep`` of the colour): a light fill that dark text reads on."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * keep):02x}" for c in (r, g, b))


PILE_TINT: dict[str, str] = {pile: _tint(colour) for pile, colour in PILE_FILL.items()}
PILE_TINT[C.BLACK] = "#d9d9d9"


def _card(name: str) -> C.Card | None:
    return C.BUILDINGS.get(name) or C.MONUMENTS.get(name)


def _pile(name: str) -> str:
    card = _card(name)
    return card.colour if card else C.MONUMENT


def _code(name: str) -> str:
    return C.CODES.get(name, "MON" if name in C.MONUMENTS else name[:3].upper())


SQUARE_NAMES = tuple(f"{COLUMNS[i % 4]}{i // 4 + 1}" for i in range(16))


def _square_name(index: int) -> str:
    return SQUARE_NAMES[index]


def _square_index(name: str) -> int:
    if len(name) == 2 and name[0] in COLUMNS and name[1] in "1234":
        return COLUMNS.index(name[0]) + 4 * (int(name[1]) - 1)
    return -1


def _wrap(text: str, size: float, width: float, max_lines: int = 99) -> list[str]:
    """Greedy word wrap by an estimated character width; the last line ends with … when cut."""
    return list(_wrapped(text, size, width, max_lines))


@lru_cache(maxsize=4096)
def _wrapped(text: str, size: float, width: float, max_lines: int) -> tuple[str, ...]:
    limit = max(3, int(width / (size * CHAR)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > limit:  # a word longer than the line: cut it
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:limit])
            word = word[limit:]
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = (last if len(last) < limit else last[: limit - 1]) + "…"
    return tuple(lines)


@lru_cache(maxsize=256)
def _text_attributes(size: float, bold: bool, color: str, anchor: str, mono: bool) -> str:
    """The attributes of a ``<text>`` after its position (:meth:`_Svg.text`), written once per style."""
    attrs = f' font-size="{size:g}"'
    if bold:
        attrs += ' font-weight="bold"'
    if color != INK:
        attrs += f' fill="{color}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if mono:
        attrs += f' font-family="{MONO}"'
    return attrs


class _Svg:
    """Collects the SVG elements; a few helpers for text, cubes, buttons."""

    def __init__(self, legal: list[str]) -> None:
        self.parts: list[str] = []
        self.legal = legal

    def add(self, part: str) -> None:
        self.parts.append(part)

    def text(
        self,
        x: float,
        y: float,
        value: str,
        size: float = 13,
        *,
        bold: bool = False,
        color: str = INK,
        anchor: str = "start",
        mono: bool = False,
    ) -> None:
        attrs = _text_attributes(size, bold, color, anchor, mono)
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}"{attrs}>{escape(value)}</text>')

    def lines(self, x: float, y: float, lines: list[str], size: float = 12, **kw: Any) -> float:
        """Draws lines from baseline ``y``; returns the y below the last one."""
        step = size * 1.3
        for line in lines:
            self.text(x, y, line, size, **kw)
            y += step
        return y

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "none", rx: float = 0, sw: float = 1
    ) -> None:
        extra = f' rx="{rx:g}"' if rx else ""
        if stroke != "none":
            extra += f' stroke="{stroke}" stroke-width="{sw:g}"'
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}"{extra}/>')

    def cube(self, x: float, y: float, size: float, resource: str, *, word: bool = False, ghost: bool = False) -> None:
        """A resource cube (top-left x, y) with its letter; ``ghost``: dashed, a secret choice of the viewer."""
        fill = RESOURCE_FILL.get(resource, "#ffffff")
        dash = ' stroke-dasharray="4 3" fill-opacity="0.45"' if ghost else ""
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" rx="{size / 6:.1f}" '
            f'fill="{fill}" stroke="{INK}" stroke-width="{1.5 if ghost else 1}"{dash}/>'
        )
        letter = RESOURCE_LETTER.get(resource, resource[:1].upper())
        fs = max(8.0, size * (0.55 if len(letter) == 1 else 0.42))
        self.text(x + size / 2, y + size / 2 + fs * 0.36, letter, fs, bold=True, anchor="middle")
        if word:
            self.text(x + size / 2, y + size + 12, resource, 11, anchor="middle")

    def button(
        self,
        action: str,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = BUTTON_FILL,
        rx: float = 4,
        inner: str = "",
        title: bool = True,
    ) -> None:
        """A clickable element: one rect (the page outlines and fills it) and ``inner`` (text only)."""
        if action not in self.legal:
            return
        tip = f"<title>{escape(action)}</title>" if title else ""
        self.parts.append(
            f"<g data-action={quoteattr(action)}>{tip}"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx:g}" fill="{fill}" '
            f'stroke="{HILITE}" stroke-width="1.5"/>{inner}</g>'
        )

    def text_button(
        self, action: str, x: float, y: float, label: str, size: float = 12, fill: str = BUTTON_FILL
    ) -> float:
        """A rounded button with ``label``; returns its width."""
        w = len(label) * size * CHAR + 16
        h = size + 12
        inner = (
            f'<text x="{x + w / 2:.1f}" y="{y + h / 2 + size * 0.36:.1f}" font-size="{size:g}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
        self.button(action, x, y, w, h, fill=fill, rx=h / 2, inner=inner)
        return w


def _flow_buttons(svg: _Svg, x: float, y: float, right: float, items: list[tuple[str, str]], size: float = 12) -> float:
    """Buttons ``(action, label)`` left to right, wrapping at ``right``; returns the y below them."""
    cx = x
    h = size + 12
    for action, label in items:
        w = len(label) * size * CHAR + 16
        if cx + w > right and cx > x:
            cx = x
            y += h + 6
        svg.text_button(action, cx, y, label, size)
        cx += w + 6
    return y + h + 6 if items else y


def _pattern(svg: _Svg, x: float, y: float, pattern: str, cell: float) -> float:
    """A card's pattern as a small grid of resource squares; returns its height."""
    rows = [row.split() for row in pattern.split(" / ")]
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            cx = x + c * cell
            cy = y + r * cell
            if letter == ".":
                svg.rect(cx + 1, cy + 1, cell - 2, cell - 2, "#ffffff", LINE, 2)
            else:
                svg.cube(cx + 1, cy + 1, cell - 2, C.RESOURCE_LETTERS.get(letter, letter))
    return len(rows) * cell


def _pattern_size(pattern: str, cell: float) -> tuple[float, float]:
    rows = pattern.split(" / ")
    return max(len(r.split()) for r in rows) * cell, len(rows) * cell


def _draw_card(
    svg: _Svg, x: float, y: float, w: float, h: float, name: str, pattern: str, text: str, action: str = ""
) -> None:
    """A building or monument card: colour band with the pile's word, name, pattern, effect (a button when
    ``action`` is legal)."""
    svg.add(_card_drawing(x, y, w, h, name, pattern, text, action, bool(action) and action in svg.legal))


@lru_cache(maxsize=1024)
def _card_drawing(
    x: float, y: float, w: float, h: float, name: str, pattern: str, text: str, action: str, clickable: bool
) -> str:
    """:func:`_draw_card`'s drawing, written once per card, place and whether it is a button."""
    svg = _Svg([action] if clickable else [])
    pile = _pile(name)
    if clickable:
        svg.button(action, x, y, w, h, fill="#ffffff", rx=6)
    else:
        svg.rect(x, y, w, h, "#ffffff", LINE, 6)
    svg.add('<g pointer-events="none">')
    svg.rect(x + 1, y + 1, w - 2, 16, PILE_FILL[pile], rx=5)
    band = "monument" if pile == C.MONUMENT else f"{pile} · {_code(name)}"
    svg.text(x + 8, y + 13, band, 10, bold=True, color=PILE_TEXT.get(pile, INK))
    ny = svg.lines(x + 8, y + 32, _wrap(name, 13, w - 14, 2), 13, bold=True)
    cell = 17.0
    pw, ph = _pattern_size(pattern, cell)
    _pattern(svg, x + (w - pw) / 2, ny - 8, pattern, cell)
    svg.lines(x + 7, ny - 8 + ph + 14, _wrap(text, 10.5, w - 12, 4), 10.5, color=MUTED)
    svg.add("</g>")
    return "".join(svg.parts)


def _card_height(w: float, name: str, pattern: str, text: str) -> float:
    name_h = len(_wrap(name, 13, w - 14, 2)) * 13 * 1.3
    return 32 + name_h - 8 + _pattern_size(pattern, 17.0)[1] + 14 + len(_wrap(text, 10.5, w - 12, 4)) * 10.5 * 1.3


def _monument_pattern(name: str, variants: list[str]) -> str:
    if name == MAUSOLEUM and MAUSOLEUM_WOOD in variants:
        return C.MAUSOLEUM_ALT_PATTERN
    card = C.MONUMENTS.get(name)
    return card.pattern if card else ""


# --- the town grid -------------------------------------------------------------------------------


def _cell_label(action: str) -> str:
    """The short label of a chip for one of several decisions on one square."""
    words = action.split()
    verb = words[0]
    if verb == "place":
        return NOTATION_LETTER.get(words[1], words[1][:1].upper())
    if verb == "add":
        return _code(" ".join(words[1:-1]))
    if verb == "swap":
        return _code(" ".join(words[2:]))
    return "St"


def _cell_target(action: str) -> int:
    """The square a square-shaped decision is about (-1: not one)."""
    words = action.split()
    verb = words[0]
    if verb == "place" and len(words) == 3:
        return _square_index(words[2])
    if verb == "add" and len(words) >= 3:
        return _square_index(words[-1])
    if verb == "swap" and len(words) >= 3:
        return _square_index(words[1])
    if verb == "store" and len(words) == 3:
        return _square_index(words[2])
    return -1


def _chip_fill(action: str) -> str:
    words = action.split()
    if words[0] == "place":
        return RESOURCE_FILL.get(words[1], BUTTON_FILL)
    return BUTTON_FILL


@lru_cache(maxsize=64)
def _axes(s: float) -> str:
    """Column letters above and row numbers left of a town drawn at the origin."""
    svg = _Svg([])
    label = 12 if s >= 70 else 10
    top = label + 5
    for c in range(4):
        svg.text(18 + c * s + s / 2, label, COLUMNS[c], label, bold=True, color=MUTED, anchor="middle")
    for r in range(4):
        svg.text(7, top + r * s + s / 2 + 4, str(r + 1), label, bold=True, color=MUTED, anchor="middle")
    return "".join(svg.parts)


@lru_cache(maxsize=4096)
def _still_cell(value: str, i: int, s: float, holds: bool) -> str:
    """A square nobody can act on (most of them): drawn once per look and size, then reused."""
    svg = _Svg([])
    label = 12 if s >= 70 else 10
    _cell(svg, 18 + (i % 4) * s, label + 5 + (i // 4) * s, s, value, _square_name(i), [], s >= 70, holds)
    return "".join(svg.parts)


@lru_cache(maxsize=4096)
def _acting_cell(
    x: float,
    y: float,
    s: float,
    value: str,
    sq: str,
    actions: tuple[str, ...],
    clickable: tuple[str, ...],
    big: bool,
    holds: bool,
) -> str:
    """A square with decisions (:func:`_cell`; ``clickable``: those of ``actions`` that are legal, the
    ones drawn as buttons), written once: the same squares offer the same decisions in many positions."""
    svg = _Svg(list(clickable))
    _cell(svg, x, y, s, value, sq, list(actions), big, holds)
    return "".join(svg.parts)


@lru_cache(maxsize=512)
def _still_town(grid: tuple[str, ...], s: float) -> str:
    """A town's squares when nothing in it is held, hidden or clickable."""
    return "".join(_still_cell(value, i, s, False) for i, value in enumerate(grid))


@lru_cache(maxsize=32)
def _cell_mark_parts(s: float, left: float, top: float) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The fixed text of the sixteen square outlines of :func:`_cell_marks`, before and after each square's
    ``data-content`` value, for squares of side ``s`` from (``left``, ``top``)."""
    heads = tuple(f'<rect class="ft-cell" data-cell="{_square_name(i)}" data-content=' for i in range(16))
    tails = tuple(
        f' x="{left + (i % 4) * s + 1:.1f}" y="{top + (i // 4) * s + 1:.1f}" width="{s - 2:.1f}" '
        f'height="{s - 2:.1f}" rx="3" fill="none" pointer-events="none"/>'
        for i in range(16)
    )
    return heads, tails


@lru_cache(maxsize=2048)
def _cell_marks(grid: tuple[str, ...], s: float, left: float, top: float) -> str:
    """A town's invisible square outlines with ``data-cell`` and ``data-content`` (see :func:`_town`)."""
    heads, tails = _cell_mark_parts(s, left, top)
    return "".join(heads[i] + quoteattr(v) + tails[i] for i, v in enumerate(grid))


def _town(
    svg: _Svg,
    x: float,
    y: float,
    s: float,
    town: dict[str, Any],
    cell_actions: dict[int, list[str]] | None,
    board: int | None = None,
    picks: frozenset[str] = frozenset(),
) -> float:
    """The 4x4 town with column letters above and row numbers left; returns its bottom.

    Every square also gets an invisible outline carrying ``data-cell`` (its name) and ``data-content``
    (what it holds), inside a group with ``data-board`` (the town's player): the page outlines the
    squares that changed with each player's last decision."""
    grid: list[str] = list(town.get("grid") or [""] * 16)
    big = s >= 70
    top = (12 if big else 10) + 5
    left = 18.0
    owner = f' data-board="{board}"' if board is not None else ""
    svg.add(f'<g transform="translate({x:.1f},{y:.1f})"{owner}>')
    svg.add(_axes(s))
    still = tuple(str(v) for v in grid[:16])
    marks = (
        (_cell_marks(still, s, left, top) if board is not None else "")
        + (
            "".join(  # squares whose cubes can make a building: the page lets you pick them to build
                f'<rect class="ft-pick" data-pick="{_square_name(i)}" data-content={quoteattr(str(v))} '
                f'x="{left + (i % 4) * s + 1:.1f}" y="{top + (i // 4) * s + 1:.1f}" width="{s - 2:.1f}" '
                f'height="{s - 2:.1f}" rx="3" fill="#ffffff" fill-opacity="0"/>'
                for i, v in enumerate(grid[:16])
                if _square_name(i) in picks
            )
            if picks
            else ""
        )
    )
    factories = town.get("factories") or {}
    banks = town.get("banks") or {}
    stores = town.get("warehouses") or {}
    statue = set(town.get("cubes_on_cottages") or [])
    own = town.get("placement")
    ghost = own.split() if isinstance(own, str) else []
    if not (cell_actions or factories or banks or stores or statue or ghost):
        svg.add(_still_town(still, s))  # the common case: drawn once, reused
        svg.add(marks + "</g>")
        return y + top + 4 * s
    for i in range(16):
        r, c = divmod(i, 4)
        sq = _square_name(i)
        value = grid[i] if i < len(grid) else ""
        cx = left + c * s
        cy = top + r * s
        actions = (cell_actions or {}).get(i, [])
        held = [v for v in (factories.get(sq), banks.get(sq)) if v]
        cubes = list(stores.get(sq, []))[:3]
        holds = bool(held or cubes or sq in statue)
        if actions:
            clickable = tuple(a for a in actions if a in svg.legal)
            svg.add(_acting_cell(cx, cy, s, value, sq, tuple(actions), clickable, big, holds))
        else:
            svg.add(_still_cell(value if isinstance(value, str) else str(value), i, s, holds))
        if len(actions) > 1 or not (holds or ghost):
            continue  # chips fill the square; the panel lists what it holds
        small = 20.0 if big else max(9.0, s * 0.2)
        pad = 4 if big else 3
        hy = cy + s - small - pad if big else cy + pad
        for res in held:
            svg.cube(cx + s - small - pad, hy, small, res)
        if sq in statue:  # the view does not say which resource: a plain cube
            svg.add(
                f'<rect x="{cx + s - small - pad:.1f}" y="{hy:.1f}" width="{small:.1f}" height="{small:.1f}" '
                f'rx="{small / 6:.1f}" fill="#ffffff" stroke="{INK}"/>'
            )
            svg.text(cx + s - small / 2 - pad, hy + small * 0.72, "+", small * 0.8, bold=True, anchor="middle")
        for k, res in enumerate(cubes):
            svg.cube(cx + pad + k * (small + 2), cy + s - small - pad, small, res)
        if ghost and ghost[0] == "place" and len(ghost) == 3 and ghost[2] == sq and not value:
            svg.cube(cx + s * 0.25, cy + s * 0.2, s * 0.5, ghost[1], ghost=True)
            if big:
                svg.text(cx + s / 2, cy + s - 8, "your pick", 10, color=MUTED, anchor="middle")
    svg.add(marks + "</g>")
    return y + top + 4 * s


def _cell(
    svg: _Svg, x: float, y: float, s: float, value: str, sq: str, actions: list[str], big: bool, holds: bool
) -> None:
    """One square: empty, a resource cube or a building; its decisions (whole square or chips)."""
    is_building = bool(value) and value not in RESOURCE_FILL
    whole = len(actions) == 1
    if is_building:
        pile = _pile(value)
        fill = PILE_TINT[pile]
    else:
        fill = "#ffffff" if value else EMPTY_FILL
    if whole:
        svg.button(actions[0], x + 1, y + 1, s - 2, s - 2, fill=fill, rx=3)
    else:
        svg.rect(x + 1, y + 1, s - 2, s - 2, fill, LINE, 3)
    chips_h = 0.0
    if len(actions) > 1:
        chips_h = _chips(svg, x, y, s, actions)
    svg.add('<g pointer-events="none">')
    if not value:
        svg.text(x + 5, y + (14 if big else 11), sq, 11 if big else 8.5, color="#8a8578")
    elif not is_building:
        size = s * (0.42 if big else 0.6)
        cy = y + (s - size) / 2 - (8 if big and not chips_h else 0)
        if chips_h:
            size = min(size, s - chips_h - 10)
            cy = y + 4
        svg.cube(x + (s - size) / 2, cy, size, value, word=big and not chips_h)
    else:
        pile = _pile(value)
        band = max(4.0, s * 0.08)
        svg.rect(x + 1.5, y + 1.5, s - 3, band, PILE_FILL[pile])
        monument = value in C.MONUMENTS
        name = ("★ " if monument else "") + value
        if big:
            lines = _wrap(name, 11.5 * 1.12, s - 10, 2 if chips_h or holds else 4)
            ly = y + band + 16
            svg.lines(x + s / 2, ly, lines, 11.5, bold=True, anchor="middle")
        else:
            lines = _wrap(value, 9.5, s - 4, 2) if s >= 50 else []
            if lines and all(len(line) * 9.5 * CHAR <= s - 4 for line in lines) and not monument:
                svg.lines(x + s / 2, y + s / 2 + 2 - (len(lines) - 1) * 6, lines, 9.5, bold=True, anchor="middle")
            else:
                code = "★" + _code(value) if monument else _code(value)
                svg.text(x + s / 2, y + s / 2 + 5, code, max(9.0, s * 0.24), bold=True, anchor="middle", mono=True)
    if whole and actions[0].startswith("add ") and not value:
        name = " ".join(actions[0].split()[1:-1])
        lines = _wrap("+ " + name, 11, s - 8, 2) if big else ["+" + _code(name)]
        svg.lines(x + s / 2, y + s / 2 + 4, lines, 11 if big else 9, bold=True, color=HILITE, anchor="middle")
    if whole and actions[0].startswith("swap "):
        name = " ".join(actions[0].split()[2:])
        svg.text(x + s / 2, y + s - 8, "→ " + (name if big else _code(name)), 10, bold=True, anchor="middle")
    if whole and actions[0].startswith("place ") and not value:
        res = actions[0].split()[1]
        size = s * 0.3
        svg.add(
            f'<rect x="{x + (s - size) / 2:.1f}" y="{y + (s - size) / 2:.1f}" width="{size:.1f}" height="{size:.1f}" '
            f'rx="3" fill="{RESOURCE_FILL.get(res, "#fff")}" fill-opacity="0.35" stroke="{MUTED}" '
            f'stroke-dasharray="3 2"/>'
        )
    svg.add("</g>")


def _chips(svg: _Svg, x: float, y: float, s: float, actions: list[str]) -> float:
    """Several decisions on one square: small chips at its bottom; returns their height."""
    labels = [_cell_label(a) for a in actions]
    longest = max(len(label) for label in labels)
    w = max(26.0 if s >= 70 else 15.0, longest * 5.8 + 8)
    h = 20.0 if s >= 70 else 16.0
    per_row = max(1, int((s - 4 + 3) / (w + 3)))
    rows = (len(actions) + per_row - 1) // per_row
    top = y + s - 3 - rows * (h + 3) + 3
    for k, (action, label) in enumerate(zip(actions, labels, strict=True)):
        r, c = divmod(k, per_row)
        in_row = min(per_row, len(actions) - r * per_row)
        row_w = in_row * w + (in_row - 1) * 3
        cx = x + (s - row_w) / 2 + c * (w + 3)
        cy = top + r * (h + 3)
        inner = (
            f'<text x="{cx + w / 2:.1f}" y="{cy + h / 2 + 4:.1f}" font-size="10" font-weight="bold" '
            f'text-anchor="middle" font-family="{MONO}">{escape(label)}</text>'
        )
        svg.button(action, cx, cy, w, h, fill=_chip_fill(action), rx=3, inner=inner)
    return rows * (h + 3)


# --- the parts of the picture ----------------------------------------------------------------------


def _status_words(q: int, town: dict[str, Any], view: dict[str, Any], *, turn: bool = True) -> list[str]:
    """Short words about a town: Master Builder, complete, placing/placed, building/done."""
    words: list[str] = []
    actors = view.get("actors") or []
    phase = view.get("phase")
    if view.get("master_builder") == q:
        words.append("⚒ Master Builder")
    if town.get("complete"):
        done_round = town.get("completed_round")
        words.append(f"complete (round {done_round + 1})" if isinstance(done_round, int) else "complete")
    elif phase == "place":
        words.append("has placed (hidden)" if town.get("has_placed") else "placing")
    elif phase == "build":
        words.append("building" if q in actors else "done")
    elif phase == "keep":
        words.append("monument kept" if town.get("monument_chosen") else "choosing a monument")
    if q in actors and turn:
        words.insert(0, "▶ to decide")
    return words


def _extras(town: dict[str, Any], mine: bool) -> list[str]:
    """Text lines for what the town holds beside its squares."""
    out: list[str] = []
    built = town.get("monument_built")
    if built:
        out.append(f"★ monument: {built}")
        if built == "Shrine of the Elder Tree":
            out.append(f"Shrine VP fixed: {town.get('shrine_vp', 0)}")
    elif not mine and town.get("monument_chosen"):
        out.append("monument: kept, secret")
    for sq, cubes in (town.get("warehouses") or {}).items():
        out.append(f"Warehouse {sq}: {' '.join(cubes) or 'empty'} ({len(cubes)}/3)")
    for sq, res in (town.get("factories") or {}).items():
        out.append(f"Factory {sq}: {res or 'not chosen'}")
    for sq, res in (town.get("banks") or {}).items():
        out.append(f"Bank {sq}: {res or 'none'}")
    if town.get("cubes_on_cottages"):
        out.append("cubes on cottages: " + " ".join(town["cubes_on_cottages"]))
    if town.get("cavern"):
        out.append("Cavern: " + " ".join(town["cavern"]))
    if town.get("opaleye"):
        out.append("Opaleye's Watch: " + ", ".join(town["opaleye"]))
    turns = town.get("master_builder_turns")
    if turns:
        out.append(f"Master Builder turns: {turns}")
    for pending in town.get("pending") or []:
        out.append(f"! {pending}")
    return out


def _header_item(svg: _Svg, x: float, y: float, text: str, *, bold: bool = False, color: str = INK) -> float:
    """One item of the header's second line; returns where the next one starts."""
    svg.text(x, y + 19, text, 14, bold=bold, color=color)
    return x + len(text) * 14 * (0.62 if bold else 0.56) + 26


def _header(svg: _Svg, view: dict[str, Any], player: int | None, legal: list[str]) -> float:
    phase = str(view.get("phase") or "")
    rnd = view.get("round")
    title = "Tiny Towns"
    if phase == "over":
        title += " — game over"
    elif phase == "keep":
        title += " — setup"
    elif isinstance(rnd, int):
        title += f" — round {rnd + 1}"
    svg.text(MARGIN, 26, title, 20, bold=True)
    x = MARGIN + len(title) * 20 * 0.62 + 14
    words = PHASE_TEXT.get(phase, phase)
    if phase == "name" and view.get("players") == 1:
        words = "pick one of the face-up resource cards"
    elif phase == "name" and isinstance(view.get("master_builder"), int):
        words = "the Master Builder names the resource"
    svg.text(x, 26, words, 14, color=MUTED)
    y = 40.0
    # the second line: resource of the round, Master Builder, whose decision
    x = float(MARGIN)
    named = view.get("named")
    solo = view.get("players") == 1
    if view.get("free_choice") and phase in ("place", "build"):
        x = _header_item(svg, x, y, "Resource: free choice (each player picks one)", bold=True)
    elif named and phase in ("place", "build"):
        svg.text(x, y + 19, "Resource:", 14, bold=True)
        svg.cube(x + 84, y + 2, 24, str(named))
        x = _header_item(svg, x + 114, y, str(named), bold=True)
    elif phase == "name":
        x = _header_item(svg, x, y, "Resource: " + ("pick a face-up card" if solo else "not named yet"), bold=True)
    mb = view.get("master_builder")
    if isinstance(mb, int) and phase != "over":
        x = _header_item(svg, x, y, "⚒ Master Builder: " + ("you" if mb == player else f"Player {mb}"))
    actors = [a for a in view.get("actors") or [] if isinstance(a, int)]
    if phase != "over" and actors:
        if player is not None and player in actors:
            others = [a for a in actors if a != player]
            turn = "▶ Your turn" + (" (everyone decides at once)" if others else "")
            _header_item(svg, x, y, turn, bold=True, color=ALERT)
        else:
            _header_item(svg, x, y, "Waiting for " + ", ".join(f"Player {a}" for a in actors))
    if phase == "over":
        return y
    y += 34
    deck = view.get("resource_deck") or {}
    face_up = list(deck.get("face_up") or [])
    revealed = list(deck.get("revealed") or [])
    if face_up:
        svg.text(MARGIN, y + 22, "Face-up resource cards:", 13, bold=True)
        cx = MARGIN + 186.0
        for res in face_up:
            action = f"name {res}"
            if action in legal:
                svg.button(action, cx, y, 86, 36, fill="#ffffff", rx=5)
            else:
                svg.rect(cx, y, 86, 36, "#ffffff", LINE, 5)
            svg.add('<g pointer-events="none">')
            svg.cube(cx + 6, y + 7, 22, res)
            svg.text(cx + 33, y + 23, res, 12)
            svg.add("</g>")
            cx += 94
        svg.text(cx + 8, y + 22, f"deck: {deck.get('draw_pile', 0)} cards", 13, color=MUTED)
        y += 44
    elif deck.get("draw_pile") or revealed or deck.get("face_down_removed"):
        text = f"Town Hall deck: {deck.get('draw_pile', 0)} to draw · {deck.get('face_down_removed', 0)} face down"
        text += " · revealed: " + (" ".join(revealed) if revealed else "none")
        svg.lines(MARGIN, y + 14, _wrap(text, 13, WIDTH - 2 * MARGIN), 13)
        y += 22
    names = [a for a in legal if a.startswith("name ")]
    if names and not face_up:
        svg.text(MARGIN, y + 22, "Name a resource:", 13, bold=True)
        cx = MARGIN + 120.0
        for action in names:
            res = action[5:]
            svg.button(action, cx, y, 86, 36, fill="#ffffff", rx=5)
            svg.add('<g pointer-events="none">')
            svg.cube(cx + 6, y + 7, 22, res)
            svg.text(cx + 33, y + 23, res, 12)
            svg.add("</g>")
            cx += 94
        y += 44
    return y + 4


def _card_row(svg: _Svg, view: dict[str, Any], legal: list[str], y: float) -> float:
    buildings = tuple((str(k), str(v)) for k, v in (view.get("buildings") or {}).items())
    if not buildings:
        return y
    chooses = tuple(a for a in legal if a.startswith("choose "))
    fragment, height = _cards(buildings, chooses)
    svg.add(f'<g transform="translate(0,{y:.1f})">{fragment}</g>')
    return y + height


@lru_cache(maxsize=256)
def _cards(buildings: tuple[tuple[str, str], ...], chooses: tuple[str, ...]) -> tuple[str, float]:
    """The building cards in play, drawn at y = 0 (the same for every seat and step: drawn once)."""
    svg = _Svg(list(chooses))
    svg.text(MARGIN, 12, "Building cards in play (patterns may be rotated and mirrored)", 12, color=MUTED)
    y = 18.0
    n = len(buildings)
    gap = 8.0
    w = (WIDTH - 2 * MARGIN - gap * (n - 1)) / n
    texts = {name: (C.BUILDINGS[name].text if name in C.BUILDINGS else "") for name, _ in buildings}
    h = max(_card_height(w, name, pattern, texts[name]) for name, pattern in buildings) + 4
    for k, (name, pattern) in enumerate(buildings):
        _draw_card(svg, MARGIN + k * (w + gap), y, w, h, name, pattern, texts[name], f"choose {name}")
    return "".join(svg.parts), y + h + 12


def _cell_actions(legal: list[str]) -> dict[int, list[str]]:
    by_square: dict[int, list[str]] = {}
    for action in legal:
        if action.split(" ", 1)[0] in CELL_VERBS:
            target = _cell_target(action)
            if target >= 0:
                by_square.setdefault(target, []).append(action)
    return by_square


def _build_parts(action: str) -> tuple[str, str, str]:
    """``build Cottage A1 A2 B2 at A2`` as ``("Cottage", "A1 A2 B2", "A2")``."""
    head, _, target = action.rpartition(" at ")
    words = head.split()[1:]
    squares = " ".join(w for w in words if _square_index(w) >= 0)
    name = " ".join(w for w in words if _square_index(w) < 0)
    return name, squares, target


def _square_menu(svg: _Svg, x: float, y: float, right: float, groups: dict[str, list[tuple[str, str]]]) -> float:
    """One label per group, then a small button per square (``(action, square)``); returns the y below."""
    size = 12.0
    h = size + 10
    for label, targets in groups.items():
        lines = _wrap(label, size, 210)
        svg.lines(x, y + 15, lines, size)
        cx = x + 214
        y0 = y
        for action, target in targets:
            w = 34.0
            if cx + w > right:
                cx = x + 214
                y += h + 4
            inner = (
                f'<text x="{cx + w / 2:.1f}" y="{y + h / 2 + size * 0.36:.1f}" font-size="{size:g}" '
                f'font-weight="bold" text-anchor="middle">{escape(target)}</text>'
            )
            svg.button(action, cx, y, w, h, rx=4, inner=inner)
            cx += w + 4
        y = max(y + h + 6, y0 + len(lines) * size * 1.3 + 8)
    return y


def _build_groups(builds: list[str]) -> dict[str, list[tuple[str, str]]]:
    """Builds by building and pattern squares: ``Cottage ← A1 A2 B2:`` and the squares it may go on."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for action in builds:
        name, squares, target = _build_parts(action)
        groups.setdefault(f"{name} ← {squares}:", []).append((action, target))
    return groups


def _store_groups(stores: list[str]) -> dict[str, list[tuple[str, str]]]:
    """``store glass A1 take brick B1`` grouped as ``store glass on A1, take brick out to:`` and B1."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for action in stores:
        words = action.split()
        label = f"store {words[1]} on {words[2]}, take {words[4]} out to:"
        groups.setdefault(label, []).append((action, words[-1]))
    return groups


SMALL_CACHE_LIMIT = 1024
_OWN: BoundedCache[tuple[Any, ...], tuple[str, float]] = BoundedCache(SMALL_CACHE_LIMIT)
"""The focused town drawn with no legal move to show, by everything the drawing reads (:func:`_own_area`)."""


def _own_area(svg: _Svg, view: dict[str, Any], q: int, player: int | None, legal: list[str], y: float) -> float:
    """The focused town, big, with its panel; returns its bottom. Without legal moves it has no button
    and is remembered (a seat waiting for the others sees it unchanged after their decisions)."""
    if legal:
        return _draw_own_area(svg, view, q, player, legal, y)
    actors = view.get("actors") or []
    key = (
        q,
        q == player,
        y,
        repr((view.get("towns") or [])[q]),
        repr(view.get("named")),
        q in actors,
        view.get("phase"),
        view.get("master_builder") == q,
        repr(view.get("variants")),
    )
    got = _OWN.get(key)
    if got is None:
        alone = _Svg(svg.legal)
        bottom = _draw_own_area(alone, view, q, player, legal, y)
        got = _OWN.put(key, ("".join(alone.parts), bottom))
    svg.add(got[0])
    return got[1]


def _draw_own_area(svg: _Svg, view: dict[str, Any], q: int, player: int | None, legal: list[str], y: float) -> float:
    towns = view.get("towns") or []
    town: dict[str, Any] = dict(towns[q])
    town["named"] = view.get("named")
    mine = q == player
    heading = f"Player {q}" + (" — you" if mine else "")
    svg.text(MARGIN, y + 16, heading, 17, bold=True, color=HILITE)
    svg.lines(MARGIN + 12 + len(heading) * 17 * 0.6, y + 16, ["  ·  ".join(_status_words(q, town, view))], 13)
    y += 26
    builds = [a for a in legal if a.startswith("build ")] if mine else []
    # the pattern's squares, and the squares a building may go on (a Shed goes on any empty square)
    picks = frozenset(sq for a in builds for sq in [*_build_parts(a)[1].split(), _build_parts(a)[2]])
    bottom = _town(svg, MARGIN, y, BIG_CELL, town, _cell_actions(legal) if mine else None, q, picks)
    if mine and "done" in legal:  # ending your building: a big button under your town
        bottom += 8
        svg.button(
            "done",
            MARGIN + 18,
            bottom,
            4 * BIG_CELL,
            44,
            fill="#ffffff",
            rx=8,
            inner=(
                f'<text x="{MARGIN + 18 + 2 * BIG_CELL:.1f}" y="{bottom + 28:.1f}" font-size="16" font-weight="bold" '
                f'text-anchor="middle">done — end my building this round</text>'
            ),
        )
        bottom += 44
    px = MARGIN + 18 + 4 * BIG_CELL + 24
    right = WIDTH - MARGIN
    py = y + 4
    pw = right - px
    # pending decisions first: they must be settled before anything else
    pending = list(town.get("pending") or [])
    if pending and mine:
        for line in pending:
            py = svg.lines(px, py + 12, _wrap("Now: " + line, 13, pw), 13, bold=True, color=ALERT) - 12
        chooses = [(a, a[7:]) for a in legal if a.startswith("choose ") and a[7:] in RESOURCE_FILL]
        if chooses:
            cx = px
            for action, res in chooses:
                svg.button(action, cx, py + 4, 86, 36, fill="#ffffff", rx=5)
                svg.add('<g pointer-events="none">')
                svg.cube(cx + 6, py + 11, 22, res)
                svg.text(cx + 33, py + 27, res, 12)
                svg.add("</g>")
                cx += 94
            py += 48
        if any(a.startswith("choose ") and a[7:] not in RESOURCE_FILL for a in legal):
            py = svg.lines(px, py + 12, ["Click a building card above to put it on Opaleye's Watch."], 12) - 6
        if any(a.startswith("add ") for a in legal):
            hint = "Click an empty square (or a building code in it) to put that building there."
            py = svg.lines(px, py + 12, _wrap(hint, 12, pw), 12) - 6
        if any(a.startswith("swap ") for a in legal):
            hint = "Click a building code on one of your buildings: it becomes that building."
            py = svg.lines(px, py + 12, _wrap(hint, 12, pw), 12) - 6
        py += 6
    placement = town.get("placement")
    if mine and placement:
        py = svg.lines(px, py + 12, _wrap(f"Your placement (hidden until all have placed): {placement}", 12, pw), 12)
    # the monument: the secret kept one, the two dealt, or the built one
    dealt = list(town.get("dealt") or [])
    secret = town.get("monument")
    variants = list(view.get("variants") or [])
    if mine and not town.get("monument_built") and (secret or dealt):
        shown = [secret] if secret else dealt
        caption = "Your monument (secret)" if secret else "Monuments dealt to you: keep one"
        if view.get("phase") == "over":
            caption = "Your monument (not built)"
        svg.text(px, py + 14, caption, 13, bold=True)
        py += 22
        cw = min(200.0, (pw - 10) / 2)
        cards = [
            (str(m), _monument_pattern(str(m), variants), C.MONUMENTS[m].text if m in C.MONUMENTS else "")
            for m in shown
        ]
        ch = max(_card_height(cw, *card) for card in cards) + 4
        for k, (name, pattern, text) in enumerate(cards):
            _draw_card(svg, px + k * (cw + 10), py, cw, ch, name, pattern, text, f"keep {name}")
        py += ch + 10
    extras = _extras(town, mine)
    for line in extras:
        alert = line.startswith("!")
        if alert and mine:
            continue  # already at the top of the panel
        py = svg.lines(px, py + 12, _wrap(line.lstrip("! "), 12, pw), 12, color=ALERT if alert else INK) - 12
        py += 4
    if not mine:
        return max(bottom, py) + 14
    caverns = [(a, f"set {a[7:]} aside in the Cavern") for a in legal if a.startswith("cavern ")]
    swaps = [a for a in legal if a.startswith("store ") and " take " in a]
    if caverns or swaps:
        py = svg.lines(px, py + 16, ["Other ways to take the resource:"], 12, bold=True) - 10
        py = _flow_buttons(svg, px, py, right, caverns, 11.5)
        py = _square_menu(svg, px, py, right, _store_groups(swaps))
    if builds:
        hint = "Build: click the cubes of a pattern in your town, then the building and its square — or here:"
        py = svg.lines(px, py + 16, _wrap(hint, 12, pw), 12, bold=True) - 6
        py = _square_menu(svg, px, py, right, _build_groups(builds))
    return max(bottom, py) + 14


def _small_status(view: dict[str, Any], q: int, w: float) -> list[str]:
    town = (view.get("towns") or [])[q]
    return _wrap(" · ".join(_status_words(q, town, view, turn=False)), 11, w)


_SMALL: BoundedCache[tuple[Any, ...], tuple[str, float]] = BoundedCache(SMALL_CACHE_LIMIT)
"""Other players' towns as drawn by :func:`_small_town`, by everything the drawing reads."""


def _small_town(
    svg: _Svg, view: dict[str, Any], q: int, x: float, y: float, s: float, w: float, status_lines: int
) -> float:
    """Another player's town, smaller and without buttons (remembered: it is drawn the same for every
    seat but its owner's, and again after every decision until its owner plays)."""
    actors = view.get("actors") or []
    key = (
        q,
        x,
        y,
        s,
        w,
        status_lines,
        repr((view.get("towns") or [])[q]),
        repr(view.get("named")),
        q in actors,
        view.get("phase"),
        view.get("master_builder") == q,
    )
    got = _SMALL.get(key)
    if got is None:
        alone = _Svg(svg.legal)
        bottom = _draw_small_town(alone, view, q, x, y, s, w, status_lines)
        got = _SMALL.put(key, ("".join(alone.parts), bottom))
    svg.add(got[0])
    return got[1]


def _draw_small_town(
    svg: _Svg, view: dict[str, Any], q: int, x: float, y: float, s: float, w: float, status_lines: int
) -> float:
    towns = view.get("towns") or []
    town: dict[str, Any] = dict(towns[q])
    town["named"] = view.get("named")
    actors = view.get("actors") or []
    deciding = q in actors and view.get("phase") != "over"
    svg.text(x, y + 14, ("▶ " if deciding else "") + f"Player {q}", 14, bold=True, color=ALERT if deciding else INK)
    y += 20
    svg.lines(x, y + 10, _small_status(view, q, w), 11, color=MUTED)
    y += status_lines * 11 * 1.3 + 2
    bottom = _town(svg, x, y, s, town, None, q)
    ty = bottom + 4
    for line in _extras(town, False):
        ty = (
            svg.lines(x, ty + 12, _wrap(line.lstrip("! "), 11, w), 11, color=ALERT if line.startswith("!") else INK)
            - 12
        )
    return ty + 8


def render_svg(view: dict[str, Any], legal: list[str], player: int | None) -> str:
    """The table as ``player`` sees it: one ``<svg>``; legal decisions carry ``data-action``."""
    svg = _Svg(list(legal))
    towns = list(view.get("towns") or [])
    n = len(towns)
    y = _header(svg, view, player, svg.legal)
    y = _card_row(svg, view, svg.legal, y)
    focus = player if isinstance(player, int) and 0 <= player < n else (0 if n == 1 else None)
    rest = list(range(n)) if focus is None else [(focus + k) % n for k in range(1, n)]
    if focus is not None:
        y = _own_area(svg, view, focus, player, svg.legal, y)
    if rest:
        if focus is not None:
            svg.add(f'<line x1="{MARGIN}" y1="{y - 4:.1f}" x2="{WIDTH - MARGIN}" y2="{y - 4:.1f}" stroke="{LINE}"/>')
            y += 6
        per_row = len(rest) if len(rest) <= 5 else 3
        if focus is None:
            per_row = {1: 1, 2: 2, 3: 3, 4: 2}.get(len(rest), 3)
        gap = 18.0
        block = (WIDTH - 2 * MARGIN - gap * (per_row - 1)) / per_row
        s = min(64.0, (block - 22) / 4)
        for start in range(0, len(rest), per_row):
            row_bottom = y
            row = rest[start : start + per_row]
            status_lines = max(len(_small_status(view, q, block - 4)) for q in row)
            for k, q in enumerate(row):
                bx = MARGIN + k * (block + gap)
                row_bottom = max(row_bottom, _small_town(svg, view, q, bx, y, s, block - 4, status_lines))
            y = row_bottom + 8
    height = round(y + 4)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ft-board tiny-towns" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" font-family="{FONT}" font-size="13" fill="{INK}" role="group" '
        f'aria-label="Tiny Towns table">'
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>'
    )
    return "".join([head, *svg.parts, "</svg>"])
