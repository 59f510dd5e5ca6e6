"""Tiny Farms for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/tiny-farms.md``; data: ``games/tiny_farms/components.py``.
"""

from __future__ import annotations

from typing import Any

from farmtable.core import Result
from farmtable.games.tiny_farms import components as c
from farmtable.rl.catalogue import RLGame
from farmtable.rl.encoding import BySeat, Counts, Ctx, Custom, Fields, Flag, Grid, Items, Num, OneHot, Seat, SeatSet

PHASES = ("move", "place", "crop", "over")
"""The phases a view names (``rules.PHASES``)."""
DIFFICULTIES = tuple(c.EMMA_DIFFICULTIES)
"""Emma's difficulties (the ``emma-*`` variants), as the game defines them (epic-rows included)."""
FACES = tuple(range(c.MIN_DIE_VALUE, c.DIE_FACES + 1))
ANIMAL_NAMES = tuple(c.NAMES[a] for a in c.ANIMALS)
CELL_CODES = tuple(c.ABBREVIATIONS[k] for k in sorted(c.ABBREVIATIONS))
CELLS = tuple(
    f"{letter}-{col}{row}"
    for letter in c.FARM_LETTERS
    for row in range(1, c.FARM_SIDE + 1)
    for col in c.COLUMN_LETTERS[: c.FARM_SIDE]
)
"""Every space: farm letter, column, row (``R-A1`` is the red farm's top-left), row-major per farm."""


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Milk, die × farmer, put animal × space; solo also plant/cross × space and pass."""
    out = ["milk +1", "milk -1"]
    out += [f"die {v} {farm}" for v in FACES for farm in c.FARM_NAMES]
    out += [f"put {animal} {cell}" for animal in ANIMAL_NAMES for cell in CELLS]
    if players == 1:
        out += [f"plant {cell}" for cell in CELLS]
        out += [f"cross {cell}" for cell in CELLS]
        out.append("pass")
    return out


def _filled(value: Any, ctx: Ctx) -> list[float]:
    return [float(value[0])]


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: round, dice, the wheel, every farm (all public); solo Emma's card and the crop die."""
    side = c.FARM_SIDE
    tracks = Fields(
        tuple(
            (name, Custom(1, _filled, f"circles filled on Emma's {name} track", high=cap))
            for name, _, cap in c.EMMA_TRACKS
        )
    )
    return Fields(
        (
            ("round", Num(high=c.ROUNDS, doc="round")),
            ("rounds", Num(high=c.ROUNDS, doc="rounds in the game")),
            ("phase", OneHot(PHASES, "phase")),
            ("to_act", SeatSet("seats to act")),
            ("start_player", Seat("start player")),
            ("dice", Counts(FACES, high=c.MAX_PLAYERS + c.EXTRA_DICE, doc="dice left on the barn per face")),
            ("milk_change", Num(low=-c.START_MILK, high=c.START_MILK, doc="pending milk change of the die")),
            (
                "wheel",
                Fields(
                    (
                        ("rotation", OneHot(tuple(range(c.WHEEL_SPACES)), "top wheel rotation")),
                        ("red", OneHot(tuple(range(c.WHEEL_SPACES)), "Red farmer's space")),
                        ("blue", OneHot(tuple(range(c.WHEEL_SPACES)), "Blue farmer's space")),
                        ("spaces", Items(Counts(ANIMAL_NAMES, high=2, doc="animals shown"), c.WHEEL_SPACES)),
                    )
                ),
            ),
            (
                "players",
                BySeat(
                    Fields(
                        (
                            ("milk", Num(high=c.START_MILK, doc="milk tokens")),
                            ("red", Grid(side, side, CELL_CODES, "red farm")),
                            ("blue", Grid(side, side, CELL_CODES, "blue farm")),
                        )
                    )
                ),
            ),
            ("collected", Counts(ANIMAL_NAMES, high=2, doc="collected animals still to write")),
            ("collected_for", OneHot(c.FARM_NAMES, "farm they go to")),
            (
                "emma",
                Fields(
                    (
                        ("difficulty", OneHot(DIFFICULTIES, "Emma's difficulty")),
                        ("advanced", Flag("Emma advanced")),
                        ("target", OneHot(FACES, "Emma's target die")),
                        ("tracks", tracks),
                        ("goes_first", Flag("Emma moves first this round")),
                    )
                ),
            ),
            ("crop", Fields((("die", OneHot(FACES, "crop die")), ("value", Num(high=c.DIE_FACES, doc="crop number"))))),
        )
    )


def solo_score(result: Result) -> float:
    """Solo: my total minus Farmer Emma's."""
    return float(result.totals[0] - result.details["emma_total"])


def solo_win(result: Result) -> float:
    """Solo: +1 beating Emma, 0 a tie, −1 a loss."""
    return {"win": 1.0, "tie": 0.0, "loss": -1.0}[result.details["outcome"]]


RL_GAME = RLGame(
    game_id="tiny-farms",
    name="TinyFarms",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=False,
    max_game_length=2000,
    notes="Everything is public (only future rolls are hidden). The event log of the view is not encoded "
    "(it repeats what the rest shows).",
    solo_doc="solo `score` = my total − Emma's total; solo `win` = +1 / 0 / −1 for a win / tie / loss against Emma.",
)
