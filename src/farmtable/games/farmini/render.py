"""Plain-text drawing of Farmini farms and the table (no colour codes, ASCII only).

Each card is drawn 7 characters wide and 3 lines high, under a label line with its id and
rotation. Fences are ``|`` and ``-`` running from the card centre (``+``; ``H`` is the farmhouse)
to the middle of each side; cards sit side by side, so fences of neighbouring cards join into
lines. Each quarter is 3 characters: ``[#]`` with brackets when it lies inside an enclosed pen,
`` # `` without when it is open. An empty place inside the farm's outline (cards on both sides of
it in its row or its column) is drawn as ``(gap)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from farmtable.core import Result
from farmtable.games.farmini.components import (
    ALL_CARDS,
    ANIMAL_CELL,
    CHICKEN,
    CORN,
    GOAT,
    PIG,
    SIDES,
    AnimalCard,
    FenceCard,
)
from farmtable.games.farmini.farm import DEFAULT, Faces, Farm, Oriented
from farmtable.games.farmini.scoring import SHEET_LINES, solo_table

if TYPE_CHECKING:
    from farmtable.games.farmini.rules import FarminiState

CARD_WIDTH: Final = 7
ROW_LABEL_WIDTH: Final = 4
CARD_GAP: Final = "   "
"""Space between loose cards drawn side by side."""
SYMBOLS: Final = {
    "grass": ".",
    CORN: "#",
    ANIMAL_CELL: "o",
    PIG: "P",
    GOAT: "G",
    CHICKEN: "C",
}
LEGEND: Final = (
    "legend: | - fence  + card centre  H farmhouse  . pasture  # cornfield  o empty animal cell  "
    "P pig  G goat  C chicken  [x] inside an enclosed pen  (gap) empty place"
)
GAP: Final = ("       ", " (gap) ", "       ")
BLANK: Final = (" " * CARD_WIDTH,) * 3
NORTH, EAST, SOUTH, WEST = range(len(SIDES))
NE, SE, SW, NW = range(len(SIDES))


def card_text(card_id: str, faces: Faces = DEFAULT) -> str:
    """A short description of a card for people: ``C7 fence: fences N E; quarters ...`` (under ``faces``)."""
    card = faces.cards.get(card_id) or ALL_CARDS[card_id]
    if isinstance(card, FenceCard):
        arms = " ".join(s for s in SIDES if s in card.arms) or "none"
        kind = "farm card" if card.farm else "fence"
        return f"{card.id} {kind}: fences {arms}; quarters NE SE SW NW = {' '.join(card.quarters)}"
    if isinstance(card, AnimalCard):
        return f"{card.id} animal: {card.count} {card.kind}{'s' if card.count > 1 else ''}"
    return f"{card.id} wolf: scatters {card.kind}s"


def is_gap(farm: Farm, pos: tuple[int, int]) -> bool:
    """An empty place inside the farm's outline: cards on both sides of it in its row or column."""
    x, y = pos
    if pos in farm.cards:
        return False
    row = [cx for cx, cy in farm.cards if cy == y]
    column = [cy for cx, cy in farm.cards if cx == x]
    between_row = any(cx < x for cx in row) and any(cx > x for cx in row)
    between_column = any(cy < y for cy in column) and any(cy > y for cy in column)
    return between_row or between_column


def _symbol(content: str | None) -> str:
    """The drawing of an empty quarter: pasture, cornfield or free animal cell."""
    if content == ANIMAL_CELL:
        return SYMBOLS[ANIMAL_CELL]
    return SYMBOLS[CORN] if content == CORN else SYMBOLS["grass"]


def draw_card(card: Oriented, quarter: Callable[[int], str] | None = None) -> tuple[str, str, str]:
    """A placed card as three 7-character lines; ``quarter(i)`` draws quarter i (3 characters)."""

    def plain(index: int) -> str:
        """A quarter of a loose card: its printed content."""
        return f" {_symbol(card.quarters[index])} "

    q = quarter or plain
    arms = card.arms
    centre = "H" if getattr(ALL_CARDS[card.card_id], "farm", False) else ("+" if any(arms) else " ")
    return (
        q(NW) + ("|" if arms[NORTH] else " ") + q(NE),
        ("---" if arms[WEST] else "   ") + centre + ("---" if arms[EAST] else "   "),
        q(SW) + ("|" if arms[SOUTH] else " ") + q(SE),
    )


def render_cards(cards: list[tuple[str, str, int]], faces: Faces = DEFAULT) -> list[str]:
    """Loose cards side by side: each ``(label, card id, rotation)``; animal cards as text."""
    rows = ["", "", "", ""]
    for label, card_id, rot in cards:
        card = ALL_CARDS[card_id]
        if isinstance(card, FenceCard):
            lines = draw_card(faces.oriented[card_id, rot])
        elif isinstance(card, AnimalCard):
            lines = ("", f"{card.count} {card.kind}", "")
        else:
            lines = ("", "wolf", card.kind)
        rows[0] += label.center(CARD_WIDTH) + CARD_GAP
        for i, line in enumerate(lines):
            rows[i + 1] += line.center(CARD_WIDTH) + CARD_GAP
    return [row.rstrip() for row in rows]


