"""Scoring (rulebook: Scoring, Tiebreaker, Second Variant, Your Achievements (Solo)) and the
scoring helper."""

from __future__ import annotations

import json

import pytest

from farmtable.core import BadInput
from farmtable.games.farmini.helper import read_farms
from farmtable.games.farmini.rules import GAME
from farmtable.games.farmini.scoring import ScoringRules, score_sheet, solo_achievement, solo_table
from tests.games.farmini.builders import NESTED_PENS, PEN_2X2, PEN_2X2_WITH_ANIMAL_CELL, farm, make_state

NORMAL = ScoringRules()
SECOND = ScoringRules(second_variant=True)
PER_CELL = ScoringRules(penalty_per_empty_cell=True)

TWO_CELL_PEN = "farm at 0,0\nC2 at 1,0 rot 270\nC6 at 0,1 rot 90\nC7 at 1,1 rot 180\n"
"""A 2 x 2 pen holding two cornfields ((0,0)/NE, (1,1)/SW) and two animal cells ((1,0)/NW, (0,1)/SE)."""


def total(text: str, rules: ScoringRules = NORMAL) -> int:
    return sum(score_sheet(farm(text), rules).values())


# --- cornfields -------------------------------------------------------------------------------------


def test_cornfields_in_an_enclosed_pen_score_one_each() -> None:
    sheet = score_sheet(farm(PEN_2X2), NORMAL)
    assert sheet == {"animals": 0, "corn": 4, "single_kind_bonus": 0, "empty_cell_penalty": 0}


def test_cornfields_outside_pens_score_nothing() -> None:
    # The lone farm card's cornfield is not enclosed.
    assert score_sheet(farm("farm at 0,0"), NORMAL)["corn"] == 0


def test_animals_eat_the_corn_of_their_pen() -> None:
    with_pig = score_sheet(farm(PEN_2X2_WITH_ANIMAL_CELL + "pig at 1,0/NW"), NORMAL)
    assert with_pig == {"animals": 1, "corn": 0, "single_kind_bonus": 0, "empty_cell_penalty": 0}


# --- the empty-cell penalty: both readings (DA-FM6) -------------------------------------------------


def test_default_penalty_is_one_per_enclosed_pen_with_an_empty_cell() -> None:
    # 3 cornfields, and the pen's animal cell is empty: 3 - 1 = 2. The farm card's three
    # empty animal cells lie outside any pen and cost nothing under this reading.
    sheet = score_sheet(farm(PEN_2X2_WITH_ANIMAL_CELL), NORMAL)
    assert sheet == {"animals": 0, "corn": 3, "single_kind_bonus": 0, "empty_cell_penalty": -1}
    # two empty cells in one pen still cost 1
    assert score_sheet(farm(TWO_CELL_PEN), NORMAL)["empty_cell_penalty"] == -1


def test_per_empty_cell_reading_counts_every_empty_animal_cell() -> None:
    # farm card: 3 animal cells; C2: NE animal cell (now NW, in the pen); C6: NE animal cell
    # (now SE, in the pen); C7 none -> 5 empty cells.
    assert score_sheet(farm(TWO_CELL_PEN), PER_CELL)["empty_cell_penalty"] == -5
    with_pigs = farm(TWO_CELL_PEN + "pig at 0,0/SE\npig at 1,0/NW")
    assert score_sheet(with_pigs, PER_CELL)["empty_cell_penalty"] == -3


# --- second variant ------------------------------------------------------------------------------------


def test_second_variant_rulebook_example_pens_worth_6_and_2() -> None:
    # Rulebook illustration: a pen of one kind with 3 animals is worth 6, with 1 animal 2.
    text = NESTED_PENS + "pig at 0,1/NE\npig at 1,0/NE\npig at 1,2/NW\ngoat at 2,2/SW"
    second = score_sheet(farm(text), SECOND)
    # ring: 3 pigs doubled = 6; inner: 1 goat doubled = 2; corn eaten in both;
    # the ring pen still has 2 empty cells: -1.
    assert second == {"animals": 4, "corn": 0, "single_kind_bonus": 4, "empty_cell_penalty": -1}
    assert sum(second.values()) == 6 + 2 - 1
    assert total(text, NORMAL) == 4 - 1


