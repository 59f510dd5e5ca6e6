"""Rule scenarios from hand-built positions: setup, rounds, placement, building, every ability.

Towns are 16 tokens row by row (A1 B1 C1 D1 / A2 ...): ``.`` empty, W H B G S cubes,
three-letter building codes, MON the monument (see builder.py).
"""

from __future__ import annotations

import json

import pytest

from farmtable.core import IllegalAction
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.rules import GAME, Action, TinyTownsState
from tests.games.tiny_towns.builder import position

E = ". . . ."


def town(*rows: str) -> str:
    """Join four rows."""
    return " ".join(rows)


EMPTY = town(E, E, E, E)


def refused(state: TinyTownsState, player: int, move: str, words: str) -> None:
    """The move is refused with a message containing ``words``, and the state is unchanged."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(player, move)
    assert words in str(info.value), str(info.value)
    assert state.to_json() == before


def builds(state: TinyTownsState, player: int) -> list[str]:
    """The build actions of ``player`` as notation."""
    return [str(a) for a in state.legal_actions(player) if a.verb == "build"]


# --- setup -----------------------------------------------------------------------------------


def test_setup_cottage_plus_one_card_per_pile_and_two_monuments_each() -> None:
    state = GAME.new_game(players=6, seed=3)
    assert state.buildings[0] == "Cottage"
    assert [C.BUILDINGS[b].colour for b in state.buildings[1:]] == list(C.PILES)
    dealt = [m for t in state.towns for m in t.dealt]
    assert len(dealt) == 12 and len(set(dealt)) == 12
    assert state.actors() == list(range(6))
    assert [str(a) for a in state.legal_actions(2)] == [f"keep {m}" for m in state.towns[2].dealt]


def test_first_game_set_and_chosen_buildings() -> None:
    assert GAME.new_game(players=2, seed=1, variants=("first-game",)).buildings == C.FIRST_GAME_SET
    chosen = ["Bank", "Inn", "Cloister", "Tailor", "Shed", "Orchard"]
    state = GAME.new_game(players=2, seed=1, buildings=chosen)
    assert state.buildings == ("Cottage", "Orchard", "Shed", "Tailor", "Cloister", "Inn", "Bank")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"buildings": ["Farm", "Granary", "Well", "Theater", "Chapel", "Tavern"]}, "one card of each pile"),
        ({"buildings": ["Castle"]}, "not a Tiny Towns building"),
        ({"buildings": "Farm"}, "must be a list"),
        ({"colour": "red"}, "unknown option"),
        ({"players": 1, "buildings": ["Farm", "Well", "Theater", "Chapel", "Inn", "Factory"]}, "solo removes Inn"),
        ({"variants": ("first-game",), "buildings": ["Farm"]}, "first-game fixes"),
        ({"players": 1, "variants": ("town-hall",)}, "Town Hall"),
        ({"variants": ("no-monuments", "shrine-excludes-self")}, "no-monuments removes them"),
    ],
)
def test_setup_refusals_say_why(kwargs: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"players": 2, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=words):
        GAME.new_game(**args)  # type: ignore[arg-type]


def test_solo_feast_hall_reading_removes_feast_hall_instead_of_inn() -> None:
    inns = 0
    for seed in range(40):
        state = GAME.new_game(players=1, seed=seed, variants=("solo-removes-feast-hall",))
        assert "Feast Hall" not in state.buildings and "Bank" not in state.buildings
        inns += "Inn" in state.buildings
    assert inns  # Inn is back in the green pile
    with pytest.raises(ValueError, match="solo rule"):
        GAME.new_game(players=3, variants=("solo-removes-feast-hall",))
    with pytest.raises(ValueError, match="solo removes Feast Hall"):
        GAME.new_game(
            players=1,
            variants=("solo-removes-feast-hall",),
            buildings=["Farm", "Well", "Theater", "Chapel", "Feast Hall", "Factory"],
        )


def test_solo_never_uses_the_removed_cards() -> None:
    for seed in range(40):
        state = GAME.new_game(players=1, seed=seed)
        assert not set(state.buildings) & set(C.SOLO_REMOVED)
        assert not set(state.towns[0].dealt) & set(C.SOLO_REMOVED)
        assert len(state.face_up) == 3 and len(state.deck) == 12


# --- monuments kept in secret (Setup 10) ----------------------------------------------------------


def test_monument_choice_is_simultaneous_and_hidden() -> None:
    state = GAME.new_game(players=3, seed=5)
    kept = state.towns[0].dealt[0]
    state.apply(0, f"keep {kept}")
    assert state.actors() == [1, 2]
    seen_by_1 = json.dumps(state.view(1))
    assert kept not in seen_by_1 and state.towns[0].dealt[1] not in seen_by_1
    assert state.view(1)["towns"][0]["monument_chosen"] is True
    assert state.view(0)["towns"][0]["monument"] == kept
    epoch = state.info_epoch()
    state.apply(1, f"keep {state.towns[1].dealt[1]}")
    refused(state, 2, f"keep {kept}", "you were dealt")
    state.apply(2, f"keep {state.towns[2].dealt[0]}")
    assert state.info_epoch() == epoch + 1
    assert state.phase == "name" and state.actors() == [0]


# --- a round: name, place together, build, done ----------------------------------------------------


def test_a_round_master_builder_names_all_place_hidden_then_build() -> None:
    state = position([EMPTY, EMPTY], phase="name")
    assert [str(a) for a in state.legal_actions(0)] == [f"name {r}" for r in C.RESOURCES]
    assert state.legal_actions(1) == []
    state.apply(0, "name glass")
    assert state.towns[0].mb_turns == 1
    assert state.actors() == [0, 1]
    state.apply(1, "place glass C3")
    # Player 1's placement is hidden from player 0 until everyone has placed.
    view = state.view(0)
    assert view["towns"][1]["has_placed"] is True
    assert "C3" not in json.dumps(view) and view["towns"][1]["grid"][10] == ""
    assert state.view(1)["towns"][1]["placement"] == "place glass C3"
    refused(state, 0, "place wood A1", "you must place glass")
    state.apply(0, "place glass A1")
    assert state.towns[1].grid[10] == "glass" and state.towns[0].grid[0] == "glass"
    assert state.phase == "build" and state.actors() == [0, 1]
    state.apply(0, "done")
    state.apply(1, "done")
    # The hammer passes left.
    assert state.phase == "name" and state.mb == 1 and state.round == 1


def test_resources_go_on_empty_squares_only() -> None:
    state = position([town("W . . .", E, E, E)], phase="place", named="wood")
    refused(state, 0, "place wood A1", "A1 already holds wood")
    assert len(state.legal_actions(0)) == 15


def test_build_removes_the_cubes_and_places_the_building_on_one_of_its_squares() -> None:
    state = position([town(". H . .", "B G . .", E, E)])
    assert builds(state, 0) == [
        "build Cottage A2 B1 B2 at A2",
        "build Cottage A2 B1 B2 at B1",
        "build Cottage A2 B1 B2 at B2",
    ]
    refused(state, 0, "build Cottage A2 B1 B2 at C3", "must go on a square its resources came from")
    state.apply(0, "build Cottage B2 A2 B1 at b1")  # any order of squares, any case
    assert state.towns[0].grid[:8] == ["", "Cottage", "", "", "", "", "", ""]


def test_wrong_shape_is_refused_with_the_pattern() -> None:
    state = position([town("H B G .", E, E, E)])
    refused(state, 0, "build Cottage A1 B1 C1 at A1", "Cottage needs wheat, brick and glass")
    refused(state, 0, "build Bakery A1 B1 C1 at A1", "Bakery is not in play")


@pytest.mark.parametrize("corner", range(4))
@pytest.mark.parametrize("mirrored", [False, True])
def test_cottage_recognised_in_all_eight_orientations(corner: int, mirrored: bool) -> None:
    # A 2x2 box at B2 C2 / B3 C3; glass in the corner, wheat and brick beside it, the
    # diagonal square empty: 4 corners x 2 ways round = the 8 orientations.
    box = [5, 6, 10, 9]  # clockwise: B2 C2 C3 B3
    g = [""] * 16
    glass = box[corner]
    left, right = box[(corner - 1) % 4], box[(corner + 1) % 4]
    g[glass] = "glass"
    g[left], g[right] = ("brick", "wheat") if mirrored else ("wheat", "brick")
    state = position([EMPTY])
    state.towns[0].grid = g
    state._cache.clear()
    names = sorted(["B2", "C2", "C3", "B3"][i] for i in range(4) if i != (corner + 2) % 4)
    assert builds(state, 0)[0].startswith(f"build Cottage {' '.join(names)} at")
    assert len(builds(state, 0)) == 3


def test_farm_all_orientations_and_not_the_diagonal() -> None:
    for rows in ("H H . . W W . .", "W W . . H H . .", "H W . . H W . .", "W H . . W H . ."):
        state = position([rows + " " + E + " " + E])
        assert len(builds(state, 0)) == 4, rows
    state = position([town("H W . .", "W H . .", E, E)])
    assert builds(state, 0) == []


def test_long_pattern_mirrored_and_turned() -> None:
    # Factory "W . . . / B S S B" mirrored and stood on end in column D.
    state = position([town(". . . B", ". . . S", ". . . S", ". . W B")])
    assert next(b for b in builds(state, 0) if "Factory" in b) == "build Factory C4 D1 D2 D3 D4 at C4"


def test_a_resource_builds_only_one_building() -> None:
    state = position(
        [town("W S W .", E, E, E)], buildings=("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Factory")
    )
    state.apply(0, "build Well A1 B1 at A1")
    assert builds(state, 0) == []  # the stone is gone


# --- completing towns, passing the hammer, the end -----------------------------------------------


FULL = town("W W W W", "W W W W", "W W W W", "W W W .")


def test_a_full_town_that_says_done_is_complete_and_leaves_the_rotation() -> None:
    state = position([FULL, EMPTY, EMPTY], phase="place", named="wood", mb=2)
    for p in (0, 1, 2):
        state.apply(p, "place wood D4" if p == 0 else "place wood A1")
    for p in (0, 1, 2):
        state.apply(p, "done")
    assert state.towns[0].complete
    assert state.mb == 1  # from seat 2 the hammer passes left, skipping the complete seat 0
    assert state.actors() == [1]
    state.apply(1, "name wood")
    assert state.actors() == [1, 2]  # the complete town no longer places


def test_the_last_player_names_alone_and_the_game_ends_when_all_towns_are_complete() -> None:
    state = position([FULL, FULL], phase="place", named="wood", mb=0)
    state.apply(0, "place wood D4")
    state.apply(1, "place wood D4")
    state.apply(0, "done")
    state.towns[1].grid[15] = ""  # player 1 built something and still has a square free
    state._cache.clear()
    state.apply(1, "done")
    assert state.towns[0].complete and not state.towns[1].complete
    assert state.mb == 1 and state.actors() == [1]
    state.apply(1, "name stone")
    state.apply(1, "place stone D4")
    state.apply(1, "done")
    assert state.is_over() and state.actors() == []
    assert state.result().totals == [-16, -16]


def test_a_player_with_a_full_town_may_still_build_before_done() -> None:
    state = position([town("H H W W", "W W W W", "W W W W", "W W W .")], phase="place", named="wood")
    state.apply(0, "place wood D4")
    assert "build Farm A1 A2 B1 B2 at A1" in builds(state, 0)
    state.apply(0, "build Farm A1 A2 B1 B2 at A1")
    state.apply(0, "done")
    assert not state.towns[0].complete


# --- Shed and Obelisk: anywhere ------------------------------------------------------------------


def test_shed_may_go_on_any_empty_square() -> None:
    set_with_shed = ("Cottage", "Farm", "Shed", "Theater", "Chapel", "Tavern", "Factory")
    state = position([town("W S H H", "H H H H", "H H H H", "H H H .")], buildings=set_with_shed)
    sheds = [b for b in builds(state, 0) if "Shed" in b]
    assert sheds == ["build Shed A1 B1 at A1", "build Shed A1 B1 at B1", "build Shed A1 B1 at D4"]


def test_obelisk_lets_every_later_building_go_anywhere() -> None:
    rows = town("W S . .", E, E, ". . . MON")
    state = position([rows], variants=(), monuments=[("Obelisk of the Crescent", True)])
    assert len(builds(state, 0)) == 15  # the two pattern squares and the 13 empty ones
    state = position([rows], variants=(), monuments=[("Obelisk of the Crescent", False)])
    assert len(builds(state, 0)) == 2


# --- monuments: only the holder, once -----------------------------------------------------------


def test_only_the_holder_builds_their_monument_once() -> None:
    starloom = town("G G . .", "W H . .", E, E)  # The Starloom: G G / W H
    state = position([starloom, starloom], variants=(), monuments=[("The Starloom", False), ("Fort Ironweed", False)])
    assert any("The Starloom" in b for b in builds(state, 0))
    assert not any("The Starloom" in b for b in builds(state, 1))
    refused(state, 1, "build The Starloom A1 A2 B1 B2 at A1", "only the player holding The Starloom")
    state.apply(0, "build The Starloom A1 A2 B1 B2 at A1")
    assert state.towns[0].built
    state.towns[0].grid[4:6] = ["glass", "glass"]
    state.towns[0].grid[8:10] = ["wood", "wheat"]
    state._cache.clear()
    assert not any("The Starloom" in b for b in builds(state, 0))
    refused(state, 0, "build The Starloom A2 A3 B2 B3 at A2", "already built")


def test_monuments_are_hidden_until_built_then_public() -> None:
    state = position([EMPTY, EMPTY], variants=(), monuments=[("Silva Forum", False), ("The Sky Baths", True)])
    assert "Silva Forum" not in json.dumps(state.view(1))
    assert "Silva Forum" not in json.dumps(state.view(None))
    assert state.view(0)["towns"][1]["monument_built"] == "The Sky Baths"


# --- black abilities -----------------------------------------------------------------------------


def test_factory_holds_a_resource_and_lets_you_take_another_when_others_name_it() -> None:
    state = position([town("W . . .", "B S S B", E, E), EMPTY])
    state.apply(0, "build Factory A1 A2 B2 C2 D2 at A1")
    assert state.towns[0].pending and [str(a) for a in state.legal_actions(0)] == [f"choose {r}" for r in C.RESOURCES]
    refused(state, 0, "done", "first settle your Factory")
    state.apply(0, "choose stone")
    state.apply(0, "done")
    state.apply(1, "done")
    assert state.mb == 1
    state.apply(1, "name stone")  # another player names the Factory's resource
    kinds = {a.what for a in state.legal_actions(0) if a.verb == "place"}
    assert kinds == set(C.RESOURCES)
    assert {a.what for a in state.legal_actions(1) if a.verb == "place"} == {"stone"}


def test_factory_does_not_help_its_owner_when_they_name() -> None:
    state = position([EMPTY, EMPTY], phase="place", named="stone", mb=0)
    state.towns[0].grid[0] = "Factory"
    state.towns[0].factory = {0: "stone"}
    state._cache.clear()
    refused(state, 0, "place wood B1", "you must place stone")


def test_warehouse_stores_swaps_holds_three_and_costs_a_point_per_cube() -> None:
    state = position([town("WAR . . .", E, E, "W W W W"), EMPTY], phase="place", named="glass", mb=1)
    state.towns[0].stored = {0: ["brick", "brick"]}
    state._cache.clear()
    legal = [str(a) for a in state.legal_actions(0)]
    assert "store glass A1" in legal
    assert "store glass A1 take brick B1" in legal
    state.apply(0, "store glass A1 take brick B1")
    state.apply(1, "place glass A1")
    assert state.towns[0].stored[0] == ["brick", "glass"] and state.towns[0].grid[1] == "brick"
    state.towns[0].stored[0] = ["brick", "glass", "glass"]
    state.phase, state.named = "place", "wood"
    state.towns[1].choice = None
    state._cache.clear()
    assert "store wood A1" not in [str(a) for a in state.legal_actions(0)]
    refused(state, 0, "store wood A1", "is full")
    sheet = state.result().breakdown[0]
    assert sheet["Warehouse"] == -3


def test_the_master_builder_cannot_use_a_warehouse() -> None:
    state = position([town("WAR . . .", E, E, E), EMPTY], phase="place", named="glass", mb=0)
    refused(state, 0, "store glass A1", "only takes resources named by another player")


def test_bank_resource_cannot_be_named_and_banks_hold_different_resources() -> None:
    bank = ("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Bank")
    state = position([town("H H . .", "W G B .", E, E), EMPTY], buildings=bank)
    state.apply(0, "build Bank A1 A2 B1 B2 C2 at A1")
    state.apply(0, "choose wheat")
    state.towns[0].grid[5] = "Bank"
    state.towns[0].bank[5] = ""
    state.towns[0].pending.append(("bank", 5, ""))
    state._cache.clear()
    assert "choose wheat" not in [str(a) for a in state.legal_actions(0)]
    state.apply(0, "choose glass")
    state.apply(0, "done")
    state.apply(1, "done")
    state.mb = 0
    state.phase = "name"
    state._cache.clear()
    assert [str(a) for a in state.legal_actions(0)] == ["name wood", "name brick", "name stone"]
    refused(state, 0, "name wheat", "on one of your Banks")


def test_trading_post_is_wild_stays_and_needs_a_real_resource() -> None:
    tp = ("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Trading Post")
    state = position([town("TRA W . .", E, E, ". . . TRA")], buildings=tp)
    assert builds(state, 0) == ["build Well A1 B1 at B1"]  # the Trading Post stands in for stone
    state.apply(0, "build Well A1 B1 at B1")
    assert state.towns[0].grid[0] == "Trading Post"  # it stays
    # two Trading Posts alone build nothing: a real resource is needed
    state = position([town("TRA TRA . .", E, E, E)], buildings=tp)
    assert builds(state, 0) == []


# --- monument abilities ----------------------------------------------------------------------------


def test_architects_guild_swaps_up_to_two_buildings() -> None:
    guild = town(". . G .", ". H S .", "W B . .", "COT FAR . .")
    state = position([guild], variants=(), monuments=[("Architect's Guild", False)])
    state.apply(0, "build Architect's Guild A3 B2 B3 C1 C2 at C1")
    legal = [str(a) for a in state.legal_actions(0)]
    assert len(legal) == 2 * 6 + 1 and legal[-1] == "pass"  # 2 buildings x 6 other types, or pass
    assert "swap C1 Farm" not in legal  # not the monument
    state.apply(0, "swap A4 Factory")
    assert [str(a) for a in state.legal_actions(0)][:1] == ["choose wood"]  # a new Factory takes a resource
    state.apply(0, "choose brick")
    state.apply(0, "swap B4 Tavern")
    assert state.towns[0].grid[12:14] == ["Factory", "Tavern"]
    assert state.legal_actions(0)[-1].verb == "done"  # two swaps used


def test_grove_university_places_a_building_at_once() -> None:
    grove = town(". B . .", "S G S .", E, E)
    state = position([grove], variants=(), monuments=[("Grove University", False)])
    state.apply(0, "build Grove University A2 B1 B2 C2 at B2")
    legal = [str(a) for a in state.legal_actions(0)]
    assert len(legal) == 7 * 15  # any of the 7 cards on any of the 15 empty squares
    refused(state, 0, "done", "Grove University")
    state.apply(0, "add Tavern D4")
    assert state.towns[0].grid[15] == "Tavern"


def test_opaleyes_watch_takes_the_neighbours_builds() -> None:
    watch = town("W . . .", "B G H H", "S . . .", E)
    cottage = town(". H . .", "B G . .", E, E)
    state = position(
        [watch, cottage, cottage, cottage],
        variants=(),
        monuments=[("Opaleye's Watch", False), ("", False), ("", False), ("", False)],
    )
    state.apply(0, "build Opaleye's Watch A1 A2 A3 B2 C2 D2 at A1")
    state.apply(0, "choose Cottage")
    state.apply(0, "choose Farm")
    state.apply(0, "choose Well")
    state.apply(0, "done")
    state.apply(2, "build Cottage A2 B1 B2 at A2")  # seat 2 is not a neighbour of seat 0
    assert not state.towns[0].pending
    state.apply(1, "build Cottage A2 B1 B2 at A2")  # seat 1 is on the left
    assert 0 in state.actors() and state.towns[0].opaleye == ["Farm", "Well"]
    state.apply(0, "add Cottage D4")
    assert state.towns[0].grid[15] == "Cottage"
    state.apply(3, "build Cottage A2 B1 B2 at A2")  # seat 3 is on the right, Cottage already taken
    assert not state.towns[0].pending


def test_statue_of_the_bondmaker_takes_a_cube_per_cottage() -> None:
    statue = town("MON COT COT .", E, E, E)
    state = position(
        [statue, EMPTY],
        variants=(),
        monuments=[("Statue of the Bondmaker", True), ("", False)],
        phase="place",
        named="brick",
        mb=1,
    )
    legal = [str(a) for a in state.legal_actions(0)]
    assert "place brick B1" in legal and "place brick C1" in legal
    state.apply(0, "place brick B1")
    state.apply(1, "place brick A1")
    assert state.towns[0].statue == [1] and state.towns[0].grid[1] == "Cottage"
    state.phase = "place"
    state.named = "wood"
    state._cache.clear()
    refused(state, 0, "place wood B1", "already holds a cube")


def test_fort_ironweed_owner_no_longer_takes_the_hammer() -> None:
    state = position(
        [EMPTY, EMPTY, EMPTY], variants=(), monuments=[("", False), ("Fort Ironweed", True), ("", False)], mb=0
    )
    for p in range(3):
        state.apply(p, "done")
    assert state.mb == 2  # seat 1 skipped


def test_shrine_value_is_fixed_when_built() -> None:
    shrine = town("B H S .", "W G W .", "COT COT COT .", "FAR . . .")
    state = position([shrine], variants=(), monuments=[("Shrine of the Elder Tree", False)])
    state.apply(0, "build Shrine of the Elder Tree A1 A2 B1 B2 C1 C2 at A1")
    assert state.towns[0].shrine_vp == 5  # 4 buildings + itself
    state = position([shrine], variants=("shrine-excludes-self",), monuments=[("Shrine of the Elder Tree", False)])
    state.apply(0, "build Shrine of the Elder Tree A1 A2 B1 B2 C1 C2 at A1")
    assert state.towns[0].shrine_vp == 4


def test_starloom_scores_by_the_round_the_town_was_completed() -> None:
    state = position(
        [FULL.replace("W .", "W MON").replace("W W W W W", "W W W W W", 1), FULL, FULL],
        variants=(),
        monuments=[("The Starloom", True), ("", False), ("", False)],
    )
    state.towns[0].grid[15] = "The Starloom"
    state.towns[1].completed = 0  # finished a round earlier
    state.round = 1
    state._cache.clear()
    assert state.starloom_place(0) == 2
    assert state.result().breakdown[0]["monument"] == 3


# --- Cavern ----------------------------------------------------------------------------------------


def test_cavern_holds_two_resources_named_by_others() -> None:
    state = position([EMPTY, EMPTY], variants=("cavern", "no-monuments"), phase="place", named="stone", mb=1)
    assert "cavern stone" in [str(a) for a in state.legal_actions(0)]
    assert "cavern stone" not in [str(a) for a in state.legal_actions(1)]  # the Master Builder
    refused(state, 1, "cavern stone", "named by another player")
    state.apply(0, "cavern stone")
    state.apply(1, "place stone A1")
    assert state.towns[0].cavern == ["stone"] and state.towns[0].grid == [""] * 16
    state.towns[0].cavern = ["stone", "wood"]
    state.phase = "place"
    state._cache.clear()
    refused(state, 0, "cavern stone", "already holds 2")
    assert state.result().breakdown[0]["empty squares"] == -16  # the cavern scores nothing


def test_no_cavern_without_the_variant() -> None:
    state = position([EMPTY, EMPTY], phase="place", named="stone", mb=1)
    refused(state, 0, "cavern stone", "variant not used")


# --- Town Hall ----------------------------------------------------------------------------------


def test_town_hall_two_drawn_rounds_then_a_free_choice() -> None:
    state = GAME.new_game(players=2, seed=4, variants=("town-hall", "no-monuments"))
    assert state.mb == -1 and len(state.removed) == 5 and len(state.deck) == 9  # the first card is up
    assert state.phase == "place" and state.named == state.discard[0]
    for _round in range(2):
        named = state.named
        assert {a.what for a in state.legal_actions(0) if a.verb == "place"} == {named}
        for p in (0, 1):
            state.apply(p, f"place {named} {'ABCD'[_round]}1")
        for p in (0, 1):
            state.apply(p, "done")
    assert state.free_round and state.named == ""
    assert {a.what for a in state.legal_actions(0)} == set(C.RESOURCES)
    assert not any(a.verb in ("store", "cavern") for a in state.legal_actions(0))
    epoch = state.info_epoch()
    state.apply(0, "place stone A2")
    state.apply(1, "place wheat A2")
    assert state.info_epoch() == epoch + 1


def test_town_hall_reshuffles_all_fifteen_and_removes_five_again() -> None:
    state = GAME.new_game(players=2, seed=9, variants=("town-hall", "no-monuments"))
    state.discard += state.deck  # as if all 10 cards had been revealed
    state.deck = []
    card = state._draw_town_hall_card()
    assert len(state.removed) == 5 and len(state.deck) == 9 and state.discard == [card]
    assert sorted(state.deck + state.removed + state.discard) == sorted(C.RESOURCE_DECK)


def test_town_hall_fort_owner_sits_out_free_rounds() -> None:
    state = position(
        [EMPTY, EMPTY],
        variants=("town-hall",),
        monuments=[("Fort Ironweed", True), ("", False)],
        phase="place",
        named="",
    )
    state.free_round = True
    state._cache.clear()
    assert state.actors() == [1]


# --- solo ----------------------------------------------------------------------------------------


def test_solo_reveal_three_pick_one_bottom_of_the_deck() -> None:
    state = GAME.new_game(players=1, seed=2, variants=("no-monuments",))
    shown = list(state.face_up)
    top = state.deck[0]
    assert [str(a) for a in state.legal_actions(0)] == [f"name {r}" for r in C.RESOURCES if r in shown]
    pick = shown[0]
    state.apply(0, f"name {pick}")
    assert state.deck[-1] == pick and top in state.face_up and len(state.face_up) == 3
    assert state.named == pick
    assert json.dumps(state.view(0)).count(top) >= 1
    assert "deck" not in json.dumps(state.view(0)["resource_deck"]["face_up"])


def test_solo_pick_counts_as_named_by_another_for_the_factory() -> None:
    state = position([EMPTY], phase="place", named="stone")
    state.towns[0].grid[0] = "Factory"
    state.towns[0].factory = {0: "stone"}
    state._cache.clear()
    assert {a.what for a in state.legal_actions(0)} == set(C.RESOURCES)


def test_solo_result_carries_the_rank() -> None:
    state = position([town("COT FAR COT COT", "COT . . .", E, E)])
    details = state.result().details
    assert details["solo_rank"] == "Aspiring Architect"
    assert len(details["solo_ranks"]) == 6


# --- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "   ", "build", "place wood Z9", "place mud A1", "build Castle A1 at A1", "keep Nothing", "🐖"],
)
def test_unreadable_notation_is_refused(text: str) -> None:
    state = position([EMPTY], phase="place", named="wood")
    refused(state, 0, text, "")


def test_notation_tolerates_case_and_spaces() -> None:
    state = position([town(". H . .", "B G . .", E, E)])
    state.apply(0, "  BUILD   cottage  a2 b1 b2   AT a2 ")
    assert state.towns[0].grid[4] == "Cottage"


def test_every_legal_action_reads_back_from_its_notation() -> None:
    from farmtable.games.tiny_towns.rules import parse_notation

    state = position(
        [town("W S H H", "W W B G", "S G G B", ". . . .")],
        variants=(),
        monuments=[("Obelisk of the Crescent", True)],
        buildings=("Cottage", "Farm", "Shed", "Theater", "Chapel", "Tavern", "Trading Post"),
    )
    for action in state.legal_actions(0):
        assert parse_notation(str(action)) == action


# --- saves, views, determinize -------------------------------------------------------------------


def test_damaged_saves_are_refused() -> None:
    from farmtable.core import CorruptSave

    state = position([town("W . . .", E, E, E), EMPTY], variants=(), monuments=[("Silva Forum", False), ("", False)])
    good = json.loads(state.to_json())
    damages = [
        ("grid", lambda s: s["towns"][0]["grid"].append("")),
        ("grid entry", lambda s: s["towns"][0]["grid"].__setitem__(0, "Castle")),
        ("monument", lambda s: s["towns"][0].__setitem__("monument", "The Starloom")),
        ("phase", lambda s: s.__setitem__("phase", "dance")),
        ("players", lambda s: s.__setitem__("players", 9)),
        ("buildings", lambda s: s.__setitem__("buildings", ["Cottage"])),
        ("round", lambda s: s.__setitem__("round", -1)),
        ("choice", lambda s: s["towns"][1].__setitem__("choice", "fly away")),
        ("missing", lambda s: s["towns"][1].pop("grid")),
        ("nobody to move", lambda s: [t.__setitem__("done", True) for t in s["towns"]]),  # fuzzing found it
    ]
    for label, damage in damages:
        data = json.loads(json.dumps(good))
        damage(data["state"])
        with pytest.raises(CorruptSave):
            GAME.from_json(json.dumps(data))
        assert label


def test_determinize_keeps_what_the_player_saw_and_resamples_the_rest() -> None:
    state = GAME.new_game(players=3, seed=21)
    for p in range(3):
        state.apply(p, state.legal_actions(p)[0])
    state.apply(0, "name wood")
    state.apply(1, "place wood A1")
    det = state.determinize(0, 5)
    assert json.dumps(det.view(0), sort_keys=True) == json.dumps(state.view(0), sort_keys=True)
    assert det.towns[0].dealt == state.towns[0].dealt
    real = [(t.dealt, t.monument) for t in state.towns[1:]]
    samples = [[(t.dealt, t.monument) for t in state.determinize(0, seed).towns[1:]] for seed in range(10)]
    assert any(sample != real for sample in samples)  # others' secret monuments are re-sampled
    assert det.towns[1].choice is not None and det.towns[1].choice.verb in ("place", "store", "cavern")
    seen = {m for t in det.towns for m in t.dealt}
    assert len(seen) == 6  # still 6 distinct cards


def test_render_shows_the_grid_the_cards_and_only_my_monument() -> None:
    state = position([town("W COT . .", E, E, E), EMPTY], variants=(), monuments=[("Silva Forum", False), ("", False)])
    text = state.render_text(0)
    assert "Silva Forum" in text and "Cottage" in text and "wood" in text
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("Cottage  "))
    assert lines[header + 1].strip().startswith(". H") and lines[header + 2].strip().startswith("B G")
    assert "Master Builder: player 0" in text
    assert "Silva Forum" not in state.render_text(1)
    assert "\x1b" not in text


def test_mausoleum_pattern_follows_the_chosen_reading() -> None:
    wheat = town("H H . .", "B S . .", E, E)
    wood = town("W W . .", "B S . .", E, E)
    mausoleum = [("Grand Mausoleum of the Rodina", False)]
    assert any("Mausoleum" in b for b in builds(position([wheat], variants=(), monuments=mausoleum), 0))
    assert not any("Mausoleum" in b for b in builds(position([wood], variants=(), monuments=mausoleum), 0))
    other = position([wood], variants=("mausoleum-wood-pattern",), monuments=mausoleum)
    assert any("Mausoleum" in b for b in builds(other, 0))


def test_an_opaleye_arrival_with_no_room_left_stays_on_the_card() -> None:
    # Seat 0 must first place a Grove University building on its last empty square; the Farm a
    # neighbour builds meanwhile then has no room and stays on Opaleye's Watch.
    state = position(
        [town("W W W W", "W W W W", "W W W W", "W W . MON"), town("H H . .", "W W . .", E, E)],
        variants=(),
        monuments=[("Opaleye's Watch", True), ("", False)],
    )
    state.towns[0].opaleye = ["Farm", "Well", "Tavern"]
    state.towns[0].pending = [("grove", 0, "")]
    state._cache.clear()
    state.apply(1, "build Farm A1 A2 B1 B2 at A1")
    assert state.towns[0].pending == [("grove", 0, ""), ("opaleye-move", 0, "Farm")]
    state.apply(0, "add Tavern C4")
    assert state.towns[0].pending == [] and "Farm" in state.towns[0].opaleye
    assert state.legal_actions(0)  # still able to act (done)


def test_town_hall_drawn_cards_count_as_named_by_another_for_everyone() -> None:
    state = position(
        [town("WAR . . .", E, E, E), EMPTY], variants=("town-hall", "no-monuments"), phase="place", named="glass"
    )
    assert state.mb == -1
    assert "store glass A1" in [str(a) for a in state.legal_actions(0)]


def test_town_hall_free_round_bars_your_bank_resources() -> None:
    state = position(
        [town("BAN . . .", E, E, E), EMPTY], variants=("town-hall", "no-monuments"), phase="place", named=""
    )
    state.free_round = True
    state.towns[0].bank = {0: "stone"}
    state._cache.clear()
    assert {a.what for a in state.legal_actions(0)} == set(C.RESOURCES) - {"stone"}
    refused(state, 0, "place stone B1", "on one of your Banks")


def test_greedy_heuristic_prefers_building_to_waiting() -> None:
    state = position([town(". H . .", "B G . .", E, E), EMPTY])
    scores = {}
    for action in state.legal_actions(0):
        after = state.clone()
        after.apply(0, action)
        scores[str(action)] = after.heuristic(0)
    assert max(scores, key=lambda k: scores[k]).startswith("build Cottage")
    assert scores["done"] < max(scores.values())


def _candidates(state: TinyTownsState) -> set[Action]:
    """A large universe of well-formed actions, legal or not."""
    from farmtable.games.tiny_towns.patterns import placements

    squares = range(16)
    found: set[Action] = {Action("done"), Action("pass")}
    for r in C.RESOURCES:
        found |= {Action("name", r), Action("cavern", r), Action("choose", r)}
        for sq in squares:
            found.add(Action("place", r, target=sq))
            for w in (0, 5):
                found.add(Action("store", r, (w,)))
                found |= {Action("store", r, (w,), sq, other) for other in C.RESOURCES}
    for name in [*C.BUILDINGS, "The Starloom", "Obelisk of the Crescent"]:
        found.add(Action("choose", name))
        for sq in squares:
            found |= {Action("add", name, target=sq), Action("swap", name, target=sq)}
        for pl in placements(C.ALL_CARDS[name].pattern):
            found |= {Action("build", name, pl.squares, sq) for sq in squares}
    return found


@pytest.mark.parametrize(
    "make",
    [
        lambda: position(
            [town("W S H TRA", "B G W S", "H H W W", ". . . .")],
            buildings=("Cottage", "Farm", "Shed", "Theater", "Chapel", "Tavern", "Trading Post"),
        ),
        lambda: position(
            [town("WAR FAC . .", ". WAR . .", E, E), EMPTY], variants=("cavern", "no-monuments"), phase="place", mb=1
        ),
        lambda: position(
            [town("G G W W", "W H . .", ". . . .", ". . . MON")],
            variants=(),
            monuments=[("The Starloom", False)],
        ),
    ],
)
def test_check_action_accepts_exactly_the_legal_actions(make: object) -> None:
    state = make()  # type: ignore[operator]
    if state.phase == "place":
        state.towns[0].stored = {0: ["brick"], 5: ["glass", "glass", "stone"]}
        state.towns[0].factory = {1: "wood"}
        state._cache.clear()
    legal = set(state.legal_actions(0))
    assert legal
    universe = _candidates(state) | legal
    before = state.to_json()
    for action in universe:
        try:
            state.check_action(0, action)
        except IllegalAction as exc:
            assert action not in legal, f"legal {action} refused: {exc}"
            assert str(exc)
        else:
            assert action in legal, f"illegal {action} accepted"
    assert state.to_json() == before


def test_undo_a_hidden_placement_until_the_step_resolves() -> None:
    from farmtable.core import History

    history = History(position([EMPTY, EMPTY], phase="place", named="wood"))
    history.apply(0, "place wood A1")
    assert history.why_no_undo(0) is None  # nothing revealed yet
    history.undo(0)
    history.apply(0, "place wood B2")
    history.apply(1, "place wood C3")  # the last placement reveals everyone's
    assert history.why_no_undo(1) is not None
    assert history.state.towns[0].grid[5] == "wood"


def test_heuristic_sees_its_own_hidden_placement_complete_a_pattern() -> None:
    state = position([town(". H . .", "B . . .", E, E), EMPTY], phase="place", named="glass")
    completes = state.clone()
    completes.apply(0, "place glass B2")  # still hidden: player 1 has not placed
    elsewhere = state.clone()
    elsewhere.apply(0, "place glass D4")
    assert completes.towns[0].grid[5] == ""  # not revealed yet
    assert completes.heuristic(0) > elsewhere.heuristic(0)