def render_farm(farm: Farm) -> list[str]:
    """The farm as lines of text (north at the top), with x and y coordinates on the edges."""
    if not farm.cards:
        return ["(no cards)"]
    xs = [x for x, _ in farm.cards]
    ys = [y for _, y in farm.cards]
    pen_cells = farm.pen_cells()
    header = " " * ROW_LABEL_WIDTH + "".join(f"x={x}".center(CARD_WIDTH) for x in range(min(xs), max(xs) + 1))
    lines = [header.rstrip()]
    for y in range(max(ys), min(ys) - 1, -1):
        rows = ["", "", "", ""]
        for x in range(min(xs), max(xs) + 1):
            card = farm.cards.get((x, y))
            if card is None:
                rows[0] += " " * CARD_WIDTH
                for i, part in enumerate(GAP if is_gap(farm, (x, y)) else BLANK):
                    rows[i + 1] += part
                continue
            rows[0] += f"{card.card_id}r{card.rot}".center(CARD_WIDTH)

            def q(index: int, x: int = x, y: int = y) -> str:
                """A quarter of this farm card: its animal or content, bracketed inside a pen."""
                cell = (x, y, index)
                symbol = SYMBOLS[farm.animals[cell]] if cell in farm.animals else _symbol(farm.content(cell))
                return f"[{symbol}]" if cell in pen_cells else f" {symbol} "

            for i, line in enumerate(draw_card(card, q)):
                rows[i + 1] += line
        lines.append(" " * ROW_LABEL_WIDTH + rows[0].rstrip())
        lines.append(f"y={y}".ljust(ROW_LABEL_WIDTH) + rows[1].rstrip())
        lines.append(" " * ROW_LABEL_WIDTH + rows[2].rstrip())
        lines.append(" " * ROW_LABEL_WIDTH + rows[3].rstrip())
    return lines


def render_result(result: Result, names: list[str] | None = None) -> list[str]:
    """The score sheets side by side (one line per sheet line), the ranking and solo achievement."""
    n = len(result.totals)
    names = names or [f"player {p}" for p in range(n)]
    width = max(10, *(len(name) + 2 for name in names))
    lines = ["score".ljust(20) + "".join(name.rjust(width) for name in names)]
    for key in SHEET_LINES:
        lines.append(key.ljust(20) + "".join(str(result.breakdown[p][key]).rjust(width) for p in range(n)))
    lines.append("total".ljust(20) + "".join(str(t).rjust(width) for t in result.totals))
    ranking = " > ".join(" = ".join(names[p] for p in group) for group in result.ranking)
    lines.append(f"ranking (ties: most pigs, then goats, then chickens): {ranking}")
    if "solo_achievement" in result.details:
        lines.append(f"solo ({result.details['solo_rule_set']} rules): {result.details['solo_achievement']}")
        lines.append("  points normal | second variant | achievement")
        for row in solo_table():
            lines.append(f"  {row['normal']:>13} | {row['second_variant']:>14} | {row['text']}")
    return lines


def render_text(state: FarminiState, player: int | None = None) -> str:
    """The whole table as ``player`` sees it (everything but the deck order is public)."""
    out: list[str] = []
    status = "game over" if state.is_over() else f"player {state.current} to play"
    variants = f"  variants: {', '.join(state.variants)}" if state.variants else ""
    out.append(f"Farmini - turn {state.turn + 1}, {status}{variants}")
    out.append(f"deck: {len(state.deck)} cards face down   discarded: {len(state.discard)}")
    out.append("farmyard: " + ", ".join(f"{count} {kind}" for kind, count in state.farmyard.items()))
    out.append("face-up cards:")
    for i, cid in enumerate(state.table):
        out.append(f"  {i + 1}: {card_text(cid, state.faces)}")
    faces = state.faces
    loose = [(f"{i + 1}: {c}", c, 0) for i, c in enumerate(state.table)]
    out.extend("  " + line for line in render_cards(loose, faces))
    if state.pending is not None:
        pending = ALL_CARDS[state.pending]
        left = f" ({state.pending_left} to place)" if isinstance(pending, AnimalCard) else ""
        out.append(f"player {state.current} has taken {card_text(state.pending, faces)}{left}")
        if isinstance(pending, FenceCard):
            turns = [(f"rot {r}", pending.id, r) for r in faces.distinct_rotations[pending.id]]
            out.extend("  " + line for line in render_cards(turns, faces))
    for event in state.events:
        out.append(f"  * {event}")
    result = state.result()
    for p, farm in enumerate(state.farms):
        you = " (you)" if p == player else ""
        out.append("")
        out.append(f"player {p}{you}: {result.totals[p]} points, {len(farm.pens())} enclosed pen(s)")
        out.extend(render_farm(farm))
    out.append("")
    out.append(LEGEND)
    out.append("")
    out.extend(render_result(result))
    return "\n".join(out)
