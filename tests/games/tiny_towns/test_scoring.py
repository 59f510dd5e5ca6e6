"""Scoring: every building card and monument, feeding optimisation, tables, tie-breaks.

Towns are 16 tokens, row by row (A1 B1 C1 D1 / A2 ...): ``.`` empty, W H B G S cubes,
three-letter building codes, MON the monument. Expected values are worked out from the
card texts in the component file, not read back from the code.
"""

from __future__ import annotations

import pytest

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.scoring import TownFacts, best_feeding, feeding_options, score_towns
from tests.games.tiny_towns.builder import grid, sheet, total

E = ". . . ."  # an empty row


def town(*rows: str) -> str:
    """Join four rows of four tokens."""
    assert len(rows) == 4
    return " ".join(rows)


# --- the frame: empty squares ------------------------------------------------------------------


def test_empty_town_scores_minus_one_per_square() -> None:
    assert total(town(E, E, E, E)) == -16


def test_cubes_left_on_the_board_count_as_empty_squares() -> None:
    assert sheet(town("W H B G", E, E, E))["empty squares"] == -16


# --- Cottage and the four feeders ----------------------------------------------------------


def test_cottage_fed_by_farm_scores_3_and_unfed_cottage_scores_0() -> None:
    assert sheet(town("COT FAR . .", E, E, E))["Cottage"] == 3
    assert sheet(town("COT . . .", E, E, E))["Cottage"] == 0


def test_farm_feeds_at_most_four_cottages_anywhere() -> None:
    s = sheet(town("COT . . COT", E, "COT . . COT", "COT . . FAR"))
    assert s["Cottage"] == 4 * 3
    assert s["Farm"] == 0


def test_two_farms_feed_eight() -> None:
    s = sheet(town("COT COT COT COT", "COT COT COT COT", "COT FAR FAR .", E))
    assert s["Cottage"] == 8 * 3


def test_granary_feeds_the_eight_squares_around_including_diagonals() -> None:
    # Granary on B2: A1 (diagonal) and C3 (diagonal) are fed; D4 is not around it.
    s = sheet(town("COT . . .", ". GRA . .", ". . COT .", ". . . COT"))
    assert s["Cottage"] == 2 * 3


def test_orchard_feeds_its_row_and_column() -> None:
    # Orchard on B2: D2 (row) and B4 (column) fed; A1 is diagonal, not fed.
    s = sheet(town("COT . . .", ". ORC . COT", E, ". COT . ."))
    assert s["Cottage"] == 2 * 3


def test_greenhouse_feeds_one_connected_group_of_any_size() -> None:
    # Groups: {A1, B1} and {C4, D3, D4}; one Greenhouse feeds the larger.
    s = sheet(town("COT COT . .", ". . . GRE", ". . . COT", ". . COT COT"))
    assert s["Cottage"] == 3 * 3


# --- feeding optimisation where the greedy choice is wrong -------------------------------------


def test_farm_feeds_the_cottages_next_to_the_temple_not_the_first_four() -> None:
    # 6 cottages, one Farm (4). Greedy "first four" (A1 B1 C1 D1) leaves the Temple on D4
    # without fed neighbours; the best assignment feeds C4 and D3 for the Temple's 4 VP.
    s = sheet(town("COT COT COT COT", ". . . FAR", ". . . COT", ". . COT TEM"))
    assert s["Temple"] == 4
    assert s["Cottage"] == 4 * 3


def test_greenhouse_picks_the_group_the_granary_does_not_already_feed() -> None:
    # The Granary on B2 feeds the big group A1 B1 C1; the Greenhouse must take D3 D4,
    # not the largest group.
    s = sheet(town("COT COT COT .", ". GRA . .", ". . . COT", ". GRE . COT"))
    assert s["Cottage"] == 5 * 3


def test_farm_feeds_barrett_castle_before_a_cottage() -> None:
    # 4 cottages + Barrett Castle, one Farm: Barrett (5) beats a cottage (3).
    s = sheet(town("COT COT COT COT", ". FAR . .", ". . MON .", E), monument="Barrett Castle")
    assert s["monument"] == 5
    assert s["Cottage"] == 3 * 3


