"""Farmini rules from hand-built positions: setup, taking and playing cards, the forced
discard, wolves in and out of pens, the solo wolf rule, the end, notation and errors."""

from __future__ import annotations

import json

import pytest

import farmtable
from farmtable.core import CorruptSave, IllegalAction
from farmtable.games.farmini.components import ALL_CARDS, STARTING_CARD_IDS, TOTAL_TOKENS
from farmtable.games.farmini.farm import ORIENTED
from farmtable.games.farmini.render import draw_card, render_farm
from farmtable.games.farmini.rules import GAME, Discard, Place, PutAnimal, Take
from tests.games.farmini.builders import PEN_2X2_WITH_ANIMAL_CELL, make_state

NE, SE, SW, NW = 0, 1, 2, 3
FULL_FARM = "farm at 0,0\npig at 0,0/SE\npig at 0,0/SW\ngoat at 0,0/NW"
"""A lone farm card whose three animal cells are all taken."""


# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup(players: int) -> None:
    state = GAME.new_game(players=players, seed=5)
    # each player's farm card at 0,0
    for p in range(players):
        assert [o.card_id for o in state.farms[p].cards.values()] == [f"H{p + 1}"]
    # the four starting cards face up
    assert state.table == list(STARTING_CARD_IDS) == ["A1", "B1", "C1", "D1"]
    # deck: all other cards, unused farm cards included: 54 - 4 starting - farms in play
    assert len(state.deck) == len(ALL_CARDS) - 4 - players
    assert {f"H{p + 1}" for p in range(players, 4)} <= set(state.deck)
    assert not set(STARTING_CARD_IDS) & set(state.deck)
    # 15 tokens in the farmyard, 5 of each kind
    assert state.farmyard == {"pig": 5, "goat": 5, "chicken": 5}
    assert state.actors() == [0]
    assert state.legal_actions(0) == [Take(1), Take(2), Take(3), Take(4)]


def test_same_seed_same_deck_other_seed_other_deck() -> None:
    assert GAME.new_game(2, seed=1).deck == GAME.new_game(2, seed=1).deck
    assert GAME.new_game(2, seed=1).deck != GAME.new_game(2, seed=2).deck


def test_bad_player_counts_variants_and_options() -> None:
    with pytest.raises(ValueError, match="1–4 players"):
        GAME.new_game(players=5)
    with pytest.raises(ValueError, match="players=1"):
        GAME.new_game(players=2, variants=("solo-wolf-clears-all",))
    with pytest.raises(ValueError, match="no options"):
        GAME.new_game(players=2, colour="red")
    assert farmtable.get_game("farmini") is GAME


# --- a turn: take and play a fence card -------------------------------------------------------


def test_take_then_place_a_fence_card_then_reveal() -> None:
    state = make_state(["farm at 0,0", "farm at 0,0"], ["A1", "B1", "C1", "D1"], ["F2", "E1"])
    epoch = state.info_epoch()
    state.apply(0, "take 4")  # D1: fences N and S
    assert state.pending == "D1"
    assert state.table == ["A1", "B1", "C1"]
    legal = state.legal_actions(0)
    assert all(isinstance(a, Place) and a.card == "D1" for a in legal)
    # on the farm's north side unturned, on its east side turned 90
    assert Place("D1", 0, 1, 0) in legal and Place("D1", 1, 0, 90) in legal
    assert Place("D1", 1, 0, 0) not in legal
    assert state.info_epoch() == epoch  # taking reveals nothing
    state.apply(0, "place D1 at 1,0 rot 90")
    assert state.farms[0].cards[1, 0].card_id == "D1"
    assert state.table == ["A1", "B1", "C1", "F2"]  # the top card was revealed
    assert state.deck == ["E1"]
    assert state.info_epoch() == epoch + 1
    assert state.actors() == [1]  # then clockwise


