"""Setup, phase 1 (secret simultaneous cards), phase 3 actions, the player wheel, phase 4."""

from __future__ import annotations

import json

import pytest

import farmtable
from farmtable.core.errors import IllegalAction
from farmtable.games.farmerama.components import (
    BEDS_OF_AREA,
    BUILDINGS,
    COW,
    HAY,
    PIG,
    PRODUCT_VALUE,
    SHEEP,
    VARIANT_WHEEL_V1,
    WATER,
)
from farmtable.games.farmerama.rules import ACT, AWARD, CHOOSE, IN_STABLE, OVER
from tests.games.farmerama.positions import choose, give_buildings, move_good, new, sow_directly

# --- setup (rulebook "Game Contents and Setup") -----------------------------------------------


@pytest.mark.parametrize(("players", "stack"), [(2, 8), (3, 11), (4, 14)])
def test_setup_removes_buildings_by_player_count(players: int, stack: int) -> None:
    # 20 basic tiles minus 10/7/4 removed face down, minus the 2 turned face up.
    state = new(players)
    assert len(state.display) == 2
    assert len(state.stack) == stack
    assert len(state.removed) == {2: 10, 3: 7, 4: 4}[players]
    in_play = state.stack + state.display + state.removed
    assert not any(BUILDINGS[b].profi for b in in_play)
    assert sorted(BUILDINGS[b].id for b in state.set_aside) == ["OB21", "OB22", "OB23", "OB24", "OB25"]


def test_profi_mixes_in_the_dark_buildings() -> None:
    state = new(2, profi=True)
    assert state.set_aside == []
    assert len(state.stack) + len(state.display) + len(state.removed) == 25
    assert len(state.stack) == 25 - 10 - 2


def test_setup_supply_barns_animals_and_wheels() -> None:
    state = new(4)
    # 32 of each good, minus 4 players x (2 carrots, 2 hay, 2 oats, 1 corn, 3 water)
    assert state.supply == [32 - 8, 32 - 8, 32 - 8, 32 - 4, 32 - 12]
    for board in state.boards:
        assert board.barn == [2, 2, 2, 1, 3]
        assert board.pasture == [IN_STABLE] * 4
        assert board.wheel == 0
    view = state.view(None)
    assert view["action_wheel"]["sow"] == [3, 2]
    assert view["action_wheel"]["harvest"] == [3, 2]


# --- phase 1: secret and simultaneous --------------------------------------------------------


def test_everyone_chooses_at_once_and_choices_stay_hidden() -> None:
    state = new(4)
    assert state.actors() == [0, 1, 2, 3]
    state.apply(0, "card sow")
    assert state.actors() == [1, 2, 3]
    assert state.legal_actions(0) == []
    assert state.view(0)["my_cards"] == ["sow"]
    other = json.dumps(state.view(1))
    spectator = json.dumps(state.view(None))
    assert "P0 has chosen" in other
    assert "P0 chose" not in other and "P0 chose" not in spectator
    epoch = state.info_epoch()
    for p, card in ((1, "water"), (2, "feed"), (3, "harvest")):
        state.apply(p, f"card {card}")
    assert state.info_epoch() > epoch  # the reveal is new information
    assert "P0 chose sow" in json.dumps(state.view(1))


def test_two_players_choose_two_different_cards() -> None:
    state = new(2)
    state.apply(0, "card sow")
    assert state.actors() == [0, 1]
    assert "card sow" not in state.legal_actions(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="already chose sow"):
        state.apply(0, "card sow")
    assert state.to_json() == before
    state.apply(0, "card water")
    assert state.actors() == [1]