def test_feeding_options_never_miss_the_best() -> None:
    g = grid(town("COT COT COT COT", ". . . FAR", ". . . COT", ". . COT TEM"))
    facts = TownFacts(g)
    _best, fed = best_feeding(facts, None, frozenset())
    assert {11, 14} <= fed  # D3 and C4
    # The Farm's 4: 0, 1 or 2 of the Temple's neighbours C4 and D3 (1 + 2 + 1 ways), rest plain.
    assert len(feeding_options(g)) == 4


# --- grey ------------------------------------------------------------------------------------


def test_well_scores_adjacent_cottages_fed_or_not() -> None:
    s = sheet(town(". COT . .", "COT WEL COT .", E, E))
    assert s["Well"] == 3
    assert s["Cottage"] == 0


def test_fountain_scores_2_next_to_another_grey_building() -> None:
    assert sheet(town("FOU FOU . .", E, E, ". . . FOU"))["Fountain"] == 2 + 2 + 0


def test_millstone_scores_2_next_to_red_or_yellow() -> None:
    s = sheet(town("MIL FAR . .", E, "MIL THE . .", "MIL COT . ."))
    assert s["Millstone"] == 2 + 2 + 0


def test_shed_scores_1() -> None:
    assert sheet(town("SHE SHE . .", E, E, E))["Shed"] == 2


# --- yellow ------------------------------------------------------------------------------------


def test_theater_counts_other_types_in_its_row_and_column() -> None:
    # Theater B2: row A2 Cottage, C2 Well, D2 Theater (not counted); column B1 Cottage,
    # B3 Farm; A1 Farm is diagonal. Types: Cottage, Well, Farm = 3.
    s = sheet(town("FAR COT . .", "COT THE WEL THE", ". FAR . .", E))
    theater_b2 = 3
    theater_d2 = 2  # row: Cottage, Well (B2 is a Theater); column D: nothing
    assert s["Theater"] == theater_b2 + theater_d2


def test_bakery_scores_3_next_to_red_or_black() -> None:
    s = sheet(town("BAK FAR . .", E, "BAK FAC . .", "COT . . BAK"))
    assert s["Bakery"] == 3 + 3 + 0


def test_market_counts_yellow_in_its_better_line_itself_included() -> None:
    # Markets A1, B1 (row 1) and A3 (column A): each has 1 other Market in its better line.
    g = town("MAR MAR . .", E, "MAR . . .", E)
    assert sheet(g)["Market"] == 2 + 2 + 2
    # The other reading counts row and column together: A1 sees B1 and A3.
    assert sheet(g, readings=["market-row-and-column"])["Market"] == 3 + 2 + 2


def test_tailor_scores_1_plus_the_yellow_buildings_in_the_centre() -> None:
    # Tailors on B2 and C3 are in the centre; every Tailor gets +2.
    assert sheet(town("TAI . . .", ". TAI . .", ". . TAI .", E))["Tailor"] == 3 * (1 + 2)


# --- orange ------------------------------------------------------------------------------------


def test_chapel_scores_each_fed_cottage() -> None:
    s = sheet(town("COT COT FAR .", "CHA CHA . .", E, ". . . COT"), buildings=["Cottage", "Chapel"])
    # one Farm feeds all three cottages
    assert s["Chapel"] == 2 * 3
    s = sheet(town("COT COT . .", "CHA . . .", E, ". . . COT"))
    assert s["Chapel"] == 0  # nobody fed


def test_abbey_scores_3_unless_next_to_black_green_or_yellow() -> None:
    s = sheet(town("ABB COT . .", E, "ABB TAV . .", "ABB THE . FAC"))
    assert s["Abbey"] == 3 + 0 + 0


def test_cloister_scores_each_orange_building_in_a_corner() -> None:
    # orange in corners: A1 Cloister, D4 Chapel; the B2 Cloister is not in a corner.
    s = sheet(town("CLO . . .", ". CLO . .", E, ". . . CHA"))
    assert s["Cloister"] == 2 + 2


def test_temple_needs_two_fed_cottages_adjacent() -> None:
    fed_two = town("COT TEM COT FAR", E, E, E)
    assert sheet(fed_two)["Temple"] == 4
    one_fed_one_not = town("COT TEM . .", ". COT . .", "COT COT COT COT", "FAR . . COT")
    # 7 cottages, one Farm: the best feeds A1 and B2 (both next to the Temple) + 2 others.
    assert sheet(one_fed_one_not)["Temple"] == 4
    unfed = town("COT TEM COT .", E, E, E)
    assert sheet(unfed)["Temple"] == 0


