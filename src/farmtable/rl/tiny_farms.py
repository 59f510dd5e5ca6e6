"""Tiny Farms for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/tiny-farms.md``; data: ``games/tiny_farms/components.py``.
"""

from __future__ import annotations

from typing import Any

from farmtable.core import Result, State
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import rules
from farmtable.rl import fast as f
from farmtable.rl.catalogue import FastEncode, RLGame, Spec
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


def fast_encoder(sp: Spec) -> FastEncode:
    """The observation written straight from the state: the same numbers ``view(p)`` gives the schema.

    It reads the fields ``TinyFarmsState.view`` reads (everything is public but the future rolls), as
    precomputed byte blocks (:mod:`farmtable.rl.fast`). A board's two grids are its cells' one-hot blocks
    in board order, cached by the board's cells as ``bytes`` (cheaper to build and hash than a tuple);
    a new board (random play meets one on most moves) is joined by a C-level ``map`` over a tuple of
    blocks, not row by row through Python calls. Before any key is built, a board equal (by value) to the
    one last encoded for that seat reuses its grids (a list comparison costs less than the key): a move
    changes one board at most. The encoder is :func:`farmtable.rl.fast.from_joined` of a function that
    returns the observation's bytes (session 18).
    """
    players = sp.players
    seats = f.rotations(players)
    seat_of = f.seat_sets(players)
    no_seat = f.zeros(players)
    phase_of = f.one_hots(PHASES)
    wheel_of = f.one_hots(tuple(range(c.WHEEL_SPACES)))
    spaces_of = [
        b"".join(f.counts(ANIMAL_NAMES, [c.NAMES[a] for a in rules.VISIBLE[r][s]]) for s in range(c.WHEEL_SPACES))
        for r in range(c.WHEEL_SPACES)
    ]
    farm_of = f.one_hots(c.FARM_NAMES)
    face_of = f.one_hots(FACES)
    difficulty_of = f.one_hots(DIFFICULTIES)
    code_of = {code: i for i, code in enumerate(CELL_CODES)}
    if sorted(c.ABBREVIATIONS) != list(range(len(c.ABBREVIATIONS))):
        raise RuntimeError("tiny-farms: cell values are no longer 0..n-1; update fast_encoder")
    cell_blocks = tuple(f.one_hot(len(CELL_CODES), code_of[c.ABBREVIATIONS[v]]) for v in range(len(c.ABBREVIATIONS)))
    cell = cell_blocks.__getitem__
    """Board value -> the float32 bytes of its one-hot cell (a ``Grid`` entry of the schema)."""
    dice_memo, grid_memo = f.Memo(), f.Memo()
    last_board: list[list[int] | None] = [None] * players
    """Per seat, a copy of the board last encoded (any state's), and its grids in ``last_grid``: a board
    equal to it (compared by value, so any state and any viewer may use it) skips the key and the memo."""
    last_grid = [b""] * players
    collected = f.memoized(lambda key: f.counts(ANIMAL_NAMES, [c.NAMES[a] for a in key]))

    num, small = f.num, f.NUM
    no_collected = f.zeros(len(ANIMAL_NAMES)) + farm_of[None]
    tracks = len(c.EMMA_TRACKS)
    no_emma = f.zeros(len(DIFFICULTIES) + 1 + len(FACES) + tracks + 1)
    no_crop = f.zeros(len(FACES) + 1)
    place, crop, over = rules.PLACE, rules.CROP, rules.OVER

    def joined(state: State[Any], player: int) -> bytes:
        s: Any = state
        phase = s.phase
        dice_key = tuple(s.dice)
        dice = dice_memo.get(dice_key)
        if dice is None:
            dice = dice_memo.add(dice_key, f.counts(FACES, dice_key))
        parts = [
            small[s.round],
            small[s.rounds],
            phase_of[phase],
            no_seat if phase == over else seat_of[player][s.current],
            seat_of[player][s.start_player],
            dice,
            num(s.modifier),
            wheel_of[s.rotation],
            wheel_of[s.red],
            wheel_of[s.blue],
            spaces_of[s.rotation],
        ]
        milk, boards = s.milk, s.boards
        for seat in seats[player]:
            parts.append(small[milk[seat]])
            board = boards[seat]
            if board == last_board[seat]:  # most boards are as this seat's was when last encoded
                parts.append(last_grid[seat])
                continue
            key = bytes(board)  # cell values are 0..13: one byte each, a cheap key to hash
            grid = grid_memo.get(key)
            if grid is None:  # red farm then blue, row by row: the two grids
                grid = grid_memo.add(key, b"".join(map(cell, board)))
            last_board[seat] = board[:]
            last_grid[seat] = grid
            parts.append(grid)
        if phase == place:
            parts.append(collected(tuple(s.pending)))
            parts.append(farm_of[c.FARM_NAMES[s.pending_farm]])
        else:
            parts.append(no_collected)
        if s.solo:
            parts.append(difficulty_of[s.difficulty])
            parts.append(small[s.advanced])
            parts.append(face_of[s.emma_target])
            parts.extend([small[n] for n in s.emma_filled])
            parts.append(small[s.round % 2 == 0])
            if phase == crop:
                parts.append(face_of[s.crop_die])
                parts.append(num(s.crop_die + s.modifier))
            else:
                parts.append(no_crop)
        else:
            parts.append(no_emma)
            parts.append(no_crop)
        return b"".join(parts)

    return f.from_joined(joined)


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
    fast=fast_encoder,
    notes="Everything is public (only future rolls are hidden). The event log of the view is not encoded "
    "(it repeats what the rest shows).",
    solo_doc="solo `score` = my total − Emma's total; solo `win` = +1 / 0 / −1 for a win / tie / loss against Emma.",
)
