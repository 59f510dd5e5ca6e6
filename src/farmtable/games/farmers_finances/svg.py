"""Farmers Finances as an SVG picture for the browser (the hook of docs/web.md), drawn from a view only.

The picture is the table: the market card (five rows, the die on one of them), the marketplace
(the wheat and animal stacks; solo, the two piles with their top cards), the money track, and
every farm as cards with counts (the viewing seat's own farm first, full width).

Clickable (``data-action`` exactly as the notation): the market rows (``move R``; after a 6,
``pick R``), the reroll button (``reroll``), the marketplace stacks or solo pile tops
(``buy wheat`` / ``buy animal``), and in your own farm one small chip per legal sale or bake
(``sell wheat 2``, ``bake 1`` ...). ``pass`` stays in the page's notation list.

The page dashes the outline of every ``rect``/``circle``/``path``/``polygon`` inside a legal
element and tints its rects on hover, so a clickable group holds exactly one ``rect`` (its body)
and draws its decorations with ``text``, ``line``, ``ellipse`` and ``polyline``; other shapes
lie outside the group with ``pointer-events="none"``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from farmtable.core.memo import BoundedCache
from farmtable.core.svgkit import escape, quoteattr
from farmtable.games.farmers_finances import components as c

WIDTH = 1000
MARGIN = 16
INNER = WIDTH - 2 * MARGIN

INK = "#1b1b1b"
MUTED = "#5a5a5a"
LINE = "#b8b2a0"
PAPER = "#fffdf7"
PANEL = "#ffffff"
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILION = "#D55E00"
SKY = "#56B4E9"
PURPLE = "#CC79A7"
YELLOW = "#F0E442"

SORT_COLOUR = {c.WHEAT: YELLOW, c.BREAD: ORANGE, c.ANIMAL: GREEN}
SORT_LETTER = {c.WHEAT: "W", c.BREAD: "B", c.ANIMAL: "A"}
SEAT_COLOUR = (BLUE, VERMILION, PURPLE, SKY)

# pips of a die face, as offsets in units of a third of the face
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}

_ACTION_WORDS = "take one action: buy, sell or bake"
_MARKET_WORDS = "change the market: move the die one row, or reroll"


def _t(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 14,
    anchor: str = "start",
    bold: bool = False,
    fill: str = INK,
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{anchor_attr}{weight} fill="{fill}">{escape(text)}</text>'


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = LINE, *, extra: str = "") -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" fill="{fill}" '
        f'stroke="{stroke}"{extra}/>'
    )


def _deco_rect(x: float, y: float, w: float, h: float, fill: str, stroke: str, *, extra: str = "") -> str:
    """A rect that is only decoration: clicks pass through it to what lies below."""
    return _rect(x, y, w, h, fill, stroke, extra=' pointer-events="none"' + extra)


def _group(action: str | None, body: str) -> str:
    if action is None:
        return f"<g>{body}</g>"
    return f'<g class="ft-action" data-action={quoteattr(action)}>{body}</g>'


def _pips(cx: float, cy: float, size: float, face: int, fill: str) -> str:
    step = size / 3.4
    r = size / 11
    return "".join(
        f'<ellipse cx="{cx + dx * step:.1f}" cy="{cy + dy * step:.1f}" rx="{r:.1f}" ry="{r:.1f}" fill="{fill}"/>'
        for dx, dy in _PIPS.get(face, ())
    )


@lru_cache(maxsize=256)
def _die(cx: float, cy: float, size: float, face: int, *, real: bool) -> str:
    """A die face: ``real`` is the game's die (white, bold), otherwise the face printed on the market card."""
    half = size / 2
    if real:
        body = _deco_rect(cx - half, cy - half, size, size, "#ffffff", INK, extra=' stroke-width="2.5"')
        return body + _pips(cx, cy, size, face, INK)
    body = _deco_rect(cx - half, cy - half, size, size, "none", "#9a9483", extra=' stroke-dasharray="3 2"')
    return body + _pips(cx, cy, size, face, "#9a9483")


# --- pictograms (lines and ellipses only, so they stay plain inside clickable groups) -------------


