"""The scoring helper: typed towns scored, impossible towns refused with the line and the reason."""

from __future__ import annotations

import pytest

from farmtable.core import BadInput
from farmtable.core.sheet import score_sheet, sheet_text
from farmtable.games.tiny_towns.helper import HELPER_FORMAT
from farmtable.games.tiny_towns.rules import GAME

EXAMPLE = """\
# a two-player game with the first-game set
buildings: Cottage, Farm, Well, Theater, Chapel, Tavern, Factory
player: Ann
monument: Barrett Castle
COT COT FAR WEL
WEL MON .   wood
CHA TAV TAV TAV
.   .   FAC COT
turns: 4
player: Ben
COT COT COT COT
FAR CHA CHA .
TAV TAV . .
THE W . .
turns: 3
"""


def test_example_game_is_scored_per_building_kind() -> None:
    result = GAME.score_text(EXAMPLE)
    ann, ben = result.breakdown
    # Ann: Farm feeds 3 cottages (A1 B1 D4) and Barrett Castle: 4 units of 4.
    assert ann["Cottage"] == 9
    assert ann["monument"] == 5
    # Wells: D1 next to C1 Farm and D2 (empty): 0; A2 next to A1 Cottage and B2 Castle (2): 3.
    assert ann["Well"] == 3
    assert ann["Chapel"] == 3 + 2  # 3 fed cottages + the fed Castle counting 2
    assert ann["Tavern"] == 9
    assert ann["Factory"] == 0
    assert ann["empty squares"] == -4  # C2, D2 (a wood cube), A4, B4
    assert result.totals[0] == 9 + 5 + 3 + 5 + 9 - 4
    # Ben: 4 cottages fed, 2 Chapels x 4, 2 Taverns = 5, Theater A4: row B4 nothing, column A3 Tavern,
    # A2 Farm, A1 Cottage -> 3 types; empty: C3 D3 B4 C4 D4 = 5.
    assert ben == {
        "Cottage": 12,
        "Farm": 0,
        "Well": 0,
        "Theater": 3,
        "Chapel": 8,
        "Tavern": 5,
        "Factory": 0,
        "monument": 0,
        "empty squares": -6,
    }
    assert result.details["names"] == ["Ann", "Ben"]
    assert result.details["fed_squares"][0] == ["A1", "B1", "B2", "D4"]  # the Farm's 4, Castle on B2
    assert result.totals == [27, 22]
    assert result.ranking == [[0], [1]]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("player: A\n", 1, "buildings line"),
        ("buildings: Cottage, Farm, Well\n", 1, "one card of each"),
        ("buildings: Cottage, Farm, Well, Theater, Chapel, Tavern, Castle\n", 1, "not a Tiny Towns building"),
        (EXAMPLE.replace("CHA TAV TAV TAV", "CHA BAK TAV TAV"), 7, "Bakery is not in this game's building set"),
        (EXAMPLE.replace("CHA TAV TAV TAV", "CHA XYZ TAV TAV"), 7, "'XYZ' is not a building code"),
        (EXAMPLE.replace("CHA TAV TAV TAV", "CHA TAV TAV"), 7, "this one has 3"),
        (EXAMPLE.replace("monument: Barrett Castle", "monument: Big Tower"), 4, "not a Tiny Towns monument"),
        (EXAMPLE.replace("monument: Barrett Castle\n", ""), 5, "MON stands for the monument"),
        (EXAMPLE.replace("turns: 4", "turns: four"), 9, "whole number"),
        (EXAMPLE.replace("turns: 4", "colour: red"), 9, "unknown line"),
        (EXAMPLE.replace("THE W . .\n", ""), 10, "has 3 rows"),
        (EXAMPLE.replace("monument: Barrett Castle", "monument: The Starloom"), 3, "finished: N"),
        (EXAMPLE + "warehouse: 2\n", 10, "no Warehouse"),
    ],
)
def test_impossible_towns_are_refused_with_line_and_reason(text: str, line: int, words: str) -> None:
    with pytest.raises(BadInput) as info:
        GAME.score_text(text)
    assert words in str(info.value)
    assert info.value.line == line