def test_placing_with_mismatched_sides_is_refused_and_changes_nothing() -> None:
    state = make_state(["farm at 0,0"], ["A1", "B1", "C1", "D1"], ["F2"])
    state.apply(0, "take 4")
    before = state.to_json()
    with pytest.raises(IllegalAction, match="sides must match") as err:
        state.apply(0, "place D1 at 1,0 rot 0")
    assert "west side" in str(err.value)
    with pytest.raises(IllegalAction, match="must touch"):
        state.apply(0, "place D1 at 3,3")
    with pytest.raises(IllegalAction, match="you took D1, not A1"):
        state.apply(0, "place A1 at 1,0")
    with pytest.raises(IllegalAction, match="already taken D1"):
        state.apply(0, "take 1")
    assert state.to_json() == before


# --- animal cards -------------------------------------------------------------------------------


def test_animal_card_places_each_token_on_a_free_animal_cell() -> None:
    state = make_state(["farm at 0,0"], ["P4", "B1", "C1", "D1"], ["F2"])
    state.apply(0, "take 1")  # P4 shows two pigs
    legal = state.legal_actions(0)
    assert legal == [PutAnimal("pig", 0, 0, SE), PutAnimal("pig", 0, 0, SW), PutAnimal("pig", 0, 0, NW)]
    state.apply(0, "animal pig at 0,0/SE")
    assert state.pending_left == 1 and state.actors() == [0]
    with pytest.raises(IllegalAction, match="already holds a pig"):
        state.apply(0, "animal pig at 0,0/SE")
    with pytest.raises(IllegalAction, match="not an animal cell"):
        state.apply(0, "animal pig at 0,0/NE")  # the farm's cornfield
    with pytest.raises(IllegalAction, match="brings pigs, not goats"):
        state.apply(0, "animal goat at 0,0/SW")
    with pytest.raises(IllegalAction, match="no card of your farm"):
        state.apply(0, "animal pig at 4,4/SW")
    state.apply(0, "animal pig at 0,0/NW")
    assert state.farms[0].count("pig") == 2
    assert state.farmyard["pig"] == 3
    assert "P4" in state.discard and state.pending is None  # the animal card is discarded


def test_animal_card_needs_enough_tokens_in_the_farmyard() -> None:
    # player 1 holds 3 pigs and player 0 one: one pig is left in the farmyard, P4 needs two.
    state = make_state(
        ["farm at 0,0\npig at 0,0/SE", "farm at 0,0\npig at 0,0/SE\npig at 0,0/SW\npig at 0,0/NW"],
        ["P4", "P1", "F1", "F3"],
        ["F2"],
    )
    assert state.farmyard["pig"] == 1
    assert state.legal_actions(0) == [Take(2)]  # P1 (one pig) can be played; F1, F3 fit nowhere
    with pytest.raises(IllegalAction, match="farmyard has 1"):
        state.apply(0, "take 1")


# --- the forced discard (rulebook, Note under Gameplay) ------------------------------------


def test_when_no_card_can_be_played_one_must_be_taken_and_discarded() -> None:
    # Farm full of animals, only animal cards and fence cards that fit nowhere face up.
    state = make_state([FULL_FARM], ["P1", "G1", "F1", "F3"], ["F2"])
    assert state.legal_actions(0) == [Discard(1), Discard(2), Discard(3), Discard(4)]
    with pytest.raises(IllegalAction, match="free animal cell"):
        state.apply(0, "take 1")
    with pytest.raises(IllegalAction, match="fits nowhere"):
        state.apply(0, "take 3")
    state.apply(0, "discard 2")
    assert "G1" in state.discard
    assert state.table == ["P1", "F1", "F3", "F2"]  # refilled
    assert state.farms[0].count("goat") == 1  # nothing was played


def test_discarding_is_not_allowed_when_a_card_can_be_played() -> None:
    state = make_state([FULL_FARM], ["P1", "G1", "A1", "F3"], ["F2"])
    assert state.legal_actions(0) == [Take(3)]
    with pytest.raises(IllegalAction, match="only when none can be played"):
        state.apply(0, "discard 1")


