"""Scenario tests for every scoring line of the rulebook, the Lilly example, horses and tie-breaks."""

from __future__ import annotations

import pytest

from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring
from tests.games.tiny_farms.builder import board


def red_lines(rows: str) -> dict[str, int]:
    """Score the red farm given as four rows of four spaces (the blue farm empty)."""
    text = "\n".join(f"{row} | . . . ." for row in rows.strip().splitlines())
    return scoring.farm_lines(board(text)[: c.FARM_CELLS])


# --- Pigs: pairs of adjacent pigs 6, single 1, the best partition -------------------------------


@pytest.mark.parametrize(
    ("rows", "points"),
    [
        ("P . . .\n. . . .\n. . . .\n. . . .", 1),
        ("P P . .\n. . . .\n. . . .\n. . . .", 6),
        ("P . P .\n. . . .\n. . . .\n. . . .", 2),  # not adjacent: two singles
        ("P . . .\nP . . .\n. . . .\n. . . .", 6),  # vertical pair
        ("P . . .\n. P . .\n. . . .\n. . . .", 2),  # diagonal is not adjacent
        ("P P P .\n. . . .\n. . . .\n. . . .", 7),  # pair + single
        ("P P P P\n. . . .\n. . . .\n. . . .", 12),  # two pairs, not middle pair + two singles (8)
        ("P P . .\nP P . .\n. . . .\n. . . .", 12),
    ],
)
def test_pigs(rows: str, points: int) -> None:
    assert red_lines(rows)["pigs"] == points


def test_pigs_where_the_obvious_pair_is_not_best() -> None:
    # A snake of 6: A1 B1 B2 C2 C3 D3. Pairing B1-B2 and C2-C3 first (the "corners") leaves A1, D3
    # single (6+6+1+1 = 14); the best is A1-B1, B2-C2, C3-D3 = 18.
    rows = "P P . .\n. P P .\n. . P P\n. . . ."
    assert red_lines(rows)["pigs"] == 18


# --- Sheep: adjacent triples 12, pairs 2, singles 0, the best partition -------------------------


@pytest.mark.parametrize(
    ("rows", "points"),
    [
        ("S . . .\n. . . .\n. . . .\n. . . .", 0),
        ("S S . .\n. . . .\n. . . .\n. . . .", 2),
        ("S S S .\n. . . .\n. . . .\n. . . .", 12),
        ("S S . .\nS . . .\n. . . .\n. . . .", 12),  # an L is three adjacent sheep
        ("S S S S\n. . . .\n. . . .\n. . . .", 12),  # 3 + 1 beats 2 + 2 (4)
        ("S S S S\nS . . .\n. . . .\n. . . .", 14),  # 3 + 2
        ("S S S S\nS S . .\n. . . .\n. . . .", 24),
        ("S . S .\n. . . .\n. S . .\n. . . .", 0),  # no two adjacent
    ],
)
def test_sheep(rows: str, points: int) -> None:
    assert red_lines(rows)["sheep"] == points


def test_sheep_where_the_straight_triple_is_not_best() -> None:
    # A U: A1 B1 C1 D1 over A2 and D2. The straight A1-B1-C1 leaves D1-D2 (2) and A2 alone: 14.
    # Two L-triples, A2-A1-B1 and C1-D1-D2, score 24.
    rows = "S S S S\nS . . S\n. . . .\n. . . ."
    assert red_lines(rows)["sheep"] == 24


def test_pigs_and_sheep_are_scored_per_farm() -> None:
    # A pig at the red farm's right edge and one at the blue farm's left edge are not adjacent.
    b = board("""
        . . . P | P . . .
        S S . . | S . . .
        . . . . | . . . .
        . . . . | . . . .
    """)
    sheet = scoring.player_sheet(b, 0, 0, solo=False)
    assert sheet["red_pigs"] == 1 and sheet["blue_pigs"] == 1
    assert sheet["red_sheep"] == 2 and sheet["blue_sheep"] == 0


# --- Chickens, cows and calves --------------------------------------------------------------------


def test_chickens_two_each_anywhere() -> None:
    assert red_lines("Ch . . Ch\n. . . .\n. Ch . .\n. . . .")["chickens"] == 6


