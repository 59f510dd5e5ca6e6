"""Legal-action counts of hand-built positions, pinned (perft-style), each reasoned from the rules."""

from __future__ import annotations

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.rules import GAME
from tests.games.tiny_towns.builder import notations, position

E = ". . . ."
FIRST = C.FIRST_GAME_SET


def town(*rows: str) -> str:
    """Join four rows."""
    return " ".join(rows)


def test_opening_counts() -> None:
    state = GAME.new_game(players=4, seed=11)
    assert [len(state.legal_actions(p)) for p in range(4)] == [2, 2, 2, 2]  # keep 1 of 2 monuments
    for p in range(4):
        state.apply(p, state.legal_actions(p)[0])
    assert len(state.legal_actions(0)) == 5  # the Master Builder names one of 5 resources
    state.apply(0, "name wood")
    assert [len(state.legal_actions(p)) for p in range(4)] == [16] * 4  # wood on any of 16 squares


def test_an_l_of_three_builds_one_cottage_three_ways() -> None:
    state = position([town(". H . .", "B G . .", E, E)])
    assert len(state.legal_actions(0)) == 3 + 1  # 3 squares to put it on, and done


def test_overlapping_wells_share_the_stone() -> None:
    # A1 wood, A2 stone, A3 wood: Well on A1-A2 or A2-A3, each on either square.
    state = position([town("W . . .", "S . . .", "W . . .", E)])
    assert notations(state, 0) == [
        "build Well A1 A2 at A1",
        "build Well A1 A2 at A2",
        "build Well A2 A3 at A2",
        "build Well A2 A3 at A3",
        "done",
    ]


def test_theater_four_squares_four_spots_and_no_diagonal_well() -> None:
    state = position([town("W G W .", ". S . .", E, E)])
    # Theater ". S . / W G W" upside down on A1 B1 C1 B2; the stone is only diagonal to the wood.
    assert notations(state, 0) == [f"build Theater A1 B1 B2 C1 at {sq}" for sq in ("A1", "B1", "B2", "C1")] + ["done"]


def test_shed_with_the_rest_of_the_town_empty_has_sixteen_spots() -> None:
    shed_set = ("Cottage", "Farm", "Shed", "Theater", "Chapel", "Tavern", "Factory")
    state = position([town("W S . .", E, E, E)], buildings=shed_set)
    assert len(state.legal_actions(0)) == 16 + 1


def test_trading_post_pair_count() -> None:
    tp = ("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Trading Post")
    state = position([town(". . . .", "W TRA . .", E, E)], buildings=tp)
    assert notations(state, 0) == ["build Well A2 B2 at A2", "done"]


def test_warehouse_placement_count() -> None:
    full = town("WAR W W W", "W W W W", "W W W W", "W W . .")
    state = position([full, town(E, E, E, E)], phase="place", named="wood", mb=1)
    state.towns[0].stored = {0: ["brick", "glass"]}
    state._cache.clear()
    # 2 places + store + (take brick | take glass) x 2 empty squares
    assert len(state.legal_actions(0)) == 2 + 1 + 2 * 2
    cavern = position([full, town(E, E, E, E)], variants=("cavern", "no-monuments"), phase="place", mb=1)
    cavern.towns[0].stored = {0: ["brick", "glass"]}
    cavern._cache.clear()
    assert len(cavern.legal_actions(0)) == 2 + 1 + 2 * 2 + 1


def test_factory_placement_count() -> None:
    state = position([town("FAC W W W", "W W W W", "W W W W", "W . . ."), town(E, E, E, E)], phase="place", mb=1)
    state.towns[0].factory = {0: "wood"}
    state._cache.clear()
    assert len(state.legal_actions(0)) == 5 * 3  # any of 5 resources on 3 empty squares


def test_architects_guild_swap_count() -> None:
    state = position([town("COT FAR MON .", E, E, E)], variants=(), monuments=[("Architect's Guild", True)])
    state.towns[0].pending = [("guild", 2, "")]
    state._cache.clear()
    assert len(state.legal_actions(0)) == 2 * 6 + 1
