"""The rulebook's own statements (rulebooks/tiny-towns.txt), each as a test from a small position."""

from __future__ import annotations

import pytest

from farmtable.core import IllegalAction
from tests.games.tiny_towns.builder import position, sheet

E = ". . . ."
EMPTY = " ".join([E] * 4)


def town(*rows: str) -> str:
    """Join four rows."""
    return " ".join(rows)


def test_no_building_before_the_named_resource_is_placed() -> None:
    # "Players cannot construct a building immediately after a resource has been named without
    # physically placing the resource cube in their town first."
    state = position([town(". H . .", "B G . .", E, E)], phase="place", named="wood")
    with pytest.raises(IllegalAction, match="first place this round's resource"):
        state.apply(0, "build Cottage A2 B1 B2 at A2")


def test_buildings_may_wait_for_later_rounds_and_several_may_be_built_at_once() -> None:
    # "Players may wait as many rounds as they want to construct a building." and
    # "Players may construct multiple buildings at once."
    state = position([town(". H . .", "B G W S", E, E), EMPTY], mb=0)
    state.apply(0, "done")
    state.apply(1, "done")
    state.apply(1, "name stone")
    state.apply(0, "place stone A4")
    state.apply(1, "place stone A4")
    state.apply(0, "build Cottage A2 B1 B2 at B2")
    state.apply(0, "build Well C2 D2 at C2")
    assert state.towns[0].grid[5:7] == ["Cottage", "Well"]


def test_resources_never_move_and_only_building_removes_them() -> None:
    # "Resources may never be moved to a different square after being placed." No action moves a cube.
    state = position([town("W . . .", E, E, E)], phase="place", named="brick")
    assert all(a.verb == "place" and a.target != 0 for a in state.legal_actions(0))


def test_unfed_cottages_stay_and_wells_still_count_them() -> None:
    # "Unfed Cottages at game end remain on the board but score no VP. Some other buildings (such
    # as Wells) still score points from unfed Cottages."
    s = sheet(town("COT WEL . .", E, E, E))
    assert s["Cottage"] == 0 and s["Well"] == 1 and s["empty squares"] == -14


def test_cottages_built_before_their_feeder_are_fed_at_the_end() -> None:
    # "Players may construct Cottages before or after constructing buildings" that feed them.
    state = position([town("COT H H .", ". W W .", E, E)])
    state.apply(0, "build Farm B1 B2 C1 C2 at B1")
    assert state.result().breakdown[0]["Cottage"] == 3


def test_a_negative_score_is_possible() -> None:
    # "It is possible to have a negative score."
    assert sum(sheet(EMPTY).values()) == -16


def test_every_player_may_build_every_building_except_others_monuments() -> None:
    # "Any player can construct any of the buildings (except other players' monuments)."
    cottage = town(". H . .", "B G . .", E, E)
    state = position([cottage, cottage, cottage])
    assert all(any(a.verb == "build" for a in state.legal_actions(p)) for p in range(3))


def test_a_full_town_may_still_place_and_name_while_it_has_room() -> None:
    # "A player may continue to place resources and name resources as the Master Builder as long as
    # they have space for the resources in their town, even if it will not be possible for them to
    # construct any buildings."
    nearly_full = town("W W W W", "W W W W", "W W W W", "W W W .")
    state = position([nearly_full, EMPTY], phase="name", mb=0)
    assert state.actors() == [0]
    state.apply(0, "name glass")
    assert 0 in state.actors()
