"""The scoring helper: a physical game's end position typed as text."""

from __future__ import annotations

import pytest

import farmtable
from farmtable import BadInput

GAME = farmtable.get_game("farmers-finances")


def test_helper_format_is_documented() -> None:
    assert GAME.scoring_helper_format and "coins" in GAME.scoring_helper_format


def test_most_money_wins() -> None:
    result = GAME.score_text("Anna: 74 coins, 1 wheat\nBen: 70 coins, 2 bread, 1 animal\n")
    assert result.totals == [74, 70]
    assert result.winners == [0]
    assert result.details["names"] == ["Anna", "Ben"]


def test_tie_broken_by_cards_at_base_value() -> None:
    # 72 each; Anna's 1 wheat + 2 bread = 5 + 14 = 19, Ben's 1 animal = 10: Anna wins.
    text = "# a tied end\nAnna: 72 coins, 1 wheat, 2 bread\n\nBen: 72 coins, 1 animals\n"
    result = GAME.score_text(text)
    assert result.ranking == [[0], [1]]
    assert result.breakdown[0]["tie_break_cards_at_base_value"] == 19
    assert result.breakdown[1]["tie_break_cards_at_base_value"] == 10


def test_still_tied_is_a_shared_win() -> None:
    result = GAME.score_text("Anna: 72 coins, 2 wheat\nBen: 72 coins, 1 animal")
    assert result.winners == [0, 1]


def test_solo_with_turns() -> None:
    result = GAME.score_text("Me: 74 coins\nturns: 23")
    assert result.totals == [74]
    assert result.details["turns"] == 23
    assert result.details["goal_reached"] is True


def test_four_players_with_two_copies() -> None:
    text = "A: 70 coins, 3 wheat\nB: 60 coins, 3 bread\nC: 50 coins, 2 animal\nD: 40 coins, 2 wheat, 2 animal"
    assert GAME.score_text(text).ranking == [[0], [1], [2], [3]]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("Anna: 72 coins\nBen 70 coins", 2, "write 'name: 72 coins"),
        ("Anna: 72 coins, 3 pigs", 1, "'pigs' is not coins"),
        ("Anna: 3 wheat", 1, "how many coins"),
        ("Anna: 72 coins, 1 wheat, 2 wheat", 1, "given twice"),
        ("Anna: 72 coins, lots of wheat", 1, "cannot read"),
        ("Anna: 72 coins, 3 wheat\nBen: 70 coins, 2 bread", 2, "5 wheat/bread cards"),
        ("Anna: 72 coins, 2 animal\nBen: 70 coins, 1 animal", 2, "3 animal cards"),
        ("Anna: 72 coins\nAnna: 70 coins", 2, "listed twice"),
        ("A: 1 coins\nB: 1 coins\nturns: 4", 3, "solo game"),
        ("A: 1 coin\nB: 1 coin\nC: 1 coin\nD: 1 coin\nE: 1 coin", 5, "at most 4 players"),
    ],
)
def test_bad_input_names_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(BadInput, match=message) as caught:
        GAME.score_text(text)
    assert caught.value.line == line


def test_no_players_is_bad_input() -> None:
    with pytest.raises(BadInput, match="no players"):
        GAME.score_text("# nothing\n\n")


def test_the_documented_examples_score() -> None:
    # The two examples in scoring_helper_format: a tie at 72 broken by the cards (Anna 22 against Ben 10).
    assert GAME.scoring_helper_format is not None
    examples = [line.strip() for line in GAME.scoring_helper_format.splitlines() if line.startswith("    ")]
    assert examples[:2] == ["Anna: 72 coins, 1 wheat, 1 bread, 1 animal", "Ben: 72 coins, 2 wheat"]
    assert GAME.score_text("\n".join(examples[:2])).ranking == [[0], [1]]
    solo = GAME.score_text("\n".join(examples[2:]))
    assert solo.totals == [74] and solo.details["turns"] == 23
