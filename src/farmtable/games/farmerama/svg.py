"""Farmerama drawn as SVG for the browser (the ``render_svg`` hook of ``docs/web.md``).

The picture shows what ``render_text`` shows, laid out like the table: on top the action wheel
(a dial of its 8 sections with the current Sow/Harvest/Water numbers), the general supply, the
two face-up ornamental buildings (or, solo, the card stacks and tokens) and the viewing seat's
five action cards; below, one round farmland per player (the viewing seat's first and outlined).
Each farmland is drawn as the board: seven pie areas A0..A6 (clockwise from the top) divided by
rivers, each with its beds (a square per bed, a plant tile letter pair when sown, a little
scarecrow on an empty scarecrow bed) and its pasture (two round slots); around it the player
wheel, whose sector over each area says what may be done there, and the bar. Beside it the
stable, the barn, the product tracks (0..12), the ornamental garden and the stars the board
would score now.

Clickable (``data-action``, only for notations in ``legal``): empty beds (``sow``), sown beds
under a harvest sector (``harvest``), stable animals (``feed``), the wheel hub (``turn-wheel``),
the seat's action cards (``card``/``start``; the current Water card does ``water``), the face-up
buildings (``take``), the supply tiles (``gain``, solo ``token``), the solo action stack
(``redraw``), the barn's water (``pay-water``) and a button row for ``done`` and the like.

Everything is read from the view (never from a state), so nothing hidden can be drawn.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Final

from farmtable.core.memo import BoundedCache, RecentReprs
from farmtable.core.svgkit import escape, quoteattr
from farmtable.games.farmerama.components import BUILDING_INDEX, BUILDINGS, FEED_COST, PRODUCT_VALUE, SOLO_TURNS
from farmtable.games.farmerama.scoring import ScoreInput, score, score_sheet

W = 820
"""Width of the drawing in SVG units (the page scales it to its column)."""
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
INK = "#1b1b1b"
MUTED = "#5b5b5b"
LINE = "#b8b2a0"
PAPER = "#fffdf7"
BLUE = "#0072B2"
ORANGE = "#E69F00"
SKY = "#56B4E9"
GREEN = "#009E73"
YELLOW = "#F0E442"
PURPLE = "#CC79A7"
SOIL = "#efe3c8"
GRASS = "#dcefd9"
EARTH = "#8a6a3a"

GOOD_NAMES = ("carrots", "hay", "oats", "corn", "water")
GOOD_FILL = {"carrots": ORANGE, "hay": GREEN, "oats": PURPLE, "corn": YELLOW, "water": SKY}
GOOD_INK = {"carrots": INK, "hay": "#ffffff", "oats": INK, "corn": INK, "water": INK}
GOOD_ABBR = {"carrots": "Ca", "hay": "Hy", "oats": "Oa", "corn": "Co", "water": "W"}
ANIMAL_NAMES = ("sheep", "pig", "cow", "horse")
ANIMAL_ABBR = {"sheep": "Sh", "pig": "Pg", "cow": "Cw", "horse": "Hr"}
PRODUCT_KEYS = ("wool", "truffles", "milk", "riding_lessons")
PRODUCT_LABEL = {"wool": "wool", "truffles": "truffles", "milk": "milk", "riding_lessons": "riding"}
CARD_NAMES = ("sow", "harvest", "water", "feed", "seed-store")
CARD_LABEL = {"sow": "Sow", "harvest": "Harvest", "water": "Water", "feed": "Feed", "seed-store": "Seed store"}
CARD_ICON = {"sow": "S", "harvest": "H", "water": "W", "feed": "F", "seed-store": "$"}
PHASE_TEXT = {
    "choose": "Phase 1: choose action cards",
    "award": "Phase 2: ornamental buildings",
    "act": "Phase 3: carry out actions",
    "solo-pick": "Solo: pick this turn's action",
    "over": "Game over",
}
BUTTON_ACTIONS = ("water", "pay-water", "turn-wheel", "redraw", "done")
"""Simple decisions also drawn as a row of buttons under the action cards."""

AREAS = 7
SLICE = 2 * math.pi / AREAS
FARM_R = 150.0
"""Outer radius of a farmland (the player wheel ring is its outer band)."""
RING_IN = 120.0
HUB_R = 24.0
BED_R = 99.0
BED_STEP = math.radians(15)
BED_SIZE = 22.0
PASTURE_R = 57.0
PASTURE_STEP = math.radians(12.5)
PANEL_H = 344.0
TOP_H = 282.0
TRACK_MAX = 12


def _pt(cx: float, cy: float, r: float, angle: float) -> tuple[float, float]:
    """The point at radius ``r`` and ``angle`` (radians, clockwise from the top)."""
    return cx + r * math.sin(angle), cy - r * math.cos(angle)


def _t(
    x: float,
    y: float,
    text: str,
    size: float = 12,
    *,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = INK,
    extra: str = "",
) -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    mid = "" if anchor == "start" else f' text-anchor="{anchor}"'
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}"{mid}{bold} fill="{fill}"{extra}>{escape(text)}</text>'


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = LINE, rx: float = 4, extra: str = "") -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx:g}" fill="{fill}" '
        f'stroke="{stroke}"{extra}/>'
    )


def _act(notation: str, legal: set[str], inner: str) -> str:
    """``inner`` wrapped in a group carrying ``data-action`` when ``notation`` is legal now."""
    if notation in legal:
        return f"<g data-action={quoteattr(notation)}><title>{escape(notation)}</title>{inner}</g>"
    return f"<g>{inner}</g>"


def _wedge(cx: float, cy: float, r0: float, r1: float, a0: float, a1: float, fill: str, stroke: str = "none") -> str:
    """An annular sector from angle ``a0`` to ``a1`` between radii ``r0`` and ``r1``."""
    x0, y0 = _pt(cx, cy, r1, a0)
    x1, y1 = _pt(cx, cy, r1, a1)
    x2, y2 = _pt(cx, cy, r0, a1)
    x3, y3 = _pt(cx, cy, r0, a0)
    large = 1 if a1 - a0 > math.pi else 0
    return (
        f'<path d="M{x0:.1f},{y0:.1f} A{r1:g},{r1:g} 0 {large} 1 {x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f} '
        f'A{r0:g},{r0:g} 0 {large} 0 {x3:.1f},{y3:.1f} Z" fill="{fill}" stroke="{stroke}"/>'
    )


def _tile(x: float, y: float, good: str, size: float = 22, label: str | None = None) -> str:
    """A square goods tile with its two-letter name (not told apart by colour alone)."""
    shown = GOOD_ABBR.get(good, good[:2]) if label is None else label
    return _rect(x, y, size, size, GOOD_FILL.get(good, "#dddddd"), "#6b5b3a", 3) + _t(
        x + size / 2, y + size / 2 + 4, shown, 11, anchor="middle", weight="bold", fill=GOOD_INK.get(good, INK)
    )


def _scarecrow(x: float, y: float) -> str:
    """A little scarecrow (stick, arms, head) centred at (x, y)."""
    return (
        f'<polyline points="{x:.1f},{y + 8:.1f} {x:.1f},{y - 4:.1f}" stroke="{EARTH}" stroke-width="2" fill="none"/>'
        f'<polyline points="{x - 7:.1f},{y:.1f} {x + 7:.1f},{y:.1f}" stroke="{EARTH}" stroke-width="2" fill="none"/>'
        f'<ellipse cx="{x:.1f}" cy="{y - 6:.1f}" rx="3" ry="3" fill="{ORANGE}" stroke="{EARTH}"/>'
    )


RECENT_BOARDS: Final = 8
_RECENT = RecentReprs(RECENT_BOARDS)


def board_key(board: dict[str, Any]) -> str:
    """A board's ``repr``, the key of every drawing remembered of it, found again by equality among the
    last boards seen (each seat's view and live score bring their own equal copy: :class:`RecentReprs`)."""
    return _RECENT.key(board)


def _stars_now(board: dict[str, Any]) -> tuple[int, ScoreInput]:
    """The stars a board would score if the game ended now (the final scoring, from public facts);
    remembered by the board's ``repr`` (the live score of every seat's update asks it too)."""
    return _stars_now_of(board_key(board), board)


def _count_stars(board: dict[str, Any]) -> tuple[int, ScoreInput]:
    """:func:`_stars_now`, counted."""
    barn = board.get("barn", {})
    feed = sum(int(barn.get(g, 0)) for g in GOOD_NAMES[:4])
    on_land = sum(2 for area in board.get("areas", []) for bed in area.get("beds", []) if bed is not None)
    stars = sum(
        1 for b in board.get("garden", []) if b.get("id") in BUILDING_INDEX and BUILDINGS[BUILDING_INDEX[b["id"]]].star
    )
    pasture = [ANIMAL_NAMES.index(a) for area in board.get("areas", []) for a in area.get("pasture", [])]
    products = [int(board.get("products", {}).get(k, 0)) for k in PRODUCT_KEYS]
    entry = ScoreInput(products, feed + on_land, stars, sorted(pasture), int(barn.get("water", 0)))
    return sum(score_sheet(entry).values()), entry


# --- the top: header, action wheel, supply, buildings or solo stacks, my cards ----------------------


def _header(view: dict[str, Any], player: int | None, entries: list[ScoreInput]) -> list[str]:
    players = int(view.get("players", 1))
    phase = str(view.get("phase", ""))
    solo = view.get("solo")
    if isinstance(solo, dict):
        when = f"solo turn {solo.get('turn', '?')} of {SOLO_TURNS}"
    else:
        when = f"round {view.get('round', '?')}"
    title = f"Farmerama · {view.get('variant', 'basic')} · {players} player{'s' if players != 1 else ''} · {when}"
    if phase == "over":
        result = score(entries)
        if players == 1:
            goal = solo.get("goal", 150) if isinstance(solo, dict) else 150
            reached = "reached" if result.totals[0] >= goal else "not reached"
            status = f"Game over: {result.totals[0]} stars (goal {goal}: {reached})"
        else:
            winners = ", ".join(f"P{p}" for p in result.winners)
            status = f"Game over: {'shared win' if len(result.winners) > 1 else 'winner'} {winners}"
    else:
        actors = view.get("actors", [])
        who = ", ".join("you" if a == player else f"P{a}" for a in actors) or "nobody"
        status = f"{PHASE_TEXT.get(phase, phase)} · to act: {who}"
    seat = "spectator" if player is None else f"you are P{player}"
    out = [
        _rect(0, 0, W, 50, "#eef5fa", SKY, 6),
        _t(12, 21, title, 15, weight="bold", fill=BLUE),
        _t(W - 12, 21, seat, 13, anchor="end", fill=MUTED),
        _t(12, 42, status, 13, weight="bold"),
    ]
    if players == 3 and "boss_sheep" in view:
        last = " (last rounds)" if view.get("final_rounds") else ""
        out.append(_t(W - 12, 42, f"Boss Sheep: P{view['boss_sheep']}{last}", 12, anchor="end"))
    return out


def _action_wheel(view: dict[str, Any]) -> list[str]:
    wheel = view.get("action_wheel", {})
    nxt = wheel.get("next", {})
    key = tuple(tuple(wheel.get(k, (0, 0))) for k in ("sow", "harvest", "water"))
    following = tuple((str(k), tuple(v)) for k, v in nxt.items()) if isinstance(nxt, dict) else ()
    return [_action_wheel_drawing(int(wheel.get("section", 0)), key, following)]


@lru_cache(maxsize=64)
def _action_wheel_drawing(
    section: int, values: tuple[tuple[int, ...], ...], following: tuple[tuple[str, tuple[int, ...]], ...]
) -> str:
    """The action wheel dial with ``section`` up, its numbers and the next section's."""
    cx, cy, r = 58.0, 122.0, 50.0
    out = [_t(8, 72, "Action wheel", 13, weight="bold")]
    step = 2 * math.pi / 8
    for s in range(8):
        a0 = (s - 0.5) * step
        fill = ORANGE if s == section else "#f4efe2"
        out.append(_wedge(cx, cy, 14, r, a0, a0 + step, fill, "#8f876f"))
        x, y = _pt(cx, cy, 35, s * step)
        out.append(_t(x, y + 4, str(s), 11, anchor="middle", weight="bold" if s == section else "normal"))
    out.append(f'<circle cx="{cx}" cy="{cy}" r="14" fill="#ffffff" stroke="#8f876f"/>')
    x = 120.0
    out.append(_t(x, 90, f"section {section} (alone/shared)", 11, fill=MUTED))
    for i, (name, pair) in enumerate(zip(("Sow", "Harvest", "Water"), values, strict=True)):
        out.append(_t(x, 108 + 16 * i, name, 12))
        out.append(_t(x + 66, 108 + 16 * i, " / ".join(str(n) for n in pair), 12, weight="bold"))
    if following:
        parts = " ".join(f"{k[:1].upper()}{'/'.join(str(n) for n in v)}" for k, v in following)
        out.append(_t(x, 162, f"next: {parts}", 11, fill=MUTED))
    return "".join(out)


def _supply(view: dict[str, Any], legal: set[str]) -> list[str]:
    supply = view.get("supply", {})
    x0 = 262.0
    out = [_t(x0, 72, "General supply", 13, weight="bold")]
    hint = ""
    if any(a.startswith("gain ") for a in legal):
        hint = "click a tile to gain it"
    elif any(a.startswith("token ") for a in legal):
        hint = "click a tile: token"
    if hint:
        out.append(_t(x0, 172, hint, 11, weight="bold", fill=BLUE))
    for i, good in enumerate(GOOD_NAMES):
        inner = _supply_tile(i, good, str(supply.get(good, 0)))
        action = f"gain {good}" if f"gain {good}" in legal else f"token {good}"
        out.append(_act(action, legal, inner))
    return out


@lru_cache(maxsize=256)
def _supply_tile(i: int, good: str, count: str) -> str:
    x = 262.0 + i * 50
    return (
        _tile(x + 5, 84, good, 36)
        + _t(x + 23, 138, count, 13, anchor="middle", weight="bold")
        + _t(x + 23, 154, good, 10, anchor="middle", fill=MUTED)
    )


def _buildings(view: dict[str, Any], legal: set[str]) -> list[str]:
    x0 = 522.0
    out = [_t(x0, 72, "Ornamental buildings", 13, weight="bold")]
    shown = view.get("buildings_face_up", [])
    for i in range(2):
        x = x0 + i * 146
        if i >= len(shown):
            out.append(_rect(x, 82, 136, 62, "none", LINE, 6, ' stroke-dasharray="4 3"'))
            out.append(_t(x + 68, 118, "(empty)", 11, anchor="middle", fill=MUTED))
            continue
        b = shown[i]
        reward = str(b.get("reward", ""))
        inner = _rect(x, 82, 136, 62, "#fbf3df", EARTH, 6)
        inner += _t(x + 8, 99, f"take {b.get('slot', i + 1)}", 11, weight="bold", fill=BLUE)
        inner += _t(x + 128, 99, str(b.get("id", "")), 11, anchor="end", fill=MUTED)
        inner += "".join(
            _t(x + 68, 117 + 15 * k, line, 12, anchor="middle") for k, line in enumerate(_wrap(reward, 20))
        )
        out.append(_act(f"take {b.get('slot', i + 1)}", legal, inner))
    stack = view.get("buildings_in_stack", 0)
    removed = view.get("buildings_removed_face_down", 0)
    out.append(_t(x0, 160, f"{stack} face down in the stack · {removed} removed face down", 11, fill=MUTED))
    return out


def _wrap(text: str, limit: int) -> list[str]:
    """``text`` split into at most two lines of about ``limit`` characters (at ``+`` or spaces)."""
    if len(text) <= limit:
        return [text]
    cut = max(text.rfind(" ", 0, limit), text.rfind("+", 0, limit))
    if cut <= 0:
        return [text[:limit], text[limit:]]
    return [text[: cut + (1 if text[cut] == "+" else 0)].strip(), text[cut + 1 :].strip()]


@lru_cache(maxsize=256)
def _card(x: float, y: float, name: str, state: str, note: str = "") -> str:
    """An action card: ``state`` is ``open``, ``chosen``, ``now``, ``done`` or ``revealed``."""
    fill = {"chosen": "#fff3d6", "now": "#fff3d6", "done": "#eeeeee", "revealed": "#fff3d6"}.get(state, "#ffffff")
    stroke = {"chosen": ORANGE, "now": ORANGE, "revealed": ORANGE, "done": "#aaaaaa"}.get(state, "#8f876f")
    ink = MUTED if state == "done" else INK
    out = _rect(x, y, 76, 58, fill, stroke, 6, ' stroke-width="2"' if state in ("chosen", "now", "revealed") else "")
    out += (
        f'<ellipse cx="{x + 14:.1f}" cy="{y + 15:.1f}" rx="9" ry="9" fill="{BLUE if state != "done" else "#aaaaaa"}"/>'
    )
    out += _t(x + 14, y + 19, CARD_ICON.get(name, "?"), 11, anchor="middle", weight="bold", fill="#ffffff")
    out += _t(x + 38, y + 38, CARD_LABEL.get(name, name), 12, anchor="middle", weight="bold", fill=ink)
    if note:
        out += _t(x + 38, y + 52, note, 10, anchor="middle", fill=MUTED)
    return out


def _my_cards(view: dict[str, Any], legal: set[str], player: int | None) -> list[str]:
    """The seat's five action cards (solo: the revealed card marked) and a row of simple buttons."""
    y = 190.0
    out: list[str] = []
    solo = view.get("solo") if isinstance(view.get("solo"), dict) else None
    phase = view.get("phase")
    if player is None:
        return [_t(8, y + 8, "Spectator: every farmland below is public; chosen cards stay hidden until revealed.", 12)]
    mine = [str(c) for c in view.get("my_cards", [])]
    acting = next((a for a in view.get("acting", []) if a.get("player") == player), None)
    title = "Your action cards"
    if phase == "act" and acting is not None:
        doing = acting.get("card")
        title += f": carrying out {doing} ({acting.get('remaining', 0)} left)" if doing else ": which one first?"
    elif phase == "choose" and any(a.startswith("card ") for a in legal):
        title += ": choose in secret"
    elif solo is not None and phase == "solo-pick":
        title += f": pick one (the revealed {solo.get('revealed')} gets the higher number)"
    out.append(_t(8, y, title, 13, weight="bold"))
    still = [str(c) for c in acting.get("still_to_do", [])] if acting else []
    revealed = solo.get("revealed") if solo is not None else None
    for i, name in enumerate(CARD_NAMES):
        state, note, action = "open", "", ""
        if phase in ("choose", "solo-pick"):
            action = f"card {name}"
            if name in mine:
                state, note = "chosen", "chosen"
        elif phase == "act" and acting is not None:
            if name == acting.get("card"):
                state, note = "now", f"{acting.get('remaining', 0)} left"
                action = "water" if name == "water" else ""
            elif name in still:
                state, note, action = "chosen", "to do", f"start {name}"
            elif name in mine:
                state, note = "done", "done"
        elif name in mine:
            state, note = "chosen", "played"
        if name == revealed and state == "open":
            state, note = "revealed", "revealed"
        card = _card(8 + i * 84, y + 8, name, state, note)
        out.append(_act(action, legal, card) if action else card)
    buttons = [a for a in BUTTON_ACTIONS if a in legal]
    bx = 8.0 + 5 * 84 + 6
    for notation in buttons:
        w = 12 + 7.2 * len(notation)
        inner = _rect(bx, y + 10, w, 24, "#e6f1f8", BLUE, 12) + _t(
            bx + w / 2, y + 26, notation, 12, anchor="middle", weight="bold", fill=BLUE
        )
        out.append(_act(notation, legal, inner))
        bx += w + 8
    return out


def _solo_panel(solo: dict[str, Any], legal: set[str]) -> list[str]:
    x0 = 522.0
    out = [_t(x0, 72, f"Solo · goal {solo.get('goal', 150)} stars", 13, weight="bold")]
    # the action stack (click: redraw), the supply stack, tokens
    stack = int(solo.get("action_stack", 0))
    inner = ""
    for k in range(min(stack, 4)):
        inner += _rect(x0 + 3 * k, 84 - 2 * k, 56, 62, "#d8e8f3", BLUE, 5)
    if not stack:
        inner += _rect(x0, 84, 56, 62, "none", LINE, 5, ' stroke-dasharray="4 3"')
    inner += _t(x0 + 30, 120, str(stack), 16, anchor="middle", weight="bold", fill=BLUE)
    out.append(_act("redraw", legal, inner))
    out.append(_t(x0 + 30, 160, "action stack", 10, anchor="middle", fill=MUTED))
    sx = x0 + 82
    supply = int(solo.get("supply_stack", 0))
    out.append(_rect(sx, 84, 56, 62, "#eeeeee" if supply else "none", "#8f876f", 5))
    out.append(_t(sx + 28, 120, str(supply), 16, anchor="middle", weight="bold"))
    out.append(_t(sx + 28, 160, "supply stack", 10, anchor="middle", fill=MUTED))
    tx = x0 + 160
    tokens = int(solo.get("tokens", 0))
    out.append(_t(tx, 92, "tokens", 11, fill=MUTED))
    for k in range(3):
        fill = ORANGE if k < tokens else "none"
        out.append(f'<circle cx="{tx + 10 + 22 * k:.1f}" cy="106" r="8" fill="{fill}" stroke="{EARTH}"/>')
    out.append(_t(tx, 136, f"revealed: {solo.get('revealed') or '-'}", 11))
    discard = [str(c) for c in solo.get("discard", [])]
    under = [str(c) for c in solo.get("pushed_under", [])]
    out.append(_t(tx, 152, f"discards: {len(discard)}", 11, fill=MUTED))
    if discard:
        counts = " · ".join(f"{discard.count(c)} {c}" for c in CARD_NAMES if c in discard)
        out.append(_t(x0, 172, f"discarded: {counts}", 11, fill=MUTED))
    if under:
        out.append(
            _t(x0, 186, "under the stack: " + ", ".join(under[:4]) + (" …" if len(under) > 4 else ""), 11, fill=MUTED)
        )
    return out


# --- one farmland (drawn at the panel's origin; the static pieces are built once and cached) ----------

CX, CY = 14 + FARM_R + 12, 14 + FARM_R + 2
"""Centre of a farmland inside its panel."""
INFO_X, INFO_Y = 340.0, 4.0
"""Top left of the column beside a farmland."""


def _ring_text(mid: float, line1: str, line2: str) -> str:
    """Two lines along the wheel ring at angle ``mid``, upright on both halves of the wheel."""
    deg = math.degrees(mid)
    lower = 90 < deg < 270
    outer, inner = FARM_R - 11, RING_IN + 10
    out = []
    for text, r_top, r_bottom, weight in ((line1, outer, inner, "bold"), (line2, inner, outer, "normal")):
        if not text:
            continue
        if lower:
            rot, y = deg + 180, CY + r_bottom + 4
        else:
            rot, y = deg, CY - r_top + 4
        rotate = f' transform="rotate({rot:.1f} {CX:.1f} {CY:.1f})"'
        out.append(_t(CX, y, text, 11 if weight == "bold" else 10, anchor="middle", weight=weight, extra=rotate))
    return "".join(out)


def _farm_background() -> str:
    """The printed board: land, the ring under the wheel, rivers between the areas, area names."""
    out = [
        f'<circle cx="{CX}" cy="{CY}" r="{FARM_R}" fill="#f6f0e0" stroke="#8f876f"/>',
        f'<circle cx="{CX}" cy="{CY}" r="{RING_IN}" fill="{GRASS}" stroke="#8f876f"/>',
    ]
    for i in range(AREAS):
        x0, y0 = _pt(CX, CY, HUB_R, (i - 0.5) * SLICE)
        x1, y1 = _pt(CX, CY, RING_IN, (i - 0.5) * SLICE)
        out.append(f'<path d="M{x0:.1f},{y0:.1f} L{x1:.1f},{y1:.1f}" stroke="{SKY}" stroke-width="4"/>')
        nx, ny = _pt(CX, CY, 78, i * SLICE)
        out.append(_t(nx, ny + 4, f"A{i}", 10, anchor="middle", weight="bold", fill=MUTED))
    return "".join(out)


FARM_BACKGROUND = _farm_background()


@lru_cache(maxsize=256)
def _sector_parts(label: str) -> tuple[int, str | None, tuple[str, ...], bool]:
    """(sector number, crop sown there or None for harvest, animal heads, pacifier) from a view label
    like ``k1 sow hay cow head`` or ``k6 harvest pacifier``."""
    words = label.split()
    number = int(words[0][1:]) if words and words[0][1:].isdigit() else -1
    crop = words[2] if len(words) > 2 and words[1] == "sow" else None
    heads = tuple(words[i - 1] for i in range(1, len(words)) if words[i] == "head")
    return number, crop, heads, "pacifier" in words


@lru_cache(maxsize=512)
def _ring_cell(i: int, label: str) -> str:
    """The player-wheel sector ``label`` lying over area position ``i``: tinted band and two lines."""
    sector, crop, heads, pacifier = _sector_parts(label)
    mid = i * SLICE
    tint = GOOD_FILL.get(crop, "#d9d9d9") if crop else "#e4e4e4"
    band = _wedge(CX, CY, RING_IN, FARM_R, mid - SLICE / 2, mid + SLICE / 2, tint, "#8f876f")
    line1 = f"k{sector} " + (f"sow {crop}" if crop else "harvest")
    line2 = " ".join([*(f"{h} head" for h in heads), *(["pacifier"] if pacifier else [])])
    return band.replace("/>", ' fill-opacity="0.45"/>', 1) + _ring_text(mid, line1, line2)


@lru_cache(maxsize=1024)
def _bed(i: int, j: int, count: int, content: str | None, scarecrow: bool) -> str:
    """Bed ``j`` of ``count`` in area position ``i``: a plant stack, or soil (with its scarecrow)."""
    angle = i * SLICE + (j - (count - 1) / 2) * BED_STEP
    bx, by = _pt(CX, CY, BED_R, angle)
    x, y = bx - BED_SIZE / 2, by - BED_SIZE / 2
    if content is not None:
        return _tile(x, y, content, BED_SIZE)
    soil = _rect(x, y, BED_SIZE, BED_SIZE, SOIL, EARTH, 3, ' stroke-dasharray="3 2"')
    return soil + (_scarecrow(bx, by + 1) if scarecrow else "")


@lru_cache(maxsize=256)
def _pasture_slot(i: int, j: int, animal: str | None) -> str:
    px, py = _pt(CX, CY, PASTURE_R, i * SLICE + (j - 0.5) * 2 * PASTURE_STEP)
    if animal is None:
        return f'<circle cx="{px:.1f}" cy="{py:.1f}" r="9" fill="none" stroke="#7aa36f" stroke-dasharray="2 2"/>'
    return f'<circle cx="{px:.1f}" cy="{py:.1f}" r="10" fill="#ffffff" stroke="{EARTH}" stroke-width="1.5"/>' + _t(
        px, py + 4, ANIMAL_ABBR.get(animal, animal[:2]), 10, anchor="middle", weight="bold"
    )


@lru_cache(maxsize=16)
def _bar(i: int) -> str:
    """The bar, on the edge after area position ``i`` (the one under k6)."""
    edge = i * SLICE + SLICE / 2
    x0, y0 = _pt(CX, CY, HUB_R, edge)
    x1, y1 = _pt(CX, CY, FARM_R + 8, edge)
    lx, ly = _pt(CX, CY, HUB_R + 15, edge)
    return (
        f'<path d="M{x0:.1f},{y0:.1f} L{x1:.1f},{y1:.1f}" stroke="{INK}" stroke-width="5"/>'
        + _rect(lx - 13, ly - 7, 26, 14, INK, INK, 3)
        + _t(lx, ly + 4, "bar", 10, anchor="middle", weight="bold", fill="#ffffff")
    )


@lru_cache(maxsize=64)
def _hub(wheel: str, can_turn: bool) -> str:
    hub = f'<circle cx="{CX}" cy="{CY}" r="{HUB_R}" fill="{"#fff3d6" if can_turn else "#ffffff"}" stroke="#8f876f"/>'
    if can_turn:
        hub += _t(CX, CY - 2, "turn", 11, anchor="middle", weight="bold", fill=BLUE)
        return hub + _t(CX, CY + 10, "1 water", 9, anchor="middle", fill=MUTED)
    hub += _t(CX, CY - 2, "turned", 10, anchor="middle", fill=MUTED)
    return hub + _t(CX, CY + 11, f"{wheel}×", 11, anchor="middle", weight="bold")


@lru_cache(maxsize=64)
def _bed_mark_tail(i: int, j: int, count: int) -> str:
    """The geometry of bed ``j`` of ``count`` in area position ``i``'s outline (after its ``data-content``)."""
    angle = i * SLICE + (j - (count - 1) / 2) * BED_STEP
    bx, by = _pt(CX, CY, BED_R, angle)
    return (
        f' x="{bx - BED_SIZE / 2:.1f}" y="{by - BED_SIZE / 2:.1f}" width="{BED_SIZE:g}" height="{BED_SIZE:g}" '
        f'rx="3" fill="none" pointer-events="none"/>'
    )


PASTURE_MARK_TAIL: Final = tuple(
    f' cx="{px:.1f}" cy="{py:.1f}" r="{PASTURE_R * math.sin(PASTURE_STEP) + 12:.0f}" fill="none" '
    f'pointer-events="none"/>'
    for px, py in (_pt(CX, CY, PASTURE_R, i * SLICE) for i in range(AREAS))
)
"""The geometry of area position ``i``'s pasture outline (after its ``data-content``)."""


def _bed_marks(board: dict[str, Any]) -> str:
    """Invisible outlines of the beds and pastures with ``data-cell`` and ``data-content``: the page
    outlines the ones each player's last decision changed."""
    out = []
    for i, area in enumerate(board.get("areas", [])[:AREAS]):
        beds = area.get("beds", [])
        count = len(beds)
        name = str(area.get("area", f"A{i}"))
        for j, bed in enumerate(beds):
            out.append(
                f'<rect class="ft-cell" data-cell="{name}-{j}" data-content={quoteattr(str(bed or ""))}'
                + _bed_mark_tail(i, j, count)
            )
        pasture = " ".join(map(str, area.get("pasture", [])))
        out.append(
            f'<circle class="ft-cell" data-cell="{name}-pasture" data-content={quoteattr(pasture)}'
            + PASTURE_MARK_TAIL[i]
        )
    return "".join(out)


def _marks_of(key: str, board: dict[str, Any]) -> str:
    """:func:`_bed_marks` remembered by ``key`` (the board's ``repr``): the same for every seat."""
    marks = _MARKS.get(key)
    if marks is None:
        marks = _MARKS.put(key, _bed_marks(board))
    return marks


def _farmland(board: dict[str, Any], legal: set[str], mine: bool) -> list[str]:
    out = [FARM_BACKGROUND]
    bar_area = -1
    for i, area in enumerate(board.get("areas", [])[:AREAS]):
        label = str(area.get("sector", ""))
        sector, crop, _, _ = _sector_parts(label)
        if sector == 6:
            bar_area = i
        out.append(_ring_cell(i, label))
        beds = area.get("beds", [])
        name = str(area.get("area", f"A{i}"))
        scarecrow = bool(area.get("scarecrow_visible"))
        for j, bed in enumerate(beds):
            content = None if bed is None else str(bed)
            inner = _bed(i, j, len(beds), content, scarecrow and j == 0)
            action = ""
            if mine:
                if content is None and crop:
                    action = f"sow {crop} {name}"
                elif content is not None and area.get("harvest"):
                    action = f"harvest {content} {name}"
            out.append(_act(action, legal, inner) if action in legal else inner)
        animals = area.get("pasture", [])
        out.append(_pasture_slot(i, 0, str(animals[0]) if animals else None))
        out.append(_pasture_slot(i, 1, str(animals[1]) if len(animals) > 1 else None))
    if bar_area >= 0:
        out.append(_bar(bar_area))
    can_turn = mine and "turn-wheel" in legal
    hub = _hub(str(board.get("player_wheel", 0)), can_turn)
    out.append(_act("turn-wheel", legal, hub) if can_turn else hub)
    return out


def _info_static() -> str:
    x0, y = INFO_X, INFO_Y + 82
    out = [_t(x0, y + 10, "Stable", 12, weight="bold"), _t(x0 + 222, y + 10, "Barn", 12, weight="bold")]
    out.append(_t(x0, y + 90, "Products", 12, weight="bold"))
    for i, key in enumerate(PRODUCT_KEYS):
        out.append(_t(x0, y + 98 + i * 16 + 11, f"{PRODUCT_LABEL[key]} ×{PRODUCT_VALUE[i]}", 11))
    return "".join(out)


INFO_STATIC = _info_static()
STABLE_Y = INFO_Y + 82
TRACK_Y = STABLE_Y + 80


@lru_cache(maxsize=64)
def _stable_slot(i: int, animal: str, where: str | None) -> str:
    """Stable place ``i``: the animal (``where`` None) or an empty place saying where it grazes."""
    x, cy = INFO_X + 20 + i * 50, STABLE_Y + 36
    if where is None:
        cost = " ".join(f"{n}{GOOD_ABBR[GOOD_NAMES[g]]}" for g, n in enumerate(FEED_COST[i]) if n)
        return (
            f'<circle cx="{x:.1f}" cy="{cy:.1f}" r="18" fill="#ffffff" stroke="{EARTH}" stroke-width="1.5"/>'
            + _t(x, cy + 4, animal, 10, anchor="middle", weight="bold")
            + _t(x, cy + 32, cost, 9, anchor="middle", fill=MUTED)
        )
    return (
        f'<circle cx="{x:.1f}" cy="{cy:.1f}" r="18" fill="none" stroke="{LINE}" stroke-dasharray="3 2"/>'
        + _t(x, cy + 4, f"on {where}", 9, anchor="middle", fill=MUTED)
        + _t(x, cy + 32, animal, 9, anchor="middle", fill=MUTED)
    )


@lru_cache(maxsize=512)
def _barn_tile(i: int, good: str, count: str) -> str:
    x = INFO_X + 222 + i * 49
    return _tile(x, STABLE_Y + 20, good, 30) + _t(x + 15, STABLE_Y + 66, count, 13, anchor="middle", weight="bold")


@lru_cache(maxsize=128)
def _track(i: int, n: int) -> str:
    """Product track ``i`` (0..12) with its marker on ``n``."""
    ry = TRACK_Y + 18 + i * 16
    cells = []
    for k in range(TRACK_MAX + 1):
        fill = BLUE if k == n else ("#cfe3f1" if k < n else "#ffffff")
        cells.append(_rect(INFO_X + 76 + k * 13, ry + 1, 12, 13, fill, "#9fb6c8", 2))
    cells.append(_t(INFO_X + 76 + 13 * 13 + 6, ry + 11, f"{n} = {n * PRODUCT_VALUE[i]}", 11, weight="bold"))
    return "".join(cells)


@lru_cache(maxsize=512)
def _garden_tile(i: int, reward: str) -> str:
    col, row = i % 2, i // 2
    x, ty = INFO_X + 290 + col * 90, TRACK_Y + 18 + row * 16
    shown = reward.replace("feed of choice", "any feed")
    shown = shown if len(shown) <= 17 else shown[:16] + "…"
    return _rect(x, ty, 87, 14, "#fbf3df", EARTH, 3) + _t(x + 3, ty + 10.5, shown, 9)


def _info_head(mine: bool, title: str, stars: str, notes: list[str]) -> list[str]:
    """The top of the column beside a farmland: the printed labels, the board's title, its stars and notes."""
    x0 = INFO_X
    out = [INFO_STATIC, _t(x0, INFO_Y + 18, title, 15, weight="bold", fill=BLUE if mine else INK)]
    out.append(_t(x0 + 466, INFO_Y + 18, stars, 13, anchor="end", weight="bold"))
    for k, note in enumerate(notes[:3]):
        out.append(_t(x0, INFO_Y + 36 + 14 * k, note, 11, fill=MUTED))
    return out


def _info_body(board: dict[str, Any], legal: set[str], mine: bool) -> list[str]:
    """The rest of the column beside a farmland, read from the board alone: stable, barn, product tracks and
    garden (after :func:`_info_head`)."""
    x0 = INFO_X
    out: list[str] = []
    stable = {str(a) for a in board.get("stable", [])}
    where = {str(a): str(area.get("area", "")) for area in board.get("areas", []) for a in area.get("pasture", [])}
    for i, animal in enumerate(ANIMAL_NAMES):
        if animal in stable:
            slot = _stable_slot(i, animal, None)
            out.append(_act(f"feed {animal}", legal, slot) if mine and f"feed {animal}" in legal else slot)
        else:
            out.append(_stable_slot(i, animal, where.get(animal, "?")))
    barn = board.get("barn", {})
    for i, good in enumerate(GOOD_NAMES):
        tile = _barn_tile(i, good, str(barn.get(good, 0)))
        out.append(_act("pay-water", legal, tile) if mine and good == "water" and "pay-water" in legal else tile)
    products = board.get("products", {})
    for i, key in enumerate(PRODUCT_KEYS):
        out.append(_track(i, int(products.get(key, 0))))
    garden = board.get("garden", [])
    out.append(_t(x0 + 290, TRACK_Y + 10, f"Garden ({len(garden)})", 12, weight="bold"))
    for i, b in enumerate(garden[:8]):
        out.append(_garden_tile(i, str(b.get("reward", ""))))
    if len(garden) > 8:
        out.append(_t(x0 + 290, TRACK_Y + 94, f"+{len(garden) - 8} more", 10, fill=MUTED))
    return out


# --- the whole picture -------------------------------------------------------------------


def _seat_notes(view: dict[str, Any], seat: int, board: dict[str, Any]) -> list[str]:
    notes = []
    choices = view.get("card_choices", [])
    if seat < len(choices) and view.get("phase") != "over":
        text = str(choices[seat])
        prefix = f"P{seat} "
        notes.append("cards: " + (text[len(prefix) :] if text.startswith(prefix) else text))
    for act in view.get("acting", []):
        if act.get("player") == seat:
            doing = act.get("card")
            todo = ", ".join(str(c) for c in act.get("still_to_do", [])) or "nothing"
            now = f"now {doing} ({act.get('remaining', 0)} left)" if doing else "choosing which card first"
            notes.append(f"{now}; still to do: {todo}")
    extra = [f"scarecrows visible {board.get('scarecrows', 0)}"]
    if view.get("players") == 3:
        extra.append(f"Boss Sheep {board.get('boss_sheep_rounds', 0)}×")
        if view.get("boss_sheep") == seat:
            extra.append("holds the Boss Sheep")
    notes.append(" · ".join(extra))
    return notes


def _award_line(view: dict[str, Any], player: int | None) -> str:
    award = view.get("award")
    if not isinstance(award, dict):
        return ""
    pending = award.get("rewards_of_choice", [])
    if pending:
        g = pending[0]
        who = "you" if g.get("player") == player else f"P{g.get('player')}"
        kind = "feed plants" if g.get("feed_only") else "goods"
        return f"Award: {who} take{'s' if who != 'you' else ''} {g.get('count')} {kind} of choice from the supply"
    chooser = award.get("chooser", -1)
    if isinstance(chooser, int) and chooser >= 0:
        who = "you" if chooser == player else f"P{chooser}"
        return f"Award: {who} take{'s' if who != 'you' else ''} a face-up ornamental building"
    return ""


CACHE_LIMIT = 1024
_PANELS: BoundedCache[tuple[str, str, str, tuple[str, ...], bool | str], str] = BoundedCache(CACHE_LIMIT)
_BANDS: BoundedCache[tuple[str, ...], str] = BoundedCache(CACHE_LIMIT)
"""The supply and the buildings (or the solo panel) with nothing to click, by everything they show: the
same for every seat without a decision there, so drawn once per position."""
"""Other seats' board panels, by what they show (see :func:`render_svg`)."""
_STARS: BoundedCache[str, tuple[int, ScoreInput]] = BoundedCache(CACHE_LIMIT)
_MARKS: BoundedCache[str, str] = BoundedCache(CACHE_LIMIT)
"""A board's invisible bed and pasture outlines (:func:`_bed_marks`), by the board's ``repr``."""


def _stars_now_of(key: str, board: dict[str, Any]) -> tuple[int, ScoreInput]:
    """:func:`_stars_now` remembered by ``key`` (the board's ``repr``)."""
    got = _STARS.get(key)
    if got is None:
        got = _STARS.put(key, _count_stars(board))
    return got


PANEL_MINE = _rect(2, 0, W - 4, PANEL_H - 10, "#fffaf0", BLUE, 10, ' stroke-width="3"')
PANEL_OTHER = _rect(2, 0, W - 4, PANEL_H - 10, "#ffffff", LINE, 10)


BOARD_DECISIONS: Final = ("sow ", "harvest ", "feed ", "turn-wheel", "pay-water")
"""How the decisions drawn on the seat's own board begin (:func:`_farmland`, :func:`_info_body`)."""
_LANDS: BoundedCache[tuple[str, bool, tuple[str, ...] | bool], tuple[list[str], list[str]]] = BoundedCache(CACHE_LIMIT)
"""Farmlands and the bodies of their columns as parts (:func:`_board_drawing`; read, never changed), by the
board's ``repr``, whose it is and the decisions drawn on it."""


def _board_drawing(key: str, board: dict[str, Any], legal: set[str], mine: bool) -> tuple[list[str], list[str]]:
    """The farmland (:func:`_farmland`) and the body of the column beside it (:func:`_info_body`) of the board
    whose ``repr`` is ``key``, remembered by the board and the decisions drawn on it (they change less often
    than the titles, stars and notes around them). The seat's own board reads only the legal decisions that
    begin as in :data:`BOARD_DECISIONS`; another seat's board only whether ``""`` is legal."""
    decisions: tuple[str, ...] | bool = (
        tuple(sorted(a for a in legal if a.startswith(BOARD_DECISIONS))) if mine else "" in legal
    )
    got = _LANDS.get((key, mine, decisions))
    if got is None:
        got = _LANDS.put((key, mine, decisions), (_farmland(board, legal, mine), _info_body(board, legal, mine)))
    return got


def _band(view: dict[str, Any], solo: Any) -> str:
    """:func:`_supply` and :func:`_buildings` (or :func:`_solo_panel`) for a seat with no decision,
    remembered by what they show."""
    key: tuple[str, ...]
    if isinstance(solo, dict):
        key = ("solo", repr(view.get("supply")), repr(solo))
    else:
        key = (
            "buildings",
            repr(view.get("supply")),
            repr(view.get("buildings_face_up")),
            repr(view.get("buildings_in_stack")),
            repr(view.get("buildings_removed_face_down")),
        )
    band = _BANDS.get(key)
    if band is None:
        none: set[str] = set()
        drawn = _supply(view, none) + (_solo_panel(solo, none) if isinstance(solo, dict) else _buildings(view, none))
        band = _BANDS.put(key, "".join(drawn))
    return band


def render_svg(view: dict[str, Any], legal: list[str], player: int | None) -> str:
    """Draw ``view`` as one ``<svg>``; elements for legal decisions carry ``data-action``."""
    allowed = set(legal)
    boards = [b for b in view.get("boards", []) if isinstance(b, dict)]
    keys = [board_key(b) for b in boards]  # what a board shows: the key of the drawings remembered below
    scored = [_stars_now_of(key, b) for key, b in zip(keys, boards, strict=True)]
    parts = [*_header(view, player, [e for _, e in scored])]
    parts += _action_wheel(view)
    solo = view.get("solo")
    if allowed:
        parts += _supply(view, allowed)
        parts += _solo_panel(solo, allowed) if isinstance(solo, dict) else _buildings(view, allowed)
    else:
        parts.append(_band(view, solo))
    parts += _my_cards(view, allowed, player)
    award = _award_line(view, player)
    if award:
        parts.append(_t(W - 8, 190, award, 12, anchor="end", weight="bold", fill=BLUE))
    order = sorted(range(len(boards)), key=lambda q: (q != player, q))
    over = view.get("phase") == "over"
    winners = score([e for _, e in scored]).winners if over and scored else []
    y = TOP_H if player is not None else TOP_H - 62
    for q in order:
        board = boards[q]
        mine = q == player
        seat = int(board.get("seat", q))
        parts.append(f'<g transform="translate(0 {y:.0f})" data-board="{seat}">')
        title = f"P{seat} · you" if mine else f"P{seat}"
        if over and q in winners and len(boards) > 1:
            title += " · winner"
        elif seat in view.get("actors", []) and not over:
            title += " · to act"
        stars = f"{scored[q][0]} stars" + ("" if over else " now")
        notes = _seat_notes(view, seat, board)
        if mine and allowed:  # the seat's own board with buttons: the panel around it changes every time
            land, body = _board_drawing(keys[q], board, allowed, mine)
            parts += [PANEL_MINE, *land, _marks_of(keys[q], board), *_info_head(mine, title, stars, notes), *body]
        else:  # nothing on the board is a button: the panel is the same for every seat it is not the own of
            key = (keys[q], title, stars, tuple(notes), "mine" if mine else "" in allowed)
            panel = _PANELS.get(key)
            if panel is None:
                land, body = _board_drawing(keys[q], board, allowed, mine)
                top = _info_head(mine, title, stars, notes)
                frame = PANEL_MINE if mine else PANEL_OTHER
                panel = _PANELS.put(key, "".join([frame, *land, _marks_of(keys[q], board), *top, *body]))
            parts.append(panel)
        parts.append("</g>")
        y += PANEL_H
    height = y + 4
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ft-board farmerama" viewBox="0 0 {W} {height:.0f}" '
        f'width="100%" font-family="{FONT}" role="group" aria-label="Farmerama table">'
        f'<rect width="{W}" height="{height:.0f}" fill="{PAPER}"/>'
    )
    return "".join([head, *parts, "</svg>"])