def test_second_variant_mixed_pen_is_not_doubled() -> None:
    same = TWO_CELL_PEN + "pig at 1,0/NW\npig at 0,1/SE"
    mixed = TWO_CELL_PEN + "pig at 1,0/NW\ngoat at 0,1/SE"
    assert total(same, SECOND) == 4
    assert total(mixed, SECOND) == 2
    assert total(same, NORMAL) == total(mixed, NORMAL) == 2


def test_second_variant_animals_outside_pens_are_not_doubled() -> None:
    assert total("farm at 0,0\npig at 0,0/SE\npig at 0,0/SW", SECOND) == 2


# --- result, tie-breaks, solo ----------------------------------------------------------------------


def test_tie_break_pigs_then_goats_then_chickens() -> None:
    pigs = "farm at 0,0\npig at 0,0/SE"
    goats = "farm at 0,0\ngoat at 0,0/SE"
    chickens = "farm at 0,0\nchicken at 0,0/SE"
    state = make_state([goats, pigs, chickens], ["A1", "A2", "A3", "A4"], [])
    result = state.result()
    assert result.totals == [1, 1, 1]
    assert result.ranking == [[1], [0], [2]]
    assert result.details["tie_break"]["values"] == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    tied = make_state([pigs, pigs], ["A1", "A2", "A3", "A4"], [])
    assert tied.result().ranking == [[0, 1]]


def test_more_points_beat_the_tie_break() -> None:
    state = make_state(["farm at 0,0\npig at 0,0/SE", PEN_2X2], ["A1", "A2", "A3", "A4"], [])
    assert state.result().totals == [1, 4]
    assert state.result().ranking == [[1], [0]]


@pytest.mark.parametrize(
    ("points", "second_variant", "starts"),
    [
        (35, False, "Congratulations"),
        (34, False, "You made it onto the podium"),
        (30, False, "You made it onto the podium"),
        (29, False, "Your ponies"),
        (10, False, "Almost"),
        (9, False, "The jury"),
        (-2, False, "The jury"),
        (50, True, "Congratulations"),
        (49, True, "You made it onto the podium"),
        (35, True, "Your ponies"),
        (20, True, "Almost"),
        (19, True, "The jury"),
    ],
)
def test_solo_achievements(points: int, second_variant: bool, starts: str) -> None:
    assert solo_achievement(points, ScoringRules(second_variant=second_variant)).startswith(starts)


def test_solo_result_prints_the_table_for_both_rule_sets() -> None:
    state = make_state([PEN_2X2], ["A1", "A2", "A3", "A4"], [])
    details = state.result().details
    assert details["solo_achievement"].startswith("The jury")
    assert details["solo_table"] == solo_table()
    assert [row["normal"] for row in solo_table()] == ["35+", "30-34", "20-29", "10-19", "0-9"]
    assert [row["second_variant"] for row in solo_table()] == ["50+", "40-49", "30-39", "20-29", "0-19"]
    assert "second variant" in state.render_text(0) and "Congratulations" in state.render_text(0)


def test_variant_scoring_in_a_game() -> None:
    text = TWO_CELL_PEN + "pig at 1,0/NW\npig at 0,1/SE"
    state = make_state([text], ["A1", "A3", "A4", "B1"], [], variants=("second-variant",))
    assert state.result().totals == [4]
    per_cell = make_state([text], ["A1", "A3", "A4", "B1"], [], variants=("penalty-per-empty-cell",))
    assert per_cell.result().breakdown[0]["empty_cell_penalty"] == -3


# --- the scoring helper ------------------------------------------------------------------------------


def test_helper_format_example_scores_as_documented() -> None:
    fmt = GAME.scoring_helper_format
    assert fmt is not None
    example = fmt.split("total 5):", 1)[1]
    result = GAME.score_text(example)
    assert result.totals == [5]
    assert result.breakdown[0] == {"animals": 1, "corn": 4, "single_kind_bonus": 0, "empty_cell_penalty": 0}
    json.dumps(result.to_dict())