def test_three_players_boss_sheep_chooses_two_and_passes_clockwise() -> None:
    state = new(3)
    assert state.boss == 0
    state.apply(1, "card feed")
    state.apply(2, "card harvest")
    assert state.actors() == [0]
    state.apply(0, "card sow")
    assert state.actors() == [0]
    state.apply(0, "card water")
    assert state.phase == ACT
    # phase 3 in seat order: the Boss Sheep picks the order of its two cards
    assert state.actors() == [0]
    assert state.legal_actions(0)[:2] == ["start sow", "start water"]
    for p in range(3):
        while state.actors() == [p]:
            state.apply(p, "done" if "done" in state.legal_actions(p) else state.legal_actions(p)[0])
    assert state.phase == CHOOSE and state.boss == 1
    assert [b.boss_count for b in state.boards] == [1, 0, 0]


# --- phase 3: the actions ----------------------------------------------------------------------


def _two_player_round(p0: tuple[str, str], p1: tuple[str, str]):  # type: ignore[no-untyped-def]
    state = new(2, variants=(VARIANT_WHEEL_V1,))  # DA-FR1's numbers, as the comments below quote them
    choose(state, p0, p1)
    return state


def test_water_alone_and_then_sow_alone_with_scarecrow_bed_last() -> None:
    state = _two_player_round(("sow", "water"), ("harvest", "feed"))
    assert state.phase == ACT and state.actors() == [0]
    state.apply(0, "start water")
    # Water 2/1 at setup: alone, up to 2 water
    state.apply(0, "water")
    state.apply(0, "water")
    assert state.boards[0].barn[WATER] == 5
    assert "water" not in state.legal_actions(0)
    state.apply(0, "done")  # the other card (sow) starts by itself
    # Sow 3/2: alone, up to 3; hay is sown where the wheel's hay sector is (A1 at setup)
    supply_hay = state.supply[HAY]
    state.apply(0, "sow hay A1")
    a1 = BEDS_OF_AREA[1]
    assert state.boards[0].beds[a1[1]] == HAY and state.boards[0].beds[a1[0]] == -1  # scarecrow still visible
    assert state.boards[0].barn[HAY] == 1 and state.supply[HAY] == supply_hay - 1
    with pytest.raises(IllegalAction, match="only in A1"):
        state.apply(0, "sow hay A2")
    state.apply(0, "sow hay A1")
    assert state.boards[0].scarecrows() == 6
    with pytest.raises(IllegalAction, match="no hay in your barn"):
        state.apply(0, "sow hay A1")
    state.apply(0, "sow carrots A0")
    with pytest.raises(IllegalAction, match="no Sow action left"):
        state.apply(0, "sow corn A3")
    state.apply(0, "done")
    assert state.actors() == [1]


def test_shared_card_gives_the_lower_number() -> None:
    state = new(4, variants=(VARIANT_WHEEL_V1,))
    choose(state, "sow", "sow", "water", "water")  # first round: all tie, no building awarded
    assert state.phase == ACT and state.display and len(state.display) == 2
    for _ in range(2):  # Sow 3/2 shared: 2
        state.apply(0, state.legal_actions(0)[0])
    assert [a for a in state.legal_actions(0) if a.startswith("sow")] == []
    state.apply(0, "done")
    state.apply(1, "done")
    state.apply(2, "water")  # Water 2/1 shared: 1
    assert "water" not in state.legal_actions(2)


def test_harvest_only_in_harvest_areas() -> None:
    state = new(2)
    sow_directly(state, 0, BEDS_OF_AREA[4][0], "hay")
    sow_directly(state, 0, BEDS_OF_AREA[4][1], "corn")
    sow_directly(state, 0, BEDS_OF_AREA[0][0], "carrots")
    choose(state, ("harvest", "feed"), ("sow", "water"))
    state.apply(0, "start harvest")
    assert [a for a in state.legal_actions(0) if a.startswith("harvest")] == ["harvest hay A4", "harvest corn A4"]
    with pytest.raises(IllegalAction, match="A0 is not under a harvest sector"):
        state.apply(0, "harvest carrots A0")
    state.apply(0, "harvest hay A4")
    assert state.boards[0].barn[HAY] == 2 + 2
    assert state.boards[0].beds[BEDS_OF_AREA[4][0]] == -1


