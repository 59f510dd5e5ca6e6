"""The scoring helper (typed farms) and the terminal board."""

from __future__ import annotations

import json

import pytest

import farmtable
from farmtable.core import BadInput
from tests.games.tiny_farms.builder import new, position

GAME = farmtable.get_game("tiny-farms")

LILLY_GAME = """
# The rulebook's scoring example, with two rivals who have more horses
player Lilly
milk 2
S  S    S    .  | S  S    .    .
P  .    .    S  | H  FF-s FF-r .
Ch C    cc   cc | cc .    cc   .
H  FF-r FF-e .  | cc .    .    .

player Ben
H H H . | . . . .
. . . . | . . . .
. . . . | . . . .
. . . . | . . . .

player Matt
milk 0
horse horse horse horse | - - - -
- - - - | - - - -
- - - - | - - - -
- - - - | - - - -
"""


def test_helper_scores_the_lilly_example() -> None:
    result = GAME.score_text(LILLY_GAME)
    assert result.details["names"] == ["Lilly", "Ben", "Matt"]
    lilly = result.breakdown[0]
    assert sum(v for k, v in lilly.items() if k.startswith("red_")) == 19
    assert (lilly["blue_sheep"], lilly["horses"], lilly["forest_friends"], lilly["milk"], lilly["balance"]) == (
        2,
        0,
        9,
        2,
        -4,
    )
    assert result.totals == [28, 6 - 3, 10 - 4]  # Ben: 3 horses, second (6), balance -3
    assert result.ranking == [[0], [2], [1]]
    json.dumps(result.to_dict())


def test_helper_format_is_documented_and_its_example_scores() -> None:
    doc = GAME.scoring_helper_format
    assert doc and "player" in doc and "milk" in doc and "FF-bu" in doc
    example = "\n".join(line.split("<-")[0] for line in doc.splitlines()[2:8])
    result = GAME.score_text(example)
    assert result.details["names"] == ["Lilly"] and len(result.totals) == 1


def test_helper_solo_with_emma() -> None:
    text = """
    player me
    milk 1
    crop crop crop . | . . . .
    P P . . | Ch . . .
    x . . . | . . . .
    . . . . | . . . .
    emma forest 4 sheep 3 pigs 2 horses 2 cows 1 calves 6 chickens 1
    """
    result = GAME.score_text(text)
    sheet = result.breakdown[0]
    assert sheet["crops"] == 2 and sheet["red_pigs"] == 6 and sheet["balance"] == -4
    emma = result.details["emma_breakdown"]
    assert emma == {"pigs": 6, "sheep": 12, "chickens": 2, "cows": 6, "horses": 10, "forest_friends": 12}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("player a\nP P P | . . . .", 2, "red farm row has 3 spaces"),
        ("player a\nP P P Q | . . . .", 2, "'Q' is not an animal"),
        ("player a\nP P P P . . . .", 2, "'|'"),
        ("player a\nmilk 4", 2, "0 to 3"),
        ("player a\nmilk 1\nmilk 2", 3, "twice"),
        ("milk 1", 1, "start with a 'player' line"),
        ("\n".join(f"player {i}\n" + ". . . . | . . . .\n" * 4 for i in range(5)), 25, "at most 4 players"),
        ("player a\n" + ". . . . | . . . .\n" * 3, 4, "3 farm rows"),
        ("player a\n" + ". . . . | . . . .\n" * 5, 6, "already has 4 farm rows"),
        ("player a\ncrop . . . | . . . .\n" + ". . . . | . . . .\n" * 3, 1, "only in the solo game"),
        ("player a\n" + "P P P P | S S S S\n" * 3 + ". . . . | . . . .", 1, "at most 20"),
        ("player a\n" + ". . . . | . . . .\n" * 4 + "emma horses 6", 6, "only 5 circles"),
        ("player a\n" + ". . . . | . . . .\n" * 4 + "emma dragons 1", 6, "no 'dragons' track"),
        (
            "player a\n" + ". . . . | . . . .\n" * 4 + "player b\n" + ". . . . | . . . .\n" * 4 + "emma pigs 1",
            11,
            "exactly one player",
        ),
    ],
)
def test_helper_refuses_impossible_input(text: str, line: int, message: str) -> None:
    with pytest.raises(BadInput, match=message) as info:
        GAME.score_text(text)
    assert info.value.line == line


def test_helper_needs_a_player() -> None:
    with pytest.raises(BadInput, match="no players"):
        GAME.score_text("# nothing here\n")


def test_board_shows_wheel_dice_farms_and_milk() -> None:
    state = position(players=3, rotation=0, red=0, blue=4, dice=[1, 3, 3, 6], milk=[3, 2, 0])
    text = state.render_text(0)
    assert "\x1b" not in text
    for space in range(8):
        assert f"space {space}:" in text
    assert "space 0: P + S" in text and "<- RED farmer" in text and "<- BLUE farmer" in text
    assert "Dice: 1 3 3 6" in text
    assert "Player 0: milk 3" in text and "Player 2: milk 0" in text
    assert text.count("Red farm") == 3 and text.count("Blue farm") == 3
    state.apply(0, "die 1 red")
    assert "Collected sheep and horse" in state.render_text(None)


def test_solo_board_shows_emma_and_the_crop() -> None:
    state = new(1, seed=2, variants=("emma-hard",))
    text = state.render_text(0)
    assert "Farmer Emma (hard)" in text and "her card:" in text and "You: milk 3" in text
    while state.phase != "crop":
        state.apply(0, state.legal_actions(0)[0])
    assert "Plant a crop in" in state.render_text(0)
    while not state.is_over():
        state.apply(0, state.legal_actions(0)[0])
    assert "Final: you" in state.render_text(0)