@pytest.mark.parametrize(
    ("rows", "points"),
    [
        # rulebook: calves three times (6 calves) and two cows, all in one adjacent group: 12
        ("C cc cc cc\nC . . .\n. . . .\n. . . .", 12),
        # rulebook: calves twice (4 calves) and one cow: 4
        ("C cc cc .\n. . . .\n. . . .\n. . . .", 4),
        # rulebook: calves four times (8 calves) and no cows: 0
        ("cc cc cc cc\n. . . .\n. . . .\n. . . .", 0),
        # a cow not touching the group scores nothing
        ("C . cc cc\n. . . .\n. . . .\n. . . .", 0),
        # calves link a group: C-cc-cc-C is one group of 2 cows x 4 calves
        ("C cc cc C\n. . . .\n. . . .\n. . . .", 8),
        # two separate groups: 1x2 and 1x2
        ("C cc . .\n. . . .\n. . C cc\n. . . .", 4),
        # a cow alone: 0
        ("C . . .\n. . . .\n. . . .\n. . . .", 0),
    ],
)
def test_cows_and_calves(rows: str, points: int) -> None:
    assert red_lines(rows)["cows"] == points


def test_cows_and_calves_are_scored_per_farm() -> None:
    b = board("""
        . . . C | cc . . .
        . . . . | . . . .
        . . . . | . . . .
        . . . . | . . . .
    """)
    sheet = scoring.player_sheet(b, 0, 0, solo=False)
    assert sheet["red_cows"] == 0 and sheet["blue_cows"] == 0


# --- Horses ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("horses", "points"),
    [
        ([3, 1], [10, 0]),  # two players: no second place points
        ([2, 2], [10, 10]),  # two players tied for first
        ([0, 0], [0, 0]),  # no horses, no points
        ([4, 2, 1], [10, 6, 0]),
        ([4, 4, 1], [10, 10, 0]),  # tie for first: all 10, nobody second
        ([4, 1, 1], [10, 6, 6]),  # tie for second: both 6
        ([2, 0, 0], [10, 0, 0]),  # no horse is no second place
        ([5, 3, 3, 3], [10, 6, 6, 6]),
        ([2, 2, 2, 1], [10, 10, 10, 0]),
        ([1, 1, 1, 1], [10, 10, 10, 10]),
        ([0, 6, 2, 4], [0, 10, 0, 6]),
    ],
)
def test_horses(horses: list[int], points: list[int]) -> None:
    assert scoring.horse_points(horses, two_player_rules=len(horses) == 2) == points


# --- Forest Friends -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([0, 0, 0, 0, 0], 0),
        ([1, 0, 0, 0, 0], 1),
        ([1, 1, 0, 0, 0], 4),
        ([1, 1, 1, 0, 0], 8),
        ([1, 1, 1, 1, 0], 12),
        ([1, 1, 1, 1, 1], 18),
        ([2, 1, 1, 0, 0], 9),  # rulebook example: a set of 3 and a set of 1
        ([2, 2, 0, 0, 0], 8),  # two sets of 2
        ([3, 0, 0, 0, 0], 3),  # three sets of 1
        ([2, 2, 2, 2, 2], 36),
    ],
)
def test_forest_friends(counts: list[int], points: int) -> None:
    assert scoring.forest_points(counts) == points


def test_forest_friends_count_across_both_farms() -> None:
    b = board("""
        FF-r . . . | FF-e . . .
        . . . .    | . . . FF-bu
        . . . .    | . . . .
        . . . .    | . . . .
    """)
    assert scoring.player_sheet(b, 0, 0, solo=False)["forest_friends"] == 8


# --- Milk, balance, ties --------------------------------------------------------------------------


def test_milk_and_balance() -> None:
    # rulebook: Blue 12 used spaces and Red 8 lose 4 points; 10 and 10 lose none.
    twelve_eight = board("""
        Ch Ch . . | Ch Ch Ch .
        Ch Ch . . | Ch Ch Ch .
        Ch Ch . . | Ch Ch Ch .
        Ch Ch . . | Ch Ch Ch .
    """)
    sheet = scoring.player_sheet(twelve_eight, 3, 0, solo=False)
    assert sheet["balance"] == -4 and sheet["milk"] == 3
    ten_ten = board("""
        Ch Ch Ch . | Ch Ch Ch .
        Ch Ch Ch . | Ch Ch Ch .
        Ch Ch . .  | Ch Ch . .
        Ch Ch . .  | Ch Ch . .
    """)
    assert scoring.player_sheet(ten_ten, 0, 0, solo=False)["balance"] == 0