def test_feed_pays_the_table_and_goes_to_the_pasture_under_the_head() -> None:
    state = _two_player_round(("feed", "water"), ("sow", "harvest"))
    state.apply(0, "start feed")
    supply = state.supply[:]
    # only the sheep is affordable with 2 carrots, 2 hay, 2 oats, 1 corn
    assert [a for a in state.legal_actions(0) if a.startswith("feed")] == ["feed sheep"]
    with pytest.raises(IllegalAction, match="a pig eats 3 carrots"):
        state.apply(0, "feed pig")
    state.apply(0, "feed sheep")
    board = state.boards[0]
    assert board.barn[:4] == [2, 0, 0, 1]
    assert state.supply[1] == supply[1] + 2 and state.supply[2] == supply[2] + 2
    assert board.pasture[SHEEP] == 3  # the sheep head is on k3, over A3 at setup


def test_feeding_refused_when_the_pasture_is_full() -> None:
    state = new(2)
    board = state.boards[0]
    board.pasture[SHEEP] = board.pasture[PIG] = 1  # A1 is under the cow head at setup
    move_good(state, 0, "hay", 3)
    move_good(state, 0, "corn", 2)
    choose(state, ("feed", "water"), ("sow", "harvest"))
    state.apply(0, "start feed")
    with pytest.raises(IllegalAction, match="pasture of A1 under the cow head is full"):
        state.apply(0, "feed cow")
    board.pasture[PIG] = IN_STABLE
    state._legal = {}
    state.apply(0, "feed cow")
    assert board.pasture[COW] == 1


def test_seed_store_takes_missing_goods_then_one_sow() -> None:
    state = new(2)
    move_good(state, 0, "corn", 0)
    move_good(state, 0, "water", 0)
    choose(state, ("seed-store", "feed"), ("sow", "harvest"))
    state.apply(0, "start seed-store")
    assert state.boards[0].barn == [2, 2, 2, 1, 1]  # one corn and one water; the rest unchanged
    state.apply(0, "sow corn A3")
    assert [a for a in state.legal_actions(0) if a.startswith("sow")] == []


# --- the player wheel and products -------------------------------------------------------------


def test_turning_the_wheel_costs_water_and_moves_the_sow_sectors() -> None:
    state = _two_player_round(("sow", "water"), ("harvest", "feed"))
    assert "turn-wheel" in state.legal_actions(0)
    state.apply(0, "turn-wheel")
    assert state.boards[0].barn[WATER] == 2 and state.boards[0].wheel == 1
    state.apply(0, "start sow")
    assert "sow carrots A6" in state.legal_actions(0)  # the carrot sector k0 moved on to A6


def test_wheel_cannot_turn_over_an_area_with_plants() -> None:
    state = new(2)
    sow_directly(state, 0, BEDS_OF_AREA[6][1], "oats")  # A6 is under k6: the bar passes it next
    choose(state, ("harvest", "water"), ("sow", "feed"))
    assert "turn-wheel" not in state.legal_actions(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="A6, which is not completely empty"):
        state.apply(0, "turn-wheel")
    assert state.to_json() == before
    state.apply(0, "start harvest")
    state.apply(0, "harvest oats A6")
    assert "turn-wheel" in state.legal_actions(0)


def test_animal_on_the_pacifier_returns_and_scores_its_product() -> None:
    state = _two_player_round(("feed", "water"), ("sow", "harvest"))
    state.apply(0, "start feed")
    state.apply(0, "feed sheep")  # to A3 (k3); A3 reaches k6 after 3 turns
    board = state.boards[0]
    state.apply(0, "turn-wheel")
    state.apply(0, "turn-wheel")
    assert board.pasture[SHEEP] == 3 and board.products[SHEEP] == 0
    state.apply(0, "turn-wheel")
    assert board.pasture[SHEEP] == IN_STABLE and board.products[SHEEP] == 1
    assert state.result().breakdown[0]["wool"] == PRODUCT_VALUE[SHEEP]


