"""Plain-text Tiny Towns board for the terminal: no colours, readable at a glance."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import SQUARE_NAMES

if TYPE_CHECKING:
    from farmtable.games.tiny_towns.rules import TinyTownsState

CELL_WIDTH = 13
PATTERN_LETTERS = {v: k for k, v in C.RESOURCE_LETTERS.items()}


def _cell(value: str) -> str:
    if not value:
        return "."
    if value in C.MONUMENTS:
        return ("*" + value)[: CELL_WIDTH - 1]
    return value[: CELL_WIDTH - 1]


def render_grid(grid: list[str]) -> list[str]:
    """The 4x4 town: columns A-D, rows 1-4; resources in lower case, buildings by name, * monument."""
    lines = [("    " + "".join(letter.ljust(CELL_WIDTH) for letter in C.COLUMN_LETTERS)).rstrip()]
    for row in range(C.TOWN_SIZE):
        cells = grid[row * C.TOWN_SIZE : (row + 1) * C.TOWN_SIZE]
        lines.append(f" {row + 1}  " + "".join(_cell(v).ljust(CELL_WIDTH) for v in cells).rstrip())
    return lines


TERMINAL_WIDTH = 80
"""The widest line the terminal board draws: a row of cards wraps onto a second row before it."""


def render_patterns(cards: list[tuple[str, str]], max_width: int = TERMINAL_WIDTH) -> list[str]:
    """Card names side by side with their patterns drawn as small grids below them, in rows of as
    many cards as fit in ``max_width`` columns (a blank line between rows)."""
    width = max(CELL_WIDTH, *(len(name) + 2 for name, _ in cards))
    per_row = max(1, (max_width - 2) // width)
    lines: list[str] = []
    for start in range(0, len(cards), per_row):
        chunk = cards[start : start + per_row]
        rows = [pattern.split(" / ") for _, pattern in chunk]
        height = max(len(r) for r in rows)
        if lines:
            lines.append("")
        lines.append("  " + "".join(name.ljust(width) for name, _ in chunk).rstrip())
        for i in range(height):
            lines.append("  " + "".join((r[i] if i < len(r) else "").ljust(width) for r in rows).rstrip())
    return lines


def render_text(state: TinyTownsState, player: int | None = None) -> str:
    """The whole table as ``player`` may see it (None: a spectator)."""
    out: list[str] = []
    if state.is_over():
        head = "Tiny Towns — game over"
    elif state.phase == "keep":
        head = "Tiny Towns — setup: each player keeps 1 of their 2 monuments in secret"
    else:
        if state.free_round:
            what = "free choice: each player picks any resource"
        elif state.named:
            what = f"resource: {state.named}"
        else:
            what = "resource not yet named"
        head = f"Tiny Towns — round {state.round + 1}, {state.phase} step, {what}"
    out.append(head)
    if state.mb >= 0:
        out.append(f"Master Builder: player {state.mb}")
    if state.solo:
        out.append(f"Face-up resource cards: {', '.join(state.face_up)}   (deck: {len(state.deck)})")
    if state.town_hall:
        out.append(
            f"Resource deck: {len(state.deck)} to draw, revealed {', '.join(state.discard) or 'none'}, "
            f"{len(state.removed)} face down"
        )
    out.append("")
    out.append("Building cards (patterns may be rotated and mirrored)")
    out.append("  W wood, H wheat, B brick, G glass, S stone")
    out.extend(render_patterns([(name, C.BUILDINGS[name].pattern) for name in state.buildings]))
    out.extend(f"  {name}: {C.BUILDINGS[name].text}" for name in state.buildings)
    for p, town in enumerate(state.towns):
        out.append("")
        tags = []
        if p == player:
            tags.append("you")
        if p == state.mb:
            tags.append("Master Builder")
        if town.complete:
            tags.append("complete")
        elif state.phase == "place":
            tags.append("has placed" if town.choice is not None else "placing")
        elif state.phase == "build":
            tags.append("done" if town.done and not town.pending else "building")
        out.append(f"Player {p}" + (f" ({', '.join(tags)})" if tags else ""))
        if town.built:
            out.append(f"  monument (built): {town.monument}")
            out.append(f"    {C.MONUMENTS[town.monument].text}")
        elif p == player and town.monument:
            card = C.MONUMENTS[town.monument]
            out.append(f"  monument (secret): {town.monument}  {state.pattern_of(town.monument)}")
            out.append(f"    {card.text}")
        elif p == player and town.dealt:
            out.append("  monuments dealt (keep 1):")
            out.extend(f"    {name}" for name in town.dealt)
        if p == player and town.choice is not None:
            out.append(f"  your placement (hidden until all have placed): {town.choice}")
        out.extend("  " + line for line in render_grid(town.grid))
        extras = []
        extras += [f"Warehouse {SQUARE_NAMES[k]}: {' '.join(v) or 'empty'}" for k, v in sorted(town.stored.items())]
        extras += [f"Factory {SQUARE_NAMES[k]}: {v or '?'}" for k, v in sorted(town.factory.items())]
        extras += [f"Bank {SQUARE_NAMES[k]}: {v or '-'}" for k, v in sorted(town.bank.items())]
        if town.statue:
            extras.append("cubes on cottages: " + " ".join(SQUARE_NAMES[s] for s in town.statue))
        if town.cavern:
            extras.append("cavern: " + " ".join(town.cavern))
        if town.opaleye:
            extras.append("Opaleye's Watch: " + ", ".join(town.opaleye))
        if town.mb_turns:
            extras.append(f"Master Builder turns: {town.mb_turns}")
        if extras:
            out.append("  " + " | ".join(extras))
    result = state.result()
    out.append("")
    label = "Final score" if state.is_over() else "Score as it stands"
    out.append(f"{label}: " + ", ".join(f"player {p} {t}" for p, t in enumerate(result.totals)))
    if state.solo:
        out.append(f"Solo rank: {result.details['solo_rank']}")
        out.extend(
            textwrap.wrap(
                "; ".join(result.details["solo_ranks"]),
                TERMINAL_WIDTH - 2,
                initial_indent="  (",
                subsequent_indent="   ",
            )
        )
        out[-1] += ")"
    return "\n".join(folded for line in out for folded in _fit(line))


def _fit(line: str) -> list[str]:
    """A line of at most :data:`TERMINAL_WIDTH` columns, or the words of a longer one over several,
    the later ones indented two more."""
    if len(line) <= TERMINAL_WIDTH:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, TERMINAL_WIDTH, subsequent_indent=indent, break_on_hyphens=False)
