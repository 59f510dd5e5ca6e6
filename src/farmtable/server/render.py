"""Drawing a seat's view as SVG: the per-game hook, and a generic fallback for any view.

The hook (see docs/web.md): a game package ``farmtable.games.<pkg>`` may have a module
``svg`` (or its ``render`` module may have the function) with
``render_svg(view: dict, legal: list[str], player: int | None) -> str``
returning one ``<svg>`` element. Elements the player can click carry
``data-action="<notation>"`` (one of ``legal``, exactly); the page highlights them and sends
that action when clicked. The renderer sees only the view and the legal notations, never
the state, so it cannot leak what the seat may not see.

Games without the hook (or whose hook fails) get :func:`fallback_svg`: a tidy drawing of the
view dict (key/value lines, grids for lists of lists) and the legal moves as clickable chips.
"""

from __future__ import annotations

import importlib
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from farmtable.core import Game, Result
from farmtable.core.sheet import score_sheet

log = logging.getLogger("farmtable.server")

Renderer = Callable[[dict[str, Any], list[str], "int | None"], str]

CHAR_W = 7.8
"""Width of one character of the 13px monospace font, in SVG units (an estimate)."""
LINE_H = 20
WIDTH = 760
MAX_LINES = 400
MAX_CHIPS = 120
INK = "#1b1b1b"
MUTED = "#555555"
ACCENT = "#0072B2"  # Okabe-Ito blue: safe for the common colour-vision deficiencies
CELL_FILL = "#f3f1ea"
CHIP_FILL = "#e6f1f8"

_cache: dict[str, Renderer | None] = {}


def game_package(game: Game[Any]) -> str:
    """The package of a game (``farmtable.games.tiny_towns`` for Tiny Towns)."""
    module = type(game).__module__
    if module.startswith("farmtable.games."):
        return ".".join(module.split(".")[:3])
    return "farmtable.games." + game.id.replace("-", "_")


def find_renderer(game: Game[Any]) -> Renderer | None:
    """The game's ``render_svg`` hook: in ``<pkg>.svg``, else in ``<pkg>.render``; None if neither has it."""
    if game.id in _cache:
        return _cache[game.id]
    renderer: Renderer | None = None
    for module_name in ("svg", "render"):
        name = f"{game_package(game)}.{module_name}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                log.warning("SVG renderer %s failed to import: %s", name, exc)
            continue
        except Exception:  # a broken module must not break the server: the fallback draws
            log.exception("SVG renderer %s failed to import", name)
            continue
        found = getattr(module, "render_svg", None)
        if callable(found):
            renderer = found
            break
    _cache[game.id] = renderer
    return renderer


def render(game: Game[Any], view: dict[str, Any], legal: list[str], player: int | None) -> str:
    """The SVG for ``player``'s view: the game's own renderer if it has one, else the fallback."""
    renderer = find_renderer(game)
    if renderer is not None:
        try:
            svg = renderer(view, legal, player)
            if isinstance(svg, str) and svg.lstrip().startswith("<svg"):
                return svg
            log.warning("%s render_svg returned no <svg>; using the fallback", game.id)
        except Exception:  # a broken renderer must not break the table: fall back and say so in the log
            log.exception("%s render_svg failed; using the fallback", game.id)
    return fallback_svg(view, legal, player, title=game.title)


# --- the fallback -------------------------------------------------------------------------


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _label(key: str) -> str:
    return str(key).replace("_", " ")


