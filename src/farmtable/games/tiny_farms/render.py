"""Tiny Farms as plain text for the terminal: the wheel, the dice, every player's two farms and milk."""

from __future__ import annotations

from typing import Final

from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms.rules import CROP, OVER, PLACE, VISIBLE, TinyFarmsState, solo_place_name

CELL_WIDTH: Final = 6  # wide enough for the longest abbreviation, "FF-bu"
FARM_GAP: Final = "   "


def _wheel_lines(state: TinyFarmsState) -> list[str]:
    """The eight barn spaces with the two animals each window shows, and where the farmers stand."""
    lines = [f"Barn wheel (top wheel turned {state.rotation}):"]
    for space in range(c.WHEEL_SPACES):
        first, second = VISIBLE[state.rotation][space]
        animals = f"{c.ABBREVIATIONS[first]} + {c.ABBREVIATIONS[second]}"
        farmer = "  <- RED farmer" if space == state.red else "  <- BLUE farmer" if space == state.blue else ""
        lines.append(f"  space {space}: {animals:<13}{farmer}")
    return lines


def _farm_lines(state: TinyFarmsState, player: int) -> list[str]:
    """A player's red and blue farms side by side with column letters and row numbers."""
    board = state.boards[player]
    header = "    " + "".join(f"{col:<{CELL_WIDTH}}" for col in c.COLUMN_LETTERS)
    width = len(header)
    lines = [f"{'Red farm':<{width}}{FARM_GAP}Blue farm", f"{header}{FARM_GAP}{header}"]
    for row in range(c.FARM_SIDE):
        halves = []
        for farm in (c.RED, c.BLUE):
            base = farm * c.FARM_CELLS + row * c.FARM_SIDE
            cells = "".join(f"{c.ABBREVIATIONS[board[base + col]]:<{CELL_WIDTH}}" for col in range(c.FARM_SIDE))
            halves.append(f" {row + 1}  {cells}")
        lines.append(f"{halves[0]:<{width}}{FARM_GAP}{halves[1]}".rstrip())
    return lines


def render_text(state: TinyFarmsState, player: int | None = None) -> str:
    """The whole table as plain text (no colours), as ``player`` sees it (all of it is public)."""
    title = f"Tiny Farms: round {state.round} of {state.rounds}"
    if state.phase == OVER:
        title += " (game over)"
    lines = [title, ""]
    lines += _wheel_lines(state)
    lines.append("")
    dice = " ".join(str(d) for d in state.dice) or "-"
    milk_change = f"   (milk change {state.modifier:+d})" if state.modifier else ""
    lines.append(f"Dice: {dice}{milk_change}")
    if state.solo:
        target = c.EMMA_TRACKS[state.emma_target - 1][0] if state.emma_target else "-"
        first = "Emma" if state.round % 2 == 0 else "you"
        level = state.difficulty + (", advanced" if state.advanced else "")
        lines.append(f"Farmer Emma ({level}): target {state.emma_target} = {target}; {first} first this round")
        tracks = ", ".join(f"{name} {state.emma_filled[t]}/{cap}" for t, (name, _, cap) in enumerate(c.EMMA_TRACKS))
        lines.append(f"  her card: {tracks}")
    else:
        lines.append(f"Start player: player {state.start_player}")
    for p in range(state.players):
        lines.append("")
        marker = "  <- to act" if p == state.current and state.phase != OVER else ""
        name = "You" if state.solo else f"Player {p}"
        lines.append(f"{name}: milk {state.milk[p]}{marker}")
        lines += _farm_lines(state, p)
    lines.append("")
    if state.phase == PLACE:
        animals = " and ".join(c.NAMES[a] for a in state.pending)
        lines.append(f"Collected {animals}: write them into your {c.FARM_NAMES[state.pending_farm]} farm.")
    elif state.phase == CROP:
        value = state.crop_die + state.modifier
        lines.append(f"Plant a crop in {solo_place_name(value)} (leftover die {state.crop_die}).")
    elif state.phase == OVER:
        result = state.result()
        if state.solo:
            lines.append(
                f"Final: you {result.totals[0]}, Emma {result.details['emma_total']} ({result.details['outcome']})"
            )
        else:
            scores = ", ".join(f"player {p} {t}" for p, t in enumerate(result.totals))
            lines.append(f"Final: {scores}; winners: {', '.join(f'player {p}' for p in result.winners)}")
    if state.events:
        lines.append("Recent: " + " | ".join(state.events[-3:]))
    return "\n".join(line.rstrip() for line in lines)
