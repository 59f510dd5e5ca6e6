"""Tiny Towns for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/tiny-towns.md``; data: ``games/tiny_towns/components.py`` and the pattern
geometry in ``games/tiny_towns/patterns.py``.

The catalogue is large because a build names its squares: for every building and monument, every
set of squares one of its placements (any rotation or mirror image) covers, and every target square
(the Shed, and every building once Obelisk of the Crescent is built, may go on any square). With
``no-monuments`` the targets are the pattern's squares (the Shed still anywhere); ``first-game``
keeps its seven buildings. Resource placement is simultaneous: another town's ``placement`` is
never in the view, only whether it has placed.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from farmtable.core import Result, State
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import patterns as P
from farmtable.games.tiny_towns import rules
from farmtable.games.tiny_towns.rules import PENDING_WORDS
from farmtable.rl import fast as f
from farmtable.rl.catalogue import FastEncode, RLGame, Spec
from farmtable.rl.encoding import BySeat, Counts, Ctx, Custom, Fields, Flag, Items, Num, OneHot, Seat, SeatSet

PHASES = ("keep", "name", "place", "build", "over")
"""The phases a view names (``rules.PHASES``)."""
PENDING = tuple(PENDING_WORDS.values())
"""The pending decisions a view names, as the game words them."""
SQUARES = P.SQUARE_NAMES
BUILDING_NAMES = tuple(C.BUILDINGS)
MONUMENT_NAMES = tuple(C.MONUMENTS)
CARD_NAMES = BUILDING_NAMES + MONUMENT_NAMES
GRID_VALUES = ("", *C.RESOURCES, *CARD_NAMES)
MAX_ROUNDS = 200.0
_PLACEMENT = re.compile(r"^(place|store|cavern) (\w+)(?: ([A-D][1-4]))?")


def _cards(variants: tuple[str, ...]) -> tuple[str, ...]:
    buildings = C.FIRST_GAME_SET if "first-game" in variants else BUILDING_NAMES
    return buildings if "no-monuments" in variants else buildings + MONUMENT_NAMES


def _square_sets(name: str) -> list[tuple[int, ...]]:
    patterns = [C.ALL_CARDS[name].pattern]
    if name == "Grand Mausoleum of the Rodina":
        patterns.append(C.MAUSOLEUM_ALT_PATTERN)
    sets: list[tuple[int, ...]] = []
    for pattern in patterns:
        for placement in P.placements(pattern):
            if placement.squares not in sets:
                sets.append(placement.squares)
    return sets


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Keep, name, place, store (and take), cavern, build, done, choose, add, swap, pass."""
    cards = _cards(variants)
    buildings = [b for b in cards if b in C.BUILDINGS]
    anywhere = "no-monuments" not in variants
    out = [f"keep {m}" for m in cards if m in C.MONUMENTS]
    out += [f"name {r}" for r in C.RESOURCES]
    out += [f"place {r} {sq}" for r in C.RESOURCES for sq in SQUARES]
    out += [f"store {r} {w}" for r in C.RESOURCES for w in SQUARES]
    out += [f"store {r} {w} take {t} {sq}" for r in C.RESOURCES for w in SQUARES for t in C.RESOURCES for sq in SQUARES]
    out += [f"cavern {r}" for r in C.RESOURCES]
    for name in cards:
        for squares in _square_sets(name):
            named = " ".join(SQUARES[s] for s in squares)
            targets = range(C.SQUARES) if anywhere or name == "Shed" else squares
            out += [f"build {name} {named} at {SQUARES[t]}" for t in targets]
    out.append("done")
    out += [f"choose {r}" for r in C.RESOURCES]
    out += [f"choose {b}" for b in buildings]
    out += [f"add {b} {sq}" for b in buildings for sq in SQUARES]
    out += [f"swap {sq} {b}" for sq in SQUARES for b in buildings]
    out.append("pass")
    return out


def _by_square(value: Any, width: int, fill: Any) -> list[float]:
    out = [0.0] * (C.SQUARES * width)
    for square, content in value.items():
        fill(out, P.SQUARE_INDEX[square.lower()] * width, content)
    return out


