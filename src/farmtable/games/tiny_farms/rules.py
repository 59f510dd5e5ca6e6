"""Tiny Farms rules: the barn wheel, the two farmers, milk, and the solo game against Farmer Emma.

Reads top to bottom like ``rulebooks/tiny-farms.txt``: Set-up, Playing a Round (Roll Dice,
Collect Animals, Round End), Game End, Milk!, then Tiny Farms Solo Mode!. Component data (the
wheel, the farm boards, Emma's card) lives in :mod:`components`; scoring in :mod:`scoring`.

A player's turn is a short sequence of small decisions (see ``docs/games/tiny-farms.md``):

- ``milk +1`` / ``milk -1`` (optional, repeatable): spend a milk token to change the die you pick;
- ``die 4 red`` / ``die 4 blue``: use a die showing 4 to move that farmer (plus the milk change);
- ``put pig R-B2``: write a collected animal into an empty space of the matching farm, once per animal.

In the solo game, after each round: ``milk ±1`` then ``plant R-A2`` (or ``cross R-A2`` when the
row or farm the leftover die names is full).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from farmtable.core import Game, IllegalAction, Result, Rng, State, as_rng
from farmtable.core.checks import whole_number, whole_numbers
from farmtable.core.notation import normalize, shorten
from farmtable.core.rng import MAX_STATE as MAX_RNG_STATE
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import helper, scoring

# --- Phases of the game ----------------------------------------------------------------------------
MOVE: Final = "move"  # choose a die (and spend milk), move a farmer
PLACE: Final = "place"  # write the collected animals into the farm
CROP: Final = "crop"  # solo round end: plant a crop (or cross out a space)
OVER: Final = "over"
PHASES: Final = (MOVE, PLACE, CROP, OVER)

MAX_EVENTS: Final = 8  # how many recent automatic events (rolls, wheel turns, Emma's moves) are kept

# --- The barn wheel (DA-TF1..TF4) --------------------------------------------------------------------


def visible_animals(rotation: int, space: int) -> tuple[int, int]:
    """The two animals the top wheel's window shows at ``space`` when it is turned ``rotation`` spaces."""
    slots = c.BOTTOM_WHEEL[space]
    first, second = c.TOP_WINDOWS[(space - rotation) % c.WHEEL_SPACES]
    return slots[first], slots[second]


VISIBLE: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple(visible_animals(r, s) for s in range(c.WHEEL_SPACES)) for r in range(c.WHEEL_SPACES)
)
"""``VISIBLE[rotation][space]``: the pair of animals shown (precomputed)."""
VISIBLE_NAMES: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(tuple(c.NAMES[a] for a in pair) for pair in spaces) for spaces in VISIBLE
)
"""``VISIBLE`` with the animals' names, for the view."""


def destination(start: int, steps: int, other: int) -> int:
    """Where a farmer moving ``steps`` spaces clockwise from ``start`` ends.

    RULEBOOK "Collect Animals": the farmers may never share a space; a farmer that would end on
    the other farmer's space moves one space further.
    """
    end = (start + steps) % c.WHEEL_SPACES
    if end == other:
        end = (end + 1) % c.WHEEL_SPACES
    return end


# --- Farm cells and action notation -----------------------------------------------------------------


def cell_name(cell: int) -> str:
    """Notation of a board cell: farm letter, column, row (``R-A1`` .. ``B-D4``)."""
    farm, local = divmod(cell, c.FARM_CELLS)
    row, col = divmod(local, c.FARM_SIDE)
    return f"{c.FARM_LETTERS[farm]}-{c.COLUMN_LETTERS[col]}{row + 1}"


def farm_cells(farm: int) -> range:
    """The board cells of one farm."""
    return range(farm * c.FARM_CELLS, (farm + 1) * c.FARM_CELLS)


def solo_cells(value: int) -> tuple[int, ...]:
    """Cells a solo crop value names: rows 1-4 run across both farms, 5 is the red farm, 6 the blue."""
    if value == c.SOLO_RED_FARM_VALUE:
        return tuple(farm_cells(c.RED))
    if value == c.SOLO_BLUE_FARM_VALUE:
        return tuple(farm_cells(c.BLUE))
    row = value - 1
    return tuple(f * c.FARM_CELLS + row * c.FARM_SIDE + col for f in (c.RED, c.BLUE) for col in range(c.FARM_SIDE))


def solo_place_name(value: int) -> str:
    """Words for what a solo crop value names ("row 3", "the red farm")."""
    if value == c.SOLO_RED_FARM_VALUE:
        return "the red farm"
    if value == c.SOLO_BLUE_FARM_VALUE:
        return "the blue farm"
    return f"row {value}"


EMMA_TRACK_OF: Final = {animal: t for t, (_, kinds, _) in enumerate(c.EMMA_TRACKS) for animal in kinds}
"""The track of Emma's card each animal fills."""

SOLO_CELLS: Final = {v: solo_cells(v) for v in range(c.MIN_DIE_VALUE, c.DIE_FACES + 1)}