# --- wolves ---------------------------------------------------------------------------------------

PIGS_IN_AND_OUT = PEN_2X2_WITH_ANIMAL_CELL + "pig at 1,0/NW\npig at 0,0/SE\ngoat at 0,0/SW"
"""One pig inside the enclosed pen, one pig and one goat outside it."""


def test_wolf_scatters_its_kind_outside_pens_for_every_player() -> None:
    other = "farm at 0,0\npig at 0,0/NW"
    state = make_state([PIGS_IN_AND_OUT, other], ["A1", "P1", "G1", "K1"], ["WP1", "F2", "F4"])
    epoch = state.info_epoch()
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    mine = state.farms[0]
    assert mine.animals == {(1, 0, NW): "pig", (0, 0, SW): "goat"}  # the pig in the pen stays
    assert state.farms[1].animals == {}  # the other player's exposed pig is scattered too
    assert state.farmyard["pig"] == 5 - 1
    assert "WP1" in state.discard
    assert state.table == ["P1", "G1", "K1", "F2"]  # the wolf was replaced by the next card
    assert state.info_epoch() == epoch + 2  # two cards revealed
    assert any("wolf WP1" in e for e in state.events)


def test_wolf_of_another_kind_leaves_pigs_alone() -> None:
    state = make_state([PIGS_IN_AND_OUT], ["A1", "P1", "G1", "K1"], ["WK1", "F2"])
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert len(state.farms[0].animals) == 3


def test_wolves_in_a_row_are_each_resolved() -> None:
    state = make_state([PIGS_IN_AND_OUT], ["A1", "P1", "G1", "K1"], ["WP1", "WG1", "F2"])
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert state.farms[0].animals == {(1, 0, NW): "pig"}
    assert state.table[-1] == "F2"


def test_solo_wolf_discards_face_up_animal_cards_of_its_kind_then_refills_to_four() -> None:
    state = make_state([PIGS_IN_AND_OUT], ["A1", "P1", "G1", "K1"], ["WP1", "F2", "F4", "E2"])
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert "P1" in state.discard  # the pig card went with the wolf
    assert state.table == ["G1", "K1", "F2", "F4"]  # refilled to four
    assert state.farms[0].animals == {(1, 0, NW): "pig", (0, 0, SW): "goat"}
    assert state.deck == ["E2"]


def test_solo_wolf_clears_all_variant_discards_every_face_up_animal_card() -> None:
    state = make_state(
        [PIGS_IN_AND_OUT],
        ["A1", "P1", "G1", "K1"],
        ["WP1", "F2", "F4", "E2", "E1"],
        variants=("solo-wolf-clears-all",),
    )
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert {"P1", "G1", "K1"} <= set(state.discard)
    assert state.table == ["F2", "F4", "E2", "E1"]


def test_multiplayer_wolf_keeps_face_up_animal_cards() -> None:
    state = make_state([PIGS_IN_AND_OUT, "farm at 0,0"], ["A1", "P1", "G1", "K1"], ["WP1", "F2"])
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert state.table == ["P1", "G1", "K1", "F2"]


# --- the end ---------------------------------------------------------------------------------------


def test_game_ends_when_deck_and_table_are_empty() -> None:
    state = make_state(["farm at 0,0", "farm at 0,0"], ["A1", "A2"], [])
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert not state.is_over() and state.table == ["A2"]  # no refill: the deck is empty
    state.apply(1, "take 1")
    state.apply(1, str(state.legal_actions(1)[0]))
    assert state.is_over()
    assert state.actors() == [] and state.legal_actions(0) == [] and state.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "take 1")