def _wheat_icon(cx: float, cy: float, s: float) -> str:
    parts = [
        f'<line x1="{cx:.1f}" y1="{cy - s:.1f}" x2="{cx:.1f}" y2="{cy + s:.1f}" stroke="#8a6d00" stroke-width="2"/>'
    ]
    for i in range(4):
        gy = cy - s * 0.8 + i * s * 0.38
        for side in (-1, 1):
            parts.append(
                f'<ellipse cx="{cx + side * s * 0.22:.1f}" cy="{gy:.1f}" rx="{s * 0.16:.1f}" ry="{s * 0.3:.1f}" '
                f'fill="{YELLOW}" stroke="#8a6d00" stroke-width="1" '
                f'transform="rotate({side * 25} {cx + side * s * 0.22:.1f} {gy:.1f})"/>'
            )
    return "".join(parts)


def _bread_icon(cx: float, cy: float, s: float) -> str:
    parts = [
        f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{s:.1f}" ry="{s * 0.55:.1f}" fill="{ORANGE}" '
        f'stroke="#7a4a00" stroke-width="1.5"/>'
    ]
    for i in (-1, 0, 1):
        x = cx + i * s * 0.45
        parts.append(
            f'<line x1="{x - s * 0.15:.1f}" y1="{cy + s * 0.25:.1f}" x2="{x + s * 0.15:.1f}" y2="{cy - s * 0.25:.1f}" '
            f'stroke="#7a4a00" stroke-width="2"/>'
        )
    return "".join(parts)


def _animal_icon(cx: float, cy: float, s: float) -> str:
    legs = "".join(
        f'<line x1="{cx + dx * s:.1f}" y1="{cy + s * 0.3:.1f}" x2="{cx + dx * s:.1f}" y2="{cy + s * 0.8:.1f}" '
        f'stroke="{INK}" stroke-width="2"/>'
        for dx in (-0.5, -0.2, 0.2, 0.5)
    )
    return (
        legs + f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{s * 0.75:.1f}" ry="{s * 0.45:.1f}" fill="#ffffff" '
        f'stroke="{INK}" stroke-width="1.5"/>'
        + f'<ellipse cx="{cx + s * 0.8:.1f}" cy="{cy - s * 0.3:.1f}" rx="{s * 0.28:.1f}" ry="{s * 0.22:.1f}" '
        f'fill="{GREEN}" stroke="{INK}" stroke-width="1.5"/>'
    )


_ICON_SIZE = 20.0
DEFS = (
    "<defs>"
    + "".join(
        f'<g id="ff-icon-{sort}">{draw(0.0, 0.0, _ICON_SIZE)}</g>'
        for sort, draw in ((c.WHEAT, _wheat_icon), (c.BREAD, _bread_icon), (c.ANIMAL, _animal_icon))
    )
    + "</defs>"
)
"""The pictograms, drawn once per picture and placed with ``<use>``."""


def _icon(sort: str, cx: float, cy: float, s: float) -> str:
    return f'<use href="#ff-icon-{sort}" transform="translate({cx:.1f} {cy:.1f}) scale({s / _ICON_SIZE:.3f})"/>'


@lru_cache(maxsize=4096)
def _card(
    x: float, y: float, w: float, h: float, sort: str, lines: tuple[str, ...], action: str | None, *, faded: bool
) -> str:
    """One card: a coloured band with the sort's name, its letter, a pictogram and up to two lines of text."""
    stroke = "#9a9483" if faded else INK
    dash = ' stroke-dasharray="5 3"' if faded else ""
    opacity = ' opacity="0.45"' if faded else ""
    band = max(16.0, h * 0.17)
    size = 11 if w < 70 else 13
    body = (
        _rect(x, y, w, h, "#ffffff", stroke, extra=' stroke-width="1.5"' + dash)
        + f"<g{opacity}>"
        + f'<line x1="{x + 1.5:.1f}" y1="{y + band / 2 + 1:.1f}" x2="{x + w - 1.5:.1f}" y2="{y + band / 2 + 1:.1f}" '
        f'stroke="{SORT_COLOUR[sort]}" stroke-width="{band:.1f}"/>'
        + _t(x + w / 2, y + band / 2 + 5, sort.upper(), size=size, anchor="middle", bold=True)
        + _t(x + 6, y + band + 16, SORT_LETTER[sort], size=15, bold=True)
        + _icon(sort, x + w / 2 + 4, y + band + (h - band) * 0.36, min(w, h) * 0.2)
        + "</g>"
    )
    for i, line in enumerate(lines):
        body += _t(
            x + w / 2, y + h - 8 - (len(lines) - 1 - i) * (size + 4), line, size=size, anchor="middle", bold=i == 0
        )
    return _group(action, body)