# Action kinds; every action is a plain string, decoded through ACTION_CODES.
K_MILK, K_DIE, K_PUT, K_PLANT, K_CROSS, K_PASS = range(6)
MILK_UP: Final = "milk +1"
MILK_DOWN: Final = "milk -1"
PASS: Final = "pass"
DIE_ACTIONS: Final = tuple(tuple(f"die {v} {c.FARM_NAMES[f]}" for f in (c.RED, c.BLUE)) for v in range(c.DIE_FACES + 1))
PUT_ACTIONS: Final = {a: tuple(f"put {c.NAMES[a]} {cell_name(i)}" for i in range(c.BOARD_CELLS)) for a in c.ANIMALS}
PLANT_ACTIONS: Final = tuple(f"plant {cell_name(i)}" for i in range(c.BOARD_CELLS))
CROSS_ACTIONS: Final = tuple(f"cross {cell_name(i)}" for i in range(c.BOARD_CELLS))

ACTION_CODES: Final[dict[str, tuple[int, int, int]]] = {MILK_UP: (K_MILK, 1, 0), MILK_DOWN: (K_MILK, -1, 0)}
ACTION_CODES[PASS] = (K_PASS, 0, 0)
for _v in range(c.MIN_DIE_VALUE, c.DIE_FACES + 1):
    for _f in (c.RED, c.BLUE):
        ACTION_CODES[DIE_ACTIONS[_v][_f]] = (K_DIE, _v, _f)
for _a, _names in PUT_ACTIONS.items():
    for _i, _name in enumerate(_names):
        ACTION_CODES[_name] = (K_PUT, _a, _i)
for _i in range(c.BOARD_CELLS):
    ACTION_CODES[PLANT_ACTIONS[_i]] = (K_PLANT, _i, 0)
    ACTION_CODES[CROSS_ACTIONS[_i]] = (K_CROSS, _i, 0)
CANONICAL: Final = {normalize(a): a for a in ACTION_CODES}
"""Typed notation (normalized) -> canonical action string."""

NOTATION_HELP: Final = (
    "moves are: 'milk +1' / 'milk -1', 'die 4 red' / 'die 4 blue', 'put pig R-B2' "
    "(solo round end: 'plant R-A1', 'cross R-A1', 'pass')"
)


