"""Tiny Farms as an SVG picture for the browser (the ``render_svg`` hook of ``docs/web.md``).

The picture is the table: the barn wheel (eight spaces, the two animals each window shows, the
Red and Blue farmers), the dice left with a chip per farmer that moves it (``die 4 red``), the
milk buttons, the animals waiting to be written, Farmer Emma's card (solo) and every player's
red and blue farm. The viewing seat's farms come first and large. Clickable elements carry
``data-action`` with the notation exactly as in ``legal``: the farmer chips under each die, the
milk buttons, the empty farm spaces (``put``; one small chip per animal when two different animals
wait) and, solo at round end, the spaces of the named row or farm (``plant`` / ``cross``).

Everything drawn comes from the view (all of it public), so nothing can leak.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Final

from farmtable.core.memo import BoundedCache, RecentReprs
from farmtable.core.svgkit import escape, quoteattr
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring

W: Final = 760
INK: Final = "#1b1b1b"
MUTED: Final = "#5a5a5a"
PAPER: Final = "#fffdf7"
LINE: Final = "#b8b2a0"
RED: Final = "#D55E00"  # Okabe-Ito vermilion: the Red farmer and farm (always with the letter R / word "Red")
BLUE: Final = "#0072B2"  # Okabe-Ito blue: the Blue farmer and farm (always with B / "Blue")
TURN: Final = "#E69F00"  # Okabe-Ito orange: whose turn it is (always with the words "to act")
GREEN: Final = "#009E73"
CHIP: Final = "#e6f1f8"
SANS: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

ABBR: Final[dict[str, str]] = {c.NAMES[k]: v for k, v in c.ABBREVIATIONS.items()}
"""Animal name -> the rulebook abbreviation written on the farm ('sheep' -> 'S')."""
NAME_OF_ABBR: Final[dict[str, str]] = {v: c.NAMES[k] for k, v in c.ABBREVIATIONS.items()}
CODE_OF_ABBR: Final[dict[str, int]] = {v: k for k, v in c.ABBREVIATIONS.items()}

_PIG, _SHEEP, _CHICKEN, _COW, _CALF = "#f4d7e8", "#ececec", "#fbe2b0", "#cfe6f6", "#e4f2fb"
_HORSE, _FOREST, _CROP = "#f5d2bd", "#cdeadf", "#f6ef9e"
TINT: Final[dict[str, str]] = {
    "pig": _PIG,
    "sheep": _SHEEP,
    "chicken": _CHICKEN,
    "cow": _COW,
    "calves": _CALF,
    "horse": _HORSE,
    "raccoon": _FOREST,
    "eagle": _FOREST,
    "squirrel": _FOREST,
    "bear": _FOREST,
    "bunny": _FOREST,
    "crop": _CROP,
}
"""A pale fill per animal: only a help, the name or abbreviation is always written too."""

EMMA_TINT: Final[dict[str, str]] = {
    "forest friends": _FOREST,
    "sheep": _SHEEP,
    "pigs": _PIG,
    "horses": _HORSE,
    "cows": _COW,
    "calves": _CALF,
    "chickens": _CHICKEN,
}

PIPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
"""Pip positions on a 3x3 grid (column, row) for each die face."""

SPACES: Final = c.WHEEL_SPACES
UNIT: Final = tuple((math.sin(2 * math.pi * s / SPACES), -math.cos(2 * math.pi * s / SPACES)) for s in range(SPACES))
"""Direction of barn space ``s`` from the wheel's centre: space 0 at the top, clockwise."""
EDGE: Final = tuple(
    (math.sin(2 * math.pi * (s - 0.5) / SPACES), -math.cos(2 * math.pi * (s - 0.5) / SPACES)) for s in range(SPACES)
)
"""Direction of the boundary before space ``s`` (the wedge of ``s`` runs from EDGE[s] to EDGE[s+1])."""


def _t(
    x: float, y: float, text: str, size: float = 12, *, fill: str = INK, anchor: str = "start", bold: bool = False
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}"{anchor_attr}{weight}>{escape(text)}</text>'