# --- green -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "points"), [(1, 2), (2, 5), (3, 9), (4, 14), (5, 20), (6, 20)])
def test_tavern_table(count: int, points: int) -> None:
    tokens = ["TAV"] * count + ["."] * (16 - count)
    assert sheet(" ".join(tokens))["Tavern"] == points


@pytest.mark.parametrize(("count", "points"), [(1, -1), (2, 5), (3, -3), (4, 15), (5, -5), (6, 26), (7, 26)])
def test_almshouse_table(count: int, points: int) -> None:
    tokens = ["ALM"] * count + ["."] * (16 - count)
    assert sheet(" ".join(tokens))["Almshouse"] == points


def test_feast_hall_bonus_against_the_player_on_the_right() -> None:
    two = TownFacts(grid(town("FEA FEA . .", E, E, E)))
    one = TownFacts(grid(town("FEA . . .", E, E, E)))
    result = score_towns([two, one], ["Cottage", "Feast Hall"], frozenset())
    # Seat 0's right is seat 1 (1 Feast Hall): 2 > 1, +1 each. Seat 1's right is seat 0: no.
    assert result.breakdown[0]["Feast Hall"] == 2 * 3
    assert result.breakdown[1]["Feast Hall"] == 2
    # Three players: seat 0's right is seat 2.
    none = TownFacts(grid(town(E, E, E, E)))
    result = score_towns([one, two, none], ["Cottage", "Feast Hall"], frozenset())
    assert [b["Feast Hall"] for b in result.breakdown] == [3, 6, 0]
    # Solo: nobody on the right, no bonus.
    assert score_towns([two], ["Feast Hall"], frozenset()).breakdown[0]["Feast Hall"] == 4


def test_inn_scores_3_alone_in_its_row_and_column() -> None:
    assert sheet(town("INN . . .", ". INN . .", E, E))["Inn"] == 6
    assert sheet(town("INN . . .", E, "INN . . .", E))["Inn"] == 0


# --- black -------------------------------------------------------------------------------------


def test_black_buildings() -> None:
    s = sheet(town("FAC BAN TRA WAR", E, E, E), warehouse_cubes=2)
    assert (s["Factory"], s["Bank"], s["Trading Post"], s["Warehouse"]) == (0, 4, 1, -2)


# --- monuments ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "points"),
    [
        ("Architect's Guild", 1),
        ("Cathedral of Caterina", 2),
        ("Fort Ironweed", 7),
        ("Grove University", 3),
        ("Obelisk of the Crescent", 0),
        ("Opaleye's Watch", 0),
        ("Statue of the Bondmaker", 0),
    ],
)
def test_fixed_value_monuments(name: str, points: int) -> None:
    assert sheet(town("MON . . .", E, E, E), monument=name)["monument"] == points


def test_archive_counts_distinct_building_types() -> None:
    s = sheet(town("MON COT COT FAR", "WEL . . .", E, E), monument="Archive of the Second Age")
    assert s["monument"] == 3  # Cottage, Farm, Well; the monument itself is not a building type


def test_barrett_castle_fed_scores_5_and_counts_as_two_cottages() -> None:
    s = sheet(town("MON FAR CHA .", ". WEL . .", E, E), monument="Barrett Castle")
    assert s["monument"] == 5
    assert s["Chapel"] == 2  # 1 VP per fed cottage: the Castle counts 2
    # the Well on B2 is not adjacent to A1; put one next to it
    s = sheet(town("MON WEL . .", E, E, E), monument="Barrett Castle")
    assert s["Well"] == 2
    assert s["monument"] == 0  # unfed


def test_cathedral_makes_empty_squares_worth_zero() -> None:
    s = sheet(town("MON W . .", E, E, E), monument="Cathedral of Caterina")
    assert s["empty squares"] == 0
    assert s["monument"] == 2