def test_shrine_and_starloom_lines() -> None:
    text = EXAMPLE.replace("monument: Barrett Castle", "monument: Shrine of the Elder Tree").replace(
        "turns: 4", "turns: 4\nshrine: 6"
    )
    assert GAME.score_text(text).breakdown[0]["monument"] == 8
    text = EXAMPLE.replace("monument: Barrett Castle", "monument: The Starloom").replace(
        "turns: 4", "turns: 4\nfinished: 2"
    )
    assert GAME.score_text(text).breakdown[0]["monument"] == 3


def test_readings_line_switches_the_market_reading() -> None:
    base = "buildings: Cottage, Farm, Well, Market, Chapel, Tavern, Factory\nplayer: A\n"
    rows = "MAR MAR . .\n. . . .\nMAR . . .\n. . . .\n"
    assert GAME.score_text(base + rows).breakdown[0]["Market"] == 6
    assert GAME.score_text("readings: market-row-and-column\n" + base + rows).breakdown[0]["Market"] == 7


def test_the_format_is_documented() -> None:
    assert GAME.scoring_helper_format == HELPER_FORMAT
    assert "buildings:" in HELPER_FORMAT and "player:" in HELPER_FORMAT and "MON" in HELPER_FORMAT


def test_the_documented_example_scores() -> None:
    text = HELPER_FORMAT.split("Example:", 1)[1].split("The buildings line", 1)[0]
    result = GAME.score_text(text)
    assert result.totals == GAME.score_text(EXAMPLE).totals


def test_the_same_monument_for_two_players_is_refused() -> None:
    text = EXAMPLE.replace("player: Ben\n", "player: Ben\nmonument: Barrett Castle\n").replace(
        "FAR CHA CHA .", "FAR CHA CHA MON"
    )
    with pytest.raises(BadInput, match="both built Barrett Castle") as err:
        GAME.score_text(text)
    assert err.value.line == 10  # the "player: Ben" line


@pytest.mark.parametrize("place", [0, 3])
def test_finished_places_run_from_one_to_the_number_of_towns(place: int) -> None:
    text = EXAMPLE.replace("turns: 3", f"turns: 3\nfinished: {place}")
    with pytest.raises(BadInput, match="places are 1 to 2"):
        GAME.score_text(text)
    assert GAME.score_text(EXAMPLE.replace("turns: 3", "turns: 3\nfinished: 2")).totals == [27, 22]


FEAST_TOWN = """\
buildings: Cottage, Farm, Well, Theater, Chapel, Feast Hall, Factory
player: Cara
FEA FEA . .
. . . .
. . . .
. . . .
"""


def test_one_town_alone_is_a_solo_town_with_its_rank() -> None:
    result = GAME.score_text(FEAST_TOWN)
    assert result.breakdown[0]["Feast Hall"] == 4  # no player on the right: 2 + 2
    assert "solo_rank" in result.details
    assert "rank" in sheet_text(score_sheet(result)).lower()


@pytest.mark.parametrize(("right", "each"), [(1, 3), (2, 2), (0, 3)])
def test_one_town_of_a_bigger_game_takes_the_right_neighbours_feast_halls(right: int, each: int) -> None:
    result = GAME.score_text(FEAST_TOWN + f"right feast halls: {right}\n")
    assert result.breakdown[0]["Feast Hall"] == 2 * each
    assert "solo_rank" not in result.details  # not a solo town
    assert "rank" not in sheet_text(score_sheet(result)).lower()


def test_right_feast_halls_with_several_towns_is_refused() -> None:
    text = EXAMPLE.replace("turns: 3", "turns: 3\nright feast halls: 1")
    with pytest.raises(BadInput, match="only for one town typed alone") as err:
        GAME.score_text(text)
    assert err.value.line == 10  # the "player: Ben" line


def test_right_feast_halls_must_be_a_number() -> None:
    with pytest.raises(BadInput, match="must be a whole number") as err:
        GAME.score_text(FEAST_TOWN + "right feast halls: two\n")
    assert err.value.line == 7