def _warehouses(value: Any, ctx: Ctx) -> list[float]:
    def fill(out: list[float], base: int, cubes: Any) -> None:
        for cube in cubes:
            out[base + C.RESOURCES.index(cube)] += 1.0

    return _by_square(value, len(C.RESOURCES), fill)


def _one_per_square(value: Any, ctx: Ctx) -> list[float]:
    def fill(out: list[float], base: int, resource: Any) -> None:
        if resource:  # "" until the owner has chosen it
            out[base + C.RESOURCES.index(resource)] = 1.0

    return _by_square(value, len(C.RESOURCES), fill)


def _squares(value: Any, ctx: Ctx) -> list[float]:
    out = [0.0] * C.SQUARES
    for square in value:
        out[P.SQUARE_INDEX[square.lower()]] = 1.0
    return out


def _placement(value: Any, ctx: Ctx) -> list[float]:
    """My own face-down placement: kind (place/store/cavern), resource, square."""
    out = [0.0] * (3 + len(C.RESOURCES) + C.SQUARES)
    match = _PLACEMENT.match(value)
    if match is None:
        raise KeyError(f"placement {value!r} is not in the encoding schema")
    out[("place", "store", "cavern").index(match.group(1))] = 1.0
    out[3 + C.RESOURCES.index(match.group(2))] = 1.0
    if match.group(3):
        out[3 + len(C.RESOURCES) + P.SQUARE_INDEX[match.group(3).lower()]] = 1.0
    return out


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: the round, the resource, every town (public parts), my monument and placement."""
    square_res = f"{C.SQUARES} squares (A1 B1 C1 D1 A2 …) × resources " + " ".join(C.RESOURCES)
    town = Fields(
        (
            ("grid", Items(OneHot(GRID_VALUES, "square: empty, a resource or a building"), C.SQUARES, SQUARES)),
            ("complete", Flag("town complete")),
            ("completed_round", Num(low=-1, high=MAX_ROUNDS, doc="round completed (−1: not)")),
            ("master_builder_turns", Num(high=MAX_ROUNDS, doc="turns as Master Builder")),
            ("warehouses", Custom(C.SQUARES * len(C.RESOURCES), _warehouses, "Warehouse cubes: " + square_res, high=3)),
            (
                "factories",
                Custom(C.SQUARES * len(C.RESOURCES), _one_per_square, "Factory resource: " + square_res, high=1),
            ),
            ("banks", Custom(C.SQUARES * len(C.RESOURCES), _one_per_square, "Bank resource: " + square_res, high=1)),
            ("cubes_on_cottages", Custom(C.SQUARES, _squares, "Statue cubes on cottages per square", high=1)),
            ("cavern", Counts(C.RESOURCES, high=2, doc="resources in the Cavern")),
            ("opaleye", Counts(BUILDING_NAMES, high=C.OPALEYE_CARDS, doc="buildings on Opaleye's Watch")),
            ("shrine_vp", Num(high=20, doc="Shrine VP")),
            ("monument_built", OneHot(MONUMENT_NAMES, "monument built")),
            ("monument_chosen", Flag("monument chosen")),
            ("has_placed", Flag("placed this round's resource")),
            ("done", Flag("done building")),
            ("pending", Counts(PENDING, high=4, doc="decisions to settle")),
            ("monument", OneHot(MONUMENT_NAMES, "my secret monument (own town only)")),
            ("dealt", Counts(MONUMENT_NAMES, high=1, doc="monuments dealt to me (own town only)")),
            (
                "placement",
                Custom(
                    3 + len(C.RESOURCES) + C.SQUARES,
                    _placement,
                    "my face-down placement: place/store/cavern, resource, square (own town only)",
                    high=1,
                ),
            ),
        )
    )
    return Fields(
        (
            ("buildings", Counts(BUILDING_NAMES, high=1, doc="the buildings of this game")),
            ("round", Num(high=MAX_ROUNDS, doc="round")),
            ("phase", OneHot(PHASES, "phase")),
            ("master_builder", Seat("Master Builder")),
            ("named", OneHot(C.RESOURCES, "resource named this round")),
            ("free_choice", Flag("Town Hall free-choice round")),
            (
                "resource_deck",
                Fields(
                    (
                        ("draw_pile", Num(high=50, doc="cards in the draw pile")),
                        ("face_up", Counts(C.RESOURCES, high=10, doc="face-up resource cards")),
                        ("revealed", Counts(C.RESOURCES, high=50, doc="revealed resource cards")),
                        ("face_down_removed", Num(high=50, doc="cards removed face down")),
                    )
                ),
            ),
            ("towns", BySeat(town)),
            ("actors", SeatSet("seats to act")),
        )
    )


def fast_encoder(sp: Spec) -> FastEncode:
    """The observation written straight from the state: the same numbers ``view(p)`` gives the schema.

    It reads the fields ``TinyTownsState.view`` reads: every town's public parts, and the observer's
    own monument, dealt cards and face-down placement only (another town's placement is only "has
    placed"). Blocks are precomputed bytes (:mod:`farmtable.rl.fast`); grids are cached by their squares.
    """
    players = sp.players
    seats = f.rotations(players)
    actors_of = f.seat_set_memo(players)
    seat_of = f.seat_sets(players)
    num, small, floats, counts, memo = f.num, f.NUM, f.floats, f.counts, f.Memo
    n_res = len(C.RESOURCES)
    phase_of = f.one_hots(PHASES)
    named_of = f.one_hots(C.RESOURCES)
    named_of[""] = named_of[None]
    no_seat = f.zeros(players)
    grid_value = {v: f.one_hot(len(GRID_VALUES), i) for i, v in enumerate(GRID_VALUES)}
    monument_of = f.one_hots(MONUMENT_NAMES)
    monument_of[""] = monument_of[None]
    no_extras = f.zeros(3 * C.SQUARES * n_res + C.SQUARES)
    no_secrets = f.zeros(2 * len(MONUMENT_NAMES) + 3 + n_res + C.SQUARES)
    numbers = {i: num(i) for i in range(-1, 256)}
    """``num`` of the small whole numbers (the round completed, turns as Master Builder, Shrine VP): one look-up."""
    no_cubes = counts(C.RESOURCES, ())
    no_pending = counts(PENDING, ())
    kinds = ("place", "store", "cavern")
    grids, buildings_memo, res_memo, opaleye_memo, pending_memo, secrets_memo = (memo() for _ in range(6))

    def res_counts(cubes: list[str]) -> bytes:
        key = tuple(cubes)
        block = res_memo.get(key)
        if block is None:
            block = res_memo.add(key, counts(C.RESOURCES, key))
        return block

    def extras(town: Any) -> bytes:
        """Warehouses, factories, banks (per square × resource) and Statue cubes (per square)."""
        stored = [0.0] * (C.SQUARES * n_res)
        for square, cubes in town.stored.items():
            for cube in cubes:
                stored[P.SQUARE_INDEX[P.SQUARE_NAMES[square].lower()] * n_res + C.RESOURCES.index(cube)] += 1.0
        blocks = [floats(stored)]
        for chosen in (town.factory, town.bank):
            block = [0.0] * (C.SQUARES * n_res)
            for square, resource in chosen.items():
                if resource:
                    block[P.SQUARE_INDEX[P.SQUARE_NAMES[square].lower()] * n_res + C.RESOURCES.index(resource)] = 1.0
            blocks.append(floats(block))
        cubes = [0.0] * C.SQUARES
        for square in town.statue:
            cubes[P.SQUARE_INDEX[P.SQUARE_NAMES[square].lower()]] = 1.0
        blocks.append(floats(cubes))
        return b"".join(blocks)

    def secrets(town: Any) -> bytes:
        """The observer's own monument, the monuments dealt, the face-down placement."""
        choice = town.choice
        key = (town.monument, tuple(town.dealt), choice if choice else None)
        block = secrets_memo.get(key)  # by the placement object: equal placements read the same
        if block is None:
            placement = [0.0] * (3 + n_res + C.SQUARES)
            if key[2] is not None:
                text = str(key[2])
                match = _PLACEMENT.match(text)
                if match is None:
                    raise KeyError(f"placement {text!r} is not in the encoding schema")
                placement[kinds.index(match.group(1))] = 1.0
                placement[3 + C.RESOURCES.index(match.group(2))] = 1.0
                if match.group(3):
                    placement[3 + n_res + P.SQUARE_INDEX[match.group(3).lower()]] = 1.0
            block = secrets_memo.add(
                key, monument_of[town.monument] + counts(MONUMENT_NAMES, key[1]) + floats(placement)
            )
        return block

    def encode(state: State[Any], player: int, out: np.ndarray) -> None:
        s: Any = state
        key = tuple(s.buildings)
        built = buildings_memo.get(key)
        if built is None:
            built = buildings_memo.add(key, counts(BUILDING_NAMES, key))
        actors = s.actors()
        parts = [
            built,
            numbers.get(s.round) or num(s.round),
            phase_of[s.phase],
            no_seat if s.mb == rules.NO_PLAYER else seat_of[player][s.mb],
            named_of[s.named],
            small[bool(s.free_round)],
            numbers.get(len(s.deck)) or num(len(s.deck)),
            res_counts(s.face_up),
            res_counts(s.discard),
            numbers.get(len(s.removed)) or num(len(s.removed)),
        ]
        towns = s.towns
        for q in seats[player]:
            town = towns[q]
            grid_key = tuple(town.grid)
            grid = grids.get(grid_key)
            if grid is None:
                grid = grids.add(grid_key, b"".join([grid_value[v] for v in grid_key]))
            completed = town.completed
            cavern = town.cavern
            opaleye_key = tuple(town.opaleye)
            opaleye = opaleye_memo.get(opaleye_key)
            if opaleye is None:
                opaleye = opaleye_memo.add(opaleye_key, counts(BUILDING_NAMES, opaleye_key))
            if town.pending:
                pending_key = tuple(k for k, _, _ in town.pending)
                pending = pending_memo.get(pending_key)
                if pending is None:
                    pending = pending_memo.add(pending_key, counts(PENDING, [PENDING_WORDS[k] for k in pending_key]))
            else:
                pending = no_pending
            parts += (  # one extension per town, in the schema's order
                grid,
                small[completed != rules.NOT_COMPLETE],
                numbers.get(completed) or num(completed),
                numbers.get(town.mb_turns) or num(town.mb_turns),
                extras(town) if town.stored or town.factory or town.bank or town.statue else no_extras,
                res_counts(cavern) if cavern else no_cubes,
                opaleye,
                numbers.get(town.shrine_vp) or num(town.shrine_vp),
                monument_of[town.monument if town.built else None],
                small[bool(town.monument)],
                small[town.choice is not None],
                small[bool(town.done)],
                pending,
                secrets(town) if q == player else no_secrets,
            )
        parts.append(actors_of(player, actors))
        f.write(out, parts)

    return encode


def solo_score(result: Result) -> float:
    """Solo: the points scored."""
    return float(result.totals[0])


SOLO_WIN_POINTS = C.SOLO_RANKS[0][0]
"""Solo "win": the top solo rank ("Master Architect", 38 points; ``components.SOLO_RANKS``)."""


def solo_win(result: Result) -> float:
    """Solo: +1 at the top tier of the solo ranks (38+ points), −1 otherwise."""
    return 1.0 if result.totals[0] >= SOLO_WIN_POINTS else -1.0


RL_GAME = RLGame(
    game_id="tiny-towns",
    name="TinyTowns",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=True,
    max_game_length=20000,
    fast=fast_encoder,
    notes="Resource placement is simultaneous: another town's `placement` is hidden (only `has_placed`). A build "
    "entry names its squares and target; the catalogue holds every placement of every card at every target.",
    solo_doc="solo `score` = points; solo `win` = +1 from 38 points (the top solo rank), else −1.",
)