def test_tie_goes_to_most_unused_milk_then_is_shared() -> None:
    one_chicken = board("""
        Ch . . . | Ch . . .
        . . . .  | . . . .
        . . . .  | . . . .
        . . . .  | . . . .
    """)
    two_chickens = board("""
        Ch Ch . . | Ch Ch . .
        . . . .   | . . . .
        . . . .   | . . . .
        . . . .   | . . . .
    """)
    # player 0: 4 + 2 milk = 6; player 1: 8 + 0 = 8; player 2: 4 + 2 = 6 -> 1, then 0 and 2 tied
    result = scoring.score_players([one_chicken, two_chickens, one_chicken], [2, 0, 2])
    assert result.totals == [6, 8, 6] and result.ranking == [[1], [0, 2]]


def test_equal_points_more_milk_wins() -> None:
    a = board("""
        Ch Ch Ch . | Ch Ch Ch .
        . . . .    | . . . .
        . . . .    | . . . .
        . . . .    | . . . .
    """)
    b = board("""
        Ch Ch Ch . | Ch Ch . .
        . . . .    | . . . .
        . . . .    | . . . .
        . . . .    | . . . .
    """)
    # a: 12 points, 0 milk. b: 10 points - 1 balance + 3 milk = 12, with 3 milk: b wins the tie.
    result = scoring.score_players([a, b], [0, 3])
    assert result.totals == [12, 12] and result.ranking == [[1], [0]]
    # same points and same milk: a shared place
    result = scoring.score_players([a, a], [1, 1])
    assert result.ranking == [[0, 1]]


def test_sheet_lines_add_up_to_the_total() -> None:
    result = scoring.score_players([board(LILLY), board()], [2, 3])
    for sheet, total in zip(result.breakdown, result.totals, strict=True):
        assert sum(sheet.values()) == total


# --- The rulebook's scoring example ------------------------------------------------------------

# Lilly's farms, built to match every line of the example: Red (12 spaces) sheep 3+1, one pig, one
# chicken, one cow with two calves spaces (4 calves) next to it, a horse and two Forest Friends;
# Blue (8 spaces) an adjacent pair of sheep, a horse, two Forest Friends and three lone calves
# spaces (no cow: 0). Forest Friends: raccoon twice, eagle, squirrel = a set of 3 and a set of 1.
LILLY = """
S  S    S    .  | S  S    .    .
P  .    .    S  | H  FF-s FF-r .
Ch C    cc   cc | cc .    cc   .
H  FF-r FF-e .  | cc .    .    .
"""


def test_rulebook_scoring_example_lilly() -> None:
    lilly = board(LILLY)
    three_horses = board("H H H . | . . . .\n" + ". . . . | . . . .\n" * 3)
    four_horses = board("H H H H | . . . .\n" + ". . . . | . . . .\n" * 3)
    result = scoring.score_players([lilly, three_horses, four_horses], [2, 0, 0])
    sheet = result.breakdown[0]
    # Red farm: sheep 12 (3 = 12, 1 = 0), pig 1, chicken 2, cow 4 (1 cow x 4 calves): 19
    assert (sheet["red_sheep"], sheet["red_pigs"], sheet["red_chickens"], sheet["red_cows"]) == (12, 1, 2, 4)
    assert sum(v for k, v in sheet.items() if k.startswith("red_")) == 19
    # Blue farm: sheep 2 (a pair): 2
    assert sheet["blue_sheep"] == 2 and sum(v for k, v in sheet.items() if k.startswith("blue_")) == 2
    # her 2 horses are neither first (4) nor second (3): 0
    assert sheet["horses"] == 0
    assert sheet["forest_friends"] == 9  # set of 3 = 8, set of 1 = 1
    assert sheet["milk"] == 2
    assert scoring.used_spaces(lilly[:16]) == 12 and scoring.used_spaces(lilly[16:]) == 8
    assert sheet["balance"] == -4
    # The rulebook prints "Her total score is: 26 points", but its own lines add up to
    # 19 + 2 + 0 + 9 + 2 - 4 = 28; we follow the lines (see docs/games/tiny-farms.md).
    assert result.totals[0] == 28


# --- Solo: crops and Farmer Emma's sheet ---------------------------------------------------------


@pytest.mark.parametrize(("size", "points"), [(1, 0), (2, 0), (3, 2), (4, 2), (5, 3), (6, 3), (7, 5), (8, 5)])
def test_crop_group_table(size: int, points: int) -> None:
    assert scoring.crop_group_points(size) == points


