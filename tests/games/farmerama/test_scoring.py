"""Final scoring (the rulebook example), the water tie-break, and the scoring helper."""

from __future__ import annotations

import json

import pytest

import farmtable
from farmtable.core.errors import BadInput
from farmtable.games.farmerama.components import (
    BEDS_OF_AREA,
    COW,
    HORSE,
    PIG,
    PRODUCT_VALUES_DA_FR5,
    PRODUCT_VALUES_DA_FR5B,
    SHEEP,
    VARIANT_FIRST_VALUES,
)
from farmtable.games.farmerama.scoring import ScoreInput, score
from tests.games.farmerama.positions import move_good, set_display, sow_directly

GAME = farmtable.get_game("farmerama")


@pytest.mark.parametrize(
    ("variants", "markers"),
    [((), [3, 3, 3, 2]), ((VARIANT_FIRST_VALUES,), [9, 6, 6, 4])],
    ids=["DA-FR5b 9/10/14/18", "DA-FR5 3/5/7/9"],
)
def test_rulebook_final_scoring_example_on_a_board(variants: tuple[str, ...], markers: list[int]) -> None:
    # Rulebook: products 27 + 30 + 42 + 36 = 135; feed tiles 3 + 2 + 2 = 7; 1 star building = 3;
    # animals still on pastures = 8; total 153. Default values: 3 wool, 3 truffles, 3 milk and
    # 2 riding lessons; first assumption: 9, 6, 6 and 4.
    state = GAME.new_game(players=2, seed=1, variants=variants)
    board = state.boards[0]
    board.products = markers
    for good in ("carrots", "hay", "oats", "corn"):
        move_good(state, 0, good, 0)
    move_good(state, 0, "hay", 3)
    sow_directly(state, 0, BEDS_OF_AREA[4][0], "corn")  # 2 tiles
    sow_directly(state, 0, BEDS_OF_AREA[5][0], "oats")  # 2 tiles
    set_display(state, "OB01", "OB14")
    board.garden.append(state.display.pop(0))
    board.pasture = [3, 2, 1, 0]  # all four animals out on pastures
    sheet = state.result().breakdown[0]
    assert sheet["wool"] + sheet["truffles"] + sheet["milk"] + sheet["riding_lessons"] == 135
    assert (sheet["wool"], sheet["truffles"], sheet["milk"], sheet["riding_lessons"]) == (27, 30, 42, 36)
    assert sheet["feed_tiles"] == 7
    assert sheet["star_buildings"] == 3
    assert sheet["pasture_animals"] == 8
    assert state.result().totals[0] == 153


def test_the_values_variant_survives_a_save_and_old_saves_keep_the_first_values() -> None:
    state = GAME.new_game(players=1, seed=3, variants=(VARIANT_FIRST_VALUES,))
    state.boards[0].products = [1, 1, 1, 1]
    again = GAME.from_json(state.to_json())
    assert again.result().totals == state.result().totals
    assert again.boards[0].product_values == PRODUCT_VALUES_DA_FR5
    default = GAME.new_game(players=1, seed=3)
    default.boards[0].products = [1, 1, 1, 1]
    assert default.result().totals[0] - state.result().totals[0] == sum(PRODUCT_VALUES_DA_FR5B) - sum(
        PRODUCT_VALUES_DA_FR5
    )
    data = json.loads(default.to_json())
    del data["state"]["first_values"]  # a save made before the values became a variant
    assert GAME.from_json(json.dumps(data)).boards[0].product_values == PRODUCT_VALUES_DA_FR5


def test_tie_more_water_wins_then_shared() -> None:
    same = ScoreInput([1, 0, 0, 0], 4, 0, [], 2)
    wetter = ScoreInput([1, 0, 0, 0], 4, 0, [], 5)
    assert score([same, wetter]).ranking == [[1], [0]]
    assert score([same, same]).ranking == [[0, 1]]


def test_pasture_animals_count_their_stable_value() -> None:
    sheet = score([ScoreInput([0, 0, 0, 0], 0, 0, [SHEEP, HORSE], 0)]).breakdown[0]
    assert sheet["pasture_animals"] == 1 + 3
    sheet = score([ScoreInput([0, 0, 0, 0], 0, 0, [PIG, COW], 0)]).breakdown[0]
    assert sheet["pasture_animals"] == 2 + 2


EXAMPLE = """
player: Anna
wool: 3
truffles: 3
milk: 3
riding lessons: 2
feed tiles: 7
star buildings: 1
pasture: sheep, pig, cow, horse
water: 2

player: Ben   # same stars, more water: Ben wins the tie
wool: 3
truffles: 3
milk: 3
riding lessons: 2
feed tiles: 7
star buildings: 1
pasture: sheep, pig, cow, horse
water: 3
"""


def test_helper_scores_the_rulebook_example() -> None:
    result = GAME.score_text(EXAMPLE)
    assert result.totals == [153, 153]
    assert result.ranking == [[1], [0]]
    assert GAME.scoring_helper_format and "riding lessons" in GAME.scoring_helper_format


def test_helper_takes_the_printed_product_values() -> None:
    text = "product values: 3, 5, 7, 9\nplayer: Anna\nwool: 9\ntruffles: 6\nmilk: 6\nriding lessons: 4\n"
    assert GAME.score_text(text).breakdown[0]["riding_lessons"] == 36
    assert GAME.score_text(text).totals == [135]
    with pytest.raises(BadInput, match="before the first"):
        GAME.score_text("player: A\nproduct values: 1 2 3 4")
    with pytest.raises(BadInput, match="4 whole numbers"):
        GAME.score_text("product values: 1 2 3\nplayer: A")


def test_helper_format_example_itself_scores_153() -> None:
    text = GAME.scoring_helper_format or ""
    example = text.split("Example", 1)[1].split("\n", 1)[1]
    assert GAME.score_text(example).totals == [153]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("wool: 3", 1, "player"),
        ("player: A\nwool: x", 2, "whole number"),
        ("player: A\nwool: 13", 2, "at most 12"),
        ("player: A\npasture: sheep, goat", 2, "unknown animal"),
        ("player: A\nmilk: 1\nmilk: 2", 3, "twice"),
        ("player: A\ngold: 1", 2, "unknown key"),
        ("player: A\nno colon here", 2, "key: value"),
    ],
)
def test_helper_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(BadInput, match=words) as info:
        GAME.score_text(text)
    assert info.value.line == line


def test_helper_needs_a_player() -> None:
    with pytest.raises(BadInput, match="no player"):
        GAME.score_text("# nothing\n")