class TinyFarmsState(State[str]):
    """A game of Tiny Farms in progress (multiplayer, or solo against Farmer Emma)."""

    game: ClassVar[TinyFarmsGame]

    def __init__(self, players: int, seed: int, variants: tuple[str, ...]) -> None:
        """Set up a new game (RULEBOOK "Set-up"; solo: "Tiny Farms Solo Mode!" Set-up)."""
        self.players = players
        self.variants = variants
        self.solo = players == 1
        self.difficulty = difficulty_of(variants) if self.solo else ""
        self.advanced = "emma-advanced" in variants
        self.rng = Rng(seed)
        self.epoch = 0
        self.rounds = c.SOLO_ROUNDS if self.solo else c.ROUNDS
        self.round = 1
        self.start_player = 0
        self.dice: list[int] = []
        self.rotation = c.SETUP_ROTATION
        self.red = c.SETUP_RED_SPACE
        self.blue = c.SETUP_BLUE_SPACE
        self.milk = [c.START_MILK] * players
        self.boards = [[c.EMPTY] * c.BOARD_CELLS for _ in range(players)]
        self.order: list[int] = []
        self.turn_index = 0
        self.phase = MOVE
        self.current = 0
        self.modifier = 0
        self.pending: list[int] = []
        self.pending_farm = c.RED
        self.crop_die = 0
        self.emma_target = 0
        self.emma_filled = [0] * len(c.EMMA_TRACKS)
        for track in c.EMMA_DIFFICULTIES.get(self.difficulty, ()):
            self.emma_filled[track] += 1
        self.events: list[str] = []
        self._legal: list[str] | None = None
        self._start_round()

    # --- Playing a Round: Roll Dice ----------------------------------------------------------------

    def _start_round(self) -> None:
        """RULEBOOK "Roll Dice": the start player rolls all the dice (solo: Emma's target die first)."""
        rng = self.rng
        if self.solo:
            # Solo "Playing a Round": roll 1 die for Emma's target, set it on the Barn, roll the other two.
            self.emma_target = rng.randint(c.MIN_DIE_VALUE, c.DIE_FACES)
            others = [rng.randint(c.MIN_DIE_VALUE, c.DIE_FACES) for _ in range(c.SOLO_DICE - 1)]
            self.dice = sorted([self.emma_target, *others])
            # Solo: "You will go first in odd rounds, Farmer Emma in even."
            self.order = [0, c.EMMA] if self.round % 2 == 1 else [c.EMMA, 0]
            target = c.EMMA_TRACKS[self.emma_target - 1][0]
            self._event(f"round {self.round}: Emma's target {self.emma_target} ({target}); dice {self.dice}")
        else:
            count = self.players + c.EXTRA_DICE
            self.dice = sorted(rng.randint(c.MIN_DIE_VALUE, c.DIE_FACES) for _ in range(count))
            # "Beginning with the start player and continuing in clockwise order" (seat order).
            self.order = [(self.start_player + i) % self.players for i in range(self.players)]
            self._event(f"round {self.round}: player {self.start_player} rolls {self.dice}")
        self.epoch += 1
        self.turn_index = 0
        self._next_turn()

    def _next_turn(self) -> None:
        """Give the turn to the next player in this round's order; Emma's turns play themselves."""
        while self.turn_index < len(self.order):
            who = self.order[self.turn_index]
            if who == c.EMMA:
                self._emma_turn()
                self.turn_index += 1
                continue
            self.current = who
            self.phase = MOVE
            self.modifier = 0
            return
        self._end_round()

    # --- Collect Animals -----------------------------------------------------------------------------

    def _move(self, farm: int, steps: int) -> tuple[int, int]:
        """Move the farmer of ``farm`` clockwise ``steps`` spaces (bump rule); return the animals shown."""
        if farm == c.RED:
            self.red = destination(self.red, steps, self.blue)
            space = self.red
        else:
            self.blue = destination(self.blue, steps, self.red)
            space = self.blue
        return VISIBLE[self.rotation][space]

    def _settle_placement(self) -> None:
        """After a move or a placement: animals with no room are lost; when none is left, the turn ends."""
        board = self.boards[self.current]
        start = self.pending_farm * c.FARM_CELLS
        if self.pending and c.EMPTY not in board[start : start + c.FARM_CELLS]:
            # RULEBOOK "Animals": "If you run out of space, you do not write in the animal."
            lost = ", ".join(c.NAMES[a] for a in self.pending)
            self._event(f"player {self.current}'s {c.FARM_NAMES[self.pending_farm]} farm is full: {lost} lost")
            self.pending = []
        if not self.pending:
            self.turn_index += 1
            self._next_turn()

    # --- Round End ------------------------------------------------------------------------------------

    def _end_round(self) -> None:
        """RULEBOOK "Round End": the remaining die turns the top wheel clockwise; pass the start player left."""
        leftover = self.dice[0]
        self.dice = []
        self.rotation = (self.rotation + leftover) % c.WHEEL_SPACES
        self._event(f"the leftover {leftover} turns the wheel (rotation {self.rotation})")
        if self.solo:
            # Solo "Round End": plant a crop in the row (1-4) or farm (5, 6) the leftover die names.
            self.crop_die = leftover
            self.phase = CROP
            self.current = 0
            self.modifier = 0
            return
        self._finish_round()

    def _finish_round(self) -> None:
        """Move on to the next round, or end the game after the last (RULEBOOK "Game End")."""
        self.crop_die = 0
        self.modifier = 0
        if self.round >= self.rounds:
            self.phase = OVER
            self.current = -1
            self.order = []
            self.turn_index = 0
            return
        self.round += 1
        if not self.solo:
            self.start_player = (self.start_player + 1) % self.players
        self._start_round()

    # --- Solo: Farmer Emma -------------------------------------------------------------------------

    def emma_options(self) -> list[tuple[int, int, int, tuple[int, int]]]:
        """Every die and meeple combination open to Emma now: (die, farm, space, animals).

        Ordered by die value, then red before blue; this order is the final tie-break (ours).
        """
        options = []
        for value in sorted(set(self.dice)):
            for farm in (c.RED, c.BLUE):
                start, other = (self.red, self.blue) if farm == c.RED else (self.blue, self.red)
                space = destination(start, value, other)
                options.append((value, farm, space, VISIBLE[self.rotation][space]))
        return options

    def emma_choice(self) -> tuple[int, int, int, tuple[int, int]]:
        """The die and farmer Emma uses this turn (solo "Playing a Round", deterministic).

        Her target first; if several spaces show it, or none does, the next animal on the list
        (1-6, wrapping) decides among them, and so on. Advanced: only the options that add most
        to her score are considered, then the same list decides.
        """
        candidates = self.emma_options()
        if self.advanced:
            your_horses = scoring.horse_count(self.boards[0])
            before = self._emma_total(self.emma_filled, your_horses)
            gains = [self._emma_gain(option[3], before, your_horses) for option in candidates]
            best = max(gains)
            candidates = [o for o, g in zip(candidates, gains, strict=True) if g == best]
        for step in range(c.EMMA_DIE_TRACKS):
            track = (self.emma_target - 1 + step) % c.EMMA_DIE_TRACKS
            kinds = c.EMMA_TRACKS[track][1]
            showing = [o for o in candidates if o[3][0] in kinds or o[3][1] in kinds]
            if len({o[2] for o in showing}) == 1:
                return showing[0]
            if showing:
                candidates = showing
        return candidates[0]

    def _emma_take(self, filled: list[int], animals: Sequence[int]) -> list[str]:
        """Fill Emma's circles for the animals taken; a full track takes a chicken instead. Returns notes."""
        notes = []
        for animal in animals:
            track = EMMA_TRACK_OF[animal]
            amount = c.CALVES_PER_SPACE if animal == c.CALVES else 1
            if filled[track] >= c.EMMA_TRACKS[track][2]:
                track, amount = c.EMMA_CHICKENS, 1
            capacity = c.EMMA_TRACKS[track][2]
            if filled[track] >= capacity:
                notes.append(f"{c.NAMES[animal]} lost (her tracks are full)")
                continue
            filled[track] = min(capacity, filled[track] + amount)
            notes.append(f"{c.NAMES[animal]} -> {c.EMMA_TRACKS[track][0]}")
        return notes

    def _emma_gain(self, animals: Sequence[int], before: int, your_horses: int) -> int:
        """How much taking ``animals`` would add to Emma's score as it stands (advanced Emma)."""
        after_filled = list(self.emma_filled)
        self._emma_take(after_filled, animals)
        return self._emma_total(after_filled, your_horses) - before

    @staticmethod
    def _emma_total(filled: Sequence[int], your_horses: int) -> int:
        """Emma's score with these filled circles, horses compared with the player's as they stand."""
        horses = scoring.horse_points([your_horses, filled[c.EMMA_HORSES]], two_player_rules=True)
        return sum(scoring.emma_sheet(filled, horses[1]).values())

    def _emma_turn(self) -> None:
        """Emma uses a die and a farmer (no milk), and fills circles on her card."""
        value, farm, space, _ = self.emma_choice()
        self.dice.remove(value)
        animals = self._move(farm, value)
        notes = self._emma_take(self.emma_filled, animals)
        self._event(f"Emma: die {value} {c.FARM_NAMES[farm]} to space {space}: {'; '.join(notes)}")

    # --- The contract: who acts, what is legal ------------------------------------------------------

    def actors(self) -> list[int]:
        """The one player to decide now, or nobody once the game is over."""
        return [] if self.phase == OVER else [self.current]

    def is_over(self) -> bool:
        """True after the last round (10, or 8 solo)."""
        return self.phase == OVER

    def legal_actions(self, player: int) -> list[str]:
        """The legal decisions of ``player`` now (empty unless it is their decision)."""
        if self.phase == OVER or player != self.current:
            return []
        if self._legal is None:
            self._legal = self._generate_legal()
        return list(self._legal)

    def _generate_legal(self) -> list[str]:
        """Legal actions of the current player, in a fixed order."""
        player = self.current
        milk = self.milk[player]
        legal: list[str] = []
        if self.phase == MOVE:
            for value in sorted(set(self.dice)):
                if value + self.modifier >= c.MIN_DIE_VALUE:
                    legal.extend(DIE_ACTIONS[value])
            if milk > 0 and self.modifier >= 0:
                legal.append(MILK_UP)
            if milk > 0 and self.modifier <= 0 and max(self.dice) + self.modifier - 1 >= c.MIN_DIE_VALUE:
                legal.append(MILK_DOWN)
        elif self.phase == PLACE:
            board = self.boards[player]
            empty = [i for i in farm_cells(self.pending_farm) if board[i] == c.EMPTY]
            for animal in dict.fromkeys(self.pending):
                names = PUT_ACTIONS[animal]
                legal += [names[i] for i in empty]
        elif self.phase == CROP:
            legal.extend(self._crop_targets())
            value = self.crop_die + self.modifier
            if milk > 0 and self.modifier >= 0 and value < c.DIE_FACES:
                legal.append(MILK_UP)
            if milk > 0 and self.modifier <= 0 and value > c.MIN_DIE_VALUE:
                legal.append(MILK_DOWN)
        return legal

    def _crop_targets(self) -> list[str]:
        """Solo round end: plant in an empty space of the named row/farm; if none, cross one out."""
        board = self.boards[0]
        cells = SOLO_CELLS[self.crop_die + self.modifier]
        empty = [PLANT_ACTIONS[i] for i in cells if board[i] == c.EMPTY]
        if empty:
            return empty
        crossable = [CROSS_ACTIONS[i] for i in cells if board[i] != c.CROSSED]
        return crossable or [PASS]

    # --- Reading and checking actions ----------------------------------------------------------------

    def parse_action(self, player: int, text: str) -> str:
        """Read typed notation (case and spacing free) into the canonical action string."""
        if not isinstance(text, str):
            raise IllegalAction(f"a move is typed as text; {NOTATION_HELP}")
        if text in ACTION_CODES:  # already canonical: the common case for programs
            return text
        action = CANONICAL.get(normalize(text))
        if action is None:
            if not text.strip():
                raise IllegalAction(f"empty move: {NOTATION_HELP}")
            raise IllegalAction(f"'{shorten(text)}' is not Tiny Farms notation; {NOTATION_HELP}")
        return action

    def why_illegal(self, player: int, action: str) -> str:
        """The rule an action that is not legal now breaks, in player words."""
        if self.phase == OVER:
            return "the game is over: no more moves"
        if player != self.current:
            return f"it is not player {player}'s decision now; waiting for player {self.current}"
        code = ACTION_CODES.get(action) if isinstance(action, str) else None
        if code is None:
            return f"'{shorten(str(action))}' is not Tiny Farms notation; {NOTATION_HELP}"
        kind, a, b = code
        milk = self.milk[player]
        if self.phase == MOVE:
            return self._why_illegal_move(kind, a, b, milk)
        if self.phase == PLACE:
            return self._why_illegal_place(kind, a, b)
        return self._why_illegal_crop(kind, a, b, milk)

    def _why_illegal_move(self, kind: int, a: int, b: int, milk: int) -> str:
        """Why an action is refused while choosing a die (RULEBOOK "Collect Animals", "Milk!")."""
        dice = ", ".join(str(d) for d in self.dice)
        if kind == K_MILK:
            if milk == 0:
                return "you have no milk left to change the die"
            if a > 0:
                return "you already spent milk to lower the die: raising it now would just waste milk"
            if self.modifier > 0:
                return "you already spent milk to raise the die: lowering it now would just waste milk"
            highest = max(self.dice)
            return f"a die can never go below 1: the highest die is {highest}, already changed {self.modifier:+d}"
        if kind == K_DIE:
            if a not in self.dice:
                return f"no die shows {a}; the dice left are {dice}"
            return f"die {a} with milk {self.modifier:+d} would be {a + self.modifier}: a die can never go below 1"
        return f"choose a die and a farmer first ('die 4 red'); the dice left are {dice}"

    def _why_illegal_place(self, kind: int, a: int, b: int) -> str:
        """Why an action is refused while writing animals (RULEBOOK "Animals")."""
        waiting = " and ".join(c.NAMES[x] for x in self.pending)
        farm = c.FARM_NAMES[self.pending_farm]
        if kind != K_PUT:
            example = f"put {c.NAMES[self.pending[0]]} {cell_name(self.pending_farm * c.FARM_CELLS)}"
            return f"first write the animals you collected ({waiting}) into your {farm} farm, e.g. '{example}'"
        if a not in self.pending:
            return f"you collected {waiting}, not a {c.NAMES[a]}"
        if b // c.FARM_CELLS != self.pending_farm:
            return f"animals collected with the {farm.title()} farmer go into your {farm} farm, not {cell_name(b)}"
        content = self.boards[self.current][b]
        return f"{cell_name(b)} already holds {c.NAMES[content]}: write each animal into an empty space"

    def _why_illegal_crop(self, kind: int, a: int, b: int, milk: int) -> str:
        """Why an action is refused at the solo round end (RULEBOOK solo "Round End")."""
        value = self.crop_die + self.modifier
        place = solo_place_name(value)
        if kind == K_MILK:
            if milk == 0:
                return "you have no milk left to change the crop die"
            if (a > 0 and self.modifier < 0) or (a < 0 and self.modifier > 0):
                return "milk already changed the crop die the other way: that would just waste milk"
            return f"the crop die shows {value}: it names rows 1-4 or farms 5-6, so it cannot go to {value + a}"
        if kind == K_PLANT:
            if a not in SOLO_CELLS[value]:
                return f"the leftover die {value} says the crop goes in {place}, and {cell_name(a)} is not in it"
            if self.boards[0][a] != c.EMPTY:
                return f"{cell_name(a)} is not empty: plant the crop in an empty space of {place}"
        if kind == K_CROSS:
            if a not in SOLO_CELLS[value]:
                return f"you may only cross out a space of {place} (die {value}), and {cell_name(a)} is not in it"
            if self.boards[0][a] == c.CROSSED:
                return f"{cell_name(a)} is already crossed out"
            return f"{place} still has an empty space: plant a crop there instead of crossing out"
        if kind == K_PASS:
            return f"{place} has a space to plant or cross out: you must use it"
        return f"the round is over: plant a crop in {place} ('plant {cell_name(SOLO_CELLS[value][0])}')"

    # --- Carrying out actions -----------------------------------------------------------------------

    def _do(self, player: int, action: str) -> None:
        """Carry out a legal action, then everything automatic that follows."""
        kind, a, b = ACTION_CODES[action]
        self._legal = None
        if kind == K_MILK:
            # RULEBOOK "Milk!": discard a milk token to change the selected die by one.
            self.milk[player] -= 1
            self.modifier += a
        elif kind == K_DIE:
            # RULEBOOK "Collect Animals": each die is used once; move the chosen farmer die + milk spaces.
            self.dice.remove(a)
            steps = a + self.modifier
            self.modifier = 0
            self.pending = list(self._move(b, steps))
            self.pending_farm = b
            self.phase = PLACE
            self._settle_placement()
        elif kind == K_PUT:
            # RULEBOOK "Animals": write animals anywhere in the farm matching the farmer used.
            self.boards[player][b] = a
            self.pending.remove(a)
            self._settle_placement()
        else:
            # Solo "Round End": plant a crop, or cross out a space when the row/farm is full.
            if kind == K_PLANT:
                self.boards[player][a] = c.CROP
            elif kind == K_CROSS:
                self.boards[player][a] = c.CROSSED
            self._finish_round()

    def _event(self, text: str) -> None:
        """Remember an automatic event for the views (the last few only)."""
        self.events.append(text)
        if len(self.events) > MAX_EVENTS:
            del self.events[0]

    # --- Scores ----------------------------------------------------------------------------------------

    def result(self) -> Result:
        """The score sheet (final once the game is over; otherwise the score as it stands)."""
        # Variant horses-zero-ranks: a player with no horse is ranked in the horse comparison too.
        least = 0 if HORSES_ZERO_RANKS in self.variants else c.MIN_HORSES_TO_SCORE
        if self.solo:
            result = scoring.score_solo(self.boards[0], self.milk[0], self.emma_filled, self.difficulty, least)
        else:
            result = scoring.score_players(self.boards, self.milk, least)
        result.details["round"] = self.round
        result.details["rounds"] = self.rounds
        return result

    def result_totals(self) -> Result:
        """:meth:`result`'s totals, ranking and solo objective without the score sheets (for search)."""
        least = 0 if HORSES_ZERO_RANKS in self.variants else c.MIN_HORSES_TO_SCORE
        if self.solo:
            return scoring.totals_solo(self.boards[0], self.milk[0], self.emma_filled, least)
        return scoring.totals_players(self.boards, self.milk, least)

    def heuristic(self, player: int) -> float:
        """How good the position looks for ``player`` (greedy agent, search cut-offs); see ``evaluation.py``."""
        from farmtable.games.tiny_farms.evaluation import heuristic

        return heuristic(self, player)

    def evaluate(self) -> list[float]:
        """Each player's expected final objective from here (search leaves); see ``evaluation.py``."""
        from farmtable.games.tiny_farms.evaluation import evaluate

        return evaluate(self)

    def warm_up_search(self) -> None:
        """Build the solo evaluation's round tables of every wheel position now (about 2.7 CPU s,
        once per process), so a search never builds one inside its clock; several players: nothing.
        Called by :func:`farmtable.agents.base.warm_up`."""
        if self.solo:
            from farmtable.games.tiny_farms.lookahead import warm_up

            warm_up()

    def render_text(self, player: int | None = None) -> str:
        """The table as plain text for the terminal (see :mod:`render`)."""
        from farmtable.games.tiny_farms.render import render_text

        return render_text(self, player)

    def info_epoch(self) -> int:
        """Grows with every roll of the dice (the only chance in Tiny Farms)."""
        return self.epoch

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything on the table: Tiny Farms has no hidden information except the future rolls."""
        view: dict[str, Any] = {
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "to_act": self.actors(),
            "start_player": self.start_player,
            "dice": list(self.dice),
            "milk_change": self.modifier,
            "wheel": {
                "rotation": self.rotation,
                "red": self.red,
                "blue": self.blue,
                "spaces": [list(pair) for pair in VISIBLE_NAMES[self.rotation]],
            },
            "players": [
                {
                    "milk": self.milk[p],
                    "red": self._farm_rows(p, c.RED),
                    "blue": self._farm_rows(p, c.BLUE),
                }
                for p in range(self.players)
            ],
            "collected": [c.NAMES[a] for a in self.pending] if self.phase == PLACE else [],
            "collected_for": c.FARM_NAMES[self.pending_farm] if self.phase == PLACE else None,
            "events": list(self.events),
            "viewer": player,
        }
        if self.solo:
            view["emma"] = {
                "difficulty": self.difficulty,
                "advanced": self.advanced,
                "target": self.emma_target,
                "target_animal": c.EMMA_TRACKS[self.emma_target - 1][0] if self.emma_target else None,
                "tracks": {name: [self.emma_filled[t], cap] for t, (name, _, cap) in enumerate(c.EMMA_TRACKS)},
                "goes_first": self.round % 2 == 0,
            }
            if self.phase == CROP:
                value = self.crop_die + self.modifier
                view["crop"] = {"die": self.crop_die, "value": value, "place": solo_place_name(value)}
        return view

    def _farm_rows(self, player: int, farm: int) -> list[list[str]]:
        """One farm as rows of abbreviations ('.' empty)."""
        board = self.boards[player]
        base = farm * c.FARM_CELLS
        side = c.FARM_SIDE
        abbreviation = c.ABBREVIATIONS.__getitem__
        return [list(map(abbreviation, board[start : start + side])) for start in range(base, base + side * side, side)]

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> TinyFarmsState:
        """Everything is seen by everyone; only the future rolls are unknown, so just draw a new RNG."""
        copy = self.clone()
        copy.rng = Rng(as_rng(rng).next64())
        return copy

    def clone(self) -> TinyFarmsState:
        """A fast independent copy (no deepcopy)."""
        new = object.__new__(TinyFarmsState)
        new.__dict__.update(self.__dict__)
        new.rng = self.rng.copy()
        new.dice = list(self.dice)
        new.milk = list(self.milk)
        new.boards = [list(b) for b in self.boards]
        new.order = list(self.order)
        new.pending = list(self.pending)
        new.emma_filled = list(self.emma_filled)
        new.events = list(self.events)
        return new

    def to_dict(self) -> dict[str, Any]:
        """The complete state as JSON-able data, RNG included."""
        return {
            "players": self.players,
            "variants": list(self.variants),
            "rng": self.rng.state,
            "epoch": self.epoch,
            "round": self.round,
            "start_player": self.start_player,
            "dice": list(self.dice),
            "rotation": self.rotation,
            "red": self.red,
            "blue": self.blue,
            "milk": list(self.milk),
            "boards": [list(b) for b in self.boards],
            "order": list(self.order),
            "turn_index": self.turn_index,
            "phase": self.phase,
            "current": self.current,
            "modifier": self.modifier,
            "pending": list(self.pending),
            "pending_farm": self.pending_farm,
            "crop_die": self.crop_die,
            "emma_target": self.emma_target,
            "emma_filled": list(self.emma_filled),
            "events": list(self.events),
        }


HORSES_ZERO_RANKS: Final = "horses-zero-ranks"
"""Variant (issue 14): a player with no horse takes part in the horse ranking (10 / 6 points)."""
DIFFICULTY_VARIANTS: Final = {f"emma-{name}": name for name in c.EMMA_DIFFICULTIES}


def difficulty_of(variants: Sequence[str]) -> str:
    """The solo difficulty the variants choose (Easy when none is named)."""
    for name in variants:
        if name in DIFFICULTY_VARIANTS:
            return DIFFICULTY_VARIANTS[name]
    return c.DEFAULT_DIFFICULTY


MAX_SAVED_NUMBER: Final = (1 << 64) - 1
"""Largest counter a save may hold."""


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    """Read an int field and check its range."""
    return whole_number(data[key], f"'{key}'", low, high)


def _int_list(data: dict[str, Any], key: str, low: int, high: int, length: int | None = None) -> list[int]:
    """Read a list of ints, each in range, optionally of a fixed length."""
    return whole_numbers(data[key], f"'{key}'", low, high, length)


class TinyFarmsGame(Game[TinyFarmsState]):
    """Tiny Farms (Motor City Gameworks): the barn wheel, two farms per player, and solo Farmer Emma."""

    id: ClassVar[str] = "tiny-farms"
    title: ClassVar[str] = "Tiny Farms"
    summary: ClassVar[str] = (
        "Move the red or blue farmer round the barn wheel with a die to collect two animals a turn "
        "for your two farms, and score pig pairs, sheep triples, cows with calves, horses and Forest Friends."
    )
    min_players: ClassVar[int] = c.MIN_PLAYERS
    max_players: ClassVar[int] = c.MAX_PLAYERS
    variants: ClassVar[dict[str, str]] = {
        "emma-easy": "solo: Farmer Emma starts with a horse and a chicken filled in",
        "emma-medium": "solo: Farmer Emma starts with a horse, a pig and a sheep filled in",
        "emma-hard": "solo: Farmer Emma starts with two horses, a pig, a sheep and a Forest Friend",
        "emma-epic": "solo: Farmer Emma starts with the first circle of every track filled in",
        HORSES_ZERO_RANKS: "a player with no horse is ranked in the horse comparison too (default: no horse, "
        "no horse points)",
        "emma-epic-rows": "solo: Epic read per printed row: the first circle of every group (Forest Friends 5/5, "
        "sheep 3/3, pigs 2/2/2) and of every other track",
        "emma-advanced": "solo: Farmer Emma always takes the space that adds most to her score",
    }

    scoring_helper_format: ClassVar[str | None] = helper.HELPER_FORMAT

    def score_text(self, text: str) -> Result:
        """Score farms typed as text (see ``scoring_helper_format``); BadInput names the line and problem."""
        return helper.score_text(text)

    def check_players_and_variants(self, players: int, variants: tuple[str, ...]) -> None:
        """Emma variants are for the solo game only, and one difficulty at a time."""
        solo_only = [v for v in variants if v.startswith("emma-")]
        if solo_only and players != 1:
            raise ValueError(f"Farmer Emma is the solo opponent: {', '.join(solo_only)} needs players=1, not {players}")
        levels = [v for v in variants if v in DIFFICULTY_VARIANTS]
        if len(levels) > 1:
            raise ValueError(f"choose one Emma difficulty, not {' and '.join(levels)}")

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> TinyFarmsState:
        """A new game; Tiny Farms takes no options."""
        if options:
            raise ValueError(f"Tiny Farms takes no options, got: {', '.join(sorted(options))}")
        return TinyFarmsState(players, seed, variants)

    def _from_dict(self, data: dict[str, Any]) -> TinyFarmsState:
        """Rebuild a saved state, refusing anything inconsistent with ValueError."""
        players = _int(data, "players", c.MIN_PLAYERS, c.MAX_PLAYERS)
        variants = data["variants"]
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ValueError("'variants' must be a list of names")
        for name in variants:
            if name not in self.variants:
                raise ValueError(f"unknown variant '{name}'")
        if variants != sorted(set(variants)):
            raise ValueError("'variants' must be sorted and without repeats")
        self.check_players_and_variants(players, tuple(variants))
        state = object.__new__(TinyFarmsState)
        state.players = players
        state.variants = tuple(variants)
        state.solo = players == 1
        state.difficulty = difficulty_of(variants) if state.solo else ""
        state.advanced = "emma-advanced" in variants
        state.rng = Rng(_int(data, "rng", 0, MAX_RNG_STATE))
        state.epoch = _int(data, "epoch", 1, MAX_SAVED_NUMBER)
        state.rounds = c.SOLO_ROUNDS if state.solo else c.ROUNDS
        state.round = _int(data, "round", 1, state.rounds)
        state.start_player = _int(data, "start_player", 0, players - 1)
        dice_count = c.SOLO_DICE if state.solo else players + c.EXTRA_DICE
        state.dice = _int_list(data, "dice", c.MIN_DIE_VALUE, c.DIE_FACES)
        if len(state.dice) > dice_count or state.dice != sorted(state.dice):
            raise ValueError(f"'dice' must be at most {dice_count} sorted die values")
        state.rotation = _int(data, "rotation", 0, c.WHEEL_SPACES - 1)
        state.red = _int(data, "red", 0, c.WHEEL_SPACES - 1)
        state.blue = _int(data, "blue", 0, c.WHEEL_SPACES - 1)
        if state.red == state.blue:
            raise ValueError("the two farmers can never share a space")
        state.milk = _int_list(data, "milk", 0, c.START_MILK, players)
        boards = data["boards"]
        if not isinstance(boards, list) or len(boards) != players:
            raise ValueError(f"'boards' must hold one board per player ({players})")
        highest = c.CROSSED if state.solo else max(c.ANIMALS)
        state.boards = [_int_list({"board": b}, "board", c.EMPTY, highest, c.BOARD_CELLS) for b in boards]
        state.phase = data["phase"]
        if state.phase not in PHASES:
            raise ValueError(f"unknown phase {state.phase!r}")
        state.order = _int_list(data, "order", c.EMMA, players - 1)
        expected = sorted([0, c.EMMA] if state.solo else range(players))
        if state.phase != OVER and sorted(state.order) != expected:
            raise ValueError("'order' must list every player once (and Emma, solo)")
        # A finished game has no order left; saves made before 2026-11 kept the last turn's index.
        turns = len(state.order) if state.phase != OVER else len(expected)
        state.turn_index = _int(data, "turn_index", 0, turns)
        if state.phase == OVER:
            state.turn_index = 0
        state.current = _int(data, "current", -1, players - 1)
        state.modifier = _int(data, "modifier", -c.START_MILK, c.START_MILK)
        state.pending = _int_list(data, "pending", min(c.ANIMALS), max(c.ANIMALS))
        state.pending_farm = _int(data, "pending_farm", c.RED, c.BLUE)
        state.crop_die = _int(data, "crop_die", 0, c.DIE_FACES)
        state.emma_target = _int(data, "emma_target", 0 if not state.solo else 1, c.DIE_FACES if state.solo else 0)
        state.emma_filled = _int_list(data, "emma_filled", 0, max(t[2] for t in c.EMMA_TRACKS), len(c.EMMA_TRACKS))
        for t, (name, _, cap) in enumerate(c.EMMA_TRACKS):
            if state.emma_filled[t] > cap:
                raise ValueError(f"Emma's {name} track has only {cap} circles")
        events = data["events"]
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events) or len(events) > MAX_EVENTS:
            raise ValueError("'events' must be a short list of texts")
        state.events = list(events)
        state._legal = None
        _check_phase(state)
        return state


def _check_phase(state: TinyFarmsState) -> None:
    """Cross-field checks: the phase agrees with the dice, the order and the pending animals."""
    if state.phase == OVER:
        if state.current != -1 or state.round != state.rounds:
            raise ValueError("a finished game has nobody to act and is in its last round")
        return
    if state.phase in (MOVE, PLACE):
        if state.turn_index >= len(state.order) or state.order[state.turn_index] != state.current:
            raise ValueError("the player to act is not the one whose turn it is")
        used = state.turn_index + (1 if state.phase == PLACE else 0)
        total = c.SOLO_DICE if state.solo else state.players + c.EXTRA_DICE
        if len(state.dice) != total - used:
            raise ValueError(f"{len(state.dice)} dice left does not fit turn {state.turn_index + 1}")
    if state.phase == MOVE and state.pending:
        raise ValueError("no animals can be waiting before a move")
    if state.phase == PLACE and not 1 <= len(state.pending) <= c.WINDOW_SIZE:
        raise ValueError("placing animals needs one or two collected animals")
    if state.phase == CROP:
        if not state.solo or state.current != 0 or state.dice or not state.crop_die:
            raise ValueError("only a solo game plants crops, after the dice are used")
        if not c.MIN_DIE_VALUE <= state.crop_die + state.modifier <= c.DIE_FACES:
            raise ValueError("the crop die must name a row 1-4 or farm 5-6")