class _Canvas:
    """Collects SVG elements top to bottom."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = 8.0
        self.lines = 0
        self.right = 0.0
        """The rightmost point drawn: the drawing is only as wide as it needs to be."""

    @property
    def full(self) -> bool:
        return self.lines >= MAX_LINES

    def text(self, x: float, value: str, *, bold: bool = False, color: str = INK) -> None:
        self.y += LINE_H
        self.lines += 1
        limit = max(8, int((WIDTH - x - 8) / CHAR_W))
        shown = value if len(value) <= limit else value[: limit - 1] + "…"
        right = x + len(shown) * CHAR_W
        if right > self.right:
            self.right = right
        if "&" in shown or "<" in shown or ">" in shown:
            shown = escape(shown)
        attrs = f' fill="{color}"' if color != INK else ""
        if bold:
            attrs += ' font-weight="bold"'
        self.parts.append(f'<text x="{int(x)}" y="{int(self.y) - 6}"{attrs}>{shown}</text>')

    def wrapped(self, x: float, value: str, *, color: str = INK) -> None:
        limit = max(8, int((WIDTH - x - 8) / CHAR_W))
        if len(value) <= limit:
            self.text(x, value, color=color)
            return
        words = value.split(" ")
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > limit:
                self.text(x, line, color=color)
                line = word
            else:
                line = f"{line} {word}" if line else word
        self.text(x, line, color=color)

    def grid(self, x: float, rows: list[list[Any]]) -> None:
        texts = [[_fmt(c) for c in row] for row in rows]
        longest = max((len(t) for row in texts for t in row), default=1)
        columns = max((len(row) for row in texts), default=1)
        cell_w = min(max(28.0, longest * CHAR_W + 10), max(28.0, (WIDTH - x - 8) / max(columns, 1)))
        cell_h = 26.0
        limit = max(1, int((cell_w - 6) / CHAR_W))
        top = self.y + 4
        for r, row in enumerate(texts):
            for c, value in enumerate(row):
                cx = x + c * cell_w
                cy = top + r * cell_h
                shown = value if len(value) <= limit else value[: limit - 1] + "…"
                self.parts.append(
                    f'<rect x="{cx:.0f}" y="{cy:.0f}" width="{cell_w - 2:.0f}" height="{cell_h - 2:.0f}" '
                    f'rx="3" fill="{CELL_FILL}" stroke="#b8b2a0"/>'
                    f'<text x="{cx + (cell_w - 2) / 2:.0f}" y="{cy + 17:.0f}" text-anchor="middle">'
                    f"{escape(shown)}</text>"
                )
        self.y = top + len(texts) * cell_h + 4
        self.lines += len(texts)
        self.right = max(self.right, x + columns * cell_w)

    def chips(self, x: float, legal: list[str]) -> None:
        cx, cy = x, self.y + 4
        for notation in legal[:MAX_CHIPS]:
            w = len(notation) * CHAR_W + 16
            if cx + w > WIDTH - 8 and cx > x:
                cx, cy = x, cy + 30
            self.parts.append(
                f'<g class="ft-action" data-action={quoteattr(notation)} role="button" tabindex="0">'
                f'<rect x="{cx:.0f}" y="{cy:.0f}" width="{w:.0f}" height="24" rx="12" fill="{CHIP_FILL}" '
                f'stroke="{ACCENT}" stroke-width="1.5"/>'
                f'<text x="{cx + w / 2:.0f}" y="{cy + 16:.0f}" text-anchor="middle" fill="{ACCENT}">'
                f"{escape(notation)}</text></g>"
            )
            self.right = max(self.right, cx + w)
            cx += w + 6
        self.y = cy + 30
        if len(legal) > MAX_CHIPS:
            self.text(x, f"… and {len(legal) - MAX_CHIPS} more in the move list", color=MUTED)


_GRID_NAMES = {"grid", "board", "cells", "town", "farm", "squares"}
"""A flat list under one of these names whose length is a square (9, 16, 25 ...) is drawn as a square grid."""


def _square(n: int) -> int:
    side = math.isqrt(n)
    return side if side >= 3 and side * side == n else 0


def _draw(canvas: _Canvas, key: str | None, value: Any, depth: int) -> None:
    if canvas.full:
        return
    x = 10.0 + 18 * depth
    name = _label(key) if key is not None else ""
    if _scalar(value):
        canvas.wrapped(x, f"{name}: {_fmt(value)}" if name else _fmt(value))
    elif isinstance(value, dict):
        if not value:
            return  # an empty part says nothing: leave it out to keep the drawing short
        if name:
            canvas.text(x, name, bold=True)
        for k, v in value.items():
            _draw(canvas, str(k), v, depth + 1 if name else depth)
    elif isinstance(value, list | tuple):
        items = list(value)
        if not items:
            return
        elif all(_scalar(v) for v in items) and _square(len(items)) and name.split(" ")[-1] in _GRID_NAMES:
            canvas.text(x, name, bold=True)
            side = _square(len(items))
            canvas.grid(x + 18, [items[r * side : (r + 1) * side] for r in range(side)])
        elif all(_scalar(v) for v in items):
            canvas.wrapped(x, f"{name}: " + ", ".join(_fmt(v) for v in items) if name else ", ".join(map(_fmt, items)))
        elif all(isinstance(v, list | tuple) and all(_scalar(c) for c in v) for v in items):
            if name:
                canvas.text(x, name, bold=True)
            canvas.grid(x + (18 if name else 0), [list(v) for v in items])
        else:
            for i, v in enumerate(items):
                _draw(canvas, f"{name} {i}" if name else str(i), v, depth)
    else:
        canvas.text(x, f"{name}: {value!r}" if name else repr(value))


def fallback_svg(view: dict[str, Any], legal: list[str], player: int | None, title: str = "") -> str:
    """A readable SVG of any view dict, with ``legal`` as clickable ``data-action`` chips."""
    canvas = _Canvas()
    if title:
        seat = "spectator" if player is None else f"as player {player}"
        canvas.text(10, f"{title} — {seat}", bold=True, color=ACCENT)
    players = view.get("players") if isinstance(view, dict) else None
    if isinstance(players, list) and players and all(isinstance(p, dict) for p in players):
        rest = {k: v for k, v in view.items() if k != "players"}
        _draw(canvas, None, rest, 0)
        for i, p in enumerate(players):
            mark = " (you)" if player == i else ""
            canvas.text(10, f"Player {i}{mark}", bold=True, color=ACCENT)
            _draw(canvas, None, p, 1)
    else:
        _draw(canvas, None, view, 0)
    if canvas.full:
        canvas.text(10, "… (the view is longer than this drawing shows)", color=MUTED)
    if legal:
        canvas.text(10, "Your moves", bold=True, color=ACCENT)
        canvas.chips(10, legal)
    height = canvas.y + 10
    width = min(WIDTH, max(320, round(canvas.right) + 12))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ft-board ft-fallback" viewBox="0 0 {width} {height:.0f}" '
        f'width="{width}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="13" role="group" '
        f'aria-label="{escape(title or "game")} board">'
        f'<rect width="{width}" height="{height:.0f}" fill="#fffdf7"/>' + "".join(canvas.parts) + "</svg>"
    )


def result_with_sheet(result: Result, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The result as JSON plus ``sheet``, the readable score sheet (``core.sheet``) the pages show:
    columns headed by ``names`` (or the names typed in the input), lines and details in words."""
    data = result.to_dict()
    data["sheet"] = score_sheet(result, names).to_dict()
    return data
