"""Scenario tests for the multiplayer rules: set-up, the barn wheel, movement, milk, placing, rounds."""

from __future__ import annotations

import json
import random

import pytest

from farmtable.core import IllegalAction
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms.rules import ACTION_CODES, CROP, MOVE, OVER, PLACE, VISIBLE, TinyFarmsState, cell_name
from tests.games.tiny_farms.builder import board, new, position

# DA-TF4 of the components file, typed in from the table there (rows: rotation, columns: space).
COMPONENT_TABLE = """
P+S     S+H    Ch+FF-e  C+Ch   Ch+P     cc+C   FF-b+P  C+FF-bu
Ch+FF-r C+cc   FF-e+S   cc+P   H+P      Ch+S   P+S     H+Ch
P+S     S+H    Ch+P     P+Ch   Ch+FF-s  cc+S   FF-b+cc Ch+C
S+Ch    C+cc   FF-e+S   cc+C   FF-s+P   Ch+C   P+cc    H+FF-bu
P+FF-r  cc+S   Ch+P     P+Ch   Ch+H     C+S    FF-b+S  Ch+FF-bu
S+FF-r  C+H    P+FF-e   cc+C   FF-s+P   Ch+cc  S+cc    H+C
P+Ch    cc+H   Ch+S     C+P    Ch+H     C+S    FF-b+P  C+FF-bu
Ch+FF-r C+S    P+S      cc+Ch  H+FF-s   Ch+cc  S+cc    H+Ch
"""


def test_wheel_shows_the_component_table() -> None:
    rows = [line.split() for line in COMPONENT_TABLE.strip().splitlines()]
    for rotation, row in enumerate(rows):
        shown = ["+".join(c.ABBREVIATIONS[a] for a in VISIBLE[rotation][s]) for s in range(c.WHEEL_SPACES)]
        assert shown == row, f"rotation {rotation}"


def test_no_window_shows_the_same_animal_twice() -> None:
    for rotation in range(c.WHEEL_SPACES):
        for space in range(c.WHEEL_SPACES):
            first, second = VISIBLE[rotation][space]
            assert first != second


@pytest.mark.parametrize(("players", "dice"), [(1, 3), (2, 3), (3, 4), (4, 5)])
def test_setup(players: int, dice: int) -> None:
    state = new(players)
    assert len(state.dice) == dice  # players + 1 (solo: as for two players)
    assert state.milk == [3] * players
    assert (state.red, state.blue, state.rotation) == (0, 4, 0)  # across from each other, wheel at start
    assert state.round == 1 and state.actors() == [0] and state.phase == MOVE
    assert all(v == c.EMPTY for b in state.boards for v in b)


def test_rulebook_movement_example() -> None:
    # "You could choose the 4 and move the Red farmer four spaces, collecting the Forest Friend and Pig.
    #  You could choose the 1 and move the Blue farmer, collecting the Pig and the Chicken."
    state = position(rotation=0, red=2, blue=3, dice=[1, 4, 6])
    state.apply(0, "die 4 red")
    assert state.red == 6 and sorted(state.pending) == sorted([c.BEAR, c.PIG])
    state = position(rotation=0, red=2, blue=3, dice=[1, 4, 6])
    state.apply(0, "die 1 blue")
    assert state.blue == 4 and sorted(state.pending) == sorted([c.CHICKEN, c.PIG])


def test_bump_rule_red_moves_one_past_blue() -> None:
    state = position(red=0, blue=4, dice=[2, 4, 6])
    state.apply(0, "die 4 red")  # space 4 holds Blue: Red ends on 5
    assert state.red == 5 and state.blue == 4
    assert state.pending == list(VISIBLE[0][5])


def test_bump_rule_blue_wraps_round_and_jumps_red() -> None:
    state = position(red=1, blue=6, dice=[3, 5, 5])
    state.apply(0, "die 3 blue")  # 6 + 3 = space 1 (Red there) -> space 2
    assert state.blue == 2 and state.red == 1


def test_move_wraps_clockwise_without_bump() -> None:
    state = position(red=7, blue=4, dice=[2, 3, 3])
    state.apply(0, "die 2 red")
    assert state.red == 1