def test_helper_scores_several_players_with_variants() -> None:
    text = """
    variant second-variant
    player Ann
    farm at 0,0
    C2 at 1,0 rot 270
    C6 at 0,1 rot 90
    C7 at 1,1 rot 180
    pig at 1,0/NW
    pig at 0,1/SE
    player Bob
    FARM at 0,0
    goat at 0,0/SE
    """
    result = GAME.score_text(text)
    assert result.totals == [4, 1]
    assert result.details["players"] == ["Ann", "Bob"]
    assert result.ranking == [[0], [1]]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("farm at 0,0\nZ9 at 1,0", 2, "not a fence or farm card"),
        ("farm at 0,0\nF1 at 1,0", 2, "sides must match"),
        ("farm at 0,0\nA1 at 1,0 rot 45", 2, "rot must be"),
        ("farm at 0,0\nA1 at 0,0", 2, "already holds a card"),
        ("farm at 0,0\nA1 at 1,0\nA1 at 2,0", 3, "already on line 2"),
        ("farm at 0,0\npig at 0,0/NE", 2, "not an animal cell"),
        ("farm at 0,0\npig at 0,0/SE\ngoat at 0,0/SE", 3, "one animal per cell"),
        ("farm at 0,0\npig at 5,5/SE", 2, "no card at 5,5"),
        ("farm at 0,0\npig at 0,0/XX", 2, "not a quarter"),
        ("player A\nA1 at 0,0", 1, "no farm card"),
        ("farm at 0,0\nA1 at 3,3", 1, "do not form one farm"),
        ("farm at 0,0\nvariant second-variant", 2, "before the first farm"),
        ("variant colour", 1, "unknown variant"),
        ("farm at 0,0\nhello there", 2, "cannot read"),
        ("", None, "no farm given"),
        ("player a\nfarm at 0,0\n" * 4 + "player e\nfarm at 0,0", 9, "at most 4 players"),
    ],
)
def test_helper_errors_name_the_line(text: str, line: int | None, message: str) -> None:
    with pytest.raises(BadInput, match=message) as err:
        GAME.score_text(text)
    assert err.value.line == line


def test_helper_refuses_a_sixth_pig() -> None:
    text = "\n".join([f"player {i}\nfarm at 0,0\npig at 0,0/SE\npig at 0,0/SW" for i in range(3)])
    with pytest.raises(BadInput, match="more than 5 pigs") as err:
        GAME.score_text(text)
    assert err.value.line == 12


RING = "farm at 0,0\nA1 at 1,0\nA2 at 2,0\nA3 at 0,1\nA4 at 2,1\nH2 at 0,2\nH3 at 1,2\nH4 at 2,2\n"
"""A 3 x 3 ring of fence crosses around a missing centre card (1,1)."""


def test_gap_reading_scores_the_ring_around_a_gap_as_an_enclosed_fence() -> None:
    # Default (DA-FM7). The ring's one enclosed fence holds 4 cornfields ((0,0)/NE, (0,1)/SE,
    # (1,0)/NE, (2,1)/SW) and 6 empty animal cells, and no animal: corn 4; the fence has empty
    # cells (-1) and surrounds one gap (-1 for the gap): 4 - 2 = 2.
    result = GAME.score_text(RING)
    assert result.breakdown[0] == {"animals": 0, "corn": 4, "single_kind_bonus": 0, "empty_cell_penalty": -2}
    assert result.totals == [2]


def test_first_gap_reading_as_a_variant_leaves_the_ring_open() -> None:
    result = GAME.score_text("variant gaps-not-enclosed\n" + RING)
    assert result.breakdown[0] == {"animals": 0, "corn": 0, "single_kind_bonus": 0, "empty_cell_penalty": 0}


def test_gap_reading_protects_animals_in_the_ring_from_the_wolf() -> None:
    # The ring is an enclosed fence, so a pig on (0,1)/NE survives a pig wolf; under gaps-not-enclosed it
    # stands in an open region and would be scattered.
    default = GAME.score_text(RING + "pig at 0,1/NE\n")
    assert default.breakdown[0]["corn"] == 0  # the pig eats the corn of its enclosed fence
    assert read_farms(RING + "pig at 0,1/NE\n").farms[0].pen_cells() >= {(0, 1, 0)}
    assert (0, 1, 0) not in read_farms("variant gaps-not-enclosed\n" + RING + "pig at 0,1/NE\n").farms[0].pen_cells()