# --- phase 4 and the end -----------------------------------------------------------------------


def test_mucking_out_turns_the_action_wheel_and_returns_cards() -> None:
    state = _two_player_round(("sow", "water"), ("harvest", "feed"))
    while state.phase == ACT:
        p = state.actors()[0]
        legal = state.legal_actions(p)
        state.apply(p, "done" if "done" in legal else legal[0])
    assert state.phase == CHOOSE and state.round == 2 and state.action_wheel == 1
    assert all(b.cards == [] for b in state.boards)


def test_game_ends_at_once_when_the_display_cannot_be_refilled() -> None:
    state = new(2)
    give_buildings(state, 0, len(state.stack))
    state.boards[1].garden.append(state.display.pop())  # one face-up tile left, stack empty
    choose(state, ("sow", "water"), ("harvest", "feed"))
    while not state.is_over():
        p = state.actors()[0]
        legal = state.legal_actions(p)
        state.apply(p, "done" if "done" in legal else legal[0])
    assert state.phase == OVER and state.actors() == []


def test_three_players_play_on_until_everyone_had_the_boss_sheep_equally() -> None:
    state = new(3)
    removed = list(state.removed)
    give_buildings(state, 1, len(state.stack))
    state.boards[2].garden.append(state.display.pop())
    rounds = 0
    while not state.is_over():
        boss = state.boss
        for p in range(3):
            cards = ("sow", "water") if p == boss else ("harvest" if p == (boss + 1) % 3 else "feed",)
            for card in cards:
                state.apply(p, f"card {card}")
        assert state.phase == ACT  # no shared card: no award
        while state.phase == ACT:
            p = state.actors()[0]
            state.apply(p, "done" if "done" in state.legal_actions(p) else state.legal_actions(p)[0])
        rounds += 1
        if rounds == 1:
            # the stack could not refill: the set-aside tiles came back for the last rounds
            assert state.final_rounds and state.removed == []
            assert len(state.display) == 2 and len(state.stack) == len(removed) - 1
    assert rounds == 3
    assert [b.boss_count for b in state.boards] == [1, 1, 1]


def test_award_phase_is_skipped_without_shared_cards() -> None:
    state = _two_player_round(("sow", "water"), ("harvest", "feed"))
    assert state.phase != AWARD


def test_feed_any_number_of_animals_in_one_action() -> None:
    state = new(2)
    for good, amount in (("carrots", 6), ("hay", 5), ("oats", 5), ("corn", 4)):
        move_good(state, 0, good, amount)
    choose(state, ("feed", "water"), ("sow", "harvest"))
    state.apply(0, "start feed")
    for animal in ("sheep", "pig", "cow", "horse"):
        state.apply(0, f"feed {animal}")
    board = state.boards[0]
    # heads at setup: horse k0/A0, cow k1/A1, pig k2/A2, sheep k3/A3
    assert board.pasture == [3, 2, 1, 0]
    assert board.barn[:4] == [0, 0, 0, 0]
    assert [a for a in state.legal_actions(0) if a.startswith("feed")] == []


def test_product_track_stops_at_twelve() -> None:
    state = new(2)
    board = state.boards[0]
    board.products[SHEEP] = 12
    board.pasture[SHEEP] = 5  # after one turn the pacifier (k6) lies over A5
    state.turn_player_wheel(board)
    assert board.pasture[SHEEP] == IN_STABLE and board.products[SHEEP] == 12


def test_undo_is_allowed_before_the_reveal_but_not_after() -> None:
    from farmtable.core import History

    history = History(new(2))
    history.apply(0, "card sow")
    assert history.why_no_undo(0) is None
    history.undo(0)
    for p, card in ((0, "sow"), (0, "water"), (1, "harvest"), (1, "feed")):
        history.apply(p, f"card {card}")
    assert "revealed" in (history.why_no_undo(1) or "")