def test_wolf_as_the_last_card_leaves_three_on_the_table() -> None:
    state = make_state(["farm at 0,0"], ["A1", "A2", "A3", "A4"], ["WG1"])
    state.apply(0, "take 1")
    state.apply(0, str(state.legal_actions(0)[0]))
    assert state.table == ["A2", "A3", "A4"] and state.deck == []


# --- notation ---------------------------------------------------------------------------------------


def test_notation_tolerates_case_and_spaces_and_round_trips() -> None:
    state = make_state(["farm at 0,0"], ["A1", "B1", "C1", "D1"], ["F2"])
    assert state.parse_action(0, "  TAKE   3 ") == Take(3)
    state.apply(0, "take 4")
    assert state.parse_action(0, "Place d1 AT 1 , 0 rot 90") == Place("D1", 1, 0, 90)
    assert state.parse_action(0, "place D1 at 0,1") == Place("D1", 0, 1, 0)
    # D1 turned 180 looks like D1 unturned? No: its quarters differ, so 180 stays 180.
    assert state.parse_action(0, "place D1 at 0,1 rot 180") == Place("D1", 0, 1, 180)
    # A4 (fence cross, corn NE and SW) looks the same turned half way: rot 180 reads as rot 0.
    assert state.parse_action(0, "place A4 at 0,1 rot 180") == Place("A4", 0, 1, 0)
    assert state.parse_action(0, "place A4 at 0,1 rot 270") == Place("A4", 0, 1, 90)
    for action in state.legal_actions(0):
        assert state.parse_action(0, str(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("place D1 at 1,0 rot 45", "rot must be 0, 90, 180 or 270"),
        ("place P1 at 1,0", "not a fence card"),
        ("animal cow at 0,0/SE", "pig, goat or chicken"),
        ("hello", "cannot read"),
        ("", "empty move"),
    ],
)
def test_unreadable_notation_says_why(text: str, message: str) -> None:
    state = make_state(["farm at 0,0"], ["A1", "B1", "C1", "D1"], ["F2"])
    state.apply(0, "take 4")
    with pytest.raises(IllegalAction, match=message):
        state.apply(0, text)


def test_take_slot_out_of_range() -> None:
    state = make_state(["farm at 0,0"], ["A1", "B1", "C1", "D1"], ["F2"])
    with pytest.raises(IllegalAction, match="4 face-up cards"):
        state.apply(0, "take 5")
    with pytest.raises(IllegalAction, match="take a card first"):
        state.apply(0, "place A1 at 1,0")
    with pytest.raises(IllegalAction, match="take an animal card first"):
        state.apply(0, "animal pig at 0,0/SE")


# --- information --------------------------------------------------------------------------------


def test_view_hides_deck_order_and_determinize_resamples_it() -> None:
    state = GAME.new_game(players=2, seed=11)
    view = json.dumps(state.view(0))
    for card in state.deck:
        assert f'"{card}"' not in view
    assert state.view(0)["deck_size"] == len(state.deck)
    other = state.determinize(0, 99)
    assert sorted(other.deck) == sorted(state.deck)
    assert other.deck != state.deck
    assert other.view(0) == state.view(0)


def test_corrupt_saves_are_refused() -> None:
    state = make_state([PIGS_IN_AND_OUT], ["A1", "P1", "G1", "K1"], ["WP1", "F2", "F4"])
    good = json.loads(state.to_json())
    assert GAME.from_json(state.to_json()).to_json() == state.to_json()

    def broken(change: object) -> str:
        data = json.loads(json.dumps(good))
        change(data["state"])  # type: ignore[operator]
        return json.dumps(data)

    bad_edits = [
        lambda s: s["farmyard"].update(pig=5),  # 5 in the yard + 2 on the farm: 17 tokens
        lambda s: s["deck"].append("A1"),  # a card twice
        lambda s: s["farms"][0]["cards"].__setitem__(2, [1, 0, "C2", 45]),  # bad rotation
        lambda s: s["farms"][0]["cards"].__setitem__(2, [1, 0, "C2", 0]),  # sides do not match
        lambda s: s["farms"][0]["animals"].append([0, 0, "NE", "pig"]),  # not an animal cell
        lambda s: s.update(current=3),
        lambda s: s.update(players="two"),
        lambda s: s.pop("table"),
        lambda s: s["table"].append("WG1"),  # a fifth face-up card, and a wolf
    ]
    for edit in bad_edits:
        with pytest.raises(CorruptSave):
            GAME.from_json(broken(edit))


