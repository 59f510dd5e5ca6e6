"""Hand-built Tiny Towns positions for the tests: towns typed as 16 tokens, states set up directly."""

from __future__ import annotations

from collections.abc import Sequence

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.rules import BUILD_PHASE, GAME, NAME_PHASE, PLACE_PHASE, TinyTownsState
from farmtable.games.tiny_towns.scoring import TownFacts, score_towns

BY_CODE = {code: name for name, code in C.CODES.items()}
BY_LETTER = {"W": "wood", "H": "wheat", "B": "brick", "G": "glass", "S": "stone"}
FIRST_SET = C.FIRST_GAME_SET


def grid(text: str, monument: str = "") -> list[str]:
    """A town from 16 tokens, row by row: ``.`` empty, W H B G S cubes, building codes, MON the monument."""
    tokens = text.split()
    if len(tokens) != C.SQUARES:
        raise ValueError(f"a town needs {C.SQUARES} squares, got {len(tokens)}")
    out = []
    for token in tokens:
        if token == ".":
            out.append("")
        elif token in BY_LETTER:
            out.append(BY_LETTER[token])
        elif token == "MON":
            out.append(monument)
        else:
            out.append(BY_CODE[token])
    return out


def sheet(
    text: str,
    monument: str = "",
    readings: Sequence[str] = (),
    buildings: Sequence[str] = (),
    **facts: int,
) -> dict[str, int]:
    """The solo score sheet of one town (lines for every building kind present)."""
    town = TownFacts(grid(text, monument), monument=monument or None, **facts)
    kinds = list(dict.fromkeys([*buildings, *(v for v in town.grid if v in C.BUILDINGS)]))
    return score_towns([town], kinds, frozenset(readings)).breakdown[0]


def total(text: str, monument: str = "", readings: Sequence[str] = (), **facts: int) -> int:
    """The total score of one town."""
    return sum(sheet(text, monument, readings, **facts).values())


def position(
    towns: Sequence[str],
    buildings: Sequence[str] = FIRST_SET,
    variants: Sequence[str] = ("no-monuments",),
    phase: str = BUILD_PHASE,
    named: str = "wood",
    mb: int = 0,
    monuments: Sequence[tuple[str, bool]] | None = None,
    seed: int = 0,
) -> TinyTownsState:
    """A state with the given towns, set in the given step (build by default, wood named)."""
    state = GAME.new_game(
        players=len(towns), seed=seed, variants=tuple(variants), buildings=[b for b in buildings if b != "Cottage"]
    )
    if monuments is not None:
        kept = {m for m, _ in monuments if m}
        spares = [m for m in C.MONUMENTS if m not in kept]
        for town, (name, built) in zip(state.towns, monuments, strict=True):
            if name:
                town.dealt = [name, spares.pop()]
            else:  # an unbuilt monument of no interest to the test
                town.dealt = [spares.pop(), spares.pop()]
            town.monument = town.dealt[0]
            town.built = built and bool(name)
    for p, text in enumerate(towns):
        town = state.towns[p]
        town.grid = grid(text, town.monument)
        if "Warehouse" in town.grid:
            town.stored = {sq: [] for sq, v in enumerate(town.grid) if v == "Warehouse"}
        town.factory = {sq: "" for sq, v in enumerate(town.grid) if v == "Factory"}
        town.bank = {sq: "" for sq, v in enumerate(town.grid) if v == "Bank"}
    state.phase = phase
    state.named = named if phase in (PLACE_PHASE, BUILD_PHASE) else ""
    if state.mb != -1:
        state.mb = mb
    for town in state.towns:
        town.done = False
    state._cache.clear()
    if phase == NAME_PHASE:
        state.named = ""
    return state


def notations(state: TinyTownsState, player: int) -> list[str]:
    """The legal actions of ``player`` as notation."""
    return [str(a) for a in state.legal_actions(player)]