def test_milk_raises_the_die_and_costs_a_token() -> None:
    # "spend two milk tokens to change a '6' to '8'": 8 spaces is a full circle back to the start.
    state = position(red=0, blue=4, dice=[2, 5, 6])
    state.apply(0, "milk +1")
    state.apply(0, "milk +1")
    assert state.milk[0] == 1 and state.modifier == 2
    state.apply(0, "die 6 red")
    assert state.red == 0 and state.milk[0] == 1 and state.modifier == 0


def test_milk_lowers_the_die() -> None:
    state = position(red=0, blue=4, dice=[1, 3, 5])
    state.apply(0, "milk -1")
    state.apply(0, "die 3 red")  # 3 - 1 = 2
    assert state.red == 2 and state.milk[0] == 2


def test_milk_never_turns_a_one_into_zero() -> None:
    state = position(dice=[1, 1, 2])
    state.apply(0, "milk -1")
    assert "die 1 red" not in state.legal_actions(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="below 1"):
        state.apply(0, "die 1 red")
    assert state.to_json() == before
    state.apply(0, "die 2 red")  # 2 - 1 = 1 is fine
    assert state.red == 1


def test_milk_cannot_lower_when_every_die_is_one() -> None:
    state = position(dice=[1, 1, 1])
    assert "milk -1" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="below 1"):
        state.apply(0, "milk -1")


def test_no_milk_left() -> None:
    state = position(dice=[2, 3, 4], milk=[0, 3])
    assert "milk +1" not in state.legal_actions(0) and "milk -1" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="no milk"):
        state.apply(0, "milk +1")


def test_milk_limit_is_the_tokens_you_have() -> None:
    state = position(dice=[2, 3, 4])
    for _ in range(3):
        state.apply(0, "milk +1")
    assert state.milk[0] == 0 and "milk +1" not in state.legal_actions(0)


def test_milk_cannot_be_spent_both_ways() -> None:
    state = position(dice=[2, 3, 4])
    state.apply(0, "milk +1")
    with pytest.raises(IllegalAction, match="waste"):
        state.apply(0, "milk -1")


def test_die_not_rolled_is_refused() -> None:
    state = position(dice=[2, 3, 4])
    with pytest.raises(IllegalAction, match="no die shows 6"):
        state.apply(0, "die 6 red")


def test_equal_dice_give_one_choice_each() -> None:
    state = position(dice=[2, 4, 4])
    moves = [a for a in state.legal_actions(0) if a.startswith("die")]
    assert moves == ["die 2 red", "die 2 blue", "die 4 red", "die 4 blue"]
    state.apply(0, "die 4 red")
    state.apply(0, f"put {c.NAMES[state.pending[0]]} R-A1")
    state.apply(0, f"put {c.NAMES[state.pending[0]]} R-B1")
    assert state.dice == [2, 4]  # one 4 is used, the other stays


def test_animals_go_into_the_matching_farm() -> None:
    state = position(rotation=0, red=0, blue=4, dice=[1, 2, 3])
    state.apply(0, "die 3 blue")  # space 7: cow + bunny, blue farm
    assert state.phase == PLACE and state.pending_farm == c.BLUE
    with pytest.raises(IllegalAction, match="blue farm"):
        state.apply(0, "put cow R-A1")
    with pytest.raises(IllegalAction, match="you collected cow and bunny, not a pig"):
        state.apply(0, "put pig B-A1")
    state.apply(0, "put cow B-A1")
    with pytest.raises(IllegalAction, match="already holds cow"):
        state.apply(0, "put bunny B-A1")
    state.apply(0, "Put Bunny b-d4")
    assert state.boards[0][16] == c.COW and state.boards[0][31] == c.BUNNY
    assert state.actors() == [1]  # both animals written: the next player's turn


def test_calves_come_as_a_pair_in_one_space() -> None:
    state = position(rotation=0, red=0, blue=4, dice=[1, 5, 6])
    state.apply(0, "die 5 red")  # space 5: calves + cow
    assert state.pending == [c.CALVES, c.COW]
    state.apply(0, "put calves R-A1")
    assert state.boards[0].count(c.CALVES) == 1 and state.pending == [c.COW]