def _stack_shadow(x: float, y: float, w: float, h: float, count: int) -> str:
    """The cards under the top one, peeking out behind it (at most 5 shown)."""
    return "".join(
        _deco_rect(x + 4 * k, y - 4 * k, w, h, "#f3f1ea", "#9a9483") for k in range(min(count - 1, 5), 0, -1)
    )


# --- the parts of the table ---------------------------------------------------------------------------


def _seat_name(p: int, player: int | None) -> str:
    return f"Player {p} (you)" if p == player else f"Player {p}"


def _winners(view: dict[str, Any]) -> list[int]:
    """The rulebook's winners from public information: most money, then money + cards at base value."""
    keys = []
    for money, farm in zip(view["money"], view["farms"], strict=True):
        keys.append((int(money), int(money) + sum(int(farm[s]) * c.base_value(s) for s in c.SORTS)))
    best = max(keys)
    return [p for p, key in enumerate(keys) if key == best]


def _header(view: dict[str, Any], legal: list[str], player: int | None) -> tuple[list[str], float]:
    players = int(view["players"])
    to_act = view["to_act"]
    who = "solo" if players == 1 else f"{players} players"
    parts = [
        _t(MARGIN, 32, "Farmers Finances", size=22, bold=True),
        _t(WIDTH - MARGIN, 32, f"{who} · turn {view['turn']} · goal {view['goal']} coins", size=15, anchor="end"),
    ]
    if to_act is None:
        if players == 1:
            status = f"Game over: {view['money'][0]} coins after {view['turn']} turns"
        else:
            winners = _winners(view)
            names = " and ".join(_seat_name(p, player) for p in winners)
            coins = view["money"][winners[0]]
            status = (
                f"Game over: ★ {names} win{'s' if len(winners) == 1 else ''} with {coins} coins"
                if len(winners) == 1
                else f"Game over: ★ shared win, {names} with {coins} coins"
            )
        colour = GREEN
    else:
        actor = "You" if to_act == player else f"Player {to_act}"
        phase = view["phase"]
        if phase == "pick":
            status = f"▶ {actor}: a 6 was rolled, choose the new market row"
        elif phase == "market":
            status = f"▶ {actor}: " + (
                "the marketplace was emptied, reroll the die" if view.get("must_reroll") else _MARKET_WORDS
            )
        else:
            status = f"▶ {actor}: " + ("nothing is possible, pass" if legal == ["pass"] else _ACTION_WORDS)
        colour = BLUE
    parts.append(_t(MARGIN, 60, status, size=16, bold=True, fill=colour))
    notes = []
    if view["variants"]:
        notes.append("Variant: " + ", ".join(str(v) for v in view["variants"]))
    if view.get("end_triggered") and to_act is not None:
        notes.append("Someone reached 70 coins: the game ends when this round is complete")
    if players == 1 and view["last_roll"] == c.FREE_CHOICE_FACE and to_act is not None:
        notes.append("This turn's roll was a 6, which sells the farm at the market")
    y = 66.0
    if notes:
        parts.append(_t(MARGIN, 84, " · ".join(notes), size=13, fill=MUTED))
        y = 90.0
    return parts, y + 8


MARKET_H = 318.0
ROW_H = 40.0


def _market_card(view: dict[str, Any], x: float, y: float, w: float) -> str:
    solo = int(view["players"]) == 1
    verb = "pick" if view["phase"] == "pick" else ("move" if not solo else None)
    return _market_card_drawn(x, y, w, int(view["row"]), verb, solo, int(view["last_roll"] or 0))


