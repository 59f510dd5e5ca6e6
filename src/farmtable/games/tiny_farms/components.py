"""Tiny Farms component data: the barn wheel, the farm boards, the score tables and Farmer Emma's card.

Every item carries its origin, as in ``/work/shared/components/tiny-farms.md``:

- FOUND: stated by a public source (named next to it);
- RULEBOOK: stated by the rulebook text (``rulebooks/tiny-farms.txt``, section named);
- DERIVED: follows from found facts and the rulebook;
- DA-x: a design assumption, because the printed component could not be found.

An owner of the physical game corrects the wheel by editing :data:`BOTTOM_WHEEL`,
:data:`TOP_WINDOWS` and :data:`SETUP_*` here; nothing else in the package hard-codes them.
"""

from __future__ import annotations

from typing import Final

# --- Animals (and the other things written into a farm space) -----------------------------------
# RULEBOOK "Animals - How to Manage Them": the animals and their abbreviations.
EMPTY: Final = 0
PIG: Final = 1
SHEEP: Final = 2
CHICKEN: Final = 3
COW: Final = 4
CALVES: Final = 5  # RULEBOOK: "cc" is written in ONE space and counts as TWO calves.
HORSE: Final = 6
RACCOON: Final = 7
EAGLE: Final = 8
SQUIRREL: Final = 9
BEAR: Final = 10
BUNNY: Final = 11
CROP: Final = 12  # RULEBOOK "Tiny Farms Solo Mode!": crops planted at round end (solo only).
CROSSED: Final = 13  # RULEBOOK solo: a crossed-out space; it counts as empty during scoring.

ANIMALS: Final = (PIG, SHEEP, CHICKEN, COW, CALVES, HORSE, RACCOON, EAGLE, SQUIRREL, BEAR, BUNNY)
FOREST_FRIENDS: Final = (RACCOON, EAGLE, SQUIRREL, BEAR, BUNNY)
CALVES_PER_SPACE: Final = 2  # RULEBOOK: "Each time you collect calves, you are collecting two."

# Canonical names used in the move notation ("put pig R-B2") and the views.
NAMES: Final[dict[int, str]] = {
    EMPTY: "empty",
    PIG: "pig",
    SHEEP: "sheep",
    CHICKEN: "chicken",
    COW: "cow",
    CALVES: "calves",
    HORSE: "horse",
    RACCOON: "raccoon",
    EAGLE: "eagle",
    SQUIRREL: "squirrel",
    BEAR: "bear",
    BUNNY: "bunny",
    CROP: "crop",
    CROSSED: "crossed",
}
# RULEBOOK abbreviations ("Write 'P' for a pig" ...); crop and cross marks are ours (solo sheet).
ABBREVIATIONS: Final[dict[int, str]] = {
    EMPTY: ".",
    PIG: "P",
    SHEEP: "S",
    CHICKEN: "Ch",
    COW: "C",
    CALVES: "cc",
    HORSE: "H",
    RACCOON: "FF-r",
    EAGLE: "FF-e",
    SQUIRREL: "FF-s",
    BEAR: "FF-b",
    BUNNY: "FF-bu",
    CROP: "crop",
    CROSSED: "x",
}

# --- The barn wheel --------------------------------------------------------------------------------
# FOUND (boardgamewikia.com/tiny-farms): the barn rondel has eight sections; a rotating top wheel with
# windows shows two animals per section; the farmers travel clockwise.
WHEEL_SPACES: Final = 8
WINDOW_SIZE: Final = 2

# DA-TF2: the bottom wheel. Each space prints four animal slots; a window uncovers two of them.
BOTTOM_WHEEL: Final[tuple[tuple[int, int, int, int], ...]] = (
    (PIG, SHEEP, CHICKEN, RACCOON),  # space 0
    (COW, CALVES, SHEEP, HORSE),  # space 1
    (CHICKEN, PIG, EAGLE, SHEEP),  # space 2
    (CALVES, COW, PIG, CHICKEN),  # space 3
    (CHICKEN, HORSE, SQUIRREL, PIG),  # space 4
    (CHICKEN, CALVES, COW, SHEEP),  # space 5
    (BEAR, PIG, SHEEP, CALVES),  # space 6
    (HORSE, CHICKEN, COW, BUNNY),  # space 7
)
# DA-TF3: the window (pair of slots) cut into each of the eight top-wheel sectors.
TOP_WINDOWS: Final[tuple[tuple[int, int], ...]] = ((0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2), (0, 1), (2, 3))
# DA-TF1: with the top wheel turned r spaces clockwise, space s shows TOP_WINDOWS[(s - r) mod 8].

# DA-TF5: setup — top wheel at rotation 0, Red on space 0, Blue across from it on space 4.
SETUP_ROTATION: Final = 0
SETUP_RED_SPACE: Final = 0
SETUP_BLUE_SPACE: Final = 4  # DERIVED: "across from each other" on an eight-space ring.

# --- Farm boards -----------------------------------------------------------------------------------
# FOUND (boardgamewikia.com, boardgameguys.com): each player has two 4x4 farms, red and blue.
# DA-TF6: orthogonal adjacency; nothing is adjacent across the two farms; red farm on the left.
RED: Final = 0
BLUE: Final = 1
FARM_NAMES: Final = ("red", "blue")
FARM_LETTERS: Final = ("R", "B")
FARM_SIDE: Final = 4
FARM_CELLS: Final = FARM_SIDE * FARM_SIDE
BOARD_CELLS: Final = 2 * FARM_CELLS
COLUMN_LETTERS: Final = "ABCD"