def test_full_farm_loses_the_animals() -> None:
    full_red = board(
        """
        Ch Ch Ch Ch | . . . .
        Ch Ch Ch Ch | . . . .
        Ch Ch Ch Ch | . . . .
        Ch Ch Ch Ch | . . . .
        """
    )
    state = position(boards=[full_red, board()], dice=[1, 2, 3])
    state.apply(0, "die 1 red")
    assert state.boards[0] == full_red and state.actors() == [1]
    assert "lost" in state.events[-1]


def test_one_space_left_takes_one_animal_and_loses_the_other() -> None:
    almost = board(
        """
        Ch Ch Ch Ch | . . . .
        Ch Ch Ch Ch | . . . .
        Ch Ch Ch Ch | . . . .
        Ch Ch Ch .  | . . . .
        """
    )
    state = position(boards=[almost, board()], rotation=0, red=0, blue=4, dice=[1, 2, 3])
    state.apply(0, "die 1 red")  # sheep + horse
    assert sorted(state.legal_actions(0)) == ["put horse R-D4", "put sheep R-D4"]
    state.apply(0, "put horse R-D4")
    assert state.actors() == [1] and state.pending == []
    assert state.boards[0].count(c.SHEEP) == 0


def _take_turn(state: TinyFarmsState, die: str) -> None:
    player = state.actors()[0]
    state.apply(player, die)
    while state.phase == PLACE and state.actors() == [player]:
        state.apply(player, state.legal_actions(player)[0])


def test_round_end_turns_the_wheel_and_passes_the_start_player() -> None:
    state = position(dice=[2, 3, 5])
    epoch = state.info_epoch()
    _take_turn(state, "die 2 red")
    _take_turn(state, "die 3 blue")
    # the leftover 5 turns the top wheel clockwise 5 spaces; player 1 starts round 2
    assert state.rotation == 5 and state.round == 2 and state.start_player == 1
    assert state.order == [1, 0] and state.actors() == [1]
    assert len(state.dice) == 3 and state.info_epoch() == epoch + 1


def test_turn_order_is_clockwise_from_the_start_player() -> None:
    state = position(players=4, start_player=2, order=[2, 3, 0, 1], current=2, dice=[1, 2, 3, 4, 5])
    seen = []
    for die in ("die 1 red", "die 2 red", "die 3 blue", "die 4 blue"):
        seen.append(state.actors()[0])
        _take_turn(state, die)
    assert seen == [2, 3, 0, 1]
    assert state.rotation == 5 and state.start_player == 3


def _random_game(players: int, seed: int, variants: tuple[str, ...] = ()) -> tuple[list[str], TinyFarmsState]:
    state = new(players, seed, variants)
    rng = random.Random(seed)
    log = []
    while not state.is_over():
        player = state.actors()[0]
        action = rng.choice(state.legal_actions(player))
        log.append(action)
        state.apply(player, action)
    return log, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_lasts_ten_rounds(players: int) -> None:
    log, state = _random_game(players, seed=players)
    assert sum(1 for a in log if a.startswith("die")) == 10 * players
    assert state.round == 10 and state.phase == OVER and state.actors() == []


def test_each_turn_writes_at_most_two_spaces() -> None:
    log, state = _random_game(3, seed=11)
    assert sum(1 for a in log if a.startswith("put")) <= 2 * 10 * 3
    for b in state.boards:
        assert sum(1 for v in b if v != c.EMPTY) <= 20


def test_notation_tolerates_case_and_spaces_but_not_garbage() -> None:
    state = position(dice=[2, 3, 4])
    with pytest.raises(IllegalAction, match="not Tiny Farms notation"):
        state.apply(0, "move red 4")
    state.apply(0, "  DIE   4  Red ")
    assert state.red == 5  # 0 + 4 = 4 is Blue's space: bumped to 5


def test_check_action_accepts_exactly_the_legal_actions() -> None:
    rng = random.Random(5)
    for players, variants in ((2, ()), (3, ()), (1, ("emma-hard",))):
        state = new(players, seed=rng.randrange(1000), variants=variants)
        while not state.is_over():
            player = state.actors()[0]
            legal = set(state.legal_actions(player))
            for action in ACTION_CODES:
                try:
                    state.check_action(player, action)
                except IllegalAction as exc:
                    assert action not in legal, f"{action} is legal but refused: {exc}"
                    assert str(exc).strip()
                else:
                    assert action in legal, f"{action} accepted but not legal"
            state.apply(player, rng.choice(sorted(legal)))