@lru_cache(maxsize=1024)
def _market_card_drawn(x: float, y: float, w: float, row_now: int, verb: str | None, solo: bool, last: int) -> str:
    """The market card (the same few inputs come back all game long, so it is drawn once each)."""
    parts = [
        _rect(x, y, w, MARKET_H, PANEL),
        _t(x + 14, y + 26, "MARKET CARD", size=15, bold=True),
        _t(x + w - 14, y + 26, f"the die is on row {row_now}", size=13, anchor="end", fill=MUTED),
    ]
    cols = {"die": x + 46, "buy": x + 118, "sell": x + 172, "wheat": x + 280, "animal": x + 400}
    hy = y + 52
    parts.append(_t(cols["die"], hy, "row", size=12, anchor="middle", fill=MUTED))
    parts.append(_t(cols["buy"], hy, "BUY", size=12, anchor="middle", fill=MUTED, bold=True))
    parts.append(_t(cols["sell"], hy, "SELL", size=12, anchor="middle", fill=MUTED, bold=True))
    parts.append(_t(cols["wheat"], hy, "wheat buy · sell", size=12, anchor="middle", fill=MUTED))
    parts.append(_t(cols["animal"], hy, "animal buy · sell", size=12, anchor="middle", fill=MUTED))
    top = y + 60
    for i, row in enumerate(c.MARKET_ROWS):
        parts.append(_market_row(x, top + i * ROW_H, w, i, row, row == row_now, verb))
    fy = top + 5 * ROW_H + 8
    if last:
        parts.append(_die(x + 32, fy + 22, 30, last, real=True))
        parts.append(_t(x + 56, fy + 19, f"last roll: {last}", size=13, bold=True))
    else:
        parts.append(_t(x + 14, fy + 19, "no roll yet", size=13, fill=MUTED))
    parts.append(_t(x + 56 if last else x + 14, fy + 37, f"Bread always sells for {c.BREAD_PRICE}.", size=13))
    if not solo:
        bx, bw = x + w - 150, 136.0
        button = (
            _rect(bx, fy + 4, bw, 38, "#eef5fa", BLUE, extra=' stroke-width="1.5"')
            + f'<polyline points="{bx + 12:.1f},{fy + 12:.1f} {bx + 34:.1f},{fy + 12:.1f} {bx + 34:.1f},{fy + 34:.1f} '
            f'{bx + 12:.1f},{fy + 34:.1f} {bx + 12:.1f},{fy + 12:.1f}" '
            f'fill="#ffffff" stroke="{INK}" stroke-width="1.5"/>'
            + _t(bx + 23, fy + 28, "?", size=15, anchor="middle", bold=True)
            + _t(bx + 44, fy + 28, "reroll die", size=14, bold=True, fill=BLUE)
        )
        parts.append(_group("reroll", button))
    else:
        parts.append(_t(x + w - 14, fy + 19, "solo: rolled at the start", size=12, anchor="end", fill=MUTED))
        parts.append(_t(x + w - 14, fy + 37, "of each turn (a 6 sells the farm)", size=12, anchor="end", fill=MUTED))
    return "".join(parts)


@lru_cache(maxsize=256)
def _market_row(x: float, ry: float, w: float, i: int, row: int, here: bool, verb: str | None) -> str:
    """Row ``i`` of the market card (top at ``ry``): its modifiers and prices, and its die face; ``here``:
    the die is on it. Written once per place and state (a row looks the same in many positions)."""
    cols = {"die": x + 46, "buy": x + 118, "sell": x + 172, "wheat": x + 280, "animal": x + 400}
    fill = "#dcefff" if here else ("#faf8f2" if i % 2 else "#ffffff")
    body = _rect(x + 8, ry, w - 16, ROW_H - 4, fill, BLUE if here else LINE)
    body += _t(x + 18, ry + 24, "▶" if here else "", size=14, bold=True, fill=BLUE)
    body += _t(cols["buy"], ry + 24, _signed(c.BUY_MODIFIER[row]), size=14, anchor="middle", bold=here)
    body += _t(cols["sell"], ry + 24, _signed(c.SELL_MODIFIER[row]), size=14, anchor="middle", bold=here)
    for sort in c.MARKET_SORTS:
        body += _t(
            cols[sort],
            ry + 24,
            f"{c.buy_cost(sort, row)} · {c.sell_price(sort, row)}",
            size=14,
            anchor="middle",
            bold=here,
        )
    return _group(f"{verb} {row}" if verb else None, body) + _die(
        cols["die"], ry + (ROW_H - 4) / 2, 26 if here else 22, row, real=here
    )