# --- The game --------------------------------------------------------------------------------------
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 4
EXTRA_DICE: Final = 1  # RULEBOOK "Set-up": dice = players + 1.
SOLO_DICE: Final = 3  # RULEBOOK solo: "Set up is the same as for 2 players".
DIE_FACES: Final = 6
MIN_DIE_VALUE: Final = 1  # RULEBOOK "Milk!": you may never change "1" to "0".
START_MILK: Final = 3  # RULEBOOK "Set-up": each player takes three milk tokens.
ROUNDS: Final = 10  # RULEBOOK "Game End": after the 10th round.
SOLO_ROUNDS: Final = 8  # RULEBOOK solo "Game End": after 8 rounds.

# --- Scoring tables (RULEBOOK "Animals - How to Manage Them & How to Score Them") -----------------
PIG_SET_SIZE: Final = 2  # "A set of two adjacent pigs"
SHEEP_SET_SIZE: Final = 3  # "A set of three adjacent sheep"
PIG_PAIR_POINTS: Final = 6
PIG_SINGLE_POINTS: Final = 1
SHEEP_TRIPLE_POINTS: Final = 12
SHEEP_PAIR_POINTS: Final = 2
SHEEP_SINGLE_POINTS: Final = 0
CHICKEN_POINTS: Final = 2
HORSE_FIRST_POINTS: Final = 10
HORSE_SECOND_POINTS: Final = 6
HORSE_SECOND_POINTS_TWO_PLAYERS: Final = 0  # RULEBOOK: "In a two-player game the 2nd player receives 0".
MIN_HORSES_TO_SCORE: Final = 1  # ours: a player with no horse is neither first nor second (documented).
# Points for a set of 0..5 distinct Forest Friends: 1 = 1vp, 2 = 4vp, 3 = 8vp, 4 = 12vp, 5 = 18vp.
FOREST_SET_POINTS: Final = (0, 1, 4, 8, 12, 18)
MILK_POINTS: Final = 1  # RULEBOOK "Game End": unused milk are worth 1 point each.
BALANCE_PENALTY: Final = 1  # RULEBOOK: lose 1 point per space of difference between the farms.

# RULEBOOK solo "Crops scoring": 3-4 in group = 2, 5-6 = 3, 7-8 = 5 (larger groups: 5, ours).
CROP_GROUP_POINTS: Final = ((3, 2), (5, 3), (7, 5))  # (smallest group size, points), ascending

# --- Solo: Farmer Emma's card (RULEBOOK solo table; DA-TF7) ----------------------------------------
EMMA: Final = -1  # marker for Emma in a round's turn order (she is not a player)
SOLO_ROWS: Final = 4  # RULEBOOK solo: write 1-4 down the left side (the rows), 5 red farm, 6 blue farm.
SOLO_RED_FARM_VALUE: Final = 5
SOLO_BLUE_FARM_VALUE: Final = 6

# Emma's tracks, in die order 1..6 then the chickens line. Each: (name, animals it takes, circles).
# A track's "groups" are how the card splits its circles (5/5, 3/3, 2/2/2); scoring uses the
# rulebook's set rules, which give the same sets, so only the total circles matter here.
EMMA_FOREST, EMMA_SHEEP, EMMA_PIGS, EMMA_HORSES, EMMA_COWS, EMMA_CALVES, EMMA_CHICKENS = range(7)
EMMA_TRACKS: Final[tuple[tuple[str, tuple[int, ...], int], ...]] = (
    ("forest friends", FOREST_FRIENDS, 10),  # die 1: 5 / 5
    ("sheep", (SHEEP,), 6),  # die 2: 3 / 3
    ("pigs", (PIG,), 6),  # die 3: 2 / 2 / 2
    ("horses", (HORSE,), 5),  # die 4
    ("cows", (COW,), 4),  # die 5
    ("calves", (CALVES,), 12),  # die 6: circles are calves; a "cc" fills two (DA-TF7b, ours)
    ("chickens", (CHICKEN,), 5),  # the "(target row)" line: filled instead of a full track (DA-TF7)
)
EMMA_FOREST_SET_SIZE: Final = 5  # her Forest Friends track is two sets of five circles
EMMA_DIE_TRACKS: Final = 6  # tracks 0..5 are the targets for die values 1..6

# RULEBOOK solo set-up: circles Emma starts with, per difficulty (track index per circle).
# "Epic: First check in every row" is read as the first circle of each of the seven tracks (ours).
EMMA_DIFFICULTIES: Final[dict[str, tuple[int, ...]]] = {
    "easy": (EMMA_HORSES, EMMA_CHICKENS),
    "medium": (EMMA_HORSES, EMMA_PIGS, EMMA_SHEEP),
    "hard": (EMMA_HORSES, EMMA_HORSES, EMMA_PIGS, EMMA_SHEEP, EMMA_FOREST),
    "epic": (EMMA_FOREST, EMMA_SHEEP, EMMA_PIGS, EMMA_HORSES, EMMA_COWS, EMMA_CALVES, EMMA_CHICKENS),
    # Variant emma-epic-rows (issue 14): "row" is each printed group of circles, so the first circle
    # of Forest Friends 5/5, sheep 3/3 and pigs 2/2/2 is checked in every group (11 circles).
    "epic-rows": (
        *(EMMA_FOREST,) * 2,
        *(EMMA_SHEEP,) * 2,
        *(EMMA_PIGS,) * 3,
        EMMA_HORSES,
        EMMA_COWS,
        EMMA_CALVES,
        EMMA_CHICKENS,
    ),
}
DEFAULT_DIFFICULTY: Final = "easy"  # ours: a solo game with no difficulty variant plays Easy.
