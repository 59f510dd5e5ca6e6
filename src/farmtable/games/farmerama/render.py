"""Farmerama as data for views and as plain text for the terminal (no ANSI codes).

Each farmland is drawn as a table of its seven areas: the player-wheel sector over the area
(what may be sown there, harvest, an animal head, the pacifier), its beds (``[hay]``, an empty
bed ``[  ]``, an empty scarecrow bed ``[ ^]``), and the animals on its pasture; then the stable,
the barn, the product tracks and the ornamental garden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from farmtable.games.farmerama.components import (
    ANIMALS,
    AREA_COUNT,
    AREA_NAMES,
    BAR_AFTER_SECTOR,
    BEDS_OF_AREA,
    BUILDINGS,
    GOODS,
    HEAD_SECTOR,
    PACIFIER_SECTOR,
    PRODUCT_KEYS,
    PRODUCTS,
    SCARECROW_BED,
    SECTOR_IS_HARVEST,
    SECTOR_SOW_CROP,
)

if TYPE_CHECKING:
    from farmtable.games.farmerama.rules import FarmeramaState

EMPTY = -1
BED_WIDTH = 9


def _sector_words(sector: int) -> str:
    crop = SECTOR_SOW_CROP[sector]
    parts = [f"k{sector}", f"sow {GOODS[crop]}" if crop is not None else "harvest"]
    parts += [f"{ANIMALS[a]} head" for a in range(len(ANIMALS)) if HEAD_SECTOR[a] == sector]
    if sector == PACIFIER_SECTOR:
        parts.append("pacifier")
    return " ".join(parts)


_SECTOR_LABELS = tuple(_sector_words(sector) for sector in range(AREA_COUNT))
"""The words of every sector, made once (every view names the sector over each of a board's areas)."""


def sector_label(sector: int) -> str:
    """What sector k0..k6 of the player wheel shows, in words."""
    if 0 <= sector < AREA_COUNT:
        return _SECTOR_LABELS[sector]
    return _sector_words(sector)  # out of range: fails as it always did


def board_view(state: FarmeramaState, player: int) -> dict[str, Any]:
    """One player's public board as JSON-able data (nothing on it is secret)."""
    b = state.boards[player]
    areas = []
    for area in range(AREA_COUNT):
        sector = (area + b.wheel) % AREA_COUNT
        areas.append(
            {
                "area": AREA_NAMES[area],
                "sector": sector_label(sector),
                "harvest": SECTOR_IS_HARVEST[sector],
                "beds": [GOODS[b.beds[bed]] if b.beds[bed] != EMPTY else None for bed in BEDS_OF_AREA[area]],
                "scarecrow_visible": b.beds[SCARECROW_BED[area]] == EMPTY,
                "pasture": [ANIMALS[a] for a, where in enumerate(b.pasture) if where == area],
            }
        )
    return {
        "seat": player,
        "barn": dict(zip(GOODS, b.barn, strict=True)),
        "player_wheel": b.wheel,
        "areas": areas,
        "stable": [ANIMALS[a] for a, where in enumerate(b.pasture) if where == EMPTY],
        "products": dict(zip(PRODUCT_KEYS, b.products, strict=True)),
        "garden": [{"id": BUILDINGS[g].id, "reward": BUILDINGS[g].label} for g in b.garden],
        "scarecrows": b.scarecrows(),
        "boss_sheep_rounds": b.boss_count,
    }


def _bed(state: FarmeramaState, player: int, bed: int) -> str:
    crop = state.boards[player].beds[bed]
    if crop != EMPTY:
        return f"[{GOODS[crop]}]"
    return "[ ^]" if bed in SCARECROW_BED else "[  ]"


def render_board(state: FarmeramaState, player: int) -> list[str]:
    """The text drawing of one farmland with its stable, barn, score board and garden."""
    b = state.boards[player]
    lines = [
        f"Player {player} farmland (player wheel turned {b.wheel}; bar next passes over "
        f"{AREA_NAMES[(BAR_AFTER_SECTOR - b.wheel) % AREA_COUNT]})"
    ]
    lines.append(f"  {'area':<5}{'wheel sector':<28}{'beds':<{3 * BED_WIDTH}}pasture")
    for area in range(AREA_COUNT):
        sector = (area + b.wheel) % AREA_COUNT
        beds = " ".join(_bed(state, player, bed) for bed in BEDS_OF_AREA[area])
        pasture = ", ".join(ANIMALS[a] for a, where in enumerate(b.pasture) if where == area) or "-"
        lines.append(f"  {AREA_NAMES[area]:<5}{sector_label(sector):<28}{beds:<{3 * BED_WIDTH}}{pasture}")
    stable = ", ".join(ANIMALS[a] for a, where in enumerate(b.pasture) if where == EMPTY) or "-"
    barn = "  ".join(f"{GOODS[g]} {n}" for g, n in enumerate(b.barn))
    products = "  ".join(f"{PRODUCTS[a]} {n}" for a, n in enumerate(b.products))
    garden = ", ".join(f"{BUILDINGS[g].id} {BUILDINGS[g].label}" for g in b.garden) or "-"
    lines += [
        f"  stable: {stable}",
        f"  barn: {barn}",
        f"  products: {products}",
        f"  garden ({len(b.garden)}): {garden}   scarecrows visible: {b.scarecrows()}",
    ]
    return lines


def render_text(state: FarmeramaState, player: int | None = None) -> str:
    """The whole table as plain text, as ``player`` sees it (None: a spectator)."""
    view = state.view(player)
    wheel = state.wheel_values[state.action_wheel]
    lines = [
        f"Farmerama ({view['variant']}), {f'solo turn {state.turn}' if state.solo else f'round {state.round}'}, "
        f"{view['phase']}; to act: " + (", ".join(f"P{p}" for p in state.actors()) or "nobody (game over)"),
        f"Action wheel {state.wheel_variant or 'default'}, section {state.action_wheel}: "
        f"sow {wheel.sow[0]}/{wheel.sow[1]}  "
        f"harvest {wheel.harvest[0]}/{wheel.harvest[1]}  water {wheel.water[0]}/{wheel.water[1]} (alone/shared)",
        "Supply: " + "  ".join(f"{name} {n}" for name, n in view["supply"].items()),
    ]
    if not state.solo:
        face_up = ", ".join(f"{d['slot']}: {d['id']} {d['reward']}" for d in view["buildings_face_up"]) or "-"
        lines.append(f"Ornamental buildings face up: {face_up}; {view['buildings_in_stack']} in the stack")
        lines.append("Cards: " + "; ".join(view["card_choices"]))
        if view.get("my_cards"):
            lines.append("Your cards: " + ", ".join(view["my_cards"]))
    if state.players == 3:
        lines.append(f"Boss Sheep: P{state.boss}" + (" (last rounds)" if state.final_rounds else ""))
    if "solo" in view:
        solo = view["solo"]
        lines.append(
            f"Solo turn {solo['turn']}: revealed {solo['revealed']}; tokens {solo['tokens']}; "
            f"action stack {solo['action_stack']}, supply stack {solo['supply_stack']}; goal {solo['goal']} stars"
        )
    for act in view.get("acting", []):
        doing = act["card"] or "choosing which card first"
        todo = ", ".join(act["still_to_do"]) or "-"
        lines.append(f"P{act['player']} is carrying out {doing} ({act['remaining']} left); still to do: {todo}")
    if "award" in view and view["award"]["chooser"] >= 0:
        lines.append(f"P{view['award']['chooser']} takes a face-up ornamental building")
    for p in range(state.players):
        lines.append("")
        lines += render_board(state, p)
    result = state.result()
    lines.append("")
    lines.append("Score: " + "  ".join(f"P{p} {t}" for p, t in enumerate(result.totals)))
    if state.solo:
        reached = "reached" if result.details["solo_goal_reached"] else "not reached"
        lines[-1] += f"   (solo goal {result.details['solo_goal']} stars: {reached})"
    if state.is_over():
        lines.append("Game over; winners: " + ", ".join(f"P{p}" for p in result.winners))
    return "\n".join(lines)