CARD_W, CARD_H = 104.0, 146.0


BAND_CACHE_LIMIT: Final = 1024
_MARKETS: BoundedCache[tuple[Any, ...], list[str]] = BoundedCache(BAND_CACHE_LIMIT)
"""Marketplaces by everything they show: the same for every seat (the page makes the legal buys buttons)."""
_TRACKS: BoundedCache[tuple[Any, ...], tuple[list[str], float]] = BoundedCache(BAND_CACHE_LIMIT)
"""Money tracks by the money, the goal, the place and whose "(you)" they mark."""


def _marketplace(view: dict[str, Any], x: float, y: float, w: float) -> list[str]:
    """The marketplace (or the solo piles), drawn once per position for every seat."""
    key = (x, y, w, repr(view["market"]), repr(view["buy_prices"]), repr(view["sell_prices"]), repr(view.get("piles")))
    drawn = _MARKETS.get(key)
    if drawn is None:
        drawn = _MARKETS.put(key, _draw_marketplace(view, x, y, w))
    return drawn


def _draw_marketplace(view: dict[str, Any], x: float, y: float, w: float) -> list[str]:
    market = view["market"]
    buy = view["buy_prices"]
    sell = view["sell_prices"]
    piles = view.get("piles")
    parts = [_rect(x, y, w, MARKET_H, PANEL)]
    slots = (x + w * 0.27 - CARD_W / 2, x + w * 0.73 - CARD_W / 2)
    cy = y + 78
    if piles is None:
        parts.append(_t(x + 14, y + 26, "MARKETPLACE", size=15, bold=True))
        parts.append(_t(x + w - 14, y + 26, "a buy takes the top card of a stack", size=13, anchor="end", fill=MUTED))
        for sort, cx in zip(c.MARKET_SORTS, slots, strict=True):
            count = int(market[sort])
            prices = (f"buy {buy[sort]}", f"sell {sell[sort]}")
            if count:
                parts.append(_stack_shadow(cx, cy, CARD_W, CARD_H, count))
                parts.append(_card(cx, cy, CARD_W, CARD_H, sort, prices, f"buy {sort}", faded=False))
            else:
                parts.append(_card(cx, cy, CARD_W, CARD_H, sort, ("none left",), None, faded=True))
            label = f"{count} {sort} card{'s' if count != 1 else ''}"
            parts.append(_t(cx + CARD_W / 2, cy + CARD_H + 28, label, size=14, anchor="middle", bold=True))
        parts.append(_t(x + w / 2, y + MARKET_H - 14, "Sold bread comes back as wheat.", size=12, anchor="middle"))
        return parts
    parts.append(_t(x + 14, y + 26, "THE TWO PILES (solo market)", size=15, bold=True))
    parts.append(_t(x + w - 14, y + 26, "buy one of the top cards", size=13, anchor="end", fill=MUTED))
    left, right = piles["left"], piles["right"]
    same = left["top"] == right["top"]
    for name, pile, cx in (("left", left, slots[0]), ("right", right, slots[1])):
        sort = str(pile["top"])
        size = int(pile["size"])
        action = None if (same and name == "left") else f"buy {sort}"
        lines = (f"buy {buy[sort]}", f"sell {sell[sort]}")
        parts.append(_stack_shadow(cx, cy, CARD_W, CARD_H, size))
        parts.append(_card(cx, cy, CARD_W, CARD_H, sort, lines, action, faded=False))
        label = f"{name} pile: {size} card{'s' if size != 1 else ''}"
        parts.append(_t(cx + CARD_W / 2, cy + CARD_H + 28, label, size=14, anchor="middle", bold=True))
    total = f"In the piles: {market[c.WHEAT]} wheat, {market[c.ANIMAL]} animal (the order below the tops is hidden)."
    parts.append(_t(x + w / 2, y + MARKET_H - (32 if same else 14), total, size=12, anchor="middle"))
    if same:
        note = "Both tops show the same card: you buy from the right pile."
        parts.append(_t(x + w / 2, y + MARKET_H - 14, note, size=12, anchor="middle", bold=True))
    return parts