def test_legal_lists_have_no_duplicates() -> None:
    _, _ = _random_game(2, 3)
    rng = random.Random(2)
    state = new(4, seed=9)
    while not state.is_over():
        legal = state.legal_actions(state.actors()[0])
        assert len(legal) == len(set(legal)) and legal
        state.apply(state.actors()[0], rng.choice(legal))


def test_non_actor_gets_no_actions_and_is_refused() -> None:
    state = new(3)
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []
    with pytest.raises(IllegalAction, match="not player 1's decision"):
        state.apply(1, state.legal_actions(0)[0])


def test_cell_names() -> None:
    assert [cell_name(i) for i in (0, 3, 4, 15, 16, 31)] == ["R-A1", "R-D1", "R-A2", "R-D4", "B-A1", "B-D4"]


def test_crop_phase_never_happens_in_multiplayer() -> None:
    rng = random.Random(3)
    state = new(2, seed=4)
    while not state.is_over():
        assert state.phase != CROP
        state.apply(state.actors()[0], rng.choice(state.legal_actions(state.actors()[0])))


def test_undo_within_a_turn_but_not_past_a_roll() -> None:
    from farmtable.core import History

    history = History(position(dice=[2, 3, 5]))
    history.apply(0, "milk +1")
    history.apply(0, "die 2 red")  # 2 + 1 = 3: cow + chicken
    assert history.undo(0) == "die 2 red" and history.state.to_dict()["milk"] == [2, 3]
    history.apply(0, "die 2 red")
    history.apply(0, "put cow R-A1")
    history.apply(0, "put chicken R-B1")
    history.apply(1, "die 3 blue")
    history.apply(1, "put bunny B-A1")  # 4 + 3 = space 7: cow + bunny
    history.apply(1, history.state.legal_actions(1)[0])  # last animal: the round ends, dice are rolled
    assert history.why_no_undo(1) is not None and "revealed" in str(history.why_no_undo(1))


def test_heuristic_prefers_a_pig_pair_to_two_lone_pigs() -> None:
    pair = position(boards=[board("P P . . | . . . .\n" + ". . . . | . . . .\n" * 3), board()])
    apart = position(boards=[board("P . P . | . . . .\n" + ". . . . | . . . .\n" * 3), board()])
    assert pair.heuristic(0) > apart.heuristic(0)
    assert pair.heuristic(1) < apart.heuristic(1)


@pytest.mark.parametrize(
    ("die", "change", "end"),
    [(4, -1, 3), (5, 1, 6), (6, 1, 7), (6, 2, 0), (5, -2, 3)],  # the Milk! examples; 8 is a full circle
)
def test_rulebook_milk_examples(die: int, change: int, end: int) -> None:
    # 'change a "4" to "3" or a "5" to "6" or "6" to "7"'; 'spend two milk tokens to change a "6" to
    # "8" or "5" to "3"'. Red starts on 0 (Blue on 4), so it ends on the changed value, mod 8.
    state = position(red=0, blue=4, dice=[1, 2, die])
    for _ in range(abs(change)):
        state.apply(0, "milk +1" if change > 0 else "milk -1")
    state.apply(0, f"die {die} red")
    assert state.red == end and state.milk[0] == 3 - abs(change)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_a_finished_game_reloads_from_its_own_save(players: int) -> None:
    """Regression (issue 12, M3): a finished game's save loads as it is, without replaying the log."""
    game = TinyFarmsState.game
    state = game.new_game(players=players, seed=11)
    rng = random.Random(5)
    while not state.is_over():
        player = state.actors()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    saved = state.to_json()
    again = game.from_json(saved)
    assert again.to_json() == saved
    assert again.result() == state.result()


def test_a_finished_save_from_before_the_fix_still_loads() -> None:
    """Saves written before the fix kept the last turn's index on a finished game; they still load."""
    game = TinyFarmsState.game
    state = game.new_game(players=2, seed=3)
    rng = random.Random(1)
    while not state.is_over():
        player = state.actors()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    envelope = json.loads(state.to_json())
    envelope["state"]["turn_index"] = 2  # what the old code left behind
    again = game.from_json(json.dumps(envelope))
    assert again.to_json() == state.to_json()
