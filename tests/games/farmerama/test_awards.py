"""Phase 2: who receives an ornamental building (overview card), lots, the 2-player double award, Profi."""

from __future__ import annotations

import pytest

from farmtable.core.errors import IllegalAction
from farmtable.games.farmerama.components import BEDS_OF_AREA, SHEEP, WATER
from farmtable.games.farmerama.rules import ACT, AWARD
from tests.games.farmerama.positions import choose, give_buildings, move_good, new, set_display, sow_directly

STAR, TWO_WATER = "OB01", "OB14"


def _ids(state, player):  # type: ignore[no-untyped-def]
    return [f"OB{b + 1:02d}" for b in state.boards[player].garden]


def test_first_round_tie_awards_nothing() -> None:
    # Rulebook: "If there is again a tie, the tile is not awarded (as, for example, in the first round)".
    state = new(2)
    display = list(state.display)
    choose(state, ("sow", "water"), ("sow", "feed"))
    assert state.phase == ACT and state.display == display


def test_fewest_buildings_wins_and_chooses_a_tile() -> None:
    state = new(2)
    set_display(state, STAR, TWO_WATER)
    give_buildings(state, 1, 1)
    choose(state, ("sow", "water"), ("sow", "feed"))
    assert state.phase == AWARD and state.actors() == [0]
    assert state.legal_actions(0) == ["take 1", "take 2"]
    with pytest.raises(IllegalAction):
        state.apply(1, "take 1")
    state.apply(0, "take 2")
    assert _ids(state, 0) == [TWO_WATER]
    assert state.boards[0].barn[WATER] == 3 + 2  # the reward is collected at once
    assert state.phase == ACT and len(state.display) == 1


def test_tie_on_buildings_more_visible_scarecrows_wins() -> None:
    state = new(2)
    set_display(state, STAR, TWO_WATER)
    sow_directly(state, 0, BEDS_OF_AREA[2][0], "oats")  # P0 covers a scarecrow: 6 visible against 7
    choose(state, ("sow", "water"), ("sow", "feed"))
    assert state.actors() == [1]


def test_then_fewer_feed_plants_in_the_barn_wins() -> None:
    state = new(2)
    move_good(state, 1, "carrots", 3)  # P1: 8 feed plants against P0's 7
    sow_directly(state, 0, BEDS_OF_AREA[2][1], "oats")  # not a scarecrow bed: still 7 each
    choose(state, ("sow", "water"), ("sow", "feed"))
    assert state.phase == AWARD and state.actors() == [0]


def test_water_does_not_count_as_feed_plant_in_the_tie_break() -> None:
    state = new(2)
    move_good(state, 1, "water", 6)
    choose(state, ("sow", "water"), ("sow", "feed"))
    assert state.phase == ACT  # still a full tie: nobody


def test_only_the_players_of_the_shared_card_compete() -> None:
    state = new(4)
    give_buildings(state, 0, 1)
    give_buildings(state, 1, 1)
    # P2 has the fewest buildings but did not play the shared card
    choose(state, "sow", "sow", "feed", "water")
    assert state.phase == ACT  # P0 and P1 tie


def test_two_pairs_are_settled_by_lot() -> None:
    seen = set()
    for seed in range(12):
        state = new(4, seed=seed)
        set_display(state, STAR, TWO_WATER)
        give_buildings(state, 1, 1)
        give_buildings(state, 3, 1)
        epoch = state.info_epoch()
        choose(state, "sow", "sow", "water", "water")
        assert state.phase == ACT  # no choice: the lot decided
        assert state.info_epoch() > epoch + 1  # the reveal and the lot
        got = (_ids(state, 0), _ids(state, 2))
        assert sorted(got[0] + got[1]) == [STAR, TWO_WATER]
        seen.add(got[0][0])
    assert seen == {STAR, TWO_WATER}  # the lot goes both ways


def test_two_pairs_with_one_tie_lets_the_other_winner_choose() -> None:
    state = new(4)
    give_buildings(state, 3, 1)
    choose(state, "sow", "sow", "water", "water")  # P0/P1 tie; P2 beats P3
    assert state.phase == AWARD and state.actors() == [2]
    assert state.legal_actions(2) == ["take 1", "take 2"]


def test_two_players_double_award_second_goes_to_the_other_when_decided_anew() -> None:
    state = new(2)
    set_display(state, STAR, TWO_WATER)
    give_buildings(state, 1, 1)
    move_good(state, 0, "carrots", 4)  # after the first award P0 has more feed than P1
    choose(state, ("sow", "water"), ("water", "sow"))
    assert state.actors() == [0]
    state.apply(0, "take 1")
    # second award decided anew: 1 building each, 7 scarecrows each, P1 has fewer feed plants
    assert _ids(state, 0) == [STAR]
    assert _ids(state, 1)[-1] == TWO_WATER
    assert state.phase == ACT


def test_two_players_double_award_can_go_to_the_same_player() -> None:
    state = new(2)
    set_display(state, STAR, TWO_WATER)
    give_buildings(state, 1, 2)
    choose(state, ("sow", "water"), ("water", "sow"))
    state.apply(0, "take 2")
    # P0 still has fewer buildings (1 against 2): the remaining tile is P0's too
    assert _ids(state, 0) == [TWO_WATER, STAR]


def test_profi_award_order_fewest_product_stars() -> None:
    for profi, expected in ((True, [1]), (False, None)):
        state = new(2, profi=profi)
        state.boards[0].products[SHEEP] = 1
        choose(state, ("sow", "water"), ("sow", "feed"))
        if expected is None:
            assert state.phase == ACT  # basic rules: tie on buildings, scarecrows and feed
        else:
            assert state.actors() == expected


def test_profi_reward_of_choice_asks_for_feed_plants() -> None:
    state = new(2, profi=True)
    set_display(state, "OB23", TWO_WATER)  # 3 feed of choice
    give_buildings(state, 1, 1)
    choose(state, ("sow", "water"), ("sow", "feed"))
    state.apply(0, "take 1")
    assert state.phase == AWARD and state.actors() == [0]
    assert state.legal_actions(0) == ["gain carrots", "gain hay", "gain oats", "gain corn"]
    with pytest.raises(IllegalAction, match="not water"):
        state.apply(0, "gain water")
    for good in ("corn", "corn", "hay"):
        state.apply(0, f"gain {good}")
    assert state.boards[0].barn[:4] == [2, 3, 2, 3]
    assert state.phase == ACT


def test_star_building_scores_three() -> None:
    state = new(2)
    set_display(state, STAR, TWO_WATER)
    state.boards[0].garden.append(state.display.pop(0))
    assert state.result().breakdown[0]["star_buildings"] == 3