def test_tokens_start_at_fifteen() -> None:
    state = GAME.new_game(players=3, seed=2)
    assert sum(state.farmyard.values()) == TOTAL_TOKENS == 15


def test_render_text_shows_fences_pens_animals_and_gaps() -> None:
    state = make_state([PIGS_IN_AND_OUT], ["A3", "P1", "G1", "K1"], ["WP1", "F2", "F4"])
    board = state.render_text(0)
    assert "\x1b" not in board  # no colour codes
    assert "[P]" in board  # the pig inside the pen is bracketed
    assert " P " in board  # the pig outside is not
    assert "---H---" in board  # the farmhouse on its fence cross
    assert "[#]" in board  # a cornfield inside the pen
    assert "(gap)" not in "\n".join(render_farm(state.farms[0]))  # no empty place between cards
    gap = make_state(["farm at 0,0\nA1 at 1,0\nA2 at 2,0\nA3 at 2,1\nA4 at 2,2\nH2 at 1,2\nH3 at 0,2"], ["E1"])
    drawn = render_farm(gap.farms[0])
    # (1,1) lies between cards: drawn as a gap in the middle line of the y=1 row
    assert "(gap)" in drawn[1 + 4 + 2]
    assert "score" in board and "legend" in board


def test_refusing_an_unplayable_take_points_to_the_discard() -> None:
    state = make_state([FULL_FARM], ["P1", "G1", "F1", "F3"], ["F2"])
    with pytest.raises(IllegalAction, match=r"discard one \(discard 1 .. discard 4\)"):
        state.apply(0, "take 2")
    playable = make_state([FULL_FARM], ["P1", "G1", "D1", "F3"], ["F2"])
    with pytest.raises(IllegalAction, match="you can play: take 3"):
        playable.apply(0, "take 2")


def test_heuristic_prefers_points_and_animals_safe_in_pens() -> None:
    safe = PEN_2X2_WITH_ANIMAL_CELL + "pig at 1,0/NW"  # 1 animal, in a pen: 1 point
    exposed = PEN_2X2_WITH_ANIMAL_CELL.replace("C2", "C1") + "pig at 0,0/SE"  # 4 corn + 1 pig: 5
    state = make_state([safe, "farm at 0,0\npig at 0,0/SE"], ["A1", "A2", "A3", "A4"], [])
    # same score (1 each), but player 0's pig cannot be scattered
    assert state.result().totals == [1, 1]
    assert state.heuristic(0) > 0 > state.heuristic(1)
    richer = make_state([exposed, "farm at 0,0"], ["A1", "A2", "A3", "A4"], [])
    assert richer.heuristic(0) > richer.heuristic(1)
    solo = make_state([safe], ["A1", "A2", "A3", "A4"], [])
    assert solo.heuristic(0) > solo.result().totals[0]


def test_drawing_of_a_turned_card_and_of_the_taken_card() -> None:
    # C7 turned 90: fences east and south; quarters NE=G, SE=C, SW=C, NW=G.
    assert draw_card(ORIENTED["C7", 90]) == (" .   . ", "   +---", " # | # ")
    state = make_state(["farm at 0,0"], ["A1", "B1", "C1", "D1"], ["F2"])
    state.apply(0, "take 4")
    board = state.render_text(0)
    # the taken D1 is drawn in its distinct rotations so the player can choose one
    assert all(f"rot {r}" in board for r in (0, 90, 180, 270))