def _money_label(money: int, you: bool) -> str:
    return f"{money} (you)" if you else str(money)


def _signed(value: int) -> str:
    """A market modifier as printed: +2, 0, −1."""
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


@lru_cache(maxsize=256)
def _money_scale(y: float, h: float, scale_max: int, goal: int) -> str:
    """The money track without its markers: the panel, the scale and the goal."""
    x0, x1 = MARGIN + 88, WIDTH - MARGIN - 36
    per = (x1 - x0) / scale_max
    line_y = y + h - 22
    parts = [
        _rect(MARGIN, y, INNER, h, PANEL),
        _t(MARGIN + 14, y + 26, "MONEY", size=15, bold=True),
        f'<line x1="{x0:.1f}" y1="{line_y:.1f}" x2="{x1:.1f}" y2="{line_y:.1f}" stroke="{INK}" stroke-width="2"/>',
    ]
    for v in range(0, scale_max + 1, 5):
        tx = x0 + v * per
        tall = v % 10 == 0
        parts.append(
            f'<line x1="{tx:.1f}" y1="{line_y - (6 if tall else 3):.1f}" x2="{tx:.1f}" '
            f'y2="{line_y + (6 if tall else 3):.1f}" stroke="{INK}"/>'
        )
        if tall:
            parts.append(_t(tx, line_y + 18, str(v), size=11, anchor="middle", fill=MUTED))
    gx = x0 + goal * per
    parts.append(
        f'<line x1="{gx:.1f}" y1="{y + 10:.1f}" x2="{gx:.1f}" y2="{line_y:.1f}" stroke="{GREEN}" stroke-width="3"/>'
    )
    parts.append(_t(gx - 6, y + 24, f"goal {goal}", size=12, anchor="end", bold=True, fill=GREEN))
    return "".join(parts)


def _money_track(view: dict[str, Any], player: int | None, y: float) -> tuple[list[str], float]:
    """The money track with a marker per seat, remembered by what it shows."""
    key = (y, player, repr(view["money"]), repr(view["goal"]))
    drawn = _TRACKS.get(key)
    if drawn is None:
        drawn = _TRACKS.put(key, _draw_money_track(view, player, y))
    return drawn