def test_rulebook_water_example_three_water_for_three_times_water() -> None:
    state = new(2, variants=(VARIANT_WHEEL_V1,))
    state.action_wheel = 1  # DA-FR1 (wheel-v1): Water 3/2 in section 1
    choose(state, ("water", "feed"), ("sow", "harvest"))
    state.apply(0, "start water")
    for _ in range(3):
        state.apply(0, "water")
    assert state.boards[0].barn[WATER] == 3 + 3 and "water" not in state.legal_actions(0)


def test_rulebook_tip_turn_sow_turn_sow_twice() -> None:
    # "turn the player wheel one section with 1 water, sow once, then spend another water to turn
    # the wheel and perform two further Sow actions"
    state = _two_player_round(("sow", "feed"), ("harvest", "water"))
    state.apply(0, "start sow")  # Sow 3/2 alone: 3
    state.apply(0, "turn-wheel")
    state.apply(0, "sow carrots A6")  # k0 (carrots) now over A6
    state.apply(0, "turn-wheel")  # the bar passes A5, still empty
    state.apply(0, "sow carrots A5")  # k0 now over A5, k1 (hay) over A6
    state.apply(0, "sow hay A6")
    assert state.boards[0].barn[WATER] == 1 and state.boards[0].remaining == 0


def test_setting_animals_block_the_wheel() -> None:
    # DA-FR3 asks for a setting: may the bar pass over an area whose pasture holds animals?
    # Under DA-FR3 an animal is never there in play, so the position is built by hand.
    for blocks in (False, True):
        state = farmtable.get_game("farmerama").new_game(players=2, seed=1, animals_block_wheel=blocks)
        state.boards[0].pasture[SHEEP] = 6  # A6: the area under k6, which the bar passes next
        choose(state, ("sow", "water"), ("harvest", "feed"))
        assert ("turn-wheel" in state.legal_actions(0)) is not blocks
        if blocks:
            with pytest.raises(IllegalAction, match="animals stand on the pasture"):
                state.apply(0, "turn-wheel")
        restored = farmtable.get_game("farmerama").from_json(state.to_json())
        assert restored.animals_block_wheel is blocks


def test_safety_stop_after_max_rounds_when_nobody_shares_a_card() -> None:
    # Not a rule: mirrored or never-shared choices would never empty the display.
    game = farmtable.get_game("farmerama")
    state = game.new_game(players=2, seed=1, max_rounds=3)
    while not state.is_over():
        choose(state, ("sow", "water"), ("harvest", "feed"))
        while state.phase == ACT:
            p = state.actors()[0]
            legal = state.legal_actions(p)
            state.apply(p, "done" if "done" in legal else legal[0])
    assert state.round == 4 and len(state.display) == 2  # three rounds played, no award
    assert game.new_game(players=2, seed=1).max_rounds == 100
    assert game.new_game(players=2, seed=1, max_rounds=None).max_rounds is None
    with pytest.raises(ValueError, match="max_rounds"):
        game.new_game(players=2, max_rounds=0)


def test_simultaneous_variant_everyone_carries_out_phase_3_at_once() -> None:
    game = farmtable.get_game("farmerama")
    state = game.new_game(players=3, seed=1, variants=("simultaneous",))
    choose(state, ("sow", "water"), "harvest", "feed")
    assert state.phase == ACT and state.actors() == [0, 1, 2]
    assert state.legal_actions(0)[:2] == ["start sow", "start water"]
    state.apply(2, "feed sheep")  # P2 need not wait for P0 and P1
    state.apply(1, "done")
    assert state.actors() == [0, 2]
    state.apply(2, "done")
    state.apply(0, "start water")
    state.apply(0, "done")
    assert state.phase == ACT and state.actors() == [0]  # P0 still has the sow card
    state.apply(0, "done")
    assert state.phase == CHOOSE and state.round == 2
    with pytest.raises(ValueError, match="2-4 players"):
        game.new_game(players=1, variants=("simultaneous",))