def _fit(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _chip(
    x: float, y: float, w: float, h: float, label: str, action: str, *, fill: str = CHIP, size: float = 11
) -> str:
    """A clickable rounded button carrying ``action``."""
    return (
        f'<g class="ft-action" data-action={quoteattr(action)} role="button" tabindex="0">'
        f"<title>{escape(action)}</title>"
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{min(h / 2, 6):.1f}" fill="{fill}" '
        f'stroke="{BLUE}" stroke-width="1.3"/>'
        + _t(x + w / 2, y + h / 2 + size * 0.36, label, size, fill=INK, anchor="middle", bold=True)
        + "</g>"
    )


def _destination(start: int, steps: int, other: int) -> int:
    """Where a farmer moving ``steps`` clockwise ends (one further if on the other farmer's space)."""
    end = (start + steps) % SPACES
    return (end + 1) % SPACES if end == other else end


# --- the barn wheel ---------------------------------------------------------------------------


def _wheel(view: dict[str, Any], cx: float, cy: float, radius: float) -> str:
    """The barn wheel (cached: it changes only when a farmer moves or the top wheel turns)."""
    wheel = view.get("wheel") or {}
    spaces = wheel.get("spaces") or []
    key = (wheel.get("rotation"), wheel.get("red"), wheel.get("blue"), tuple(tuple(s) for s in spaces), cx, cy, radius)
    cached = _WHEELS.get(key)
    if cached is None:
        cached = _WHEELS.put(key, "".join(_wheel_parts(wheel, cx, cy, radius)))
    return cached


def _wheel_parts(wheel: dict[str, Any], cx: float, cy: float, radius: float) -> list[str]:
    spaces: list[list[str]] = wheel.get("spaces") or []
    red, blue = wheel.get("red"), wheel.get("blue")
    out = [f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius + 4:.1f}" fill="#e9e1cc" stroke="{LINE}"/>']
    for s in range(min(SPACES, len(spaces))):
        (x1, y1), (x2, y2) = EDGE[s], EDGE[(s + 1) % SPACES]
        owner = RED if s == red else BLUE if s == blue else ""
        fill = "#fbe9de" if s == red else "#dcebf6" if s == blue else ("#fbf7ec" if s % 2 == 0 else "#f3ecdb")
        stroke = f'stroke="{owner}" stroke-width="3"' if owner else f'stroke="{LINE}" stroke-width="1"'
        out.append(
            f'<path d="M{cx:.1f},{cy:.1f} L{cx + radius * x1:.1f},{cy + radius * y1:.1f} '
            f'A{radius:.0f},{radius:.0f} 0 0 1 {cx + radius * x2:.1f},{cy + radius * y2:.1f} Z" '
            f'fill="{fill}" {stroke} stroke-linejoin="round"/>'
        )
    for s in range(min(SPACES, len(spaces))):
        ux, uy = UNIT[s]
        px, py = cx + (radius - 17) * ux, cy + (radius - 17) * uy
        out.append(_t(px, py + 4, str(s), 11, fill=MUTED, anchor="middle", bold=True))
        mx, my = cx + radius * 0.62 * ux, cy + radius * 0.62 * uy
        for k, animal in enumerate(spaces[s][:2]):
            top = my - 18 + k * 19
            out.append(
                f'<rect x="{mx - 30:.1f}" y="{top:.1f}" width="60" height="17" rx="4" '
                f'fill="{TINT.get(animal, "#ffffff")}" stroke="#8a8370" stroke-width="0.8"/>'
                + _t(mx, top + 12.5, animal, 11, anchor="middle")
            )
    hub = radius * 0.3
    out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{hub:.1f}" fill="#fffdf7" stroke="{LINE}"/>')
    out.append(_t(cx, cy - 4, "top wheel", 10, fill=MUTED, anchor="middle"))
    out.append(_t(cx, cy + 10, f"turned {wheel.get('rotation', 0)}", 11, anchor="middle", bold=True))
    for space, colour, letter, word in ((red, RED, "R", "Red"), (blue, BLUE, "B", "Blue")):
        if not isinstance(space, int) or not 0 <= space < SPACES:
            continue
        ux, uy = UNIT[space]
        fx, fy = cx + (radius + 20) * ux, cy + (radius + 20) * uy
        out.append(
            f"<g><title>{word} farmer on space {space}</title>"
            f'<circle cx="{fx:.1f}" cy="{fy:.1f}" r="14" fill="{colour}" stroke="#ffffff" stroke-width="2"/>'
            + _t(fx, fy + 5, letter, 14, fill="#ffffff", anchor="middle", bold=True)
            + "</g>"
        )
    return out


# --- dice, milk, collected animals, crops, Emma -------------------------------------------------


@lru_cache(maxsize=256)
def _die(x: float, y: float, value: int, size: float = 40) -> str:
    pips = "".join(
        f'<circle cx="{x + size * (0.25 + 0.25 * col):.1f}" cy="{y + size * (0.25 + 0.25 * row):.1f}" '
        f'r="{size * 0.08:.1f}" fill="{INK}"/>'
        for col, row in PIPS.get(value, ())
    )
    label = "" if value in PIPS else _t(x + size / 2, y + size / 2 + 5, str(value), 14, anchor="middle", bold=True)
    return (
        f'<g><title>die showing {value}</title><rect x="{x:.1f}" y="{y:.1f}" width="{size}" height="{size}" rx="7" '
        f'fill="#ffffff" stroke="{INK}" stroke-width="1.5"/>{pips}{label}</g>'
    )


RECENT_PARTS: Final = 16
_RECENT = RecentReprs(RECENT_PARTS)


def _recent_repr(part: object) -> str:
    """``repr(part)``, the key of a drawing remembered of it, found again by equality among the last parts
    seen (each seat's view brings its own equal copy of every part: :class:`RecentReprs`)."""
    return _RECENT.key(part)


PANEL_CACHE_LIMIT: Final = 1024
_PANELS: BoundedCache[tuple[Any, ...], tuple[list[str], float]] = BoundedCache(PANEL_CACHE_LIMIT)
"""Right-hand columns without chips, by everything they show: the same for every seat with no decision
to make (a spectator, a waiting player), so drawn once per position."""


def _panel(
    view: dict[str, Any], legal: set[str], player: int | None, x: float, y: float, width: float
) -> tuple[list[str], float]:
    """The right-hand column: dice and farmer chips, milk, collected animals or crop, Emma's card.
    Without chips (``legal`` empty) it is remembered by what it shows."""
    if legal:
        return _draw_panel(view, legal, player, x, y, width)
    to_act = view.get("to_act") or []
    shown = (
        view.get("wheel"),
        view.get("milk_change"),
        view.get("dice"),
        view.get("phase"),
        view.get("collected"),
        view.get("collected_for"),
        to_act,
        view.get("crop"),
        view.get("emma"),
    )
    key = (x, y, width, bool(to_act) and to_act[0] == player, _recent_repr(shown))
    cached = _PANELS.get(key)
    if cached is None:
        cached = _PANELS.put(key, _draw_panel(view, legal, player, x, y, width))
    return cached


def _draw_panel(
    view: dict[str, Any], legal: set[str], player: int | None, x: float, y: float, width: float
) -> tuple[list[str], float]:
    """:func:`_panel` drawn."""
    out: list[str] = []
    wheel = view.get("wheel") or {}
    red, blue = wheel.get("red", 0), wheel.get("blue", 0)
    change = int(view.get("milk_change") or 0)
    dice: list[int] = [d for d in view.get("dice") or [] if isinstance(d, int)]
    phase = view.get("phase")
    heading = "Dice left" if dice else "Dice: all used"
    if change:
        heading += f"  (milk change {change:+d}: each move {change:+d})"
    if phase != "over":
        out.append(_t(x, y + 14, heading, 13, bold=True))
        y += 24
    if dice:
        any_chip = False
        for i, value in enumerate(dice):
            dx = x + i * 66
            out.append(_die(dx + 11, y, value))
            if value in dice[:i]:  # one chip per notation: a second die showing the same number moves the same
                if f"die {value} red" in legal or f"die {value} blue" in legal:
                    out.append(_t(dx + 31, y + 62, "same as", 10, fill=MUTED, anchor="middle"))
                    out.append(_t(dx + 31, y + 75, "the left", 10, fill=MUTED, anchor="middle"))
                continue
            for k, (farm, start, other, letter) in enumerate((("red", red, blue, "R"), ("blue", blue, red, "B"))):
                action = f"die {value} {farm}"
                if action in legal:
                    any_chip = True
                    end = _destination(start, value + change, other)
                    out.append(_chip(dx, y + 46 + k * 24, 62, 20, f"{letter} → {end}", action))
        y += 46 + (50 if any_chip else 4)
        if any_chip:
            out.append(_t(x, y + 10, "R → 5: move the Red farmer to space 5; B: the Blue farmer", 11, fill=MUTED))
            y += 18
    milk_actions = [a for a in ("milk +1", "milk -1") if a in legal]
    if milk_actions:
        out.append(_t(x, y + 15, "Spend a milk:", 12))
        for k, action in enumerate(milk_actions):
            label = "+1 to the die" if action.endswith("+1") else "−1 from the die"
            if phase == "crop":
                label = "+1 to the number" if action.endswith("+1") else "−1 from the number"
            out.append(_chip(x + 90 + k * 128, y, 122, 22, label, action))
        y += 30
    collected: list[str] = view.get("collected") or []
    if collected:
        farm = str(view.get("collected_for") or "")
        to_act = view.get("to_act") or []
        who = "you" if to_act and to_act[0] == player else f"player {to_act[0]}" if to_act else "?"
        y += 6
        out.append(_t(x, y + 14, f"Collected with the {farm.capitalize()} farmer ({who}):", 12, bold=True))
        y += 22
        cx = x
        for animal in collected:
            label = f"{ABBR.get(animal, '?')} = {animal}"
            w = 16 + 6.6 * len(label)
            out.append(
                f'<rect x="{cx:.1f}" y="{y:.1f}" width="{w:.1f}" height="22" rx="5" fill="{TINT.get(animal, "#fff")}" '
                f'stroke="#8a8370"/>' + _t(cx + w / 2, y + 15.5, label, 12, anchor="middle", bold=True)
            )
            cx += w + 8
        y += 28
        out.append(_t(x, y + 12, f"write each into an empty space of the {farm} farm", 11, fill=MUTED))
        y += 20
    crop = view.get("crop")
    if isinstance(crop, dict):
        y += 6
        out.append(_t(x, y + 14, f"Round end: plant a crop in {crop.get('place', '?')}", 12, bold=True))
        out.append(
            _t(
                x,
                y + 30,
                f"leftover die {crop.get('die', '?')}, number {crop.get('value', '?')} "
                "(1–4 a row, 5 red farm, 6 blue farm)",
                11,
                fill=MUTED,
            )
        )
        if any(a.startswith("cross ") for a in legal):
            out.append(_t(x, y + 46, "no empty space there: cross one out", 11, fill=RED))
            y += 16
        y += 40
    emma = view.get("emma")
    if isinstance(emma, dict):
        y += 8
        out.extend(_emma(emma, x, y, width, over=phase == "over"))
        y += 54 + 19 * len(emma.get("tracks") or {}) + 6
    return out, y


_EMMAS: BoundedCache[tuple[Any, ...], str] = BoundedCache(PANEL_CACHE_LIMIT)
"""Farmer Emma's card drawn, by what it shows and where (the same for every seat)."""


def _emma(emma: dict[str, Any], x: float, y: float, width: float, *, over: bool) -> list[str]:
    """Farmer Emma's card (her level, target and tracks) at (``x``, ``y``), remembered by what it shows."""
    key = (_recent_repr(emma), x, y, width, over)
    drawn = _EMMAS.get(key)
    if drawn is None:
        drawn = _EMMAS.put(key, "".join(_draw_emma(emma, x, y, width, over=over)))
    return [drawn]


def _draw_emma(emma: dict[str, Any], x: float, y: float, width: float, *, over: bool) -> list[str]:
    """:func:`_emma`, drawn."""
    level = str(emma.get("difficulty") or "") + (", advanced" if emma.get("advanced") else "")
    target = emma.get("target") or 0
    first = "Emma moves first this round" if emma.get("goes_first") else "you move first this round"
    if over:
        first = "her card at the end"
    out = [
        f'<rect x="{x - 6:.1f}" y="{y:.1f}" width="{width:.1f}" height="{48 + 19 * len(emma.get("tracks") or {}):.1f}" '
        f'rx="8" fill="#f7f4fb" stroke="#CC79A7"/>',
        _t(x, y + 16, f"Farmer Emma ({level})", 12, bold=True),
        _t(x, y + 32, f"{first}; target {target or '—'} = {emma.get('target_animal') or '—'}", 11, fill=MUTED),
    ]
    y += 44
    for t, (name, pair) in enumerate((emma.get("tracks") or {}).items()):
        filled, cap = (int(pair[0]), int(pair[1])) if isinstance(pair, list | tuple) and len(pair) == 2 else (0, 0)
        die = str(t + 1) if t < c.EMMA_DIE_TRACKS else "—"
        is_target = t + 1 == target
        row_y = y + t * 19
        if is_target:
            out.append(
                f'<rect x="{x - 2:.1f}" y="{row_y - 2:.1f}" width="{width - 8:.1f}" height="18" rx="4" '
                f'fill="none" stroke="{TURN}" stroke-width="2"/>'
            )
        label = ("▶ " if is_target else "") + f"{die} {name}"
        out.append(_t(x + 2, row_y + 11, label, 11, bold=is_target))
        tint = EMMA_TINT.get(str(name), "#dddddd")
        for k in range(cap):
            ccx = x + 150 + k * 14 + (6 if k >= 5 and cap == 10 else 0)
            full = k < filled
            out.append(
                f'<circle cx="{ccx:.1f}" cy="{row_y + 7:.1f}" r="5.5" fill="{tint if full else "#ffffff"}" '
                f'stroke="{INK if full else "#9a9a9a"}" stroke-width="{1.2 if full else 0.8}"/>'
            )
            if full:
                out.append(
                    f'<path d="M{ccx - 3:.1f},{row_y + 4:.1f} L{ccx + 3:.1f},{row_y + 10:.1f} '
                    f'M{ccx + 3:.1f},{row_y + 4:.1f} L{ccx - 3:.1f},{row_y + 10:.1f}" '
                    f'stroke="{INK}" stroke-width="1.2"/>'
                )
        out.append(_t(x + width - 14, row_y + 11, f"{filled}/{cap}", 10, fill=MUTED, anchor="end"))
    return out


# --- the farms ----------------------------------------------------------------------------------


CACHE_LIMIT: Final = 4096
_FARMS: BoundedCache[tuple[str, float, tuple[tuple[str, ...], ...]], str] = BoundedCache(CACHE_LIMIT)
"""Drawn farms nobody can click, by content: the same farms are drawn for every seat on every decision."""
_WHEELS: BoundedCache[tuple[Any, ...], str] = BoundedCache(CACHE_LIMIT)
_MARKS: BoundedCache[tuple[str, float, tuple[tuple[str, ...], ...]], str] = BoundedCache(CACHE_LIMIT)
"""A farm's invisible space outlines (``data-cell``, ``data-content``), by the same key as :data:`_FARMS`."""


def _farm(
    rows: list[list[str]],
    letter: str,
    x: float,
    y: float,
    cell: float,
    legal: set[str],
    collected: list[str],
    highlight: set[str],
    board: int | None = None,
) -> str:
    """One farm, drawn at its place (cached when none of its spaces is clickable or highlighted).

    With ``board`` (the farm's player) every space also gets an invisible outline with ``data-cell``
    and ``data-content``: the page outlines the spaces each player's last decision changed."""
    key = (letter, cell, tuple(tuple(str(m) for m in row) for row in rows))
    if highlight or any(a[-4] == letter and a[-3] == "-" for a in legal if len(a) > 5):
        body = _farm_body(rows, letter, cell, legal, collected, highlight)
    else:
        cached = _FARMS.get(key)
        if cached is None:
            cached = _FARMS.put(key, _farm_body(rows, letter, cell, set(), [], set()))
        body = cached
    if board is None:
        return f'<g transform="translate({x:.1f},{y:.1f})">{body}</g>'
    marks = _MARKS.get(key)
    if marks is None:
        heads, tails = _mark_parts(letter, cell)
        marks = _MARKS.put(
            key,
            "".join(
                heads[r][col] + quoteattr(row[col]) + tails[r][col]
                for r, row in enumerate(key[2][:4])
                for col in range(min(4, len(row)))
            ),
        )
    return f'<g transform="translate({x:.1f},{y:.1f})" data-board="{board}">{body}{marks}</g>'


@lru_cache(maxsize=16)
def _mark_parts(letter: str, cell: float) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """The fixed text of farm ``letter``'s space outlines, before and after each space's ``data-content``
    value (``[row][column]``), for spaces of ``cell`` units."""
    heads = tuple(
        tuple(
            f'<rect class="ft-cell" data-cell="{letter}-{c.COLUMN_LETTERS[col]}{r + 1}" data-content='
            for col in range(4)
        )
        for r in range(4)
    )
    tails = tuple(
        tuple(
            f' x="{col * cell + 1:.1f}" y="{TOP + r * cell + 1:.1f}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" '
            'fill="none" pointer-events="none"/>'
            for col in range(4)
        )
        for r in range(4)
    )
    return heads, tails


_FRAMES: dict[tuple[str, float], str] = {}
_CELLS: BoundedCache[tuple[str, int, int, float, bool], tuple[str, str]] = BoundedCache(CACHE_LIMIT)
TOP: Final = 28
"""Where a farm's spaces start below its title and column letters."""


def _frame(letter: str, cell: float) -> str:
    """A farm's title, column letters, row numbers and border (cached)."""
    key = (letter, cell)
    cached = _FRAMES.get(key)
    if cached is not None:
        return cached
    colour, word = (RED, "Red farm") if letter == "R" else (BLUE, "Blue farm")
    size = cell * 4
    small = cell < 40
    out = [_t(size / 2, 12, f"{word} ({letter})", 11 if small else 12, fill=colour, anchor="middle", bold=True)]
    for i in range(4):
        out.append(
            _t(i * cell + cell / 2, TOP - 4, c.COLUMN_LETTERS[i], 9 if small else 10, fill=MUTED, anchor="middle")
        )
        out.append(_t(-8, TOP + i * cell + cell / 2 + 4, str(i + 1), 9 if small else 10, fill=MUTED, anchor="middle"))
    out.append(
        f'<rect x="-2" y="{TOP - 2}" width="{size + 4:.1f}" height="{size + 4:.1f}" rx="4" '
        f'fill="none" stroke="{colour}" stroke-width="2.5"/>'
    )
    _FRAMES[key] = cached = "".join(out)
    return cached


def _cell(mark: str, col: int, r: int, cell: float, lit: bool) -> tuple[str, str]:
    """One farm space (its square, and what is written in it), cached."""
    key = (mark, col, r, cell, lit)
    cached = _CELLS.get(key)
    if cached is not None:
        return cached
    cx, cy = col * cell, TOP + r * cell
    animal = NAME_OF_ABBR.get(mark, "")
    rect = (
        f'<rect x="{cx + 1:.1f}" y="{cy + 1:.1f}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" rx="3" '
        f'fill="{TINT.get(animal, "#ffffff")}" stroke="{TURN if lit else LINE}" stroke-width="{2 if lit else 1}"/>'
    )
    inner = ""
    if mark == "x":
        inner = (
            f'<path d="M{cx + 6:.1f},{cy + 6:.1f} L{cx + cell - 6:.1f},{cy + cell - 6:.1f} '
            f'M{cx + cell - 6:.1f},{cy + 6:.1f} L{cx + 6:.1f},{cy + cell - 6:.1f}" stroke="{MUTED}" '
            f'stroke-width="1.5"/>'
        )
    elif mark != ".":
        if cell < 40:
            inner = _t(cx + cell / 2, cy + cell / 2 + 4, mark, 10.5, anchor="middle", bold=True)
        else:
            size = 15 if len(mark) <= 4 else 12  # 'FF-bu' must stay inside its space
            inner = _t(cx + cell / 2, cy + cell / 2 + 1, mark, size, anchor="middle", bold=True) + _t(
                cx + cell / 2, cy + cell - 6, animal, 9, fill=MUTED, anchor="middle"
            )
    cached = _CELLS.put(key, (rect, inner))
    return cached


def _button(action: str, body: str) -> str:
    return (
        f'<g class="ft-action" data-action={quoteattr(action)} role="button" tabindex="0">'
        f"<title>{escape(action)}</title>{body}</g>"
    )


def _farm_body(
    rows: list[list[str]],
    letter: str,
    cell: float,
    legal: set[str],
    collected: list[str],
    highlight: set[str],
) -> str:
    """One 4x4 farm at the origin; the spaces standing for a legal action carry it."""
    out = [_frame(letter, cell)]
    animals = list(dict.fromkeys(collected))
    for r in range(4):
        row = rows[r] if r < len(rows) else []
        for col in range(4):
            mark = str(row[col]) if col < len(row) else "."
            name = f"{letter}-{c.COLUMN_LETTERS[col]}{r + 1}" if legal or highlight else ""
            rect, inner = _cell(mark, col, r, cell, name in highlight)
            if not legal:
                out.append(rect + inner)
                continue
            cx, cy = col * cell, TOP + r * cell
            if f"plant {name}" in legal:
                hint = _t(cx + cell / 2, cy + cell / 2 + 4, "+crop", 10, fill=MUTED, anchor="middle")
                out.append(_button(f"plant {name}", rect + inner + hint))
                continue
            if f"cross {name}" in legal:  # the space may hold an animal: the hint goes above its letters
                hint = _t(cx + cell / 2, cy + 11, "× cross", 9, fill=RED, anchor="middle")
                out.append(_button(f"cross {name}", rect + inner + hint))
                continue
            puts = [(a, f"put {a} {name}") for a in animals if f"put {a} {name}" in legal]
            if len(puts) == 1:
                animal_name, action = puts[0]
                ghost = _t(
                    cx + cell / 2, cy + cell / 2 + 5, ABBR.get(animal_name, "?"), 14, fill="#b0a890", anchor="middle"
                )
                out.append(_button(action, rect + ghost))
            elif puts:  # two different animals: one small chip per animal in the space
                out.append(rect)
                h = (cell - 6) / len(puts)
                for k, (animal_name, action) in enumerate(puts):
                    label = ABBR.get(animal_name, "?")
                    tint = TINT.get(animal_name, CHIP)
                    size = 10 if cell < 40 else 11
                    out.append(_chip(cx + 3, cy + 3 + k * h, cell - 6, h - 2, label, action, fill=tint, size=size))
            else:
                out.append(rect + inner)
    return "".join(out)


def _area_size(cell: float) -> tuple[float, float]:
    """Width and height of a player's area with farm spaces of ``cell`` units."""
    return 16 + 4 * cell + 30 + 16 + 4 * cell + 12 + (0 if cell >= 40 else 26), 36 + 28 + 4 * cell + 12


AREA_CACHE_LIMIT: Final = 1024
_AREAS: BoundedCache[tuple[Any, ...], tuple[list[str], float, float]] = BoundedCache(AREA_CACHE_LIMIT)
"""Player areas without buttons or highlights, by everything they show (see :func:`_player_area`)."""
"""Entries of :data:`_AREAS` (a few KB each) before it is emptied: a bound on a server's memory."""


def _player_area(
    view: dict[str, Any],
    p: int,
    player: int | None,
    legal: set[str],
    x: float,
    y: float,
    cell: float,
    totals: list[int],
) -> tuple[list[str], float, float]:
    """A player's name, milk and two farms; returns the parts, width and height. An area with nothing to
    click or highlight (every one but that of the seat deciding) is remembered by what it shows."""
    acting = p in (view.get("to_act") or [])
    if (acting and isinstance(view.get("crop"), dict)) or (p == player and any(a[-3:-2] == "-" for a in legal)):
        return _draw_player_area(view, p, player, legal, x, y, cell, totals)
    key = (
        p,
        p == player,
        "emma" in view,
        acting,
        view.get("start_player") == p,
        repr(totals[p]) if p < len(totals) else None,
        x,
        y,
        cell,
        _recent_repr((view.get("players") or [])[p]),
    )
    got = _AREAS.get(key)
    if got is None:
        parts, width, height = _draw_player_area(view, p, player, set(), x, y, cell, totals)
        got = _AREAS.put(key, (["".join(parts)], width, height))
    return got


def _draw_player_area(
    view: dict[str, Any],
    p: int,
    player: int | None,
    legal: set[str],
    x: float,
    y: float,
    cell: float,
    totals: list[int],
) -> tuple[list[str], float, float]:
    """:func:`_player_area`, drawn."""
    data = (view.get("players") or [])[p]
    solo = "emma" in view
    acting = p in (view.get("to_act") or [])
    name = "You" if solo else f"Player {p}" + (" (you)" if p == player else "")
    width, height = _area_size(cell)
    out = [
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" rx="10" '
        f'fill="{"#fff7e6" if acting else "#ffffff"}" stroke="{TURN if acting else LINE}" '
        f'stroke-width="{3 if acting else 1}"/>'
    ]
    out.append(_t(x + 12, y + 22, name, 14 if cell >= 40 else 13, bold=True))
    tags = []
    if acting:
        tags.append("▶ to act")
    if p < len(totals):
        tags.append(f"final score {totals[p]}")
    elif not solo and view.get("start_player") == p:
        tags.append("start player")
    if tags:
        out.append(
            _t(
                x + 12 + (9 if cell >= 40 else 8) * len(name) + 8,
                y + 22,
                " · ".join(tags),
                12 if cell >= 40 else 11,
                fill="#8a5a00" if acting else MUTED,
                bold=acting,
            )
        )
    milk = int(data.get("milk") or 0)
    mx = x + width - 12 - c.START_MILK * 20
    out.append(_t(mx - 6, y + 22, f"milk {milk}", 11, fill=MUTED, anchor="end"))
    for k in range(max(c.START_MILK, milk)):
        full = k < milk
        out.append(
            f'<circle cx="{mx + 8 + k * 20:.1f}" cy="{y + 18:.1f}" r="8" fill="{"#ffffff" if full else "none"}" '
            f'stroke="{"#56B4E9" if full else "#c8c8c8"}" stroke-width="{2.5 if full else 1}" '
            f'stroke-dasharray="{"none" if full else "2 2"}"/>'
            + (_t(mx + 8 + k * 20, y + 22, "M", 9, fill="#0072B2", anchor="middle", bold=True) if full else "")
        )
    collected: list[str] = view.get("collected") or [] if acting else []
    highlight: set[str] = set()
    crop = view.get("crop")
    if acting and isinstance(crop, dict):
        value = crop.get("value")
        if value == c.SOLO_RED_FARM_VALUE:
            highlight = {f"R-{col}{r}" for col in c.COLUMN_LETTERS for r in range(1, 5)}
        elif value == c.SOLO_BLUE_FARM_VALUE:
            highlight = {f"B-{col}{r}" for col in c.COLUMN_LETTERS for r in range(1, 5)}
        elif isinstance(value, int):
            highlight = {f"{f}-{col}{value}" for f in "RB" for col in c.COLUMN_LETTERS}
    mine = {a for a in legal if a[-3:-2] == "-"} if p == player else set()  # the actions naming a space
    fy = y + 34
    out.append(_farm(data.get("red") or [], "R", x + 22, fy, cell, mine, collected, highlight, p))
    out.append(_farm(data.get("blue") or [], "B", x + 22 + 4 * cell + 40, fy, cell, mine, collected, highlight, p))
    return out, width, height


def _board_codes(data: dict[str, Any]) -> list[int]:
    """A player's two farms from the view, as the scoring module's cell codes (red first)."""
    codes: list[int] = []
    for farm in ("red", "blue"):
        for row in data.get(farm) or []:
            codes += [CODE_OF_ABBR.get(str(mark), c.EMPTY) for mark in row]
    return codes


_FINALS: BoundedCache[str, tuple[str, list[int]]] = BoundedCache(PANEL_CACHE_LIMIT)
"""The game-over banner and totals, by the ``repr`` of the players and Emma's card they are counted from."""


def _final_scores(view: dict[str, Any]) -> tuple[str, list[int]]:
    """Game over: the final scores, recomputed from the public farms, milk and Emma's card (remembered by
    what they are counted from: every seat's picture shows the same)."""
    key = _recent_repr((view.get("players"), view.get("emma")))
    got = _FINALS.get(key)
    if got is None:
        got = _FINALS.put(key, _count_final_scores(view))
    return got[0], list(got[1])


def _count_final_scores(view: dict[str, Any]) -> tuple[str, list[int]]:
    """:func:`_final_scores`, counted."""
    players: list[dict[str, Any]] = view.get("players") or []
    boards = [_board_codes(p) for p in players]
    milk = [int(p.get("milk") or 0) for p in players]
    if any(len(b) != c.BOARD_CELLS for b in boards) or not players:
        return "Game over", []
    emma = view.get("emma")
    if isinstance(emma, dict):
        tracks = emma.get("tracks") or {}
        filled = [int((tracks.get(name) or [0])[0]) for name, _, _ in c.EMMA_TRACKS]
        result = scoring.score_solo(boards[0], milk[0], filled, str(emma.get("difficulty") or ""))
        outcome = {"win": "you win", "loss": "Emma wins", "tie": "a tie"}.get(str(result.details["outcome"]), "")
        return (
            f"Game over — you {result.totals[0]}, Farmer Emma {result.details['emma_total']}: {outcome}",
            result.totals,
        )
    result = scoring.score_players(boards, milk)
    names = " and ".join(f"player {p}" for p in result.winners)
    verb = "wins" if len(result.winners) == 1 else "share first place"
    return f"Game over — {names} {verb}", result.totals


# --- the whole picture ---------------------------------------------------------------------------


def render_svg(view: dict[str, Any], legal: list[str], player: int | None) -> str:
    """The table as one ``<svg>``; the elements standing for a legal decision carry ``data-action``."""
    legal_set = set(legal)
    solo = "emma" in view
    players: list[dict[str, Any]] = view.get("players") or []
    over = view.get("phase") == "over"
    to_act: list[int] = view.get("to_act") or []
    parts: list[str] = []

    title = f"Tiny Farms — round {view.get('round', '?')} of {view.get('rounds', '?')}"
    if solo:
        title += " · solo against Farmer Emma"
    if over:
        status = "Game over"
    elif to_act:
        who = to_act[0]
        status = "Your turn" if who == player else f"Player {who} to act"
        if view.get("phase") == "crop":
            status += ": round end, plant a crop"
        elif view.get("phase") == "place":
            status += ": write the animals into the farm"
        else:
            status += ": pick a die and a farmer"
    else:
        status = ""
    parts.append(_t(12, 24, title, 16, bold=True))
    if status:
        colour = "#8a5a00" if not over else RED
        parts.append(_t(12, 46, ("▶ " if not over else "") + status, 13, fill=colour, bold=True))

    radius = 150.0
    cx, cy = 12 + radius + 34, 56 + radius + 34
    parts.append(_wheel(view, cx, cy, radius))
    parts.append(_t(cx, cy + radius + 44, "Barn wheel: farmers move clockwise", 11, fill=MUTED, anchor="middle"))
    panel_x = cx + radius + 46
    panel, panel_bottom = _panel(view, legal_set, player, panel_x, 60, W - panel_x - 8)
    parts.extend(panel)
    y = max(cy + radius + 56, panel_bottom + 10)

    totals: list[int] = []
    if over:
        banner, totals = _final_scores(view)
        parts.append(
            f'<rect x="12" y="{y:.1f}" width="{W - 24}" height="30" rx="8" fill="#fbe9de" stroke="{RED}"/>'
            + _t(W / 2, y + 20, banner, 13, anchor="middle", bold=True)
        )
        y += 40

    order = list(range(len(players)))
    if player is not None and 0 <= player < len(players):
        order = order[player:] + order[:player]
    big = (player is not None and 0 <= player < len(players)) or solo
    row_h = 0.0
    x = 12.0
    for i, p in enumerate(order):
        cell = 50.0 if big and i == 0 else 33.0
        w, h = _area_size(cell)
        if x > 12 and x + w > W - 8:
            x, y = 12.0, y + row_h + 12
            row_h = 0.0
        area, w, h = _player_area(view, p, player, legal_set, x, y, cell, totals)
        parts += area
        row_h = max(row_h, h)
        if big and i == 0:
            x, y, row_h = 12.0, y + h + 12, 0.0
        else:
            x += w + 12
    y += row_h + 8

    events: list[str] = [str(e) for e in view.get("events") or []][-3:]
    if events:
        parts.append(_t(12, y + 14, "Recent", 12, bold=True))
        for k, event in enumerate(events):
            parts.append(_t(70, y + 14 + k * 17, _fit(event, 110), 11, fill=MUTED))
        y += 17 * len(events) + 8
    height = y + 6
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ft-board" viewBox="0 0 {W} {height:.0f}" width="100%" '
        f'font-family="{SANS}" role="group" aria-label="Tiny Farms table">'
        f'<rect width="{W}" height="{height:.0f}" fill="{PAPER}"/>'
    )
    return "".join([head, *parts, "</svg>"])