def test_grand_mausoleum_scores_unfed_cottages_which_stay_unfed_for_chapels() -> None:
    s = sheet(town("MON COT COT CHA", E, E, E), monument="Grand Mausoleum of the Rodina")
    assert s["monument"] == 6
    assert s["Cottage"] == 0
    assert s["Chapel"] == 0


def test_mandras_palace_scores_2_per_adjacent_type() -> None:
    g = town("COT WEL . .", "MON COT . .", "FAR . . .", E)
    # Adjacent to A2: A1 Cottage, B2 Cottage, A3 Farm -> 2 types. B1 Well is diagonal.
    assert sheet(g, monument="Mandras Palace")["monument"] == 4
    assert sheet(g, monument="Mandras Palace", readings=["mandras-8-around"])["monument"] == 6


def test_shrine_scores_its_value_fixed_when_built() -> None:
    assert sheet(town("MON . . .", E, E, E), monument="Shrine of the Elder Tree", shrine_vp=5)["monument"] == 5


def test_silva_forum_counts_the_largest_same_type_group() -> None:
    s = sheet(town("COT COT COT MON", ". WEL WEL .", E, E), monument="Silva Forum")
    assert s["monument"] == 1 + 3


def test_sky_baths_score_missing_types() -> None:
    s = sheet(town("MON COT FAR .", E, E, E), monument="The Sky Baths")
    assert s["monument"] == 2 * (7 - 2)


@pytest.mark.parametrize(("place", "points"), [(1, 6), (2, 3), (3, 2), (4, 0), (6, 0)])
def test_starloom_scores_by_completion_order(place: int, points: int) -> None:
    assert sheet(town("MON . . .", E, E, E), monument="The Starloom", starloom_place=place)["monument"] == points


# --- ranking -----------------------------------------------------------------------------------


def test_tie_breaks_turns_then_empty_squares_then_cottages_then_shared() -> None:
    two_sheds = grid(town("SHE SHE . .", E, E, E))  # 2 - 14 = -12, 14 empty, no cottage
    # 1. fewest turns as Master Builder
    result = score_towns([TownFacts(two_sheds, mb_turns=3), TownFacts(two_sheds, mb_turns=2)], [], frozenset())
    assert result.totals == [-12, -12]
    assert result.ranking == [[1], [0]]
    # 2. fewest empty squares: two unfed cottages and a Shed also make -12, with 13 empty
    fuller = grid(town("COT COT SHE .", E, E, E))
    result = score_towns([TownFacts(two_sheds), TownFacts(fuller)], [], frozenset())
    assert result.totals == [-12, -12]
    assert result.ranking == [[1], [0]]
    # 3. most cottages: an unfed cottage and a Tavern also make -12 with 14 empty
    cottage = grid(town("COT TAV . .", E, E, E))
    result = score_towns([TownFacts(two_sheds), TownFacts(cottage)], [], frozenset())
    assert result.totals == [-12, -12]
    assert result.ranking == [[1], [0]]
    # 4. still tied: shared
    assert score_towns([TownFacts(two_sheds), TownFacts(two_sheds)], [], frozenset()).ranking == [[0, 1]]


def test_a_building_outside_the_listed_set_still_scores() -> None:
    result = score_towns([TownFacts(grid(town("TAV . . .", E, E, E)))], ["Shed"], frozenset())
    assert result.totals == [2 - 15]


def test_solo_rank_table() -> None:
    assert [C.solo_rank(v) for v in (40, 38, 37, 32, 31, 25, 24, 18, 17, 10, 9, -5)] == [
        "Master Architect",
        "Master Architect",
        "Town Planner",
        "Town Planner",
        "Engineer",
        "Engineer",
        "Carpenter",
        "Carpenter",
        "Builder's Apprentice",
        "Builder's Apprentice",
        "Aspiring Architect",
        "Aspiring Architect",
    ]
    result = score_towns([TownFacts(grid(town(E, E, E, E)))], [], frozenset())
    assert result.details["solo_rank"] == "Aspiring Architect"


def test_card_note_example_three_fed_one_unfed_makes_each_chapel_worth_3() -> None:
    # Chapel card note: "A town with 3 fed Cottages and 1 unfed Cottage will make each Chapel worth 3."
    s = sheet(town("COT COT COT .", ". GRA . .", E, "CHA CHA . COT"))
    assert s["Chapel"] == 2 * 3