def _draw_money_track(view: dict[str, Any], player: int | None, y: float) -> tuple[list[str], float]:
    money = [int(m) for m in view["money"]]
    goal = int(view["goal"])
    top = max([goal, *money])
    scale_max = ((top + 9) // 10) * 10
    x0, x1 = MARGIN + 88, WIDTH - MARGIN - 36
    per = (x1 - x0) / scale_max
    # markers: one per seat, stacked upwards where they would overlap
    placed: list[tuple[float, float, int]] = []
    levels = []
    for p in sorted(range(len(money)), key=lambda q: (money[q], q)):
        mx = x0 + money[p] * per
        left, right = mx - 13, mx + 18 + 7.5 * len(_money_label(money[p], p == player))
        level = 0
        while any(lv == level and left < b and a < right for a, b, lv in placed):
            level += 1
        placed.append((left, right, level))
        levels.append((p, mx, level))
    depth = max(lv for _, _, lv in levels) + 1
    h = 64 + 24 * depth
    line_y = y + h - 22
    parts = [_money_scale(y, h, scale_max, goal)]
    for p, mx, level in levels:
        cy = line_y - 14 - level * 24
        you = p == player
        parts.append(
            f'<circle cx="{mx:.1f}" cy="{cy:.1f}" r="11" fill="{SEAT_COLOUR[p % 4]}" stroke="{INK}" '
            f'stroke-width="{3 if you else 1}" pointer-events="none"/>'
        )
        parts.append(_t(mx, cy + 5, str(p), size=13, anchor="middle", bold=True, fill="#ffffff"))
        parts.append(_t(mx + 15, cy + 5, _money_label(money[p], you), size=12, bold=you))
    return parts, y + h


def _chips(x: float, y: float, actions: list[str]) -> tuple[str, int]:
    """Small buttons, four to a row; returns the drawing and the number of rows."""
    drawn = "".join(_chip(x + (i % 4) * 54, y + (i // 4) * 28, action) for i, action in enumerate(actions))
    return drawn, (len(actions) + 3) // 4


@lru_cache(maxsize=1024)
def _chip(x: float, y: float, action: str) -> str:
    label = _chip_label(action)
    return _group(
        action, _rect(x, y, 50, 24, "#eef5fa", BLUE) + _t(x + 25, y + 16.5, label, size=12, anchor="middle", fill=BLUE)
    )


def _chip_label(action: str) -> str:
    words = action.split(" ")
    return f"{words[0]} {words[-1]}"


FARM_CACHE_LIMIT = 1024
_FARMS: BoundedCache[tuple[Any, ...], tuple[list[str], float]] = BoundedCache(FARM_CACHE_LIMIT)
"""Farms drawn without buttons, by everything they show (see :func:`_farm`)."""


def _farm(
    view: dict[str, Any],
    p: int,
    player: int | None,
    x: float,
    y: float,
    w: float,
    legal: list[str],
    *,
    big: bool,
    winners: list[int],
) -> tuple[list[str], float]:
    """A player's farm panel and its bottom; one without buttons (anyone's but the seat's own big one)
    is remembered by what it shows: it is drawn the same for every other seat and after most decisions."""
    if big and p == player and legal:
        return _draw_farm(view, p, player, x, y, w, legal, big=big, winners=winners)
    farm = view["farms"][p]
    key = (
        p,
        p == player,
        _seat_name(p, player),
        x,
        y,
        w,
        big,
        view["to_act"] == p,
        p in winners,
        repr(view["money"][p]),
        tuple(repr(farm[sort]) for sort in c.SORTS),
        tuple(repr(view["sell_prices"][sort]) for sort in c.SORTS) if big else (),
    )
    got = _FARMS.get(key)
    if got is None:
        parts, bottom = _draw_farm(view, p, player, x, y, w, legal, big=big, winners=winners)
        got = _FARMS.put(key, (["".join(parts)], bottom))
    return got


def _draw_farm(
    view: dict[str, Any],
    p: int,
    player: int | None,
    x: float,
    y: float,
    w: float,
    legal: list[str],
    *,
    big: bool,
    winners: list[int],
) -> tuple[list[str], float]:
    farm = view["farms"][p]
    sell = view["sell_prices"]
    money = int(view["money"][p])
    you = p == player
    acting = view["to_act"] == p
    card_w, card_h = (84.0, 118.0) if big else (64.0, 92.0)
    chips: dict[str, list[str]] = {sort: [] for sort in c.SORTS}
    bakes: list[str] = []
    if big and you:
        for action in legal:
            words = action.split(" ")
            if words[0] == "sell" and len(words) == 3 and words[1] in chips:
                chips[words[1]].append(action)
            elif words[0] == "bake":
                bakes.append(action)
    rows = max(
        (len(chips[c.WHEAT]) + 3) // 4 + (len(bakes) + 3) // 4,
        (len(chips[c.BREAD]) + 3) // 4,
        (len(chips[c.ANIMAL]) + 3) // 4,
    )
    area = max(card_h, rows * 28.0)
    h = 44 + area + 14
    stroke = BLUE if you else (INK if acting else LINE)
    width = ' stroke-width="3"' if you or acting else ""
    parts = [_rect(x, y, w, h, "#f4f9fd" if you else PANEL, stroke, extra=width)]
    star = "★ " if p in winners else ""
    parts.append(
        f'<circle cx="{x + 20:.1f}" cy="{y + 21:.1f}" r="10" fill="{SEAT_COLOUR[p % 4]}" stroke="{INK}" '
        f'pointer-events="none"/>'
    )
    parts.append(_t(x + 20, y + 26, str(p), size=12, anchor="middle", bold=True, fill="#ffffff"))
    coins = f"{money} coins"
    if big:
        parts.append(_t(x + 38, y + 27, f"{star}{_seat_name(p, player)}", size=15, bold=True))
        if acting:
            parts.append(_t(x + w - 12, y + 27, "▶ to act", size=14, anchor="end", bold=True, fill=BLUE))
            parts.append(_t(x + w - 84, y + 27, coins, size=15, anchor="end", bold=True))
        else:
            parts.append(_t(x + w - 12, y + 27, coins, size=15, anchor="end", bold=True))
    else:  # a narrow panel: the turn marker goes before the name
        mark = "▶ " if acting else ""
        parts.append(_t(x + 36, y + 27, f"{mark}{star}{_seat_name(p, player)}", size=15, bold=True))
        parts.append(_t(x + w - 12, y + 27, coins, size=15, anchor="end", bold=True))
    gy = y + 40
    if big:
        group_w = (w - 24) / 3
        for i, sort in enumerate(c.SORTS):
            gx = x + 12 + i * group_w
            count = int(farm[sort])
            lines = (f"× {count}", f"sells {sell[sort]}")
            parts.append(_card(gx, gy, card_w, card_h, sort, lines, None, faded=count == 0))
            parts.append(_mark(gx, gy, card_w, card_h, sort, count))
            drawn, used = _chips(gx + card_w + 10, gy, chips[sort])
            parts.append(drawn)
            if sort == c.WHEAT and bakes:
                drawn, _ = _chips(gx + card_w + 10, gy + used * 28, bakes)
                parts.append(drawn)
    else:
        gap = (w - 3 * card_w) / 4
        for i, sort in enumerate(c.SORTS):
            gx = x + gap + i * (card_w + gap)
            count = int(farm[sort])
            parts.append(_card(gx, gy, card_w, card_h, sort, (f"× {count}",), None, faded=count == 0))
            parts.append(_mark(gx, gy, card_w, card_h, sort, count))
    parts.append(_mark(x + 10, y + 8, w - 20, 28, "money", money))
    return [f'<g data-board="{p}">', *parts, "</g>"], y + h


def _mark(x: float, y: float, w: float, h: float, cell: str, content: int) -> str:
    """An invisible outline with ``data-cell`` and ``data-content``: the page outlines the stacks (and
    the money) each player's last decision changed."""
    return (
        f'<rect class="ft-cell" data-cell="{cell}" data-content="{content}" x="{x:.1f}" y="{y:.1f}" '
        f'width="{w:.1f}" height="{h:.1f}" rx="6" fill="none" pointer-events="none"/>'
    )


def render_svg(view: dict[str, Any], legal: list[str], player: int | None) -> str:
    """The table as ``player`` sees it (None: a spectator): one ``<svg>`` element; decisions carry data-action."""
    players = int(view["players"])
    if player is not None and not 0 <= player < players:
        player = None
    parts, y = _header(view, legal, player)
    half = (INNER - 16) / 2
    parts.append(_market_card(view, MARGIN, y, half))
    parts += _marketplace(view, MARGIN + half + 16, y, half)
    y += MARKET_H + 14
    track, y = _money_track(view, player, y)
    parts += track
    y += 14
    winners = _winners(view) if view["to_act"] is None and players > 1 else []
    others = list(range(players))
    if player is not None:
        drawn, y = _farm(view, player, player, MARGIN, y, INNER, legal, big=True, winners=winners)
        parts += drawn
        y += 14
        others.remove(player)
    elif players == 1:
        drawn, y = _farm(view, 0, None, MARGIN, y, INNER, legal, big=True, winners=winners)
        parts += drawn
        y += 14
        others = []
    if others:
        gap = 12.0
        w = (INNER - gap * (len(others) - 1)) / len(others)
        bottom = y
        for i, p in enumerate(others):
            drawn, end = _farm(view, p, player, MARGIN + i * (w + gap), y, w, legal, big=False, winners=winners)
            parts += drawn
            bottom = max(bottom, end)
        y = bottom + 14
    height = round(y + 2)
    label = "Farmers Finances table" + ("" if player is None else f", as player {player}")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ft-board" viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" role="group" '
        f"aria-label={quoteattr(label)}>"
        f'{DEFS}<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>'
    )
    return "".join([head, *parts, "</svg>"])
