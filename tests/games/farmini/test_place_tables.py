"""Farmini's engine paths of issue 16, sixth round: fence placements read from per-card position tables
(``_PlacesAt``, ``fit_selectors``), the legal list remembered by the state itself (``remembers_legal``),
and the shuffle with SplitMix64 written out (``Rng.shuffle``); each against the plain computation."""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable.core import IllegalAction
from farmtable.core.rng import Rng
from farmtable.games.farmini import rules
from farmtable.games.farmini.components import ALL_CARDS, CARDS_V1, FenceCard
from farmtable.games.farmini.farm import FACES, POS_OFFSET, ROTATIONS, Y_BITS
from farmtable.games.farmini.rules import FarminiState, Place
from farmtable.games.farmini.scoring import GAPS_OPEN


def _random_states(players: int, variants: tuple[str, ...], seeds: range) -> list[FarminiState]:
    """Every position (a copy) of seeded random games, fence placements pending or not."""
    game = farmtable.get_game("farmini")
    seen = []
    for seed in seeds:
        state: FarminiState = game.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        while not state.is_over():
            seen.append(state.clone())
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
    return seen


def _plain_places(state: FarminiState) -> list[Place]:
    """The fence placements of the pending card, from ``Farm.placements`` (the plain per-slot listing)."""
    cid = state.pending
    assert cid is not None
    return [Place(cid, x, y, rot) for (x, y), rot in state.farms[state.current].placements(cid)]


@pytest.mark.parametrize(
    ("players", "variants"), [(1, ()), (2, ()), (3, (CARDS_V1,)), (4, (GAPS_OPEN,)), (2, (CARDS_V1, GAPS_OPEN))]
)
def test_fence_placements_equal_the_plain_listing(players: int, variants: tuple[str, ...]) -> None:
    checked = 0
    for state in _random_states(players, variants, range(6)):
        if state.pending is not None and isinstance(ALL_CARDS[state.pending], FenceCard):
            legal = state.legal_actions(state.current)
            assert legal == _plain_places(state)
            assert all(type(a) is Place for a in legal)
            checked += 1
    assert checked > 20


def test_a_full_table_makes_placements_afresh_and_lists_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    states = [
        s
        for s in _random_states(2, (), range(3))
        if s.pending is not None and isinstance(ALL_CARDS[s.pending], FenceCard)
    ]
    remembered = [s.legal_actions(s.current) for s in states]
    monkeypatch.setattr(rules, "_MAX_PLACE_POSITIONS", 0)
    fresh_table = rules._PlacesAt("C7")
    assert fresh_table[123 << 16 | 45] == fresh_table[123 << 16 | 45]
    assert len(fresh_table) == 0  # nothing kept beyond the bound
    monkeypatch.setattr(rules, "_PLACES_AT", {cid: rules._PlacesAt(cid) for cid in rules._FENCE_IDS})
    for state, before in zip(states, remembered, strict=True):
        state._legal = None
        assert state.legal_actions(state.current) == before == _plain_places(state)
    assert all(len(table) == 0 for table in rules._PLACES_AT.values())


def test_fit_selectors_pick_the_fit_table_rotations_in_order() -> None:
    for faces in FACES.values():
        for cid in faces.cards:
            selectors = rules.fit_selectors(faces, cid)
            table = faces.fit_table(cid)
            assert len(selectors) == len(table)
            for picked, rots in zip(selectors, table, strict=True):
                assert tuple(r for r, keep in zip(ROTATIONS, picked, strict=True) if keep) == rots


def test_the_position_table_makes_each_rotation_at_its_position() -> None:
    table = rules._PlacesAt("C7")
    x, y = -3, 5
    pos = (x + POS_OFFSET) << Y_BITS | (y + POS_OFFSET)
    assert table[pos] == tuple(Place("C7", x, y, rot) for rot in ROTATIONS)
    assert table[pos] is table[pos]  # made once


def test_the_handed_out_list_is_a_copy_and_edits_to_it_are_checked_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    game = farmtable.get_game("farmini")
    state: FarminiState = game.new_game(players=2, seed=4)
    checks = []
    original = FarminiState.check_action

    def counting(self: FarminiState, player: int, action: rules.Action) -> None:
        checks.append(action)
        original(self, player, action)

    monkeypatch.setattr(FarminiState, "check_action", counting)
    rng = random.Random(4)
    refused = 0
    while not state.is_over():
        player = state.actors()[0]
        legal = state.legal_actions(player)
        assert legal is not state.legal_actions(player)  # a fresh list each time
        foreign = Place("F1", 40, 40, 0)  # never legal: far from every card
        legal.append(foreign)
        saved = state.to_json()
        with pytest.raises(IllegalAction):
            state.apply(player, foreign)
        assert state.to_json() == saved  # refused: the state is unchanged
        refused += 1
        choice = legal[rng.randrange(len(legal) - 1)]
        state.apply(player, choice)  # from the list: no full check
    assert checks == [Place("F1", 40, 40, 0)] * refused


def test_an_equal_action_that_is_not_the_listed_object_is_checked_and_played(monkeypatch: pytest.MonkeyPatch) -> None:
    game = farmtable.get_game("farmini")
    state: FarminiState = game.new_game(players=2, seed=9)
    checked = []
    original = FarminiState.check_action

    def counting(self: FarminiState, player: int, action: rules.Action) -> None:
        checked.append(action)
        original(self, player, action)

    monkeypatch.setattr(FarminiState, "check_action", counting)
    player = state.actors()[0]
    listed = state.legal_actions(player)[0]
    copy = type(listed)(*listed)
    assert copy == listed and copy is not listed
    state.apply(player, copy)
    assert checked == [copy]


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3, 2**64 - 1])
def test_the_shuffle_equals_the_plain_fisher_yates_loop(seed: int) -> None:
    for n in (0, 1, 2, 3, 10, 61, 200):
        fast, plain = Rng(seed), Rng(seed)
        a, b = list(range(n)), list(range(n))
        fast.shuffle(a)
        plain.plain_shuffle(b)
        assert a == b
        assert fast.state == plain.state
        assert fast.next64() == plain.next64()


def test_the_keyed_generator_shuffles_like_the_plain_loop() -> None:
    fast = Rng((1 << 128) | 12345)
    plain = fast.copy()
    a, b = list(range(75)), list(range(75))
    fast.shuffle(a)
    plain.plain_shuffle(b)
    assert a == b and fast.state == plain.state