def test_crops_score_per_adjacent_group_and_count_for_balance() -> None:
    b = board("""
        crop crop crop .  | crop . . .
        .    .    .    .  | crop . . .
        crop crop .    .  | .    . . .
        .    .    .    .  | .    . . .
    """)
    sheet = scoring.player_sheet(b, 0, 0, solo=True)
    assert sheet["crops"] == 2  # red: a group of 3 (2) and a group of 2 (0); blue: a group of 2 (0)
    assert sheet["balance"] == -3  # red 5 used spaces, blue 2


def test_crossed_out_space_counts_as_empty() -> None:
    b = board("""
        C x cc . | Ch . . .
        . . . .  | . . . .
        . . . .  | . . . .
        . . . .  | . . . .
    """)
    sheet = scoring.player_sheet(b, 0, 0, solo=True)
    assert sheet["red_cows"] == 0  # the crossed-out space breaks the group
    assert sheet["balance"] == -1  # red uses 2 spaces (the cross is empty), blue 1


def test_emma_scores_as_one_farm() -> None:
    full = [10, 6, 6, 5, 4, 12, 5]
    sheet = scoring.emma_sheet(full, horse_pts=10)
    assert sheet == {
        "forest_friends": 36,  # two sets of five
        "sheep": 24,  # two triples
        "pigs": 18,  # three pairs
        "chickens": 10,
        "cows": 48,  # 4 cows x 12 calves
        "horses": 10,
    }
    partial = scoring.emma_sheet([7, 4, 3, 1, 2, 4, 0], horse_pts=0)
    assert partial["forest_friends"] == 18 + 4  # a set of 5 and a set of 2
    assert partial["sheep"] == 12 and partial["pigs"] == 7 and partial["cows"] == 8


def test_solo_horses_compare_with_emma_as_two_players() -> None:
    two_horses = board("H H . . | . . . .\n" + ". . . . | . . . .\n" * 3)
    emma = [0, 0, 0, 3, 0, 0, 0]
    result = scoring.score_solo(two_horses, 0, emma, "easy")
    assert result.breakdown[0]["horses"] == 0 and result.details["emma_breakdown"]["horses"] == 10
    emma[c.EMMA_HORSES] = 2
    result = scoring.score_solo(two_horses, 0, emma, "easy")
    assert result.breakdown[0]["horses"] == 10 and result.details["emma_breakdown"]["horses"] == 10


def test_solo_outcome_and_milk_tie_break() -> None:
    # you: 2 chickens in each farm = 8, 0 milk; Emma: 4 chickens = 8 -> a tie (Emma has no milk)
    b = board("Ch Ch . . | Ch Ch . .\n" + ". . . . | . . . .\n" * 3)
    result = scoring.score_solo(b, 0, [0, 0, 0, 0, 0, 0, 4], "easy")
    assert result.totals == [8] and result.details["emma_total"] == 8 and result.details["outcome"] == "tie"
    # you 7 + 1 milk = 8 ... one chicken fewer and one milk: equal points, more milk: a win
    b2 = board("Ch Ch . . | Ch . . .\n" + ". . . . | . . . .\n" * 3)
    result = scoring.score_solo(b2, 3, [0, 0, 0, 0, 0, 0, 4], "easy")
    assert result.totals == [6 - 1 + 3] and result.details["outcome"] == "win"


def test_horses_zero_ranks_variant_ranks_a_player_without_horses() -> None:
    from farmtable.games.tiny_farms.scoring import horse_points

    # Default: no horse, no horse points; 2 horses lead alone and nobody is second.
    assert horse_points([2, 0, 0], two_player_rules=False) == [10, 0, 0]
    # Variant: the two players with no horse tie for second (6 each).
    assert horse_points([2, 0, 0], two_player_rules=False, min_horses=0) == [10, 6, 6]


def test_horses_zero_ranks_variant_reaches_the_game_result() -> None:
    import farmtable

    game = farmtable.get_game("tiny-farms")
    # At the start nobody has a horse: by default nobody scores horses; in the variant all tie first.
    assert [s["horses"] for s in game.new_game(players=3, seed=1).result().breakdown] == [0, 0, 0]
    zero = game.new_game(players=3, seed=1, variants=("horses-zero-ranks",))
    assert [s["horses"] for s in zero.result().breakdown] == [10, 10, 10]
